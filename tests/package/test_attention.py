"""Scaled dot-product and multi-head attention against PyTorch's own implementations."""

import pytest
import torch
import torch.nn.functional as F
from reference import copy_mha, float64  # noqa: F401  (autouse fixture)
from torch import nn

import tutorial_code as tc


def random_mask(*shape, generator=None):
    """A random boolean mask that never blocks a whole row (the diagonal stays open)."""
    m = torch.rand(*shape, generator=generator) > 0.5
    return m | torch.eye(shape[-2], shape[-1], dtype=torch.bool)


@pytest.mark.parametrize("mask_kind", ["none", "random", "causal", "padding"])
def test_sdpa_equals_pytorch(mask_kind):
    g = torch.Generator().manual_seed(0)
    B, h, L, d_k = 3, 2, 7, 8
    q, k, v = (torch.randn(B, h, L, d_k, generator=g, dtype=torch.float64) for _ in range(3))
    mask = {
        "none": None,
        "random": random_mask(B, h, L, L, generator=g),
        "causal": tc.causal_mask(L),
        "padding": tc.padding_mask(torch.tensor([[1] * 7, [1] * 5 + [0] * 2, [1] * 3 + [0] * 4]), 0),
    }[mask_kind]
    out, weights = tc.scaled_dot_product_attention(q, k, v, mask)
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert torch.allclose(out, expected, atol=1e-12, rtol=0)
    assert torch.allclose(weights.sum(-1), torch.ones(B, h, L, dtype=torch.float64))
    assert weights.min() >= 0 and weights.max() <= 1
    if mask is not None:
        assert (weights.masked_select(~mask.expand_as(weights)) == 0).all()


@pytest.mark.parametrize("scale", [None, 1.0, 0.1, 2.5])
@pytest.mark.parametrize("mask_kind", ["none", "causal"])
def test_sdpa_scale_equals_pytorchs_scale(scale, mask_kind):
    """scale= multiplies the scores as F.scaled_dot_product_attention's scale= does (None: 1/√d_k)."""
    g = torch.Generator().manual_seed(1)
    B, h, L, d_k = 2, 3, 6, 8
    q, k, v = (torch.randn(B, h, L, d_k, generator=g, dtype=torch.float64) for _ in range(3))
    mask = tc.causal_mask(L) if mask_kind == "causal" else None
    out, weights = tc.scaled_dot_product_attention(q, k, v, mask, scale=scale)
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale)
    assert torch.allclose(out, expected, atol=1e-12, rtol=0)
    assert torch.allclose(weights.sum(-1), torch.ones(B, h, L, dtype=torch.float64))


def test_attention_scale_reaches_every_attention_of_a_model(monkeypatch):
    """TransformerConfig.attention_scale is every attention's scale=: with 1.0 the model equals
    the default model whose attention is F.scaled_dot_product_attention(..., scale=1.0)."""
    import tutorial_code.multihead as multihead
    small = dict(vocab_size=13, d_model=16, n_heads=2, d_ff=32)
    torch.manual_seed(0)
    model = tc.EncoderDecoderTransformer(tc.TransformerConfig(**small, attention_scale=1.0)).double().eval()
    assert all(m.scale == 1.0 for m in model.modules() if isinstance(m, tc.MultiHeadAttention))
    src, tgt = torch.tensor([[1, 5, 7, 9, 2, 0]]), torch.tensor([[1, 9, 7, 5, 2]])
    ours = model(src, tgt)
    default = tc.EncoderDecoderTransformer(tc.TransformerConfig(**small)).double().eval()
    default.load_state_dict(model.state_dict())
    assert not torch.allclose(default(src, tgt), ours)  # the factor does change the output

    def pytorchs(q, k, v, mask=None, dropout_p=0.0, scale=None):
        scores = (q @ k.transpose(-2, -1)).masked_fill(~mask, float("-inf"))  # only for the weights
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=1.0), torch.softmax(scores, -1)
    monkeypatch.setattr(multihead, "scaled_dot_product_attention", pytorchs)
    assert torch.allclose(default(src, tgt), ours, atol=1e-12, rtol=0)


def test_sdpa_cross_lengths_and_value_width():
    q, k, v = torch.randn(2, 5, 4), torch.randn(2, 9, 4), torch.randn(2, 9, 6)
    out, weights = tc.scaled_dot_product_attention(q, k, v)
    assert out.shape == (2, 5, 6) and weights.shape == (2, 5, 9)
    assert torch.allclose(out, F.scaled_dot_product_attention(q, k, v), atol=1e-12)


def reference_and_ours(D, h):
    torch.manual_seed(1)
    ref = nn.MultiheadAttention(D, h, batch_first=True, dtype=torch.float64)
    # the default in_proj bias is zero; randomise it so the biases are tested too
    with torch.no_grad():
        ref.in_proj_bias.normal_()
        ref.out_proj.bias.normal_()
    ours = tc.MultiHeadAttention(D, h)
    copy_mha(ref, ours)
    return ref.eval(), ours.eval()


@pytest.mark.parametrize("kind", ["self", "cross"])
@pytest.mark.parametrize("masks", ["none", "padding", "causal", "both"])
def test_multihead_equals_nn_multiheadattention(kind, masks):
    B, L_q, D, h = 3, 6, 32, 4
    L_k = L_q if kind == "self" else 9
    ref, ours = reference_and_ours(D, h)
    x = torch.randn(B, L_q, D)
    mem = x if kind == "self" else torch.randn(B, L_k, D)
    lengths = torch.tensor([L_k, L_k - 2, L_k - 3])
    key_ok = torch.arange(L_k)[None, :] < lengths[:, None]  # (B, L_k), True = real token
    causal = torch.ones(L_q, L_k, dtype=torch.bool).tril()
    use_pad, use_causal = masks in ("padding", "both"), masks in ("causal", "both")
    ref_out, ref_w = ref(
        x, mem, mem,
        key_padding_mask=~key_ok if use_pad else None,  # PyTorch: True = blocked
        attn_mask=~causal if use_causal else None,
        need_weights=True, average_attn_weights=False,
    )
    ours_mask = tc.combine_masks(
        key_ok[:, None, None, :] if use_pad else None, causal if use_causal else None
    )
    out, w = ours(x, None if kind == "self" else mem, mask=ours_mask)
    assert torch.allclose(out, ref_out, atol=1e-12, rtol=0)
    assert torch.allclose(w, ref_w, atol=1e-12, rtol=0)
    assert w.shape == (B, h, L_q, L_k)


@pytest.mark.parametrize("h", [1, 2, 4, 8, 16])
def test_multihead_parameter_count_does_not_depend_on_heads(h):
    D = 512
    assert tc.count_parameters(tc.MultiHeadAttention(D, h))["attention"] == 4 * D * D + 4 * D == 1_050_624


def test_heads_are_independent_slices():
    """Changing head 0's slice of W_Q changes head 0's weights only."""
    mha = tc.MultiHeadAttention(16, 4).eval()
    x = torch.randn(2, 5, 16)
    _, before = mha(x)
    with torch.no_grad():
        mha.W_Q.weight[:4] += 1.0  # rows 0…3 of W_Q belong to head 0 (d_k = 4)
    _, after = mha(x)
    assert not torch.allclose(before[:, 0], after[:, 0])
    assert torch.equal(before[:, 1:], after[:, 1:])
