"""One parameter budget, split into 1, 2, 4 or 8 heads (lesson 5).

D = 64 stays fixed, so d_k = D / h shrinks as h grows and every attention module keeps
4·D² + 4·D parameters (W_Q, W_K, W_V, W_O with their biases): the models differ only in how
the same matrices are cut into heads. Each is the reference encoder–decoder (N = 2,
d_ff = 128, post-LN, sinusoidal), trained on a small fixed budget to **sort** 8 digits, a task
where where to look depends on the content (the query writing the k-th smallest digit must find
it), not on a fixed position as in reversal, which every head count learns easily.

Reported per head count (2 seeds): greedy test token accuracy and exact match, and the
validation exact match along training. For the 4-head model, every head's cross-attention on
one input, its entropy (how spread out it is: 0 = one key, log L_s = uniform) and how much weight
it puts on the source position holding the digit being written or the digit just read. Nothing
assigns these roles; whatever pattern a head shows, training found.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import torch

import tutorial_code as tc
from tutorial_code.tasks import digits as digit_task

from .common import digit_data as dt
from .common import seq2seq as s2s
from .common.cpu_threads import torch_threads


@dataclass(frozen=True)
class Config:
    head_counts: tuple[int, ...] = (1, 2, 4, 8)  # h; d_k = 64 / h
    seeds: int = 2                   # training runs per head count
    task: str = "sort"               # see digit_tasks.TASKS
    length: int = 8                  # digits per sequence
    train_samples: int = 6_400       # the fixed budget: 100 steps of 64
    batch_size: int = 64
    max_lr: float = 5e-3             # Adam with a one-cycle schedule, as in the reversal recipe
    check_every: int = 640           # samples between teacher-forced validation checks
    n_valid: int = 1_000
    n_test: int = 2_000              # held out, greedy decoding at the end
    pattern_heads: int = 4           # the model whose heads are drawn
    example: tuple[int, ...] = (3, 7, 1, 4, 9, 2, 8, 5)  # distinct digits: one source match each
    n_attention: int = 500           # test sequences the per-head statistics average over
    seed: int = 0

    @classmethod
    def tiny(cls) -> "Config":
        return cls(head_counts=(1, 4), seeds=1, train_samples=640, check_every=320,
                   n_valid=200, n_test=200, n_attention=50)


GATES = {
    "params.identical": (1, 1),                 # every head count has the same parameters
    "params.attention_module": (16_640, 16_640),  # 4·64² + 4·64
    "test_token_accuracy": (0.85, 1.0),         # every head count learns most of the task
    "best_exact_match": (0.8, 1.0),
}
TINY_GATES = {"params.identical": (1, 1), "params.attention_module": (16_640, 16_640)}


def new_model(n_heads: int, seed: int, device):
    torch.manual_seed(seed)
    cfg = tc.TransformerConfig(vocab_size=digit_task.VOCAB_SIZE, n_heads=n_heads)
    return tc.EncoderDecoderTransformer(cfg).to(device)


def parameter_facts(head_counts) -> dict:
    counts = {str(h): tc.count_parameters(new_model(h, 0, "cpu")) for h in head_counts}
    mha = tc.MultiHeadAttention(64, head_counts[0])
    return {"by_heads": counts, "attention_module": sum(p.numel() for p in mha.parameters()),
            "identical": int(len({tuple(sorted(c.items())) for c in counts.values()}) == 1)}


def train_one(n_heads: int, k: int, cfg: Config, ctx, data: dict):
    """Train the h-head model for run k on the fixed budget; returns (model, trainer)."""
    model = new_model(n_heads, cfg.seed + k, ctx.device)
    steps = cfg.train_samples // cfg.batch_size
    recipe = s2s.Recipe("one_cycle", "one_cycle", lr=cfg.max_lr)
    opt, sched = s2s.build_optimizer(model.parameters(), recipe, steps, model.cfg.d_model)
    vsrc, vtgt = data["valid_pairs"]
    trainer = s2s.Trainer(model, opt, sched, check=lambda m: s2s.teacher_forced_metrics(m, vsrc, vtgt),
                          check_every=cfg.check_every)
    trainer.run(dt.training_batches(ctx.generator(k), steps, cfg.batch_size, cfg.length, cfg.task,
                                    data["exclude"], ctx.device))
    return model, trainer


def head_stats(cross, src, tgt) -> dict:
    """Per layer and head: entropy, max weight, weight on the digit written and on the digit read.

    cross: per layer (B, h, L_t, L_s); src (B, L_s); tgt (B, L_t + 1). Averaged over the batch
    and every query. Lists [layer][head].
    """
    write = dt.holds_digit(src, tgt[:, 1:]).unsqueeze(1).float()   # (B, 1, L_t, L_s)
    read = dt.holds_digit(src, tgt[:, :-1]).unsqueeze(1).float()
    out = {"entropy": [], "max_weight": [], "write_weight": [], "read_weight": []}
    for w in cross:
        out["entropy"].append(s2s.entropy(w).mean(dim=(0, 2)).tolist())
        out["max_weight"].append(w.max(-1).values.mean(dim=(0, 2)).tolist())
        out["write_weight"].append((w * write).sum(-1).mean(dim=(0, 2)).tolist())
        out["read_weight"].append((w * read).sum(-1).mean(dim=(0, 2)).tolist())
    return out


@torch.no_grad()
def patterns(model, cfg: Config, data: dict) -> dict:
    model.eval()
    device = next(model.parameters()).device
    src, tgt = (t.to(device) for t in digit_task.make_pairs(torch.tensor([cfg.example]), cfg.task))
    _, att = model(src, tgt[:, :-1], return_attention=True)
    tsrc, ttgt = (t[:cfg.n_attention] for t in data["test_pairs"])
    _, test_att = model(tsrc, ttgt[:, :-1], return_attention=True)
    return {"n_heads": model.cfg.n_heads, "src_tokens": digit_task.token_names(src[0]),
            "tgt_tokens": digit_task.token_names(tgt[0, :-1]), "out_tokens": digit_task.token_names(tgt[0, 1:]),
            "cross": [w[0].tolist() for w in att["cross"]],
            "example": head_stats(att["cross"], src, tgt),
            "test_average": {**head_stats(test_att["cross"], tsrc, ttgt), "n_sequences": tsrc.size(0)},
            "uniform_entropy": math.log(src.size(1))}


def run(cfg: Config, ctx) -> dict:
    with torch_threads(1, ctx.device):
        return _run(cfg, ctx)


def _run(cfg: Config, ctx) -> dict:
    if cfg.pattern_heads not in cfg.head_counts:
        raise ValueError(f"pattern_heads={cfg.pattern_heads} must be one of head_counts={cfg.head_counts}")
    data = dt.held_out(cfg.n_valid, cfg.n_test, cfg.length, cfg.task, ctx)
    by_heads, drawn = {}, None
    jobs = [(h, k) for h in cfg.head_counts for k in range(cfg.seeds)]
    with ctx.progress(len(jobs), "head counts x seeds") as bar:
        for i in bar:
            h, k = jobs[i]
            model, trainer = train_one(h, k, cfg, ctx, data)
            test = s2s.greedy_metrics(model, *data["test_pairs"], digit_task.BOS, digit_task.EOS)
            by_heads.setdefault(str(h), {"runs": []})["runs"].append(
                {"seed": cfg.seed + k, "test": test, "seconds": trainer.seconds, "samples": trainer.samples,
                 "valid_curve": [{key: c[key] for key in ("samples", "exact_match", "token_accuracy")}
                                 for c in trainer.checks]})
            bar.log(heads=h, exact=test["exact_match"])
            if h == cfg.pattern_heads and k == 0:
                drawn = patterns(model, cfg, data)
    for entry in by_heads.values():
        for key in ("token_accuracy", "exact_match"):
            entry[f"test_{key}"] = statistics.fmean(r["test"][key] for r in entry["runs"])
        entry["seconds"] = statistics.fmean(r["seconds"] for r in entry["runs"])
    results = {
        "task": cfg.task, "head_counts": list(cfg.head_counts),
        "d_k": [64 // h for h in cfg.head_counts],
        "params": parameter_facts(cfg.head_counts),
        "by_heads": by_heads,
        "test_token_accuracy": [by_heads[str(h)]["test_token_accuracy"] for h in cfg.head_counts],
        "test_exact_match": [by_heads[str(h)]["test_exact_match"] for h in cfg.head_counts],
        "train_samples": cfg.train_samples, "n_test": cfg.n_test, "seeds": cfg.seeds,
        "patterns": drawn,
    }
    results["best_exact_match"] = max(results["test_exact_match"])
    return results
