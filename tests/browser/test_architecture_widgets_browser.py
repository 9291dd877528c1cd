"""The live widgets of lessons 5, 6, 7 and 9, in both languages, against the build's Python.

Each widget starts in its lesson's worked example (compared with the experiment's results) and
is driven by the keyboard alone into at least two other states, whose numbers must equal the
``checks`` the build computed with the package (``pagedata/widgets_architecture.py``) to 1e-6. Every
shown number carries its full-precision value in ``data-value``. Also: labels in the page's
language, visible focus, no console error, nothing from another host, no horizontal overflow
at 390 × 844, and the static figure without JavaScript. (How fast they redraw is measured by
scripts/widget_benchmark.py.)
"""

import re

import pytest
from test_site_browser import outside_requests


pytestmark = [pytest.mark.browser, pytest.mark.slow]

LANGS = ("ko", "en")
# widget → (lesson page, experiment, what the page shows without JavaScript)
WIDGETS = {
    "multihead": ("lessons/multi-head/", "worked_examples", 'img[src*="multihead"]'),
    "position_steps": ("lessons/position/", "worked_examples", None),
    "sinusoid": ("lessons/position/", "worked_examples", 'img[src*="sinusoid"]'),
    "rope": ("lessons/position/", "worked_examples", 'img[src*="rope"]'),
    "block": ("lessons/transformer-block/", "worked_examples", None),
    "n2": ("lessons/cost-and-impact/", "cost", None),
    "kvcache": ("lessons/cost-and-impact/", "cost", 'img[src*="kv_cache"]'),
}
HANGUL = re.compile("[\uac00-\ud7a3]")
TOL = 1e-6


@pytest.fixture(scope="module")
def results(report):
    """Both experiments' results in the cache the site was built from (conftest's ``report``)."""
    return {name: report[name].record["results"] for name in ("worked_examples", "cost")}


def url(site_url, name, lang):
    return site_url + ("en/" if lang == "en" else "") + WIDGETS[name][0]


def open_widget(page, site_url, name, lang):
    """Go to the widget's page; return (widget locator, list of console errors)."""
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url(site_url, name, lang), wait_until="networkidle")
    widget = page.locator(f'.widget[data-widget="{name}"]')
    assert widget.count() == 1
    widget.scroll_into_view_if_needed()
    page.wait_for_selector(f'.widget[data-widget="{name}"][data-state="ready"]', timeout=10_000)
    return widget, errors


def num(widget, key, nth=0):
    return float(widget.locator(f'[data-key="{key}"]').nth(nth).get_attribute("data-value"))


def check(name, results, **where):
    """The build's check whose inputs equal ``where``."""
    exp = WIDGETS[name][1]
    found = [c for c in results[exp]["widgets"][name]["checks"] if all(c[k] == v for k, v in where.items())]
    assert len(found) == 1, (name, where)
    return found[0]


def press(page, key, times=1):
    for _ in range(times):
        page.keyboard.press(key)


def focus_is_visible(page):
    style, width = page.evaluate("(() => { const s = getComputedStyle(document.activeElement);"
                                 " return [s.outlineStyle, s.outlineWidth]; })()")
    return style != "none" and float(width.removesuffix("px")) >= 2


def in_language(widget, lang):
    """Every label (and the title) is in the page's language; each points at its control."""
    texts = widget.locator("label, .widget-title, legend, th").all_inner_texts()
    assert texts
    for label in widget.locator("label").all():
        assert widget.locator("#" + label.get_attribute("for")).count() == 1
    if lang == "ko":
        assert HANGUL.search(widget.locator(".widget-title").inner_text())
    else:
        assert not any(HANGUL.search(t) for t in texts), texts


def finish(page, widget, lang, errors):
    in_language(widget, lang)
    assert errors == [] and outside_requests(page.requests) == []


# ---------------------------------------------------------------- one test per widget × language

