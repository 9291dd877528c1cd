"""The projector view of a lesson (assets/javascripts/present.js) at 1920 × 1080, both languages.

Every lesson in both languages is paged through from its first screen to its last with the arrow
keys, and every screen must fit the screen: no screen taller than 1080 px and nothing behind the
bar at its foot, the tables' text at least the body text of the view, every figure at least
:data:`FIGURE_WIDE` px wide or :data:`FIGURE_TALL` px tall (a figure 916 px wide on the page), and
nothing of the lesson left off (every block of the page on a screen). One lesson per language is
also driven from its own button: each screen shows one section (one ``##`` heading, the title on
the first; a long section over several screens under its heading) in projector-size type with the
site's header, navigation and sidebars gone; the widgets on a screen are live (the same elements as
on the page, drawn and answering their own keys); Home, End and Esc work; a 5:4 projector gets
screens that fit it. Every folded note of two lessons is opened by keyboard where it stands, and
every screen still fits with the note on it (an opened note is split like a section). axe-core
finds no critical or serious violation in the projector view in either palette. The lessons of
the first test share one browser page, opened in a loop.
"""

import pytest

from coursebuild.course import LESSONS as COURSE
from test_accessibility_browser import AXE, BLOCKING, COLOUR_RULES, run_axe, switch_palette

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCREEN = {"width": 1920, "height": 1080}
SQUARE = {"width": 1280, "height": 1024}
LESSONS = {"ko": "lessons/library-qkv/", "en": "en/lessons/self-attention/"}
NOTES = {"ko": "lessons/scaled-dot-product/", "en": "en/lessons/encoder-decoder/"}
EVERY_LESSON = [(lang, ("" if lang == "ko" else "en/") + f"lessons/{lesson.slug}/")
                for lang in ("ko", "en") for lesson in COURSE]
FIGURE_WIDE, FIGURE_TALL = 900, 600  # px: a figure is at least this wide, or (a tall one) this tall
BODY_PX = 28  # the view's body text at 1920 × 1080 is at least this (17.6 px on the page)

STATE = """() => {
  const article = document.querySelector('.md-content article')
  const visible = (el) => el.checkVisibility()
  const blocks = [...article.children]
  const shown = blocks.filter((el) => !el.hasAttribute('data-present-hidden') && visible(el))
  // the blocks a screen is made of: the self-check's questions and an opened note's parts are
  // split like a section's blocks, under the container's title
  const split = 'section.self-check, details[open]'
  const units = blocks.flatMap((el) => el.matches(split) ? [...el.children] : [el])
  const hidden = (el) => el.hasAttribute('data-present-hidden') ||
    (el.parentElement !== article && el.parentElement.hasAttribute('data-present-hidden'))
  const lead = (el) => ['H1', 'H2'].includes(el.tagName) ||
    el.matches('section.self-check > h3:first-child, details[open] > summary:first-child')
  const bar = document.querySelector('.present-bar')
  const zoom = (el) => el.currentCSSZoom || 1
  const px = (el) => parseFloat(getComputedStyle(el).fontSize) * zoom(el)
  const p = shown.find((el) => el.tagName === 'P' && el.textContent.trim())
  return {
    mode: document.body.classList.contains('present-mode'),
    h1: shown.filter((el) => el.tagName === 'H1').length,
    h2: shown.filter((el) => el.tagName === 'H2').map((h) => h.id),
    on: units.filter((el) => !hidden(el) && !lead(el)).map((el) => units.indexOf(el)),
    blocks: units.filter((el) => !lead(el)).map((el) => units.indexOf(el)),
    status: (document.querySelector('.present-bar__status') || {}).textContent || null,
    header: visible(document.querySelector('.md-header')),
    sidebar: [...document.querySelectorAll('.md-sidebar')].some(visible),
    font: p ? px(p) : null,
    body: px(article),
    height: document.documentElement.scrollHeight,
    bottom: Math.max(0, ...shown.map((el) => el.getBoundingClientRect().bottom)),
    barTop: bar ? bar.getBoundingClientRect().top : null,
    tables: [...article.querySelectorAll('table')].filter((t) => !t.closest('.widget') && visible(t))
      .map((t) => Math.min(...[...t.querySelectorAll('th, td')].map(px))),
    figures: [...article.querySelectorAll('a.glightbox > img')].filter(visible).map((img) => {
      const r = img.getBoundingClientRect()
      return {src: img.getAttribute('src').split('/').pop(), width: r.width, height: r.height, loaded: img.complete}
    }),
    scaled: [...article.querySelectorAll('[data-present-scaled]')].filter(visible).map((el) =>
      `${el.tagName.toLowerCase()}.${el.className || ''} ×${zoom(el).toFixed(2)}`),
    widgets: [...article.querySelectorAll('.widget[data-widget]')].filter(visible).map((w) => w.dataset.state),
    sections: article.querySelectorAll(':scope > h2').length,
    scrollX: document.documentElement.scrollWidth > document.documentElement.clientWidth,
  }
}"""

