"""Lesson figures are legible where they are shown, and open full size on a click or tap.

At 1280 px (a desktop) every lesson figure of both languages, as laid out by Chromium:

- is shown at no less than 70 % of its pixel width (it is drawn for the width it gets);
- its smallest text is at least 9 CSS px. plotting.save() writes the size of the figure's
  smallest text, in the PNG's own pixels, into the PNG ("min-text-px"); shown at
  ``rendered / natural`` of its width, that text is ``min-text-px × rendered / natural`` CSS px;
- is wrapped in the lightbox's link (mkdocs-glightbox), and a click opens it full size.
"""

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from PIL import Image

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOP = {"width": 1280, "height": 900}
MIN_TEXT_CSS_PX = 9.0
MIN_SHOWN = 0.70

FIGURES = """() => [...document.querySelectorAll("article img")].map((img) => ({
  src: img.currentSrc, natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
  alt: img.alt, box: img.closest("a.glightbox") ? img.closest("a.glightbox").href : null}))"""


def lesson_pages(site: Path) -> list[str]:
    return sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("**/lessons/*/index.html"))


def figure_file(site: Path, site_url: str, src: str) -> Path:
    return site / urlsplit(src).path.removeprefix(urlsplit(site_url).path)


def legibility(site: Path, site_url: str, found: dict) -> dict:
    with Image.open(figure_file(site, site_url, found["src"])) as png:
        text_px = float(png.text["min-text-px"]) if "min-text-px" in png.text else None
        width = png.width
    scale = found["shown"] / width
    return {"file": found["src"].rsplit("/", 3)[-3:], "shown": round(scale, 3),
            "text_css_px": round(text_px * scale, 2) if text_px else None}


def test_every_lesson_figure_is_shown_large_enough_to_read(built_site, site_url, survey):
    """From the one visit per page at 1280 px, folded blocks open (tests/browser/survey.py)."""
    measured, bad = [], []
    paths = lesson_pages(built_site)
    assert len(paths) == 18, paths
    for path in paths:
        for found in survey[path]["desktop"]["figures"]:
            if "/assets/generated/" not in found["src"]:
                continue
            got = legibility(built_site, site_url, found)
            measured.append(got)
            if got["text_css_px"] is None or got["text_css_px"] < MIN_TEXT_CSS_PX or got["shown"] < MIN_SHOWN:
                bad.append((path, got))
            if found["box"] != found["src"]:
                bad.append((path, "not in a lightbox link to itself", found))
    assert len(measured) >= 38, len(measured)
    assert not bad, "\n".join(map(str, bad))


def test_a_figure_opens_full_size_on_click(browser, site_url):
    for path in ("lessons/scaled-dot-product/", "en/lessons/scaled-dot-product/"):
        context = browser.new_context(viewport=DESKTOP, service_workers="block", has_touch=True)
        context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(site_url) else r.abort())
        page = context.new_page()
        try:
            page.goto(site_url + path, wait_until="networkidle")
            figure = page.locator("article a.glightbox img").first
            inline = figure.bounding_box()["width"]
            natural = figure.evaluate("(img) => img.naturalWidth")
            figure.click()
            opened = page.locator(".glightbox-container .gslide.current img")
            opened.wait_for(state="visible", timeout=5000)
            page.wait_for_timeout(600)  # the zoom animation
            big = opened.bounding_box()["width"]
            assert big > inline * 1.2 or big >= min(natural, DESKTOP["width"]) * 0.95, (path, inline, big, natural)
            page.keyboard.press("Escape")
            page.locator(".glightbox-container").wait_for(state="detached", timeout=5000)
        finally:
            context.close()
