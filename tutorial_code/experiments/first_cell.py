"""Remember the first cell: an LSTM against a one-block Transformer, by sequence length.

Lesson 9 and assignment 2. Each sequence is L cells of ±1 drawn at random; its label is the
first cell. The LSTM must carry that one cell through L recurrent steps; attention can look
at it directly from every position, whatever L is — but only if the model can tell which
cell is the first one, i.e. only with position information (lesson 6).

Models (the reference lesson's sizes):

* LSTM, hidden 16, reads the ±1 values and classifies from its last hidden state;
* Transformer: a 2-token vocabulary, embedding × √D plus a learned position embedding, one
  post-LN :class:`~tutorial_code.layers.EncoderLayer` (D = 16, 2 heads, d_ff = 32), **mean
  pooling** over positions, then a linear classifier. Mean pooling (not BERT's "first"
  pooling) keeps the classifier from reading position 0 for free: the first cell has weight
  1/L in the mean, so to classify well the model has to move it into every position, and
  attention to the first cell is the direct way to do that;
* the same Transformer without its position embedding (assignment 2). Without positions the
  model is permutation-invariant (lesson 4): it sees only how many +1 cells there are, so the
  best it can do is guess the majority sign. ``bag_bound`` is that ceiling,
  E[max(k, L−k)] / L for k ~ Binomial(L, ½), computed exactly.

Speed: the seeds of a model train together (:mod:`.seed_stack`): the Transformers are
stacked with ``torch.func.stack_module_state`` and run as one model with ``vmap``; the LSTMs
(no ``vmap`` rule) run in a loop inside each step, on one CPU thread. The losses of the seeds
are summed, so each seed gets exactly its own gradient, and Adam (element-wise) treats each as
if it were alone. Training stops early once every seed classifies its whole training set
correctly during an epoch (``stop_when_solved``); the epochs used are reported. The
no-position model never gets there and always runs every epoch at a cost of B·h·L² per
attention step, so its lengths (``ablation_lengths``) stop below the longest.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from tutorial_code.classifiers import FirstCellTransformer, LSTMClassifier
from tutorial_code.tasks.first_cell import bag_bound, make_data

from .cpu_threads import torch_threads
from .seed_stack import LoopedModels, StackedModels, fit_binary, predict

MODELS = ("lstm", "transformer", "no_position")


@dataclass(frozen=True)
class Config:
    lengths: tuple[int, ...] = (10, 25, 50, 100, 200)  # L, cells per sequence
    ablation_lengths: tuple[int, ...] = (10, 25, 50)  # L for the model without position
    n_train: int = 2000        # training sequences per seed (reference: 2,000)
    n_test: int = 1000         # test sequences per seed (reference: 1,000)
    epochs: int = 30           # at most this many passes (reference: 30)
    batch_size: int = 100      # sequences per step, per seed
    lr: float = 0.005          # Adam learning rate (reference: 0.005)
    seeds: int = 2             # seeds for the LSTM and the Transformer (reference: 2)
    ablation_seeds: int = 3    # seeds without position (assignment: at least 3)
    hidden: int = 16           # LSTM hidden size
    d_model: int = 16          # D of the Transformer (reference: 16)
    n_heads: int = 2           # h (reference: 2)
    d_ff: int = 32             # feed-forward width
    stop_when_solved: bool = True  # stop once every seed fits its training set for an epoch
    eval_chunk: int = 250      # test sequences per forward pass (bounds the L×L memory)
    map_length: int = 25       # L whose mean attention map is kept for the heatmap figure
    seed: int = 0

    @classmethod
    def tiny(cls) -> "Config":
        return cls(lengths=(6, 12), ablation_lengths=(6,), n_train=300, n_test=200, epochs=4,
                   ablation_seeds=2, map_length=6)


# closed ranges; a list is checked element by element (one entry per length)
GATES = {
    "transformer.acc": (0.95, 1.0),          # with positions: solved at every length
    "no_position.acc": (0.4, 0.7),           # without: near chance at every length ...
    "no_position.gap_to_bound": (-0.2, 0.05),  # ... and never above the bag-of-cells ceiling
    "lstm.acc.0": (0.95, 1.0),               # short sequences: the LSTM remembers
    "lstm.acc.-1": (0.4, 0.6),               # longest: it is back to guessing
    "lstm.acc.-2": (0.4, 0.6),
    "transformer.attn_first_ratio": (2.0, 1e9),  # looks at cell 1 more than uniform (1/L)
    "no_position.attn_first_ratio": (0.5, 2.0),  # no position: about uniform
}
TINY_GATES = {  # a few steps of training: only what holds from the start
    "transformer.acc": (0.0, 1.0),
    "no_position.attn_first_ratio": (0.5, 2.0),
}


# ---------------------------------------------------------------- data

# ---------------------------------------------------------------- models

def build(kind: str, cfg: Config, length: int, seeds: list[int], device):
    """The S = len(seeds) models of one kind for one length; seed s fixes model s's init."""
    models = []
    for s in seeds:
        torch.manual_seed(s)
        if kind == "lstm":
            models.append(LSTMClassifier(cfg.hidden).to(device))
        else:
            models.append(FirstCellTransformer(cfg.d_model, cfg.n_heads, cfg.d_ff, length,
                                               kind == "transformer").to(device))
    return LoopedModels(models) if kind == "lstm" else StackedModels(models)


