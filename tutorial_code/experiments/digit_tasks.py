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


def mirror_index(length: int) -> Tensor:
    """For decoder query i = 0 … L-1 (the query that writes y_{i+1}), the source position of
    x_{L-i}, the digit that reversal copies: L - i (position 0 of the source is BOS). (L,)"""
    return torch.arange(length, 0, -1)


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
