"""Figures made of numbers: heatmaps with the value in every cell, and curves.

Each function takes the worked example's results (see :mod:`.hand_computations`), the figure
strings of one language ``t`` (see ``LABELS`` in :mod:`.hand_computations`) and the output folder, draws inside
the caller's ``plotting.style(lang)`` and returns the saved PNG.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch, Rectangle

from . import plotting
from .heatmap import SIGNED_CMAP, WEIGHTS_CMAP, heatmap

C = plotting.COLORS
INK = "#333333"


def figure(width: float, height: float):
    return plt.figure(figsize=(width, height), layout="constrained")


# ---------------------------------------------------------------- lesson 3

def sdpa_steps(s: dict, t: dict, outdir):
    """Step 1 (inputs Q, K, V) on top; steps 2–5 (QKᵀ, ÷√d_k, softmax, ·V) below."""
    L, d_k = s["L"], s["d_k"]
    qn, kn, vn = ([f"${p}_{i + 1}$" for i in range(L)] for p in "qkv")
    dims = [str(j + 1) for j in range(d_k)]
    fig = figure(9.6, 5.6)
    axes = fig.subplots(2, 4)
    tops = (("Q", qn, t["sdpa_q"]), ("K", kn, t["sdpa_k"]), ("V", vn, t["sdpa_v"]))
    for ax, (key, names, title) in zip(axes[0], tops):
        heatmap(ax, s[key], dims, names, fmt=".0f", cmap="Greys", vmin=-0.5, vmax=4)
        ax.set_title(title)
        ax.set_xlabel(t["component"], fontsize=9)
    info = axes[0, 3]
    info.axis("off")
    info.text(0.0, 0.95, t["sdpa_formula"], fontsize=12, va="top", transform=info.transAxes)
    info.text(0.0, 0.62, t["sdpa_info"].format(L=L, d_k=d_k, sqrt=s["sqrt_d_k"]),
              fontsize=9.5, va="top", linespacing=1.6, transform=info.transAxes)
    steps = (("scores", t["sdpa_scores"], SIGNED_CMAP, kn, None),
             ("scaled", t["sdpa_scaled"].format(sqrt=s["sqrt_d_k"]), SIGNED_CMAP, kn, None),
             ("weights", t["sdpa_weights"], WEIGHTS_CMAP, kn, (0, 1)),
             ("output", t["sdpa_output"], "Greens", dims, None))
    top = np.abs(s["scores"]).max() * 1.15  # steps 2 and 3 share a scale: ÷√d_k visibly shrinks
    for ax, (key, title, cmap, cols, lim) in zip(axes[1], steps):
        M = np.asarray(s[key])
        if cmap == SIGNED_CMAP:
            lim = (-top, top)
        heatmap(ax, M, cols, qn if key != "output" else [f"$o_{i + 1}$" for i in range(L)], fmt=".2f",
                cmap=cmap, vmin=lim[0] if lim else 0, vmax=lim[1] if lim else M.max() * 1.4)
        ax.set_title(title)
        ax.set_xlabel(t["component"] if key == "output" else t["key"], fontsize=9)
    return plotting.save(fig, outdir, "sdpa_steps")


# ---------------------------------------------------------------- lesson 4

def self_attention(toy: dict, lang: str, t: dict, outdir):
    """The word vectors (features) and the weights of the toy sentence in this language's order."""
    order = toy["lang"][lang]["order"]
    words = [toy["words"][lang][w] for w in order]
    W = np.asarray(toy["lang"][lang]["weights"])
    X = np.asarray([toy["vectors"][w] for w in order])
    fig = figure(9.4, 4.6)
    ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [4, 5]})
    heatmap(ax1, X, t["features"], words, fmt=".0f", cmap="Greys", vmin=-0.3, vmax=1.6)
    ax1.set_title(t["toy_vectors"])
    if max(len(f) for f in t["features"]) > 8:  # "demonstrative" is wider than its column: stand the words up
        plt.setp(ax1.get_xticklabels(), rotation=90)
    heatmap(ax2, W, words, words, fmt=".2f", cmap=WEIGHTS_CMAP, vmin=0, vmax=1)
    ax2.set_title(t["toy_weights"], linespacing=1.6)
    ax2.set_xlabel(t["toy_key"])
    ax2.set_ylabel(t["toy_query"])
    # outline the most-attended word of each word the rule speaks for: accent if it is the
    # intended one, raw where the rule goes wrong (named in plotting.COLOR_NAMES)
    for word, entry in toy["word"].items():
        if "rule_ok" in entry:
            i, j = order.index(word), order.index(entry["top"])
            ax2.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False, lw=2.5,
                                    ec=C["accent"] if entry["rule_ok"] else C["raw"]))
    words_of = toy["words"][lang]
    wrong = next(w for w, e in toy["word"].items() if e.get("rule_ok") == 0)
    u1, u2 = [words_of[w] for w, e in toy["word"].items() if e["is_uniform"]][:2]
    note = t["toy_note"].format(word=words_of[wrong], intended=words_of[toy["word"][wrong]["intended"]],
                                top=words_of[toy["word"][wrong]["top"]], u1=u1, u2=u2,
                                w=toy["uniform_weight"],  # the outlines' colours, named as the pages name them
                                ok=plotting.COLOR_NAMES["accent"][lang].capitalize(),
                                bad=plotting.COLOR_NAMES["raw"][lang].capitalize())
    fig.supxlabel(note, fontsize=9, color=INK, linespacing=1.5)
    return plotting.save(fig, outdir, "self_attention")