# ---------------------------------------------------------------- evaluation

@torch.no_grad()
def evaluate(model, x: Tensor, y: Tensor, chunk: int) -> dict:
    """Test accuracy per seed and the attention paid to the first cell.

    ``attn_first_heads`` (S, h): the weight on key 0, averaged over queries and test
    sequences, per head; ``attn_first`` (S,): its mean over heads; ``attn_map`` (S, L, L):
    the weights averaged over heads and test sequences.
    """
    n = x.size(1)
    correct, first, maps = 0.0, 0.0, 0.0
    for i in range(0, n, chunk):
        logits, weights = predict(model, x[:, i : i + chunk])
        correct = correct + ((logits > 0).float() == y[:, i : i + chunk]).sum(dim=1)
        if weights is not None:
            first = first + weights[..., 0].mean(dim=-1).sum(dim=1)  # (S, h)
            maps = maps + weights.mean(dim=2).sum(dim=1)  # (S, L, L)
    out = {"acc": (correct / n).tolist()}
    if torch.is_tensor(first):
        heads = first / n
        out.update(attn_first_heads=heads.tolist(), attn_first=heads.mean(dim=1).tolist(),
                   attn_map=(maps / n).tolist())
    return out


# ---------------------------------------------------------------- experiment

def seed_data(length: int, seeds: list[int], cfg: Config, ctx) -> tuple[Tensor, ...]:
    """Train and test sets (S, N, L), (S, N) for each seed; the same for every model kind."""
    sets = []
    for s in seeds:
        gen = ctx.generator(offset=1000 + 1000 * length + s)
        sets.append(make_data(cfg.n_train, length, gen) + make_data(cfg.n_test, length, gen))
    return tuple(torch.stack(parts).to(ctx.device) for parts in zip(*sets))


def run_length(kind: str, L: int, seeds: list[int], cfg: Config, ctx) -> dict:
    """Train the seeds of one kind at one length; return training facts and test results."""
    x, y, x_test, y_test = seed_data(L, seeds, cfg, ctx)
    model = build(kind, cfg, L, [cfg.seed + s for s in seeds], ctx.device)
    with ctx.progress(cfg.epochs, f"{kind} L={L}") as bar:
        info = fit_binary(model, x, y, lr=cfg.lr, batch_size=cfg.batch_size, bar=bar,
                          gen=ctx.generator(offset=L), stop_when_solved=cfg.stop_when_solved)
    row = {"length": L, **info, **evaluate(model, x_test, y_test, cfg.eval_chunk)}
    ctx.log(f"{kind} L={L}: test accuracy {[round(a, 3) for a in row['acc']]} "
            f"after {info['epochs']} epochs")
    return row


