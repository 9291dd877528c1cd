"""The heads experiment (lesson 5): one parameter budget split into 1, 2, 4, 8 heads."""

from __future__ import annotations

import math

import torch


from tutorial_code.experiments.common import digit_data as dt

from coursebuild.pipeline import run_experiments
from tutorial_code.experiments import heads
from tutorial_code.tasks import digits as digit_task


def test_sort_task_sorts():
    digits = torch.tensor([[3, 7, 1, 4, 9, 2, 8, 5], [0, 0, 9, 1, 1, 0, 2, 2]])
    _, tgt = digit_task.make_pairs(digits, "sort")
    assert digit_task.token_names(tgt[0]) == ["BOS", "1", "2", "3", "4", "5", "7", "8", "9", "EOS"]
    assert (tgt[1, 1:-1] - digit_task.DIGIT0).tolist() == [0, 0, 0, 1, 1, 2, 2, 9]


def test_holds_digit_marks_every_copy():
    src, tgt = digit_task.make_pairs(torch.tensor([[2, 0, 2]]), "sort")  # tgt = BOS 0 2 2 EOS
    marks = dt.holds_digit(src, tgt[:, 1:])                      # (1, 4, 5)
    assert marks[0, 0].tolist() == [False, False, True, False, False]   # writes 0
    assert marks[0, 1].tolist() == [False, True, False, True, False]    # writes 2: both copies
    assert marks[0, 3].tolist() == [False, False, False, False, True]   # writes EOS


def test_parameter_counts_do_not_depend_on_the_head_count():
    facts = heads.parameter_facts((1, 2, 4, 8))
    assert facts["identical"] == 1
    assert facts["attention_module"] == 4 * 64 ** 2 + 4 * 64
    # 6 attention modules: 2 encoder self, 2 decoder self, 2 cross
    assert {c["attention"] for c in facts["by_heads"].values()} == {6 * (4 * 64 ** 2 + 4 * 64)}


def test_head_stats_on_hand_made_attention():
    src, tgt = digit_task.make_pairs(torch.tensor([[3, 1, 2]]), "sort")  # src BOS 3 1 2 EOS, tgt BOS 1 2 3 EOS
    L_t, L_s = tgt.size(1) - 1, src.size(1)
    write = dt.holds_digit(src, tgt[:, 1:]).float()              # one-hot: look where the output is
    cross = [torch.stack([write[0], torch.full((L_t, L_s), 1 / L_s)]).unsqueeze(0)]  # (1, 2, L_t, L_s)
    s = heads.head_stats(cross, src, tgt)
    assert s["write_weight"][0][0] == 1.0 and abs(s["entropy"][0][0]) < 1e-6
    assert math.isclose(s["entropy"][0][1], math.log(L_s), rel_tol=1e-6)
    assert math.isclose(s["max_weight"][0][1], 1 / L_s, rel_tol=1e-6)


def test_tiny_run_end_to_end(tmp_path):
    report = run_experiments(["heads"], tmp_path, tiny=True, device="cpu")
    outcome = report["heads"]
    r = outcome.record["results"]
    cfg = heads.Config.tiny()
    assert r["head_counts"] == list(cfg.head_counts) and len(r["test_exact_match"]) == len(cfg.head_counts)
    assert r["patterns"]["n_heads"] == cfg.pattern_heads == len(r["patterns"]["cross"][0])
    assert len(outcome.record["tables"]["patterns"]["rows"]) == 2 * cfg.pattern_heads
    ko, en = outcome.figure_paths("ko"), outcome.figure_paths("en")
    assert set(ko) == set(en) == {"heads_accuracy", "heads_patterns"}
