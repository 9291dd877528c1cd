"""What the pages say PyTorch does with a fully blocked row holds for the PyTorch this course pins.

Lessons 3 and 4 and lesson 4's left-padding answer say: a row whose keys are all blocked gives NaN
in this package's ``scaled_dot_product_attention`` and in ``nn.MultiheadAttention`` when it returns
the weights (``need_weights=True``, its default), while
``torch.nn.functional.scaled_dot_product_attention`` returns a row of zeros (pytorch PR #133882),
with the default and the math backends; blocking with a large finite number instead of −∞ leaves
the row finite, its weights spread evenly. Each claim is run here, and the pages must still say it.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from coursebuild.paths import DOCS
from tutorial_code.attention import scaled_dot_product_attention

torch.manual_seed(0)
Q, K, V = (torch.randn(1, 3, 4) for _ in range(3))
MAY_ATTEND = torch.ones(3, 3, dtype=torch.bool)
MAY_ATTEND[1] = False  # row 1: every key blocked


def blocked_row(kind: str) -> torch.Tensor:
    """Row 1 of the output of ``kind`` for the mask above."""
    if kind == "package":
        return scaled_dot_product_attention(Q, K, V, mask=MAY_ATTEND)[0][0, 1]
    if kind == "F.sdpa":
        return F.scaled_dot_product_attention(Q, K, V, attn_mask=MAY_ATTEND)[0, 1]
    if kind == "F.sdpa math":
        with sdpa_kernel(SDPBackend.MATH):
            return F.scaled_dot_product_attention(Q, K, V, attn_mask=MAY_ATTEND)[0, 1]
    if kind == "F.sdpa finite":
        bias = torch.zeros(3, 3).masked_fill(~MAY_ATTEND, torch.finfo(torch.float32).min)
        return F.scaled_dot_product_attention(Q, K, V, attn_mask=bias)[0, 1]
    if kind == "nn.MultiheadAttention":
        mha = torch.nn.MultiheadAttention(4, 1, batch_first=True)
        with torch.no_grad():
            return mha(Q, K, V, attn_mask=~MAY_ATTEND)[0][0, 1]  # its mask: True = blocked
    raise ValueError(kind)


CLAIMS = {"package": "nan", "nn.MultiheadAttention": "nan", "F.sdpa": "zeros", "F.sdpa math": "zeros",
          "F.sdpa finite": "mean of the values"}


def holds(kind: str, claim: str) -> bool:
    row = blocked_row(kind)
    if claim == "nan":
        return bool(torch.isnan(row).all())
    if claim == "zeros":
        return bool((row == 0).all())
    if claim == "mean of the values":
        return torch.allclose(row, V[0].mean(0), atol=1e-6)
    raise ValueError(claim)


@pytest.mark.parametrize("kind", sorted(CLAIMS))
def test_what_the_pages_say_each_function_returns(kind):
    assert holds(kind, CLAIMS[kind]), f"{kind} no longer gives {CLAIMS[kind]} for a fully blocked row"


@pytest.mark.parametrize("kind, wrong", [("F.sdpa", "nan"), ("package", "zeros"), ("F.sdpa finite", "nan")])
def test_a_wrong_claim_fails(kind, wrong):
    assert not holds(kind, wrong)


@pytest.mark.parametrize("lang, words", [
    ("ko", ["`NaN`", "0으로", "#133882", "need_weights=True"]),
    ("en", ["`NaN`", "zero", "#133882", "need_weights=True"]),
])
def test_lesson_3_still_says_it(lang, words):
    text = (DOCS / lang / "lessons" / "scaled-dot-product.md").read_text(encoding="utf-8")
    assert all(w in text for w in words), [w for w in words if w not in text]
