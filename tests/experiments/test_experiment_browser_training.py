"""The browser_training experiment (lesson 8's trainer): its settings, its mirror of the page's
task (common/trainer_task.py), its optimiser (common/trainer_optim.py) and its build-time check
that no validation sequence is in a training batch; the float64 runs that show what rounding alone
changes, and the words the page's note says about the build's runs (drawing/browser_training.py:
what became non-finite, where the 32-bit and 64-bit runs part and stop), chosen from the numbers;
and the words of lesson 8's trainer texts: the held-out set that stops a run is a validation set,
an accuracy a run must reach is a threshold, not a target.

That the mirror gives exactly the page's starting weights, validation set and batches, and that
the page's Adam and schedules follow PyTorch's, is checked in Node (tests/package/test_trainer_node.py)."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from coursebuild.pipeline.checks import check_gates
from coursebuild.pipeline.errors import GateError
from tutorial_code.experiments import browser_training as bt
from tutorial_code.experiments.pagedata import browser_training as page


def quiet_context(tmp_path, seed=0):
    from coursebuild.pipeline.context import RunContext
    return RunContext("browser_training", torch.device("cpu"), seed, True, tmp_path, progress_stream=io.StringIO())


def test_the_settings_are_the_default_and_every_one_switch_change():
    cfg = bt.Config()
    runs = bt.settings(cfg)
    default = dict(cfg.defaults)
    assert runs["default"] == default
    one_switch = [s for s in runs.values() if sum(s[k] != default[k] for k in default) == 1]
    assert len(one_switch) == sum(len(v) - 1 for v in cfg.choices().values())
    for switch, values in cfg.choices().items():
        for v in values:
            assert any(s[switch] == v for s in runs.values()), (switch, v)
    assert {"schedule=constant,lr=0.02", "schedule=warmup,lr=0.02", "norm=pre,schedule=constant"} <= set(runs)
    assert len(runs) >= bt.GATES["n_runs"][0]


def test_the_task_holds_distinct_sequences_and_never_trains_on_them():
    data = bt.task(0, 2, 60)  # 100 possible sequences of 2 digits: the stream must redraw often
    held = {tuple(d) for d in data.held_out}
    assert len(held) == 60
    rows = [tuple(d) for _ in range(20) for d in data.batch(8)]
    assert not held & set(rows) and data.redrawn > 0
    again = bt.task(0, 2, 60)
    assert again.held_out == data.held_out and [tuple(d) for _ in range(20) for d in again.batch(8)] == rows


def test_mulberry32_is_in_zero_one_and_seeded():
    a, b = bt.mulberry32(3), bt.mulberry32(3)
    xs = [a() for _ in range(1000)]
    assert xs == [b() for _ in range(1000)] and 0 <= min(xs) and max(xs) < 1
    assert xs[:5] != [bt.mulberry32(4)() for _ in range(5)]


def test_tiny_run_passes_its_gates_and_makes_page_data(tmp_path):
    cfg = bt.Config.tiny()
    results = bt.run(cfg, quiet_context(tmp_path))
    check_gates("browser_training", results, bt.TINY_GATES)
    assert results["data"]["held_out_in_training"] == 0
    nan = results["runs"]["lr=10000"]
    assert nan["diverged"] == 1 and nan["diverged_step"] >= 1 and nan["nonfinite"] in {"loss", "gradient"}
    assert results["runs"]["default"]["nonfinite"] is None and results["runs"]["default"]["diverged_step"] is None
    data = page.page_data(cfg, results, tmp_path, tmp_path)
    train = data["widgets"]["train"]
    assert [s["name"] for s in train["switches"]] == ["position", "scaling", "heads", "norm", "schedule", "lr"]
    assert train["base"]["steps"] == cfg.steps and train["agree"] == page.AGREE
    # the optimiser's numbers reach the page from the one definition
    assert train["optimiser"]["betas"] == list(cfg.optimiser.betas) and train["optimiser"]["schedules"] == [
        "one_cycle", "warmup", "constant"]
    assert train["switch_config"]["scaling"]["off"] == {"attention_scale": 1.0}
    assert {r["name"] for r in train["runs"]} == {"default", "lr=10000"}
    # the rounding runs: the same settings once more in float64, from the same start
    assert set(results["float64"]) == {"default", "lr=10000"}
    f64 = results["float64"]["default"]
    assert f64["losses"][0] == pytest.approx(results["runs"]["default"]["losses"][0], rel=1e-5)
    assert f64["losses"] != results["runs"]["default"]["losses"]  # another arithmetic, other roundings
    assert data["page"]["lesson7_lr"] == 0.02 and data["page"]["default_lr"] == 0.005


def test_the_held_out_check_fails_when_a_batch_holds_a_held_out_sequence(tmp_path, monkeypatch):
    """Inject an overlap: a stream whose first batch starts with a held-out sequence."""
    class leaky(bt.task):
        def batch(self, size):
            rows = super().batch(size)
            if not getattr(self, "leaked", False):
                self.leaked = True
                rows[0] = list(self.held_out[0])
            return rows
    monkeypatch.setattr(bt, "task", leaky)
    cfg = replace(bt.Config.tiny(), runs=("lr=10000",))
    results = bt.run(cfg, quiet_context(tmp_path))
    assert results["data"]["held_out_in_training"] >= 1
    with pytest.raises(GateError, match="held_out_in_training"):
        check_gates("browser_training", results, bt.TINY_GATES)


def test_the_mirrored_initialisation_fills_every_parameter_of_the_package_model():
    cfg = bt.Config()
    for norm in ("post", "pre"):
        mcfg = bt.model_config(cfg, {**dict(cfg.defaults), "norm": norm})
        model = bt.init_model(mcfg, 0)
        values = bt.init_values(mcfg, 0)
        for name, p in model.named_parameters():
            assert torch.equal(p.detach(), values[name]), name
        assert model.out.weight is model.embed.tokens.weight  # tied, as on the page


def test_the_switches_set_the_model_config():
    cfg = bt.Config()
    default = dict(cfg.defaults)
    assert bt.model_config(cfg, default).attention_scale is None
    off = bt.model_config(cfg, {**default, "scaling": "off", "position": "off", "norm": "pre", "heads": 2})
    assert (off.attention_scale, off.position, off.norm_first, off.n_heads) == (1.0, "none", True, 2)


def test_nonfinite_names_the_loss_or_the_gradient():
    model = torch.nn.Linear(2, 1)
    loss = model(torch.ones(1, 2)).sum()
    loss.backward()
    assert bt.nonfinite(loss, model) is None
    assert bt.nonfinite(torch.tensor(float("nan")), model) == "loss"
    model.weight.grad[0, 0] = float("inf")
    assert bt.nonfinite(loss, model) == "gradient"
    model.weight.grad[0, 0] = 3e38  # every element finite, the norm overflows float32
    model.weight.grad[0, 1] = 3e38
    assert bt.nonfinite(loss, model) is None


def test_lesson_7s_warm_up_is_the_norm_placement_experiments():
    from tutorial_code.experiments import norm_placement
    from tutorial_code.experiments.common import trainer_optim
    assert bt.Config().optimiser.warmup_steps == norm_placement.Config().warmup
    with pytest.raises(ValueError, match="one_cycle, warmup, constant"):
        trainer_optim.build_optimizer([torch.zeros(1, requires_grad=True)], bt.Config().optimiser, "noam", 1.0, 10)


# ---------------------------------------------------------------- the note's words about the build's runs

from tutorial_code.experiments.drawing import browser_training as drawn  # noqa: E402

SETTING = {"position": "on", "scaling": "on", "heads": "4", "norm": "post", "schedule": "one_cycle", "lr": "0.005"}


def run_result(lr="0.005", losses=(3.0, 2.0, 1.0), reached=None, diverged=None, what=None, loss=None):
    return {"setting": {**SETTING, "lr": lr}, "losses": list(losses), "reached_step": reached,
            "diverged_step": diverged, "nonfinite": what, "diverged_loss": loss, "steps_run": len(losses),
            "final_exact": 1.0 if reached else 0.0}


def results_with(float64: dict, runs: dict) -> dict:
    return {"runs": runs, "float64": float64,
            "widgets": {"train": {"agree": dict(page.AGREE), "base": {"eval_every": 50}}}}


def test_the_diverged_run_says_what_was_not_finite_and_the_loss_when_it_was():
    grad = results_with({}, {"default": run_result(reached=250),
                             "lr=10000": run_result("10000", diverged=15, what="gradient", loss=5.86e6)})
    w = drawn.words(grad)["diverged_run"]
    assert "step 15, when a gradient was no longer a finite number" in w["en"] and "5.9 × 10⁶" in w["en"]
    assert "15스텝에서 기울기가 유한한 수가 아니게" in w["ko"] and "5.9 × 10⁶" in w["ko"]
    assert "NaN" not in w["en"] and "the loss was no longer" not in w["en"]
    nan = results_with({}, {"default": run_result(reached=250),
                            "lr=10000": run_result("10000", diverged=3, what="loss")})
    w = drawn.words(nan)["diverged_run"]
    assert "when the loss was no longer a finite number" in w["en"] and "still finite" not in w["en"]
    assert "손실이 유한한 수가 아니게" in w["ko"] and "아직 유한" not in w["ko"]


def test_the_rounding_words_follow_the_numbers():
    """Runs that part at step 2 and stop 58 steps apart are never said to agree or to stay close;
    runs that stay within 1 % and reach the threshold together are."""
    close = [3.0, 2.5, 2.0, 1.5]
    runs = {"default": run_result(losses=close, reached=250),
            "lr=10000": run_result("10000", losses=[3.0, 9.9e5, 9.4e6], diverged=15, what="gradient")}
    float64 = {"default": run_result(losses=[x * (1 + 1e-4) for x in close], reached=250),
               "lr=10000": run_result("10000", losses=[3.0, 7.0e5, 2.0e6, 4.0e6], diverged=73, what="loss")}
    w = drawn.words(results_with(float64, runs))["rounding"]
    en, ko = w["en"], w["ko"]
    assert "With the defaults, the 32-bit and 64-bit training losses stayed within 1% of each other" in en
    assert "Both reached the threshold at step 250." in en
    assert "first differed by more than 1% at step 2" in en and "The 32-bit run stopped at step 15, the 64-bit run at step 73." in en
    assert "rounding alone can move where a run stops" in en and "did not move" not in en
    assert "2스텝에서 처음으로 1퍼센트 넘게 벌어졌습니다." in ko and "32비트 실행은 15스텝에서, 64비트 실행은 73스텝에서 멈췄습니다" in ko
    assert "a little" not in en and "조금" not in ko
    # the same but the fast run stops within the widget's margin: rounding did not move it
    float64["lr=10000"]["diverged_step"] = 15 + page.AGREE["diverged_steps_within"]
    w = drawn.words(results_with(float64, runs))["rounding"]
    assert "did not move where a run stopped" in w["en"] and "can move" not in w["en"]
    # the 64-bit run never stops: another kind of ending, said as such
    float64["lr=10000"] = run_result("10000", losses=[3.0] * 600, what=None)
    w = drawn.words(results_with(float64, runs))["rounding"]
    assert "The 32-bit run stopped at step 15, while the 64-bit run ran all 600 steps without reaching" in w["en"]
    assert "32비트 실행은 15스텝에서 멈췄고, 64비트 실행은 600스텝을 모두 학습하고도 기준에 이르지 못했습니다." in w["ko"]
    assert "rounding alone can move where a run stops" in w["en"]


@pytest.mark.parametrize("e32, e64, far", [
    (("diverged", 15), ("diverged", 73), True), (("diverged", 15), ("diverged", 25), False),
    (("reached", 250), ("reached", 300), False), (("reached", 250), ("reached", 350), True),
    (("reached", 250), ("diverged", 250), True), (("short", 600), ("short", 600), False)])
def test_rounding_moves_a_run_by_the_widgets_margins(e32, e64, far):
    assert drawn.moved(e32, e64, page.AGREE, 50) is far


def test_first_apart_counts_steps_from_one():
    assert drawn.first_apart([1.0, 1.0, 2.0], [1.0, 1.001, 1.0]) == 3
    assert drawn.first_apart([1.0, 1.0], [1.0, 1.0]) is None


# ---------------------------------------------------------------- the trainer's words in every text

ROOT = Path(__file__).resolve().parents[2]
LESSON = {lang: ROOT / f"docs/{lang}/lessons/encoder-decoder.md" for lang in ("ko", "en")}


def trainer_section(lang: str) -> str:
    text = LESSON[lang].read_text(encoding="utf-8")
    start = text.index("{ #train-it-yourself }")
    return text[start:text.index("\n## ", start)]


def widget_labels(name: str) -> str:
    js = (ROOT / "docs/assets/javascripts/widgets" / name).read_text(encoding="utf-8")
    start = js.index("const LABELS = {")
    return js[start:js.index("\n  };", start)]


# the held-out sequences that stop a run called test sequences (the one sentence that says they are
# a validation set "not a test set" is the exception)
TEST_WORD = {"en": re.compile(r"\btest\b(?! set\b)", re.I), "ko": re.compile(r"테스트(?! 세트가 아닙니다)")}


def hits_of_test_word(text: str, lang: str) -> list[str]:
    return [text[max(0, m.start() - 30):m.end() + 30] for m in TEST_WORD[lang].finditer(text)]


@pytest.mark.parametrize("text, lang, found", [
    ("exact match on the test sequences", "en", True), ("they are a validation set, not a test set", "en", False),
    ("테스트 시퀀스 완전 일치율", "ko", True), ("검증 세트이지 테스트 세트가 아닙니다", "ko", False)])
def test_the_test_word_check_finds_what_it_names(text, lang, found):
    assert bool(hits_of_test_word(text, lang)) is found


def test_the_trainer_calls_the_stopping_set_validation_everywhere():
    texts = {("ko", "page"): trainer_section("ko"), ("en", "page"): trainer_section("en"),
             ("ko+en", "train.js"): widget_labels("train.js")}
    found = [f"{where}: …{hit}…" for (lang, where), text in texts.items() for one in lang.split("+")
             for hit in hits_of_test_word(text, one)]
    assert not found, found
    for lang, word in (("ko", "검증 시퀀스"), ("en", "validation sequences")):
        assert word in trainer_section(lang) and word in widget_labels("train.js"), lang
    from coursebuild.content import glossary
    term = next(t for t in glossary.load() if t.id == "validation-set")
    assert (term.ko, term.en, term.lesson) == ("검증 세트", "validation set", "encoder-decoder")
    assert term.ko in trainer_section("ko") and term.en in trainer_section("en")


# an accuracy to reach called a target (the glossary: the target is the sequence the decoder writes;
# what a run must reach is the threshold)
TARGET_AS_THRESHOLD = re.compile(r"\b(?:reach\w*|meet\w*|met|hit\w*)\s+(?:the\s+|its\s+)?target\b|"
                                 r"\btarget\s+(?:of\s+)?(?:\d|\[\[)|\btarget as a\b|\btarget (?:exact|accuracy)", re.I)


@pytest.mark.parametrize("text, found", [
    ("reached the target of 99.5 %", True), ("meets the target at a check", True), ("the target as a dotted line", True),
    ("target [[value:reversal.target|.1%]]", True), ("predict the target given the source", False),
    ("reached the threshold", False)])
def test_the_target_check_finds_what_it_names(text, found):
    assert bool(TARGET_AS_THRESHOLD.search(text)) is found


def english_strings(node) -> list[str]:
    """Every ``en:`` string of a questions file, at any depth."""
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "en" and isinstance(v, str)] + [
            s for k, v in node.items() if not (k == "en" and isinstance(v, str)) for s in english_strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in english_strings(v)]
    return []


def test_an_accuracy_to_reach_is_a_threshold_not_a_target():
    import importlib
    import pkgutil

    import yaml

    from tutorial_code.experiments import drawing as drawing_pkg
    texts = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs/en").rglob("*.md"))}
    for p in sorted((ROOT / "docs/questions").glob("*.yml")):
        texts[p.name] = "\n".join(english_strings(yaml.safe_load(p.read_text(encoding="utf-8"))))
    for p in sorted((ROOT / "docs/assets/javascripts/widgets").glob("*.js")):
        if "const LABELS = {" in p.read_text(encoding="utf-8"):
            texts[p.name] = widget_labels(p.name)
    for info in pkgutil.iter_modules(drawing_pkg.__path__):
        labels = getattr(importlib.import_module(f"{drawing_pkg.__name__}.{info.name}"), "LABELS", {})
        texts[f"drawing/{info.name}.py"] = repr(labels.get("en", {}))
    found = [f"{name}: «{m.group(0)}»" for name, text in texts.items() for m in TARGET_AS_THRESHOLD.finditer(text)]
    assert not found, "say threshold:\n" + "\n".join(found)
    assert len([n for n in texts if n.endswith(".yml")]) >= 10 and "train.js" in texts  # it read them
