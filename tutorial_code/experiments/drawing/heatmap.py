"""The site's one heatmap: a matrix drawn cell by cell, rows down and columns across.

Every attention map, score matrix and table of numbers on the site goes through
:func:`heatmap`, so they look alike: attention weights use ``WEIGHTS_CMAP`` (0 to 1), values
that can be negative ``SIGNED_CMAP``, and cells may carry their value and an outline.
:func:`head_grid` lays out one map per (layer, head).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from . import plotting

WEIGHTS_CMAP = "Blues"    # attention weights everywhere on the site
SIGNED_CMAP = "RdBu_r"    # scores and encodings that can be negative
MARK_COLOR = plotting.COLORS["raw"]  # outlined cells: the expected alignment, a wrong pick


def heatmap(ax, M, cols=None, rows=None, *, fmt: str | None = None, cmap: str = WEIGHTS_CMAP,
            vmin: float | None = None, vmax: float | None = None, fontsize: float = 9,
            tick_size: float | None = None, zero_as: str | None = None, marks=(),
            aspect: str = "equal", xrotation: float | str = 0, show_ticks=(True, True)):
    """Draw matrix ``M`` on ``ax`` and return the image (for a colour bar).

    ``cols``/``rows``: tick labels (default 1, 2, …); ``fmt``: write each value in its cell
    with this format (white on dark cells), ``zero_as`` for exact zeros; ``vmin``/``vmax``:
    colour range (default: the matrix's own); ``marks``: (row, col) cells to outline;
    ``xrotation``: degrees, or ``"tokens"`` to turn only labels longer than one character
    (BOS, EOS) upright; ``show_ticks``: (x, y) whether to label the ticks.
    """
    M = np.asarray(M, dtype=float)
    vmin = M.min() if vmin is None else vmin
    vmax = M.max() if vmax is None else vmax
    im = ax.imshow(M, cmap=cmap, vmin=vmin, vmax=vmax, aspect=aspect)
    if fmt is not None:
        _write_values(ax, M, fmt, plt.Normalize(vmin, vmax), cmap == SIGNED_CMAP, fontsize, zero_as)
    cols = [str(j + 1) for j in range(M.shape[1])] if cols is None else cols
    rows = [str(i + 1) for i in range(M.shape[0])] if rows is None else rows
    ax.set_xticks(range(M.shape[1]), cols if show_ticks[0] else [], fontsize=tick_size)
    ax.set_yticks(range(M.shape[0]), rows if show_ticks[1] else [], fontsize=tick_size)
    ax.tick_params(length=0, pad=1.5)
    for label in ax.get_xticklabels():
        if xrotation == "tokens":
            label.set_rotation(90 if len(label.get_text()) > 1 else 0)
        else:
            label.set_rotation(xrotation)
    ax.grid(False)
    for side in ax.spines.values():
        side.set_visible(False)
    for r, c in marks or ():
        ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, lw=0.9, ec=MARK_COLOR))
    return im


def _write_values(ax, M, fmt, norm, signed, fontsize, zero_as):
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            v = M[i, j]
            text = zero_as if (zero_as is not None and v == 0.0) else format(v, fmt)
            if text.startswith("-") and float(text) == 0:
                text = text[1:]  # no "-0.0"
            dark = abs(norm(v) - 0.5) > 0.32 if signed else norm(v) > 0.6  # dark at both ends
            ax.text(j, i, text, ha="center", va="center", fontsize=fontsize,
                    color="white" if dark else "black")


def head_grid(maps, cols: list[str], rows: list[str], titles, row_names: list[str],
              xlabel: str, ylabel: str, marks=None, panel: float = 1.75):
    """A layers × heads grid of attention maps: ``maps[layer][head]`` is (L_q, L_k).

    ``titles[layer][head]`` goes above each panel, ``row_names[layer]`` left of each row.
    Returns the figure (constrained layout, one shared colour bar).
    """
    n_layers, n_heads = len(maps), len(maps[0])
    fig, axes = plt.subplots(n_layers, n_heads, figsize=(panel * n_heads + 0.9, (panel + 0.4) * n_layers + 0.7),
                             layout="constrained", squeeze=False)
    for i in range(n_layers):
        for j in range(n_heads):
            ax = axes[i, j]
            im = heatmap(ax, maps[i][j], cols, rows, vmin=0.0, vmax=1.0, marks=marks, tick_size=7.5,
                         xrotation="tokens")
            ax.set_title(titles[i][j], fontsize=8.5)
            if j == 0:
                ax.set_ylabel(row_names[i], fontsize=10)
            if i == n_layers - 1:
                ax.set_xlabel(xlabel, fontsize=8.5)
    fig.supylabel(ylabel, fontsize=9)
    fig.colorbar(im, ax=axes, shrink=0.8, pad=0.01)
    return fig
