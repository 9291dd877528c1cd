"""The browser_training experiment (lesson 8's trainer): its settings, its mirror of the page's
task (common/trainer_task.py), its optimiser (common/trainer_optim.py) and its build-time check
that no validation sequence is in a training batch.

That the mirror gives exactly the page's starting weights, validation set and batches, and that
the page's Adam and schedules follow PyTorch's, is checked in Node (tests/package/test_trainer_node.py)."""

from __future__ import annotations

import io
from dataclasses import replace

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
