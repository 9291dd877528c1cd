"""The live widgets of lessons 2–7: their inputs and the states the browser tests check.

Built from the worked_examples experiment's ``Config`` and results (:mod:`.widgets_attention` for
lessons 2–4, :mod:`.widgets_architecture` for lessons 5–7); the paper's two models counted
block by block for lesson 7 (:mod:`.model_sizes`); and lesson 8's aside, the backward pass of
attention on lesson 3's worked example, checked against torch autograd (:mod:`.attention_backward`).
"""

from __future__ import annotations

from . import attention_backward, model_sizes, widgets_architecture, widgets_attention

# the aside's five lines, written out in float64, are autograd's gradients, and its forward pass
# is lesson 3's; the two facts it states hold (the row sum is the output's column, dS's rows sum to 0)
CHECKS = {
    "sdpa_backward.max_autograd_diff": (0.0, 1e-12),
    "sdpa_backward.max_forward_diff": (0.0, 1e-12),
    "sdpa_backward.lesson3_max_diff": (0.0, 1e-12),
    "sdpa_backward.row_sum_vs_output_max_diff": (0.0, 1e-12),
    "sdpa_backward.ds_row_sum_max_err": (0.0, 1e-12),
}
TINY_CHECKS = CHECKS  # tiny is the full size (worked_examples.Config.tiny)


def page_data(cfg, results: dict, files, out_dir) -> dict:
    return {"widgets": {**widgets_attention.widgets(cfg, results),
                        **widgets_architecture.widgets(cfg, results)},
            "model_sizes": model_sizes.count(),
            "sdpa_backward": attention_backward.page_data(results["sdpa"])}
