"""Where a model's parameters live (embeddings, attention, feed-forward, norms), and how large
each decoder layer's gradient is."""

from __future__ import annotations

import torch
from torch import nn

from .layers import PositionwiseFeedForward
from .models import DecoderOnlyTransformer, Embedding
from .multihead import MultiHeadAttention

PARTS = ("embeddings", "attention", "feed_forward", "norms", "output")


def count_parameters(model: nn.Module) -> dict[str, int]:
    """Parameters per part, each shared tensor counted once, plus ``total``.

    ``output`` holds what is left: the output bias, an untied output matrix, a classifier.
    """
    kinds = ((Embedding, "embeddings"), (MultiHeadAttention, "attention"),
             (PositionwiseFeedForward, "feed_forward"), (nn.LayerNorm, "norms"))
    counts = dict.fromkeys(PARTS, 0)
    seen: set[int] = set()
    for module in model.modules():
        part = next((name for cls, name in kinds if isinstance(module, cls)), None)
        if part is None:
            continue
        for p in module.parameters():
            if id(p) not in seen:
                seen.add(id(p))
                counts[part] += p.numel()
    for p in model.parameters():
        if id(p) not in seen:
            seen.add(id(p))
            counts["output"] += p.numel()
    counts["total"] = sum(counts[k] for k in PARTS)
    return counts


def layer_grad_norms(model: DecoderOnlyTransformer) -> list[float]:
    """‖∂loss/∂θ‖ over all parameters of each decoder layer, bottom (1) to top (N)."""
    return [torch.cat([p.grad.flatten() for p in layer.parameters()]).norm().item()
            for layer in model.decoder.layers]
