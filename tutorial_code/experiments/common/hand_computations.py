"""The small worked examples that lessons 2–6 compute by hand, each checked against the package.

Every function returns plain numbers (nested lists and dicts) for the pages; nothing here is typed
in. The examples run on the CPU in float64: they are a few dozen numbers, and float64 on the CPU
gives the same digits on every machine, so a page can compare a hand computation with the code's
result down to rounding (about 1e-16).

Reading order follows the course: library (lesson 2) → five steps (lesson 3) → toy sentence,
shuffling and the causal mask (lesson 4) → multi-head shapes and parameters (lesson 5) →
sinusoids and RoPE (lesson 6).
"""

from __future__ import annotations

import math

import torch

import tutorial_code as tc
from tutorial_code.attention import attention_by_hand

F64 = torch.float64

# the toy sentence of lesson 4: one vector per word id, shown in each language's words
WORDS = {
    "ko": {"that": "그", "cat": "고양이가", "this": "이", "fish": "생선을", "ate": "먹었다"},
    "en": {"that": "that", "cat": "cat", "this": "this", "fish": "fish", "ate": "ate"},
}



def t64(rows) -> torch.Tensor:
    """A float64 CPU tensor from nested lists."""
    return torch.tensor(rows, dtype=F64)


def max_diff(a, b) -> float:
    return (torch.as_tensor(a, dtype=F64) - torch.as_tensor(b, dtype=F64)).abs().max().item()


# ---------------------------------------------------------------- lesson 2: the library

def library_query(q: list[float], keys, values) -> dict:
    """One query of the library: the code's numbers, the hand numbers and their difference."""
    K, V = t64(keys), t64(values)
    out, w = tc.scaled_dot_product_attention(t64([q]), K, V)             # (1, 2), (1, 3)
    out, w = out[0], w[0]
    hand = attention_by_hand(q, keys, values)
    weighted_sum = (w[:, None] * V).sum(dim=0)                           # Σ_i w_i v_i
    code_dots = (K @ t64(q)).tolist()
    return {
        "query": q,
        "dots": code_dots,
        "scaled": [d / math.sqrt(len(q)) for d in code_dots],
        "weights": w.tolist(),
        "output": out.tolist(),
        "weighted_sum": weighted_sum.tolist(),
        "top_book": int(w.argmax()) + 1,                                  # books are numbered 1..3
        "max_weight": w.max().item(),
        "weight_sum": w.sum().item(),
        "hand": hand,
        "hand_vs_code_max_diff": max(max_diff(hand["weights"], w), max_diff(hand["output"], out)),
        "blend_vs_weighted_sum_diff": max_diff(out, weighted_sum),
    }


def library(keys, values, queries: dict[str, list[float]], stretch: float) -> dict:
    """Lesson 2: three books, one query per entry of ``queries``; plus assignment 1 (below)."""
    res = {"keys": keys, "values": values, "d_k": len(keys[0]), "sqrt_d_k": math.sqrt(len(keys[0]))}
    for name, q in queries.items():
        res[name] = library_query(q, keys, values)
    res["max_hand_vs_code_diff"] = max(res[n]["hand_vs_code_max_diff"] for n in queries)
    res["max_blend_vs_weighted_sum_diff"] = max(res[n]["blend_vs_weighted_sum_diff"] for n in queries)
    res["stretch"] = stretch_demo(queries["both"], keys, stretch)
    return res


def stretch_demo(q: list[float], keys, factor: float) -> dict:
    """Assignment 1: the "both" query without ÷√d_k, when the vectors get bigger.

    ``longer``: every vector ``factor`` times longer, so every score grows factor² times and
    softmax piles onto one book. ``wider``: every component repeated ``factor`` times (d_k grows
    ``factor`` times, like a wider model); the scores grow ``factor`` times, and dividing by the
    new √d_k takes back √factor of that.
    """
    q, K = t64([q]), t64(keys)                                           # (1, d_k), (3, d_k)
    d_k = q.size(-1)
    n = int(factor)
    qw, Kw = q.repeat_interleave(n, dim=-1), K.repeat_interleave(n, dim=-1)  # (1, n·d_k), (3, n·d_k)

    def weights(scores):
        return torch.softmax(scores, -1)[0].tolist()

    out = {
        "factor": factor,
        "unscaled": weights(q @ K.T),
        "scaled": weights(q @ K.T / math.sqrt(d_k)),
        "longer_unscaled": weights((factor * q) @ (factor * K).T),
        "wider_d_k": d_k * n,
        "wider_unscaled": weights(qw @ Kw.T),
        "wider_scaled": weights(qw @ Kw.T / math.sqrt(d_k * n)),
    }
    out.update({f"max_{k}": max(out[k]) for k in ("unscaled", "scaled", "longer_unscaled",
                                                   "wider_unscaled", "wider_scaled")})
    return out


