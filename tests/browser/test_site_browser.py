"""The built site in a real browser: offline, math, fonts, language switch, search."""

from urllib.parse import urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOMES = {"ko": "", "en": "en/"}


def outside_requests(urls):
    """The URLs that go to a host other than 127.0.0.1 (data: and blob: URLs are local)."""
    return [
        url
        for url in urls
        if not url.startswith(("data:", "blob:")) and urlsplit(url).hostname != "127.0.0.1"
    ]


def open_home(page, site_url, lang):
    response = page.goto(site_url + HOMES[lang], wait_until="networkidle")
    assert response.ok
    page.evaluate("document.fonts.ready.then(() => true)")
    return page


@pytest.mark.parametrize("lang", HOMES)
def test_home_page_requests_nothing_from_other_hosts(site_page, site_url, lang):
    open_home(site_page, site_url, lang)
    assert site_page.requests, "no requests recorded at all"
    assert outside_requests(site_page.requests) == []


@pytest.mark.parametrize("lang", HOMES)
def test_home_page_loads_without_failed_requests(site_page, site_url, lang):
    failed = []
    site_page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    site_page.on("requestfailed", lambda r: failed.append(f"{r.failure} {r.url}"))
    open_home(site_page, site_url, lang)
    assert failed == []


@pytest.mark.parametrize("lang", HOMES)
def test_math_is_rendered_by_katex(site_page, site_url, lang):
    page = open_home(site_page, site_url, lang)
    page.wait_for_selector(".katex")
    assert page.locator(".katex-display").count() >= 1
    assert page.locator(".katex-error").count() == 0
    # no formula left as raw TeX
    assert "\\frac" not in page.locator("article").inner_text()


def test_korean_body_font_is_the_vendored_noto_sans_kr(site_page, site_url):
    page = open_home(site_page, site_url, "ko")
    family = page.evaluate("getComputedStyle(document.querySelector('.md-typeset')).fontFamily")
    assert family.startswith('"Noto Sans KR"')
    # the loaded faces of Noto Sans KR must cover the Hangul on the page ("어", U+C5B4)
    covered = page.evaluate(
        """cp => [...document.fonts]
            .filter(f => f.family.replace(/["']/g, "") === "Noto Sans KR" && f.status === "loaded")
            .some(f => f.unicodeRange.split(",").some(part => {
                const [lo, hi] = part.trim().slice(2).split("-").map(h => parseInt(h, 16))
                return lo <= cp && cp <= (hi ?? lo)
            }))""",
        ord("어"),
    )
    assert covered, "no loaded Noto Sans KR face covers Hangul"
    assert page.evaluate("document.fonts.check('16px \"Noto Sans KR\"', '어텐션')")
    woff2 = [u for u in site_page.requests if "/assets/vendor/noto-sans-kr/files/" in u]
    assert woff2 and all(u.endswith(".woff2") for u in woff2)


def test_language_switcher_goes_to_english_home_and_back(site_page, site_url):
    page = open_home(site_page, site_url, "ko")
    page.hover(".md-header__option .md-select")
    page.click('.md-select__link[hreflang="en"]')
    page.wait_for_url(site_url + "en/")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("h1").inner_text().startswith("Attention and the Transformer")

    page.hover(".md-header__option .md-select")
    page.click('.md-select__link[hreflang="ko"]')
    page.wait_for_url(site_url)
    assert page.evaluate("document.documentElement.lang") == "ko"
    assert page.locator("h1").inner_text().startswith("어텐션과 트랜스포머")


def search(page, query):
    """Type a query the way Material's search needs it; return the result links."""
    box = page.locator("input.md-search__input")
    box.click()
    # Playwright's type() sends no key events for Hangul that Material listens to:
    # fill() and then a real key press
    box.fill(query)
    box.press("End")
    page.wait_for_selector(".md-search-result__item a", state="attached")
    return page.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")


@pytest.mark.parametrize("query", ["트랜스포머", "소프트맥스", "softmax"], ids=["hangul-1", "hangul-2", "latin"])
def test_korean_search_finds_only_korean_pages(site_page, site_url, query):
    links = search(open_home(site_page, site_url, "ko"), query)
    assert links
    assert all(u.startswith(site_url) and not u.startswith(site_url + "en/") for u in links)


@pytest.mark.parametrize("query", ["attention", "softmax"])
def test_english_search_finds_only_english_pages(site_page, site_url, query):
    links = search(open_home(site_page, site_url, "en"), query)
    assert links
    assert all(u.startswith(site_url + "en/") for u in links)