@pytest.mark.parametrize("lang", LANGS)
def test_multihead(site_page, site_url, results, lang):
    page = site_page
    w, errors = open_widget(page, site_url, "multihead", lang)
    mh = results["worked_examples"]["multihead"]
    assert num(w, "d_k") == mh["d_k"] and num(w, "params") == mh["params"][str(mh["D"])]["formula"]
    w.locator("select").nth(0).focus()
    assert focus_is_visible(page)
    press(page, "ArrowDown", 3)                          # D: 64 → 128 → 256 → 512; h stays 4
    page.keyboard.press("Tab")
    assert focus_is_visible(page)
    press(page, "ArrowDown")                             # h: 4 → 8
    c = check("multihead", results, D=512, h=8)
    assert num(w, "params") == c["params"] and num(w, "d_k") == c["d_k"]
    heads = w.locator('[data-key="head"]')
    assert [[int(heads.nth(i).get_attribute(a)) for a in ("data-first", "data-last")] for i in range(8)] == c["columns"]
    press(page, "Home")                                  # h = 1: one head owns every column
    c = check("multihead", results, D=512, h=1)
    assert num(w, "params") == c["params"] and heads.count() == 1
    page.keyboard.press("Shift+Tab")
    press(page, "ArrowDown")                             # D = 768, h still 1
    page.keyboard.press("Tab")
    press(page, "ArrowDown", 6)                          # divisors of 768: 1 2 3 4 6 8 12
    c = check("multihead", results, D=768, h=12)
    assert (num(w, "params"), num(w, "d_k")) == (c["params"], c["d_k"]) and w.get_attribute("data-heads") == "12"
    finish(page, w, lang, errors)


@pytest.mark.parametrize("lang", LANGS)
def test_sinusoid(site_page, site_url, results, lang):
    page = site_page
    w, errors = open_widget(page, site_url, "sinusoid", lang)
    sin = results["worked_examples"]["sinusoid"]
    assert abs(num(w, "value") - sin["table"][10][0]) < TOL
    assert abs(num(w, "wavelength") - sin["wavelength"]["0"]) < TOL
    w.locator("input").nth(0).focus()                   # position, then dimension
    page.keyboard.press("Tab")
    assert focus_is_visible(page)
    for dim in (16, 32):                                 # the worked example's other dimensions
        press(page, "ArrowRight", 16)
        c = check("sinusoid", results, pos=10, dim=dim)
        assert abs(num(w, "value") - c["value"]) < TOL and abs(num(w, "wavelength") - c["wavelength"]) < TOL
    page.keyboard.press("Shift+Tab")
    press(page, "End")                                   # the last position …
    page.keyboard.press("Tab")
    press(page, "End")                                   # … and the last dimension
    c = check("sinusoid", results, pos=sin["length"] - 1, dim=sin["d_model"] - 1)
    assert abs(num(w, "value") - c["value"]) < TOL and abs(num(w, "wavelength") - c["wavelength"]) < TOL
    finish(page, w, lang, errors)


def outputs(widget):
    rows = widget.locator("tbody tr")
    return [[float(x) for x in rows.nth(i).get_attribute("data-output").strip("[]").split(",")]
            for i in range(rows.count())]


def close(a, b):
    return all(abs(x - y) < TOL for ra, rb in zip(a, b, strict=True) for x, y in zip(ra, rb, strict=True))


@pytest.mark.parametrize("lang", LANGS)
def test_position_steps(site_page, site_url, results, lang):
    page = site_page
    w, errors = open_widget(page, site_url, "position_steps", lang)
    first = check("position_steps", results, step="plain")
    assert close(outputs(w), first["output"]) and num(w, "max_diff") == 0
    w.locator("button").nth(0).focus()
    page.keyboard.press("Tab")
    assert focus_is_visible(page)
    page.keyboard.press("Enter")                         # 2. shuffle: every word keeps its output
    c = check("position_steps", results, step="shuffled")
    assert close(outputs(w), c["output"]) and w.get_attribute("data-step") == "1"
    assert abs(num(w, "max_diff") - results["worked_examples"]["shuffle"]["toy_max_diff"]) < TOL
    page.keyboard.press("Tab")
    page.keyboard.press("Space")                         # 3. add position: now they move
    c = check("position_steps", results, step="position")
    assert close(outputs(w), c["output"]) and abs(num(w, "max_diff") - c["max_diff"]) < TOL
    assert num(w, "max_diff") > 1e-3
    assert w.locator('button[aria-pressed="true"]').count() == 1
    finish(page, w, lang, errors)


