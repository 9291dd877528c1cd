"""Training and scoring the encoder–decoder on token tasks: recipes, a training loop, metrics.

Shared by the ``reversal`` (lesson 8) and ``heads`` (lesson 5) experiments. Teacher forcing:
the decoder reads ``tgt[:, :-1]`` and is scored on ``tgt[:, 1:]`` at every position at once.

A fact the experiments lean on: a sequence is exactly right under greedy decoding if and only
if it is exactly right under teacher forcing (if every next-token prediction is right given the
true prefix, greedy decoding builds that same prefix; barring floating-point ties between the
cached and uncached computations). So the cheap teacher-forced exact match can monitor training,
and greedy decoding gives the same exact match on the final test set (token accuracy differs: a
greedy mistake is fed back and can cause more).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable

import torch
from torch import Tensor, nn

import tutorial_code as tc

SCHEDULES = ("one_cycle", "noam", "constant")


@dataclass(frozen=True)
class Recipe:
    """An optimiser and learning-rate schedule."""

    name: str                       # key in the results
    schedule: str = "one_cycle"     # one of SCHEDULES
    lr: float = 5e-3                # peak lr (one_cycle) or the constant lr; noam derives its own
    warmup: int = 400               # noam: warm-up steps (paper: 4000)
    betas: tuple[float, float] = (0.9, 0.999)  # Adam's defaults; the paper used (0.9, 0.98)
    eps: float = 1e-8               # Adam's default; the paper used 1e-9


def noam_lr(step: int, d_model: int, warmup: int) -> float:
    """lr = D^-0.5 · min(step^-0.5, step · warmup^-1.5), step counted from 1 (§5.3, eq. 3)."""
    step = max(step, 1)
    return d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


def build_optimizer(params, recipe: Recipe, total_steps: int, d_model: int):
    """Adam over ``params`` plus a per-step scheduler for ``recipe``; returns (optimizer, scheduler)."""
    if recipe.schedule not in SCHEDULES:
        raise ValueError(f"unknown schedule {recipe.schedule!r}; use one of {', '.join(SCHEDULES)}")
    base = 1.0 if recipe.schedule == "noam" else recipe.lr  # noam: the lambda is the lr itself
    opt = torch.optim.Adam(params, lr=base, betas=recipe.betas, eps=recipe.eps)
    if recipe.schedule == "one_cycle":
        # warm up for 30 % of the steps to lr, then anneal (cosine) to lr / 1e4
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=recipe.lr, total_steps=total_steps)
    elif recipe.schedule == "noam":
        sched = torch.optim.lr_scheduler.LambdaLR(
            opt, lambda s: noam_lr(s + 1, d_model, recipe.warmup))
    else:
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0)
    return opt, sched


def seq2seq_loss(model: nn.Module, src: Tensor, tgt: Tensor) -> tuple[Tensor, Tensor]:
    """Teacher-forced cross-entropy over the target positions; returns (loss, logits (B, L_t-1, V))."""
    logits = model(src, tgt[:, :-1])
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), tgt[:, 1:].flatten(),
                                       ignore_index=model.cfg.pad_id)
    return loss, logits


@torch.no_grad()
def teacher_forced_metrics(model: nn.Module, src: Tensor, tgt: Tensor, chunk: int = 2500) -> dict:
    """Token accuracy and whole-sequence exact match with the true prefix fed in."""
    was = model.training
    model.eval()
    hits = []
    for i in range(0, src.size(0), chunk):
        logits = model(src[i:i + chunk], tgt[i:i + chunk, :-1])
        hits.append(logits.argmax(-1) == tgt[i:i + chunk, 1:])  # (B, L_t-1)
    model.train(was)
    return _scores(torch.cat(hits))


@torch.no_grad()
def greedy_metrics(model: nn.Module, src: Tensor, tgt: Tensor, bos_id: int, eos_id: int,
                   chunk: int = 2500) -> dict:
    """Token accuracy and exact match of ``tc.greedy_decode`` (with the key/value cache)."""
    hits = []
    for i in range(0, src.size(0), chunk):
        want = tgt[i:i + chunk]
        out = tc.greedy_decode(model, src[i:i + chunk], bos_id, want.size(1) - 1, eos_id=eos_id)
        out = nn.functional.pad(out, (0, want.size(1) - out.size(1)), value=model.cfg.pad_id)
        hits.append(out[:, 1:] == want[:, 1:])  # (B, L_t-1)
    return _scores(torch.cat(hits))


def _scores(hits: Tensor) -> dict:
    return {"token_accuracy": hits.float().mean().item(),
            "exact_match": hits.all(dim=1).float().mean().item(),
            "n_sequences": hits.size(0)}


class Trainer:
    """Runs optimiser steps over batches; logs the loss and optional held-out checks.

    ``check(model) -> dict`` runs every ``check_every`` samples; ``target`` is the exact match
    at which the run counts as having reached its goal (``reached`` records when). Times count
    training only, not the checks.
    """

    def __init__(self, model, opt, sched, *, log_every: int = 50, check: Callable | None = None,
                 check_every: int = 0, target: float | None = None):
        self.model, self.opt, self.sched = model, opt, sched
        self.log_every, self.check, self.check_every, self.target = log_every, check, check_every, target
        self.steps = self.samples = 0
        self.seconds = 0.0
        self.loss_curve: list[dict] = []   # every log_every steps: mean loss since the last point
        self.checks: list[dict] = []       # every check_every samples
        self.reached: dict | None = None   # the first check at or above target
        self._window: list[float] = []

    def run(self, batches: Iterable[tuple[Tensor, Tensor]], stop_at_target: bool = False) -> list[float]:
        """Train on every batch (or until the target is reached); returns the batch losses."""
        losses = []
        self.model.train()
        for src, tgt in batches:
            t0 = time.perf_counter()
            loss, _ = seq2seq_loss(self.model, src, tgt)
            self.opt.zero_grad(set_to_none=True)
            loss.backward()
            self.opt.step()
            self.sched.step()
            self.seconds += time.perf_counter() - t0
            losses.append(loss.item())
            self._after_step(losses[-1], src.size(0))
            if stop_at_target and self.reached is not None:
                break
        return losses

    def _after_step(self, loss: float, batch: int) -> None:
        before = self.samples
        self.steps += 1
        self.samples += batch
        self._window.append(loss)
        if self.steps % self.log_every == 0:
            self.loss_curve.append({"samples": self.samples, "loss": sum(self._window) / len(self._window)})
            self._window = []
        crossed = self.check_every and self.samples // self.check_every > before // self.check_every
        if self.check is not None and crossed:  # a multiple of check_every was passed
            self._run_check()

    def _run_check(self) -> None:
        row = {"samples": self.samples, "seconds": self.seconds,
               "lr": self.opt.param_groups[0]["lr"], **self.check(self.model)}
        self.checks.append(row)
        if self.reached is None and self.target is not None and row["exact_match"] >= self.target:
            self.reached = row


def lr_trace(recipe: Recipe, d_model: int, total_steps: int, every: int = 10) -> list[float]:
    """The learning rate a recipe would use at steps 0, every, 2·every, … (for plots)."""
    opt, sched = build_optimizer([nn.Parameter(torch.zeros(1))], recipe, total_steps, d_model)
    out = []
    for step in range(total_steps):
        if step % every == 0:
            out.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return out


def entropy(weights: Tensor) -> Tensor:
    """Entropy in nats of attention rows (…, L_k) → (…); log(L_k) means uniform, 0 one key."""
    return -(weights * weights.clamp_min(1e-12).log()).sum(-1)
