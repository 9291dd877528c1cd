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
correctly during an epoch (``stop_when_solved``); the epochs used are reported, and each LSTM
seed stops training as soon as it gets there. The no-position model never gets there and
always runs every epoch at a cost of B·h·L² per attention step, so its lengths
(``ablation_lengths``) stop below the longest, and it stops once it has learnt all that a
model blind to order can: its training accuracy within ``ablation_tolerance`` of the best that
the count of +1 cells allows on its own training set (:func:`count_ceiling`).

A longer budget (``long_lengths``, up to ``long_epochs``): an LSTM near chance after
``epochs`` passes may only be slower to learn, not unable. At those lengths the LSTM's run is
simply continued past ``epochs``: its test accuracy is taken at epoch ``epochs`` (the main
table, exactly what a run stopped there gives) and again at the end (``lstm_long``), so the
longer budget costs only the extra epochs. ``cpu_s`` records the CPU time of each part
(``time.process_time``: the cores are shared, so wall time says little).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import torch
from torch import Tensor

from tutorial_code.classifiers import FirstCellTransformer, LSTMClassifier
from tutorial_code.tasks.first_cell import bag_bound, make_data

from .common.cpu_threads import torch_threads
from .common.seed_stack import LoopedModels, StackedModels, fit_binary, predict

MODELS = ("lstm", "transformer", "no_position")


@dataclass(frozen=True)
class Config:
    lengths: tuple[int, ...] = (10, 25, 50, 100, 200)  # L, cells per sequence
    ablation_lengths: tuple[int, ...] = (10, 25, 50)  # L for the model without position
    n_train: int = 2000        # training sequences per seed (reference: 2,000)
    n_test: int = 1000         # test sequences per seed (reference: 1,000)
    epochs: int = 30           # at most this many passes (reference: 30)
    long_lengths: tuple[int, ...] = (25, 50)  # L where the LSTM also gets the longer budget
    long_epochs: int = 300     # the longer budget: at most this many passes
    batch_size: int = 100      # sequences per step, per seed
    lr: float = 0.005          # Adam learning rate (reference: 0.005)
    seeds: int = 2             # seeds for the LSTM and the Transformer (reference: 2)
    ablation_seeds: int = 3    # seeds without position (assignment: at least 3)
    hidden: int = 16           # LSTM hidden size
    d_model: int = 16          # D of the Transformer (reference: 16)
    n_heads: int = 2           # h (reference: 2)
    d_ff: int = 32             # feed-forward width
    stop_when_solved: bool = True  # stop once every seed fits its training set for an epoch
    ablation_tolerance: float = 0.01  # no position: stop this close to its training ceiling
    eval_chunk: int = 250      # test sequences per forward pass (bounds the L×L memory)
    map_length: int = 25       # L whose mean attention map is kept for the heatmap figure
    seed: int = 0

    @classmethod
    def tiny(cls) -> "Config":
        return cls(lengths=(6, 12), ablation_lengths=(6,), n_train=300, n_test=200, epochs=4,
                   long_lengths=(12,), long_epochs=6, ablation_seeds=2, map_length=6)


# Quality gates (closed ranges; a list is checked element by element, one entry per length):
# training worked and nothing leaked from the training set into the test results.
GATES = {
    "transformer.acc": (0.95, 1.0),          # with positions the model trains: solved at every length
    "lstm.acc.0": (0.95, 1.0),               # short sequences: the LSTM trains too
    # the count of +1 cells caps a model without position (bag_bound); above it on held-out
    # sequences would mean it saw something it should not
    "no_position.gap_to_bound": (-1.0, 0.05),
    "no_position.attn_first_ratio": (0.5, 2.0),  # without position cell 1 is like any other cell
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


def count_ceiling(x: Tensor, y: Tensor) -> list[float]:
    """Per seed, the best training accuracy from the count of +1 cells alone (x (S, N, L)).

    A model without position sees only that count, so it can do no better than answering, for
    each count, the label most of that seed's training sequences with that count have.
    """
    out = []
    for tokens, labels in zip(x, y):
        k = tokens.sum(dim=-1).long().cpu()
        ones = torch.bincount(k, weights=labels.cpu(), minlength=tokens.size(-1) + 1)
        all_ = torch.bincount(k, minlength=tokens.size(-1) + 1).double()
        out.append(float(torch.maximum(ones, all_ - ones).sum() / len(labels)))
    return out


def run_length(kind: str, L: int, seeds: list[int], cfg: Config, ctx) -> dict:
    """Train the seeds of one kind at one length; return training facts and test results.

    An LSTM at one of ``long_lengths`` trains on to ``long_epochs``; the row then holds the test
    results at epoch ``epochs`` and, under ``"long"``, those at the end.
    """
    x, y, x_test, y_test = seed_data(L, seeds, cfg, ctx)
    model = build(kind, cfg, L, [cfg.seed + s for s in seeds], ctx.device)
    longer = kind == "lstm" and L in cfg.long_lengths and cfg.long_epochs > cfg.epochs
    at_budget = {}

    def checkpoint(done: int) -> None:  # the test results a run stopped after `epochs` gives
        if done == cfg.epochs:
            at_budget.update(evaluate(model, x_test, y_test, cfg.eval_chunk))

    epochs = cfg.long_epochs if longer else cfg.epochs
    target = ([c - cfg.ablation_tolerance for c in count_ceiling(x, y)]
              if kind == "no_position" else None)
    cpu = time.process_time()
    with ctx.progress(epochs, f"{kind} L={L}") as bar:
        info = fit_binary(model, x, y, lr=cfg.lr, batch_size=cfg.batch_size, bar=bar,
                          gen=ctx.generator(offset=L), stop_when_solved=cfg.stop_when_solved,
                          after_epoch=checkpoint if longer else None, target=target)
    final = evaluate(model, x_test, y_test, cfg.eval_chunk)
    row = {"length": L, **info, **final, "cpu_s": time.process_time() - cpu}
    if longer:
        # solved before `epochs` (training stopped): the budget's results are the final ones
        budget = at_budget or final
        row = {**row, **budget, "epochs": min(info["epochs"], cfg.epochs),
               "solved_at": [a if a is not None and a <= cfg.epochs else None
                             for a in info["solved_at"]],
               "long": {**info, **final}}
    ctx.log(f"{kind} L={L}: test accuracy {[round(a, 3) for a in row['acc']]} "
            f"after {row['epochs']} epochs"
            + (f"; {[round(a, 3) for a in final['acc']]} after {info['epochs']}" if longer else ""))
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
        "cpu_s": sum(r["cpu_s"] for r in rows),
    }
    if kind == "lstm":
        out["long"] = long_budget([r for r in rows if "long" in r], cfg)
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


