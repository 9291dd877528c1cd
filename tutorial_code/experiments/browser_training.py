"""Lesson 8's "Train it yourself": the build's PyTorch run of the settings the page's trainer offers.

The lesson 8 widget trains a small reversal model in the reader's browser
(``docs/assets/javascripts/trainer.js``, over ``trainer_optim.js`` and ``trainer_task.js``),
from a seeded start on a seeded stream of batches. This experiment defines that widget's
constants once (:class:`Config`: the task, the model, the switches and their choices, what each
choice sets in the model, and the optimiser with its schedules; the page reads them all from the
page data) and trains the same model here, with ``tutorial_code``'s
:class:`~tutorial_code.EncoderDecoderTransformer`, from the very same starting weights on the
very same batches (:mod:`.common.trainer_task` mirrors the page's task and initialisation; the
optimiser is :mod:`.common.trainer_optim`'s), for the default setting and for every setting that
changes one switch from it (plus the combinations lesson 7 discusses). The page then shows,
beside the reader's run, where this run of the same setting ended.

From the same start the two runs are the same algorithm in different floating-point orders (the
page computes in JavaScript's float64 and stores float32; PyTorch computes in float32), so their
numbers are not identical and the difference can grow; the page compares where they ended, by
rules in the page data. A run stops at the first step whose loss or gradient is not a finite
number, and records which of the two it was. Two settings (``Config.rounding``) are run once
more in float64: the same algorithm in a more precise arithmetic, so that the page can say, in
words its drawing code chooses from the numbers, how far rounding alone moves a run.

The held-out sequences decide when a run stops (at ``target`` exact match), so they are a
validation set, not a test set: the page calls them validation sequences.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

import tutorial_code as tc
from .common import seq2seq as s2s
from .common.trainer_optim import SCHEDULES, Optimiser, build_optimizer
from .common.trainer_task import TOKENS, init_model, init_values, mulberry32, pair, task, tensors  # noqa: F401

# ---------------------------------------------------------------- the widget's constants

# what each choice of a model switch sets in the model's TransformerConfig (the page reads it too)
SWITCH_CONFIG = {
    "position": {"on": {"position": "sinusoidal"}, "off": {"position": "none"}},
    "scaling": {"on": {"attention_scale": None}, "off": {"attention_scale": 1.0}},  # 1.0: no ÷√d_k
    "norm": {"post": {"norm_first": False}, "pre": {"norm_first": True}},
}


@dataclass(frozen=True)
class Config:
    # the task: reversal of `length` digits; the validation set and the training stream
    length: int = 6                 # digits per sequence
    n_held_out: int = 200           # distinct validation sequences, never in a training batch
    batch_size: int = 32            # sequences per step
    steps: int = 600                # optimiser steps at most (the one-cycle schedule's length)
    eval_every: int = 50            # validation exact match every this many steps
    target: float = 0.99            # validation exact match at which a run stops
    example: tuple[int, ...] = (3, 7, 1, 4, 9, 2)  # the fixed input whose cross-attention is drawn
    # the model: tutorial_code's encoder-decoder at a width that trains in a browser
    vocab_size: int = 13            # PAD, BOS, EOS and the ten digits
    d_model: int = 32               # D
    d_ff: int = 64                  # the feed-forward network's hidden width
    n_layers: int = 2               # N, layers per stack
    # Adam and the schedules (one-cycle, lesson 7's warm-up, constant), for the page and this run
    optimiser: Optimiser = field(default=Optimiser())
    # the switches, each with its choices (the first listed value of `defaults` is the default)
    lrs: tuple[float, ...] = (0.001, 0.005, 0.02, 1.0, 10000.0)  # peak learning rate; the last diverges
    heads: tuple[int, ...] = (1, 2, 4)                          # heads per attention
    defaults: tuple[tuple[str, object], ...] = (
        ("position", "on"), ("scaling", "on"), ("heads", 4),
        ("norm", "post"), ("schedule", "one_cycle"), ("lr", 0.005))
    # the settings beyond "one switch from the default" that the build runs too (lesson 7's:
    # post-LN at a high rate without and with its warm-up, pre-LN without warm-up)
    extra: tuple[tuple[tuple[str, object], ...], ...] = (
        (("schedule", "constant"), ("lr", 0.02)),
        (("schedule", "warmup"), ("lr", 0.02)),
        (("norm", "pre"), ("schedule", "constant")),
    )  # (pre-LN without warm-up at the high lr runs all its steps too: left out for the build's time)
    runs: tuple[str, ...] = field(default=())  # names of the runs to make (empty: all); tiny uses it
    # runs made once more in float64, to show what rounding alone changes (the default, and the
    # rate that diverges)
    rounding: tuple[str, ...] = ("default", "lr=10000")
    seed: int = 0

    @classmethod
    def tiny(cls):
        return cls(n_held_out=20, batch_size=8, steps=12, eval_every=4, runs=("default", "lr=10000"))

    def choices(self) -> dict:
        """{switch: [values]} in the widget's order."""
        return {"position": list(SWITCH_CONFIG["position"]), "scaling": list(SWITCH_CONFIG["scaling"]),
                "heads": list(self.heads), "norm": list(SWITCH_CONFIG["norm"]),
                "schedule": list(SCHEDULES), "lr": list(self.lrs)}