WIDGETS_READY = """() => [...document.querySelectorAll('.widget[data-widget]')]
  .filter((w) => w.checkVisibility()).every((w) => w.dataset.state === 'ready')"""


def open_page(browser, site_url, scheme="light"):
    context = browser.new_context(viewport=SCREEN, color_scheme=scheme, service_workers="block")
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(site_url) else r.abort())
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return context, page


def open_present(page, url):
    """Open ``url`` (with ``?present``): the view starts once the page has loaded."""
    page.goto(url, wait_until="load")
    page.wait_for_function("document.body.classList.contains('present-mode')", timeout=10000)


def screen_problems(state, where, height=SCREEN["height"]) -> list[str]:
    """What is wrong with the screen on show: taller than the window, text behind the bar, a
    sideways scroll; at 1080 px also small text, tables or figures."""
    out = []
    if state["height"] > height:
        out.append(f"{where}: {state['height']} px tall (scaled: {state['scaled']})")
    if state["barTop"] is not None and state["bottom"] > state["barTop"] + 0.5:
        out.append(f"{where}: ends at {state['bottom']:.0f} px, behind the bar at {state['barTop']:.0f} px")
    if state["scrollX"]:
        out.append(f"{where}: scrolls sideways")
    if height != SCREEN["height"]:
        return out
    if state["font"] is not None and state["font"] < BODY_PX:
        out.append(f"{where}: text is {state['font']:.1f} px")
    out += [f"{where}: a table's text is {t:.1f} px, under the body's {state['body']:.1f} px"
            for t in state["tables"] if t < state["body"] - 0.05]
    out += [f"{where}: figure {f['src']} is {f['width']:.0f} × {f['height']:.0f} px"
            for f in state["figures"]
            if not f["loaded"] or (f["width"] < FIGURE_WIDE and f["height"] < FIGURE_TALL)]
    return out


CLOSED_NOTE = ".md-content article > details:not([open]):visible >> summary"


def open_every_note(page, lang):
    """From the first screen to the last, open every folded note (Enter on its summary); after
    each, the screen must fit and show the note. Returns (notes opened, openings that made the
    view split again or draw smaller, problems)."""
    opened, split, problems = 0, 0, []
    while True:
        state = page.evaluate(STATE)
        while page.locator(CLOSED_NOTE).count():
            summary = page.locator(CLOSED_NOTE).first
            summary.focus()
            page.keyboard.press("Enter")
            page.wait_for_timeout(150)
            after = page.evaluate(STATE)
            opened += 1
            split += after["status"] != state["status"] or len(after["scaled"]) > len(state["scaled"])
            where = f"{lang} note {opened} ({after['status']})"
            if not page.evaluate("""() => { const d = document.activeElement.closest('details')
                                     return !!d && d.open && d.checkVisibility() }"""):
                problems.append(f"{where}: the opened note is not on screen")
            problems += screen_problems(after, where)
            state = after
        n, total = state["status"].split(" / ")
        if n == total:
            return opened, split, problems
        page.keyboard.press("ArrowRight")


