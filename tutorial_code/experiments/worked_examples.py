"""The course's explanatory figures, and the worked examples whose numbers lessons 2–6 quote.

run() computes every example with the package (``tutorial_code``) in float64 on the CPU and
keeps the hand computations beside the code's results; figures() draws, once per language:

    architecture   the encoder–decoder of Vaswani et al. (2017), Figure 1
    qkv_roles      query slip, key cards, book contents: the library of lesson 2, with its numbers
    sdpa_steps     the five steps of softmax(QKᵀ/√d_k)V on a 4×4 example (lesson 3)
    self_attention the toy sentence: word vectors and who attends to whom (lesson 4)
    causal_mask    allowed/blocked grid and the weights after the mask (lesson 4)
    multihead      (B, L, D) → (B, h, L, d_k) → concat → W_O, and 4D² + 4D for any h (lesson 5)
    sinusoid       the sinusoidal table and four of its dimensions (lesson 6)
    rope           rotation by m·θ, and scores that depend only on m − n (lesson 6)

The drawing lives in :mod:`.diagrams` (boxes and arrows) and :mod:`.number_figures` (numbers in
cells, curves); the computations in :mod:`.hand_computations`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

import tutorial_code as tc

from .common import hand_computations as we
from .common.hand_computations import WORDS


@dataclass(frozen=True)
class Config:
    # lesson 2: three books in 2-D. Book 3 is about both topics, so its key card points between
    # the other two and is a little longer (it is the best match for "curious about both").
    library_keys: tuple = ((2.0, 0.0), (0.0, 2.0), (1.5, 1.5))      # index cards k_1..k_3
    library_values: tuple = ((10.0, 0.0), (0.0, 10.0), (6.0, 6.0))  # contents v_1..v_3
    query_one: tuple = (4.0, 0.0)    # a slip that asks for topic 1 only
    query_both: tuple = (1.0, 1.0)   # a slip "curious about both"
    query_sharp: tuple = (16.0, 0.0)  # answer 2.3: the topic-1 slip made longer, keys unchanged
    stretch: float = 10.0            # assignment 1: vectors this many times longer (or wider)
    # lesson 3: L = 4 queries and keys of width d_k = 4 (small integers, so QKᵀ is easy by hand)
    sdpa_q: tuple = ((2, 0, 1, 0), (0, 2, 0, 1), (1, 1, 0, 0), (0, 0, 1, 2))
    sdpa_k: tuple = ((1, 0, 1, 0), (0, 1, 0, 1), (1, 1, 0, 0), (0, 0, 1, 1))
    sdpa_v: tuple = ((1, 0, 0, 2), (0, 2, 1, 0), (1, 1, 0, 0), (0, 0, 2, 1))
    # lesson 4: word vectors over [animal, food, action, demonstrative]; W_K = W_V = identity
    toy_vectors: tuple = (("that", (0, 0, 0, 1)), ("cat", (1, 0, 0, 0)), ("this", (0, 0, 0, 1)),
                          ("fish", (0, 1, 0, 0)), ("ate", (0, 0, 1, 0)))
    toy_order_ko: tuple = ("that", "cat", "this", "fish", "ate")   # 그 고양이가 이 생선을 먹었다
    toy_order_en: tuple = ("that", "cat", "ate", "this", "fish")   # that cat ate this fish
    toy_strength: float = 6.0        # the two hand-set entries of W_Q
    toy_intended: tuple = (("that", "cat"), ("this", "fish"), ("ate", "cat"))  # what a reader expects
    shuffle_d_model: int = 16        # the random MultiHeadAttention of the shuffle check
    shuffle_heads: int = 4
    causal_len: int = 6              # L of the causal-mask example
    causal_d_k: int = 4
    # lesson 5: parameter counts of MultiHeadAttention, and the shapes of one pass
    mha_d_models: tuple = (64, 512)
    mha_heads: tuple = (1, 2, 4, 8)
    block_sizes: tuple = (("base", (512, 2048, 8)), ("reference", (64, 128, 4)))  # (D, d_ff, h)
    mha_shape: tuple = (("B", 2), ("L", 5), ("D", 64), ("h", 4))  # the reference model's D and h
    # lesson 6: positions
    pe_length: int = 100             # positions shown in the sinusoid heatmap
    pe_max_len: int = 8              # max_len of the learned embedding whose error lesson 6 quotes
    pe_d_model: int = 64
    pe_dims: tuple = (0, 4, 16, 32)  # the curves drawn
    rope_positions: int = 8          # m, n in 0..7 for the score matrix
    rope_d_k: int = 8
    rope_arrows: int = 6             # positions drawn as arrows
    seed: int = 0

    @classmethod
    def tiny(cls) -> "Config":
        # the full size already takes seconds, and tiny test builds of the site must find
        # every key the pages quote: tiny is the full size
        return cls()


# every claim here is exact (up to float64 rounding), so the tiny size keeps the same gates
GATES = {
    "library.max_hand_vs_code_diff": (0.0, 1e-12),          # the hand computation = the code
    "library.max_blend_vs_weighted_sum_diff": (0.0, 1e-12), # output = Σ w_i v_i
    "library.one.top_book": (1, 1),                          # the topic-1 slip picks book 1 ...
    "library.both.max_weight": (0.0, 0.6),                   # ... the "both" slip blends
    "library.sharp.max_weight": (0.99, 1.0),                 # answer 2.3: a longer slip reads ~one book
    "library.both.weight_sum": (1.0 - 1e-12, 1.0 + 1e-12),
    "library.stretch.max_longer_unscaled": (0.99, 1.0),      # unscaled ×10 piles onto one book
    "library.stretch.max_wider_unscaled": (0.99, 1.0),
    "library.stretch.max_wider_scaled": (0.0, 0.95),         # ÷√d_k keeps some blend
    "library.stretch.max_longer_scaled": (0.99, 1.0),        # ... but cannot undo longer vectors
    "sdpa.code_vs_steps_max_diff": (0.0, 1e-12),
    "sdpa.row_sum_max_err": (0.0, 1e-12),
    "toy.word.ate.rule_ok": (1, 1),                          # action → animal: the cat
    "toy.word.this.rule_ok": (1, 1),                         # demonstrative → food: this fish
    "toy.word.that.rule_ok": (0, 0),                         # the failure the figure shows
    "toy.word.cat.is_uniform": (1, 1),                       # the rule says nothing for nouns
    "toy.language_order_max_diff": (0.0, 1e-12),
    "shuffle.toy_max_diff": (0.0, 1e-12),
    "shuffle.mha_max_diff": (0.0, 1e-12),
    "shuffle.with_position_max_diff": (1e-3, 1e3),           # position information breaks it
    "causal.max_blocked_weight": (0.0, 0.0),                 # exactly zero above the diagonal
    "causal.row_sum_max_err": (0.0, 1e-12),
    "multihead.max_spread": (0, 0),                          # same count for every head count
    "multihead.max_formula_diff": (0, 0),                    # = 4D² + 4D
    "sinusoid.formula_max_diff": (0.0, 1e-9),
    "rope.max_diagonal_deviation": (0.0, 1e-12),             # depends only on m − n
    "rope.additive_diagonal_deviation": (1e-3, 1e3),         # the added table does not
    "rope.norm_change": (0.0, 1e-12),                        # a rotation keeps lengths
}
TINY_GATES = GATES


def error_message(fn) -> str:
    """The ValueError message ``fn`` raises, as the reader would see it (quoted by lesson 6)."""
    try:
        fn()
    except ValueError as exc:
        return str(exc)
    raise AssertionError("expected a ValueError, got none")


def run(cfg: Config, ctx) -> dict:
    gen = ctx.generator()
    lib = we.library([list(k) for k in cfg.library_keys], [list(v) for v in cfg.library_values],
                     {"one": list(cfg.query_one), "both": list(cfg.query_both),
                      "sharp": list(cfg.query_sharp)}, cfg.stretch)
    lib["stretch"].update(stretch_longer(lib))
    sdpa = we.sdpa_steps(cfg.sdpa_q, cfg.sdpa_k, cfg.sdpa_v)
    vectors = {w: list(v) for w, v in cfg.toy_vectors}
    toy = we.toy_sentence(vectors, {"ko": list(cfg.toy_order_ko), "en": list(cfg.toy_order_en)},
                          cfg.toy_strength)
    toy["words"] = WORDS
    for entry in toy["word"].values():  # the word attended to most, as each page writes it
        entry["top_word"] = entry["top"] and {lang: WORDS[lang][entry["top"]] for lang in WORDS}
    for word, intended in cfg.toy_intended:  # 1 where the rule's favourite is the intended word
        toy["word"][word]["intended"] = intended
        toy["word"][word]["rule_ok"] = int(toy["word"][word]["top"] == intended)
    X = we.t64([vectors[w] for w in cfg.toy_order_ko])
    shuffle = we.shuffle_demo(X, we.t64(toy["W_Q"]), gen, cfg.shuffle_d_model, cfg.shuffle_heads)
    shuffle["words"] = {lang: [WORDS[lang][cfg.toy_order_ko[i]] for i in shuffle["perm"]]
                        for lang in WORDS}
    results = {
        "library": lib,
        "sdpa": sdpa,
        "toy": toy,
        "shuffle": shuffle,
        "causal": we.causal_example(cfg.causal_len, cfg.causal_d_k, gen),
        "multihead": we.multihead_facts(list(cfg.mha_d_models), list(cfg.mha_heads), dict(cfg.mha_shape)),
        "block_params": we.block_params(dict(cfg.block_sizes)),
        "sinusoid": we.sinusoid_facts(cfg.pe_length, cfg.pe_d_model, list(cfg.pe_dims)),
        "rope": we.rope_facts(cfg.rope_positions, cfg.rope_d_k, gen, cfg.rope_arrows),
    }
    too_long = cfg.pe_max_len + 1
    results["messages"] = {"learned_position": error_message(
        lambda: tc.LearnedPositionalEmbedding(cfg.pe_max_len, 4)(torch.zeros(1, too_long, 4))),
        "learned_position_length": too_long}
    return results


def stretch_longer(lib: dict) -> dict:
    """Assignment 1's model answer: the "both" slip with every vector ``factor`` times longer.

    The scores themselves, the weights when ÷√d_k is kept after all (d_k has not changed, so
    it cannot undo the factor² growth), and the blended outputs of the settings. Added to
    ``library.stretch`` beside the keys of :func:`hand_computations.stretch_demo`.
    """
    factor, d_k = lib["stretch"]["factor"], lib["d_k"]
    q, K = we.t64([lib["both"]["query"]]), we.t64(lib["keys"])            # (1, d_k), (3, d_k)
    V = we.t64(lib["values"])                                            # (3, 2)
    dots = (factor * q) @ (factor * K).T                                 # (1, 3): factor² × q·k
    scaled = torch.softmax(dots / math.sqrt(d_k), -1)

    def output(scores):                                                  # (2,): weights @ V
        return (torch.softmax(scores, -1) @ V)[0].tolist()

    return {
        "longer_dots": dots[0].tolist(),
        "longer_scaled": scaled[0].tolist(),
        "max_longer_scaled": scaled.max().item(),
        "output_unscaled": output(q @ K.T),
        "output_longer_unscaled": output(dots),
        "output_longer_scaled": output(dots / math.sqrt(d_k)),
    }
