#!/usr/bin/env python
"""Measure the writer's loop: from saving one edit of a lesson's prose to the served page holding it.

Starts ``mkdocs serve`` in each mode below, side by side in one run, waits for its first build,
then edits one paragraph of a lesson page a few times (a new sentence each time, saved the way an
editor saves) and, for each edit, times how long until the page the server serves holds the new
sentence (polled every 20 ms). Modes:

1. ``full``: ``mkdocs serve`` as MkDocs ships it, every language rebuilt on every save;
2. ``writer``: ``COURSE_SERVE=ko mkdocs serve --dirty``, the course plugin's writer's mode (one
   language, only the pages whose source changed are built again, the build's other work
   reused from the first build; see README, "Preview while writing").

It prints each mode's times, their median and the ratio of the medians. The edited page is put
back as it was after each mode, also on Ctrl-C; do not edit it while this runs.

    python scripts/serve_benchmark.py                  # about 2-3 minutes with warm caches
    python scripts/serve_benchmark.py --mode writer --edits 5
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from coursebuild.paths import REPO_ROOT

PAGE = ("why-attention", "ko")  # the lesson edited (slug, language)
MODES = {  # name: (extra environment, extra arguments of mkdocs serve)
    "full": ({}, []),
    "writer": ({"COURSE_SERVE": "ko"}, ["--dirty"]),
}
FIRST_BUILD_S = 600  # a cold cache trains the experiments first: allow for it
EDIT_TIMEOUT_S = 120


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return None


def wait_for(url: str, text: str, timeout: float, server: subprocess.Popen) -> float:
    """Seconds until the page at ``url`` holds ``text``."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if server.poll() is not None:
            raise SystemExit(f"error: mkdocs serve stopped (exit {server.returncode}); run it by hand to see why")
        page = fetch(url)
        if page is not None and text in page:
            return time.perf_counter() - t0
        time.sleep(0.02)
    raise SystemExit(f"error: {url} did not show the edit within {timeout:.0f} s")


def save(path: Path, text: str) -> None:
    """Save as an editor does: the whole file written in place."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run_mode(name: str, edits: int, source: Path, url_path: str) -> list[float]:
    env_extra, args = MODES[name]
    port = free_port()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env_extra}
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}", *args],
                              cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    original = source.read_text("utf-8")
    anchor = original.split("\n\n## ", 2)[1].split("\n\n", 2)[1]  # the first paragraph of section 2
    if not anchor.strip() or anchor.lstrip().startswith(("[[", "|", "$$", "!!!", "???", "<", "#", "```")):
        raise SystemExit(f"error: {source}'s second section no longer starts with a paragraph; update PAGE")
    url = f"http://127.0.0.1:{port}/{url_path}"
    times = []
    try:
        wait_for(url, "</html>", FIRST_BUILD_S, server)
        time.sleep(1.0)  # the server is watching once the first page is served; let it settle
        for i in range(edits):
            mark = f"편집 시험 문장 {i + 1}번 {time.time_ns()}."
            save(source, original.replace(anchor, f"{anchor} {mark}", 1))
            times.append(wait_for(url, mark, EDIT_TIMEOUT_S, server))
            time.sleep(0.5)
    finally:
        save(source, original)
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--mode", choices=[*MODES, "both"], default="both", help="which serve to time")
    parser.add_argument("--edits", type=int, default=5, help="edits timed in each mode (default 5)")
    args = parser.parse_args(argv)
    if args.edits < 1:
        parser.error("--edits must be at least 1")
    slug, lang = PAGE
    source = REPO_ROOT / "docs" / lang / "lessons" / f"{slug}.md"
    url_path = ("" if lang == "ko" else f"{lang}/") + f"lessons/{slug}/"
    modes = list(MODES) if args.mode == "both" else [args.mode]
    results = {m: run_mode(m, args.edits, source, url_path) for m in modes}
    print(f"edit of docs/{lang}/lessons/{slug}.md until the served page holds it, {args.edits} edits each")
    print(f"{'mode':8s} {'median s':>9s} {'min s':>7s} {'max s':>7s}  each")
    for m, times in results.items():
        print(f"{m:8s} {statistics.median(times):9.2f} {min(times):7.2f} {max(times):7.2f}  "
              + " ".join(f"{t:.2f}" for t in times))
    if len(results) == 2:
        full, writer = (statistics.median(results[m]) for m in MODES)
        print(f"writer's mode takes {writer / full:.2f}× the time of the full rebuild ({full / writer:.1f}× faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
