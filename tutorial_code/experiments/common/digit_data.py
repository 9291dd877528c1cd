"""Synthetic digit tasks for the encoder–decoder: reversal (lesson 8) and sorting (lesson 5).

One vocabulary for source and target::

    PAD = 0, BOS = 1, EOS = 2, digit d = token d + 3      (13 tokens)

A source is ``[BOS, x_1 … x_L, EOS]`` and a target ``[BOS, y_1 … y_L, EOS]``; training uses
teacher forcing (decoder input ``tgt[:, :-1]``, labels ``tgt[:, 1:]``). Digits are drawn on a
seeded CPU generator, so every run sees the same sequences on every device.
"""

from __future__ import annotations

import torch
from torch import Tensor

from tutorial_code.tasks.digits import DIGIT0, make_pairs, mirror_index, sequence_keys


def random_digits(n: int, length: int, gen: torch.Generator) -> Tensor:
    """n rows of ``length`` uniform digits, (n, L)."""
    return torch.randint(0, 10, (n, length), generator=gen)


def draw_excluding(n: int, length: int, gen: torch.Generator,
                   exclude: Tensor | None = None) -> tuple[Tensor, int]:
    """n random rows of digits, none of whose keys is in ``exclude`` (sorted or not).

    Returns the digits (n, L) and how many drawn rows were thrown away and redrawn, so that
    held-out sequences never appear in training.
    """
    digits = random_digits(n, length, gen)
    if exclude is None or exclude.numel() == 0:
        return digits, 0
    removed = 0
    while True:
        clash = torch.isin(sequence_keys(digits), exclude)
        k = int(clash.sum())
        if k == 0:
            return digits, removed
        removed += k
        digits[clash] = random_digits(k, length, gen)


def overlap(a: Tensor, b: Tensor) -> int:
    """How many rows of digits ``a`` also occur in ``b`` (both (n, L))."""
    return int(torch.isin(sequence_keys(a), sequence_keys(b)).sum())


def holds_digit(src: Tensor, tgt_out: Tensor) -> Tensor:
    """Where the source holds the token each query writes: src (B, L_s), tgt_out (B, L_t)
    → boolean (B, L_t, L_s), True at every source position holding that query's output token."""
    return src[:, None, :] == tgt_out[:, :, None]


def training_batches(gen: torch.Generator, steps: int, batch_size: int, length: int,
                     task: str = "reverse", exclude: Tensor | None = None,
                     device: torch.device | str = "cpu", stats: dict | None = None):
    """Yield ``steps`` fresh (src, tgt) batches on ``device``, never a sequence in ``exclude``.

    Sequences are drawn 50 batches at a time; ``stats["removed"]`` counts the redrawn rows.
    """
    done = 0
    while done < steps:
        k = min(50, steps - done)
        digits, removed = draw_excluding(k * batch_size, length, gen, exclude)
        if stats is not None:
            stats["removed"] = stats.get("removed", 0) + removed
        src, tgt = make_pairs(digits, task)
        src, tgt = src.to(device), tgt.to(device)
        for i in range(k):
            yield src[i * batch_size:(i + 1) * batch_size], tgt[i * batch_size:(i + 1) * batch_size]
        done += k


def remember_digits(batches, seen: list):
    """Pass (src, tgt) batches through, appending each source's digits (B, L) to ``seen``."""
    for src, tgt in batches:
        seen.append((src[:, 1:-1] - DIGIT0).cpu())
        yield src, tgt


def held_out(n_valid: int, n_test: int, length: int, task: str, ctx) -> dict:
    """Validation and test sets from their own seeded streams (offsets 10,000 and 20,000).

    Returns the digits (``valid``, ``test``), the (src, tgt) pairs on ``ctx.device``
    (``valid_pairs``, ``test_pairs``) and the keys training must avoid (``exclude``).
    """
    valid = random_digits(n_valid, length, ctx.generator(10_000))
    test = random_digits(n_test, length, ctx.generator(20_000))
    pairs = lambda d: [t.to(ctx.device) for t in make_pairs(d, task)]  # noqa: E731
    return {"valid": valid, "test": test, "valid_pairs": pairs(valid), "test_pairs": pairs(test),
            "exclude": torch.cat([sequence_keys(valid), sequence_keys(test)]).unique()}


def mirror_weight(weights: Tensor, length: int) -> Tensor:
    """Mean cross-attention weight on the mirrored source position, (B, h, L_t, L_s) → (h,).

    Only the L queries that write a digit count (the last one writes EOS).
    """
    idx = mirror_index(length).to(weights.device)               # (L,)
    w = weights[:, :, :length, :]                                # (B, h, L, L_s)
    on_mirror = w.gather(-1, idx.view(1, 1, -1, 1).expand(w.size(0), w.size(1), -1, 1))
    return on_mirror.squeeze(-1).mean(dim=(0, 2))                # (h,)
