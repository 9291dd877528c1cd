"""The paper's whole models counted from their blocks, to set beside Table 3 of Vaswani et al. (2017).

Lesson 7 counts one encoder block; this adds the decoder block (a second attention, the cross
attention, and a third LayerNorm), the one embedding matrix shared by source, target and output
(§3.4) and the totals, so the page can say 6 × encoder + 6 × decoder + embedding ≈ Table 3's
65 M (base) and 213 M (big). The counts come from ``tc.count_parameters`` on the package's own
layers, built on PyTorch's "meta" device: shapes only, no memory, no arithmetic.

Counted once as page data of the worked_examples experiment (:mod:`.hand_computations`: ``results["model_sizes"]``,
so a page can quote ``[[value:worked_examples.model_sizes.base.total|,]]``); the drawing code writes
the sentences from those counts with :func:`sentence`.
"""

from __future__ import annotations

# Table 3 of the paper (its "params × 10⁶" column) and the sizes of its two models; the
# vocabulary is the shared English–German byte-pair vocabulary of about 37,000 tokens (§5.1)
PAPER = {
    "base": {"d_model": 512, "n_heads": 8, "d_ff": 2048, "n_layers": 6, "table_3": 65_000_000},
    "big": {"d_model": 1024, "n_heads": 16, "d_ff": 4096, "n_layers": 6, "table_3": 213_000_000},
}
VOCAB = 37_000


def count() -> dict:
    """{"base": {...}, "big": {...}}: encoder and decoder block, embedding, whole model, Table 3."""
    import torch

    import tutorial_code as tc

    out = {}
    for name, p in PAPER.items():
        d, h, ff, n = p["d_model"], p["n_heads"], p["d_ff"], p["n_layers"]
        with torch.device("meta"):  # parameters with shapes and no storage
            enc = tc.count_parameters(tc.EncoderLayer(d, h, ff))["total"]
            dec = tc.count_parameters(tc.DecoderLayer(d, h, ff))["total"]
            model = tc.count_parameters(tc.EncoderDecoderTransformer(tc.TransformerConfig(
                vocab_size=VOCAB, d_model=d, n_heads=h, d_ff=ff, n_layers=n)))
        out[name] = {**p, "vocab": VOCAB, "encoder_block": enc, "decoder_block": dec,
                     "embedding": model["embeddings"], "rest": model["total"] - n * (enc + dec) - model["embeddings"],
                     "total": model["total"]}
    return out


def korean_count(n: int) -> str:
    """A count the way Korean says it, in 만 and 억: 3,152,384 → "315만", 214,282,376 → "2억 1,428만"."""
    man = round(n / 10_000)
    eok, rest = divmod(man, 10_000)
    if not eok:
        return f"{man:,}만"
    return f"{eok}억 {rest:,}만" if rest else f"{eok}억"


def korean_exact(n: int) -> str:
    """An exact count the way Korean writes it: 3,152,384 → "315만 2,384", 37,000 → "3만 7,000"."""
    man, rest = divmod(n, 10_000)
    eok, man = divmod(man, 10_000)
    parts = ([f"{eok}억"] if eok else []) + ([f"{man:,}만"] if man else []) + ([f"{rest:,}"] if rest else [])
    return " ".join(parts) or "0"


def sentence(c: dict, template: dict[str, str]) -> dict[str, str]:
    """The exact sum for one model in both languages, every term shown, from ``template``
    (LABELS' "w_sizes"): the blocks, the shared embedding (vocabulary × D), the output layer's
    bias (one per vocabulary entry) and the total, beside Table 3's rounded figure."""
    ko = template["ko"].format(n=c["n_layers"], enc=korean_exact(c["encoder_block"]),
                               dec=korean_exact(c["decoder_block"]), emb=korean_exact(c["embedding"]),
                               vocab=f"{c['vocab']:,}", d=c["d_model"], rest=korean_exact(c["rest"]),
                               total=korean_exact(c["total"]), paper=korean_count(c["table_3"]))
    en = template["en"].format(n=c["n_layers"], enc=f"{c['encoder_block']:,}", dec=f"{c['decoder_block']:,}",
                               emb=f"{c['embedding']:,}", vocab=f"{c['vocab']:,}", d=c["d_model"],
                               rest=f"{c['rest']:,}", total=f"{c['total']:,}",
                               paper=f"{c['table_3'] / 1e6:.0f} M")
    return {"ko": ko, "en": en}
