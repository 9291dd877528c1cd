"""What the live widgets of lessons 5, 6, 7 and 9 start from, and the states Python checks.

Each lesson page holds a small widget (``docs/assets/javascripts/widgets/``) that recomputes, in
the browser, the numbers of the lesson's worked example for inputs the reader picks. The widget
gets two things from here:

* its **starting inputs**, taken from the experiment's ``Config`` (or the results computed from
  it), so that page, Python and widget start from the same example;
* ``checks``: the numbers of the starting state and of a few other states, computed with the
  package (``tc.count_parameters`` of real modules, ``tc.sinusoidal_table``,
  ``tc.RotaryEmbedding``, generation with and without the key/value cache). The widget never
  reads them; the browser tests drive the widget into each state and compare (to 1e-6).

Lessons 5–7 come from the ``figures`` experiment (:func:`widgets`), lesson 9 from ``cost``
(:func:`cost_widgets`). Everything is small: a few modules built to be counted, one short
generation on the CPU.
"""

from __future__ import annotations

import inspect
import math

import torch

import tutorial_code as tc

F64 = torch.float64
MIB = 2**20

# widths the lesson 5 widget offers (a select); h is then any divisor of D
D_CHOICES = (16, 32, 64, 128, 256, 512, 768, 1024)
# lesson 6's worked example marks position 10 (the page reads worked_examples.sinusoid.table.10.*)
WORKED_POSITION = 10
ROPE_MAX_POSITION = 31  # the RoPE sliders run over positions 0..31
# the models the lesson 9 calculator offers: the architecture and (D, h, layers per stack, d_ff)
# as published; how many attention sub-layers hold score matrices is counted from the model itself
MODELS = {
    "course": (tc.EncoderDecoderTransformer, None),  # this course's reference model: tc.TransformerConfig()
    "base": (tc.EncoderDecoderTransformer, (512, 8, 6, 2048)),  # Vaswani et al. (2017), the base model
    "gpt2": (tc.DecoderOnlyTransformer, (768, 12, 12, 3072)),   # GPT-2 small (Radford et al. 2019)
}


# ---------------------------------------------------------------- lesson 5: heads

def multihead_state(d_model: int, n_heads: int) -> dict:
    """Parameters of tc.MultiHeadAttention(D, h), its d_k, and the columns each head owns."""
    d_k = d_model // n_heads
    return {"D": d_model, "h": n_heads, "d_k": d_k,
            "params": tc.count_parameters(tc.MultiHeadAttention(d_model, n_heads))["total"],
            "columns": [[i * d_k, (i + 1) * d_k - 1] for i in range(n_heads)]}


def multihead(cfg) -> dict:
    shape = dict(cfg.mha_shape)
    D, h = shape["D"], shape["h"]                                   # the lesson's worked example
    states = [(D, h), (512, 8), (512, 1), (768, 12), (16, 16)]
    return {"D": D, "h": h, "d_choices": list(D_CHOICES),
            "checks": [multihead_state(d, n) for d, n in states]}


# ---------------------------------------------------------------- lesson 6: position

def sinusoid_state(table: torch.Tensor, pos: int, dim: int, base: float) -> dict:
    d_model = table.size(1)
    two_i = dim - dim % 2
    return {"pos": pos, "dim": dim, "value": table[pos, dim].item(),
            "wavelength": 2 * math.pi * base ** (two_i / d_model)}


def shuffle_states(X: torch.Tensor, W_Q: torch.Tensor, perm: list[int]) -> list[dict]:
    """Lesson 6's three steps on the toy sentence: as written, shuffled, shuffled with position.

    Attention is softmax(X W_Q Xᵀ / √d) X (W_K = W_V = identity, as in lesson 4). ``max_diff`` is
    the largest change of any word's output against the same word in the unshuffled sentence
    (with the sinusoidal table added to both in the third step: positions stay 0..L−1).
    """
    pe = tc.sinusoidal_table(X.size(0), X.size(1))
    idx = torch.tensor(perm)

    def attend(Z):
        return tc.scaled_dot_product_attention(Z @ W_Q, Z, Z)[0]

    plain, with_pe = attend(X), attend(X + pe)
    steps = [("plain", list(range(X.size(0))), plain, plain),
             ("shuffled", perm, attend(X[idx]), plain[idx]),
             ("position", perm, attend(X[idx] + pe), with_pe[idx])]
    return [{"step": name, "order": order, "output": out.tolist(),
             "max_diff": (out - ref).abs().max().item()} for name, order, out, ref in steps]