@pytest.mark.parametrize("lang", LANGS)
def test_rope(site_page, site_url, results, lang):
    page = site_page
    w, errors = open_widget(page, site_url, "rope", lang)
    rope = results["worked_examples"]["rope"]
    assert num(w, "offset") == 2 and abs(num(w, "score") - rope["by_offset"]["2"]) < TOL
    w.locator("input").nth(0).focus()                   # m
    assert focus_is_visible(page)
    press(page, "ArrowRight", 3)
    page.keyboard.press("Tab")                           # n
    press(page, "ArrowRight", 3)
    c = check("rope", results, m=5, n=3)
    assert abs(num(w, "score") - c["score"]) < TOL
    page.keyboard.press("Tab")                           # "both one step earlier"
    page.keyboard.press("Tab")                           # "both one step later"
    assert focus_is_visible(page)
    press(page, "Enter", 2)                              # (7, 5): the same offset, the same score
    assert abs(num(w, "score") - c["score"]) < TOL and num(w, "offset") == 2
    w.locator("input").nth(0).focus()
    press(page, "Home")
    press(page, "ArrowRight")                            # m = 1
    page.keyboard.press("Tab")
    press(page, "Home")
    press(page, "ArrowRight", 6)                         # n = 6
    c = check("rope", results, m=1, n=6)
    assert abs(num(w, "score") - c["score"]) < TOL and num(w, "offset") == -5
    finish(page, w, lang, errors)


def block_numbers(w):
    return {k: num(w, k) for k in ("attention", "feed_forward", "norms", "total", "attention_share",
                                   "feed_forward_share")}


def same_counts(shown, c):
    return all(abs(shown[k] - c[k]) < TOL for k in shown)


@pytest.mark.parametrize("lang", LANGS)
def test_block(site_page, site_url, results, lang):
    page = site_page
    w, errors = open_widget(page, site_url, "block", lang)
    base = results["worked_examples"]["block_params"]["base"]
    assert same_counts(block_numbers(w), base)
    w.locator("input").nth(0).focus()
    assert focus_is_visible(page)
    page.keyboard.press("Control+A")
    page.keyboard.type("256")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("1024")
    assert same_counts(block_numbers(w), check("block", results, D=256, d_ff=1024))
    page.keyboard.press("Tab")                           # the paper's base block
    page.keyboard.press("Tab")                           # this course's reference block
    page.keyboard.press("Enter")
    assert same_counts(block_numbers(w), check("block", results, D=64, d_ff=128))
    w.locator("input").nth(0).focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("-5")                             # bad input: a clear message, nothing redrawn
    assert w.locator("input").nth(0).get_attribute("aria-invalid") == "true"
    assert {"ko": "자연수를", "en": "whole number"}[lang] in w.locator(".widget-status").inner_text()
    assert num(w, "total") == check("block", results, D=64, d_ff=128)["total"]
    # the post-LN / pre-LN switch, by arrows inside the radio group
    post = w.locator("ol.widget-flow li").evaluate_all("(li) => li.map((x) => x.dataset.step)")
    assert post[:4] == ["input", "attention", "add", "norm"]
    w.locator('input[type="radio"]').nth(0).focus()
    assert focus_is_visible(page)
    press(page, "ArrowRight")
    pre = w.locator("ol.widget-flow li").evaluate_all("(li) => li.map((x) => x.dataset.step)")
    assert w.get_attribute("data-placement") == "pre" and pre[:4] == ["input", "norm", "attention", "add"]
    assert pre[-1] == "final"
    finish(page, w, lang, errors)