# ---------------------------------------------------------------- lesson 3: five steps

def sdpa_steps(Q, K, V) -> dict:
    """The five steps of softmax(QKᵀ/√d_k)V written out, and the package's result beside them."""
    Q, K, V = t64(Q), t64(K), t64(V)
    d_k = Q.size(-1)
    scores = Q @ K.T                                   # step 2: (L, L) dot products
    scaled = scores / math.sqrt(d_k)                   # step 3
    weights = torch.softmax(scaled, dim=-1)            # step 4: each row sums to 1
    output = weights @ V                               # step 5: (L, d_k)
    out_code, w_code = tc.scaled_dot_product_attention(Q, K, V)
    return {
        "L": Q.size(0), "d_k": d_k, "sqrt_d_k": math.sqrt(d_k),
        "Q": Q.tolist(), "K": K.tolist(), "V": V.tolist(),
        "scores": scores.tolist(), "scaled": scaled.tolist(),
        "weights": weights.tolist(), "output": output.tolist(),
        "row_sums": weights.sum(-1).tolist(),
        "row_sum_max_err": (weights.sum(-1) - 1).abs().max().item(),
        "top_key": (weights.argmax(-1) + 1).tolist(),
        "code_vs_steps_max_diff": max(max_diff(out_code, output), max_diff(w_code, weights)),
    }


# ---------------------------------------------------------------- lesson 4: toy sentence

def toy_sentence(vectors: dict[str, list[float]], orders: dict[str, list[str]], strength: float) -> dict:
    """Self-attention over hand-set word vectors; W_Q sends demonstrative → food, action → animal.

    Features are [animal, food, action, demonstrative]; W_K = W_V = identity. A row of W_Q is
    what a feature asks for: the demonstrative row asks for food, the action row for an animal,
    the animal and food rows ask for nothing (their queries are zero, so they spread evenly).
    Each language's sentence is computed in its own word order.
    """
    W_Q = torch.zeros(4, 4, dtype=F64)
    W_Q[3, 1] = strength   # demonstrative → looks for food
    W_Q[2, 0] = strength   # action → looks for an animal
    res = {"W_Q": W_Q.tolist(), "strength": strength, "vectors": vectors, "lang": {}}
    for lang, order in orders.items():
        X = t64([vectors[w] for w in order])                              # (L, 4)
        out, w = tc.scaled_dot_product_attention(X @ W_Q, X, X)           # K = X I, V = X I
        res["lang"][lang] = {"order": order, "weights": w.tolist(), "output": out.tolist()}
    first = next(iter(orders))
    w = t64(res["lang"][first]["weights"])
    order = orders[first]
    res["word"] = {}
    for i, word in enumerate(order):
        top = int(w[i].argmax())
        uniform = (w[i] - 1 / len(order)).abs().max().item() < 1e-15
        res["word"][word] = {"top": None if uniform else order[top],  # no favourite when uniform
                             "top_weight": w[i, top].item(), "is_uniform": int(uniform),
                             "weights": {o: w[i, j].item() for j, o in enumerate(order)},
                             "output": res["lang"][first]["output"][i]}
    res["uniform_weight"] = 1 / len(orders[first])
    # the other language's order is a permutation of the first: the same word gets the same output
    res["language_order_max_diff"] = max(
        max_diff(res["lang"][lang]["output"][i], res["word"][word]["output"])
        for lang in orders for i, word in enumerate(orders[lang]))
    return res


