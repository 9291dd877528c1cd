"""How the results of :mod:`tutorial_code.experiments.norm_placement` are drawn: its tables and figures.

Presentation only: the strings (``LABELS``, both languages), ``tables(results)`` and
``figures(results, lang, outdir)``. Editing this file redraws; it never retrains.
"""

from __future__ import annotations

import math

import matplotlib

from ..norm_placement import NORMS
from . import plotting
from .tables import column, headers


def tables(res: dict) -> dict:
    init_rows = [{"layer": i, "post": p, "pre": q, "ratio": p / q}
                 for i, p, q in zip(res["layers"], res["init"]["post"], res["init"]["pre"])]
    run_rows = []
    for name, r in res["runs"].items():
        run_rows.append({"norm": "Post-LN" if r["norm"] == "post" else "Pre-LN",
                         "warmup": r["warmup"], "first": r["first_loss"], "final": r["final_loss"],
                         "bottom_over_top": r["bottom_over_top"]})
    last, n_layers, window = res["checkpoints"][-1], len(res["layers"]), res["final_window"]
    ckpt = {}  # one table per run: rows are checkpoints, columns are layers
    for name, r in res["runs"].items():
        rows = sorted(({"step": int(s), **{f"l{i + 1}": g for i, g in enumerate(gs)}}
                       for s, gs in r["grad_norms"].items()), key=lambda row: row["step"])
        ckpt[f"checkpoints_{name}"] = {"columns": [column("step", head("col_step"))] + [
            column(f"l{i}", head("col_layer_i", i=i), ".3g") for i in res["layers"]], "rows": rows}
    return {
        "init": {"columns": [
            column("layer", head("col_layer")),
            column("post", head("col_post"), ".3f"),
            column("pre", head("col_pre"), ".3f"),
            column("ratio", head("col_ratio"), ".1f"),
        ], "rows": init_rows},
        "runs": {"columns": [
            column("norm", head("col_norm")),
            column("warmup", head("col_warmup")),
            column("first", head("col_first"), ".2f"),
            column("final", head("col_final", window=window), ".3f"),
            column("bottom_over_top", head("col_bottom_over_top", n=n_layers, step=last), ".2g"),
        ], "rows": run_rows},
        **ckpt,
    }


# ---------------------------------------------------------------- figures

LABELS = {
    "ko": {
        "title": '층 정규화를 놓는 자리: Post-LN 대 Pre-LN',
        # table headers
        "col_layer_i": "층 {i}",
        "col_final": "마지막 손실 (끝 {window}스텝 평균)",
        "col_bottom_over_top": "기울기 층 1 ÷ 층 {n} (스텝 {step})",
        "col_step": "스텝",
        "col_layer": "층",
        "col_post": "Post-LN",
        "col_pre": "Pre-LN",
        "col_ratio": "Post ÷ Pre",
        "col_norm": "층 정규화를 놓는 자리",
        "col_warmup": "웜업 스텝",
        "col_first": "처음 손실",
        "layer": "층 (1 = 입력 쪽, {N} = 출력 쪽)",
        "grad": "기울기 노름 $\\|\\partial L/\\partial\\theta\\|$",
        "init_title": "초기화 직후 층별 기울기 ({S}개 초기화 평균)",
        "post": "Post-LN (2017 논문)",
        "pre": "Pre-LN (GPT-2)",
        "loss_title": "학습 곡선 (학습률 {lr:g})",
        "step": "스텝",
        "loss": "복사 구간의 교차 엔트로피 ({k}스텝씩 평균)",
        "step0": "스텝 0의 손실 (점)",
        "warmup": "웜업 {w}스텝",
        "no_warmup": "웜업 없음",
        "guess": "찍기 (log 10)",
        "ckpt_title": "학습 중 층별 기울기 노름 (학습률 {lr:g})",
        "at_step": "스텝 {s}",
    },
    "en": {
        "title": 'Where the LayerNorm goes: post-LN vs pre-LN',
        # table headers
        "col_layer_i": "layer {i}",
        "col_final": "final loss (mean of last {window} steps)",
        "col_bottom_over_top": "gradient, layer 1 ÷ layer {n} (step {step})",
        "col_step": "step",
        "col_layer": "layer",
        "col_post": "post-LN",
        "col_pre": "pre-LN",
        "col_ratio": "post ÷ pre",
        "col_norm": "LayerNorm placement",
        "col_warmup": "warm-up steps",
        "col_first": "first loss",
        "layer": "layer (1 = input side, {N} = output side)",
        "grad": "gradient norm $\\|\\partial L/\\partial\\theta\\|$",
        "init_title": "Per-layer gradients at initialisation (mean of {S})",
        "post": "post-LN (2017 paper)",
        "pre": "pre-LN (GPT-2)",
        "loss_title": "Training loss (learning rate {lr:g})",
        "step": "step",
        "loss": "cross-entropy on the copied half\n(mean of each {k} steps)",
        "step0": "loss at step 0 (dots)",
        "warmup": "warm-up {w} steps",
        "no_warmup": "no warm-up",
        "guess": "guessing (log 10)",
        "ckpt_title": "Per-layer gradient norm during training (learning rate {lr:g})",
        "at_step": "step {s}",
    },
}
head = headers(LABELS)  # table headers from the same strings
COLOR = {"post": "raw", "pre": "scaled"}