def rope_state(q: torch.Tensor, k: torch.Tensor, m: int, n: int) -> dict:
    """rot_m(q)·rot_n(k) with tc.RotaryEmbedding (its ``offset`` is the position)."""
    rope = tc.RotaryEmbedding(q.numel())
    qm, kn = rope(q[None], offset=m)[0], rope(k[None], offset=n)[0]
    return {"m": m, "n": n, "score": (qm @ kn).item(), "q_rot": qm[:2].tolist(), "k_rot": kn[:2].tolist()}


def position(cfg, results: dict) -> dict:
    """Lesson 6's three widgets: the sinusoidal table, the three steps, RoPE."""
    base = inspect.signature(tc.sinusoidal_table).parameters["base"].default
    table = tc.sinusoidal_table(cfg.pe_length, cfg.pe_d_model)
    words = list(cfg.toy_order_ko)                                   # the order of lesson 4's check
    vectors = dict(cfg.toy_vectors)
    X = torch.tensor([vectors[w] for w in words], dtype=F64)
    W_Q = torch.tensor(results["toy"]["W_Q"], dtype=F64)
    perm = results["shuffle"]["perm"]
    rope = results["rope"]
    q, k = torch.tensor(rope["q"], dtype=F64), torch.tensor(rope["k"], dtype=F64)
    rope_start = (2, 0)                                              # m − n = 2, a column of the page's table
    return {
        "sinusoid": {"length": cfg.pe_length, "d_model": cfg.pe_d_model, "base": base,
                     "pos": WORKED_POSITION, "dim": 0,
                     "checks": [sinusoid_state(table, p, d, base) for p, d in
                                [(WORKED_POSITION, 0), (WORKED_POSITION, 16), (WORKED_POSITION, 32),
                                 (57, 5), (cfg.pe_length - 1, cfg.pe_d_model - 1)]]},
        "position_steps": {"words": words, "base": base, "names": results["toy"]["words"], "vectors": X.tolist(),
                    "W_Q": W_Q.tolist(), "perm": perm, "checks": shuffle_states(X, W_Q, perm)},
        "rope": {"d_k": q.numel(), "base": tc.RotaryEmbedding(q.numel()).base, "q": rope["q"], "k": rope["k"],
                 "max_position": ROPE_MAX_POSITION, "m": rope_start[0], "n": rope_start[1],
                 "checks": [rope_state(q, k, m, n) for m, n in [rope_start, (5, 3), (31, 29), (1, 6), (0, 0)]]},
    }


# ---------------------------------------------------------------- lesson 7: the block

def block_state(d_model: int, d_ff: int) -> dict:
    """tc.count_parameters of one EncoderLayer (the head count does not change it: h = 1)."""
    c = tc.count_parameters(tc.EncoderLayer(d_model, 1, d_ff))
    return {"D": d_model, "d_ff": d_ff, "attention": c["attention"], "feed_forward": c["feed_forward"],
            "norms": c["norms"], "total": c["total"], "attention_share": c["attention"] / c["total"],
            "feed_forward_share": c["feed_forward"] / c["total"]}


def block(cfg) -> dict:
    sizes = dict(cfg.block_sizes)
    D, d_ff, h = sizes["base"]                                       # the worked example's block
    ref = sizes["reference"]
    states = [(D, d_ff), (ref[0], ref[1]), (256, 1024), (768, 3072), (D, D)]
    return {"D": D, "d_ff": d_ff, "h": h, "presets": {name: list(s[:2]) for name, s in sizes.items()},
            "checks": [block_state(d, f) for d, f in states]}


def widgets(cfg, results: dict) -> dict:
    """The lesson 5–7 widgets' data, from the ``figures`` experiment's config and results."""
    return {"multihead": multihead(cfg), **position(cfg, results), "block": block(cfg)}


# ---------------------------------------------------------------- lesson 9: cost

