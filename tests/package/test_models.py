"""Whole models: causality, order-blindness, position schemes, generation, parameter counts."""

import math

import pytest
import torch
from reference import float64  # noqa: F401

import tutorial_code as tc


def small(**kw):
    return tc.TransformerConfig(**{"vocab_size": 20, "d_model": 32, "n_heads": 4, "d_ff": 64, **kw})


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("position", ["sinusoidal", "learned", "rope"])
def test_decoder_only_is_causal(position, norm_first):
    torch.manual_seed(0)
    model = tc.DecoderOnlyTransformer(small(position=position, norm_first=norm_first)).eval()
    x = torch.randint(1, 20, (2, 10))
    t = 6
    x2 = x.clone()
    x2[:, t] = (x[:, t] % 19) + 1  # a different token at position t
    before, after = model(x), model(x2)
    assert torch.equal(before[:, :t], after[:, :t])  # nothing before t may change
    assert not torch.allclose(before[:, t:], after[:, t:])


def test_encoder_decoder_target_is_causal_and_source_is_not():
    torch.manual_seed(0)
    model = tc.EncoderDecoderTransformer(small()).eval()
    src, tgt = torch.randint(1, 20, (2, 8)), torch.randint(1, 20, (2, 7))
    base = model(src, tgt)
    tgt2 = tgt.clone()
    tgt2[:, 4] = (tgt[:, 4] % 19) + 1
    assert torch.equal(model(src, tgt2)[:, :4], base[:, :4])
    src2 = src.clone()
    src2[:, -1] = (src[:, -1] % 19) + 1  # the last source token is visible to every target
    assert not torch.allclose(model(src2, tgt)[:, 0], base[:, 0])


def test_without_position_permuting_inputs_permutes_outputs():
    torch.manual_seed(0)
    model = tc.EncoderOnlyTransformer(small(position="none")).eval()
    x = torch.randint(1, 20, (3, 12))
    perm = torch.randperm(12)
    diff = (model(x)[:, perm] - model(x[:, perm])).abs().max().item()
    assert diff < 1e-13  # rounding only (about 1e-15 in float64)
    with_pos = tc.EncoderOnlyTransformer(small(position="sinusoidal")).eval()
    assert (with_pos(x)[:, perm] - with_pos(x[:, perm])).abs().max() > 1e-3


