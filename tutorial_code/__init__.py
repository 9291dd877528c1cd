"""A Transformer built from basic tensor operations, in the order the course teaches it.

This is the teaching room: what a student reads, copies into Colab and changes. The package's
modules are the Transformer; ``experiments/`` holds the course's experiments (their tasks,
models, training loops and how each figure is drawn) and ``notebooks/`` the lab notebooks'
sources. Nothing here imports the site's build machinery (``scripts/coursebuild``).

Shape legend, used in every docstring and comment (and on the site):

    B    batch size
    L    sequence length (L_q queries, L_k keys; L_s source, L_t target)
    D    d_model, the width of every position's vector
    h    n_heads, the number of attention heads
    d_k  D / h, the width of one head's queries, keys and values
    V    vocabulary size

Masks are boolean and **True means "may attend"**.

Reading order: sizes (the shared input check) → attention → masks → multihead → position → layers → models → generate,
then params (counting) and device (where to run).
"""

from .attention import scaled_dot_product_attention
from .device import describe_device, pick_device
from .generate import beam_search, generate, greedy_decode
from .layers import DecoderLayer, EncoderLayer, PositionwiseFeedForward
from .masks import causal_mask, combine_masks, padding_mask
from .models import (
    Decoder,
    DecoderOnlyTransformer,
    Encoder,
    EncoderDecoderTransformer,
    EncoderOnlyTransformer,
    TransformerConfig,
)
from .multihead import MultiHeadAttention
from .params import count_parameters
from .position import (
    LearnedPositionalEmbedding,
    RotaryEmbedding,
    SinusoidalPositionalEncoding,
    sinusoidal_table,
)

__all__ = [
    "scaled_dot_product_attention", "causal_mask", "padding_mask", "combine_masks",
    "MultiHeadAttention", "sinusoidal_table", "SinusoidalPositionalEncoding",
    "LearnedPositionalEmbedding", "RotaryEmbedding", "PositionwiseFeedForward",
    "EncoderLayer", "DecoderLayer", "Encoder", "Decoder", "TransformerConfig",
    "EncoderDecoderTransformer", "EncoderOnlyTransformer", "DecoderOnlyTransformer",
    "generate", "greedy_decode", "beam_search", "count_parameters", "pick_device", "describe_device",
]
