"""Lesson 8's in-page reversal model: equal to PyTorch, lazy, keyboard-only, small screens, no JS.

The widget's first state is the lesson's worked example with the output the page quotes.
transformer.js's decoding of the served model against PyTorch's reference
(``reversal-reference.json``: every held-out input's tokens and cross-attention) runs in Node:
tests/pages/test_javascript_numerics.py.
"""


import pytest
from conftest import FITS_A_PHONE
from test_site_browser import outside_requests


pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSON = "lessons/encoder-decoder/"
PAGES = {"ko": LESSON, "en": "en/" + LESSON}
WIDGET = '.widget[data-widget="reversal"]'
BAD_INPUT = {"ko": "숫자(0–9)만", "en": "Type 1 to 8 digits"}
TOO_LONG = {"ko": "숫자가 9개입니다", "en": "That is 9 digits"}

@pytest.fixture(scope="module")
def record(report):
    """The reversal experiment's record in the cache the site was built from (conftest's ``report``)."""
    return report["reversal"].record


def watch_console(page):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def ready_widget(page):
    """Scroll the widget into view and wait until its model has loaded and decoded."""
    page.locator(WIDGET).scroll_into_view_if_needed()
    page.wait_for_selector(f'{WIDGET}[data-state="ready"]', timeout=20_000)
    return page.locator(WIDGET)


def output_tokens(page):
    return page.locator(f"{WIDGET} .widget-output li").all_inner_texts()


@pytest.mark.parametrize("lang", PAGES)
def test_widget_loads_its_model_in_view_and_shows_the_lessons_example(site_page, site_url, record, lang):
    results = record["results"]
    errors = watch_console(site_page)
    site_page.goto(site_url + PAGES[lang], wait_until="networkidle")
    assert not any(u.endswith(".bin") for u in site_page.requests)  # not in view: nothing loaded
    widget = ready_widget(site_page)
    assert any(u.endswith("/reversal.bin") for u in site_page.requests)
    # the first state is the lesson's worked example and the greedy output the page quotes
    digits = "".join(str(d) for d in record["config"]["example"])
    assert site_page.input_value(f"{WIDGET} input") == digits
    assert output_tokens(site_page) == results["attention"]["greedy_output"]
    assert widget.locator("table.widget-heatmap tbody tr").count() == len(results["attention"]["greedy_output"]) - 1
    assert errors == [] and outside_requests(site_page.requests) == []


def focus_ring(page) -> tuple[str, str]:
    return page.evaluate("(() => { const s = getComputedStyle(document.activeElement);"
                         " return [s.outlineStyle, s.outlineWidth]; })()")


@pytest.mark.parametrize("lang", PAGES)
def test_keyboard_alone_operates_the_widget(site_page, site_url, lang):
    errors = watch_console(site_page)
    site_page.goto(site_url + PAGES[lang], wait_until="networkidle")
    widget = ready_widget(site_page)
    for label in widget.locator("label").all():  # every control has a label in the page's language
        assert widget.locator("#" + label.get_attribute("for")).count() == 1
    site_page.locator(f"{WIDGET} input").focus()
    keys = site_page.keyboard
    keys.press("Control+A")
    keys.type("12a")
    keys.press("Enter")
    assert BAD_INPUT[lang] in widget.locator(".widget-status").inner_text()
    assert widget.locator("input").get_attribute("aria-invalid") == "true"
    keys.press("Control+A")
    keys.type("12345678")
    keys.press("Enter")  # decodes, one token every 250 ms
    site_page.wait_for_function(f"document.querySelectorAll('{WIDGET} .widget-output li').length === 10")
    assert output_tokens(site_page) == ["BOS", *"87654321", "EOS"]
    keys.press("Tab")   # the decode button
    keys.press("Tab")   # the step button
    assert site_page.evaluate("document.activeElement.textContent") == widget.locator("button").nth(1).inner_text()
    style, width = focus_ring(site_page)
    assert style != "none" and float(width.removesuffix("px")) >= 2
    keys.press("Space")  # a new run, one token
    assert output_tokens(site_page) == ["BOS", "8"]
    keys.press("Enter")
    assert output_tokens(site_page) == ["BOS", "8", "7"]
    assert widget.locator("tbody tr").count() == 2
    keys.press("Tab")   # layer select, on the last layer
    assert focus_ring(site_page)[0] != "none"
    keys.press("ArrowUp")
    keys.press("Tab")   # head select
    keys.press("ArrowDown")
    assert widget.locator("select").nth(0).input_value() == "0"
    assert widget.locator("select").nth(1).input_value() == "1"
    assert widget.locator("caption").inner_text().startswith({"ko": "1층 헤드 2", "en": "Cross-attention of layer 1, head 2"}[lang])
    assert errors == []


@pytest.mark.parametrize("lang", PAGES)
def test_a_ninth_digit_is_refused_and_a_refused_input_leaves_no_earlier_answer(site_page, site_url, lang):
    """Nine digits are not cut to eight and decoded: the widget says how many there were.
    After any refused input, the source, the output and the map of the last good input are gone."""
    errors = watch_console(site_page)
    site_page.goto(site_url + PAGES[lang], wait_until="networkidle")
    widget = ready_widget(site_page)
    assert output_tokens(site_page) and widget.locator("table.widget-heatmap").count() == 1
    field = widget.locator("input")
    field.fill("123456789")
    assert field.input_value() == "123456789"  # nothing dropped while typing
    field.press("Enter")
    status = widget.locator(".widget-status").inner_text()
    assert TOO_LONG[lang] in status and field.get_attribute("aria-invalid") == "true"
    assert output_tokens(site_page) == []
    assert widget.locator(".widget-tokens li").count() == 0
    assert widget.locator("table.widget-heatmap").count() == 0
    widget.locator("button").nth(1).click()  # the step button refuses it too
    assert TOO_LONG[lang] in widget.locator(".widget-status").inner_text() and output_tokens(site_page) == []
    field.fill("12345678")
    field.press("Enter")
    site_page.wait_for_function(f"document.querySelectorAll('{WIDGET} .widget-output li').length === 10")
    field.fill("1x")
    field.press("Enter")
    assert BAD_INPUT[lang] in widget.locator(".widget-status").inner_text()
    assert output_tokens(site_page) == [] and widget.locator("table.widget-heatmap").count() == 0
    layer = widget.locator("select").nth(0)
    layer.select_option(index=0)  # a layer change with nothing decoded draws nothing and throws nothing
    assert widget.locator("table.widget-heatmap").count() == 0
    assert errors == []


def test_without_javascript_the_static_figure_and_numbers_remain(browser, site_url, record):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(site_url + LESSON, wait_until="load")
        grid = page.locator('article img[src*="attention_summary"]')
        assert grid.count() == 1 and grid.is_visible()
        assert not page.locator(WIDGET).is_visible()  # empty, hidden: nothing half-drawn
        text = page.locator("article").inner_text()
        assert ", ".join(record["results"]["attention"]["greedy_output"]) in text
    finally:
        context.close()


@pytest.mark.parametrize("lang", PAGES)
def test_phone_width_has_no_horizontal_scroll(phone_page, site_url, lang):
    page = phone_page
    page.goto(site_url + PAGES[lang], wait_until="networkidle")
    widget = ready_widget(page)
    page.locator(f"{WIDGET} button").first.click()
    page.wait_for_function(f"document.querySelectorAll('{WIDGET} tbody tr').length === 9")
    assert page.evaluate(FITS_A_PHONE, WIDGET) == []
    assert widget.locator("select").first.is_visible() and page.errors == []