def n2_numbers(w):
    shown = {k: num(w, k) for k in ("entries", "mib", "model_entries", "model_mib", "entries_ratio")}
    shown["work"] = [num(w, "work", i) for i in range(3)]
    shown["work_ratio"] = [num(w, "work_ratio", i) for i in range(3)]
    return shown


def n2_equal(w, c):
    shown = n2_numbers(w)
    parts = ("scores", "projections", "ffn")
    return (all(abs(shown[k] - c[k]) < TOL for k in ("entries", "mib", "model_entries", "model_mib", "entries_ratio"))
            and shown["work"] == [c["work"][p] for p in parts]
            and all(abs(a - c["work_ratio"][p]) < TOL for a, p in zip(shown["work_ratio"], parts)))


@pytest.mark.parametrize("lang", LANGS)
def test_n2(site_page, site_url, results, lang):
    page = site_page
    w, errors = open_widget(page, site_url, "n2", lang)
    at = results["cost"]["n2"]["at"][str(results["cost"]["widgets"]["n2"]["L"])]
    assert (num(w, "entries"), num(w, "mib")) == (at["entries"], at["mib"])
    assert n2_equal(w, check("n2", results, L=at["L"], model="course"))
    assert num(w, "work_ratio", 0) == 4 and num(w, "work_ratio", 1) == num(w, "work_ratio", 2) == 2
    w.locator("input").focus()
    assert focus_is_visible(page)
    page.keyboard.press("Control+A")
    page.keyboard.type("32768")
    assert n2_equal(w, check("n2", results, L=32768, model="course"))
    page.keyboard.press("Tab")                           # the model
    press(page, "ArrowDown")                             # the 2017 paper's base model
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("8192")
    assert n2_equal(w, check("n2", results, L=8192, model="base"))
    page.keyboard.press("Control+A")
    page.keyboard.type("4095")                           # odd: no half to compare with
    assert w.get_attribute("data-valid") == "false"
    assert "4095" in w.locator(".widget-status").inner_text()
    page.keyboard.press("Control+A")
    page.keyboard.type("1000")
    page.keyboard.press("Tab")
    press(page, "ArrowDown")                             # GPT-2 small
    assert n2_equal(w, check("n2", results, L=1000, model="gpt2"))
    finish(page, w, lang, errors)


def kv_numbers(w, mode):
    return {k: float(w.locator(f'td[data-mode="{mode}"][data-key="{k}"]').get_attribute("data-value"))
            for k in ("positions", "entries", "total_positions", "total_entries")}


def kv_equal(w, c):
    return all(kv_numbers(w, mode) == {k: float(v) for k, v in c[mode].items()} for mode in ("cache", "no_cache"))


