"""Multi-head attention (§3.2.2 of the paper).

Each head has its own projections W_Q, W_K, W_V; here the h heads are packed into one
d_model × d_model matrix each, and the reshape (B, L, D) → (B, h, L, d_k) runs all heads
in a single batched call of :func:`scaled_dot_product_attention`. The heads' outputs are
concatenated and mixed by W_O. Parameters: 4·D² + 4·D, whatever the number of heads.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .attention import scaled_dot_product_attention
from .sizes import check_positive


class MultiHeadAttention(nn.Module):
    """h heads of scaled dot-product attention, for self- and cross-attention.

    Args:
        d_model: D, the width of the model.
        n_heads: h; must divide D (each head gets d_k = D / h).
        dropout: dropout on the attention weights (as ``nn.MultiheadAttention`` does).
        rope: optional :class:`~tutorial_code.position.RotaryEmbedding` applied to the
            queries and keys of every head (self-attention only).
        scale: the scores' factor, passed to :func:`scaled_dot_product_attention`
            (``None``: 1/√d_k).
    """

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0, rope: nn.Module | None = None,
                 scale: float | None = None):
        super().__init__()
        check_positive(d_model=d_model, n_heads=n_heads)
        if d_model % n_heads != 0:
            raise ValueError(
                f"d_model={d_model} is not divisible by n_heads={n_heads}; each head needs "
                f"d_k = d_model / n_heads, so pick n_heads among the divisors of {d_model} "
                f"or change d_model (e.g. {n_heads * max(1, round(d_model / n_heads))})"
            )
        self.d_model, self.n_heads, self.d_k = d_model, n_heads, d_model // n_heads
        self.W_Q = nn.Linear(d_model, d_model)  # the h query projections, side by side
        self.W_K = nn.Linear(d_model, d_model)
        self.W_V = nn.Linear(d_model, d_model)
        self.W_O = nn.Linear(d_model, d_model)  # mixes the concatenated heads
        self.dropout = dropout
        self.rope = rope
        self.scale = scale

    def split_heads(self, x: Tensor) -> Tensor:
        """(B, L, D) → (B, h, L, d_k)."""
        B, L, _ = x.shape
        return x.view(B, L, self.n_heads, self.d_k).transpose(1, 2)  # (B, h, L, d_k)

    def merge_heads(self, x: Tensor) -> Tensor:
        """(B, h, L, d_k) → (B, L, D): the concatenation of the heads."""
        B, _, L, _ = x.shape
        return x.transpose(1, 2).reshape(B, L, self.d_model)  # (B, L, D)

    def forward(
        self,
        x_q: Tensor,
        x_kv: Tensor | None = None,
        mask: Tensor | None = None,
        cache: dict | None = None,
    ) -> tuple[Tensor, Tensor]:
        """Attend from ``x_q`` to ``x_kv``.

        Args:
            x_q: the positions that ask, (B, L_q, D).
            x_kv: the positions that answer, (B, L_k, D); ``None`` for self-attention.
            mask: boolean, True = may attend; broadcasts to (B, h, L_q, L_k).
            cache: a dict for step-by-step generation. Self-attention appends this
                step's keys and values to ``cache["k"]``/``cache["v"]``; cross-attention
                projects the encoder output once and reuses it on later steps.

        Returns:
            ``(output, weights)``: (B, L_q, D) and the per-head weights (B, h, L_q, L_k).
        """
        if x_q.dim() != 3 or x_q.size(-1) != self.d_model:
            raise ValueError(f"expected input of shape (B, L, {self.d_model}), got {tuple(x_q.shape)}")
        self_attention = x_kv is None
        q = self.split_heads(self.W_Q(x_q))  # (B, h, L_q, d_k)
        past = cache["k"].size(2) if cache and "k" in cache else 0
        if not self_attention and cache is not None and "k" in cache:
            k, v = cache["k"], cache["v"]  # the encoder output does not change between steps
        else:
            source = x_q if self_attention else x_kv
            k = self.split_heads(self.W_K(source))  # (B, h, L_k, d_k)
            v = self.split_heads(self.W_V(source))  # (B, h, L_k, d_k)
            if self_attention and self.rope is not None:
                # rotate by absolute position; the score then depends on the offset only
                q, k = self.rope(q, offset=past), self.rope(k, offset=past)
            if self_attention and past:
                k = torch.cat([cache["k"], k], dim=2)  # (B, h, past + L_q, d_k)
                v = torch.cat([cache["v"], v], dim=2)
            if cache is not None:
                cache["k"], cache["v"] = k, v
        p = self.dropout if self.training else 0.0
        out, weights = scaled_dot_product_attention(q, k, v, mask, dropout_p=p, scale=self.scale)
        return self.W_O(self.merge_heads(out)), weights  # (B, L_q, D), (B, h, L_q, L_k)