def walk_by_keys(page):
    """Each screen's state, from the one on show to the last, with the right arrow between them;
    on a screen with widgets, once they are drawn (and the view fitted again): (state, the status
    before the widgets were drawn, or None)."""
    state = page.evaluate(STATE)
    while True:
        before = None
        if state["widgets"]:
            page.wait_for_function(WIDGETS_READY, timeout=20000)
            page.wait_for_timeout(50)  # a few frames: a widget that grew has been fitted
            before, state = state["status"], page.evaluate(STATE)
        yield state, before
        n, total = state["status"].split(" / ")
        if n == total:
            return
        page.keyboard.press("ArrowRight")
        state = page.evaluate(STATE)


# the same walk inside the page, in one call (a round trip per screen is most of the time of
# paging through 18 lessons): the right arrow's keydown sent to the focused element, as a key
# press arrives
WALK = "async () => { const state = " + STATE + "\n  const ready = " + WIDGETS_READY + """
  const wait = (ms) => new Promise((r) => setTimeout(r, ms))
  const out = []
  for (let i = 0; i < 300; i++) {
    let s = state(), before = null
    if (s.widgets.length) {
      const t = performance.now()
      while (!ready()) {
        if (performance.now() - t > 20000) return [...out, [s, 'widgets not drawn in 20 s']]
        await wait(50)
      }
      await wait(50)
      before = s.status
      s = state()
    }
    out.push([s, before])
    const [n, total] = s.status.split(' / ')
    if (n === total) return out
    document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}))
  }
  return out
}"""


def page_through(page, lang, height=SCREEN["height"], in_page=False):
    """From the first screen to the last with the right arrow; returns (screens, screens with
    widgets, problems, the scaled blocks, how often the screens were made again on the way).
    Every block of the lesson must be on a screen, in the page's order, and every screen under one
    heading. A widget that grows once drawn (one that loads its model when it comes into view)
    makes the view split again; the screen on show then keeps its first block, and what no longer
    fits moves on to the next screen, so a block may be seen twice but never skipped."""
    state = page.evaluate(STATE)
    assert state["mode"] and not state["header"] and not state["sidebar"], state
    total = int(state["status"].split("/")[1])
    assert state["status"] == f"1 / {total}" and total >= state["sections"] + 1, state
    problems, widgets, scaled, on, headings, remade = [], 0, [], [], [], 0
    n = 0
    for state, before in (page.evaluate(WALK) if in_page else walk_by_keys(page)):
        assert before != "widgets not drawn in 20 s", (lang, state)
        now, of = (int(x) for x in state["status"].split(" / "))
        if before is not None:
            widgets += 1
        if of != total or now != n + 1 or (before is not None and before != state["status"]):
            remade += 1  # split again on the way (no block may be skipped)
        n, total = now, of
        where = f"{lang} {page.url.split('/lessons/')[1].split('?')[0]}screen {n}/{total}"
        assert len(headings) < 3 * total, f"{where}: the right arrow does not get to the end"
        assert state["h1"] + len(state["h2"]) == 1, f"{where} shows {state['h1']} titles and {state['h2']}"
        headings.append(state["h2"][0] if state["h2"] else "")
        problems += screen_problems(state, where, height)
        scaled += [f"{where}: {s}" for s in state["scaled"]]
        on += state["on"]
    assert n == total, f"{lang}: stopped at screen {n} of {total}"
    page.keyboard.press("ArrowRight")  # past the end: stays
    assert page.evaluate(STATE)["status"] == f"{total} / {total}"
    first = list(dict.fromkeys(on))
    assert sorted(first) == state["blocks"], f"{lang}: blocks on no screen: {set(state['blocks']) - set(first)}"
    assert first == sorted(first), f"{lang}: the blocks are out of the page's order"
    assert remade or len(on) == len(first), f"{lang}: a block on two screens"
    sections = [h for i, h in enumerate(headings) if h and h != headings[i - 1]]
    assert len(sections) == len(set(sections)) == state["sections"], f"{lang}: sections {headings}"
    return total, widgets, problems, scaled, remade


def test_every_screen_of_every_lesson_fits_1080_px(browser, site_url):
    """Every lesson in both languages at 1920 × 1080: every screen fits, tables and figures at
    projector size, nothing left off (the blocks drawn smaller to fit are printed; a table among
    them fails the table check, which reads the text's size as drawn, zoom included)."""
    context, page = open_page(browser, site_url)
    problems, scaled = [], []
    try:
        for lang, path in EVERY_LESSON:
            open_present(page, site_url + path + "?present")
            total, _, found, small, _ = page_through(page, lang, in_page=True)
            problems += found
            scaled += small
        assert not page.errors, page.errors
    finally:
        context.close()
    assert not problems, "\n".join(problems)
    print("\n".join(["blocks drawn smaller to fit:"] + scaled))


