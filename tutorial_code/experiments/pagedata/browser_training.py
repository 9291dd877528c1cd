"""Lesson 8's trainer widget: its constants and the build's PyTorch run of each setting it offers.

The widget (``docs/assets/javascripts/widgets/train.js``) reads everything it trains with from
here, so the page and the build's runs share one definition (``browser_training.Config``): the
task (length, validation set, batch, steps, evaluations, target, seed, the fixed example), the
model, the switches with their choices and defaults and what each model switch's choice sets in
the model's config (``browser_training.SWITCH_CONFIG``), the optimiser and its schedules
(``common.trainer_optim``: the page's trainer types none of their numbers), and, per setting the
build ran, where that run ended. ``agree`` holds the thresholds of the rule by which the page
says in words whether the reader's run agrees with the build's (see ``verdict`` in train.js):

* both reached the target, at most ``evals_within`` evaluations apart: they agree;
* both diverged (a loss or a gradient that is not a finite number), at most
  ``diverged_steps_within`` steps apart: they agree;
* neither reached the target nor diverged, final exact match at most ``exact_within`` apart:
  they agree;
* anything else (one reached and the other did not, one diverged, or further apart): they differ.
"""

from __future__ import annotations

from ..browser_training import SWITCH_CONFIG, _text
from ..common.trainer_optim import page_data as optimiser_data

AGREE = {"evals_within": 1, "exact_within": 0.05, "diverged_steps_within": 10}


def page_data(cfg, results, files, out_dir) -> dict:
    choices = cfg.choices()
    defaults = dict(cfg.defaults)
    switches = [{"name": name, "values": [_text(v) for v in values], "default": _text(defaults[name])}
                for name, values in choices.items()]
    runs = []
    for name, r in results["runs"].items():
        runs.append({"name": name, "setting": {k: _text(v) for k, v in r["setting"].items()},
                     "exact": round(r["final_exact"], 6), "reached_step": r["reached_step"],
                     "diverged_step": r["diverged_step"], "nonfinite": r["nonfinite"],
                     "steps_run": r["steps_run"]})  # (its curve stays in the results: the page shows the ending)
    train = {
        "base": {"length": cfg.length, "n_held_out": cfg.n_held_out, "batch_size": cfg.batch_size,
                 "steps": cfg.steps, "eval_every": cfg.eval_every, "target": cfg.target, "seed": cfg.seed,
                 "example": list(cfg.example)},
        "model": {"vocab_size": cfg.vocab_size, "d_model": cfg.d_model, "d_ff": cfg.d_ff, "n_layers": cfg.n_layers},
        "switch_config": SWITCH_CONFIG, "optimiser": optimiser_data(cfg.optimiser),
        "switches": switches, "runs": runs, "agree": dict(AGREE),
    }
    default = next(r for r in runs if r["name"] == "default") if "default" in results["runs"] else runs[0]
    # the peak rate of lesson 7's post-LN pair (with and without its warm-up), beside the default's
    extra_lrs = sorted({float(dict(change)["lr"]) for change in cfg.extra if "lr" in dict(change)})
    if len(extra_lrs) != 1:
        raise ValueError(f"lesson 8's note names one higher rate for lesson 7's combinations; Config.extra has {extra_lrs}")
    return {"widgets": {"train": train},
            "page": {"n_runs": len(runs), "agree_within_steps": AGREE["evals_within"] * cfg.eval_every,
                     "agree_exact_within": AGREE["exact_within"],
                     "agree_exact_points": round(100 * AGREE["exact_within"], 6),
                     "agree_diverged_within": AGREE["diverged_steps_within"],
                     "default_reached_step": default["reached_step"] or 0,
                     "warmup_steps": cfg.optimiser.warmup_steps,
                     "default_lr": float(defaults["lr"]),
                     "lesson7_lr": extra_lrs[0],
                     "one_cycle_pct": round(100 * cfg.optimiser.pct_start, 6)}}


CHECKS = {
    "page.n_runs": (11, 100),          # the default and each one-switch change
    "page.default_reached_step": (1, 10**6),
}
TINY_CHECKS = {"page.n_runs": (1, 100)}
