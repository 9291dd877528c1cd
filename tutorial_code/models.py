"""Encoder, decoder and the three model families built from the same parts (§3.1).

* :class:`EncoderDecoderTransformer` — the 2017 paper's model (translation, summarisation).
* :class:`EncoderOnlyTransformer` — BERT-style, every position sees every position.
* :class:`DecoderOnlyTransformer` — GPT-style, causal: P(x) = Π P(x_t | x_<t).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from torch import Tensor, nn

from .layers import DecoderLayer, EncoderLayer
from .masks import causal_mask, padding_mask
from .sizes import check_positive
from .position import LearnedPositionalEmbedding, RotaryEmbedding, SinusoidalPositionalEncoding

POSITIONS = ("sinusoidal", "learned", "rope", "none")


@dataclass
class TransformerConfig:
    """Sizes of a model. The defaults are the course's reference model."""

    vocab_size: int = 16  # tokens, special tokens included (shared by source and target)
    d_model: int = 64  # D, the width of every position's vector (paper: 512)
    n_heads: int = 4  # h; each head gets d_k = D / h (paper: 8)
    d_ff: int = 128  # hidden width of the feed-forward network (paper: 2048)
    n_layers: int = 2  # N, layers per stack (paper: 6 in the encoder, 6 in the decoder)
    dropout: float = 0.0  # on sub-layer outputs, embeddings and attention weights (paper: 0.1)
    norm_first: bool = False  # False: post-LN as in the paper; True: pre-LN as in GPT-2
    position: str = "sinusoidal"  # one of POSITIONS
    max_len: int = 512  # longest sequence for position="learned"
    pad_id: int = 0  # padding token, masked out as a key
    tie_embeddings: bool = True  # one matrix for input embeddings and output projection (§3.4)
    attention_scale: float | None = None  # the scores' factor in every attention; None: 1/√d_k (§3.2.1)

    def __post_init__(self):
        check_positive(
            vocab_size=self.vocab_size, d_model=self.d_model, n_heads=self.n_heads,
            d_ff=self.d_ff, n_layers=self.n_layers, max_len=self.max_len,
        )
        if self.d_model % self.n_heads:
            raise ValueError(
                f"d_model={self.d_model} is not divisible by n_heads={self.n_heads}; "
                f"pick n_heads among the divisors of {self.d_model}"
            )
        if self.position not in POSITIONS:
            raise ValueError(f"position={self.position!r} is unknown; use one of {', '.join(POSITIONS)}")
        if self.position == "rope" and (self.d_model // self.n_heads) % 2:
            raise ValueError(f"RoPE needs an even d_k, but d_model / n_heads = {self.d_model // self.n_heads}")
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout}")
        if not 0 <= self.pad_id < self.vocab_size:
            raise ValueError(f"pad_id={self.pad_id} must be a token id below vocab_size={self.vocab_size}")

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads


class Embedding(nn.Module):
    """Token embedding × √D plus position information, then dropout (§3.4, §3.5)."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.tokens = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.scale = math.sqrt(cfg.d_model)
        self.position = {
            "sinusoidal": lambda: SinusoidalPositionalEncoding(cfg.d_model),
            "learned": lambda: LearnedPositionalEmbedding(cfg.max_len, cfg.d_model),
        }.get(cfg.position, lambda: None)()  # RoPE acts inside attention instead
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, tokens: Tensor, offset: int = 0) -> Tensor:
        """token ids (B, L) → vectors (B, L, D); ``offset`` is the first position's index."""
        x = self.tokens(tokens) * self.scale
        if self.position is not None:
            x = self.position(x, offset)
        return self.dropout(x)


def init_parameters(model: nn.Module) -> None:
    """Xavier-uniform for every weight matrix; biases and LayerNorm keep PyTorch's defaults.

    What ``nn.Transformer`` and the Annotated Transformer do. PyTorch's default embedding is
    N(0, 1); multiplied by √D (§3.4) its vectors would be about √D times longer than the
    position code, which then drowns, and a tied output layer would start with huge logits.
    """
    for p in model.parameters():
        if p.dim() > 1:
            nn.init.xavier_uniform_(p)


