"""Lesson pages in a real browser: offline, figures and math drawn, tooltips, language switch."""

import pytest
from test_site_browser import outside_requests

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSON = "lessons/scaled-dot-product/"  # figures, tables, formulas and included code
PAGES = {"ko": LESSON, "en": "en/" + LESSON}


def open_page(page, site_url, path):
    failed = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("requestfailed", lambda r: failed.append(f"{r.failure} {r.url}"))
    response = page.goto(site_url + path, wait_until="networkidle")
    assert response.ok
    return failed


@pytest.mark.parametrize("lang", PAGES)
def test_lesson_is_offline_complete_and_rendered(site_page, site_url, lang):
    failed = open_page(site_page, site_url, PAGES[lang])
    assert failed == [] and outside_requests(site_page.requests) == []
    site_page.wait_for_selector(".katex")
    assert site_page.locator(".katex-error").count() == 0
    images = site_page.eval_on_selector_all(
        "article img", "els => els.map(e => [e.currentSrc, e.complete && e.naturalWidth > 0])")
    assert images and all(ok for _, ok in images), images
    assert all(f"/assets/generated/{lang}/" in src for src, _ in images if "generated" in src)
    assert site_page.locator("article abbr[title]").count() >= 1
    assert site_page.locator("article pre code").count() >= 1


def test_language_switcher_keeps_the_lesson(site_page, site_url):
    open_page(site_page, site_url, PAGES["ko"])
    heading = site_page.locator("h1").get_attribute("id")
    site_page.hover(".md-header__option .md-select")
    site_page.click('.md-select__link[hreflang="en"]')
    site_page.wait_for_url(site_url + PAGES["en"])
    assert site_page.evaluate("document.documentElement.lang") == "en"
    assert site_page.locator("h1").get_attribute("id") == heading  # the same page, stable id
