"""Every wrong size or option is refused with a message that names the values and the fix."""

import pytest
import torch

import tutorial_code as tc


def test_heads_must_divide_d_model():
    with pytest.raises(ValueError, match=r"d_model=64 is not divisible by n_heads=5.*divisors"):
        tc.MultiHeadAttention(64, 5)
    with pytest.raises(ValueError, match=r"d_model=10 is not divisible by n_heads=4"):
        tc.TransformerConfig(d_model=10, n_heads=4)


def test_mask_that_does_not_broadcast():
    q = torch.randn(2, 4, 5, 8)
    with pytest.raises(ValueError, match=r"mask of shape \(3, 3\) does not broadcast.*\(2, 4, 5, 5\)"):
        tc.scaled_dot_product_attention(q, q, q, torch.ones(3, 3, dtype=torch.bool))
    with pytest.raises(ValueError, match=r"must be boolean \(True = may attend\), got dtype torch.float32"):
        tc.scaled_dot_product_attention(q, q, q, torch.ones(5, 5))
    with pytest.raises(ValueError, match=r"do not broadcast"):
        tc.combine_masks(tc.causal_mask(4), tc.causal_mask(5))


def test_sequence_longer_than_learned_embedding():
    model = tc.DecoderOnlyTransformer(tc.TransformerConfig(position="learned", max_len=8))
    model(torch.ones(1, 8, dtype=torch.long))  # exactly max_len is fine
    with pytest.raises(ValueError, match=r"needs positions 0 to 8 .* max_len=8 rows, positions 0 to 7.*sinusoidal"):
        model(torch.ones(1, 9, dtype=torch.long))
    with pytest.raises(ValueError, match=r"max_len=8"):
        tc.generate(model, torch.ones(1, 5, dtype=torch.long), max_new_tokens=6)


@pytest.mark.parametrize("field", ["d_model", "n_heads", "d_ff", "n_layers", "vocab_size", "max_len"])
@pytest.mark.parametrize("value", [0, -3])
def test_non_positive_sizes(field, value):
    with pytest.raises(ValueError, match=rf"{field} must be a positive integer, got {value}"):
        tc.TransformerConfig(**{field: value})


def test_other_bad_sizes_and_options():
    with pytest.raises(ValueError, match="d_ff must be a positive integer, got 0"):
        tc.PositionwiseFeedForward(8, 0)
    with pytest.raises(ValueError, match="length"):
        tc.causal_mask(0)
    with pytest.raises(ValueError, match=r"position='alibi' is unknown; use one of sinusoidal"):
        tc.TransformerConfig(position="alibi")
    with pytest.raises(ValueError, match=r"RoPE needs an even d_k"):
        tc.TransformerConfig(d_model=12, n_heads=4, position="rope")
    with pytest.raises(ValueError, match=r"dropout must be in \[0, 1\), got 1.5"):
        tc.TransformerConfig(dropout=1.5)
    with pytest.raises(ValueError, match="max_new_tokens must be a positive integer, got 0"):
        tc.generate(tc.DecoderOnlyTransformer(tc.TransformerConfig()), torch.ones(1, 2, dtype=torch.long), 0)
    with pytest.raises(ValueError, match=r"expected input of shape \(B, L, 16\)"):
        tc.MultiHeadAttention(16, 2)(torch.randn(2, 3, 8))
    with pytest.raises(ValueError, match="pass n_classes"):
        tc.EncoderOnlyTransformer(tc.TransformerConfig()).classify(torch.ones(1, 3, dtype=torch.long))


def test_device_selection(monkeypatch):
    monkeypatch.delenv(tc.device.ENV_VAR, raising=False)
    assert tc.pick_device("cpu") == torch.device("cpu")
    expected = "cuda" if torch.cuda.is_available() else "mps" if tc.device._mps_available() else "cpu"
    assert tc.pick_device().type == expected
    monkeypatch.setenv(tc.device.ENV_VAR, "cpu")
    assert tc.pick_device() == torch.device("cpu")
    assert tc.pick_device("auto") == torch.device("cpu")
    assert "CPU" in tc.describe_device(torch.device("cpu")) or torch.cuda.is_available()


def test_unknown_device_names(monkeypatch):
    with pytest.raises(ValueError, match=r"unknown device 'tpu' \(from the argument\); use one of auto, cpu"):
        tc.pick_device("tpu")
    monkeypatch.setenv(tc.device.ENV_VAR, "gpu")
    with pytest.raises(ValueError, match=r"unknown device 'gpu' \(from the environment variable TUTORIAL_DEVICE\)"):
        tc.pick_device()
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="no CUDA GPU"):
            tc.pick_device("cuda")
