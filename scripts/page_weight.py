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
import os
import sys
from pathlib import Path

from coursebuild.paths import REPO_ROOT as ROOT
from coursebuild.static_server import serve
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]


def lesson_pages(site: Path) -> list[str]:
    pages = sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("lessons/*/index.html"))
    pages += sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("*/lessons/*/index.html"))
    return pages


def measure(site: Path, compress: bool) -> dict[str, int]:
    from playwright.sync_api import sync_playwright

    sizes = {}
    with serve(site, gzip=compress) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for path in lesson_pages(site):
            context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
            context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(url) else r.abort())
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
            done = []
            cdp.on("Network.loadingFinished", lambda e, done=done: done.append(e["encodedDataLength"]))
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
    return sizes


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("site", nargs="?", type=Path, default=ROOT / "site", help="the built site (default site/)")
    p.add_argument("--gzip", action="store_true", help="serve text files gzip-compressed, as GitHub Pages does")
    p.add_argument("--limit", type=float, default=1.5, help="MB (10^6 bytes) allowed per page (default 1.5)")
    a = p.parse_args(argv)
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
