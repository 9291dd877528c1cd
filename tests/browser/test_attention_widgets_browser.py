"""Lessons 2–4's live widgets: the page's numbers equal the package's, by keyboard alone.

Each widget computes in the page from the worked example's inputs (``pagedata/widgets_attention.py``).
Here every widget, in both languages, starts at the worked example's numbers in the figures
experiment's results, is driven by keys alone to the states in its ``checks`` (values the
package computed in float64) and must agree to 1e-6, read from full-precision data attributes
rather than rounded text. Also: visible focus, labels in the page's language, no console
error, nothing from another host, no sideways scrolling at 390 × 844, and without JavaScript
the static figure and its numbers.
"""


import pytest
from conftest import FITS_A_PHONE
from test_reversal_widget_browser import watch_console
from test_site_browser import outside_requests


pytestmark = [pytest.mark.browser, pytest.mark.slow]

LANGS = ("ko", "en")
LESSONS = {"library": "lessons/library-qkv/", "sdpa": "lessons/scaled-dot-product/",
           "self_attention": "lessons/self-attention/"}
FIGURES = {"library": "qkv_roles", "sdpa": "sdpa_steps", "self_attention": "self_attention"}
# one label per widget that must appear in the page's own language
LABEL = {"library": {"ko": "√dₖ로 나누기", "en": "Divide by √dₖ"},
         "sdpa": {"ko": "다음 단계", "en": "Next step"},
         "self_attention": {"ko": "인과 마스크", "en": "Causal mask"}}
BAD_QUERY = {"ko": "사이의 수를 입력하세요", "en": "must be a number from"}
TOL = 1e-6


def url(site_url, name, lang):
    return site_url + ("" if lang == "ko" else "en/") + LESSONS[name]


def sel(name):
    return f'.widget[data-widget="{name}"]'


@pytest.fixture(scope="module")
def results(report):
    """The figures experiment's results in the cache the site was built from (conftest's ``report``)."""
    return report["worked_examples"].record["results"]


def open_widget(page, site_url, name, lang):
    errors = watch_console(page)
    page.goto(url(site_url, name, lang), wait_until="networkidle")
    page.wait_for_selector(f'{sel(name)}[data-state="ready"]', timeout=10_000)
    widget = page.locator(sel(name))
    assert LABEL[name][lang] in widget.inner_text()
    for label in widget.locator("label").all():  # every label names a control that exists
        assert widget.locator("#" + label.get_attribute("for")).count() == 1
    return widget, errors


def values(page, name, quantity):
    return page.eval_on_selector_all(f'{sel(name)} [data-quantity="{quantity}"]',
                                     "els => els.map(e => Number(e.dataset.value))")


def matrix(page, name, which):
    return page.eval_on_selector(f'{sel(name)} table[data-name="{which}"]', "t => JSON.parse(t.dataset.matrix)")


def flat(x):
    return [v for row in x for v in flat(row)] if isinstance(x, list) else [x]


def close(got, want):
    """Equal shapes and every entry within 1e-6 (matrices compared entry by entry)."""
    assert len(got) == len(want) and flat(got) == pytest.approx(flat(want), abs=TOL, rel=0), (got, want)


def focus_ring(page):
    """The focused element is inside a widget and shows an outline of at least 2 px."""
    style, width, inside = page.evaluate("""(() => { const a = document.activeElement, s = getComputedStyle(a);
        return [s.outlineStyle, s.outlineWidth, !!a.closest('.widget')]; })()""")
    assert inside and style != "none" and float(width.removesuffix("px")) >= 2, (style, width)


def finish(page, errors):
    assert errors == [] and outside_requests(page.requests) == []


# ---------------------------------------------------------------- lesson 2


