"""Position information (§3.5 of the paper, and RoPE from RoFormer, 2021).

Attention alone is order-blind: permuting the input rows permutes the output rows. Three
ways to tell the model where each token sits:

* sinusoidal encoding, added to the embeddings (the 2017 paper);
* a learned position embedding, added to the embeddings (BERT, GPT-2);
* rotary position embedding (RoPE), a rotation of Q and K inside attention.
"""

from __future__ import annotations


import torch
from torch import Tensor, nn

from .sizes import check_positive


def sinusoidal_table(length: int, d_model: int, base: float = 10000.0) -> Tensor:
    """The table PE of shape (L, D) for positions 0 … L−1.

    PE(pos, 2i) = sin(pos / base^(2i/D)),  PE(pos, 2i+1) = cos(pos / base^(2i/D)).
    Low dimensions turn fast, high ones slowly, like the hands of a clock.
    """
    check_positive(length=length, d_model=d_model)
    pos = torch.arange(length, dtype=torch.float64)[:, None]  # (L, 1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (⌈D/2⌉,)
    angle = pos / base ** (two_i / d_model)  # (L, ⌈D/2⌉)
    pe = torch.zeros(length, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])
    return pe  # (L, D)


class SinusoidalPositionalEncoding(nn.Module):
    """Adds the sinusoidal table to (B, L, D) embeddings; works for any length."""

    def __init__(self, d_model: int):
        super().__init__()
        check_positive(d_model=d_model)
        self.d_model = d_model
        self.table = torch.zeros(0, d_model)  # grown on demand, so there is no max_len

    def forward(self, x: Tensor, offset: int = 0) -> Tensor:
        L = x.size(1)
        if self.table.size(0) < offset + L or self.table.device != x.device or self.table.dtype != x.dtype:
            length = max(offset + L, 2 * self.table.size(0))
            self.table = sinusoidal_table(length, self.d_model).to(device=x.device, dtype=x.dtype)
        return x + self.table[offset : offset + L]  # (B, L, D)


class LearnedPositionalEmbedding(nn.Module):
    """A trainable vector per position, added to (B, L, D) embeddings; at most ``max_len``."""

    def __init__(self, max_len: int, d_model: int):
        super().__init__()
        check_positive(max_len=max_len, d_model=d_model)
        self.max_len = max_len
        self.embedding = nn.Embedding(max_len, d_model)

    def forward(self, x: Tensor, offset: int = 0) -> Tensor:
        L = x.size(1)
        if offset + L > self.max_len:
            raise ValueError(
                f"the sequence needs positions {offset} to {offset + L - 1} (counting from 0) but "
                f"the learned position embedding has max_len={self.max_len} rows, positions 0 to "
                f"{self.max_len - 1}; raise max_len in the config (and retrain) or use "
                "position='sinusoidal' or 'rope', which have no limit"
            )
        positions = torch.arange(offset, offset + L, device=x.device)
        return x + self.embedding(positions)  # (B, L, D)


class RotaryEmbedding(nn.Module):
    """Rotary position embedding (Su et al. 2021) for tensors (…, L, d_k).

    Components (2i, 2i+1) of a query or key at position m are rotated by the angle
    m·θ_i with θ_i = base^(−2i/d_k). A rotation by mθ dotted with one by nθ equals a
    rotation by (m−n)θ, so q·k depends only on the offset m − n.
    """

    def __init__(self, d_k: int, base: float = 10000.0):
        super().__init__()
        check_positive(d_k=d_k)
        if d_k % 2:
            raise ValueError(f"RoPE rotates pairs of components, so d_k must be even, got {d_k}")
        self.d_k, self.base = d_k, base

    def forward(self, x: Tensor, offset: int = 0) -> Tensor:
        L = x.size(-2)
        theta = self.base ** (-torch.arange(0, self.d_k, 2, dtype=torch.float64) / self.d_k)
        pos = torch.arange(offset, offset + L, dtype=torch.float64)
        angle = (pos[:, None] * theta).to(device=x.device, dtype=x.dtype)  # (L, d_k/2)
        cos, sin = angle.cos(), angle.sin()
        x1, x2 = x[..., 0::2], x[..., 1::2]  # the two components of each pair
        rotated = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)
        return rotated.flatten(-2)  # (…, L, d_k), pairs interleaved back in place
