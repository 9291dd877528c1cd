"""Weights rounded to int8 with one float32 scale per tensor: the model a web page runs.

``w ≈ q · scale`` with ``scale = max|w| / 127``: a quarter of the bytes of float32, so a lesson
page with its model stays small. An experiment whose numbers the page quotes of the model it
runs (the translator) rounds its weights with :func:`round_weights` before scoring; the file
format that stores ``q`` and ``scale`` is the page data's
(:mod:`tutorial_code.experiments.pagedata.model_export`).
"""

from __future__ import annotations

import torch


def quantise(w: torch.Tensor) -> tuple[torch.Tensor, float]:
    """(int8 values, float32 scale) with ``w ≈ q · scale``; scale = max|w| / 127 (1 for zeros)."""
    w = w.detach().float()
    scale = (w.abs().max() / 127).item() or 1.0
    scale = torch.tensor(scale, dtype=torch.float32)
    q = torch.round(w / scale).clamp(-127, 127).to(torch.int8)
    return q, scale.item()  # .item(): the float32 value exactly, as a Python float


def dequantise(q: torch.Tensor, scale: float) -> torch.Tensor:
    """``q · scale`` in float32, as the page computes it (an exact product, rounded once)."""
    return q.float() * torch.tensor(scale, dtype=torch.float32)


def round_weights(model: torch.nn.Module) -> torch.nn.Module:
    """Quantise every parameter and back, in place: the model the files hold."""
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(dequantise(*quantise(p)))
    return model
