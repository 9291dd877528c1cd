"""The projector view of a lesson (assets/javascripts/present.js) at 1920 × 1080, both languages.

One lesson per language is paged through from its first screen to its last with the arrow keys:
each screen shows one section (one ``##`` heading, the title on the first) in projector-size
type with the site's header, navigation and sidebars gone; the widgets on a screen are live (the
same elements as on the page, drawn and answering their own keys); Home, End and Esc work; the
view opens from the lesson's button and from ``?present``; axe-core finds no critical or serious
violation in the projector view in either palette.
"""

import pytest

from test_accessibility_browser import AXE, BLOCKING, COLOUR_RULES, run_axe, switch_palette

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCREEN = {"width": 1920, "height": 1080}
LESSONS = {"ko": "lessons/library-qkv/", "en": "en/lessons/self-attention/"}

STATE = """() => {
  const article = document.querySelector('.md-content article')
  const shown = (el) => el.offsetParent !== null
  const h2 = [...article.querySelectorAll(':scope > h2')].filter(shown).map((h) => h.id)
  const h1 = [...article.querySelectorAll(':scope > h1')].filter(shown).length
  const p = [...article.querySelectorAll(':scope > p')].find(shown)
  return {
    mode: document.body.classList.contains('present-mode'),
    h1, h2,
    status: (document.querySelector('.present-bar__status') || {}).textContent || null,
    header: shown(document.querySelector('.md-header')),
    sidebar: [...document.querySelectorAll('.md-sidebar')].some(shown),
    font: p ? parseFloat(getComputedStyle(p).fontSize) : null,
    widgets: [...article.querySelectorAll('.widget[data-widget]')].filter(shown).map((w) => w.dataset.state),
    sections: article.querySelectorAll(':scope > h2').length,
    scrollX: document.documentElement.scrollWidth > document.documentElement.clientWidth,
  }
}"""


def open_page(browser, site_url, path, scheme="light"):
    context = browser.new_context(viewport=SCREEN, color_scheme=scheme, service_workers="block")
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(site_url) else r.abort())
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return context, page


def page_through(page, lang):
    state = page.evaluate(STATE)
    assert state["mode"] and not state["header"] and not state["sidebar"], state
    total = state["sections"] + 1
    assert state["status"] == f"1 / {total}" and state["h1"] == 1 and state["h2"] == [], state
    seen, widgets = [], 0
    for n in range(2, total + 1):
        page.keyboard.press("ArrowRight")
        state = page.evaluate(STATE)
        assert state["status"] == f"{n} / {total}", state
        assert state["h1"] == 0 and len(state["h2"]) == 1, f"{lang}: screen {n} shows {state['h2']}"
        assert not state["scrollX"], f"{lang}: screen {n} scrolls sideways"
        if state["font"] is not None:
            assert state["font"] >= 28, f"{lang}: screen {n} text is {state['font']} px"
        if state["widgets"]:
            page.wait_for_function("""() => [...document.querySelectorAll('.widget[data-widget]')]
              .filter((w) => w.offsetParent !== null).every((w) => w.dataset.state === 'ready')""",
                                   timeout=20000)
            widgets += len(state["widgets"])
        seen += state["h2"]
    page.keyboard.press("ArrowRight")  # past the end: stays
    assert page.evaluate(STATE)["status"] == f"{total} / {total}"
    assert len(seen) == len(set(seen)) == total - 1
    return total, widgets


@pytest.mark.parametrize("lang", sorted(LESSONS))
def test_a_lesson_pages_through_one_section_per_screen(browser, site_url, lang):
    context, page = open_page(browser, site_url, LESSONS[lang])
    try:
        page.goto(site_url + LESSONS[lang], wait_until="load")
        normal = page.evaluate(STATE)
        assert not normal["mode"] and normal["header"], "the page opens as a page"
        page.focus("[data-present-start]")
        page.keyboard.press("Enter")  # the lesson's own button, by keyboard
        total, widgets = page_through(page, lang)
        assert widgets >= 1, f"{lang}: no widget was shown on any screen"
        page.keyboard.press("Home")
        assert page.evaluate(STATE)["status"] == f"1 / {total}"
        page.keyboard.press("End")
        assert page.evaluate(STATE)["status"] == f"{total} / {total}"
        page.keyboard.press("Escape")
        after = page.evaluate(STATE)
        assert not after["mode"] and after["header"] and len(after["h2"]) == after["sections"], after
        assert page.evaluate("document.activeElement.matches('[data-present-start]')")
        assert "present" not in page.url
        assert not page.errors, page.errors
    finally:
        context.close()


def test_widgets_keep_their_arrow_keys_in_the_projector_view(browser, site_url):
    """On lesson 2's widget screen, an arrow key on the plane moves the query, not the screen."""
    context, page = open_page(browser, site_url, LESSONS["ko"])
    try:
        page.goto(site_url + LESSONS["ko"] + "?present#worked-example", wait_until="load")
        state = page.evaluate(STATE)
        assert state["h2"] == ["worked-example"], state
        page.wait_for_function("document.querySelector('.widget[data-widget]').dataset.state === 'ready'",
                               timeout=20000)
        widget = page.locator(".widget[data-widget]").first
        focusable = widget.locator("[tabindex='0'], svg[tabindex], [role=slider], [role=application]").first
        focusable.focus()
        before = widget.inner_text()
        page.keyboard.press("ArrowRight")
        assert page.evaluate(STATE)["status"] == state["status"], "the arrow key moved the screen"
        assert widget.inner_text() != before, "the widget did not answer its arrow key"
    finally:
        context.close()


@pytest.mark.parametrize("lang", sorted(LESSONS))
def test_the_projector_view_is_accessible_in_both_palettes(browser, site_url, lang):
    context, page = open_page(browser, site_url, LESSONS[lang])
    problems = []
    try:
        for scheme in ("light", "dark"):
            page.goto(site_url + LESSONS[lang], wait_until="load")
            switch_palette(page, scheme)  # with the header's toggle, before the header goes
            page.goto(site_url + LESSONS[lang] + "?present=2", wait_until="load")
            page.wait_for_timeout(200)
            assert page.evaluate(STATE)["mode"]
            page.add_script_tag(content=AXE)
            found = run_axe(page, None if scheme == "light" else COLOUR_RULES, inject=False)
            problems += [f"{scheme}: {v['id']} ({v['impact']}): {', '.join(v['targets'])}"
                         for v in found if v["impact"] in BLOCKING]
    finally:
        context.close()
    assert not problems, "\n".join(problems)