def make_rope(cfg: TransformerConfig) -> RotaryEmbedding | None:
    return RotaryEmbedding(cfg.d_k) if cfg.position == "rope" else None


class Encoder(nn.Module):
    """N encoder layers; pre-LN stacks end with a final LayerNorm (as GPT-2 does)."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        rope = make_rope(cfg)
        self.layers = nn.ModuleList(
            EncoderLayer(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.dropout, cfg.norm_first, rope,
                         cfg.attention_scale)
            for _ in range(cfg.n_layers)
        )
        self.norm = nn.LayerNorm(cfg.d_model) if cfg.norm_first else nn.Identity()

    def forward(self, x: Tensor, mask: Tensor | None = None) -> tuple[Tensor, list[Tensor]]:
        """(B, L, D) → (B, L, D) and the weights of every layer, each (B, h, L, L)."""
        weights = []
        for layer in self.layers:
            x, w = layer(x, mask)
            weights.append(w)
        return self.norm(x), weights


class Decoder(nn.Module):
    """N decoder layers, with or without cross-attention."""

    def __init__(self, cfg: TransformerConfig, cross_attention: bool = True):
        super().__init__()
        rope = make_rope(cfg)
        self.layers = nn.ModuleList(
            DecoderLayer(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.dropout, cfg.norm_first, cross_attention, rope,
                         cfg.attention_scale)
            for _ in range(cfg.n_layers)
        )
        self.norm = nn.LayerNorm(cfg.d_model) if cfg.norm_first else nn.Identity()

    def forward(self, x, memory=None, self_mask=None, memory_mask=None, cache: list | None = None):
        """(B, L_t, D) → (B, L_t, D), self-attention weights and cross-attention weights per layer.

        ``cache`` is a list with one dict per layer (see :mod:`tutorial_code.generate`).
        """
        self_ws, cross_ws = [], []
        for i, layer in enumerate(self.layers):
            x, sw, cw = layer(x, memory, self_mask, memory_mask, None if cache is None else cache[i])
            self_ws.append(sw)
            cross_ws.append(cw)
        return self.norm(x), self_ws, cross_ws


def output_projection(cfg: TransformerConfig, embedding: Embedding) -> nn.Linear:
    """Vectors → logits over the vocabulary; shares the embedding matrix when tied (§3.4)."""
    proj = nn.Linear(cfg.d_model, cfg.vocab_size)
    if cfg.tie_embeddings:
        proj.weight = embedding.tokens.weight
    return proj


def future_mask(tgt: Tensor, offset: int = 0) -> Tensor:
    """Causal mask (L, offset + L) for target tokens (B, L) that follow ``offset`` cached ones.

    Padding is assumed to sit at the end (right padding), so the causal mask alone already
    keeps every real position from seeing it; this also keeps cached and uncached
    generation identical.
    """
    L = tgt.size(1)
    return causal_mask(offset + L, tgt.device)[offset:]  # (L, offset + L)


class EncoderDecoderTransformer(nn.Module):
    """The paper's model: the encoder reads the source, the decoder writes the target."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = Embedding(cfg)  # shared by source and target (one vocabulary, §3.4)
        self.encoder = Encoder(cfg)
        self.decoder = Decoder(cfg, cross_attention=True)
        self.out = output_projection(cfg, self.embed)
        init_parameters(self)

    def encode(self, src: Tensor) -> tuple[Tensor, Tensor, list[Tensor]]:
        """src ids (B, L_s) → memory (B, L_s, D), source mask (B, 1, 1, L_s), encoder weights."""
        src_mask = padding_mask(src, self.cfg.pad_id)
        memory, weights = self.encoder(self.embed(src), src_mask)
        return memory, src_mask, weights

    def decode(self, tgt, memory, src_mask, cache=None, offset: int = 0):
        """tgt ids (B, L_t) → logits (B, L_t, V), self- and cross-attention weights per layer."""
        x = self.embed(tgt, offset)
        x, self_ws, cross_ws = self.decoder(x, memory, future_mask(tgt, offset), src_mask, cache)
        return self.out(x), self_ws, cross_ws

    def forward(self, src: Tensor, tgt: Tensor, return_attention: bool = False):
        """Teacher forcing: src (B, L_s), tgt (B, L_t) → logits (B, L_t, V).

        With ``return_attention=True`` also returns a dict of per-layer weights:
        ``encoder`` (B, h, L_s, L_s), ``decoder_self`` (B, h, L_t, L_t), ``cross`` (B, h, L_t, L_s).
        """
        memory, src_mask, enc_ws = self.encode(src)
        logits, self_ws, cross_ws = self.decode(tgt, memory, src_mask)
        if return_attention:
            return logits, {"encoder": enc_ws, "decoder_self": self_ws, "cross": cross_ws}
        return logits


