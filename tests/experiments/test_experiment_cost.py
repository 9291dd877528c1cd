"""The cost experiment: the n² table, the slope fit, the memory probe, the thread guard, a tiny run."""

from __future__ import annotations


import pytest
import torch


import tutorial_code as tc
from coursebuild.pipeline import run_experiments
from tutorial_code.experiments import cost
from tutorial_code.experiments.common.cpu_threads import torch_threads


def test_n2_table_is_exact():
    t = cost.n2_table((4096, 8192, 16384, 32768))
    assert [r["entries"] for r in t["rows"]] == [16_777_216, 67_108_864, 268_435_456, 1_073_741_824]
    assert [r["mib"] for r in t["rows"]] == [64, 256, 1024, 4096]  # fp32: 4 bytes per entry
    assert t["ratios"] == [4, 4, 4] and t["rows"][0]["ratio"] is None
    assert t["at"]["32768"]["gib"] == 4


def test_loglog_slope():
    xs = [128, 256, 512, 1024]
    assert cost.loglog_slope(xs, [3e-9 * x**2 for x in xs]) == pytest.approx(2.0)
    assert cost.loglog_slope(xs, [5.0 * x for x in xs]) == pytest.approx(1.0)


def test_torch_threads_restores():
    before = torch.get_num_threads()
    with torch_threads(1, torch.device("cpu")) as n:
        assert n == 1 == torch.get_num_threads()
    assert torch.get_num_threads() == before


def test_cpu_peaks_see_the_materialised_matrix():
    L, h = 512, 2
    q, k, v = (torch.randn(1, h, L, 64) for _ in range(3))
    weights = h * L * L * 4  # bytes of the fp32 weight matrix
    with torch.no_grad():
        peaks, ops = cost.cpu_peaks({
            "materialised": lambda: tc.scaled_dot_product_attention(q, k, v)[0],
            "fused": lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v),
        })
    # scores and softmax weights are both alive at one moment: about twice the matrix
    assert 2 * weights <= peaks["materialised"] <= 2 * weights + 4 * h * L * 64 * 4
    assert peaks["fused"] < weights / 2  # output, log-sum-exp and per-thread blocks only
    assert "aten::softmax" in ops["materialised"]


def test_tiny_run_end_to_end(tmp_path):
    report = run_experiments(["cost"], tmp_path / "out", tiny=True, device="cpu")
    o = report["cost"]
    rec = o.record  # results.json plus what was drawn from it
    res = rec["results"]
    assert res["kv"]["same_tokens"] == 1
    for row in res["kv"]["rows"]:  # the cache computes each new position once, 1 + … + N without
        N = row["N"]
        assert (row["cache_positions"], row["no_cache_positions"]) == (N, N * (N + 1) // 2)
    assert res["attention"]["lengths"] == list(cost.Config.tiny().lengths)
    assert res["device"]["type"] == "cpu" and res["device"]["threads"] == cost.Config.tiny().threads
    for row in res["attention"]["rows"]:
        assert row["materialised_mib"] > row["weights_mib"]  # the L×L matrix really was built
    assert [r["L"] for r in rec["tables"]["n2"]["rows"]] == list(cost.Config().table_lengths)
    for lang in ("ko", "en"):
        for stem in ("attention_cost", "kv_cache"):
            assert (o.drawing / "figures" / lang / f"{stem}.png").read_bytes()[:4] == b"\x89PNG"


def test_widget_data_counts_what_generation_did():
    """Lesson 9's step counter: with the cache a step scores t keys, without it t × t."""
    from tutorial_code.experiments.pagedata.widgets_architecture import cost_widgets

    cfg = cost.Config.tiny()
    w = cost_widgets(cfg)
    for c in w["kvcache"]["checks"]:
        t = c["t"]
        assert (c["cache"]["positions"], c["cache"]["entries"]) == (1, t)
        assert (c["no_cache"]["positions"], c["no_cache"]["entries"]) == (t, t * t)
        assert c["no_cache"]["total_positions"] == t * (t + 1) // 2
    n2 = w["n2"]["checks"][0]
    assert n2["L"] == cfg.table_lengths[0] and n2["entries"] == n2["L"] ** 2
    assert n2["work_ratio"] == {"scores": 4.0, "projections": 2.0, "ffn": 2.0}


def test_n2_widget_counts_every_attention_sublayer_of_each_model():
    """The calculator's whole-model figure is h score matrices per attention sub-layer, and the
    sub-layers are read off the model as built: an encoder layer's self-attention, a decoder
    layer's self-attention and, in an encoder–decoder, its cross-attention."""
    from tutorial_code.experiments.pagedata import widgets_architecture as wa

    models = wa.model_sizes()  # what cost_widgets() hands the widget as data["n2"]["models"]
    for name, (kind, _) in wa.MODELS.items():
        m = models[name]
        with torch.device("meta"):  # the structure only
            model = kind(tc.TransformerConfig(d_model=m["D"], n_heads=m["h"], n_layers=m["layers"], d_ff=m["d_ff"]))
        stacks = [getattr(model, part) for part in ("encoder", "decoder") if hasattr(model, part)]
        counted = sum(
            sum(getattr(layer, a, None) is not None for a in ("self_attn", "cross_attn"))
            for stack in stacks for layer in stack.layers)
        assert m["attention"] == counted, name
        if kind is tc.EncoderDecoderTransformer:  # 2N + N: more than heads × layers per stack
            assert counted == 3 * len(model.encoder.layers) == 3 * m["layers"]
        for L in (1000, 8192):
            state = wa.n2_state(L, name, m)
            assert state["model_entries"] == m["h"] * counted * L * L
            assert state["model_mib"] == pytest.approx(4 * m["h"] * counted * L * L / 2**20)
