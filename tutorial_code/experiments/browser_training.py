"""Lesson 8's "Train it yourself": the build's PyTorch run of the settings the page's trainer offers.

The lesson 8 widget trains a small reversal model in the reader's browser
(``docs/assets/javascripts/trainer.js``), from a seeded start on a seeded stream of batches.
This experiment defines that widget's constants once (:class:`Config`: the task, the model, the
switches and their choices; the page reads them from the page data) and trains the same model
here, with ``tutorial_code``'s :class:`~tutorial_code.EncoderDecoderTransformer`, from the very
same starting weights on the very same batches, for the default setting and for every setting
that changes one switch from it (plus the combinations lesson 7 discusses). The page then shows,
beside the reader's run, what this run of the same setting reached.

To start from the same numbers, three pieces of trainer.js are mirrored here exactly:

* :func:`mulberry32`: the seeded stream of numbers in [0, 1) (``Trainer.random``), on 32-bit
  integers as JavaScript computes it;
* :func:`task`: the held-out set (``n_held_out`` distinct sequences drawn from ``seed``) and the
  training stream (drawn from ``seed + 1``, a held-out sequence drawn again), as
  ``Trainer.task``;
* :func:`init_model`: ``Trainer.initModel``'s order of draws and bounds (Xavier-uniform weight
  matrices, ``nn.Linear``'s U(±1/√fan_in) biases, LayerNorm γ = 1, β = 0), computed in float64
  and then rounded to float32, as a ``Float32Array`` stores them.

A test checks in Chromium that these give exactly the page's starting weights, held-out set and
batches. From there the two runs are the same algorithm (Adam, one-cycle or a constant rate,
teacher-forced cross-entropy) in different floating-point orders, so their curves drift apart
slowly; the page compares where they ended, by rules in the page data.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field

import torch

import tutorial_code as tc
import tutorial_code.multihead as multihead
from .common import seq2seq as s2s

# ---------------------------------------------------------------- the widget's constants


@dataclass(frozen=True)
class Config:
    # the task: reversal of `length` digits; the held-out set and the training stream
    length: int = 6                 # digits per sequence
    n_held_out: int = 200           # distinct held-out sequences, never in a training batch
    batch_size: int = 32            # sequences per step
    steps: int = 600                # optimiser steps at most (the one-cycle schedule's length)
    eval_every: int = 50            # held-out exact match every this many steps
    target: float = 0.99            # held-out exact match at which a run stops
    example: tuple[int, ...] = (3, 7, 1, 4, 9, 2)  # the fixed input whose cross-attention is drawn
    # the model: tutorial_code's encoder-decoder at a width that trains in a browser
    vocab_size: int = 13            # PAD, BOS, EOS and the ten digits
    d_model: int = 32               # D
    d_ff: int = 64                  # the feed-forward network's hidden width
    n_layers: int = 2               # N, layers per stack
    # the switches, each with its choices (the first listed value of `defaults` is the default)
    lrs: tuple[float, ...] = (0.001, 0.005, 0.02, 1.0, 10000.0)  # peak learning rate; the last diverges
    heads: tuple[int, ...] = (1, 2, 4)                          # heads per attention
    defaults: tuple[tuple[str, object], ...] = (
        ("position", "on"), ("scaling", "on"), ("heads", 4),
        ("norm", "post"), ("warmup", "on"), ("lr", 0.005))
    # the settings beyond "one switch from the default" that the build runs too (lesson 7's)
    extra: tuple[tuple[tuple[str, object], ...], ...] = (
        (("warmup", "off"), ("lr", 0.02)),                        # post-LN without warm-up, high lr
        (("norm", "pre"), ("warmup", "off")),                     # pre-LN without warm-up
    )  # (pre-LN without warm-up at the high lr runs all its steps too: left out for the build's time)
    runs: tuple[str, ...] = field(default=())  # names of the runs to make (empty: all); tiny uses it
    seed: int = 0

    @classmethod
    def tiny(cls):
        return cls(n_held_out=20, batch_size=8, steps=12, eval_every=4, runs=("default", "lr=10000"))

    def choices(self) -> dict:
        """{switch: [values]} in the widget's order."""
        return {"position": ["on", "off"], "scaling": ["on", "off"], "heads": list(self.heads),
                "norm": ["post", "pre"], "warmup": ["on", "off"], "lr": list(self.lrs)}


GATES = {
    "default.reached": (1, 1),                      # the default setting reaches the target
    "default.final_exact": (0.99, 1.0),
    "data.held_out_in_training": (0, 0),            # no held-out sequence in any batch of any run
    "data.n_held_out_distinct": (200, 200),
    "n_runs": (11, 100),                            # the default and every one-switch change at least
}
TINY_GATES = {"data.held_out_in_training": (0, 0)}

# ---------------------------------------------------------------- trainer.js, mirrored

TOKENS = {"pad_id": 0, "bos_id": 1, "eos_id": 2, "digit0": 3}
_U32 = 0xFFFFFFFF