def shuffle_demo(X: torch.Tensor, W_Q: torch.Tensor, gen: torch.Generator, d_model: int,
                 n_heads: int) -> dict:
    """Without position information, shuffling the words only shuffles the outputs.

    Checked twice: the toy sentence through scaled dot-product attention, and random vectors
    through a randomly initialised MultiHeadAttention. Adding the sinusoidal encoding breaks it.
    """
    L = X.size(0)  # the MHA's initial weights come from the global seed the runner sets
    perm = torch.randperm(L, generator=gen)
    while bool((perm == torch.arange(L)).all()):
        perm = torch.randperm(L, generator=gen)
    out, _ = tc.scaled_dot_product_attention(X @ W_Q, X, X)
    Xs = X[perm]
    out_s, _ = tc.scaled_dot_product_attention(Xs @ W_Q, Xs, Xs)
    mha = tc.MultiHeadAttention(d_model, n_heads).double().eval()
    Y = torch.randn(1, L, d_model, generator=gen, dtype=F64)
    pe = tc.sinusoidal_table(L, d_model)[None]                           # (1, L, D)
    with torch.no_grad():
        y, _ = mha(Y)
        y_s, _ = mha(Y[:, perm])
        z, _ = mha(Y + pe)
        z_s, _ = mha(Y[:, perm] + pe)                                     # positions stay 0..L-1
    return {
        "perm": perm.tolist(),
        "toy_max_diff": max_diff(out_s, out[perm]),
        "mha_max_diff": max_diff(y_s, y[:, perm]),
        "mha_d_model": d_model, "mha_heads": n_heads,
        "with_position_max_diff": max_diff(z_s, z[:, perm]),
    }


def causal_example(L: int, d_k: int, gen: torch.Generator) -> dict:
    """Random scores, causal mask: weights above the diagonal come out exactly 0."""
    q = torch.randn(L, d_k, generator=gen, dtype=F64)
    k = torch.randn(L, d_k, generator=gen, dtype=F64)
    mask = tc.causal_mask(L)                                              # (L, L), True = may attend
    _, w = tc.scaled_dot_product_attention(q, k, k, mask)
    _, w_free = tc.scaled_dot_product_attention(q, k, k)
    return {
        "L": L, "mask": mask.int().tolist(), "weights": w.tolist(), "weights_unmasked": w_free.tolist(),
        "max_blocked_weight": w[~mask].abs().max().item(),
        "n_allowed": int(mask.sum()), "n_blocked": int((~mask).sum()), "n_entries": L * L,
        "row_sum_max_err": (w.sum(-1) - 1).abs().max().item(),
        "first_row": w[0].tolist(),
    }


# ---------------------------------------------------------------- lesson 5: multi-head

