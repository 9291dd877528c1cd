"""The one static-site server of the tests and the benchmarks: the built site on 127.0.0.1.

``with serve(site) as url:`` serves the folder ``site`` on a free port of 127.0.0.1 in a
background thread and yields the root URL (``http://127.0.0.1:<port>/``); the server stops
when the block ends. ``gzip=True`` sends text files (HTML, CSS, JavaScript, JSON, SVG …)
gzip-compressed to a client that accepts it, as GitHub Pages does (``scripts/page_weight.py
--gzip``). It logs nothing, and a browser that drops a connection (it moved on to the next
page) is not an error.
"""

from __future__ import annotations

import contextlib
import functools
import gzip as _gzip
import http.server
import io
import threading
from pathlib import Path

TEXT = (".html", ".css", ".js", ".json", ".svg", ".txt", ".xml", ".map")


class Handler(http.server.SimpleHTTPRequestHandler):
    compress = False

    def log_message(self, format, *args):  # keep test and benchmark output readable
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):  # the browser moved on
            pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not (self.compress and path.suffix in TEXT and path.is_file()
                and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        data = _gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)


@contextlib.contextmanager
def serve(site: str | Path, gzip: bool = False):
    """Serve ``site`` until the block ends; yields its root URL."""
    site = Path(site)
    if not (site / "index.html").is_file():
        raise FileNotFoundError(f"{site} holds no built site (no index.html); run `mkdocs build` first")
    handler = functools.partial(type("SiteHandler", (Handler,), {"compress": gzip}), directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
