"""Remember the first cell: L random cells of ±1, and the label is the first one.

An LSTM has to carry that one cell through L recurrent steps; attention can look at it from
every position in one step, but only if the model can tell which cell is the first (lesson 6:
without position information attention sees only how many +1 cells there are).
"""

from __future__ import annotations

import math

import torch
from torch import Tensor


def make_data(n: int, length: int, gen: torch.Generator) -> tuple[Tensor, Tensor]:
    """n random sequences of L cells: tokens (n, L) in {0, 1} (cell −1 → 0, +1 → 1), labels (n,).

    The label is the first cell: 1.0 if it is +1, else 0.0.
    """
    tokens = torch.randint(0, 2, (n, length), generator=gen)
    return tokens, tokens[:, 0].float()


def bag_bound(length: int) -> float:
    """Best accuracy from the count of +1 cells alone: E[max(k, L−k)] / L, k ~ Bin(L, ½).

    Given k cells of +1, the first cell is +1 with probability k/L, so the best guess is the
    majority sign and is right with probability max(k, L−k)/L.
    """
    total = sum(math.comb(length, k) * max(k, length - k) for k in range(length + 1))
    return total / (length * 2**length)  # exact integers, one float division