def run_kind(kind: str, cfg: Config, ctx) -> dict:
    """Train and test one model kind at each of its lengths, all seeds at once."""
    lengths = cfg.ablation_lengths if kind == "no_position" else cfg.lengths
    seeds = list(range(cfg.ablation_seeds if kind == "no_position" else cfg.seeds))
    with torch_threads(1 if kind == "lstm" else 0, ctx.device):
        rows = [run_length(kind, L, seeds, cfg, ctx) for L in lengths]
    out = {
        "lengths": lengths,
        "seeds": len(seeds),
        "acc": [sum(r["acc"]) / len(seeds) for r in rows],   # mean over seeds, per length
        "acc_seeds": [r["acc"] for r in rows],                # per length, per seed
        "epochs": [r["epochs"] for r in rows],
        "solved_at": [r["solved_at"] for r in rows],
    }
    if kind != "lstm":
        out["attn_first"] = [sum(r["attn_first"]) / len(seeds) for r in rows]
        out["attn_first_seeds"] = [r["attn_first"] for r in rows]
        out["attn_first_ratio"] = [a * L for a, L in zip(out["attn_first"], lengths)]  # ÷ 1/L
        out["attn_first_best_head"] = [sum(max(h) for h in r["attn_first_heads"]) / len(seeds)
                                       for r in rows]
        out["gap_to_bound"] = [a - bag_bound(L) for a, L in zip(out["acc"], lengths)]
        kept = [r for r in rows if r["length"] == cfg.map_length]
        out["attn_maps"] = kept[0]["attn_map"] if kept else None  # per seed, (L, L)
    return out


def run(cfg: Config, ctx) -> dict:
    res = {kind: run_kind(kind, cfg, ctx) for kind in MODELS}
    lengths = list(cfg.lengths)
    res["lengths"] = lengths
    res["uniform"] = [1 / L for L in lengths]
    res["bag_bound"] = [bag_bound(L) for L in lengths]
    res["map_length"] = cfg.map_length
    res["at"] = {str(L): at_length(res, L) for L in lengths}
    res["summary"] = summary(res)
    return res


def at_length(res: dict, L: int) -> dict:
    """Everything measured at one length, for pages: ``first_cell.at.200.lstm``."""
    row = {"length": L, "uniform": 1 / L, "bag_bound": bag_bound(L)}
    for kind in MODELS:
        part = res[kind]
        if L not in part["lengths"]:  # the no-position model stops short of the longest
            missing = (kind, f"{kind}_seeds", f"{kind}_attn", f"{kind}_attn_ratio")
            row.update(dict.fromkeys(missing, "—"))
            continue
        i = part["lengths"].index(L)
        row[kind] = part["acc"][i]
        row[f"{kind}_seeds"] = " / ".join(f"{a:.3f}" for a in part["acc_seeds"][i])
        if "attn_first" in part:
            row[f"{kind}_attn"] = part["attn_first"][i]
            row[f"{kind}_attn_ratio"] = part["attn_first_ratio"][i]
            row[f"{kind}_attn_best_head"] = part["attn_first_best_head"][i]
    return row


def summary(res: dict) -> dict:
    """A few numbers for the prose: where the LSTM stops coping, the extremes per model."""
    lstm = res["lstm"]
    solved = [L for L, a in zip(lstm["lengths"], lstm["acc"]) if a >= 0.95]
    guessing = [L for L, a in zip(lstm["lengths"], lstm["acc"]) if a < 0.6]
    return {
        "lstm_longest_solved": max(solved) if solved else None,   # mean accuracy ≥ 0.95
        "lstm_shortest_guessing": min(guessing) if guessing else None,  # mean accuracy < 0.6
        "transformer_min_acc": min(res["transformer"]["acc"]),
        "no_position_max_acc": max(res["no_position"]["acc"]),
        "no_position_max_gap": max(res["no_position"]["gap_to_bound"]),
        "transformer_min_attn_ratio": min(res["transformer"]["attn_first_ratio"]),
        "longest": max(res["lengths"]),
        "longest_no_position": max(res["no_position"]["lengths"]),
    }