@pytest.mark.parametrize("lang", sorted(LESSONS))
def test_a_lesson_pages_through_from_its_button(browser, site_url, lang):
    context, page = open_page(browser, site_url)
    try:
        page.goto(site_url + LESSONS[lang], wait_until="load")
        normal = page.evaluate(STATE)
        assert not normal["mode"] and normal["header"], "the page opens as a page"
        page.focus("[data-present-start]")
        page.keyboard.press("Enter")  # the lesson's own button, by keyboard
        total, widgets, problems, _, _ = page_through(page, lang)
        assert widgets >= 1, f"{lang}: no widget was shown on any screen"
        assert not problems, problems
        page.keyboard.press("Home")
        assert page.evaluate(STATE)["status"] == f"1 / {total}"
        page.keyboard.press("End")
        assert page.evaluate(STATE)["status"] == f"{total} / {total}"
        # a 5:4 projector: the screens are made again for it, and every one fits
        page.set_viewport_size(SQUARE)
        page.wait_for_timeout(300)
        page.keyboard.press("Home")
        _, _, problems, _, _ = page_through(page, lang, height=SQUARE["height"])
        assert not problems, problems
        page.set_viewport_size(SCREEN)
        page.keyboard.press("Escape")
        after = page.evaluate(STATE)
        assert not after["mode"] and after["header"] and len(after["h2"]) == after["sections"], after
        assert page.evaluate("document.activeElement.matches('[data-present-start]')")
        assert "present" not in page.url
        assert not page.errors, page.errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", sorted(NOTES))
def test_opened_notes_keep_every_screen_within_the_window(browser, site_url, lang):
    """Every folded note of a lesson opened by keyboard where it stands (lesson 3 in Korean, lesson
    8 in English, whose notes open up to about 2,000 px tall): each screen still fits, with the
    note on it, and at least one opening makes the view split again."""
    context, page = open_page(browser, site_url)
    try:
        open_present(page, site_url + NOTES[lang] + "?present")
        opened, split, problems = open_every_note(page, lang)
        assert opened >= 3 and split >= 1 and not problems, (opened, split, problems)
        page.keyboard.press("Home")  # and with every note open, every screen fits
        _, _, problems, _, _ = page_through(page, lang)
        assert not problems, problems
        assert not page.errors, page.errors
    finally:
        context.close()


def test_widgets_keep_their_arrow_keys_in_the_projector_view(browser, site_url):
    """On lesson 2's widget screen, an arrow key on the plane moves the query, not the screen."""
    context, page = open_page(browser, site_url)
    try:
        open_present(page, site_url + LESSONS["ko"] + "?present#worked-example")
        state = page.evaluate(STATE)
        assert state["h2"] == ["worked-example"], state
        for _ in range(8):  # the section may run over several screens: on to its widget
            if state["widgets"] or state["h2"] != ["worked-example"]:
                break
            page.keyboard.press("ArrowRight")
            state = page.evaluate(STATE)
        assert state["widgets"] and state["h2"] == ["worked-example"], state
        page.wait_for_function(WIDGETS_READY, timeout=20000)
        widget = page.locator(".widget[data-widget]:visible").first
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
    context, page = open_page(browser, site_url)
    problems = []
    try:
        for scheme in ("light", "dark"):
            page.goto(site_url + LESSONS[lang], wait_until="load")
            switch_palette(page, scheme)  # with the header's toggle, before the header goes
            open_present(page, site_url + LESSONS[lang] + "?present=2")
            page.add_script_tag(content=AXE)
            found = run_axe(page, None if scheme == "light" else COLOUR_RULES, inject=False)
            problems += [f"{scheme}: {v['id']} ({v['impact']}): {', '.join(v['targets'])}"
                         for v in found if v["impact"] in BLOCKING]
    finally:
        context.close()
    assert not problems, "\n".join(problems)
