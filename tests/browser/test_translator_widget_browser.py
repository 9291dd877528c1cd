"""Lesson 1's widgets: the bottleneck slider and the in-page translator, against the Python.

The bottleneck's and the translator's check states are what the experiment computed for the
widget (``results["widgets"]``). transformer.js's decoding of the served model against PyTorch's
reference (``translation-reference.json``: every held-out sentence's tokens and cross-attention)
runs in Node: tests/pages/test_javascript_numerics.py.
"""


import pytest
from conftest import FITS_A_PHONE
from test_reversal_widget_browser import focus_ring, watch_console
from test_site_browser import outside_requests

from tutorial_code.experiments.drawing.translation import weight_text


pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSON = "lessons/why-attention/"
PAGES = {"ko": LESSON, "en": "en/" + LESSON}
TRANSLATOR = '.widget[data-widget="translator"]'
BOTTLENECK = '.widget[data-widget="bottleneck"]'
END = {"ko": "EOS (끝)", "en": "EOS (end)"}
SUBJECT = {"ko": "주어", "en": "Subject"}
LENGTH = {"ko": "문장 길이 (단어 수)", "en": "Sentence length (words)"}
PICKERS = ("adverb", "subj", "subj_adj", "verb", "obj", "obj_adj")  # each depends on the ones before

WEIGHTS = f"Array.from(document.querySelectorAll('{TRANSLATOR} .widget-bars td')).map(td => Number(td.dataset.w))"


@pytest.fixture(scope="module")
def results(report):
    return report["translation"].record["results"]


def ready(page, selector=TRANSLATOR):
    page.locator(selector).scroll_into_view_if_needed()
    page.wait_for_selector(f'{selector}[data-state="ready"]', timeout=20_000)
    return page.locator(selector)


def words(page, part):
    return page.locator(f"{TRANSLATOR} {part}").all_inner_texts()


def close(got, want, tol):
    assert len(got) == len(want), (got, want)
    assert max(abs(a - b) for a, b in zip(got, want)) <= tol, (got, want)


def choose(page, choice):
    """Set the composer's pickers to a Sentence's fields, as a reader would, in order."""
    for field in PICKERS:
        value = choice[field]
        page.select_option(f'{TRANSLATOR} select[data-field="{field}"]', "" if value is None else str(value))
    page.select_option(f'{TRANSLATOR} select[data-field="scrambled"]', "1" if choice["scrambled"] else "0")


@pytest.mark.parametrize("lang", PAGES)
def test_translator_loads_its_model_in_view_and_shows_the_lessons_example(site_page, site_url, results, lang):
    data = results["widgets"]["translator"]
    errors = watch_console(site_page)
    site_page.goto(site_url + PAGES[lang], wait_until="networkidle")
    assert not any(u.endswith("/translation.bin") for u in site_page.requests)  # not in view: not loaded
    widget = ready(site_page)
    assert any(u.endswith("/translation.bin") for u in site_page.requests)
    # the first state is the lesson's example, its output and the verb row the lesson reads
    ex, row = data["example"], data["example"]["row"]
    assert words(site_page, ".widget-tokens li") == results["example"]["korean"] == ex["korean"]
    assert words(site_page, ".widget-word") == results["example"]["output"] + [END[lang]]
    assert widget.locator(f'.widget-word[data-row="{row}"]').get_attribute("aria-pressed") == "true"
    close(site_page.evaluate(WEIGHTS), results["example"]["mean"][-1][row], 1e-4)  # the lesson's figure
    assert errors == [] and outside_requests(site_page.requests) == []


def test_translator_check_states_equal_python(site_page, site_url, results):
    data = results["widgets"]["translator"]
    errors = watch_console(site_page)
    site_page.goto(site_url + LESSON, wait_until="networkidle")
    widget = ready(site_page)
    for state in data["checks"]:
        choose(site_page, state["choice"])
        assert words(site_page, ".widget-tokens li") == state["korean"]
        assert words(site_page, ".widget-word") == state["output"] + [END["ko"]]
        for row, want in enumerate(state["mean_last"]):
            widget.locator(f'.widget-word[data-row="{row}"]').click()
            close(site_page.evaluate(WEIGHTS), want, 1e-4)
        site_page.select_option(f"{TRANSLATOR} select[id$='-head']", "0")  # head 1 of the last layer
        close(site_page.evaluate(WEIGHTS), state["heads_last"][0][len(state["mean_last"]) - 1], 1e-4)
        site_page.select_option(f"{TRANSLATOR} select[id$='-head']", "mean")
    assert errors == []


