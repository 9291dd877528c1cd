"""Lesson 8's trainer widget: trains in a Web Worker, pauses and resumes, stops when the loss or a
gradient is no longer finite and says which, survives a failed worker (the decode widget still
works), and with the default settings learns; the reader's run is compared with the build's in
words chosen by rule; a finished run hands its model to the decode widget by an event; the
switches reach the worker as the page data says. (The trainer's numbers against PyTorch, and the
build's mirror of the page's start, are checked in Node: tests/package/test_trainer_node.py.)"""

import pytest

from tutorial_code.experiments import browser_training as bt
from tutorial_code.experiments.pagedata import browser_training as bt_page

pytestmark = pytest.mark.browser

LESSON = "lessons/encoder-decoder/"
PAGES = {"ko": LESSON, "en": "en/" + LESSON}
WIDGET = '.widget[data-widget="train"]'
DIVERGED = {"ko": {"loss": "손실이 유한한 수가 아니게 되어", "gradient": "기울기가 유한한 수가 아니게 되어"},
            "en": {"loss": "the loss was no longer a finite number", "gradient": "a gradient was no longer a finite number"}}


def open_widget(page, site_url, lang):
    page.goto(site_url + PAGES[lang])
    page.locator(WIDGET).scroll_into_view_if_needed()
    page.wait_for_selector(f'{WIDGET}[data-state="ready"]', timeout=20_000)
    return page.locator(WIDGET)


def step(page):
    return int(page.locator(WIDGET).get_attribute("data-step") or 0)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_train_pause_resume_reset_by_keyboard(site_page, site_url, lang):
    widget = open_widget(site_page, site_url, lang)
    train = widget.locator("button").nth(0)
    train.focus()
    site_page.keyboard.press("Enter")
    site_page.wait_for_function(f"() => Number(document.querySelector('{WIDGET}').dataset.step) >= 2", timeout=60_000)
    site_page.keyboard.press("Tab")  # to Pause
    site_page.keyboard.press("Enter")
    assert widget.get_attribute("data-state") == "paused"
    site_page.wait_for_timeout(500)
    held = step(site_page)
    site_page.wait_for_timeout(1500)
    assert step(site_page) <= held + 1  # at most the slice that was running
    site_page.keyboard.press("Enter")  # Resume
    site_page.wait_for_function(f"() => Number(document.querySelector('{WIDGET}').dataset.step) > {held + 1}", timeout=60_000)
    assert widget.locator("table.widget-heatmap").count() == 1
    widget.locator("button").nth(2).click()  # Reset
    assert widget.get_attribute("data-state") == "ready"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_diverging_learning_rate_stops_saying_what_and_keeps_the_weights(site_page, site_url, lang):
    widget = open_widget(site_page, site_url, lang)
    widget.locator("select").nth(4).select_option("constant")  # no warm-up
    widget.locator("select").nth(5).select_option("10000")     # a learning rate that diverges
    widget.locator("button").nth(0).click()
    site_page.wait_for_selector(f'{WIDGET}[data-state="diverged"]', timeout=120_000)
    status = widget.locator(".widget-status").first.inner_text()
    what = widget.get_attribute("data-nonfinite")
    assert what in {"loss", "gradient"} and DIVERGED[lang][what].lower() in status.lower(), (what, status)
    assert widget.get_attribute("data-weights") == "finite"  # the weights of the last good step
    # the build ran lr 10000 with one-cycle and the constant rate at lr 0.005, not this pair: it says so
    assert widget.get_attribute("data-compare") == "not-run"
    compare = widget.locator('[data-key="compare"]').inner_text()
    labels = LABELS[lang]
    assert labels["not_run"] in compare and (labels["schedule"] in compare or labels["lr"] in compare)
    # the last good weights go to the decode widget above, by the event reversal.js listens for
    site_page.evaluate("() => { window.trained = null; document.addEventListener('course:trained-model', "
                       "(e) => { window.trained = e.detail; }); }")
    use = widget.locator("button").nth(3)
    assert use.is_visible() and use.inner_text() == labels["use"]
    use.focus()
    site_page.keyboard.press("Enter")
    got = site_page.evaluate("() => window.trained && {keys: Object.keys(window.trained).sort(), tied: window.trained.tied, "
                             "length: window.trained.length, heads: window.trained.config.n_heads, "
                             "names: window.trained.tokens.names.length, steps: window.trained.steps, "
                             "finite: Object.values(window.trained.weights).every((w) => w.data.every(Number.isFinite)), "
                             "embed: window.trained.weights['embed.tokens.weight'].rows}")
    assert got["keys"] == sorted(["config", "tokens", "weights", "tied", "steps", "exact", "length"])
    assert got["tied"] == {"out.weight": "embed.tokens.weight"}
    assert got["length"] == bt.Config().length and got["heads"] == 4 and got["names"] == bt.Config().vocab_size
    assert got["finite"] and got["embed"] == bt.Config().vocab_size and got["steps"] >= 0


