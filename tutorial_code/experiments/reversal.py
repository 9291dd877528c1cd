"""The reference encoder–decoder learns to reverse 8 digits (lessons 5 and 8; figures 7, 8, 9).

``tc.TransformerConfig()`` defaults (D = 64, h = 4, d_ff = 128, N = 2, post-LN, sinusoidal
positions), with the package's Xavier initialisation. Source ``[BOS, x_1 … x_8,
EOS]``, target ``[BOS, x_8 … x_1, EOS]``. Training sequences are drawn fresh from a seeded
stream and never include a validation or test sequence (those are redrawn; the count is kept).

run() does three things:

1. the main recipe (Adam, one-cycle schedule, peak lr 5e-3, batch 64, 3 epochs of 10,000):
   per-epoch loss and greedy validation scores, the loss every 25 steps, a teacher-forced
   validation check every ``check_every`` samples, then greedy decoding (with the KV cache)
   on the held-out test set;
2. attention of the trained model on [BOS, 3, 7, 1, 4, 9, 2, 8, 5, EOS]: every layer and head of
   the cross-attention, and how much weight falls on the mirrored source position (the
   anti-diagonal: the query writing y_i = x_{9-i} should look at x_{9-i});
3. recipes compared by the training samples needed to reach the target (validation exact match
   ≥ 99.5 %): one-cycle Adam, the paper's warm-up schedule, constant Adam lr 1e-3;
4. the cross-attention on the lesson's example at ``n_checkpoints`` points of the main run,
   recorded without changing the run, for lesson 8's checkpoint slider.

It saves the trained weights, the test digits and the checkpoints in its files; the page data
(:mod:`.pagedata.reversal`) exports the model for the lesson 8 page and builds its widgets'
data from them without training.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass

import torch

import tutorial_code as tc
from tutorial_code.tasks import digits as digit_task

from .common import digit_data as dt
from .common import seq2seq as s2s
from .common.cpu_threads import torch_threads

# what the reference portfolio reported (lesson 8); literature values, not computed here
D_MODEL = tc.TransformerConfig().d_model  # the reference model's width (64)
REFERENCE_PORTFOLIO = {"epochs": 25, "valid_accuracy": 0.984, "loss_first": 2.29, "loss_last": 0.16,
                       "note": "reported by the reference portfolio; a constant, not computed here"}


@dataclass(frozen=True)
class Config:
    length: int = 8                  # digits per sequence
    epochs: int = 3                  # main run: passes of epoch_size fresh sequences
    epoch_size: int = 10_000         # sequences per epoch (the last partial batch is dropped)
    batch_size: int = 64
    max_lr: float = 5e-3             # one-cycle peak learning rate
    n_valid: int = 1_000             # validation sequences (monitoring only)
    n_test: int = 5_000              # held-out test sequences, scored once at the end
    check_every: int = 2_048         # samples between teacher-forced validation checks
    log_every: int = 25              # steps between points of the training-loss curve
    target: float = 0.995            # validation exact match that counts as "learned"
    compare_seeds: int = 2           # seeds per recipe in the comparison
    compare_cap: int = 40_000        # most training samples a compared recipe may use
    # paper §5.3: 4,000 warm-up steps of the base model's 100,000, so the schedule spends 4 % of
    # its budget warming up and the rest decaying; the same fraction of this recipe's budget
    noam_warmup_fraction: float = 4_000 / 100_000
    constant_lr: float = 1e-3        # Adam's usual default
    example: tuple[int, ...] = (3, 7, 1, 4, 9, 2, 8, 5)  # the lesson's input digits
    n_attention: int = 1_000         # test sequences the attention statistics average over
    n_reference: int = 256           # held-out test inputs the page's forward pass is checked on
    n_checkpoints: int = 12          # points of the main run (start and end included) the slider shows
    seed: int = 0

    @classmethod
    def tiny(cls) -> "Config":
        return cls(epochs=1, epoch_size=640, n_valid=200, n_test=300, check_every=320,
                   compare_seeds=1, compare_cap=640, n_attention=100, n_checkpoints=4)


GATES = {
    "test.greedy.exact_match": (0.995, 1.0),      # the gate of the lesson: reversal is learned
    "test.n_sequences": (5_000, 10**9),
    "test.exact_match_agrees": (1, 1),            # greedy and teacher-forced exact match coincide
    "data.train_test_overlap": (0, 0),            # held-out sequences never seen in training
    "data.train_valid_overlap": (0, 0),
    "attention.example_correct": (1, 1),         # the lesson's example is reversed right
    "recipes.one_cycle.all_reached": (1, 1),      # the main recipe reaches the target on every seed
}
CHECKPOINT_GATES = {"checkpoint_checks.final_cross_gap": (0, 1e-6)}  # the slider ends on the trained model
GATES.update(CHECKPOINT_GATES)
TINY_GATES = {"data.train_test_overlap": (0, 0), "test.exact_match_agrees": (1, 1), **CHECKPOINT_GATES}


def steps_per_epoch(cfg: Config) -> int:
    return cfg.epoch_size // cfg.batch_size


def paper_noam() -> dict:
    """The paper's own warm-up schedule for its base model (§5.3): D = 512, 4,000 warm-up steps;
    its peak, D^-0.5 · w^-0.5, is reached at the last warm-up step."""
    d_model, warmup = 512, 4_000
    return {"d_model": d_model, "warmup": warmup, "peak_lr": d_model ** -0.5 * warmup ** -0.5}


def noam_warmup(cfg: Config) -> int:
    """Warm-up steps of the paper's schedule: the paper's fraction of this recipe's step budget."""
    return max(1, round(cfg.noam_warmup_fraction * (cfg.compare_cap // cfg.batch_size)))


def recipes(cfg: Config) -> list[s2s.Recipe]:
    return [
        s2s.Recipe("one_cycle", "one_cycle", lr=cfg.max_lr),
        # Vaswani et al. §5.3: Adam β=(0.9, 0.98), ε=1e-9, lr = D^-0.5·min(s^-0.5, s·w^-1.5)
        s2s.Recipe("noam", "noam", warmup=noam_warmup(cfg), betas=(0.9, 0.98), eps=1e-9),
        s2s.Recipe("constant", "constant", lr=cfg.constant_lr),
    ]


def new_model(seed: int, device) -> tc.EncoderDecoderTransformer:
    torch.manual_seed(seed)  # the weights of run `seed`
    model = tc.EncoderDecoderTransformer(tc.TransformerConfig(vocab_size=digit_task.VOCAB_SIZE))
    return model.to(device)


def new_trainer(recipe: s2s.Recipe, run_seed: int, total_steps: int, data: dict, cfg: Config, ctx):
    """A fresh model and its trainer (checks on the validation set); ``total_steps`` sizes one-cycle."""
    model = new_model(run_seed, ctx.device)
    opt, sched = s2s.build_optimizer(model.parameters(), recipe, total_steps, model.cfg.d_model)
    vsrc, vtgt = data["valid_pairs"]
    trainer = s2s.Trainer(model, opt, sched, check=lambda m: s2s.teacher_forced_metrics(m, vsrc, vtgt),
                          check_every=cfg.check_every, target=cfg.target, log_every=cfg.log_every)
    return model, trainer


def main_run(cfg: Config, ctx, data: dict) -> dict:
    """The one-cycle recipe for cfg.epochs epochs, scored per epoch and on the test set."""
    n_steps = cfg.epochs * steps_per_epoch(cfg)
    model, trainer = new_trainer(recipes(cfg)[0], cfg.seed, n_steps, data, cfg, ctx)
    gen, stats, epochs, seen = ctx.generator(0), {}, [], []
    vsrc, vtgt = data["valid_pairs"]
    recorder = Checkpoints(model, trainer, checkpoint_steps(cfg), cfg, data)
    with ctx.progress(cfg.epochs, "one-cycle epochs") as bar:
        for epoch in bar:
            batches = dt.training_batches(gen, steps_per_epoch(cfg), cfg.batch_size, cfg.length,
                                          exclude=data["exclude"], device=ctx.device, stats=stats)
            losses = trainer.run(recorder.wrap(dt.remember_digits(batches, seen)))
            val = s2s.greedy_metrics(model, vsrc, vtgt, digit_task.BOS, digit_task.EOS)
            epochs.append({"epoch": epoch + 1, "samples": trainer.samples, "seconds": trainer.seconds,
                           "loss": statistics.fmean(losses), "valid_token_accuracy": val["token_accuracy"],
                           "valid_exact_match": val["exact_match"]})
            bar.log(loss=epochs[-1]["loss"], valid_exact=val["exact_match"])
    train_digits = torch.cat(seen)
    tsrc, ttgt = data["test_pairs"]
    greedy = s2s.greedy_metrics(model, tsrc, ttgt, digit_task.BOS, digit_task.EOS)
    forced = s2s.teacher_forced_metrics(model, tsrc, ttgt)
    return {
        "model": model,
        "trainer": trainer,
        "checkpoints": recorder.rows,
        "epochs": epochs,
        "test": {"greedy": greedy, "teacher_forced": forced, "n_sequences": greedy["n_sequences"],
                 "exact_match_agrees": int(abs(greedy["exact_match"] - forced["exact_match"]) < 1e-12)},
        "data": {"train_sequences": train_digits.size(0), "removed_from_training": stats.get("removed", 0),
                 "train_test_overlap": dt.overlap(train_digits, data["test"]),
                 "train_valid_overlap": dt.overlap(train_digits, data["valid"]),
                 "valid_test_overlap": dt.overlap(data["valid"], data["test"]),
                 "n_valid": cfg.n_valid, "n_test": cfg.n_test},
    }


def checkpoint_steps(cfg: Config) -> list[int]:
    """Optimiser steps after which the slider shows the model: evenly spaced, 0 and the last included."""
    total = cfg.epochs * steps_per_epoch(cfg)
    if cfg.n_checkpoints < 2:
        return []
    return sorted({round(i * total / (cfg.n_checkpoints - 1)) for i in range(cfg.n_checkpoints)})


class Checkpoints:
    """Records the model's cross-attention on the lesson's example at chosen steps of a run.

    ``wrap(batches)`` passes the trainer's batches through and records before a batch when the
    trainer has taken a chosen number of steps (and once more after the last batch). Recording
    runs in eval mode under no_grad and draws no random numbers, so the run is the same with or
    without it (a test checks); no weights are kept, only what the page's slider shows.
    """

    def __init__(self, model, trainer, steps: list[int], cfg: Config, data: dict):
        self.model, self.trainer, self.wanted, self.cfg = model, trainer, set(steps), cfg
        device = next(model.parameters()).device
        self.src, self.tgt = (t.to(device) for t in digit_task.make_pairs(torch.tensor([cfg.example])))
        self.valid = data["valid_pairs"]
        self.rows: list[dict] = []

    def wrap(self, batches):
        for batch in batches:
            self._maybe_record()
            yield batch
        self._maybe_record()  # the trainer asks for one more batch after its last step

    def _maybe_record(self) -> None:
        step = self.trainer.steps
        if step in self.wanted and not any(r["step"] == step for r in self.rows):
            self.rows.append(self.snapshot(step))

    @torch.no_grad()
    def snapshot(self, step: int) -> dict:
        was = self.model.training
        self.model.eval()
        _, att = self.model(self.src, self.tgt[:, :-1], return_attention=True)
        written = tc.greedy_decode(self.model, self.src, digit_task.BOS, self.tgt.size(1) - 1, eos_id=digit_task.EOS)[0]
        val = s2s.teacher_forced_metrics(self.model, *self.valid)
        self.model.train(was)
        mirror = [dt.mirror_weight(w, self.cfg.length) for w in att["cross"]]   # per layer (h,)
        return {"step": step, "samples": self.trainer.samples,
                "valid_exact_match": val["exact_match"], "valid_token_accuracy": val["token_accuracy"],
                "greedy_output": digit_task.token_names(written),
                "correct": int(torch.equal(written, self.tgt[0])),
                # 6 decimals: the page's JSON stays small, and stays within 1e-6 of PyTorch's
                "cross": [[[[round(x, 6) for x in row] for row in h] for h in w[0].tolist()] for w in att["cross"]],
                "mirror_weight": [[round(x, 6) for x in m.tolist()] for m in mirror],
                "last_layer_mirror_weight": round(mirror[-1].mean().item(), 6)}


@torch.no_grad()
def attention(model, cfg: Config, data: dict) -> dict:
    """Attention maps on the lesson's example, and mirror weights averaged over test sequences."""
    model.eval()
    src, tgt = (t.to(next(model.parameters()).device) for t in digit_task.make_pairs(torch.tensor([cfg.example])))
    _, att = model(src, tgt[:, :-1], return_attention=True)
    written = tc.greedy_decode(model, src, digit_task.BOS, tgt.size(1) - 1, eos_id=digit_task.EOS)[0]
    tsrc, ttgt = (t[:cfg.n_attention] for t in data["test_pairs"])
    _, test_att = model(tsrc, ttgt[:, :-1], return_attention=True)
    example = [dt.mirror_weight(w, cfg.length) for w in att["cross"]]          # per layer (h,)
    averaged = [dt.mirror_weight(w, cfg.length) for w in test_att["cross"]]
    return {
        "src_tokens": digit_task.token_names(src[0]),
        "tgt_tokens": digit_task.token_names(tgt[0, :-1]),      # the decoder's inputs (queries)
        "greedy_output": digit_task.token_names(written),       # what the model writes for the example
        "example_correct": int(torch.equal(written, tgt[0])),
        "cross": [w[0].tolist() for w in att["cross"]],  # per layer (h, L_t, L_s)
        "encoder": [w[0].tolist() for w in att["encoder"]],
        "example": {"mirror_weight": [m.tolist() for m in example],
                    "layer_mirror_weight": [m.mean().item() for m in example],
                    "last_layer_mirror_weight": example[-1].mean().item()},
        "test_average": {"mirror_weight": [m.tolist() for m in averaged],
                         "layer_mirror_weight": [m.mean().item() for m in averaged],
                         "last_layer_mirror_weight": averaged[-1].mean().item(),
                         "n_sequences": tsrc.size(0)},
        "uniform_weight": 1 / src.size(1),
    }


def budget_steps(recipe: s2s.Recipe, cfg: Config) -> int:
    """One-cycle runs its planned schedule (the main run's length); the others up to the cap."""
    if recipe.schedule == "one_cycle":
        return cfg.epochs * steps_per_epoch(cfg)
    return cfg.compare_cap // cfg.batch_size


def compare(cfg: Config, ctx, data: dict, main_trainer) -> dict:
    """Samples (and seconds) each recipe needs to reach the target, on cfg.compare_seeds seeds."""
    jobs = [(r, k) for r in recipes(cfg) for k in range(cfg.compare_seeds)]
    runs = {r.name: [] for r in recipes(cfg)}
    with ctx.progress(len(jobs), "recipe runs") as bar:
        for i in bar:
            recipe, k = jobs[i]
            steps = budget_steps(recipe, cfg)
            if recipe.name == "one_cycle" and k == 0:
                trainer = main_trainer                       # the main run is one-cycle, seed 0
            else:
                _, trainer = new_trainer(recipe, cfg.seed + k, steps, data, cfg, ctx)
                trainer.run(dt.training_batches(ctx.generator(k), steps, cfg.batch_size, cfg.length,
                                                exclude=data["exclude"], device=ctx.device),
                            stop_at_target=True)
            hit = trainer.reached or {}
            runs[recipe.name].append({
                "seed": cfg.seed + k, "cap_samples": steps * cfg.batch_size,
                "samples_to_target": hit.get("samples"), "seconds_to_target": hit.get("seconds"),
                "checks": [{key: c[key] for key in ("samples", "exact_match", "token_accuracy", "lr")}
                           for c in trainer.checks]})
            bar.log(recipe=recipe.name, samples=hit.get("samples"))
    return {r.name: summarise(r, runs[r.name], cfg) for r in recipes(cfg)}


def summarise(recipe: s2s.Recipe, runs: list, cfg: Config) -> dict:
    """A recipe's runs plus: how many reached the target, mean samples and seconds (if all did)."""
    hits = [r for r in runs if r["samples_to_target"] is not None]
    every = len(hits) == len(runs)
    steps = budget_steps(recipe, cfg)
    return {"runs": runs, "schedule": recipe.schedule,
            "warmup": recipe.warmup if recipe.schedule == "noam" else None,
            "warmup_fraction": recipe.warmup / steps if recipe.schedule == "noam" else None,
            "budget_steps": steps,
            "reached": len(hits), "n_seeds": len(runs), "all_reached": int(every),
            "cap_samples": steps * cfg.batch_size,
            "mean_samples_to_target": statistics.fmean(r["samples_to_target"] for r in hits) if every else None,
            "mean_seconds_to_target": statistics.fmean(r["seconds_to_target"] for r in hits) if every else None,
            "peak_lr": max(s2s.lr_trace(recipe, D_MODEL, steps, every=1)),
            "lr_trace": s2s.lr_trace(recipe, D_MODEL, steps, every=1),  # every step: the true peak shows
            "lr_trace_every_samples": cfg.batch_size}


def run(cfg: Config, ctx) -> dict:
    with torch_threads(1, ctx.device):
        return _run(cfg, ctx)


def _run(cfg: Config, ctx) -> dict:
    data = dt.held_out(cfg.n_valid, cfg.n_test, cfg.length, "reverse", ctx)
    main = main_run(cfg, ctx, data)
    trainer = main["trainer"]
    results = {
        "model": {**{k: getattr(main["model"].cfg, k) for k in ("d_model", "n_heads", "d_k", "d_ff", "n_layers")},
                  "parameters": tc.count_parameters(main["model"])["total"]},
        "epochs": main["epochs"],
        "loss_curve": trainer.loss_curve,
        "checks": trainer.checks,
        "train_samples": trainer.samples,
        "train_seconds": trainer.seconds,
        "test": main["test"],
        "data": main["data"],
        "attention": attention(main["model"], cfg, data),
        "recipes": compare(cfg, ctx, data, trainer),
        "recipe_order": [rec.name for rec in recipes(cfg)],
        "noam_warmup_fraction": cfg.noam_warmup_fraction,
        "paper_noam": paper_noam(),
        "epoch_plan": {"steps": steps_per_epoch(cfg), "samples": steps_per_epoch(cfg) * cfg.batch_size,
                       "dropped": cfg.epoch_size - steps_per_epoch(cfg) * cfg.batch_size},
        "compare_seeds": cfg.compare_seeds,
        "check_every": cfg.check_every,
        "seed": cfg.seed,
        "target": cfg.target,
        "log_every": cfg.log_every,
        "reference_portfolio": REFERENCE_PORTFOLIO,
    }
    save_for_page(main, data, ctx)
    # the slider's last point is the trained model the static figures show
    last = torch.tensor(main["checkpoints"][-1]["cross"])
    results["checkpoint_checks"] = {
        "n": len(main["checkpoints"]),
        "final_cross_gap": (last - torch.tensor(results["attention"]["cross"])).abs().max().item()}
    return results


def save_for_page(main: dict, data: dict, ctx) -> None:
    """What the page data (:mod:`.pagedata.reversal`) needs, so that it runs without training:
    the trained weights, the held-out test digits, and the checkpoints the slider shows."""
    torch.save({"state_dict": main["model"].state_dict(), "test_digits": data["test"].cpu()},
               ctx.out_dir / "trained.pt")
    (ctx.out_dir / "checkpoints.json").write_text(json.dumps(main["checkpoints"]), "utf-8")
