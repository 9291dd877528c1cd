"""Choosing the next token from a decoder's scores: greedy, temperature, top-k and top-p.

At each step a decoder gives one score (a logit) per token of the vocabulary. **Greedy decoding**
takes the token with the largest score, so the same prompt always gets the same continuation.
**Sampling** draws the next token at random from the softmax of the scores, after up to three
changes, applied in this order:

1. **temperature** T divides every score before the softmax: T < 1 sharpens the distribution
   (T → 0 approaches greedy), T > 1 flattens it (T → ∞ approaches uniform);
2. **top-k** keeps only the k most probable tokens (Fan et al., 2018);
3. **top-p** ("nucleus sampling", Holtzman et al., 2020) keeps the fewest most probable tokens
   whose probabilities add up to at least p (of what top-k kept, divided by its sum: the order
   Hugging Face's generation code applies them in).

The kept probabilities are divided by their sum, so they add up to 1 again, and one random number
u, uniform in [0, 1), picks the token: walking the vocabulary in order, the first token whose
running total of probability exceeds u. The same u always picks the same token, so a seeded
stream of random numbers makes a sampled text repeatable.

Tokens of equal probability are ranked by their index (the smaller first), so top-k and top-p keep
the same tokens everywhere. The page's ``sampling.js`` does the same, with the same names in the
same order; the tests check that both choose the same tokens from the same random numbers.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor


def check_options(vocab_size: int, temperature: float = 1.0, top_k: int | None = None,
                  top_p: float | None = None) -> None:
    """Raise ValueError, saying what to use instead, for options that choose no token."""
    if not (isinstance(temperature, (int, float)) and math.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature must be a number above 0, got {temperature!r}: a temperature near 0 "
                         "approaches greedy decoding; use greedy() for exactly that")
    if top_k is not None and not (isinstance(top_k, int) and 1 <= top_k):
        raise ValueError(f"top_k must be a whole number of at least 1, got {top_k!r} "
                         f"(None, or {vocab_size}, keeps every token)")
    if top_p is not None and not (isinstance(top_p, (int, float)) and 0 < top_p <= 1):
        raise ValueError(f"top_p must be above 0 and at most 1, got {top_p!r} (1 keeps every token)")


def greedy(logits: Tensor) -> int:
    """The index of the largest score (the first of equal ones)."""
    return int(torch.argmax(logits))


def softmax(scores: Tensor) -> Tensor:
    """exp(s − max s), divided by its sum, in float64."""
    e = torch.exp(scores - scores.max())
    return e / e.sum()


def ranked(probs: Tensor) -> Tensor:
    """Token indices from the most probable to the least; equal probabilities by index."""
    return torch.sort(probs, descending=True, stable=True).indices


def next_token_probs(logits: Tensor, temperature: float = 1.0, top_k: int | None = None,
                     top_p: float | None = None) -> Tensor:
    """The distribution the next token is drawn from (V,), float64: 0 for every token cut off."""
    if logits.dim() != 1:
        raise ValueError(f"logits must be one score per vocabulary token, shape (V,); got {tuple(logits.shape)}")
    check_options(logits.numel(), temperature, top_k, top_p)
    probs = softmax(logits.double() / temperature)
    keep = logits.numel()
    order = ranked(probs)
    if top_k is not None:
        keep = min(keep, top_k)
    if top_p is not None:
        head = probs[order[:keep]]  # what top-k kept, as a distribution of its own
        running = torch.cumsum(head / head.sum(), dim=0)
        # the fewest tokens whose total reaches p; all of them if rounding leaves the total below p
        keep = min(keep, int((running < top_p).sum()) + 1)
    kept = torch.zeros_like(probs)
    kept[order[:keep]] = probs[order[:keep]]
    return kept / kept.sum()


def pick(probs: Tensor, u: float) -> int:
    """The token a uniform random number u in [0, 1) chooses: the first, in vocabulary order,
    whose running total of probability exceeds u (never a token of probability 0)."""
    if not 0 <= u < 1:
        raise ValueError(f"u must be in [0, 1), got {u!r}")
    total, last = 0.0, None
    for i, p in enumerate(probs.tolist()):
        if p <= 0:
            continue
        total += p
        last = i
        if u < total:
            return i
    if last is None:
        raise ValueError("no token has a probability above 0")
    return last  # the running total fell short of u by rounding: the last token that can be chosen


def sample(logits: Tensor, u: float, temperature: float = 1.0, top_k: int | None = None,
           top_p: float | None = None) -> int:
    """One sampled token: next_token_probs, then pick with the random number u."""
    return pick(next_token_probs(logits, temperature, top_k, top_p), u)
