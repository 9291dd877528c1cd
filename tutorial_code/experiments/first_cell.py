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

from . import plotting
from .cpu_threads import torch_threads
from .seed_stack import LoopedModels, StackedModels, fit_binary, predict
from .tables import column

TITLE = {"ko": "첫 칸 기억하기: LSTM 대 트랜스포머", "en": "Remember the first cell: LSTM vs Transformer"}
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
    res["tables"] = tables(res)
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


def tables(res: dict) -> dict:
    rows = [res["at"][str(L)] for L in res["lengths"]]
    length = column("length", "길이 $L$", "length $L$")
    return {
        "accuracy": {"columns": [
            length,
            column("lstm", "LSTM", "LSTM", ".3f"),
            column("transformer", "트랜스포머", "Transformer", ".3f"),
            column("no_position", "트랜스포머 (위치 없음)", "Transformer (no position)", ".3f"),
            column("bag_bound", "순서 없이 가능한 최고", "best possible without order", ".3f"),
        ], "rows": rows},
        "accuracy_seeds": {"columns": [
            length,
            column("lstm_seeds", "LSTM (시드별)", "LSTM (per seed)"),
            column("transformer_seeds", "트랜스포머 (시드별)", "Transformer (per seed)"),
            column("no_position_seeds", "위치 없음 (시드별)", "no position (per seed)"),
        ], "rows": rows},
        "attention": {"columns": [
            length,
            column("uniform", "균등 $1/L$", "uniform $1/L$", ".3f"),
            column("transformer_attn", "첫 칸 어텐션", "attention to cell 1", ".3f"),
            column("transformer_attn_ratio", "균등 대비 배수", "× uniform", ".1f"),
            column("transformer_attn_best_head", "가장 강한 헤드", "strongest head", ".3f"),
            column("no_position_attn", "위치 없음: 첫 칸 어텐션", "no position: attention to cell 1", ".3f"),
            column("no_position_attn_ratio", "위치 없음: 균등 대비", "no position: × uniform", ".2f"),
        ], "rows": rows},
        "ablation": {"columns": [
            length,
            column("no_position", "정확도 (평균)", "accuracy (mean)", ".3f"),
            column("no_position_seeds", "정확도 (시드별)", "accuracy (per seed)"),
            column("bag_bound", "순서 없이 가능한 최고", "best possible without order", ".3f"),
            column("no_position_attn", "첫 칸 어텐션", "attention to cell 1", ".4f"),
            column("uniform", "균등 $1/L$", "uniform $1/L$", ".4f"),
        ], "rows": [r for r in rows if "no_position" in r]},
    }


# ---------------------------------------------------------------- figures

LABELS = {
    "ko": {
        "length": "수열 길이 $L$",
        "acc_title": "테스트 정확도",
        "acc_y": "정확도",
        "lstm": "LSTM",
        "transformer": "트랜스포머",
        "no_position": "트랜스포머 (위치 없음)",
        "chance": "찍기 (0.5)",
        "bound": "순서 없이 가능한 최고",
        "attn_title": "첫 칸에 주는 어텐션",
        "attn_y": "평균 가중치 (헤드·쿼리 평균)",
        "best_head": "트랜스포머: 가장 강한 헤드",
        "uniform": "균등 분배 $1/L$",
        "map_title": "테스트 수열에 대한 평균 어텐션 (헤드 평균, $L$ = {L})",
        "seed": "시드 {s}",
        "query": "쿼리 위치",
        "key": "키 위치",
        "weight": "가중치",
    },
    "en": {
        "length": "sequence length $L$",
        "acc_title": "Test accuracy",
        "acc_y": "accuracy",
        "lstm": "LSTM",
        "transformer": "Transformer",
        "no_position": "Transformer (no position)",
        "chance": "guessing (0.5)",
        "bound": "best possible without order",
        "attn_title": "Attention paid to the first cell",
        "attn_y": "mean weight (over heads and queries)",
        "best_head": "Transformer: strongest head",
        "uniform": "uniform $1/L$",
        "map_title": "Mean attention over the test sequences (heads averaged, $L$ = {L})",
        "seed": "seed {s}",
        "query": "query position",
        "key": "key position",
        "weight": "weight",
    },
}
COLOR = {"lstm": "raw", "transformer": "scaled", "no_position": "other"}
MARKER = {"lstm": "o", "transformer": "s", "no_position": "^"}


