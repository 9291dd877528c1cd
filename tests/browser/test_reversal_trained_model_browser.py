"""Lesson 8's decode widget takes the model the reader trained (the "course:trained-model" event).

The trainer widget (train.js) hands its weights over with
``document.dispatchEvent(new CustomEvent("course:trained-model", {detail}))``. Here the test
trains a small model in the page itself (trainer.js: 20 Adam steps from TrainerTask.initModel), dispatches
the event as train.js does, and checks that the decode widget then decodes with those weights: the
tokens and the cross-attention it draws equal ``Transformer.greedyDecode`` on the trainer's own model
object (not rebuilt from the event), its digit limit and labels are the trained model's, it says which
model is in use, and its button back (by keyboard) restores the site's model's output. Then: a
broken hand-over is refused with a message and changes nothing; a model handed over before the widget
came into view is kept when the site's model loads; axe in both palettes and a 390 px phone in the
trained state.
"""

import pytest
from conftest import FITS_A_PHONE
from test_accessibility_browser import AXE, BLOCKING, COLOUR_RULES, switch_palette
from test_reversal_widget_browser import PAGES, WIDGET, output_tokens, ready_widget, watch_console
from test_site_browser import outside_requests

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LENGTH = 6          # the trainer's digit length (the site's model takes 8)
STEPS = 20
CONFIG = {"vocab_size": 13, "d_model": 32, "n_heads": 2, "d_ff": 64, "n_layers": 2,
          "norm_first": False, "position": "sinusoidal", "attention_scale": None}
LR = 0.005
SWITCHED = {"ko": "직접 학습시킨 모델로 바꾸었습니다.", "en": "Switched to the model you trained."}
RESTORED = {"ko": "사이트의 모델로 돌아왔습니다.", "en": "Back to the site's model."}
TRIMMED = {"ko": "앞의 6개만 남겼습니다", "en": "the first 6 are kept"}
TOO_LONG = {"ko": "이 모델은 6개까지만 받습니다", "en": "this model takes at most 6"}
REFUSED = {"ko": "학습시킨 모델을 쓸 수 없어", "en": "The trained model could not be used"}
IN_USE = {"ko": ("사이트의 모델", "직접 학습시킨 모델 (20스텝 학습, 검증 시퀀스 완전 일치율 {em}, 6자리"),
          "en": ("the site's model", "the model you trained: 20 steps, exact match on the validation sequences {em} (trained on 6-digit")}
LABEL = {"ko": "숫자 (최대 {n}개)", "en": "Digits (up to {n})"}
BACK = {"ko": "사이트의 모델로 돌아가기", "en": "Back to the site's model"}
SHORT = {"ko": "8자리 숫자로만 학습했습니다", "en": "trained on 8-digit sequences only"}

# a short training run in the page, with the trainer's own code; the detail train.js dispatches
TRAIN = """(x) => {
  const task = TrainerTask.task(x.seed, x.length, 50), model = TrainerTask.initModel(x.config, x.seed);
  const run = Trainer.trainer(model, x.optimiser, "one_cycle", x.lr, x.steps);
  for (let s = 0; s < x.steps; s++) { const b = task.batch(16); run.trainStep(b.srcs, b.tgts); }
  window.trainedModel = model;
  window.trainedDetail = {config: x.config, tokens: TrainerTask.TOKENS, weights: Trainer.weights(model),
    tied: {"out.weight": "embed.tokens.weight"}, steps: x.steps, exact: TrainerTask.exactMatch(model, task.heldOut),
    length: x.length};
  return window.trainedDetail.exact;
}"""
DISPATCH = """(detail) => document.dispatchEvent(new CustomEvent("course:trained-model",
  {detail: detail === null ? window.trainedDetail : detail}))"""
# greedy decoding of `digits` by a model object: token names and cross-attention [layer][head][step]
DECODE = """([which, digits, url]) => (async () => {
  const model = which === "trained" ? window.trainedModel : await Transformer.loadModel(url);
  const t = model.tokens, src = [t.bos_id, ...digits.map((d) => d + t.digit0), t.eos_id];
  const run = Transformer.greedyDecode(model, src, which === "trained" ? digits.length + 1 : model.manifest.max_new_tokens);
  const cross = run.steps[0].cross.map((heads, l) => heads.map((_, h) => run.steps.map((s) => Array.from(s.cross[l][h]))));
  return {tokens: run.tokens.map((id) => t.names[id]), cross, heads: model.cfg.n_heads};
})()"""
# the weights the widget's table shows (each cell's title: 4 decimals)
CELLS = f"""() => Array.from(document.querySelectorAll('{WIDGET} table.widget-heatmap tbody tr')).map(
  (tr) => Array.from(tr.querySelectorAll('td')).map((td) => Number(td.title)))"""


