"""The position-wise feed-forward network and the encoder and decoder layers (§3.1, §3.3).

Each sub-layer (attention or feed-forward) sits inside a residual connection with a
LayerNorm. Two placements of the norm are offered:

* post-LN, the 2017 paper and the default:  x = LayerNorm(x + Sublayer(x))
* pre-LN, GPT-2 and minGPT:                 x = x + Sublayer(LayerNorm(x))
"""

from __future__ import annotations

from torch import Tensor, nn

from .multihead import MultiHeadAttention
from .sizes import check_positive


class PositionwiseFeedForward(nn.Module):
    """FFN(x) = max(0, x W_1 + b_1) W_2 + b_2, applied to each position alone (§3.3).

    (B, L, D) → (B, L, d_ff) → (B, L, D); the base model uses 512 → 2048 → 512.
    """

    def __init__(self, d_model: int, d_ff: int, dropout: float = 0.0):
        super().__init__()
        check_positive(d_model=d_model, d_ff=d_ff)
        self.W_1 = nn.Linear(d_model, d_ff)
        self.W_2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        return self.W_2(self.dropout(self.W_1(x).relu()))  # (B, L, D)


class SublayerConnection(nn.Module):
    """Residual connection around a sub-layer, with LayerNorm after (post-LN) or before (pre-LN)."""

    def __init__(self, d_model: int, dropout: float, norm_first: bool):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)  # normalises each token over its D features
        self.dropout = nn.Dropout(dropout)  # §5.4: dropout on each sub-layer's output
        self.norm_first = norm_first

    def forward(self, x: Tensor, sublayer) -> tuple[Tensor, Tensor | None]:
        """``sublayer`` maps (B, L, D) to ``(output, attention weights or None)``."""
        if self.norm_first:
            out, weights = sublayer(self.norm(x))
            return x + self.dropout(out), weights
        out, weights = sublayer(x)
        return self.norm(x + self.dropout(out)), weights


class EncoderLayer(nn.Module):
    """Self-attention (every position sees every position) then the feed-forward network."""

    def __init__(
        self, d_model: int, n_heads: int, d_ff: int, dropout: float = 0.0,
        norm_first: bool = False, rope: nn.Module | None = None, attention_scale: float | None = None,
    ):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, dropout, rope=rope, scale=attention_scale)
        self.ffn = PositionwiseFeedForward(d_model, d_ff, dropout)
        self.sublayer1 = SublayerConnection(d_model, dropout, norm_first)
        self.sublayer2 = SublayerConnection(d_model, dropout, norm_first)

    def forward(self, x: Tensor, mask: Tensor | None = None) -> tuple[Tensor, Tensor]:
        """x (B, L, D), mask broadcasting to (B, h, L, L) → (B, L, D) and weights (B, h, L, L)."""
        x, weights = self.sublayer1(x, lambda y: self.self_attn(y, mask=mask))
        x, _ = self.sublayer2(x, lambda y: (self.ffn(y), None))
        return x, weights


class DecoderLayer(nn.Module):
    """Masked self-attention, cross-attention to the encoder output, then the FFN.

    With ``cross_attention=False`` this is the block of a decoder-only (GPT-style) model.
    """

    def __init__(
        self, d_model: int, n_heads: int, d_ff: int, dropout: float = 0.0,
        norm_first: bool = False, cross_attention: bool = True, rope: nn.Module | None = None,
        attention_scale: float | None = None,
    ):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, dropout, rope=rope, scale=attention_scale)
        self.sublayer1 = SublayerConnection(d_model, dropout, norm_first)
        self.cross_attn = (MultiHeadAttention(d_model, n_heads, dropout, scale=attention_scale)
                           if cross_attention else None)
        self.sublayer2 = SublayerConnection(d_model, dropout, norm_first) if cross_attention else None
        self.ffn = PositionwiseFeedForward(d_model, d_ff, dropout)
        self.sublayer3 = SublayerConnection(d_model, dropout, norm_first)

    def forward(
        self,
        x: Tensor,
        memory: Tensor | None = None,
        self_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        cache: dict | None = None,
    ) -> tuple[Tensor, Tensor, Tensor | None]:
        """Decode one layer.

        Args:
            x: target-side input, (B, L_t, D).
            memory: encoder output, (B, L_s, D); required when the layer has cross-attention.
            self_mask: usually causal (+ padding), broadcasting to (B, h, L_t, L_t + past).
            memory_mask: source padding, broadcasting to (B, h, L_t, L_s).
            cache: per-layer dict for generation, holding ``"self"`` and ``"cross"`` caches.

        Returns:
            (B, L_t, D), self-attention weights and cross-attention weights (or None).
        """
        self_cache = cache.setdefault("self", {}) if cache is not None else None
        x, self_w = self.sublayer1(x, lambda y: self.self_attn(y, mask=self_mask, cache=self_cache))
        cross_w = None
        if self.cross_attn is not None:
            if memory is None:
                raise ValueError("this decoder layer has cross-attention, so it needs the encoder output (memory)")
            cross_cache = cache.setdefault("cross", {}) if cache is not None else None
            x, cross_w = self.sublayer2(
                x, lambda y: self.cross_attn(y, memory, mask=memory_mask, cache=cross_cache)
            )
        x, _ = self.sublayer3(x, lambda y: (self.ffn(y), None))
        return x, self_w, cross_w