def multihead_facts(d_models: list[int], heads: list[int], shape_example: dict) -> dict:
    """Parameter counts of MultiHeadAttention for every (D, h), and the shapes of one pass."""
    counts = {}
    for d in d_models:
        per_h = {str(h): tc.count_parameters(tc.MultiHeadAttention(d, h))["total"] for h in heads}
        counts[str(d)] = {"by_heads": per_h, "formula": 4 * d * d + 4 * d,
                          "weights": 4 * d * d, "biases": 4 * d,
                          "spread": max(per_h.values()) - min(per_h.values()),
                          "formula_diff": max(abs(c - (4 * d * d + 4 * d)) for c in per_h.values())}
    B, L, D, h = (shape_example[k] for k in ("B", "L", "D", "h"))
    mha = tc.MultiHeadAttention(D, h).double().eval()
    x = torch.zeros(B, L, D, dtype=F64)
    with torch.no_grad():
        q = mha.split_heads(mha.W_Q(x))                                   # (B, h, L, d_k)
        out, w = mha(x)
    shapes = {"input": list(x.shape), "split": list(q.shape), "weights": list(w.shape),
              "concat": list(mha.merge_heads(q).shape), "output": list(out.shape)}
    return {"params": counts, "heads": heads, "d_models": d_models,
            "max_spread": max(c["spread"] for c in counts.values()),
            "max_formula_diff": max(c["formula_diff"] for c in counts.values()),
            "shapes": shapes, "B": B, "L": L, "D": D, "h": h, "d_k": D // h,
            # the columns of X W_Q each head gets: head i has i·d_k … (i+1)·d_k − 1
            "columns": [[i * (D // h), (i + 1) * (D // h) - 1] for i in range(h)]}


# ---------------------------------------------------------------- lesson 7: the block

def block_params(sizes: dict[str, tuple[int, int, int]]) -> dict:
    """How one encoder layer's parameters split between attention, feed-forward and norms.

    ``sizes`` maps a name to (d_model, d_ff, n_heads); counts come from tc.count_parameters.
    """
    out = {}
    for name, (d_model, d_ff, n_heads) in sizes.items():
        c = tc.count_parameters(tc.EncoderLayer(d_model, n_heads, d_ff))
        out[name] = {"d_model": d_model, "d_ff": d_ff, "n_heads": n_heads,
                     "attention": c["attention"], "feed_forward": c["feed_forward"],
                     "norms": c["norms"], "total": c["total"],
                     "attention_share": c["attention"] / c["total"],
                     "feed_forward_share": c["feed_forward"] / c["total"]}
    return out


# ---------------------------------------------------------------- lesson 6: position

def sinusoid_facts(length: int, d_model: int, dims: list[int], base: float = 10000.0) -> dict:
    """The sinusoidal table, a few of its columns and their wavelengths 2π·base^(2i/D)."""
    pe = tc.sinusoidal_table(length, d_model)                             # (L, D)
    pos = torch.arange(length, dtype=F64)
    wavelengths, check = {}, 0.0
    for dim in dims + [d_model - 2]:
        two_i = dim - dim % 2
        lam = 2 * math.pi * base ** (two_i / d_model)
        wave = torch.sin(2 * math.pi * pos / lam) if dim % 2 == 0 else torch.cos(2 * math.pi * pos / lam)
        check = max(check, max_diff(pe[:, dim], wave))
        wavelengths[str(dim)] = lam
    return {"length": length, "d_model": d_model, "dims": dims, "table": pe.tolist(),
            "curves": {str(d): pe[:, d].tolist() for d in dims},
            "wavelength": wavelengths, "formula_max_diff": check,
            "min": pe.min().item(), "max": pe.max().item(), "row0": pe[0, :8].tolist()}


def rope_facts(positions: int, d_k: int, gen: torch.Generator, arrow_positions: int) -> dict:
    """RoPE: q at position m, k at position n; the score depends only on m − n.

    The same q is placed at every position 0..P−1 (and the same k), rotated by
    ``tc.RotaryEmbedding``; S[m, n] = rot_m(q)·rot_n(k). For contrast, adding the sinusoidal
    table instead gives scores that are not constant along the diagonals.
    """
    rope = tc.RotaryEmbedding(d_k)
    q = torch.randn(d_k, generator=gen, dtype=F64)
    k = torch.randn(d_k, generator=gen, dtype=F64)
    Rq = rope(q.expand(positions, d_k).clone())                           # (P, d_k), row m rotated by m·θ
    Rk = rope(k.expand(positions, d_k).clone())
    S = Rq @ Rk.T                                                         # (P, P)
    A = (q + tc.sinusoidal_table(positions, d_k)) @ (k + tc.sinusoidal_table(positions, d_k)).T

    def diagonal_deviation(M):
        return max((M.diagonal(off) - M.diagonal(off).mean()).abs().max().item()
                   for off in range(-positions + 1, positions))

    # the first pair (θ_0 = 1 rad per position) of a unit vector, for the arrow picture
    unit = torch.zeros(arrow_positions, 2, dtype=F64)
    unit[:, 0] = 1.0
    arrows = tc.RotaryEmbedding(2)(unit)                                  # (P, 2)
    theta = [rope.base ** (-2 * i / d_k) for i in range(d_k // 2)]
    return {"positions": positions, "d_k": d_k, "q": q.tolist(), "k": k.tolist(),  # q, k: for lesson 6's widget
            "scores": S.tolist(), "additive_scores": A.tolist(),
            "max_diagonal_deviation": diagonal_deviation(S),
            "additive_diagonal_deviation": diagonal_deviation(A),
            "theta": theta, "arrows": arrows.tolist(),
            "norm_change": max_diff(Rq.norm(dim=-1), q.norm().expand(positions)),
            "by_offset": {str(off): S.diagonal(-off).mean().item() for off in range(positions)}}
