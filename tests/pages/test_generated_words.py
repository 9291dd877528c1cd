"""Words the drawing code chooses from the results: an exact zero is said as such, a
rounding-sized difference with its size, a slower kernel with the inverse factor, and the
paper's model sizes counted from the package's own layers."""

import pytest

from tutorial_code.experiments.drawing import cost, figures
from tutorial_code.experiments.pagedata import model_sizes
from tutorial_code.experiments.drawing.plotting import COLOR_NAMES


def figures_results(diff: float, top: float) -> dict:
    return {"library": {"max_hand_vs_code_diff": diff, "stretch": {"max_longer_unscaled": top}},
            "sdpa": {"row_sum_max_err": diff, "code_vs_steps_max_diff": diff},
            "shuffle": {"toy_max_diff": diff, "mha_max_diff": diff},
            "toy": {"language_order_max_diff": diff}, "causal": {"max_blocked_weight": diff},
            "rope": {"max_diagonal_deviation": diff}}


def test_an_exact_zero_is_said_exactly_and_rounding_with_its_size():
    zero, tiny = figures.words(figures_results(0.0, 1.0)), figures.words(figures_results(2.2e-16, 0.9999))
    assert set(zero) == set(tiny)
    for name in zero:
        assert zero[name]["ko"] != tiny[name]["ko"] and zero[name]["en"] != tiny[name]["en"], name
    assert "정확히" in zero["steps_vs_code"]["ko"] and "exactly" in zero["steps_vs_code"]["en"]
    assert "2.2e-16" in tiny["language_order"]["en"] and "0.0e+00" not in str(zero)
    assert zero["longer_top_weight"]["en"] == "rounded to exactly 1"
    assert "below" in tiny["longer_top_weight"]["en"]


def cost_results(speedup: float, slope: float, same: int = 1) -> dict:
    return {"kv": {"slope_cache": slope, "same_tokens": same},
            "attention": {"longest": {"speedup": speedup}, "memory_method": "torch.cuda.max_memory_allocated"}}


def test_cost_words_follow_the_measurements():
    w = cost.words(cost_results(4.17, 0.71))
    assert w["fused_speed"] == {"ko": "4.2배 빠릅니다", "en": "4.2 times faster"}
    assert w["cache_growth"]["en"] == "more slowly than $N$"
    assert w["memory_method"]["en"] == "the peak allocation CUDA records"
    slow = cost.words(cost_results(0.8, 1.0, same=0))
    assert slow["fused_speed"] == {"ko": "1.2배 느립니다", "en": "1.2 times slower"}  # 1 / 0.8 = 1.25
    assert slow["cache_growth"]["en"] == "about in proportion to $N$"
    assert "different" in slow["kv_tokens"]["en"] and "다릅니다" in slow["kv_tokens"]["ko"]


def test_colour_names_exist_in_both_languages():
    assert all(set(names) == {"ko", "en"} and all(names.values()) for names in COLOR_NAMES.values())


@pytest.mark.parametrize("n, text", [(3_152_384, "315만"), (18_944_000, "1,894만"), (214_282_376, "2억 1,428만"),
                                     (200_000_000, "2억")])
def test_korean_counts_in_man_and_eok(n, text):
    assert model_sizes.korean_count(n) == text


def test_the_papers_models_come_close_to_table_3():
    counted = model_sizes.count()  # on the meta device: shapes only
    for name, c in counted.items():
        assert c["total"] == c["n_layers"] * (c["encoder_block"] + c["decoder_block"]) + c["embedding"] + c["rest"]
        assert abs(c["total"] / c["table_3"] - 1) < 0.05, (name, c["total"])  # 63.1 M vs 65 M, 214.3 M vs 213 M
    assert counted["base"]["encoder_block"] == 3_152_384  # lesson 7's worked example


def test_the_model_size_sentences_come_from_the_counted_page_data():
    counted = model_sizes.count()
    words = figures.words({**figures_results(0.0, 1.0), "model_sizes": counted})
    assert "315만" in words["base_model_size"]["ko"] and "3.15 M" in words["base_model_size"]["en"]
