"""What the live widgets of lessons 2, 3 and 4 start from, and states the package computed.

Each lesson page has a small interactive version of its worked example. The page's JavaScript
does the arithmetic itself (dot products, softmax, masks, the sinusoidal table) from the inputs
below, so the numbers on screen are computed in the reader's browser. To be sure the page does
the same thing as this package, every widget also gets ``checks``: a few states (the inputs a
reader can reach with the controls) and the values ``tutorial_code`` computes for them, in
float64. The browser tests drive the widget to each state and compare; the page itself never
shows the checks.

    library(cfg, results)         lesson 2: one query against three books on a 2-D plane
    sdpa(cfg, results)            lesson 3: the five steps on the L = 4, d_k = 4 example, and
                                  the peak softmax weight as d_k grows
    self_attention(cfg, results)  lesson 4: the toy sentence, a causal mask, shuffled words

The inputs come from ``worked_examples.Config`` and the worked examples' results, never retyped.
"""

from __future__ import annotations

import math

import torch

import tutorial_code as tc

from ..common.hand_computations import WORDS, t64

# the seeded generator of the d_k slider (lesson 3): "minimal standard" Park–Miller, small
# enough to write the same way in JavaScript, so the page needs no stored random numbers
MINSTD_A, MINSTD_M = 48271, 2**31 - 1
DK_SWEEP = (4, 8, 16, 32, 64, 128, 256, 512)
DK_SEED = 20240


def widgets(cfg, results: dict) -> dict:
    """Every widget of lessons 2–4, by the name the pages' ``[[widget:worked_examples.NAME]]`` use."""
    return {"library": library(cfg, results), "sdpa": sdpa(cfg, results),
            "self_attention": self_attention(cfg, results)}


def attend(q, k, v, mask=None, scale=True) -> tuple[torch.Tensor, torch.Tensor]:
    """The package's attention; without ÷√d_k it is the same function given √d_k·q."""
    q = t64(q) if not isinstance(q, torch.Tensor) else q
    if not scale:
        q = q * math.sqrt(q.size(-1))
    return tc.scaled_dot_product_attention(q, k, v, mask)


# ---------------------------------------------------------------- lesson 2: the library

def library_state(keys, values, query, scale: bool, stretch: float) -> dict:
    """One query: stretch multiplies the query and the key cards (what is matched), not V."""
    q, K, V = t64([query]) * stretch, t64(keys) * stretch, t64(values)
    out, w = attend(q, K, V, scale=scale)
    dots = (q @ K.T)[0]
    return {"inputs": {"query": list(query), "scale": scale, "stretch": stretch},
            "dots": dots.tolist(), "scores": (dots / math.sqrt(K.size(-1)) if scale else dots).tolist(),
            "weights": w[0].tolist(), "output": out[0].tolist()}


def library(cfg, results: dict) -> dict:
    lib = results["library"]
    keys, values = lib["keys"], lib["values"]
    one, both = list(cfg.query_one), list(cfg.query_both)
    step = 0.5  # one arrow key press moves the query this far
    free = [both[0] + 2 * step, both[1]]  # "both", then → → on the plane
    return {
        "keys": keys, "values": values, "d_k": lib["d_k"],
        "presets": [["one", one], ["both", both]], "start": "one",  # a list: the order of the page
        "stretch": cfg.stretch, "step": step, "extent": 5.0,
        "checks": [library_state(keys, values, one, True, 1.0),       # the page's slip 1
                   library_state(keys, values, both, False, cfg.stretch),  # assignment 1
                   library_state(keys, values, both, True, cfg.stretch),
                   library_state(keys, values, free, True, 1.0)],
    }


# ---------------------------------------------------------------- lesson 3: five steps

def minstd_uniform(seed: int, n: int) -> list[float]:
    """n numbers spread evenly over [−√3, √3] (mean 0, variance 1) from the seed."""
    state, out = seed, []
    for _ in range(n):
        state = state * MINSTD_A % MINSTD_M
        out.append((2 * state / MINSTD_M - 1) * math.sqrt(3))
    return out


