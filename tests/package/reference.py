"""Copy weights from PyTorch's own modules into ours, so both compute the same function."""

import pytest
import torch
from torch import nn

import tutorial_code as tc


@pytest.fixture(autouse=True)
def float64():
    """Run a test in float64, where exact agreement can be asserted, then restore."""
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(old)


@torch.no_grad()
def copy_mha(ref: nn.MultiheadAttention, ours: tc.MultiHeadAttention) -> None:
    D = ours.d_model
    for i, lin in enumerate((ours.W_Q, ours.W_K, ours.W_V)):
        lin.weight.copy_(ref.in_proj_weight[i * D : (i + 1) * D])
        lin.bias.copy_(ref.in_proj_bias[i * D : (i + 1) * D])
    ours.W_O.weight.copy_(ref.out_proj.weight)
    ours.W_O.bias.copy_(ref.out_proj.bias)


@torch.no_grad()
def copy_norm(ref: nn.LayerNorm, ours: nn.LayerNorm) -> None:
    ours.weight.copy_(ref.weight)
    ours.bias.copy_(ref.bias)


@torch.no_grad()
def copy_ffn(ref, ours: tc.PositionwiseFeedForward) -> None:
    for a, b in ((ref.linear1, ours.W_1), (ref.linear2, ours.W_2)):
        b.weight.copy_(a.weight)
        b.bias.copy_(a.bias)


def copy_encoder_layer(ref: nn.TransformerEncoderLayer, ours: tc.EncoderLayer) -> None:
    copy_mha(ref.self_attn, ours.self_attn)
    copy_ffn(ref, ours.ffn)
    copy_norm(ref.norm1, ours.sublayer1.norm)
    copy_norm(ref.norm2, ours.sublayer2.norm)


def copy_decoder_layer(ref: nn.TransformerDecoderLayer, ours: tc.DecoderLayer) -> None:
    copy_mha(ref.self_attn, ours.self_attn)
    copy_mha(ref.multihead_attn, ours.cross_attn)
    copy_ffn(ref, ours.ffn)
    copy_norm(ref.norm1, ours.sublayer1.norm)
    copy_norm(ref.norm2, ours.sublayer2.norm)
    copy_norm(ref.norm3, ours.sublayer3.norm)