def figures(results: dict, lang: str, outdir) -> list:
    t = plotting.labels(LABELS, lang)
    with plotting.style(lang):
        return [init_figure(results, t, outdir), loss_figure(results, t, outdir),
                checkpoint_figure(results, t, outdir)]


def init_figure(res, t, outdir):
    c = plotting.COLORS
    layers = res["layers"]
    fig, ax = plotting.subplots(1, 1, figsize=(6.0, 4.3))
    for norm, marker in zip(NORMS, "os"):
        for seed in res["init"]["seeds"][norm]:  # one faint line per initialisation
            ax.plot(layers, seed, "-", color=c[COLOR[norm]], alpha=0.25, lw=0.8)
        ax.plot(layers, res["init"][norm], marker + "-", color=c[COLOR[norm]], label=t[norm])
    plotting.log_y(ax)
    lo, hi = ax.get_ylim()
    ax.set_ylim(10 ** math.floor(math.log10(lo)), hi)  # down to a power of ten, so it is labelled
    ax.set_xticks(layers)
    ax.set(title=t["init_title"].format(S=len(res["init"]["seeds"]["post"])),
           xlabel=t["layer"].format(N=len(layers)), ylabel=t["grad"])
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=2, fontsize=8)
    return plotting.save(fig, outdir, "grad_init")


def loss_figure(res, t, outdir):
    c = plotting.COLORS
    fig, ax = plotting.subplots(1, 1, figsize=(6.0, 4.0))
    ax.axhline(res["guess_loss"], ls=":", color=c["reference"], label=t["guess"])
    for r in res["runs"].values():
        tag = t["warmup"].format(w=r["warmup"]) if r["warmup"] else t["no_warmup"]
        ax.plot(r["curve_step"], r["curve_loss"], "-" if r["warmup"] else "--",
                color=c[COLOR[r["norm"]]], label=f"{t[r['norm']]}, {tag}")
        # the curve is a mean over blocks of steps; step 0's own loss (the table's first loss) as a dot
        ax.plot([0], [r["first_loss"]], "o", ms=4, color=c[COLOR[r["norm"]]])
    ax.plot([], [], "o", ms=4, color=c["reference"], label=t["step0"])
    run = next(iter(res["runs"].values()))
    block = run["curve_step"][1] - run["curve_step"][0]  # steps averaged per point
    ax.set(title=t["loss_title"].format(lr=res["lr"]), xlabel=t["step"], ylabel=t["loss"].format(k=f"{block:g}"),
           ylim=(0, None))
    ax.legend(fontsize=8)
    return plotting.save(fig, outdir, "loss")


def checkpoint_figure(res, t, outdir):
    """2 × 2 panels (placement × warm-up): per-layer gradient norm at each checkpoint."""
    fig, axes = plotting.subplots(2, 2, figsize=(8.4, 6.4), sharex=True, sharey=True)
    cmap = matplotlib.colormaps["viridis"]
    for row, norm in zip(axes, NORMS):
        for ax, tag in zip(row, ("no_warmup", "warmup")):
            by_step = res["runs"][f"{norm}_{tag}"]["grad_norms"]  # JSON keys: "0", "25", …
            ckpts = sorted(by_step.items(), key=lambda kv: int(kv[0]))
            for k, (step, norms) in enumerate(ckpts):
                ax.plot(res["layers"], norms, "o-", ms=3, label=t["at_step"].format(s=step),
                        color=cmap(0.9 * k / max(1, len(ckpts) - 1)))
            when = t["warmup"].format(w=res["warmup"]) if tag == "warmup" else t["no_warmup"]
            ax.set_title(f"{t[norm]}, {when}", fontsize=10)
        row[0].set_ylabel(t["grad"])
    for ax in axes.flat:  # after all plotting: the shared limits are final
        plotting.log_y(ax)
    for ax in axes[1]:
        ax.set_xticks(res["layers"])
        ax.set_xlabel(t["layer"].format(N=len(res["layers"])))
    fig.suptitle(t["ckpt_title"].format(lr=res["lr"]))
    fig.legend(*axes[0][0].get_legend_handles_labels(), loc="outside lower center",
               ncol=len(res["checkpoints"]), fontsize=8)
    return plotting.save(fig, outdir, "grad_training")


def power_of_ten(x: float) -> str:
    """A small ratio as people write it, 1.3 × 10⁻⁵, not as a program prints it (1.3e-05)."""
    mantissa, exponent = f"{x:.1e}".split("e")
    sup = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
    return f"{mantissa} × 10{str(int(exponent)).translate(sup)}"


def words(results: dict) -> dict:
    """Lesson 7's post-LN ratio, bottom layer's gradient over the top layer's, written as 1.3 × 10⁻⁵."""
    run = results["runs"]["post_no_warmup"]
    x = power_of_ten(run["bottom_over_top"])
    out = {"post_no_warmup_ratio": {"ko": x, "en": x}}
    if "grad_ratio" in run:  # the bottom layer's gradient at the end against step 0
        drop = power_of_ten(run["grad_ratio"][0])
        out["post_no_warmup_drop"] = {"ko": drop, "en": drop}
    return out