GATES = {
    "default.reached": (1, 1),                      # the default setting reaches the target
    "default.final_exact": (0.99, 1.0),
    "data.held_out_in_training": (0, 0),            # no held-out sequence in any batch of any run
    "data.n_held_out_distinct": (200, 200),
    "n_runs": (11, 100),                            # the default and every one-switch change at least
}
TINY_GATES = {"data.held_out_in_training": (0, 0)}

# ---------------------------------------------------------------- the model of a setting


def model_config(cfg: Config, setting: dict) -> tc.TransformerConfig:
    """The TransformerConfig of a setting: the model's sizes, the heads, and what SWITCH_CONFIG
    says each model switch's choice sets."""
    chosen = {k: v for switch, values in SWITCH_CONFIG.items() for k, v in values[setting[switch]].items()}
    return tc.TransformerConfig(vocab_size=cfg.vocab_size, d_model=cfg.d_model, n_heads=int(setting["heads"]),
                                d_ff=cfg.d_ff, n_layers=cfg.n_layers, **chosen)


# ---------------------------------------------------------------- the settings


def settings(cfg: Config) -> dict[str, dict]:
    """{run name: setting}: the default, each one-switch change, then the extra combinations."""
    default = dict(cfg.defaults)
    out = {"default": default}
    for switch, values in cfg.choices().items():
        for v in values:
            if v != default[switch]:
                out[f"{switch}={_text(v)}"] = {**default, switch: v}
    for change in cfg.extra:
        out[",".join(f"{k}={_text(v)}" for k, v in change)] = {**default, **dict(change)}
    if cfg.runs:
        missing = [r for r in cfg.runs if r not in out]
        if missing:
            raise ValueError(f"unknown run {missing[0]!r}; runs: {', '.join(out)}")
        out = {k: v for k, v in out.items() if k in cfg.runs}
    return out


