"""Printing handout pages to A4 PDFs with Debian's Chromium, one browser for all of them.

:mod:`coursebuild.outputs.handouts` writes each handout as one HTML page (its own stylesheet,
the vendored KaTeX and NanumGothic); here each page is opened from disk, its mathematics set by
KaTeX, fitted to its sheets (``handout/fit.js``: the type shrinks in small steps until every
sheet holds its content and every answer box keeps its least height) and printed with
Chromium's ``page.pdf``, which embeds the fonts it used (subsets).

Chromium is ``CHROMIUM_PATH``, else the first of :data:`NAMES` on the path, driven by Playwright (the
Python package, pinned in ``requirements.txt``; never ``playwright install``): without it the
build stops with :class:`ChromiumMissing`, which says how to install it.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .. import atomic

HERE = Path(__file__).resolve().parent / "handout"
FIT_JS = HERE / "fit.js"

# flags that keep Chromium from calling home (as the browser tests start it): a handout is
# made offline, from files only
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]


class ChromiumMissing(FileNotFoundError):
    """No Chromium to print the handouts with."""


class HandoutDoesNotFit(ValueError):
    """A handout's content is longer than its sheets, even in the smallest type."""


# where a Chromium (or Chrome) is looked for when CHROMIUM_PATH is not set: Debian's package
# first, then the names other systems give it (GitHub's Ubuntu runners ship Google Chrome)
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium() -> Path:
    """The Chromium binary, or :class:`ChromiumMissing` with how to install it."""
    import shutil

    named = os.environ.get("CHROMIUM_PATH")
    found = [Path(named)] if named else [Path(p) for p in map(shutil.which, NAMES) if p]
    if not found or not found[0].is_file():
        raise ChromiumMissing(
            f"Chromium not found ({'CHROMIUM_PATH=' + named if named else 'none of ' + ', '.join(NAMES) + ' on PATH'}): "
            "the handouts are printed with it. Install it with `bash scripts/setup.sh` (it runs "
            "`apt-get install -y chromium`), or `sudo apt-get install -y chromium` on Debian; set "
            "CHROMIUM_PATH for another build of Chromium, or turn the handouts off (`handouts: false` "
            "under the course plugin in mkdocs.yml)")
    return found[0]


def version_stamp() -> str:
    """What identifies the Chromium that prints (its binary's size and time), for cache keys:
    reading it costs nothing, where asking ``chromium --version`` starts a process."""
    st = chromium().stat()
    return f"{chromium()}:{st.st_size}:{int(st.st_mtime)}"


def print_pages(jobs: list[tuple[Path, Path, bool]]) -> list[dict]:
    """Print each ``(html, pdf, fixed)`` job: ``html`` (a file) to ``pdf`` (written atomically); a ``fixed`` page must
    fit its sheets (the student handout's two pages). One browser, one tab, every job in turn.
    Returns, per job, what fit.js reported ({"scale": ..., "ok": ...})."""
    if not jobs:
        return []
    binary = chromium()
    # Playwright's sync API refuses a thread with a running asyncio loop (MkDocs' serve, or a
    # test process whose browser fixture is open): the printing gets a thread of its own
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(_print_pages, jobs, binary).result()


def _print_pages(jobs: list[tuple[Path, Path, bool]], binary: Path) -> list[dict]:
    from playwright.sync_api import sync_playwright

    fit = FIT_JS.read_text(encoding="utf-8")
    reports = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(binary), args=ARGS)
        try:
            page = browser.new_page()
            page.emulate_media(media="print")
            for html, pdf, fixed in jobs:
                page.goto(Path(html).resolve().as_uri(), wait_until="load")
                report = page.evaluate(fit)
                if fixed and not report.get("ok"):
                    raise HandoutDoesNotFit(f"{Path(pdf).name}: the content does not fit two A4 pages "
                                            f"even at {report.get('scale')} of the type size "
                                            f"({report.get('why')}); shorten its source in docs/handouts/")
                data = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
                atomic.write_bytes(Path(pdf), data)
                reports.append(report)
        finally:
            browser.close()
    return reports
