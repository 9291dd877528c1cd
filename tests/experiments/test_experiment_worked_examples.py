"""The `figures` experiment: explanatory figures in both languages and the worked examples.

One tiny end-to-end run through the pipeline, then the worked examples checked on their own
(hand computation = package, the facts the pages state), and a check that every Korean figure
string can be drawn by NanumGothic (no empty boxes).
"""

from __future__ import annotations

import math
import re

import pytest
import torch


import tutorial_code as tc
from coursebuild.pipeline import run_experiments
from tutorial_code.experiments import worked_examples
from tutorial_code.experiments.common import hand_computations as we
from tutorial_code.experiments.drawing.worked_examples import LABELS
from tutorial_code.experiments.common.hand_computations import WORDS

STEMS = ["architecture", "causal_mask", "multihead", "qkv_roles", "rope", "sdpa_steps",
         "self_attention", "sinusoid"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("worked_examples")
    return run_experiments(["worked_examples"], out, tiny=True, device="cpu")["worked_examples"]


def test_tiny_run_draws_every_figure_in_both_languages(tiny):
    rec = tiny.record  # results.json plus what was drawn from it
    for lang in ("ko", "en"):
        assert rec["figures"][lang] == [f"{s}.png" for s in STEMS]
        for stem in STEMS:
            assert (tiny.drawing / "figures" / lang / f"{stem}.png").read_bytes()[:4] == b"\x89PNG"
    for stem in STEMS:  # every figure carries text, so the two languages differ
        ko = (tiny.drawing / "figures/ko" / f"{stem}.png").read_bytes()
        en = (tiny.drawing / "figures/en" / f"{stem}.png").read_bytes()
        assert ko != en, stem
    assert {"library", "library_hand", "library_stretch", "sdpa_weights", "toy_weights_ko",
            "toy_weights_en"} <= set(rec["tables"])


def test_tiny_results_hold_the_numbers_pages_quote(tiny):
    r = tiny.record["results"]
    assert r["library"]["one"]["dots"][0] == 8.0  # q·k_1 = 4×2 + 0×0
    assert r["library"]["one"]["scaled"][0] == pytest.approx(8 / math.sqrt(2))
    assert r["multihead"]["params"]["64"]["by_heads"] == {"1": 16640, "2": 16640, "4": 16640, "8": 16640}
    assert r["causal"]["max_blocked_weight"] == 0.0
    assert r["toy"]["word"]["ate"]["top_word"] == {"ko": "고양이가", "en": "cat"}
    assert r["toy"]["word"]["that"]["top_word"] == {"ko": "생선을", "en": "fish"}
    assert r["toy"]["word"]["cat"]["top"] is None and r["toy"]["word"]["cat"]["top_weight"] == 0.2


# ---------------------------------------------------------------- worked examples

def test_hand_attention_matches_package_on_random_input():
    g = torch.Generator().manual_seed(3)
    q, K, V = (torch.randn(*s, generator=g, dtype=torch.float64) for s in ((3,), (5, 3), (5, 2)))
    hand = we.attention_by_hand(q.tolist(), K.tolist(), V.tolist())
    out, w = tc.scaled_dot_product_attention(q[None], K, V)
    assert we.max_diff(hand["weights"], w[0]) < 1e-12
    assert we.max_diff(hand["output"], out[0]) < 1e-12
    assert sum(hand["weights"]) == pytest.approx(1.0)


def test_library_both_query_blends_books():
    cfg = worked_examples.Config()
    lib = we.library([list(k) for k in cfg.library_keys], [list(v) for v in cfg.library_values],
                     {"one": list(cfg.query_one), "both": list(cfg.query_both)}, cfg.stretch)
    both = lib["both"]
    assert both["top_book"] == 3 and both["max_weight"] < 0.6       # best match, yet a blend
    assert both["output"][0] == pytest.approx(sum(w * v[0] for w, v in zip(both["weights"], cfg.library_values)))
    assert lib["one"]["top_book"] == 1
    assert lib["stretch"]["max_longer_unscaled"] > 0.99 > lib["stretch"]["max_wider_scaled"]


def test_sdpa_steps_agree_with_package():
    cfg = worked_examples.Config()
    s = we.sdpa_steps(cfg.sdpa_q, cfg.sdpa_k, cfg.sdpa_v)
    assert s["code_vs_steps_max_diff"] < 1e-12
    assert s["scaled"] == [[x / 2 for x in row] for row in s["scores"]]  # √d_k = 2


def test_toy_rule_and_its_failure():
    cfg = worked_examples.Config()
    vectors = {w: list(v) for w, v in cfg.toy_vectors}
    toy = we.toy_sentence(vectors, {"ko": list(cfg.toy_order_ko), "en": list(cfg.toy_order_en)},
                          cfg.toy_strength)
    assert toy["word"]["ate"]["top"] == "cat" and toy["word"]["this"]["top"] == "fish"
    assert toy["word"]["that"]["top"] == "fish"             # belongs to the cat: the rule fails
    assert toy["word"]["cat"]["is_uniform"] and toy["word"]["fish"]["is_uniform"]
    assert toy["language_order_max_diff"] < 1e-12


def test_shuffle_leaves_outputs_unchanged_without_positions():
    cfg = worked_examples.Config()
    X = we.t64([dict(cfg.toy_vectors)[w] for w in cfg.toy_order_ko])
    W_Q = torch.zeros(4, 4, dtype=torch.float64)
    W_Q[3, 1] = W_Q[2, 0] = 6.0
    torch.manual_seed(0)
    res = we.shuffle_demo(X, W_Q, torch.Generator().manual_seed(0), 16, 4)
    assert sorted(res["perm"]) == list(range(5)) and res["perm"] != list(range(5))
    assert res["toy_max_diff"] < 1e-12 and res["mha_max_diff"] < 1e-12
    assert res["with_position_max_diff"] > 1e-3


def test_causal_rope_multihead_sinusoid_facts():
    g = torch.Generator().manual_seed(0)
    c = we.causal_example(5, 4, g)
    assert c["max_blocked_weight"] == 0.0 and c["n_allowed"] == 15 and c["first_row"][0] == 1.0
    r = we.rope_facts(6, 8, g, 4)
    assert r["max_diagonal_deviation"] < 1e-12 < r["additive_diagonal_deviation"]
    m = we.multihead_facts([512], [1, 8], {"B": 1, "L": 3, "D": 64, "h": 4})
    assert m["params"]["512"]["by_heads"] == {"1": 1_050_624, "8": 1_050_624}
    assert m["shapes"]["split"] == [1, 4, 3, 16]
    s = we.sinusoid_facts(20, 64, [0, 32])
    assert s["wavelength"]["0"] == pytest.approx(2 * math.pi)
    assert s["wavelength"]["32"] == pytest.approx(2 * math.pi * 100)
    assert s["formula_max_diff"] < 1e-9


# ---------------------------------------------------------------- labels

def test_labels_have_the_same_keys_and_fill_their_placeholders():
    assert set(LABELS["ko"]) == set(LABELS["en"])
    assert set(WORDS["ko"]) == set(WORDS["en"]) == {w for w, _ in worked_examples.Config().toy_vectors}
    for key in LABELS["ko"]:
        ko, en = LABELS["ko"][key], LABELS["en"][key]
        if isinstance(ko, str):
            assert set(re.findall(r"(?<!\{)\{(\w+)", ko)) == set(re.findall(r"(?<!\{)\{(\w+)", en)), key


def test_korean_strings_have_glyphs_in_nanumgothic():
    import koreanize_matplotlib  # noqa: F401
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    path = font_manager.findfont("NanumGothic", fallback_to_default=False)
    charmap = FT2Font(path).get_charmap()
    texts = [v for v in LABELS["ko"].values() if isinstance(v, str)]
    texts += [x for v in LABELS["ko"].values() if isinstance(v, list) for x in v]
    texts += list(WORDS["ko"].values())
    missing = {ch for text in texts for ch in re.sub(r"\$[^$]*\$", "", text)
               if not ch.isspace() and ord(ch) not in charmap}
    assert not missing, f"NanumGothic lacks {sorted(missing)}: use mathtext ($...$) instead"


# ---------------------------------------------------------------- lesson 2–4 widgets


def test_widget_data_starts_at_the_worked_examples_and_checks_other_states(tiny):
    r = tiny.record["results"]
    w = r["widgets"]
    lib = w["library"]
    assert lib["keys"] == r["library"]["keys"] and dict(lib["presets"])["one"] == r["library"]["one"]["query"]
    assert lib["checks"][0]["weights"] == pytest.approx(r["library"]["one"]["weights"], abs=1e-12)
    assert lib["checks"][1]["weights"] == pytest.approx(r["library"]["stretch"]["longer_unscaled"], abs=1e-12)
    assert len({str(c["inputs"]) for c in lib["checks"]}) == len(lib["checks"]) >= 3  # states differ
    sd = w["sdpa"]
    assert sd["Q"] == r["sdpa"]["Q"] and we.max_diff(sd["checks"][0]["weights"], r["sdpa"]["weights"]) < 1e-12
    causal = torch.tensor(sd["checks"][1]["weights"])
    assert causal.triu(1).abs().max() == 0 and causal[0, 0] == 1
    peaks = [c for c in sd["checks"] if "peak_scaled" in c]
    assert peaks[-1]["peak_unscaled"] > 0.95 > 0.6 > peaks[-1]["peak_scaled"]  # saturation, and ÷√d_k
    for lang, checks in w["self_attention"]["checks"].items():
        assert we.max_diff(checks[0]["weights"], r["toy"]["lang"][lang]["weights"]) < 1e-12
        assert checks[2]["max_diff"] < 1e-12 and checks[3]["max_diff"] > 1e-3  # positions break it


def test_widget_generator_is_the_one_the_page_runs():
    from tutorial_code.experiments.pagedata import widgets_attention as wa
    # Park–Miller from seed 1: 48271, then 48271² mod (2³¹ − 1) = 182605794
    u = wa.minstd_uniform(1, 2)
    assert u == pytest.approx([(2 * s / wa.MINSTD_M - 1) * math.sqrt(3) for s in (48271, 182605794)])
    x = torch.tensor(wa.minstd_uniform(wa.DK_SEED, 20000))
    assert abs(x.mean()) < 0.05 and abs(x.var() - 1) < 0.05  # mean 0, variance 1, as the page says


def test_widget_data_starts_from_the_worked_examples(tiny):
    """Lessons 5–7's widgets start where the pages' worked examples are (widgets_architecture)."""
    r = tiny.record["results"]
    w = r["widgets"]
    assert w["multihead"]["checks"][0]["params"] == r["multihead"]["params"]["64"]["formula"]
    assert len({c["params"] for c in w["multihead"]["checks"] if c["D"] == 512}) == 1  # any h
    assert w["sinusoid"]["checks"][0]["value"] == r["sinusoid"]["table"][10][0]
    assert w["rope"]["checks"][0]["score"] == pytest.approx(r["rope"]["by_offset"]["2"], abs=1e-12)
    assert w["rope"]["checks"][1]["score"] == pytest.approx(w["rope"]["checks"][0]["score"], abs=1e-12)
    steps = {c["step"]: c for c in w["position_steps"]["checks"]}
    assert steps["shuffled"]["max_diff"] == pytest.approx(r["shuffle"]["toy_max_diff"], abs=1e-15)
    assert steps["position"]["max_diff"] > 1e-3  # position information breaks the symmetry
    base = r["block_params"]["base"]
    first = w["block"]["checks"][0]
    assert {k: first[k] for k in ("attention", "feed_forward", "norms", "total")} == \
        {k: base[k] for k in ("attention", "feed_forward", "norms", "total")}
