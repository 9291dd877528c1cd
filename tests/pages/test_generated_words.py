"""Words the drawing code chooses from the results: an exact zero is said as such, a
rounding-sized difference with its size, a slower kernel with the inverse factor, and the
paper's model sizes counted from the package's own layers."""

import pytest

from tutorial_code.experiments.drawing import cost, worked_examples
from tutorial_code.experiments.pagedata import model_sizes
from tutorial_code.experiments.drawing.plotting import COLOR_NAMES


def worked_examples_results(diff: float, top: float) -> dict:
    return {"library": {"max_hand_vs_code_diff": diff, "stretch": {"max_longer_unscaled": top}},
            "sdpa": {"row_sum_max_err": diff, "code_vs_steps_max_diff": diff},
            "shuffle": {"toy_max_diff": diff, "mha_max_diff": diff},
            "toy": {"language_order_max_diff": diff}, "causal": {"max_blocked_weight": diff},
            "rope": {"max_diagonal_deviation": diff}}


def test_an_exact_zero_is_said_exactly_and_rounding_with_its_size():
    zero, tiny = worked_examples.words(worked_examples_results(0.0, 1.0)), worked_examples.words(worked_examples_results(2.2e-16, 0.9999))
    assert set(zero) == set(tiny)
    for name in zero:
        assert zero[name]["ko"] != tiny[name]["ko"] and zero[name]["en"] != tiny[name]["en"], name
    assert "정확히" in zero["steps_vs_code"]["ko"] and "exactly" in zero["steps_vs_code"]["en"]
    assert "2.2e-16" in tiny["language_order"]["en"] and "0.0e+00" not in str(zero)
    assert zero["longer_top_weight"]["en"] == "rounded to exactly 1"
    assert "below" in tiny["longer_top_weight"]["en"]


def cost_results(speedup: float, slope: float, same: int = 1, device: dict | None = None) -> dict:
    return {"kv": {"slope_cache": slope, "same_tokens": same},
            "attention": {"longest": {"speedup": speedup}, "memory_method": "torch.cuda.max_memory_allocated"},
            "device": device or {"type": "cuda", "name": "a GPU", "threads": 1}}


def test_cost_words_follow_the_measurements():
    w = cost.words(cost_results(4.17, 0.71))
    assert w["fused_speed"] == {"ko": "4.2배 빠릅니다", "en": "4.2 times faster"}
    assert w["cache_growth"]["en"] == "more slowly than $T$"
    assert w["memory_method"]["en"] == "the peak allocation CUDA records"
    slow = cost.words(cost_results(0.8, 1.0, same=0))
    assert slow["fused_speed"] == {"ko": "1.2배 느립니다", "en": "1.2 times slower"}  # 1 / 0.8 = 1.25
    assert slow["cache_growth"]["en"] == "about in proportion to $T$"
    assert "different" in slow["kv_tokens"]["en"] and "다릅니다" in slow["kv_tokens"]["ko"]


def test_cost_words_state_the_timing_conditions():
    """Lesson 9's factors and slopes are stated with the device kind and threads they were timed on."""
    cpu = cost.words(cost_results(3.6, 1.0, device={"type": "cpu", "name": "x", "threads": 1}))["timed_on"]
    assert cpu == {"ko": "CPU에서 스레드 1개로", "en": "on the CPU with 1 thread"}
    assert cost.words(cost_results(3.6, 1.0, device={"type": "cpu", "name": "x", "threads": 4}))["timed_on"]["en"] \
        == "on the CPU with 4 threads"
    gpu = cost.words(cost_results(3.6, 1.0))["timed_on"]
    assert gpu == {"ko": "GPU 하나에서", "en": "on one GPU"}  # never the machine's name


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


@pytest.mark.parametrize("n, text", [(3_152_384, "315만 2,384"), (18_944_000, "1,894만 4,000"), (37_000, "3만 7,000"),
                                     (214_282_376, "2억 1,428만 2,376"), (200_000_000, "2억"), (7, "7")])
def test_korean_exact_counts(n, text):
    assert model_sizes.korean_exact(n) == text


def test_the_model_sum_shows_every_term_and_adds_up(monkeypatch):
    """Lesson 7's sum: the terms on the page add up to the total it states (the bias included)."""
    monkeypatch.undo()
    template = {lang: worked_examples.LABELS[lang]["w_sizes"] for lang in worked_examples.LABELS}
    c = model_sizes.count()["base"]
    en = model_sizes.sentence(c, template)["en"]
    terms = [int(x.replace(",", "")) for x in
             __import__("re").findall(r"(?:^|\+ )(?:6 × )?([\d,]+)", en)]
    assert 6 * terms[0] + 6 * terms[1] + terms[2] + terms[3] == c["total"]
    assert f"{c['total']:,}" in en and "37,000 × 512" in en


def test_small_ratios_are_written_as_powers_of_ten():
    from tutorial_code.experiments.drawing import norm_placement
    assert norm_placement.power_of_ten(1.3e-05) == "1.3 × 10⁻⁵"
    assert norm_placement.power_of_ten(2.5e3) == "2.5 × 10³"
    w = norm_placement.words({"runs": {"post_no_warmup": {"bottom_over_top": 1.26e-5}}})
    assert w["post_no_warmup_ratio"] == {"ko": "1.3 × 10⁻⁵", "en": "1.3 × 10⁻⁵"}


def test_rounding_is_said_as_the_same_value_or_with_the_old_one():
    from tutorial_code.experiments.drawing import translation
    same = translation.words({"exact_match": 0.996, "export": {"float_exact_match": 0.996}})
    close = translation.words({"exact_match": 0.9958, "export": {"float_exact_match": 0.9962}})
    other = translation.words({"exact_match": 0.994, "export": {"float_exact_match": 0.996}})
    assert "같습니다" in same["rounding"]["ko"] and "99" not in same["rounding"]["ko"]
    assert "99.6%로, 소수점" in close["rounding"]["ko"] and "one decimal" in close["rounding"]["en"]
    assert other["rounding"] == {"ko": "반올림하기 전의 모델은 99.6%였습니다",
                                 "en": "The model before rounding scored 99.6%"}


def test_the_noise_of_one_seed_comes_from_the_number_of_test_sequences():
    from tutorial_code.experiments import lstm_vs_attention
    from tutorial_code.experiments.drawing import lstm_vs_attention as drawing
    long = {"lengths": [25], "at": {"25": {"solved_seeds": 0, "seeds": 2}}}
    w = drawing.words({"lstm": {"long": long}})
    assert w["noise"]["en"] == f"±{(0.25 / lstm_vs_attention.Config().n_test) ** 0.5:.3f}" == "±0.016"


def test_the_model_size_sentences_come_from_the_counted_page_data():
    counted = model_sizes.count()
    words = worked_examples.words({**worked_examples_results(0.0, 1.0), "model_sizes": counted})
    assert "315만" in words["base_model_size"]["ko"] and "3,152,384" in words["base_model_size"]["en"]