def attention_sublayers(model: torch.nn.Module) -> int:
    """How many attention sub-layers a model has, each with its own h score matrices: every
    tc.MultiHeadAttention in it (an encoder–decoder: self-attention in each encoder layer,
    self- and cross-attention in each decoder layer)."""
    return sum(isinstance(m, tc.MultiHeadAttention) for m in model.modules())


def model_sizes() -> dict:
    ref = tc.TransformerConfig()
    out = {}
    for name, (kind, s) in MODELS.items():
        D, h, n, f = s or (ref.d_model, ref.n_heads, ref.n_layers, ref.d_ff)
        with torch.device("meta"):  # the structure only: no memory for the parameters
            model = kind(tc.TransformerConfig(d_model=D, n_heads=h, n_layers=n, d_ff=f))
        out[name] = {"D": D, "h": h, "layers": n, "d_ff": f, "attention": attention_sublayers(model)}
    return out


def n2_state(L: int, name: str, m: dict) -> dict:
    """One L × L matrix, all of a model's, and one layer's multiply-adds, against L/2.

    Projections do one multiply-add per weight per token (W_Q, W_K, W_V, W_O; W_1, W_2 of the
    feed-forward network): weights counted from the package's modules. Scores QKᵀ and the
    weighted sum of values take L·L·d_k each per head: 2·L²·D over h heads.
    """
    def linear_weights(module):
        return sum(p.numel() for p in module.parameters() if p.dim() == 2)

    proj = linear_weights(tc.MultiHeadAttention(m["D"], m["h"]))
    ffn = linear_weights(tc.PositionwiseFeedForward(m["D"], m["d_ff"]))

    def work(n):
        return {"scores": 2 * n * n * m["D"], "projections": n * proj, "ffn": n * ffn}

    full, half = work(L), work(L / 2)
    return {"L": L, "model": name, "entries": L * L, "mib": L * L * 4 / MIB,
            "model_entries": m["h"] * m["attention"] * L * L,
            "model_mib": m["h"] * m["attention"] * L * L * 4 / MIB,
            "entries_ratio": (L * L) / (L / 2) ** 2,
            "work": full, "work_ratio": {k: full[k] / half[k] for k in full},
            "scores_share": full["scores"] / sum(full.values())}


def kv_steps(vocab_size: int, steps: int) -> dict:
    """Per generation step, in layer 1's self-attention: positions run and score entries per head.

    Measured with forward hooks on a decoder-only model of the reference size (CPU), while
    ``tc.generate`` writes ``steps`` tokens with and without the cache.
    """
    model = tc.DecoderOnlyTransformer(tc.TransformerConfig(vocab_size=vocab_size)).eval()
    prompt = torch.ones(1, 1, dtype=torch.long)
    out = {}
    for mode, use_cache in (("cache", True), ("no_cache", False)):
        seen = []
        hook = model.decoder.layers[0].self_attn.register_forward_hook(
            lambda _, args, res, seen=seen: seen.append((args[0].size(1), res[1].size(-2) * res[1].size(-1))))
        try:
            tc.generate(model, prompt, steps, use_cache=use_cache)
        finally:
            hook.remove()
        out[mode] = {"positions": [p for p, _ in seen], "entries": [e for _, e in seen]}
    return out


def kv_state(t: int, measured: dict) -> dict:
    state = {"t": t}
    for mode, m in measured.items():
        state[mode] = {"positions": m["positions"][t - 1], "entries": m["entries"][t - 1],
                       "total_positions": sum(m["positions"][:t]), "total_entries": sum(m["entries"][:t])}
    return state


def cost_widgets(cfg) -> dict:
    """The lesson 9 widgets' data, from the ``cost`` experiment's config."""
    models = model_sizes()
    L = cfg.table_lengths[0]                                         # "our documents are 4,096 tokens"
    n2_states = [(L, "course"), (cfg.table_lengths[-1], "course"), (2 * L, "base"), (1000, "gpt2")]
    N = cfg.gen_lengths[-1]                                          # the page's longest generation
    measured = kv_steps(cfg.vocab_size, N)
    return {
        "n2": {"L": L, "model": "course", "models": models,
               "checks": [n2_state(n, name, models[name]) for n, name in n2_states]},
        "kvcache": {"N": N, "t": N, "model": models["course"],
                    "checks": [kv_state(t, measured) for t in sorted({N, 1, min(10, N), N // 2})]},
    }