@pytest.mark.parametrize("lang", PAGES)
def test_bottleneck_initial_and_check_states_equal_python(site_page, site_url, results, lang):
    data = results["widgets"]["bottleneck"]
    errors = watch_console(site_page)
    site_page.goto(site_url + PAGES[lang], wait_until="networkidle")
    widget = ready(site_page, BOTTLENECK)
    assert widget.locator("label").inner_text() == LENGTH[lang]

    def shown():
        return {k: float(widget.locator(f'[data-value="{k}"]').get_attribute("data-raw"))
                for k in ("share", "attention_numbers")}

    def equal(state):
        got = shown()
        assert abs(got["share"] - state["share"]) <= 1e-6 and got["attention_numbers"] == state["attention_numbers"]
        assert widget.locator(".widget-cell").count() == data["d_model"]

    assert widget.locator("input").input_value() == str(data["example"]["n"])
    equal(data["example"])
    widget.locator("input").focus()  # the keyboard alone: arrows and End
    for state in data["checks"]:
        key = "End" if state["n"] == data["max"] else "ArrowRight"
        while int(widget.locator("input").input_value()) < state["n"]:
            site_page.keyboard.press(key)
        equal(state)
    style, width = focus_ring(site_page)
    assert style != "none" and float(width.removesuffix("px")) >= 2
    assert errors == []


@pytest.mark.parametrize("lang", PAGES)
def test_keyboard_alone_operates_the_translator(site_page, site_url, results, lang):
    data = results["widgets"]["translator"]
    errors = watch_console(site_page)
    site_page.goto(site_url + PAGES[lang], wait_until="networkidle")
    widget = ready(site_page)
    for label in widget.locator("label").all():  # every control has a label in the page's language
        assert widget.locator("#" + label.get_attribute("for")).count() == 1
    assert SUBJECT[lang] in widget.locator("label").all_inner_texts()
    keys = site_page.keyboard
    widget.locator("select").first.focus()  # the test-sentence list, on the lesson's example
    assert focus_ring(site_page)[0] != "none"
    keys.press("ArrowDown")  # the first held-out test sentence
    first = data["sentences"][0]
    assert words(site_page, ".widget-tokens li") == first["korean"]
    keys.press("Tab")  # the adverb picker: "어제"
    keys.press("ArrowDown")
    assert words(site_page, ".widget-tokens li")[0] == data["grammar"]["adverbs"][0][0]
    assert widget.locator("select").first.input_value() == ""  # now the reader's own sentence
    widget.locator(".widget-word").first.focus()
    keys.press("Enter")
    assert widget.locator(".widget-word").first.get_attribute("aria-pressed") == "true"
    keys.press("ArrowRight")
    assert widget.locator(".widget-word").nth(1).get_attribute("aria-pressed") == "true"
    assert site_page.evaluate("document.activeElement.dataset.row") == "1"
    style, width = focus_ring(site_page)
    assert style != "none" and float(width.removesuffix("px")) >= 2
    keys.press("Tab")
    keys.press("Space")  # a button too
    assert widget.locator(".widget-word").nth(2).get_attribute("aria-pressed") == "true"
    assert errors == []


def test_without_javascript_the_static_figures_and_numbers_remain(browser, site_url, results):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(site_url + LESSON, wait_until="load")
        fig = page.locator('article img[src*="cross_attention"]').first
        assert fig.is_visible()
        assert not page.locator(TRANSLATOR).is_visible() and not page.locator(BOTTLENECK).is_visible()
        text = page.locator("article").inner_text()
        assert f"{results['bottleneck']['example']['share']:.1f}" in text
        assert weight_text(results['example']['verb_weight'])["ko"] in text  # the word the page prints
    finally:
        context.close()


@pytest.mark.parametrize("lang", PAGES)
def test_phone_width_has_no_horizontal_scroll(phone_page, site_url, lang):
    page = phone_page
    page.goto(site_url + PAGES[lang], wait_until="networkidle")
    ready(page, BOTTLENECK).locator("input").focus()
    page.keyboard.press("End")  # 40 words: the most cells to lay out
    widget = ready(page)
    widget.locator("select").first.select_option(str(len(page.locator(f"{TRANSLATOR} select").first
                                                         .locator("option").all()) - 2))
    for sel in (BOTTLENECK, TRANSLATOR):
        assert page.evaluate(FITS_A_PHONE, sel) == [], sel
    assert page.errors == []


@pytest.mark.parametrize("lang", PAGES)
def test_widgets_have_no_serious_axe_violation_in_either_palette(browser, site_url, lang):
    """Every axe rule on the whole page, widgets drawn and a word chosen, in the light palette
    and then the dark one (switched to with the page's own toggle, on the same page load)."""
    from test_accessibility_browser import BLOCKING, run_axe, switch_palette

    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light",
                                  service_workers="block")
    page = context.new_page()
    try:
        page.goto(site_url + PAGES[lang], wait_until="networkidle")
        ready(page, BOTTLENECK)
        ready(page).locator(".widget-word").first.click()  # a drawn state, a word chosen
        page.wait_for_timeout(150)  # the a11y script's debounce (assets/javascripts/a11y.js)
        found = {}
        for scheme in ("light", "dark"):
            switch_palette(page, scheme)
            page.wait_for_timeout(150)
            found[scheme] = [v for v in run_axe(page, inject=scheme == "light") if v["impact"] in BLOCKING]
        assert found == {"light": [], "dark": []}, found
    finally:
        context.close()
