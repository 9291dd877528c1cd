"""The live widgets of lessons 2–7: their inputs and the states the browser tests check.

Built from the worked_examples experiment's ``Config`` and results (:mod:`.widgets_attention` for
lessons 2–4, :mod:`.widgets_architecture` for lessons 5–7); and the paper's two models counted
block by block for lesson 7 (:mod:`.model_sizes`).
"""

from __future__ import annotations

from . import model_sizes, widgets_architecture, widgets_attention


def page_data(cfg, results: dict, files, out_dir) -> dict:
    return {"widgets": {**widgets_attention.widgets(cfg, results),
                        **widgets_architecture.widgets(cfg, results)},
            "model_sizes": model_sizes.count()}