@pytest.mark.parametrize("lang", LANGS)
def test_library_widget(site_page, site_url, results, lang):
    page, checks = site_page, results["widgets"]["library"]["checks"]
    widget, errors = open_widget(page, site_url, "library", lang)
    one = results["library"]["one"]  # the worked example: slip 1, divided by √d_k
    for quantity, key in (("dots", "dots"), ("scores", "scaled"), ("weights", "weights"), ("output", "output")):
        close(values(page, "library", quantity), one[key])

    def state(check):
        for quantity in ("dots", "scores", "weights", "output"):
            close(values(page, "library", quantity), check[quantity])

    state(checks[0])
    keys = page.keyboard
    widget.locator("svg").focus()
    keys.press("Tab")                                   # preset "topic 1 only"
    focus_ring(page)
    keys.press("Tab")                                   # preset "curious about both"
    keys.press("Enter")
    assert widget.locator("[data-preset=both]").get_attribute("aria-pressed") == "true"
    for _ in range(3):                                  # q1, q2, then the ÷√d_k switch
        keys.press("Tab")
    focus_ring(page)
    keys.press("Space")                                 # not divided
    keys.press("Tab")
    keys.press("Space")                                 # ×10 longer: assignment 1
    assert checks[1]["inputs"] == {"query": [1.0, 1.0], "scale": False, "stretch": 10.0}
    state(checks[1])
    keys.press("Shift+Tab")
    keys.press("Space")                                 # divided again, still ×10
    state(checks[2])
    keys.press("Tab")
    keys.press("Space")                                 # back to ×1
    for _ in range(6):                                  # back to the plane
        keys.press("Shift+Tab")
    assert page.evaluate("document.activeElement.tagName.toLowerCase()") == "svg"
    focus_ring(page)
    keys.press("ArrowRight")
    keys.press("ArrowRight")                            # the query moves two steps to the right
    assert widget.locator("input[type=number]").nth(0).input_value() == str(checks[3]["inputs"]["query"][0]).removesuffix(".0")
    state(checks[3])
    for _ in range(3):                                  # the first query component
        keys.press("Tab")
    keys.press("Control+A")
    keys.type("9")                                      # off the plane: refused, with a message
    assert widget.locator("input[type=number]").nth(0).get_attribute("aria-invalid") == "true"
    assert BAD_QUERY[lang] in widget.locator(".widget-status").inner_text()
    state(checks[3])                                    # nothing changed
    finish(page, errors)


# ---------------------------------------------------------------- lesson 3


@pytest.mark.parametrize("lang", LANGS)
def test_library_plane_comes_just_before_the_slip_buttons(site_page, site_url, lang):
    """The instructor guide's demonstration: from "Curious about both", Shift+Tab twice selects
    the plane; Tab from the plane goes through the two slip buttons in order."""
    page = site_page
    widget, errors = open_widget(page, site_url, "library", lang)

    def focused():
        return page.evaluate("""() => { const a = document.activeElement;
            return a.dataset.preset || (a.classList.contains("widget-plane") ? "plane" : a.tagName); }""")

    widget.locator("[data-preset=both]").focus()
    page.keyboard.press("Shift+Tab")
    assert focused() == "one"
    page.keyboard.press("Shift+Tab")
    assert focused() == "plane"
    order = []
    for _ in range(2):
        page.keyboard.press("Tab")
        order.append(focused())
    assert order == ["one", "both"]
    finish(page, errors)


@pytest.mark.parametrize("lang", LANGS)
def test_sdpa_widget(site_page, site_url, results, lang):
    page, sd = site_page, results["sdpa"]
    checks = results["widgets"]["sdpa"]["checks"]
    widget, errors = open_widget(page, site_url, "sdpa", lang)
    for which in ("Q", "K", "V"):
        close(matrix(page, "sdpa", which), sd[which])
    keys = page.keyboard
    widget.locator("button").nth(1).focus()             # "next step"
    focus_ring(page)
    for which, key in (("scores", "scores"), ("scaled", "scaled"), ("masked", "scaled"),
                       ("weights", "weights"), ("output", "output")):
        keys.press("Enter")
        close(matrix(page, "sdpa", which), sd[key])      # the page's worked example, step by step
    close(matrix(page, "sdpa", "output"), checks[0]["output"])
    # on the last step "next" is disabled and focus moved to "previous"
    assert page.evaluate("document.activeElement.textContent") == widget.locator("button").nth(0).inner_text()
    keys.press("Tab")                                   # the mask select
    focus_ring(page)
    keys.press("ArrowDown")                             # causal mask
    assert widget.locator("select").input_value() == checks[1]["inputs"]["mask"] == "causal"
    close(matrix(page, "sdpa", "output"), checks[1]["output"])
    keys.press("Shift+Tab")
    keys.press("Space")                                 # back one step: the weights
    close(matrix(page, "sdpa", "weights"), checks[1]["weights"])
    assert all(w == 0 for i, row in enumerate(matrix(page, "sdpa", "weights")) for j, w in enumerate(row) if j > i)
    for _ in range(3):                                  # next, select, then the d_k slider
        keys.press("Tab")
    focus_ring(page)
    sweep = results["widgets"]["sdpa"]["sweep"]["d_k"]
    for check, presses in zip(checks[2:], (0, sweep.index(64), len(sweep) - 1 - sweep.index(64))):
        for _ in range(presses):
            keys.press("ArrowRight")
        assert widget.locator("input[type=range]").get_attribute("aria-valuetext") == f"dₖ = {check['inputs']['d_k']}"
        close(values(page, "sdpa", "peak_scaled"), [check["peak_scaled"]])
        close(values(page, "sdpa", "peak_unscaled"), [check["peak_unscaled"]])
    finish(page, errors)


