"""Boolean attention masks. Everywhere in this package **True means "may attend"**.

Masks are shaped to broadcast against attention scores of shape (B, h, L_q, L_k).
"""

from __future__ import annotations

import torch
from torch import Tensor


def causal_mask(length: int, device: torch.device | str | None = None) -> Tensor:
    """(L, L) mask that lets position i see positions j ≤ i only (§3.2.3 of the paper).

    True on and below the diagonal; the blocked future (j > i) is False.
    """
    if length <= 0:
        raise ValueError(f"causal_mask needs a positive length, got {length}")
    return torch.ones(length, length, dtype=torch.bool, device=device).tril()


def padding_mask(tokens: Tensor, pad_id: int) -> Tensor:
    """(B, 1, 1, L) mask that blocks padding keys.

    Args:
        tokens: token ids, (B, L).
        pad_id: the id used for padding.
    """
    if tokens.dim() != 2:
        raise ValueError(f"padding_mask expects token ids of shape (B, L), got {tuple(tokens.shape)}")
    return (tokens != pad_id)[:, None, None, :]  # (B, 1, 1, L)


def combine_masks(*masks: Tensor | None) -> Tensor | None:
    """Logical AND of the given masks (broadcasting); ``None`` entries are ignored.

    Example: ``combine_masks(padding_mask(tgt, pad), causal_mask(L))`` gives (B, 1, L, L).
    """
    present = [m for m in masks if m is not None]
    if not present:
        return None
    out = present[0]
    for m in present[1:]:
        try:
            out = out & m
        except RuntimeError:
            raise ValueError(
                f"masks of shapes {tuple(out.shape)} and {tuple(m.shape)} do not broadcast; "
                "use (L_q, L_k) for causal and (B, 1, 1, L_k) for padding masks"
            ) from None
    return out
