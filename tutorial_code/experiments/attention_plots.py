"""Drawing learned attention maps: one heatmap per (layer, head), ticks labelled with tokens.

Shared by the ``reversal`` and ``heads`` experiments. Weights use the site's attention colour
map (Blues, 0 to 1) so maps on different pages compare at a glance.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

WEIGHTS_CMAP = "Blues"  # as in heatmaps.py: attention weights everywhere on the site


def weight_map(ax, M, cols: list[str], rows: list[str], marks=None, vmax: float = 1.0):
    """One attention map (L_q, L_k) on ``ax``: queries down, keys across, ticks = tokens.

    ``marks``: optional (row, col) cells to outline, e.g. the expected alignment.
    """
    M = np.asarray(M, dtype=float)
    im = ax.imshow(M, cmap=WEIGHTS_CMAP, vmin=0.0, vmax=vmax, aspect="equal")
    ax.set_xticks(range(M.shape[1]), cols, fontsize=7.5)
    ax.set_yticks(range(M.shape[0]), rows, fontsize=7.5)
    ax.tick_params(length=0, pad=1.5)
    for label in ax.get_xticklabels():
        if len(label.get_text()) > 1:  # BOS, EOS: upright they would run into their neighbours
            label.set_rotation(90)
    ax.grid(False)
    for side in ax.spines.values():
        side.set_visible(False)
    for r, c in marks or ():
        ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, lw=0.9, ec="#D55E00"))
    return im


def head_grid(maps, cols: list[str], rows: list[str], titles, row_names: list[str],
              xlabel: str, ylabel: str, marks=None, panel: float = 1.75):
    """A layers × heads grid of maps: ``maps[layer][head]`` is (L_q, L_k).

    ``titles[layer][head]`` goes above each panel, ``row_names[layer]`` left of each row.
    Returns the figure (constrained layout, one shared colour bar).
    """
    n_layers, n_heads = len(maps), len(maps[0])
    fig, axes = plt.subplots(n_layers, n_heads, figsize=(panel * n_heads + 0.9, (panel + 0.4) * n_layers + 0.7),
                             layout="constrained", squeeze=False)
    for i in range(n_layers):
        for j in range(n_heads):
            ax = axes[i, j]
            im = weight_map(ax, maps[i][j], cols, rows, marks)
            ax.set_title(titles[i][j], fontsize=8.5)
            if j == 0:
                ax.set_ylabel(row_names[i], fontsize=10)
            if i == n_layers - 1:
                ax.set_xlabel(xlabel, fontsize=8.5)
    fig.supylabel(ylabel, fontsize=9)
    fig.colorbar(im, ax=axes, shrink=0.8, pad=0.01)
    return fig