def peak_weights(L: int, d_k: int) -> dict:
    """L random queries and keys of width d_k: each row's largest weight, averaged over rows."""
    x = t64(minstd_uniform(DK_SEED + d_k, 2 * L * d_k)).reshape(2, L, d_k)  # Q first, then K
    Q, K = x[0], x[1]
    peak = {}
    for name, scale in (("scaled", True), ("unscaled", False)):
        _, w = attend(Q, K, K, scale=scale)
        peak[name] = w.max(dim=-1).values.mean().item()
    return {"inputs": {"d_k": d_k}, "peak_scaled": peak["scaled"], "peak_unscaled": peak["unscaled"]}


def sdpa_state(Q, K, V, causal: bool) -> dict:
    Q, K, V = t64(Q), t64(K), t64(V)
    mask = tc.causal_mask(Q.size(0)) if causal else None
    out, w = attend(Q, K, V, mask)
    return {"inputs": {"mask": "causal" if causal else "none"}, "weights": w.tolist(),
            "output": out.tolist()}


def sdpa(cfg, results: dict) -> dict:
    s = results["sdpa"]
    L = s["L"]
    return {
        "Q": s["Q"], "K": s["K"], "V": s["V"],
        "sweep": {"d_k": list(DK_SWEEP), "L": L, "seed": DK_SEED, "a": MINSTD_A, "m": MINSTD_M},
        "checks": [sdpa_state(s["Q"], s["K"], s["V"], False), sdpa_state(s["Q"], s["K"], s["V"], True)]
                  + [peak_weights(L, d) for d in (DK_SWEEP[0], 64, DK_SWEEP[-1])],
    }


# ---------------------------------------------------------------- lesson 4: self-attention

def toy_state(vectors, order, W_Q, perm, position: bool, causal: bool) -> dict:
    """The toy sentence in ``order`` rearranged by ``perm`` (None: as written).

    K = V = X (W_K = W_V = identity, as in the lesson), Q = X W_Q. With ``position`` the
    sinusoidal table of positions 0…L−1 is added to X after the rearranging; ``max_diff`` is
    the largest change of any word's output against the sentence as written, same settings.
    """
    L = len(order)
    pe = tc.sinusoidal_table(L, len(vectors[order[0]]))

    def run(words):
        X = t64([vectors[w] for w in words]) + (pe if position else 0)
        mask = tc.causal_mask(L) if causal else None
        return attend(X @ t64(W_Q), X, X, mask)

    words = [order[i] for i in perm] if perm else list(order)
    out, w = run(words)
    out0, _ = run(order)
    moved = out0[list(perm)] if perm else out0                        # each word's output as written
    return {"inputs": {"perm": perm, "position": position, "causal": causal}, "order": words,
            "weights": w.tolist(), "output": out.tolist(), "max_diff": (out - moved).abs().max().item()}


def self_attention(cfg, results: dict) -> dict:
    toy, shuffle = results["toy"], results["shuffle"]
    vectors, W_Q = toy["vectors"], toy["W_Q"]
    L = len(cfg.toy_order_ko)
    # the shuffle button walks through these: the lesson's shuffle, then reversed, then rotated
    perms = [shuffle["perm"], list(range(L))[::-1], list(range(1, L)) + [0]]
    orders = {lang: list(toy["lang"][lang]["order"]) for lang in toy["lang"]}
    checks = {lang: [toy_state(vectors, order, W_Q, None, False, False),
                     toy_state(vectors, order, W_Q, None, False, True),
                     toy_state(vectors, order, W_Q, perms[0], False, False),
                     toy_state(vectors, order, W_Q, perms[0], True, False),
                     toy_state(vectors, order, W_Q, perms[0], False, True)]  # the mask knows order
              for lang, order in orders.items()}
    return {"vectors": vectors, "orders": orders, "words": WORDS, "W_Q": W_Q, "perms": perms,
            "features": ["animal", "food", "action", "demonstrative"], "checks": checks}
