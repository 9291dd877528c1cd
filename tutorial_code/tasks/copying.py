"""Copying: the sequence ``x_1 … x_n SEP x_1 … x_n`` of random digits (lesson 7).

A decoder-only model reads it left to right and predicts the next token. The first half is
random and cannot be predicted (log 10 ≈ 2.30 is the loss of guessing a digit); the second half
can be copied from the first, so the loss counts the second half only.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor

SEP, DIGIT0 = 1, 2  # token 0 is padding (unused), 1 separates the halves, digit d is d + 2
VOCAB_SIZE = DIGIT0 + 10


def copy_batch(batch_size: int, n_digits: int, gen: torch.Generator) -> tuple[Tensor, Tensor]:
    """Inputs and next-token targets, both (B, 2·n_digits): ``x SEP x`` shifted by one."""
    digits = torch.randint(DIGIT0, VOCAB_SIZE, (batch_size, n_digits), generator=gen)
    seq = torch.cat([digits, torch.full((batch_size, 1), SEP), digits], dim=1)  # (B, 2n + 1)
    return seq[:, :-1], seq[:, 1:]


def copy_loss(model, x: Tensor, y: Tensor, n_digits: int) -> Tensor:
    """Cross-entropy on the copied half: positions n … 2n−1 predict x_1 … x_n."""
    logits = model(x)[:, n_digits:]  # (B, n, V)
    return F.cross_entropy(logits.reshape(-1, VOCAB_SIZE), y[:, n_digits:].reshape(-1))
