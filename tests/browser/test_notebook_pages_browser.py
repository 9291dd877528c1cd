"""Notebook pages in a real browser: offline, math and plots drawn, links and language switch."""

import pytest
from test_lesson_pages_browser import open_page
from test_site_browser import outside_requests

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = "notebooks/lesson-03-scaled-dot-product/"
PAGES = {"ko": NOTEBOOK, "en": "en/" + NOTEBOOK}


@pytest.mark.parametrize("lang", PAGES)
def test_notebook_page_is_offline_and_rendered(site_page, site_url, lang):
    console_errors = []
    site_page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    failed = open_page(site_page, site_url, PAGES[lang])
    assert failed == [] and outside_requests(site_page.requests) == []
    assert console_errors == []
    site_page.wait_for_selector(".jupyter-wrapper .katex")  # math in text cells, drawn by KaTeX
    assert site_page.locator(".katex-error").count() == 0
    plots = site_page.eval_on_selector_all(
        ".jp-OutputArea-output img", "els => els.map(e => e.complete && e.naturalWidth > 0)")
    assert plots and all(plots), plots
    # the table of contents points at headings that exist
    targets = site_page.eval_on_selector_all(
        ".md-sidebar--secondary a.md-nav__link", "els => els.map(e => decodeURIComponent(e.hash.slice(1)))")
    assert targets and all(site_page.locator(f'[id="{t}"]').count() == 1 for t in targets), targets
    # the download is a notebook the server hands out
    href = site_page.get_attribute(".notebook-links__download", "href")
    response = site_page.request.get(site_page.url + href)
    assert response.ok and response.json()["nbformat"] == 4


def test_language_switcher_keeps_the_notebook(site_page, site_url):
    open_page(site_page, site_url, PAGES["ko"])
    site_page.hover(".md-header__option .md-select")
    site_page.click('.md-select__link[hreflang="en"]')
    site_page.wait_for_url(site_url + PAGES["en"])
    assert site_page.evaluate("document.documentElement.lang") == "en"
    assert "Lesson 3 lab" in site_page.locator("h1").inner_text()