def mulberry32(seed: int):
    """Trainer.random: a seeded stream of numbers in [0, 1), the same as the page's, bit for bit."""
    a = seed & _U32

    def rand() -> float:
        nonlocal a
        a = (a + 0x6D2B79F5) & _U32
        t = a
        t = ((t ^ (t >> 15)) * (t | 1)) & _U32                         # Math.imul(t ^ t >>> 15, t | 1)
        t = (t ^ ((t + (((t ^ (t >> 7)) * (t | 61)) & _U32)) & _U32)) & _U32
        return (t ^ (t >> 14)) / 4294967296
    return rand


def pair(digits: list[int]) -> tuple[list[int], list[int]]:
    """Source [BOS, x_1 … x_n, EOS] and target [BOS, x_n … x_1, EOS]."""
    d = [x + TOKENS["digit0"] for x in digits]
    return [TOKENS["bos_id"], *d, TOKENS["eos_id"]], [TOKENS["bos_id"], *d[::-1], TOKENS["eos_id"]]


def _draw(rand, length: int) -> list[int]:
    return [math.floor(rand() * 10) for _ in range(length)]


class task:
    """Trainer.task: the held-out set and a training stream that never yields one of its sequences.

    ``exclude=False`` turns the filter off (only for the test that shows the build's check
    catches an overlap)."""

    def __init__(self, seed: int, length: int, n_held_out: int, exclude: bool = True):
        rand, self.held_out, self._seen = mulberry32(seed), [], set()
        while len(self.held_out) < n_held_out:
            d = _draw(rand, length)
            if tuple(d) not in self._seen:
                self._seen.add(tuple(d))
                self.held_out.append(d)
        self._train, self._length, self._exclude = mulberry32(seed + 1), length, exclude
        self.redrawn = 0

    def batch(self, size: int) -> list[list[int]]:
        """The next ``size`` training sequences (digits)."""
        out = []
        while len(out) < size:
            d = _draw(self._train, self._length)
            if self._exclude and tuple(d) in self._seen:
                self.redrawn += 1
                continue
            out.append(d)
        return out


def tensors(digit_rows: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
    pairs = [pair(d) for d in digit_rows]
    return torch.tensor([p[0] for p in pairs]), torch.tensor([p[1] for p in pairs])


def model_config(cfg: Config, setting: dict) -> tc.TransformerConfig:
    return tc.TransformerConfig(vocab_size=cfg.vocab_size, d_model=cfg.d_model, n_heads=int(setting["heads"]),
                                d_ff=cfg.d_ff, n_layers=cfg.n_layers, norm_first=setting["norm"] == "pre",
                                position="sinusoidal" if setting["position"] == "on" else "none")


def init_values(mcfg: tc.TransformerConfig, seed: int) -> dict[str, torch.Tensor]:
    """Trainer.initModel's starting weights by state_dict name: the same draws in the same order,
    float64 maths, then float32."""
    rand, D, out = mulberry32(seed), mcfg.d_model, {}

    def uniform(shape, bound):
        n = math.prod(shape)
        return torch.tensor([(2 * rand() - 1) * bound for _ in range(n)], dtype=torch.float64).reshape(shape).float()

    def lin(name, n_in, n_out):
        out[name + ".weight"] = uniform((n_out, n_in), math.sqrt(6 / (n_in + n_out)))
        out[name + ".bias"] = uniform((n_out,), 1 / math.sqrt(n_in))

    def norm(name):
        out[name + ".weight"], out[name + ".bias"] = torch.ones(D), torch.zeros(D)

    def attn(name):
        for w in ("W_Q", "W_K", "W_V", "W_O"):
            lin(f"{name}.{w}", D, D)

    def ffn(name):
        lin(name + ".W_1", D, mcfg.d_ff)
        lin(name + ".W_2", mcfg.d_ff, D)

    out["embed.tokens.weight"] = uniform((mcfg.vocab_size, D), math.sqrt(6 / (mcfg.vocab_size + D)))
    for layer in range(mcfg.n_layers):
        e = f"encoder.layers.{layer}"
        attn(e + ".self_attn"); ffn(e + ".ffn"); norm(e + ".sublayer1.norm"); norm(e + ".sublayer2.norm")  # noqa: E702
    for layer in range(mcfg.n_layers):
        d = f"decoder.layers.{layer}"
        attn(d + ".self_attn"); attn(d + ".cross_attn"); ffn(d + ".ffn")  # noqa: E702
        for k in (1, 2, 3):
            norm(f"{d}.sublayer{k}.norm")
    if mcfg.norm_first:
        norm("encoder.norm"); norm("decoder.norm")  # noqa: E702
    out["out.bias"] = uniform((mcfg.vocab_size,), 1 / math.sqrt(D))
    return out


def init_model(mcfg: tc.TransformerConfig, seed: int) -> tc.EncoderDecoderTransformer:
    """tutorial_code's model holding Trainer.initModel's weights (out.weight tied to the embedding)."""
    model = tc.EncoderDecoderTransformer(mcfg)
    values = init_values(mcfg, seed)
    params = dict(model.named_parameters())
    if set(values) != set(params):
        raise RuntimeError(f"the page's initialisation and the model disagree on names: "
                           f"{sorted(set(values) ^ set(params))[:5]}; keep init_values in the order of Trainer.initModel")
    with torch.no_grad():
        for name, p in params.items():
            p.copy_(values[name])
    return model


@contextlib.contextmanager
def attention_scaling(scaled: bool):
    """With ``scaled=False``, attention without the ÷√d_k: the queries multiplied by √d_k first
    (what the page's ``scaled: false`` computes)."""
    if scaled:
        yield
        return
    original = multihead.scaled_dot_product_attention

    def unscaled(q, k, v, mask=None, dropout_p=0.0):
        return original(q * math.sqrt(q.size(-1)), k, v, mask, dropout_p)
    multihead.scaled_dot_product_attention = unscaled
    try:
        yield
    finally:
        multihead.scaled_dot_product_attention = original


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


def optimizer(model, recipe: s2s.Recipe, total_steps: int):
    """Adam and the recipe's schedule, as :func:`~.common.seq2seq.build_optimizer` makes them
    (OneCycleLR for one-cycle), with Adam's multi-tensor loop: the same arithmetic, fewer calls."""
    opt = torch.optim.Adam(model.parameters(), lr=recipe.lr, betas=recipe.betas, eps=recipe.eps, foreach=True)
    if recipe.schedule == "one_cycle":
        return opt, torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=recipe.lr, total_steps=total_steps)
    if recipe.schedule == "constant":
        return opt, torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0)
    raise ValueError(f"schedule {recipe.schedule!r}: the page trains with one_cycle or constant")