def train_in_page(page, site_url):
    from tutorial_code.experiments.common import trainer_optim
    for name in ("trainer_optim.js", "trainer_task.js", "trainer.js"):
        page.add_script_tag(url=site_url + "assets/javascripts/" + name)
    return page.evaluate(TRAIN, {"seed": 0, "length": LENGTH, "config": CONFIG, "steps": STEPS, "lr": LR,
                                 "optimiser": trainer_optim.page_data(trainer_optim.Optimiser())})


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def status(widget) -> str:
    return widget.locator(".widget-status").inner_text()


def assert_drawn_as(page, widget, want):
    """The widget shows `want`'s tokens, and its map the cross-attention of the layer and head picked."""
    assert output_tokens(page) == want["tokens"]
    layer, head = (int(widget.locator("select").nth(i).input_value()) for i in (0, 1))
    cells, ref = page.evaluate(CELLS), want["cross"][layer][head]
    assert len(cells) == len(ref) and all(len(a) == len(b) for a, b in zip(cells, ref))
    assert max(abs(a - b) for ra, rb in zip(cells, ref) for a, b in zip(ra, rb)) <= 5.1e-5


@pytest.mark.parametrize("lang", PAGES)
def test_the_trained_model_decodes_and_the_button_brings_the_sites_model_back(site_page, site_url, lang):
    page = site_page
    errors = watch_console(page)
    page.goto(site_url + PAGES[lang], wait_until="networkidle")
    widget = ready_widget(page)
    url = widget.get_attribute("data-model-url")
    example = page.input_value(f"{WIDGET} input")
    assert len(example) == 8 and widget.get_attribute("data-in-use") == "site"
    assert IN_USE[lang][0] in widget.locator(".widget-model").inner_text()
    assert widget.locator("label").first.inner_text() == LABEL[lang].format(n=8)
    back = widget.get_by_role("button", name=BACK[lang])
    assert not back.is_visible()  # nothing to go back to
    site_output = output_tokens(page)

    exact = train_in_page(page, site_url)
    page.evaluate(DISPATCH, None)
    assert widget.get_attribute("data-in-use") == "trained"
    assert IN_USE[lang][1].format(em=percent(exact)) in widget.locator(".widget-model").inner_text()
    assert widget.locator("label").first.inner_text() == LABEL[lang].format(n=LENGTH)
    # the example's 8 digits do not fit: the first 6 are kept, said so, and decoded at once
    assert page.input_value(f"{WIDGET} input") == example[:LENGTH]
    text = status(widget)
    assert text.startswith(SWITCHED[lang]) and TRIMMED[lang] in text
    want = page.evaluate(DECODE, ["trained", [int(c) for c in example[:LENGTH]], url])
    site_want = page.evaluate(DECODE, ["site", [int(c) for c in example[:LENGTH]], url])
    assert want["tokens"] != site_want["tokens"]  # the check below can tell the two models apart
    assert widget.locator("select").nth(1).locator("option").count() == want["heads"] == CONFIG["n_heads"]
    assert_drawn_as(page, widget, want)

    # the limit is the trained model's: 7 digits are refused, 6 decode with its weights
    field = widget.locator("input")
    field.fill("1234567")
    field.press("Enter")
    assert TOO_LONG[lang] in status(widget) and output_tokens(page) == []
    field.fill("654321")
    field.press("Enter")
    want = page.evaluate(DECODE, ["trained", [6, 5, 4, 3, 2, 1], url])
    page.wait_for_function(f"document.querySelectorAll('{WIDGET} .widget-output li').length === {len(want['tokens'])}")
    assert_drawn_as(page, widget, want)

    # back to the site's model, by keyboard: Tab from the step button reaches the button back
    widget.locator("button").nth(1).focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == BACK[lang]
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelector('{WIDGET}').dataset.inUse === 'site'")
    assert not back.is_visible()
    assert page.evaluate("document.activeElement.id") == field.get_attribute("id")  # not lost with the button
    assert IN_USE[lang][0] in widget.locator(".widget-model").inner_text()
    assert widget.locator("label").first.inner_text() == LABEL[lang].format(n=8)
    text = status(widget)
    assert text.startswith(RESTORED[lang]) and SHORT[lang] in text  # 6 digits: the site's model warns
    want = page.evaluate(DECODE, ["site", [6, 5, 4, 3, 2, 1], url])
    assert want["heads"] == 4 and widget.locator("select").nth(1).locator("option").count() == 4
    assert_drawn_as(page, widget, want)
    field.fill(example)
    field.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('{WIDGET} .widget-output li').length === {len(site_output)}")
    assert output_tokens(page) == site_output  # the site's model's answer, as before the switch
    assert errors == [] and outside_requests(page.requests) == []