def test_a_failed_worker_leaves_the_page_and_the_decode_widget_working(site_page, site_url):
    widget = open_widget(site_page, site_url, "en")
    site_page.evaluate(f"() => {{ document.querySelector('{WIDGET}').dataset.worker = 'no-such-worker.js'; }}")
    widget.locator("button").nth(0).click()
    site_page.wait_for_selector(f'{WIDGET}[data-state="failed"]', timeout=20_000)
    assert "could not run" in widget.locator(".widget-status").inner_text()
    decode = site_page.locator('.widget[data-widget="reversal"]')
    decode.scroll_into_view_if_needed()
    site_page.wait_for_selector('.widget[data-widget="reversal"][data-state="ready"]', timeout=30_000)
    assert widget.locator("button").nth(0).is_enabled()


@pytest.mark.slow
def test_the_default_settings_learn_the_held_out_set(site_page, site_url):
    widget = open_widget(site_page, site_url, "en")
    widget.locator("button").nth(0).click()
    site_page.wait_for_selector(f'{WIDGET}[data-state="done"]', timeout=1_200_000)
    assert float(widget.locator('output[data-key="exact"]').get_attribute("data-value")) >= 0.99
    # the build ran the defaults too: the widget compares (agree or differ, never "not run")
    assert widget.get_attribute("data-compare") in {"agree", "differ"}
    assert LABELS["en"]["not_run"] not in widget.locator('[data-key="compare"]').inner_text()


# ---------------------------------------------------------------- the build's mirror and the comparison

LABELS = {"en": {"not_run": "This setting was not trained in PyTorch", "schedule": "Learning-rate schedule (lessons 7, 8)",
                 "scaling": "Divide by √dₖ (lesson 3)", "norm": "Where the LayerNorm sits (lesson 7)",
                 "lr": "Peak learning rate (lesson 7)", "position": "Positional encoding (lesson 6)",
                 "heads": "Heads (lesson 5)", "agree": "Your run agrees with it", "differ": "Your run differs from it",
                 "use": "Use this model in the decoder above"},
          "ko": {"not_run": "이 설정은 PyTorch로 학습하지 않았으므로", "schedule": "학습률 스케줄 (7강·8강)",
                 "scaling": "√dₖ로 나누기 (3강)", "norm": "층 정규화를 놓는 자리 (7강)",
                 "lr": "최대 학습률 (7강)", "position": "위치 인코딩 (6강)", "heads": "헤드 수 (5강)",
                 "agree": "여러분의 실행도 같은 결과입니다", "differ": "여러분의 실행은 이와 다릅니다",
                 "use": "이 모델을 위의 디코더에서 쓰기"}}


