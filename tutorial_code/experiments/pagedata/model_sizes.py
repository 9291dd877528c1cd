"""The paper's whole models counted from their blocks, to set beside Table 3 of Vaswani et al. (2017).

Lesson 7 counts one encoder block; this adds the decoder block (a second attention, the cross
attention, and a third LayerNorm), the one embedding matrix shared by source, target and output
(§3.4) and the totals, so the page can say 6 × encoder + 6 × decoder + embedding ≈ Table 3's
65 M (base) and 213 M (big). The counts come from ``tc.count_parameters`` on the package's own
layers, built on PyTorch's "meta" device: shapes only, no memory, no arithmetic.

Counted once as page data of the figures experiment (:mod:`.figures`: ``results["model_sizes"]``,
so a page can quote ``[[value:figures.model_sizes.base.total|,]]``); the drawing code writes
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


def sentence(c: dict, template: dict[str, str]) -> dict[str, str]:
    """The sum for one model in both languages, from ``template`` (LABELS' "w_sizes")."""
    ko = template["ko"].format(n=c["n_layers"], enc=korean_count(c["encoder_block"]),
                               dec=korean_count(c["decoder_block"]), emb=korean_count(c["embedding"]),
                               total=korean_count(c["total"]), paper=korean_count(c["table_3"]))
    en = template["en"].format(n=c["n_layers"], enc=f"{c['encoder_block'] / 1e6:.2f} M",
                               dec=f"{c['decoder_block'] / 1e6:.2f} M", emb=f"{c['embedding'] / 1e6:.1f} M",
                               total=f"{c['total'] / 1e6:.1f} M", paper=f"{c['table_3'] / 1e6:.0f} M")
    return {"ko": ko, "en": en}
