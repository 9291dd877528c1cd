"""Box-and-arrow figures drawn with matplotlib patches: the architecture, the library, the heads.

Coordinates are in data units on an axis that fills the figure (``canvas``); boxes are given by
their centre. Colours follow :data:`plotting.COLORS`, lightened for fills.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import to_rgb
from matplotlib.patches import Circle, FancyBboxPatch

from . import plotting

C = plotting.COLORS
ROLE = {  # part of the model → colour, the same in every diagram
    "attention": C["valid"], "norm": C["accent"], "ffn": C["scaled"],
    "embed": C["other"], "output": C["raw"], "block": C["reference"],
}
INK = "#333333"


def light(color, amount: float = 0.75):
    """Mix a colour with white (amount 0 = the colour, 1 = white)."""
    return tuple(c + (1 - c) * amount for c in to_rgb(color))


def canvas(width: float, height: float, xlim, ylim):
    """A figure whose single axis spans it, in data units with equal aspect, no frame."""
    fig = plt.figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set(xlim=xlim, ylim=ylim, aspect="equal")
    ax.axis("off")
    return fig, ax


def box(ax, x, y, w, h, text="", color=C["reference"], fontsize=9, fill=0.75, lw=1.2, **kw):
    ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0,rounding_size=0.08",
                                fc=light(color, fill), ec=color, lw=lw, **kw))
    if text:
        ax.text(x, y, text, ha="center", va="center", fontsize=fontsize, color=INK, linespacing=1.25)


def arrow(ax, p0, p1, color=INK, lw=1.2, head=True):
    ax.annotate("", xy=p1, xytext=p0, arrowprops=dict(
        arrowstyle="-|>,head_length=0.4,head_width=0.2" if head else "-", color=color, lw=lw,
        shrinkA=0, shrinkB=0))


def path(ax, points, color=INK, lw=1.2, head=True):
    """A polyline through ``points``; the last segment ends in an arrow head."""
    xs, ys = zip(*points)
    ax.plot(xs[:-1], ys[:-1], color=color, lw=lw, solid_capstyle="round")
    arrow(ax, points[-2], points[-1], color, lw, head)


# ---------------------------------------------------------------- architecture (paper, Figure 1)

BW, H_SUB, H_NORM = 2.6, 0.62, 0.45   # box width, sub-layer height, add & norm height


# how far below a sub-layer its residual path leaves the stream (below the Q/K/V split)
RESIDUAL_DROP = {"self_attn": 0.42, "masked_attn": 0.42, "cross_attn": 0.33, "ffn": 0.17}


def sublayer_stack(ax, x, ys, kinds, t, side):
    """Boxes of one stack (bottom to top), the arrows between them, and the residual paths.

    Every "norm" box closes the sub-layer just below it: x + Sublayer(x), then LayerNorm (the
    paper's post-LN, section 5.4); its residual path runs on ``side`` (-1 left, +1 right).
    Arrows into attention boxes are drawn by the caller (they split into Q, K, V).
    """
    heights = [H_NORM if k == "norm" else H_SUB for k in kinds]
    for y, k, h in zip(ys, kinds, heights):
        box(ax, x, y, BW, h, t[k], ROLE["norm" if k == "norm" else "ffn" if k == "ffn" else "attention"])
    rx = x + side * (BW / 2 + 0.12)
    for i in range(1, len(ys)):
        top_prev, bottom = ys[i - 1] + heights[i - 1] / 2, ys[i] - heights[i] / 2
        if kinds[i] in ("norm", "ffn"):
            arrow(ax, (x, top_prev), (x, bottom))
        if kinds[i] == "norm":
            start = ys[i - 1] - heights[i - 1] / 2 - RESIDUAL_DROP[kinds[i - 1]]
            path(ax, [(x, start), (rx, start), (rx, ys[i]), (x + side * BW / 2, ys[i])])


def qkv_inputs(ax, x, y_from, y_box, labels, offsets=(-0.7, 0.0, 0.7)):
    """The stream splits into three arrows entering the bottom of an attention box."""
    y_split = y_box - H_SUB / 2 - 0.22
    ax.plot([x, x], [y_from, y_split], color=INK, lw=1.2)
    ax.plot([x + offsets[0], x + offsets[-1]], [y_split, y_split], color=INK, lw=1.2)
    for dx, lab in zip(offsets, labels):
        arrow(ax, (x + dx, y_split), (x + dx, y_box - H_SUB / 2))
        ax.text(x + dx + 0.08, y_split + 0.1, lab, fontsize=7.5, color=INK, ha="left", va="bottom")


def positional(ax, x_plus, y, x_icon, t_label, align):
    """⊕ on the stream with the sinusoid icon beside it."""
    ax.add_patch(Circle((x_plus, y), 0.17, fc="white", ec=INK, lw=1.2))
    ax.text(x_plus, y - 0.01, "+", ha="center", va="center", fontsize=12, color=INK)
    ax.add_patch(Circle((x_icon, y), 0.24, fc="white", ec=INK, lw=1.2))
    s = np.linspace(-0.17, 0.17, 40)
    ax.plot(x_icon + s, y + 0.1 * np.sin(s * 28), color=ROLE["output"], lw=1.2)
    side = 1 if x_plus > x_icon else -1
    arrow(ax, (x_icon + side * 0.24, y), (x_plus - side * 0.17, y))
    dx = -0.34 if align == "right" else 0.34
    ax.text(x_icon + dx, y, t_label, ha=align, va="center", fontsize=8.5, color=INK, linespacing=1.2)


def architecture(t: dict, outdir):
    """The encoder–decoder of Vaswani et al. (2017), drawn after its Figure 1."""
    xe, xd = 2.6, 7.2
    fig, ax = canvas(7.2, 7.56, (0, 10), (0, 10.5))
    # encoder: embedding, +PE, N × [self-attention, add & norm, feed-forward, add & norm]
    ax.add_patch(FancyBboxPatch((xe - 1.55, 2.45), 3.1, 3.6, boxstyle="round,pad=0,rounding_size=0.15",
                                fc=light(ROLE["block"], 0.9), ec=ROLE["block"], lw=1))
    ax.add_patch(FancyBboxPatch((xd - 1.55, 2.45), 3.1, 5.35, boxstyle="round,pad=0,rounding_size=0.15",
                                fc=light(ROLE["block"], 0.9), ec=ROLE["block"], lw=1))
    for x, text in ((xe, t["inputs"]), (xd, t["outputs"])):
        ax.text(x, 0.3, text, ha="center", va="center", fontsize=8.5, color=INK)
        arrow(ax, (x, 0.48), (x, 0.75))
        box(ax, x, 1.05, BW, 0.6, t["in_embed"] if x == xe else t["out_embed"], ROLE["embed"])
        arrow(ax, (x, 1.35), (x, 1.78))
    positional(ax, xe, 1.95, xe - 1.1, t["pos_enc"], "right")
    positional(ax, xd, 1.95, xd + 1.1, t["pos_enc"], "left")
    enc_y, enc_k = [3.15, 3.95, 4.75, 5.55], ["self_attn", "norm", "ffn", "norm"]
    sublayer_stack(ax, xe, enc_y, enc_k, t, -1)
    qkv_inputs(ax, xe, 2.12, enc_y[0], ("V", "K", "Q"))
    dec_y = [3.15, 3.95, 4.95, 5.75, 6.55, 7.35]
    dec_k = ["masked_attn", "norm", "cross_attn", "norm", "ffn", "norm"]
    sublayer_stack(ax, xd, dec_y, dec_k, t, +1)
    qkv_inputs(ax, xd, 2.12, dec_y[0], ("V", "K", "Q"))
    # cross-attention: Q from the decoder below, K and V from the encoder's output
    y_q = dec_y[2] - H_SUB / 2 - 0.33
    path(ax, [(xd, dec_y[1] + H_NORM / 2), (xd, y_q), (xd + 0.7, y_q), (xd + 0.7, dec_y[2] - H_SUB / 2)])
    ax.text(xd + 0.78, y_q + 0.1, "Q", fontsize=7.5, color=INK, va="bottom")
    y_kv, x_route = dec_y[2] - H_SUB / 2 - 0.16, (xe + xd) / 2 + 0.2
    cross = ROLE["attention"]
    ax.plot([xe, xe, x_route, x_route, xd], [enc_y[-1] + H_NORM / 2, 6.45, 6.45, y_kv, y_kv],
            color=cross, lw=2)
    for dx, lab in ((-0.7, "V"), (0.0, "K")):
        arrow(ax, (xd + dx, y_kv), (xd + dx, dec_y[2] - H_SUB / 2), color=cross, lw=2)
        ax.text(xd + dx - 0.08, y_kv + 0.04, lab, fontsize=7.5, color=INK, ha="right", va="bottom")
    ax.text((xe + x_route) / 2, 6.55, t["enc_to_dec"], fontsize=8, color=INK, ha="center", va="bottom")
    # N× and the stack names beside the blocks
    for x, name in ((0.55, t["encoder"]), (9.45, t["decoder"])):
        ax.text(x, 4.6, "N×", ha="center", va="center", fontsize=13, color=INK, weight="bold")
        ax.text(x, 4.1, name, ha="center", va="center", fontsize=9, color=INK)
    # output head: linear → softmax → probabilities
    arrow(ax, (xd, dec_y[-1] + H_NORM / 2), (xd, 8.15))
    box(ax, xd, 8.4, BW, 0.5, t["linear"], ROLE["output"])
    arrow(ax, (xd, 8.65), (xd, 8.95))
    box(ax, xd, 9.2, BW, 0.5, t["softmax"], ROLE["norm"])
    arrow(ax, (xd, 9.45), (xd, 9.75))
    ax.text(xd, 9.95, t["out_probs"], ha="center", va="center", fontsize=9, color=INK)
    return plotting.save(fig, outdir, "architecture")


# ---------------------------------------------------------------- library (lesson 2)

def library_row(ax, lib: dict, q: str, y0: float, t: dict):
    """One query: slip → key cards (arrow width ∝ weight) → books → blended output."""
    r = lib[q]
    ys = [y0 + 2.6, y0 + 1.55, y0 + 0.5]
    yc = ys[1]
    box(ax, 1.15, yc, 2.0, 1.5, "", C["valid"], fill=0.8)
    ax.text(1.15, yc + 0.4, t["slip"], ha="center", va="center", fontsize=9, weight="bold", color=INK)
    ax.text(1.15, yc - 0.05, f"q = {_vec(r['query'])}", ha="center", va="center", fontsize=10, color=INK)
    ax.text(1.15, yc - 0.48, t[f"want_{q}"], ha="center", va="center", fontsize=8, color=INK)
    for b, (y, w) in enumerate(zip(ys, r["weights"])):
        arrow(ax, (2.15, yc), (3.55, y), color=C["scaled"], lw=0.6 + 6 * w)
        box(ax, 4.25, y, 1.4, 0.62, f"$k_{b + 1}$ = {_vec(lib['keys'][b])}", C["reference"],
            fontsize=8.5, fill=0.88)
        box(ax, 5.95, y, 1.9, 0.8, t["book"].format(b=b + 1) + f"\nv = {_vec(lib['values'][b])}",
            C["other"], fontsize=8.5)
        ax.text(7.1, y + 0.1, t["score_line"].format(dot=r["dots"][b], s=r["scaled"][b]),
                ha="left", va="bottom", fontsize=8.5, color=INK)
        ax.text(7.1, y - 0.1, f"w = {r['weights'][b]:.3f}", ha="left", va="top", fontsize=9,
                color=C["scaled"], weight="bold")
        ax.barh(y - 0.26, 1.3 * w, height=0.12, left=8.3, color=C["scaled"])
        path(ax, [(9.75, y), (10.75, yc)], color=C["scaled"], lw=0.6 + 6 * w)
    box(ax, 11.65, yc, 1.8, 1.2, "", C["accent"])
    ax.text(11.65, yc + 0.22, t["blend"], ha="center", va="center", fontsize=10, color=INK)
    ax.text(11.65, yc - 0.28, _vec(r["output"], ".2f"), ha="center", va="center", fontsize=10,
            color=INK, weight="bold")


def qkv_roles(lib: dict, t: dict, outdir):
    """Two slips through the same three books; numbers from the worked example."""
    fig, ax = canvas(9.4, 6.5, (0, 12.65), (-0.25, 8.5))
    for q, y0, title in (("one", 4.35, t["row_one"]), ("both", 0.0, t["row_both"])):
        library_row(ax, lib, q, y0, t)
        ax.text(0.15, y0 + 3.3, title.format(q=_vec(lib[q]["query"])), fontsize=10, weight="bold",
                color=INK, va="center")
    for x, key in ((4.25, "col_key"), (5.95, "col_value"), (7.1, "score_head"), (11.65, "col_out")):
        ax.text(x, 8.3, t[key], fontsize=8.5, color=INK, va="center",
                ha="left" if key == "score_head" else "center", style="italic")
    return plotting.save(fig, outdir, "qkv_roles")


def _vec(v, fmt="g") -> str:
    return "[" + ", ".join(format(x, fmt) for x in v) + "]"


# ---------------------------------------------------------------- multi-head (lesson 5)

MATH_D = "$(B, L, D)$"


def multihead(m: dict, t: dict, outdir):
    """(B, L, D) → W_Q, W_K, W_V → (B, h, L, d_k) → h heads → concat → W_O; and the counts."""
    fig = plt.figure(figsize=(9.8, 4.3))
    ax = fig.add_axes((0.0, 0.0, 0.68, 1.0))
    ax.set(xlim=(0, 12.2), ylim=(-0.1, 6.4), aspect="equal")
    ax.axis("off")
    heads_schematic(ax, m, t)
    ax2 = fig.add_axes((0.75, 0.4, 0.23, 0.47))  # room below for the formula note
    parameter_bars(ax2, m, t)
    return plotting.save(fig, outdir, "multihead")


def heads_schematic(ax, m: dict, t: dict):
    """Boxes left to right, with the real shapes of one pass (B, L, D from the results)."""
    sh, h = m["shapes"], m["h"]
    w_qkv = r"$W_\mathrm{Q}, W_\mathrm{K}, W_\mathrm{V}$"
    box(ax, 0.85, 3.0, 1.5, 1.25, f"X\n{MATH_D}\n{_shape(sh['input'])}", C["reference"], fontsize=8.5)
    arrow(ax, (1.6, 3.0), (2.1, 3.0))
    box(ax, 2.9, 3.0, 1.5, 1.25, w_qkv + "\n" + t["proj_each"], ROLE["attention"], fontsize=8.5)
    per_head = _shape(sh["split"][:1] + sh["split"][2:])                  # (B, L, d_k)
    for i, y in enumerate(np.linspace(5.2, 0.8, h)):
        path(ax, [(3.65, 3.0), (4.15, y), (4.55, y)])
        box(ax, 5.95, y, 2.8, 0.95, t["head"].format(i=i + 1) + f"\n$(B, L, d_k)$ = {per_head}",
            ROLE["attention"], fontsize=8, fill=0.85)
        path(ax, [(7.35, y), (7.8, y), (8.3, 3.0)])
    ax.text(5.95, 6.05, t["split"] + " " + _shape(sh["split"]), ha="center", fontsize=8.5, color=INK)
    box(ax, 9.0, 3.0, 1.4, 1.25, f"{t['concat']}\n{MATH_D}\n{_shape(sh['concat'])}",
        C["reference"], fontsize=8.5)
    arrow(ax, (9.7, 3.0), (10.1, 3.0))
    box(ax, 10.85, 3.0, 1.5, 1.25, r"$W_\mathrm{O}$" + f"\n{MATH_D}\n{_shape(sh['output'])}",
        ROLE["ffn"], fontsize=8.5)
    ax.text(6.1, -0.05, t["shape_legend"].format(B=m["B"], L=m["L"], D=m["D"], h=h, d_k=m["d_k"]),
            ha="center", va="bottom", fontsize=8, color=INK)


def parameter_bars(ax, m: dict, t: dict):
    """Parameter count of MultiHeadAttention at the largest D for each head count: all equal."""
    d = str(max(m["d_models"], key=int))
    counts = m["params"][d]["by_heads"]
    heads = [str(x) for x in m["heads"]]
    ax.bar(range(len(heads)), [counts[x] for x in heads], color=ROLE["attention"], width=0.6)
    for i, x in enumerate(heads):
        ax.text(i, counts[x] * 0.5, f"{counts[x]:,}", ha="center", va="center", fontsize=8,
                rotation=90, color=INK)
    ax.set_xticks(range(len(heads)), heads)
    ax.set(ylim=(0, max(counts.values()) * 1.08), xlabel=t["n_heads"], yticks=[],
           title=t["params_title"].format(D=d))
    ax.spines["left"].set_visible(False)
    ax.grid(False)
    lines = [t["params_formula"]] + [f"D = {x}: {m['params'][str(x)]['formula']:,}" for x in m["d_models"]]
    ax.text(0.5, -0.3, "\n".join(lines), transform=ax.transAxes, ha="center", va="top",
            fontsize=8.5, linespacing=1.5)


def _shape(s) -> str:
    return "(" + ", ".join(str(x) for x in s) + ")"