def _text(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def nonfinite(loss: torch.Tensor, model) -> str | None:
    """What of this step is not a finite number: "loss", else "gradient" (some element of some
    parameter's gradient), else None. The page's trainer asks the same, in the same order."""
    if not math.isfinite(loss.item()):
        return "loss"
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if math.isfinite(torch.nn.utils.get_total_norm(grads).item()):
        return None
    if all(bool(torch.isfinite(g).all()) for g in grads):  # only the norm overflowed
        return None
    return "gradient"


def train(cfg: Config, setting: dict, exclude: bool = True, dtype: torch.dtype = torch.float32) -> dict:
    """One run as the page's worker makes it: evaluate at step 0 and every ``eval_every`` steps,
    stop at the target or at the first step whose loss or gradient is not finite (that step is
    not applied; ``diverged_step`` and ``nonfinite`` say which step and what, ``diverged_loss``
    that step's loss when it was finite). ``dtype``: the parameters' and the arithmetic's
    (float64 for the rounding runs; the start is the same float32 numbers)."""
    mcfg = model_config(cfg, setting)
    model = init_model(mcfg, cfg.seed).to(dtype)
    data = task(cfg.seed, cfg.length, cfg.n_held_out, exclude=exclude)
    h_src, h_tgt = tensors(data.held_out)
    opt, sched = build_optimizer(model.parameters(), cfg.optimiser, setting["schedule"], float(setting["lr"]), cfg.steps)
    held = {tuple(d) for d in data.held_out}
    losses, evals, seen_held_out = [], [], 0
    reached = diverged_step = what = diverged_loss = None

    # the page scores greedy decoding; teacher forcing gives the same exact match (every next token
    # right given the true prefix is the greedy output, seq2seq.py's docstring) at a fraction of the cost
    def evaluate(step):
        m = s2s.teacher_forced_metrics(model, h_src, h_tgt)
        evals.append({"step": step, "exact": m["exact_match"]})
        return m["exact_match"]

    evaluate(0)
    model.train()  # (the evaluation puts the model back in the mode it found)
    for step in range(1, cfg.steps + 1):
        rows = data.batch(cfg.batch_size)
        seen_held_out += sum(tuple(d) in held for d in rows)  # the build's check, per batch
        src, tgt = tensors(rows)
        loss, _ = s2s.seq2seq_loss(model, src, tgt)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        what = nonfinite(loss, model)
        if what:  # trainer.js applies no such step and stops; so does this run
            diverged_step = step
            diverged_loss = loss.item() if what == "gradient" else None  # finite: only the gradient was not
            break
        opt.step()
        sched.step()
        losses.append(loss.item())
        if step % cfg.eval_every == 0 or step == cfg.steps:
            if evaluate(step) >= cfg.target:
                reached = step
                break
    return {"setting": setting, "losses": losses, "evals": evals, "reached_step": reached,
            "reached": int(reached is not None), "diverged_step": diverged_step, "nonfinite": what,
            "diverged_loss": diverged_loss, "diverged": int(diverged_step is not None),
            "final_exact": evals[-1]["exact"], "steps_run": len(losses),
            "held_out_in_training": seen_held_out, "redrawn": data.redrawn}


def run(cfg: Config, ctx) -> dict:
    todo = settings(cfg)
    runs = {}
    with ctx.progress(len(todo), "settings") as bar:
        for name, setting in zip(todo, bar):
            runs[name] = train(cfg, todo[name])
            r = runs[name]
            ctx.log(f"{name}: exact {r['final_exact']:.3f}, reached {r['reached_step']}, "
                    f"diverged {r['diverged_step']} ({r['nonfinite']})")
    # the same runs in float64: what rounding alone changes (their curves, where they stop)
    keep = ("losses", "reached_step", "diverged_step", "nonfinite", "diverged_loss", "final_exact", "steps_run")
    float64 = {}
    for name in (n for n in cfg.rounding if n in runs):
        r = train(cfg, todo[name], dtype=torch.float64)
        float64[name] = {k: r[k] for k in keep}
        ctx.log(f"{name} in float64: reached {r['reached_step']}, diverged {r['diverged_step']} ({r['nonfinite']})")
    data = task(cfg.seed, cfg.length, cfg.n_held_out)
    out = {"runs": runs, "n_runs": len(runs), "float64": float64,
           "data": {"held_out_in_training": sum(r["held_out_in_training"] for r in runs.values()),
                    "n_held_out_distinct": len({tuple(d) for d in data.held_out}),
                    "redrawn": max(r["redrawn"] for r in runs.values())}}
    if "default" in runs:
        out["default"] = {k: runs["default"][k] for k in ("reached", "reached_step", "final_exact", "steps_run")}
    return out