def finite(loss: torch.Tensor, model) -> bool:
    """Whether the loss and every gradient element are numbers (trainer.js's test before a step)."""
    if not math.isfinite(loss.item()):
        return False
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if math.isfinite(torch.nn.utils.get_total_norm(grads).item()):
        return True
    return all(bool(torch.isfinite(g).all()) for g in grads)  # the norm overflowed: look closer


def train(cfg: Config, setting: dict, exclude: bool = True) -> dict:
    """One run as the page's worker makes it: evaluate at step 0 and every ``eval_every`` steps,
    stop at the target or at the first step whose loss or gradient is not finite."""
    mcfg = model_config(cfg, setting)
    model = init_model(mcfg, cfg.seed)
    data = task(cfg.seed, cfg.length, cfg.n_held_out, exclude=exclude)
    h_src, h_tgt = tensors(data.held_out)
    recipe = s2s.Recipe("page", schedule="one_cycle" if setting["warmup"] == "on" else "constant",
                        lr=float(setting["lr"]))
    opt, sched = optimizer(model, recipe, cfg.steps)
    held = {tuple(d) for d in data.held_out}
    losses, evals, seen_held_out = [], [], 0
    reached = nan_step = None

    # the page scores greedy decoding; teacher forcing gives the same exact match (every next token
    # right given the true prefix is the greedy output, seq2seq.py's docstring) at a fraction of the cost
    def evaluate(step):
        m = s2s.teacher_forced_metrics(model, h_src, h_tgt)
        evals.append({"step": step, "exact": m["exact_match"]})
        return m["exact_match"]

    with attention_scaling(setting["scaling"] == "on"):
        evaluate(0)
        model.train()  # (the evaluation puts the model back in the mode it found)
        for step in range(1, cfg.steps + 1):
            rows = data.batch(cfg.batch_size)
            seen_held_out += sum(tuple(d) in held for d in rows)  # the build's check, per batch
            src, tgt = tensors(rows)
            loss, _ = s2s.seq2seq_loss(model, src, tgt)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            if not finite(loss, model):  # trainer.js applies no such step and stops; so does this run
                nan_step = step
                break
            opt.step()
            sched.step()
            losses.append(loss.item())
            if step % cfg.eval_every == 0 or step == cfg.steps:
                if evaluate(step) >= cfg.target:
                    reached = step
                    break
    return {"setting": setting, "losses": losses, "evals": evals, "reached_step": reached,
            "reached": int(reached is not None), "nan_step": nan_step, "diverged": int(nan_step is not None),
            "final_exact": evals[-1]["exact"], "steps_run": len(losses),
            "held_out_in_training": seen_held_out, "redrawn": data.redrawn}


def run(cfg: Config, ctx) -> dict:
    todo = settings(cfg)
    runs = {}
    with ctx.progress(len(todo), "settings") as bar:
        for name, setting in zip(todo, bar):
            runs[name] = train(cfg, todo[name])
            r = runs[name]
            ctx.log(f"{name}: exact {r['final_exact']:.3f}, reached {r['reached_step']}, NaN {r['nan_step']}")
    data = task(cfg.seed, cfg.length, cfg.n_held_out)
    out = {"runs": runs, "n_runs": len(runs),
           "data": {"held_out_in_training": sum(r["held_out_in_training"] for r in runs.values()),
                    "n_held_out_distinct": len({tuple(d) for d in data.held_out}),
                    "redrawn": max(r["redrawn"] for r in runs.values())}}
    if "default" in runs:
        out["default"] = {k: runs["default"][k] for k in ("reached", "reached_step", "final_exact", "steps_run")}
    return out
