"""Scaled dot-product attention, the single formula the whole course is built on.

    Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V          (Vaswani et al. 2017, eq. 1)

Shapes follow the legend of the package: ``L_q`` queries and ``L_k`` keys, each of
width ``d_k``; any number of leading batch or head dimensions ``…`` is allowed.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor


def attention_by_hand(q: list[float], keys: list[list[float]], values: list[list[float]]) -> dict:
    """softmax(q·k/√d_k)·V for one query, in pure Python, keeping every intermediate number."""
    d_k = len(q)
    dots = [sum(qi * ki for qi, ki in zip(q, k)) for k in keys]           # step 1: q·k per book
    scaled = [s / math.sqrt(d_k) for s in dots]                           # step 2: ÷ √d_k
    exps = [math.exp(s) for s in scaled]                                  # step 3: softmax ...
    total = sum(exps)
    weights = [e / total for e in exps]                                   # ... sums to 1
    output = [sum(w * v[j] for w, v in zip(weights, values)) for j in range(len(values[0]))]
    return {"dots": dots, "scaled": scaled, "exps": exps, "exp_sum": total,
            "weights": weights, "output": output}


def check_mask(mask: Tensor | None, scores_shape: torch.Size) -> None:
    """Raise ``ValueError`` unless ``mask`` is boolean and broadcasts to ``scores_shape``."""
    if mask is None:
        return
    if mask.dtype != torch.bool:
        raise ValueError(
            f"the attention mask must be boolean (True = may attend), got dtype {mask.dtype}; "
            "build it with causal_mask() / padding_mask() or compare, e.g. tokens != pad_id"
        )
    try:
        torch.broadcast_shapes(mask.shape, scores_shape)
    except RuntimeError:
        raise ValueError(
            f"mask of shape {tuple(mask.shape)} does not broadcast to the attention scores "
            f"of shape {tuple(scores_shape)} (…, L_q, L_k); give it shape (L_q, L_k), "
            "(B, 1, 1, L_k) for padding or (B, 1, L_q, L_k)"
        ) from None


def scaled_dot_product_attention(
    q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None, dropout_p: float = 0.0,
    scale: float | None = None,
) -> tuple[Tensor, Tensor]:
    """softmax(Q Kᵀ / √d_k) V, written out step by step.

    Args:
        q: queries, (…, L_q, d_k).
        k: keys, (…, L_k, d_k).
        v: values, (…, L_k, d_v).
        mask: optional boolean tensor that broadcasts to (…, L_q, L_k).
            **True means "may attend"**, False means "blocked" (the convention of
            ``torch.nn.functional.scaled_dot_product_attention``; ``nn.MultiheadAttention``
            uses the opposite). A row with every key blocked gives NaN.
        dropout_p: dropout on the attention weights (training only).
        scale: the factor the scores are multiplied by; ``None`` (the default) means
            1/√d_k, as in ``torch.nn.functional.scaled_dot_product_attention``. ``1.0``
            leaves the division out (lesson 3's and lesson 8's "unscaled" switch).

    Returns:
        ``(output, weights)``: output (…, L_q, d_v) and weights (…, L_q, L_k), each row
        of the weights between 0 and 1 and summing to 1.
    """
    d_k = q.size(-1)
    if k.size(-1) != d_k:
        raise ValueError(f"queries have width d_k={d_k} but keys have {k.size(-1)}; they must match")
    if k.size(-2) != v.size(-2):
        raise ValueError(f"{k.size(-2)} keys but {v.size(-2)} values; each key needs one value")
    # step 1: how well each query matches each key (dot products)
    scores = q @ k.transpose(-2, -1)  # (…, L_q, L_k)
    # step 2: divide by √d_k so the spread of the scores does not grow with d_k (§3.2.1)
    scores = scores / math.sqrt(d_k) if scale is None else scores * scale
    # step 3: blocked positions get −∞, so softmax gives them exactly 0
    if mask is not None:
        check_mask(mask, scores.shape)
        scores = scores.masked_fill(~mask, float("-inf"))
    # step 4: softmax over the keys turns scores into weights that sum to 1
    weights = torch.softmax(scores, dim=-1)  # (…, L_q, L_k)
    if dropout_p > 0.0:
        weights = torch.nn.functional.dropout(weights, p=dropout_p)
    # step 5: blend the values by those weights
    return weights @ v, weights  # (…, L_q, d_v), (…, L_q, L_k)
