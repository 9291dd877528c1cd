"""Lesson 9's page data: the n² calculator's and the step counter's data, and the claims of its timings.

The widgets' data (:func:`.widgets_architecture.cost_widgets`) comes from the cost experiment's
``Config``; the claims check the sentences lesson 9 states about the measured timings.
"""

from __future__ import annotations

import torch

import tutorial_code as tc

from ..common.gates import Claim
from .widgets_architecture import cost_widgets, model_sizes

MIB = 2**20


def page_data(cfg, results: dict, files, out_dir) -> dict:
    return {"widgets": {**cost_widgets(cfg),  # lesson 9's calculator and step counter
                        "kvmeasure": kv_measure(cfg, results)},  # and its "measure on this device"
            "kv_memory": kv_memory(cfg),   # the closing page: what the cache holds
            "crossover": score_crossover()}


MEASURE_REPEATS = 3  # the reader's browser times each length and mode this many times (median)


def kv_measure(cfg, results: dict) -> dict:
    """Lesson 9's "measure on this device": what the page times and what it is drawn beside.

    The page builds the model the ``cost`` experiment timed (its sizes; random weights, as that
    model's were, since the time does not depend on their values), generates each of its
    lengths from a one-token prompt with and without the cache, and draws milliseconds per
    token beside this build's PyTorch numbers. ``n_parameters`` is checked against the
    experiment's count (CHECKS), so the two cannot time different models.
    """
    mcfg = tc.TransformerConfig(vocab_size=cfg.vocab_size)  # as cost.kv_cache_speed builds it
    kv, device = results["kv"], results["device"]
    model = tc.DecoderOnlyTransformer(mcfg)
    config = {k: getattr(mcfg, k) for k in ("vocab_size", "d_model", "n_heads", "d_ff", "n_layers",
                                             "norm_first", "position", "pad_id")}
    return {"config": {**config, "eps": model.decoder.layers[0].sublayer1.norm.eps},
            "n_parameters": tc.count_parameters(model)["total"],
            "parameters_match": int(tc.count_parameters(model)["total"] == kv["n_parameters"]["total"]),
            "lengths": list(kv["lengths"]), "repeats": min(MEASURE_REPEATS, cfg.gen_repeats), "seed": cfg.seed,
            "pytorch": {"device": device["name"], "type": device["type"], "threads": device["threads"],
                        "torch": device["torch"],
                        "rows": [{"N": r["N"], "cache_ms": 1000 * r["cache_s"] / r["N"],
                                  "no_cache_ms": 1000 * r["no_cache_s"] / r["N"]} for r in kv["rows"]]}}


CHECKS = {"widgets.kvmeasure.parameters_match": (1, 1)}  # the page times the model lesson 9 timed


LESSON_9 = "docs/{lang}/lessons/cost-and-impact.md"
CLAIMS = {  # timings lesson 9 describes in words
    "attention.slope_materialised": Claim(  # time grows about like L² at large L
        1.5, 2.6, page=LESSON_9, sentence="지수 2는 시간이 $L^2$에 비례한다는 뜻입니다."),
    # lesson 9 says the fused kernel's time still grows close to L² (the closing page's exponent
    # and the guide's "near 2" say the same): the rounded slope must be nearer 2 than 1.5 or 2.5
    "attention.slope_fused": Claim(  # saving memory does not remove the L² work
        1.75, 2.25, page=LESSON_9, sentence="빨라진 것은 상수배일 뿐, 시간은 여전히 $L^2$에 가깝게 늘어납니다."),
    "attention.memory_ratio_longest": Claim(  # materialised needs far more than fused
        4, 1e9, page=LESSON_9, sentence="…배 차이입니다. 가중치 행렬 $h \\times L \\times L$만 해도 …"),
    # a model this small is launch-latency bound on a GPU, where the cache may not pay off in
    # seconds: the measured speed-up is checked on the CPU only
    "kv.speedup_longest": Claim(  # the cache pays off on long generations
        1.5, 1e9, when="cpu", page=LESSON_9, sentence="캐시를 쓰면 …초로 …배 빨랐습니다"),
}


LLAMA2_70B = {"layers": 80, "D": 8192, "h": 64, "kv_heads": 8, "context": 4096, "number_bytes": 2}


def kv_memory(cfg) -> dict:
    """Bytes of the key/value cache: 2 (K and V) · layers · L · (kv heads · d_k) · bytes per number.

    ``cfg`` is the ``cost`` experiment's ``Config`` (its ``gen_lengths``).

    For this course's decoder (float32) at the page's longest generation, and for Llama 2 70B
    at its full context with one key/value head per query head (multi-head), its 8 groups
    (grouped-query, Ainslie et al. 2023) and one shared head (multi-query, Shazeer 2019).
    """
    ref = tc.TransformerConfig()
    course = {"layers": ref.n_layers, "D": ref.d_model, "h": ref.n_heads, "kv_heads": ref.n_heads,
              "context": cfg.gen_lengths[-1], "number_bytes": 4}

    def cache(m, kv_heads):
        per_token = 2 * m["layers"] * kv_heads * (m["D"] // m["h"]) * m["number_bytes"]
        return {"kv_heads": kv_heads, "per_token_bytes": per_token, "per_token_kib": per_token / 2**10,
                "bytes": per_token * m["context"], "mib": per_token * m["context"] / MIB,
                "gib": per_token * m["context"] / 2**30}

    big = LLAMA2_70B
    shared = {"mha": cache(big, big["h"]), "gqa": cache(big, big["kv_heads"]), "mqa": cache(big, 1)}
    return {"course": {**course, **cache(course, course["kv_heads"])},
            "llama2_70b": {**big, **shared,
                           "gqa_saving": shared["mha"]["bytes"] / shared["gqa"]["bytes"],
                           "mqa_saving": shared["mha"]["bytes"] / shared["mqa"]["bytes"]}}


def score_crossover() -> dict:
    """Per layer, the length L past which the attention scores take more multiply-adds than the
    linear layers: 2·L²·D (QKᵀ and the weighted sum) against L · (weights of W_Q, W_K, W_V, W_O,
    W_1, W_2), one multiply-add per weight per token, as lesson 9's table counts them."""
    out = {}
    for name, m in model_sizes().items():
        with torch.device("meta"):  # shapes only
            mods = (tc.MultiHeadAttention(m["D"], m["h"]), tc.PositionwiseFeedForward(m["D"], m["d_ff"]))
        weights = sum(p.numel() for mod in mods for p in mod.parameters() if p.dim() == 2)
        L = weights / (2 * m["D"])
        out[name] = {"D": m["D"], "L": L, "over_D": L / m["D"]}
    return out
