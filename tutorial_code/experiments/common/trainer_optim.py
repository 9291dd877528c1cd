"""Lesson 8's in-page trainer: its optimiser and learning-rate schedules, defined once.

The page's trainer (``docs/assets/javascripts/trainer_optim.js``) reads these numbers from the
page data (:func:`page_data`) and types none of them; the build's PyTorch runs
(:mod:`tutorial_code.experiments.browser_training`) build their optimiser from the same
:class:`Optimiser` with :func:`build_optimizer`. The schedules, by the name the page's switch
gives them:

* ``one_cycle``: ``torch.optim.lr_scheduler.OneCycleLR`` (cosine both ways): from
  ``lr / div_factor`` up to ``lr`` over the first ``pct_start`` of the steps, then down to
  ``lr / div_factor / final_div_factor``, while Adam's β₁ goes ``max_momentum`` →
  ``base_momentum`` → ``max_momentum``;
* ``warmup``: lesson 7's warm-up (``norm_placement``): the rate rises linearly over the first
  ``warmup_steps`` steps, ``lr · min(1, (step + 1) / warmup_steps)``, then stays at ``lr``;
* ``constant``: ``lr`` at every step.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch

from ..norm_placement import Config as _Lesson7

SCHEDULES = ("one_cycle", "warmup", "constant")


@dataclass(frozen=True)
class Optimiser:
    # Adam (torch.optim.Adam's defaults); with one-cycle, β₁ follows the schedule instead
    betas: tuple[float, float] = (0.9, 0.999)
    eps: float = 1e-8
    # one-cycle: OneCycleLR's defaults, written out so that the page reads them from here
    pct_start: float = 0.3          # share of the steps spent rising to the peak
    div_factor: float = 25.0        # the first rate is lr / div_factor
    final_div_factor: float = 1e4   # the last is lr / div_factor / final_div_factor
    base_momentum: float = 0.85     # β₁ at the peak
    max_momentum: float = 0.95      # β₁ at the start and the end
    # lesson 7's warm-up: linear over this many steps, then constant
    warmup_steps: int = _Lesson7().warmup


def build_optimizer(params, optimiser: Optimiser, schedule: str, lr: float, total_steps: int):
    """Adam over ``params`` and the per-step scheduler of ``schedule`` (one of SCHEDULES) with
    peak rate ``lr``; returns (optimizer, scheduler). Adam runs its multi-tensor loop (the same
    arithmetic as the default loop, in fewer calls)."""
    if schedule not in SCHEDULES:
        raise ValueError(f"unknown schedule {schedule!r}; the page trains with one of {', '.join(SCHEDULES)}")
    o = optimiser
    opt = torch.optim.Adam(params, lr=lr, betas=o.betas, eps=o.eps, foreach=True)
    if schedule == "one_cycle":
        sched = torch.optim.lr_scheduler.OneCycleLR(
            opt, max_lr=lr, total_steps=total_steps, pct_start=o.pct_start, anneal_strategy="cos",
            div_factor=o.div_factor, final_div_factor=o.final_div_factor, three_phase=False,
            cycle_momentum=True, base_momentum=o.base_momentum, max_momentum=o.max_momentum)
    elif schedule == "warmup":
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: min(1.0, (step + 1) / o.warmup_steps))
    else:
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: 1.0)
    return opt, sched


def page_data(optimiser: Optimiser) -> dict:
    """What the page's trainer_optim.js reads: every field, the schedules' names."""
    out = asdict(optimiser)
    out["betas"] = list(optimiser.betas)
    out["schedules"] = list(SCHEDULES)
    return out