SOLVED = 0.95  # test accuracy at which a seed counts as having solved a length


def long_budget(rows: list[dict], cfg: Config) -> dict:
    """The LSTM's longer budget, per length: ``lstm_vs_attention.lstm.long.at.25.solved_seeds``."""
    at = {}
    for r in rows:
        acc = r["long"]["acc"]
        at[str(r["length"])] = {
            "length": r["length"],
            "acc": sum(acc) / len(acc),
            "acc_seeds": acc,
            "seeds": len(acc),
            "solved_seeds": sum(a >= SOLVED for a in acc),  # test accuracy ≥ SOLVED
            "epochs": r["long"]["epochs"],
            "solved_at": r["long"]["solved_at"],  # epoch it first fit its training set, or None
            "solved_at_text": " / ".join("—" if a is None else str(a) for a in r["long"]["solved_at"]),
            "acc_seeds_text": " / ".join(f"{a:.3f}" for a in acc),
        }
    return {"lengths": [r["length"] for r in rows], "max_epochs": cfg.long_epochs,
            "solved": SOLVED, "at": at}


def run(cfg: Config, ctx) -> dict:
    res = {kind: run_kind(kind, cfg, ctx) for kind in MODELS}
    lengths = list(cfg.lengths)
    res["lengths"] = lengths
    res["uniform"] = [1 / L for L in lengths]
    res["bag_bound"] = [bag_bound(L) for L in lengths]
    res["map_length"] = cfg.map_length
    res["at"] = {str(L): at_length(res, L) for L in lengths}
    res["summary"] = summary(res)
    res["cpu_s"] = {kind: res[kind]["cpu_s"] for kind in MODELS}  # CPU seconds of training + test
    res["cpu_s"]["total"] = sum(res["cpu_s"].values())
    return res


def at_length(res: dict, L: int) -> dict:
    """Everything measured at one length, for pages: ``lstm_vs_attention.at.200.lstm``."""
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
    solved = [L for L, a in zip(lstm["lengths"], lstm["acc"]) if a >= SOLVED]
    guessing = [L for L, a in zip(lstm["lengths"], lstm["acc"]) if a < 0.6]
    after = [a for L, a in zip(lstm["lengths"], lstm["acc"])
             if guessing and L >= min(guessing)]
    return {
        # 1 when every length from the first near-chance one on is near chance (0.4–0.6)
        "lstm_guessing_from_there_on": int(bool(after) and all(0.4 <= a < 0.6 for a in after)),
        "lstm_longest_solved": max(solved) if solved else None,   # mean accuracy ≥ 0.95
        "lstm_shortest_guessing": min(guessing) if guessing else None,  # mean accuracy < 0.6
        "transformer_min_acc": min(res["transformer"]["acc"]),
        "no_position_max_acc": max(res["no_position"]["acc"]),
        "no_position_max_gap": max(res["no_position"]["gap_to_bound"]),
        "transformer_min_attn_ratio": min(res["transformer"]["attn_first_ratio"]),
        "longest": max(res["lengths"]),
        "longest_no_position": max(res["no_position"]["lengths"]),
    }