# the widget's data as the build wrote it into the page (the widget replaces it when it starts)
DATA = """async () => {
  const html = await (await fetch(location.href)).text();
  const doc = new DOMParser().parseFromString(html, "text/html");
  return JSON.parse(doc.querySelector('.widget[data-widget="train"] script[type="application/json"]').textContent);
}"""
COMPARE = """(x) => {
  const C = CourseWidgets.trainComparison;
  return x.cases.map((c) => C.comparison(C.LABELS[x.lang], x.data, c.setting, c.mine));
}"""


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_comparison_words_follow_the_rule(site_page, site_url, lang):
    open_widget(site_page, site_url, lang)
    data = site_page.evaluate(DATA)
    runs = {r["name"]: r for r in data["runs"]}
    every = data["base"]["eval_every"] * data["agree"]["evals_within"]
    default, nan = runs["default"], runs["lr=10000"]
    assert nan["diverged_step"] and nan["nonfinite"] in {"loss", "gradient"}  # the build says what
    short = next(r for r in data["runs"] if not r["reached_step"] and not r["diverged_step"])
    within = data["agree"]["diverged_steps_within"]
    cases = [
        ("agree", default["setting"], {"reached_step": default["reached_step"] + every, "diverged_step": None, "exact": 1}),
        ("differ", default["setting"], {"reached_step": default["reached_step"] + every + 50, "diverged_step": None, "exact": 1}),
        ("differ", default["setting"], {"reached_step": None, "diverged_step": None, "exact": 0.5}),
        ("differ", default["setting"], {"reached_step": None, "diverged_step": 7, "nonfinite": "loss", "exact": 0}),
        # two divergences agree only when they stop close together
        ("agree", nan["setting"], {"reached_step": None, "diverged_step": nan["diverged_step"] + within,
                                   "nonfinite": "loss", "exact": 0}),
        ("differ", nan["setting"], {"reached_step": None, "diverged_step": nan["diverged_step"] + within + 1,
                                    "nonfinite": "loss", "exact": 0}),
        ("agree", short["setting"], {"reached_step": None, "diverged_step": None, "exact": short["exact"] + data["agree"]["exact_within"] / 2}),
        ("differ", short["setting"], {"reached_step": None, "diverged_step": None, "exact": short["exact"] + 2 * data["agree"]["exact_within"]}),
        # two switches from every run the build has: position off, no ÷√d_k, one head
        ("not-run", {**default["setting"], "position": "off", "scaling": "off", "heads": "1"},
         {"reached_step": 100, "diverged_step": None, "exact": 1}),
    ]
    out = site_page.evaluate(COMPARE, {"lang": lang, "data": data, "cases": [{"setting": s, "mine": m} for _, s, m in cases]})
    t = LABELS[lang]
    for (kind, setting, mine), got in zip(cases, out):
        assert got["kind"] == kind, (kind, mine, got)
        assert "undefined" not in got["text"] and "null" not in got["text"], got["text"]
        if kind == "not-run":
            named = {k for k in ("position", "scaling", "heads", "norm", "schedule", "lr") if t[k] in got["text"]}
            assert t["not_run"] in got["text"] and len(named) == 2 and named <= {"position", "scaling", "heads"}, got
        else:
            assert t[kind] in got["text"], got["text"]
            assert t["not_run"] not in got["text"]
            if mine.get("diverged_step") and setting == nan["setting"]:  # both steps are named
                assert str(mine["diverged_step"]) in got["text"] and str(nan["diverged_step"]) in got["text"]
    # the thresholds are the page data's, not the script's
    assert data["agree"] == bt_page.AGREE and data["base"]["steps"] == bt.Config().steps


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_ended_widget_is_axe_clean_and_fits_a_phone(browser, site_url, lang):
    """A run that has ended shows the build's run and the button: axe in both palettes, 390 px."""
    from test_accessibility_browser import AXE, BLOCKING, COLOUR_RULES, run_axe, switch_palette
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  service_workers="block")
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(site_url) else r.abort())
    page = context.new_page()
    try:
        widget = open_widget(page, site_url, lang)
        widget.locator("select").nth(5).select_option("10000")  # diverges within seconds
        widget.locator("button").nth(0).tap()
        page.wait_for_selector(f'{WIDGET}[data-state="diverged"]', timeout=120_000)
        page.mouse.move(0, 0)  # no pointer left hovering over a button while axe reads its colours
        # the build's run of it diverged too: the words follow the rule on the two stopping steps
        data = page.evaluate(DATA)
        build = next(r for r in data["runs"] if r["name"] == "lr=10000")
        mine = int(widget.get_attribute("data-diverged-step"))
        close = abs(mine - build["diverged_step"]) <= data["agree"]["diverged_steps_within"]
        assert widget.get_attribute("data-compare") == ("agree" if close else "differ"), (mine, build)
        assert widget.locator("button").nth(3).is_visible()
        box = widget.bounding_box()
        width = page.evaluate("() => document.documentElement.clientWidth")
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (box, width)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.add_script_tag(content=AXE)
        for scheme in ("light", "dark"):
            switch_palette(page, scheme)
            found = [v for v in run_axe(page, None if scheme == "light" else COLOUR_RULES, inject=False)
                     if v["impact"] in BLOCKING]
            assert not found, (scheme, [(v["id"], v["targets"], v["summary"]) for v in found])
    finally:
        context.close()


SETTINGS = """(x) => CourseWidgets.trainComparison.settings(x.setting, x.data)"""


def test_the_switches_reach_the_worker_as_the_page_data_says(site_page, site_url):
    """What Train sends the worker: the model config the build's model_config makes, the
    optimiser of the page data (no number of it typed in the script), the schedule and the rate."""
    open_widget(site_page, site_url, "en")
    data = site_page.evaluate(DATA)
    cfg = bt.Config()
    setting = {**{k: bt._text(v) for k, v in cfg.defaults}, "scaling": "off", "norm": "pre", "heads": "2",
               "schedule": "warmup", "lr": "0.02"}
    got = site_page.evaluate(SETTINGS, {"setting": setting, "data": data})
    m = bt.model_config(cfg, {**setting, "heads": 2})
    assert {k: got["config"][k] for k in ("n_heads", "norm_first", "position", "attention_scale", "d_model")} == {
        "n_heads": m.n_heads, "norm_first": m.norm_first, "position": m.position,
        "attention_scale": m.attention_scale, "d_model": m.d_model}
    from tutorial_code.experiments.common import trainer_optim
    assert got["optimiser"] == trainer_optim.page_data(cfg.optimiser)
    assert (got["schedule"], got["lr"]) == ("warmup", 0.02)