def test_sinusoidal_table_matches_formula():
    L, D = 50, 64
    pe = tc.sinusoidal_table(L, D)
    for pos in (0, 1, 7, 49):
        for i in range(D // 2):
            angle = pos / 10000 ** (2 * i / D)
            assert pe[pos, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-12)
            assert pe[pos, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-12)
    assert tc.sinusoidal_table(7, 5).shape == (7, 5)  # odd widths work too


def test_sinusoidal_encoding_has_no_length_limit():
    enc = tc.SinusoidalPositionalEncoding(16)
    y = enc(torch.zeros(1, 3000, 16))
    assert torch.allclose(y[0], tc.sinusoidal_table(3000, 16))
    assert torch.allclose(enc(torch.zeros(1, 4, 16), offset=10)[0], tc.sinusoidal_table(14, 16)[10:])


def test_rope_score_depends_only_on_offset():
    torch.manual_seed(0)
    rope = tc.RotaryEmbedding(16)
    q, k = torch.randn(16), torch.randn(16)
    L = 40
    qs = rope(q.expand(L, 16))  # the same query placed at positions 0 … L−1
    ks = rope(k.expand(L, 16))
    scores = qs @ ks.T  # scores[m, n]
    for offset in (-5, 0, 3, 17):
        diagonal = torch.diagonal(scores, offset=-offset)  # all pairs with m − n = offset
        assert diagonal.max() - diagonal.min() < 1e-12
    assert scores[10, 7] != scores[10, 2]
    assert torch.allclose(qs.norm(dim=-1), q.norm().expand(L))  # rotations keep lengths


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("position", ["sinusoidal", "learned", "rope"])
def test_generation_with_cache_equals_without(position, norm_first):
    torch.manual_seed(0)
    cfg = small(position=position, norm_first=norm_first)
    gpt = tc.DecoderOnlyTransformer(cfg)
    prompt = torch.randint(1, 20, (3, 4))
    fast, slow = tc.generate(gpt, prompt, 15), tc.generate(gpt, prompt, 15, use_cache=False)
    assert fast.shape == (3, 19) and torch.equal(fast, slow)
    seq2seq = tc.EncoderDecoderTransformer(cfg)
    src = torch.randint(1, 20, (3, 9))
    fast = tc.greedy_decode(seq2seq, src, bos_id=1, max_new_tokens=12)
    slow = tc.greedy_decode(seq2seq, src, bos_id=1, max_new_tokens=12, use_cache=False)
    assert torch.equal(fast, slow)


def test_cached_logits_equal_full_forward():
    torch.manual_seed(0)
    gpt = tc.DecoderOnlyTransformer(small()).eval()
    x = torch.randint(1, 20, (2, 9))
    cache = [{} for _ in gpt.decoder.layers]
    steps = [gpt(x[:, :5], cache=cache)] + [gpt(x[:, t : t + 1], cache=cache, offset=t) for t in range(5, 9)]
    assert torch.allclose(torch.cat(steps, dim=1), gpt(x), atol=1e-12)


def test_generation_stops_at_eos():
    torch.manual_seed(0)
    gpt = tc.DecoderOnlyTransformer(small())
    with torch.no_grad():
        gpt.out.bias.fill_(0.0)
        gpt.out.bias[5] = 1e6  # every step predicts token 5
    out = tc.generate(gpt, torch.ones(2, 3, dtype=torch.long), 10, eos_id=5)
    assert out.shape == (2, 4) and (out[:, -1] == 5).all()


def test_attention_weights_are_returned_for_every_layer_and_head():
    model = tc.EncoderDecoderTransformer(small(n_layers=3))
    logits, att = model(torch.randint(1, 20, (2, 8)), torch.randint(1, 20, (2, 5)), return_attention=True)
    assert logits.shape == (2, 5, 20)
    assert [w.shape for w in att["encoder"]] == [(2, 4, 8, 8)] * 3
    assert [w.shape for w in att["decoder_self"]] == [(2, 4, 5, 5)] * 3
    assert [w.shape for w in att["cross"]] == [(2, 4, 5, 8)] * 3
    bert = tc.EncoderOnlyTransformer(small(), n_classes=3)
    cls, att = bert.classify(torch.randint(1, 20, (2, 8)), return_attention=True)
    assert cls.shape == (2, 3) and len(att["encoder"]) == 2
    _, att = tc.DecoderOnlyTransformer(small())(torch.randint(1, 20, (2, 6)), return_attention=True)
    assert all((w.triu(1) == 0).all() for w in att["decoder_self"])


def test_padding_is_ignored_by_the_encoder():
    torch.manual_seed(0)
    bert = tc.EncoderOnlyTransformer(small(position="learned"), n_classes=2, pooling="mean").eval()
    x = torch.randint(1, 20, (1, 6))
    padded = torch.cat([x, torch.zeros(1, 3, dtype=torch.long)], dim=1)  # pad_id = 0
    assert torch.allclose(bert.classify(x), bert.classify(padded), atol=1e-12)
    assert torch.allclose(bert(x)[:, :6], bert(padded)[:, :6], atol=1e-12)


# The paper's Table 3 reports 65 M (base) and 213 M (big) parameters. Our counts differ a
# little because the exact size of the shared BPE vocabulary (about 37,000) is not given,
# the paper rounds, and whether the output bias and LayerNorm gains are counted is not said.
@pytest.mark.parametrize(
    "d_model, d_ff, n_heads, reported",
    [(512, 2048, 8, 65e6), (1024, 4096, 16, 213e6)],
)
def test_paper_configurations_match_table_3(d_model, d_ff, n_heads, reported):
    cfg = tc.TransformerConfig(vocab_size=37000, d_model=d_model, n_heads=n_heads, d_ff=d_ff, n_layers=6)
    with torch.device("meta"):  # count without allocating 200 M numbers
        counts = tc.count_parameters(tc.EncoderDecoderTransformer(cfg))
    assert abs(counts["total"] / reported - 1) < 0.03
    D = d_model
    assert counts["attention"] == 18 * (4 * D * D + 4 * D)  # 6 encoder + 12 decoder blocks
    assert counts["feed_forward"] == 12 * (2 * D * d_ff + d_ff + D)
    assert counts["norms"] == 30 * 2 * D
    assert counts["embeddings"] == 37000 * D  # one matrix, shared three ways (§3.4)
    assert counts["total"] == sum(counts[p] for p in ("embeddings", "attention", "feed_forward", "norms", "output"))


@pytest.mark.parametrize("model_cls", [tc.EncoderDecoderTransformer, tc.EncoderOnlyTransformer, tc.DecoderOnlyTransformer])
def test_initialisation_keeps_embeddings_comparable_to_positions(model_cls):
    """Xavier init: token vectors after ×√D are about as long as the position code (PyTorch's
    default N(0, 1) embedding would make them √D times longer and drown the positions)."""
    torch.manual_seed(0)
    cfg = tc.TransformerConfig(vocab_size=13)
    model = model_cls(cfg)
    token_norm = (model.embed.tokens.weight * model.embed.scale).norm(dim=-1).mean()
    position_norm = tc.sinusoidal_table(10, cfg.d_model).norm(dim=-1).mean()
    assert 0.3 < token_norm / position_norm < 3