@pytest.mark.parametrize("lang", PAGES)
def test_a_broken_hand_over_is_refused_and_changes_nothing(site_page, site_url, lang):
    page = site_page
    errors = watch_console(page)
    page.goto(site_url + PAGES[lang], wait_until="networkidle")
    widget = ready_widget(page)
    before = output_tokens(page)
    train_in_page(page, site_url)
    broken = {  # how the detail is broken: what the status says, in the page's language
        "(d) => { delete d.weights['out.bias']; return d; }":
            {"ko": "파라미터가 설정에 맞는 모델을 이루지 못합니다", "en": "its parameters do not make a model of its config"},
        "(d) => { d.weights['embed.tokens.weight'].rows += 1; return d; }":
            {"ko": "텐서 embed.tokens.weight의 값 개수가 행 수 × 열 수와 다릅니다",
             "en": "tensor embed.tokens.weight does not hold rows × cols numbers"},
        "(d) => { delete d.length; return d; }":
            {"ko": "1 이상의 정수가 아닙니다(받은 값: undefined)", "en": "not a whole number of at least 1 (got undefined)"},
        "(d) => { d.tied = {'out.weight': 'embed.weight'}; return d; }":
            {"ko": "묶어 쓰는 텐서가 빠졌습니다(out.weight → embed.weight)", "en": "tied to embed.weight, which is missing"},
        "(d) => { delete d.weights; return d; }":
            {"ko": "설정, 토큰, 파라미터 가운데 빠진 것이 있습니다", "en": "its config, tokens or parameters are missing"},
    }
    for how, says in broken.items():
        page.evaluate(f"() => {{ window.brokenDetail = ({how})(structuredClone(window.trainedDetail)); }}")
        page.evaluate("() => document.dispatchEvent(new CustomEvent('course:trained-model', {detail: window.brokenDetail}))")
        text = status(widget)
        assert text.startswith(REFUSED[lang]) and says[lang] in text, text
        assert widget.get_attribute("data-in-use") == "site" and output_tokens(page) == before
    page.evaluate(DISPATCH, None)  # the good one still works after them
    assert widget.get_attribute("data-in-use") == "trained"
    assert errors == []


def test_a_model_handed_over_before_the_widget_is_in_view_is_kept(site_page, site_url):
    page = site_page
    errors = watch_console(page)
    page.goto(site_url + PAGES["en"], wait_until="networkidle")
    widget = page.locator(WIDGET)
    assert widget.get_attribute("data-state") == "waiting"
    train_in_page(page, site_url)
    page.evaluate(DISPATCH, None)
    assert widget.get_attribute("data-state") == "ready" and widget.get_attribute("data-in-use") == "trained"
    assert not any(u.endswith(".bin") for u in page.requests)  # the site's model is not needed yet
    assert status(widget).startswith(SWITCHED["en"]) and "Type up to 6 digits" in status(widget)
    widget.scroll_into_view_if_needed()
    page.wait_for_function("() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/reversal.bin'))")
    page.wait_for_timeout(300)  # the site's model decoded, had it replaced the trained one
    assert widget.get_attribute("data-in-use") == "trained"
    field = widget.locator("input")
    field.fill("123456")
    field.press("Enter")
    want = page.evaluate(DECODE, ["trained", [1, 2, 3, 4, 5, 6], None])
    page.wait_for_function(f"document.querySelectorAll('{WIDGET} .widget-output li').length === {len(want['tokens'])}")
    assert output_tokens(page) == want["tokens"]
    widget.get_by_role("button", name=BACK["en"]).click()
    page.wait_for_function(f"document.querySelector('{WIDGET}').dataset.inUse === 'site'")
    assert errors == []


AXE_WIDGET = f"""async (rules) => {{
  const options = {{resultTypes: ["violations"]}};
  if (rules) options.runOnly = {{type: "rule", values: rules}};
  const r = await axe.run(document.querySelector('{WIDGET}'), options);
  return r.violations.filter((v) => {list(BLOCKING)}.includes(v.impact)).map((v) => v.id + ": " + v.help);
}}"""


@pytest.mark.parametrize("lang", PAGES)
def test_the_trained_state_is_axe_clean_in_both_palettes(site_page, site_url, lang):
    page = site_page
    page.goto(site_url + PAGES[lang], wait_until="networkidle")
    ready_widget(page)
    train_in_page(page, site_url)
    page.evaluate(DISPATCH, None)
    page.add_script_tag(content=AXE)
    for scheme in ("light", "dark"):
        switch_palette(page, scheme)
        assert page.evaluate(AXE_WIDGET, None if scheme == "light" else COLOUR_RULES) == [], scheme


@pytest.mark.parametrize("lang", PAGES)
def test_the_trained_state_fits_a_phone(phone_page, site_url, lang):
    page = phone_page
    page.goto(site_url + PAGES[lang], wait_until="networkidle")
    widget = ready_widget(page)
    train_in_page(page, site_url)
    page.evaluate(DISPATCH, None)
    assert widget.get_attribute("data-in-use") == "trained"
    assert widget.get_by_role("button", name=BACK[lang]).is_visible()
    assert page.evaluate(FITS_A_PHONE, WIDGET) == [] and page.errors == []
