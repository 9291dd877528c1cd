"""One browser visit per page and width: what the site-wide browser checks assert on.

Every HTML page of the built site is loaded twice, each time with every widget scrolled into
view and drawn (the model widgets load their weights then):

- at 1280 px (a desktop): axe-core in both palettes (the light one: every rule; the dark one,
  switched to with the page's own toggle: the rules that depend on colour), and, on the lesson
  pages, every figure as laid out with the folded blocks open (its URL, its pixel width, the
  width it is shown at, the lightbox link around it);
- at 390 px (a phone): what sticks out past the screen's right edge, before and after the widgets
  are drawn, and every widget control smaller than a finger (44 × 44 CSS px).

Both visits record the console errors and uncaught exceptions. The test modules
(test_accessibility_browser, test_phone_print_browser, test_touch_targets_browser,
test_figure_legibility_browser) assert on what was collected.

With pytest-xdist the pages are split into shards, each collected once per run into the run's
shared temp dir under its own file lock: a worker that needs the survey collects the shards no
other worker has taken, then waits for the rest, so two workers share the work and no page is
visited twice.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from test_accessibility_browser import AXE, COLOUR_RULES, DRAW_WIDGETS, PALETTE, SCHEMES, pages, run_axe, switch_palette
from test_figure_legibility_browser import FIGURES
from test_phone_print_browser import OVERFLOW, PHONE
from test_touch_targets_browser import SMALL, TARGET

SHARDS = 8
DESKTOP = {"width": 1280, "height": 900}
OPEN_FOLDED = """() => document.querySelectorAll("article details").forEach((d) => { d.open = true; })"""
DECODE_IMAGES = """() => Promise.all([...document.images].map((i) => i.decode().catch(() => null)))"""
HAS_WIDGETS = "() => document.querySelectorAll('.widget[data-widget]').length"


def is_lesson(path: str) -> bool:
    parts = path.strip("/").split("/")
    return len(parts) >= 2 and parts[-2] == "lessons" and (len(parts) == 2 or parts[0] == "en")


def _context(browser, site_url, **options):
    context = browser.new_context(service_workers="block", **options)
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(site_url) else r.abort())
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return context, page


def _visit(page, site_url, path) -> dict:
    page.errors.clear()
    response = page.goto(site_url + path, wait_until="load")
    return {"ok": bool(response and response.ok)}


def collect(browser, site_url, paths: list[str]) -> dict[str, dict]:
    """{path: {"desktop": {...}, "phone": {...}}} for ``paths`` (see the module)."""
    found = {path: {} for path in paths}
    context, page = _context(browser, site_url, viewport=DESKTOP, color_scheme="light")
    try:
        for path in paths:
            got = _visit(page, site_url, path)
            got["undrawn"] = page.evaluate(DRAW_WIDGETS)
            page.wait_for_timeout(150)  # the a11y script's debounce (assets/javascripts/a11y.js)
            page.add_script_tag(content=AXE)
            now = next((k for k, v in SCHEMES.items() if v == page.evaluate(PALETTE)), None)
            got["axe"] = {}
            for scheme in sorted(SCHEMES, key=lambda k: k != now):  # the current palette first
                switch_palette(page, scheme)
                got["axe"][scheme] = run_axe(page, None if scheme == "light" else COLOUR_RULES, inject=False)
            if is_lesson(path):
                # figures in folded ??? blocks are measured open, at the narrower width they get there
                page.evaluate(OPEN_FOLDED)
                page.evaluate(DECODE_IMAGES)
                got["figures"] = page.evaluate(FIGURES)
            got["errors"] = list(page.errors)
            found[path]["desktop"] = got
    finally:
        context.close()
    context, page = _context(browser, site_url, viewport=PHONE, device_scale_factor=2, is_mobile=True,
                             has_touch=True)
    try:
        for path in paths:
            got = _visit(page, site_url, path)
            page.wait_for_timeout(50)
            got["overflow"] = page.evaluate(OVERFLOW)  # as the page first comes up
            got["widgets"] = page.evaluate(HAS_WIDGETS)
            if got["widgets"]:
                got["undrawn"] = page.evaluate(DRAW_WIDGETS)
                got["small"] = page.evaluate(SMALL, TARGET)
                got["overflow_drawn"] = page.evaluate(OVERFLOW)
            got["errors"] = list(page.errors)
            found[path]["phone"] = got
    finally:
        context.close()
    return found


def shards(paths: list[str], n: int = SHARDS) -> list[list[str]]:
    return [paths[i::n] for i in range(n) if paths[i::n]]


def survey(browser, built_site: Path, site_url: str, shared: Path | None) -> dict[str, dict]:
    """Every page's collected results. ``shared``: the run's shared temp dir when several
    xdist workers may ask (each shard is then collected by one of them), else None."""
    parts = shards(pages(built_site))
    if shared is None:
        return {k: v for part in parts for k, v in collect(browser, site_url, part).items()}
    from filelock import FileLock, Timeout

    folder = shared / "survey"
    folder.mkdir(exist_ok=True)

    def take(i: int, part: list[str], timeout: float) -> bool:
        done = folder / f"shard-{i}.json"
        try:
            with FileLock(str(folder / f"shard-{i}.lock"), timeout=timeout):
                if not done.exists():
                    result = collect(browser, site_url, part)
                    tmp = done.with_suffix(f".{os.getpid()}.tmp")
                    tmp.write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
                    tmp.replace(done)
        except Timeout:
            return False
        return True

    left = [i for i, part in enumerate(parts) if not take(i, part, timeout=0)]  # free shards first
    for i in left:  # then wait for the ones other workers are collecting (or collect them)
        take(i, parts[i], timeout=-1)
    found = {}
    for i in range(len(parts)):
        found.update(json.loads((folder / f"shard-{i}.json").read_text(encoding="utf-8")))
    return found