class EncoderOnlyTransformer(nn.Module):
    """BERT-style: bidirectional encoder; per-token logits, or a class per sequence.

    Args:
        cfg: sizes.
        n_classes: if given, :meth:`classify` maps a sequence to this many classes,
            reading the pooled encoder output.
        pooling: ``"first"`` (the [CLS] position, as BERT) or ``"mean"`` over real tokens.
    """

    def __init__(self, cfg: TransformerConfig, n_classes: int | None = None, pooling: str = "first"):
        super().__init__()
        if pooling not in ("first", "mean"):
            raise ValueError(f"pooling={pooling!r} is unknown; use 'first' or 'mean'")
        if n_classes is not None:
            check_positive(n_classes=n_classes)
        self.cfg, self.pooling = cfg, pooling
        self.embed = Embedding(cfg)
        self.encoder = Encoder(cfg)
        self.out = output_projection(cfg, self.embed)  # masked-LM head
        self.classifier = nn.Linear(cfg.d_model, n_classes) if n_classes else None
        init_parameters(self)

    def encode(self, tokens: Tensor) -> tuple[Tensor, Tensor, list[Tensor]]:
        mask = padding_mask(tokens, self.cfg.pad_id)
        x, weights = self.encoder(self.embed(tokens), mask)
        return x, mask, weights

    def forward(self, tokens: Tensor, return_attention: bool = False):
        """tokens (B, L) → per-token logits (B, L, V) (and the encoder weights per layer)."""
        x, _, weights = self.encode(tokens)
        logits = self.out(x)
        return (logits, {"encoder": weights}) if return_attention else logits

    def classify(self, tokens: Tensor, return_attention: bool = False):
        """tokens (B, L) → class logits (B, n_classes)."""
        if self.classifier is None:
            raise ValueError("this model was built without n_classes; pass n_classes=… to classify")
        x, mask, weights = self.encode(tokens)
        if self.pooling == "first":
            pooled = x[:, 0]  # (B, D)
        else:
            keep = mask[:, 0, 0, :, None].to(x.dtype)  # (B, L, 1)
            pooled = (x * keep).sum(1) / keep.sum(1).clamp(min=1)  # (B, D)
        logits = self.classifier(pooled)
        return (logits, {"encoder": weights}) if return_attention else logits


class DecoderOnlyTransformer(nn.Module):
    """GPT-style: causal self-attention only; predicts the next token at every position."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = Embedding(cfg)
        self.decoder = Decoder(cfg, cross_attention=False)
        self.out = output_projection(cfg, self.embed)
        init_parameters(self)

    def forward(self, tokens: Tensor, return_attention: bool = False, cache: list | None = None, offset: int = 0):
        """tokens (B, L) → next-token logits (B, L, V) (and self-attention weights per layer)."""
        x = self.embed(tokens, offset)
        x, self_ws, _ = self.decoder(x, self_mask=future_mask(tokens, offset), cache=cache)
        logits = self.out(x)
        return (logits, {"decoder_self": self_ws}) if return_attention else logits
