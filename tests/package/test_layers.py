"""Encoder and decoder layers against nn.TransformerEncoderLayer / DecoderLayer."""

import pytest
import torch
from reference import copy_decoder_layer, copy_encoder_layer, float64  # noqa: F401
from torch import nn

import tutorial_code as tc

D, H, D_FF = 32, 4, 64


def randomise(module: nn.Module) -> None:
    """PyTorch starts biases and LayerNorm at 0/1; perturb everything so all of it is tested."""
    with torch.no_grad():
        for p in module.parameters():
            p.add_(0.1 * torch.randn_like(p))


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_equals_pytorch(norm_first):
    torch.manual_seed(0)
    ref = nn.TransformerEncoderLayer(D, H, D_FF, dropout=0.1, batch_first=True, norm_first=norm_first)
    randomise(ref)
    ours = tc.EncoderLayer(D, H, D_FF, dropout=0.1, norm_first=norm_first)
    copy_encoder_layer(ref, ours)
    ref.eval(), ours.eval()  # dropout off in both
    x = torch.randn(3, 7, D)
    key_ok = torch.arange(7)[None, :] < torch.tensor([7, 5, 2])[:, None]
    expected = ref(x, src_key_padding_mask=~key_ok)
    got, weights = ours(x, key_ok[:, None, None, :])
    real = key_ok[:, :, None]  # PyTorch's fast path may zero padded rows; compare real tokens
    assert torch.allclose(got * real, expected * real, atol=1e-12, rtol=0)
    assert weights.shape == (3, H, 7, 7)


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer_equals_pytorch(norm_first):
    torch.manual_seed(0)
    ref = nn.TransformerDecoderLayer(D, H, D_FF, dropout=0.1, batch_first=True, norm_first=norm_first)
    randomise(ref)
    ours = tc.DecoderLayer(D, H, D_FF, dropout=0.1, norm_first=norm_first)
    copy_decoder_layer(ref, ours)
    ref.eval(), ours.eval()
    tgt, memory = torch.randn(3, 6, D), torch.randn(3, 9, D)
    causal = tc.causal_mask(6)
    src_ok = torch.arange(9)[None, :] < torch.tensor([9, 4, 6])[:, None]
    expected = ref(tgt, memory, tgt_mask=~causal, memory_key_padding_mask=~src_ok)
    got, self_w, cross_w = ours(tgt, memory, self_mask=causal, memory_mask=src_ok[:, None, None, :])
    assert torch.allclose(got, expected, atol=1e-12, rtol=0)
    assert self_w.shape == (3, H, 6, 6) and cross_w.shape == (3, H, 6, 9)
    assert (self_w.triu(1) == 0).all()  # no weight on the future


def test_feed_forward_acts_on_each_position_alone():
    ffn = tc.PositionwiseFeedForward(D, D_FF)
    x = torch.randn(2, 5, D)
    y = ffn(x)
    x2 = x.clone()
    x2[:, 3] += 1.0
    changed = (ffn(x2) - y).abs().amax(dim=-1)  # (B, L)
    assert (changed[:, 3] > 0).all() and (changed[:, [0, 1, 2, 4]] == 0).all()


def test_train_mode_uses_dropout_and_eval_does_not():
    layer = tc.EncoderLayer(D, H, D_FF, dropout=0.5)
    x = torch.randn(2, 5, D)
    layer.train()
    assert not torch.equal(layer(x)[0], layer(x)[0])
    layer.eval()
    assert torch.equal(layer(x)[0], layer(x)[0])