@pytest.mark.parametrize("lang", LANGS)
def test_kvcache(site_page, site_url, results, lang):
    page = site_page
    w, errors = open_widget(page, site_url, "kvcache", lang)
    longest = results["cost"]["kv"]["longest"]
    assert num(w, "t") == longest["N"]
    assert kv_numbers(w, "cache")["total_positions"] == longest["cache_positions"]
    assert kv_numbers(w, "no_cache")["total_positions"] == longest["no_cache_positions"]
    assert kv_equal(w, check("kvcache", results, t=longest["N"]))
    w.locator('input[type="range"]').focus()
    assert focus_is_visible(page)
    press(page, "Home")
    assert kv_equal(w, check("kvcache", results, t=1))
    page.keyboard.press("Tab")                           # previous step
    page.keyboard.press("Tab")                           # next step
    assert focus_is_visible(page)
    press(page, "Enter", 5)
    press(page, "Space", 4)
    assert kv_equal(w, check("kvcache", results, t=10))
    # with the cache the scores of one step grow like t, without it like t²
    assert kv_numbers(w, "cache")["entries"] == 10 and kv_numbers(w, "no_cache")["entries"] == 100
    w.locator('input[type="range"]').focus()
    press(page, "End")
    press(page, "ArrowLeft", longest["N"] // 2)
    assert kv_equal(w, check("kvcache", results, t=longest["N"] // 2))
    finish(page, w, lang, errors)


# ---------------------------------------------------------------- every widget alike

# operate the widget's first control 20 times (every state it steps through is drawn at the
# phone's width before the widths are read); how fast it redraws is the benchmark's to say
# (scripts/widget_benchmark.py), not a test's
OPERATE = """(name) => {
  const w = document.querySelector('.widget[data-widget="' + name + '"]');
  const c = w.querySelector('input[type="range"], select, input[type="number"], button');
  for (let i = 0; i < 20; i++) {
    if (c.tagName === "BUTTON") c.click();
    else {
      if (c.tagName === "SELECT") c.selectedIndex = (c.selectedIndex + 1) % c.options.length;
      else if (c.type === "range") c.value = String((Number(c.value) + 1) % (Number(c.max) + 1));
      else c.value = String(Number(c.value) + 2);
      c.dispatchEvent(new Event(c.tagName === "SELECT" ? "change" : "input", { bubbles: true }));
    }
  }
}"""


@pytest.mark.parametrize("name", WIDGETS)
def test_phone_width_does_not_scroll(browser, site_url, name):
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    context.route("**/*", lambda r: r.continue_() if "127.0.0.1" in r.request.url else r.abort())
    page = context.new_page()
    page.requests = []
    try:
        for lang in LANGS:
            w, errors = open_widget(page, site_url, name, lang)
            page.evaluate(OPERATE, name)
            widths = page.evaluate("""(name) => { const w = document.querySelector('.widget[data-widget="' + name + '"]');
              const inner = Array.from(w.querySelectorAll('*')).filter((e) => !e.closest('.widget-map'))
                .map((e) => e.getBoundingClientRect().right);
              const maps = Array.from(w.querySelectorAll('.widget-map')).map((m) => m.scrollWidth - m.clientWidth);
              return [document.documentElement.scrollWidth, document.documentElement.clientWidth,
                      w.getBoundingClientRect().right, Math.max(0, ...inner), Math.max(0, ...maps)]; }""", name)
            page_width, viewport, right, inner_right, map_overflow = widths
            assert page_width <= viewport and right <= 390 and inner_right <= right + 1 and map_overflow <= 0, widths
            assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("name", WIDGETS)
def test_without_javascript_the_static_figure_and_numbers_remain(browser, site_url, results, name):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        for lang in LANGS:
            page.goto(url(site_url, name, lang), wait_until="load")
            assert not page.locator(f'.widget[data-widget="{name}"]').is_visible()
            figure = WIDGETS[name][2]
            if figure:
                assert page.locator(f"article {figure}").first.is_visible()
            text = page.locator("article").inner_text()
            if name == "block":
                assert f"{results['worked_examples']['block_params']['base']['total']:,}" in text
            if name == "n2":
                assert f"{results['cost']['n2']['at']['4096']['entries']:,}" in text
            if name == "position_steps":
                assert f"{results['worked_examples']['shuffle']['with_position_max_diff']:.3f}" in text
    finally:
        context.close()


def test_widget_scripts_stay_small(built_site):
    """JavaScript the widgets add to each lesson page: at most 150 KB before compression. A page
    loads common.js and only the scripts its widgets name in data-scripts (relative to widgets/)."""
    import re

    widgets = built_site / "assets/javascripts/widgets"
    pages = sorted(built_site.glob("lessons/*/index.html")) + sorted(built_site.glob("en/lessons/*/index.html"))
    assert len(pages) == 18, pages
    seen_any = False
    for page in pages:
        names = {n for attr in re.findall(r'data-scripts="([^"]*)"', page.read_text(encoding="utf-8"))
                 for n in attr.split()}
        if not names:
            continue
        seen_any = True
        files = {(widgets / "common.js").resolve(), *((widgets / n).resolve() for n in names)}
        assert all(f.exists() for f in files), (page, sorted(map(str, files)))
        total = sum(f.stat().st_size for f in files)
        assert total <= 150_000, (str(page), total, sorted((f.name, f.stat().st_size) for f in files))
    assert seen_any