# ---------------------------------------------------------------- lesson 4


@pytest.mark.parametrize("lang", LANGS)
def test_self_attention_widget(site_page, site_url, results, lang):
    page, toy = site_page, results["toy"]
    checks = results["widgets"]["self_attention"]["checks"][lang]
    widget, errors = open_widget(page, site_url, "self_attention", lang)
    close(matrix(page, "self_attention", "weights"), toy["lang"][lang]["weights"])
    close(matrix(page, "self_attention", "output"), toy["lang"][lang]["output"])
    close(values(page, "self_attention", "max_diff"), [0.0])
    keys = page.keyboard
    widget.locator("button.widget-word").first.focus()
    focus_ring(page)
    for _ in range(len(toy["lang"][lang]["order"]) - 1):
        keys.press("ArrowRight")
    keys.press("Enter")                                 # the last word of the sentence
    last = toy["lang"][lang]["order"][-1]
    assert widget.locator(f'button[data-word="{last}"]').get_attribute("aria-pressed") == "true"
    close(values(page, "self_attention", "output"), toy["word"][last]["output"])
    keys.press("Tab")                                   # the causal mask
    focus_ring(page)
    keys.press("Space")
    close(matrix(page, "self_attention", "weights"), checks[1]["weights"])
    close(matrix(page, "self_attention", "output"), checks[1]["output"])
    keys.press("Space")                                 # mask off again
    keys.press("Tab")                                   # position information
    keys.press("Tab")                                   # shuffle
    focus_ring(page)
    keys.press("Enter")
    names = page.eval_on_selector_all(f'{sel("self_attention")} button.widget-word', "bs => bs.map(b => b.dataset.word)")
    assert names == checks[2]["order"]
    assert [c["inputs"]["position"] for c in checks[2:]] == [False, True, False]
    for check in checks[2:]:
        if check["inputs"]["position"]:
            keys.press("Shift+Tab")
            keys.press("Space")                         # add the sinusoidal table
        if check["inputs"]["causal"]:
            keys.press("Space")                         # positions off again
            keys.press("Shift+Tab")
            keys.press("Space")                         # the causal mask on
        close(matrix(page, "self_attention", "weights"), check["weights"])
        close(matrix(page, "self_attention", "output"), check["output"])
        close(values(page, "self_attention", "max_diff"), [check["max_diff"]])
    assert checks[2]["max_diff"] < 1e-12 < 1e-3 < min(checks[3]["max_diff"], checks[4]["max_diff"])
    finish(page, errors)


# ---------------------------------------------------------------- all three


@pytest.mark.parametrize("name", LESSONS)
def test_without_javascript_the_static_figure_and_numbers_remain(browser, site_url, results, name):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    number = {"library": f'{results["library"]["one"]["weights"][0]:.3f}',
              "sdpa": f'{results["sdpa"]["weights"][0][0]:.2f}',
              "self_attention": f'{results["toy"]["word"]["ate"]["top_weight"]:.3f}'}[name]
    try:
        for lang in LANGS:
            page.goto(url(site_url, name, lang), wait_until="load")
            figure = page.locator(f'article img[src*="{FIGURES[name]}"]')
            assert figure.count() >= 1 and figure.first.is_visible()
            assert page.locator(sel(name)).count() == 1 and not page.locator(sel(name)).is_visible()
            assert number in page.locator("article").inner_text()
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_phone_width_has_no_horizontal_scroll(phone_page, site_url, lang):
    page = phone_page
    for name in LESSONS:
        page.goto(url(site_url, name, lang), wait_until="networkidle")
        page.wait_for_selector(f'{sel(name)}[data-state="ready"]')
        page.locator(f"{sel(name)} button:not([disabled])").first.click()  # it still works on a phone
        assert page.evaluate(FITS_A_PHONE, sel(name)) == [], name
    assert page.errors == []