def _length_axis(ax, lengths, t):
    ax.set_xscale("log")
    ax.set_xticks(lengths, [str(L) for L in lengths])
    ax.minorticks_off()
    ax.set_xlabel(t["length"])


def figures(results: dict, lang: str, outdir) -> list:
    t = plotting.labels(LABELS, lang)
    with plotting.style(lang):
        return [accuracy_figure(results, t, outdir), attention_figure(results, t, outdir),
                attention_map_figure(results, t, outdir)]


def accuracy_figure(res, t, outdir):
    c = plotting.COLORS
    fig, ax = plotting.subplots(1, 1, figsize=(6.0, 4.4))
    ax.axhline(0.5, ls="--", color=c["reference"], lw=1, label=t["chance"])
    ax.plot(res["lengths"], res["bag_bound"], ":", color=c["reference"], label=t["bound"])
    for kind in MODELS:
        part, col = res[kind], c[COLOR[kind]]
        ax.plot(part["lengths"], part["acc"], MARKER[kind] + "-", color=col, label=t[kind])
        for L, accs in zip(part["lengths"], part["acc_seeds"]):  # one faint dot per seed
            ax.scatter([L] * len(accs), accs, color=col, alpha=0.35, s=14, lw=0)
    _length_axis(ax, res["lengths"], t)
    ax.set(title=t["acc_title"], ylabel=t["acc_y"], ylim=(0.4, 1.03))
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=3, fontsize=8)
    return plotting.save(fig, outdir, "accuracy")


def attention_figure(res, t, outdir):
    c = plotting.COLORS
    fig, ax = plotting.subplots(1, 1, figsize=(6.0, 4.4))
    ax.plot(res["lengths"], res["uniform"], "--", color=c["reference"], label=t["uniform"])
    for kind in ("transformer", "no_position"):
        part = res[kind]
        ax.plot(part["lengths"], part["attn_first"], MARKER[kind] + "-", color=c[COLOR[kind]],
                label=t[kind])
    tr = res["transformer"]
    ax.plot(tr["lengths"], tr["attn_first_best_head"], "s:", color=c["scaled"], alpha=0.6,
            mfc="none", label=t["best_head"])
    plotting.log_y(ax)
    _length_axis(ax, res["lengths"], t)
    ax.set(title=t["attn_title"], ylabel=t["attn_y"])
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=2, fontsize=8)
    return plotting.save(fig, outdir, "attention")


def attention_map_figure(res, t, outdir):
    """Head-averaged attention at L = map_length: each seed with position, one without."""
    panels = [(t["transformer"] + " · " + t["seed"].format(s=i), m)
              for i, m in enumerate(res["transformer"]["attn_maps"])]
    panels.append((t["no_position"] + " · " + t["seed"].format(s=0),
                   res["no_position"]["attn_maps"][0]))
    fig, axes = plotting.subplots(1, len(panels), figsize=(3.4 * len(panels), 3.8))
    vmax = max(max(max(row) for row in m) for _, m in panels)
    for ax, (title, m) in zip(axes, panels):
        im = ax.imshow(m, cmap="viridis", vmin=0, vmax=vmax)  # m: (L, L) nested lists
        ax.set_title(title, fontsize=9)
        ax.set(xlabel=t["key"], ylabel=t["query"])
        ax.grid(False)
    fig.colorbar(im, ax=axes, shrink=0.85, label=t["weight"])
    fig.suptitle(t["map_title"].format(L=res["map_length"]))
    return plotting.save(fig, outdir, "attention_map")
