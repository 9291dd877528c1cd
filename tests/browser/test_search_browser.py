"""The search box in a real browser: each lesson's key terms find that lesson first, in
Korean on Korean pages and in English on English pages; a term in the other language finds
the lesson that glosses it; text that arrives without a key release is searched too.

The key terms come from :func:`coursebuild.search.key_terms`: each lesson's title and the
glossary terms it introduces (worked out from the pages and docs/glossary.yml).
"""

import pytest
from test_site_browser import HOMES, open_home, outside_requests

from coursebuild.outputs import search as course_search
from coursebuild.course import LESSONS
from coursebuild.fixes.material import SCRIPT_URI

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OTHER = {"ko": "en", "en": "ko"}
RESULTS = ".md-search-result__item"


def open_search(page, site_url, lang):
    open_home(page, site_url, lang)
    page.locator("input.md-search__input").click()
    return page


def clear(page):
    box = page.locator("input.md-search__input")
    box.fill("")
    box.press("End")
    page.wait_for_function(f"() => !document.querySelector('{RESULTS}')")


def first_pages(page, site_url, lang, query, n=3):
    """Type ``query`` as a reader does (fill, then a key release: Playwright's type() sends
    no key events for Hangul) and return the first ``n`` results' pages, relative to the
    language's home (``lessons/x/``)."""
    clear(page)
    box = page.locator("input.md-search__input")
    box.fill(query)
    box.press("End")
    page.wait_for_selector(f"{RESULTS} a", state="attached")
    return result_pages(page, site_url, lang, n)


def result_pages(page, site_url, lang, n=3):
    hrefs = page.eval_on_selector_all(
        RESULTS, "items => items.map(i => i.querySelector('a').href)")
    home = site_url + HOMES[lang]
    assert all(h.startswith(home) for h in hrefs), hrefs
    # a result's link carries the query for highlighting (?h=…) before its anchor
    return [course_search.page_of(h[len(home):]).split("?", 1)[0] for h in hrefs[:n]]


def misses(page, site_url, lang, queries):
    """(query, expected page, first pages) for every query whose first result is not its lesson."""
    out = []
    for query, lesson in queries:
        want = course_search.lesson_location(lesson)
        got = first_pages(page, site_url, lang, query)
        if got[:1] != [want]:
            out.append((query, want, got))
    return out


def test_every_lesson_introduces_terms():
    terms = course_search.introduced_terms()
    assert all(terms[lesson.number] for lesson in LESSONS), terms


@pytest.mark.parametrize("lang", HOMES)
def test_each_lessons_key_terms_find_that_lesson_first(site_page, site_url, lang):
    page = open_search(site_page, site_url, lang)
    queries = [(q, lesson) for lesson in LESSONS for q in course_search.key_terms(lesson, lang)]
    assert len(queries) > 2 * len(LESSONS)
    assert misses(page, site_url, lang, queries) == []
    assert outside_requests(page.requests) == []


@pytest.mark.parametrize("lang", HOMES)
def test_a_term_in_the_other_language_finds_the_lesson_that_glosses_it(site_page, site_url, lang):
    page = open_search(site_page, site_url, lang)
    introduced = course_search.introduced_terms()
    queries = [(t.term(OTHER[lang]), lesson) for lesson in LESSONS for t in introduced[lesson.number]]
    assert misses(page, site_url, lang, queries) == []


def test_softmax_on_a_korean_page_finds_korean_lesson_3(site_page, site_url):
    page = open_search(site_page, site_url, "ko")
    assert first_pages(page, site_url, "ko", "softmax")[0] == "lessons/scaled-dot-product/"


# the reader's queries that found a notebook first before the index was changed
READERS_QUERIES = {
    "ko": [("헤드", "multi-head"), ("쿼리", "library-qkv"), ("어텐션", "why-attention"),
           ("트랜스포머", "transformer-block")],
    "en": [("multi-head", "multi-head"), ("layer norm", "transformer-block"),
           ("positional encoding", "position"), ("query", "library-qkv"),
           ("transformer", "transformer-block")],
}


@pytest.mark.parametrize("lang", HOMES)
def test_notebooks_come_after_the_lesson(site_page, site_url, lang):
    page = open_search(site_page, site_url, lang)
    for query, slug in READERS_QUERIES[lang]:
        got = first_pages(page, site_url, lang, query)
        assert got[0] == f"lessons/{slug}/", (query, got)


def insert_without_keys(page, text, how):
    """Put ``text`` into the search box with an ``input`` event and no key event."""
    box = page.locator("input.md-search__input")
    if how == "insert":  # what an input method commits: one input event, no key release
        box.focus()
        page.keyboard.insert_text(text)
    else:  # a paste from the context menu
        box.evaluate("""(el, text) => {
            el.value = text
            el.dispatchEvent(new InputEvent("input", {bubbles: true, inputType: "insertFromPaste", data: text}))
        }""", text)


@pytest.mark.parametrize("how", ["insert", "paste"])
@pytest.mark.parametrize("lang", HOMES)
def test_text_that_arrives_without_a_key_release_is_searched(site_page, site_url, lang, how):
    page = open_search(site_page, site_url, lang)
    lesson = LESSONS[1]
    first_pages(page, site_url, lang, "softmax")  # the index is loaded
    clear(page)
    insert_without_keys(page, lesson.title[lang], how)
    page.wait_for_selector(f"{RESULTS} a", state="attached", timeout=10_000)
    assert result_pages(page, site_url, lang)[0] == course_search.lesson_location(lesson)
    assert page.locator("input.md-search__input").input_value() == lesson.title[lang]


def test_without_the_workaround_pasted_text_is_not_searched(browser, site_url):
    """Material still needs the workaround: with its script blocked, an input event alone
    does not search (if this fails, Material searches on input itself: drop the workaround)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    context.route("**/*", lambda r: r.abort() if r.request.url.endswith(SCRIPT_URI.rsplit("/", 1)[1])
                  or not r.request.url.startswith(site_url) else r.continue_())
    page = context.new_page()
    page.requests = []
    try:
        open_search(page, site_url, "ko")
        first_pages(page, site_url, "ko", "softmax")  # the index is loaded; typing searches
        clear(page)
        insert_without_keys(page, "어텐션", "paste")
        page.wait_for_timeout(1500)
        assert page.locator(f"{RESULTS} a").count() == 0
    finally:
        context.close()