def causal(c: dict, t: dict, outdir):
    """Left: which keys each query may see. Right: weights after the mask (exact zeros)."""
    L = c["L"]
    pos = [str(i + 1) for i in range(L)]
    fig = figure(8.8, 4.0)
    ax1, ax2 = fig.subplots(1, 2)
    mask = np.asarray(c["mask"])
    ax1.imshow(mask, cmap=ListedColormap(["#E6E6E6", C["accent"]]), vmin=0, vmax=1)
    for k in range(L + 1):  # white lines between the cells
        ax1.axhline(k - 0.5, color="white", lw=1.5)
        ax1.axvline(k - 0.5, color="white", lw=1.5)
    for i in range(L):
        for j in range(L):
            # in the math font (the Korean font has neither − nor a bold ∞), near-black and bold on
            # the light grey of a blocked cell, so that the label does not read as grey on grey
            ax1.text(j, i, "" if mask[i, j] else r"$\mathbf{-\infty}$", ha="center", va="center",
                     fontsize=12, color="#111111")
    heatmap(ax2, c["weights"], pos, pos, fmt=".2f", vmin=0, vmax=1, zero_as="0", fontsize=8.5)
    for ax, title in ((ax1, t["causal_mask"]), (ax2, t["causal_weights"])):
        ax.set_xticks(range(L), pos)
        ax.set_yticks(range(L), pos)
        ax.set(title=title, xlabel=t["key_pos"], ylabel=t["query_pos"])
        ax.grid(False)
        ax.tick_params(length=0)
        for side in ax.spines.values():
            side.set_visible(False)
    ax1.legend(handles=[Patch(color=C["accent"], label=t["allowed"]),
                        Patch(color="#E6E6E6", label=t["blocked"])],
               loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=2, fontsize=8.5)
    ax2.text(0.5, -0.2, t["causal_zero"].format(v=c["max_blocked_weight"]), transform=ax2.transAxes,
             ha="center", va="top", fontsize=8.5)
    return plotting.save(fig, outdir, "causal_mask")


# ---------------------------------------------------------------- lesson 6

def sinusoid(s: dict, t: dict, outdir):
    """Heatmap of PE (positions × dimensions) and, stacked, the curves of a few dimensions."""
    pe = np.asarray(s["table"])
    fig = figure(9.6, 4.4)
    left, right = fig.subfigures(1, 2, width_ratios=[1, 1.15])
    ax1 = left.subplots()
    im = ax1.imshow(pe, cmap=SIGNED_CMAP, vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
    ax1.set(title=t["pe_heatmap"].format(L=s["length"], D=s["d_model"]),
            xlabel=t["pe_dim"], ylabel=t["pe_pos"])
    ax1.grid(False)
    left.colorbar(im, ax=ax1, shrink=0.85, pad=0.02)
    axes = right.subplots(len(s["dims"]), 1, sharex=True)
    colors = [C["raw"], C["valid"], C["accent"], C["scaled"], C["other"]]
    pos = np.arange(s["length"])
    for ax, dim, col in zip(axes, s["dims"], colors):
        ax.plot(pos, s["curves"][str(dim)], color=col, lw=1, marker="o", ms=2)
        ax.set(ylim=(-1.25, 1.25), yticks=[-1, 0, 1], xlim=(0, s["length"] - 1))
        ax.text(1.0, 1.0, t["pe_curve"].format(dim=dim, lam=s["wavelength"][str(dim)]),
                transform=ax.transAxes, ha="right", va="bottom", fontsize=8.5, color=col)
    axes[0].set_title(t["pe_curves"], loc="left", pad=14)
    axes[-1].set_xlabel(t["pe_pos"])
    return plotting.save(fig, outdir, "sinusoid")


def rope(r: dict, t: dict, outdir):
    """(a) one pair rotated by m·θ; (b) RoPE scores S[m, n], constant along diagonals;
    (c) scores with the sinusoidal table added instead, which are not."""
    P = r["positions"]
    fig = figure(10.0, 4.0)
    ax1, ax2, ax3 = fig.subplots(1, 3, gridspec_kw={"width_ratios": [0.85, 1, 1]})
    circle = np.linspace(0, 2 * math.pi, 200)
    ax1.plot(np.cos(circle), np.sin(circle), color=C["reference"], lw=0.8, ls=":")
    cmap = plt.get_cmap("viridis")
    arrows = r["arrows"]
    for m, (x, y) in enumerate(arrows):
        col = cmap(m / max(1, len(arrows) - 1) * 0.85)
        ax1.annotate("", xy=(x, y), xytext=(0, 0),
                     arrowprops=dict(arrowstyle="-|>", color=col, lw=2, shrinkA=0, shrinkB=0))
        ax1.text(1.22 * x, 1.22 * y, f"m={m}", color=col, ha="center", va="center", fontsize=9)
    ax1.set(xlim=(-1.45, 1.45), ylim=(-1.45, 1.45), aspect="equal",
            title=t["rope_rotation"].format(theta=r["theta"][0]))
    ax1.set_xlabel(t["rope_pair"], fontsize=9)
    ax1.set_xticks([-1, 0, 1])
    ax1.set_yticks([-1, 0, 1])
    pos = [str(i) for i in range(P)]
    panels = ((ax2, "scores", t["rope_scores"], r["max_diagonal_deviation"]),
              (ax3, "additive_scores", t["rope_additive"], r["additive_diagonal_deviation"]))
    for ax, key, title, dev in panels:
        M = np.asarray(r[key])
        lim = np.abs(M).max() * 1.15
        heatmap(ax, M, pos, pos, fmt=".1f", cmap=SIGNED_CMAP, vmin=-lim, vmax=lim, fontsize=7)
        ax.set(title=title, ylabel=t["rope_m"])
        ax.set_xlabel(t["rope_n"] + "\n" + t["rope_dev"].format(v=dev), fontsize=9)
    return plotting.save(fig, outdir, "rope")
