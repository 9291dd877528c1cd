"""Lesson 9's page data: the n² calculator's and the step counter's data, and the claims of its timings.

The widgets' data (:func:`.widgets_architecture.cost_widgets`) comes from the cost experiment's
``Config``; the claims check the sentences lesson 9 states about the measured timings.
"""

from __future__ import annotations

from ..common.gates import Claim
from .widgets_architecture import cost_widgets


def page_data(cfg, results: dict, files, out_dir) -> dict:
    return {"widgets": cost_widgets(cfg)}  # lesson 9's calculator and step counter


LESSON_9 = "docs/{lang}/lessons/cost-and-impact.md"
CLAIMS = {  # timings lesson 9 describes in words
    "attention.slope_materialised": Claim(  # time grows about like L² at large L
        1.5, 2.6, page=LESSON_9, sentence="로그-로그 축에서 기울기 2는 시간이 $L^2$에 비례한다는 뜻입니다."),
    "attention.memory_ratio_longest": Claim(  # materialised needs far more than fused
        4, 1e9, page=LESSON_9, sentence="…배 차이입니다. 가중치 행렬 $h \\times L \\times L$만 해도 …"),
    # a model this small is launch-latency bound on a GPU, where the cache may not pay off in
    # seconds: the measured speed-up is checked on the CPU only
    "kv.speedup_longest": Claim(  # the cache pays off on long generations
        1.5, 1e9, when="cpu", page=LESSON_9, sentence="캐시를 쓰면 …초로 …배 빨랐습니다"),
}
