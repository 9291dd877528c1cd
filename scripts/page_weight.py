#!/usr/bin/env python3
"""Bytes a reader downloads for each lesson page of the built site, on a cold cache.

Serves the built site (default ``site/``) on 127.0.0.1, opens every lesson page of both
languages in a fresh Chromium context (an empty cache), scrolls to the bottom so that lazily
loaded figures load too, and adds up the bytes of every response as they went over the wire
(Chromium's ``encodedDataLength``: headers and body). ``--gzip`` serves text files compressed,
as GitHub Pages does; without it, every file goes uncompressed (an upper bound). Prints one
line per page and the largest; exits 1 when a page is over ``--limit`` (default 1.5 MB).

Needs Debian's chromium (``bash scripts/setup.sh --test``); never downloads a browser.
"""

import argparse
import functools
import gzip
import http.server
import io
import os
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
TEXT = (".html", ".css", ".js", ".json", ".svg", ".txt", ".xml", ".map")


class Handler(http.server.SimpleHTTPRequestHandler):
    compress = False

    def log_message(self, format, *args):
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):  # the browser moved on to the next page
            pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not (self.compress and path.suffix in TEXT and path.is_file()
                and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        data = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)


def lesson_pages(site: Path) -> list[str]:
    pages = sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("lessons/*/index.html"))
    pages += sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("*/lessons/*/index.html"))
    return pages


def measure(site: Path, compress: bool) -> dict[str, int]:
    from playwright.sync_api import sync_playwright

    handler = functools.partial(type("H", (Handler,), {"compress": compress}), directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    sizes = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for path in lesson_pages(site):
                context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
                context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(url) else r.abort())
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
                done = []
                cdp.on("Network.loadingFinished", lambda e: done.append(e["encodedDataLength"]))
                page.goto(url + path, wait_until="networkidle")
                page.evaluate("""async () => {  // bring every lazy image into view
                  for (let y = 0; y < document.body.scrollHeight; y += innerHeight / 2) {
                    scrollTo(0, y); await new Promise((r) => setTimeout(r, 30)) }
                  await Promise.all([...document.images].map((i) => i.decode().catch(() => null)))
                }""")
                page.wait_for_load_state("networkidle")
                sizes[path] = int(sum(done))
                context.close()
            browser.close()
    finally:
        server.shutdown()
    return sizes


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("site", nargs="?", type=Path, default=ROOT / "site", help="the built site (default site/)")
    p.add_argument("--gzip", action="store_true", help="serve text files gzip-compressed, as GitHub Pages does")
    p.add_argument("--limit", type=float, default=1.5, help="MB (10^6 bytes) allowed per page (default 1.5)")
    a = p.parse_args()
    if not (a.site / "index.html").is_file():
        p.error(f"{a.site} holds no built site (index.html); build it first: .venv/bin/mkdocs build")
    sizes = measure(a.site, a.gzip)
    if not sizes:
        p.error(f"{a.site} has no lesson pages (lessons/*/index.html)")
    for path, n in sizes.items():
        print(f"{n / 1e6:6.3f} MB  {path}")
    worst = max(sizes, key=sizes.get)
    print(f"{len(sizes)} lesson pages, {'gzip' if a.gzip else 'uncompressed'}: "
          f"largest {sizes[worst] / 1e6:.3f} MB ({worst}), median {sorted(sizes.values())[len(sizes) // 2] / 1e6:.3f} MB")
    over = [path for path, n in sizes.items() if n > a.limit * 1e6]
    if over:
        print(f"over {a.limit} MB: {', '.join(over)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
