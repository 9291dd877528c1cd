"""Lesson 8's folded aside: the attention backward pass on lesson 3's numbers (page data).

The five written-out lines (pagedata/attention_backward.py) against torch autograd on inputs
other than the worked example's; the build's CHECKS on them, and that they stop a build when a
line is wrong; the tables and words the aside quotes; and that the function the aside names in
transformer.js is there, and named on both languages' pages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from coursebuild.pipeline.checks import check_gates
from coursebuild.pipeline.errors import GateError
from tutorial_code.experiments import worked_examples
from tutorial_code.experiments.common import hand_computations as we
from tutorial_code.experiments.drawing import worked_examples as drawing
from tutorial_code.experiments.pagedata import attention_backward as ab
from tutorial_code.experiments.pagedata import worked_examples as pagedata

ROOT = Path(__file__).resolve().parents[2]
FUNCTION = "attendHeadBackward"     # what training runs, through multiHeadAttentionBackward
CALLER = "multiHeadAttentionBackward"


@pytest.mark.parametrize("column", [0, 1])
def test_the_written_out_lines_are_autograds_gradients_on_other_inputs(column):
    g = torch.Generator().manual_seed(7)
    Q, K, V = (torch.randn(*shape, generator=g, dtype=torch.float64) for shape in ((3, 4), (5, 4), (5, 2)))
    out = ab.backward(Q, K, V, column)
    assert out["max_autograd_diff"] < 1e-12 and out["max_forward_diff"] < 1e-12
    assert out["row_sum_vs_output_max_diff"] < 1e-12 and out["ds_row_sum_max_err"] < 1e-12
    # against autograd once more, independently: the loss Σ_i O[i, column]
    q, k, v = (x.clone().requires_grad_() for x in (Q, K, V))
    (torch.softmax(q @ k.T / 2.0, -1) @ v)[:, column].sum().backward()
    for name, x in (("dQ", q), ("dK", k), ("dV", v)):
        assert torch.allclose(torch.tensor(out[name], dtype=torch.float64), x.grad, atol=1e-12), name
    assert len(out["dQ"]) == 3 and len(out["dK"]) == 5 and len(out["dV"][0]) == 2  # shapes of Q, K, V


def test_a_column_outside_v_is_refused_naming_the_choice():
    with pytest.raises(ValueError, match="pick 0 … 1"):
        ab.backward([[1.0, 0.0]], [[1.0, 0.0]], [[1.0, 2.0]], column=2)


@pytest.fixture(scope="module")
def aside():
    cfg = worked_examples.Config()
    return ab.page_data(we.sdpa_steps(cfg.sdpa_q, cfg.sdpa_k, cfg.sdpa_v))


def test_the_build_checks_hold_and_fail_on_a_wrong_line(aside):
    results = {"sdpa_backward": aside}
    check_gates("worked_examples", results, pagedata.CHECKS)  # the worked example passes
    # the softmax's backward without its row sum: the gap to autograd stops the build
    cfg = worked_examples.Config()
    wrong = dict(aside)
    Q, K, P = (torch.tensor(x, dtype=torch.float64) for x in (cfg.sdpa_q, cfg.sdpa_k, aside["weights"]))
    dS = P * torch.tensor(aside["dP"], dtype=torch.float64)  # rowsum(dP ⊙ P) left out
    wrong["max_autograd_diff"] = (dS @ K / 2.0 - torch.tensor(aside["dQ"], dtype=torch.float64)).abs().max().item()
    with pytest.raises(GateError, match="max_autograd_diff"):
        check_gates("worked_examples", {"sdpa_backward": wrong}, pagedata.CHECKS)


def test_the_aside_has_its_tables_and_words(aside):
    # the quantities the prose reads off: every gradient of Q and K non-zero, dP's rows V's column
    assert all(abs(x) > 1e-3 for row in aside["dQ"] + aside["dK"] for x in row)
    cfg = worked_examples.Config()
    assert aside["dP"][0] == [v[aside["column"]] for v in cfg.sdpa_v]
    tables = drawing.tables({**stub_results(), "sdpa_backward": aside})
    assert len(tables["sdpa_grad_dv"]["rows"]) == len(tables["sdpa_grad_ds"]["rows"]) == 4
    assert len(tables["sdpa_grad_dqk"]["rows"]) == 8
    words = drawing.words({**stub_results(), "sdpa_backward": aside})
    for name in ("grad_row_sums", "grad_vs_autograd"):
        assert set(words[name]) == {"ko", "en"}


def stub_results() -> dict:
    """The worked_examples experiment's results, computed as its run() does, without the figures."""
    class Ctx:
        def generator(self):
            return torch.Generator().manual_seed(worked_examples.Config().seed)
    return worked_examples.run(worked_examples.Config(), Ctx())


def test_the_function_the_aside_names_is_in_transformer_js_and_on_both_pages():
    js = (ROOT / "docs/assets/javascripts/transformer.js").read_text(encoding="utf-8")
    assert re.search(rf"function {FUNCTION}\(", js)
    caller = js[js.index(f"function {CALLER}("):]
    assert f"{FUNCTION}(" in caller[:caller.index("\n  }\n")]  # the multi-head backward calls it
    assert "scaledDotProductAttentionBackward" not in js  # the single-head wrapper nothing called is gone
    for lang in ("ko", "en"):
        page = (ROOT / f"docs/{lang}/lessons/encoder-decoder.md").read_text(encoding="utf-8")
        start = page.index('??? note "', page.index("{ #train-it-yourself }"))
        block = page[start:page.index("\n## ", start)]
        assert f"`{FUNCTION}`" in block and f"`{CALLER}`" in block, lang
        assert "[[table:worked_examples.sdpa_grad_ds]]" in block and "scaledDotProductAttentionBackward" not in block, lang
