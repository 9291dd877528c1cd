"""Digit tasks for the encoder–decoder: reversal (lesson 8) and sorting (lesson 5).

One vocabulary for source and target::

    PAD = 0, BOS = 1, EOS = 2, digit d = token d + 3      (13 tokens)

A source is ``[BOS, x_1 … x_L, EOS]`` and a target ``[BOS, y_1 … y_L, EOS]``; training uses
teacher forcing (decoder input ``tgt[:, :-1]``, labels ``tgt[:, 1:]``).
"""

from __future__ import annotations

import torch
from torch import Tensor

PAD, BOS, EOS = 0, 1, 2
DIGIT0 = 3                 # token of the digit 0; digit d is token d + DIGIT0
VOCAB_SIZE = DIGIT0 + 10   # 13
TASKS = ("reverse", "sort")


def token_names(tokens) -> list[str]:
    """Readable labels for figure ticks: 'BOS', 'EOS', 'PAD' or the digit itself."""
    special = {PAD: "PAD", BOS: "BOS", EOS: "EOS"}
    return [special.get(int(t), str(int(t) - DIGIT0)) for t in tokens]


def frame(digits: Tensor) -> Tensor:
    """Digits (B, L) in 0..9 → tokens (B, L + 2): BOS, the digits as tokens, EOS."""
    B = digits.size(0)
    bos = torch.full((B, 1), BOS, dtype=torch.long)
    eos = torch.full((B, 1), EOS, dtype=torch.long)
    return torch.cat([bos, digits.long() + DIGIT0, eos], dim=1)


def target_digits(digits: Tensor, task: str) -> Tensor:
    """What the decoder must write, digits (B, L) → (B, L).

    ``reverse``: y_i = x_{L+1-i}, a fixed position for every output;
    ``sort``:    the digits in ascending order: where to look depends on the content.
    """
    if task == "reverse":
        return digits.flip(1)
    if task == "sort":
        return digits.sort(dim=1).values
    raise ValueError(f"unknown task {task!r}; use one of {', '.join(TASKS)}")


def make_pairs(digits: Tensor, task: str = "reverse") -> tuple[Tensor, Tensor]:
    """Digits (B, L) → (src, tgt), both (B, L + 2) token ids."""
    return frame(digits), frame(target_digits(digits, task))


def sequence_keys(digits: Tensor) -> Tensor:
    """One int64 per row: the digits read as a decimal number (unique for L ≤ 18). (B, L) → (B,)"""
    if digits.size(1) > 18:
        raise ValueError("keys are exact only for L <= 18 digits")
    powers = 10 ** torch.arange(digits.size(1) - 1, -1, -1, dtype=torch.long)
    return (digits.long() * powers).sum(dim=1)


def mirror_index(length: int) -> Tensor:
    """For decoder query i = 0 … L-1 (the query that writes y_{i+1}), the source position of
    x_{L-i}, the digit that reversal copies: L - i (position 0 of the source is BOS). (L,)"""
    return torch.arange(length, 0, -1)
