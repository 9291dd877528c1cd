"""The sentences lesson 7 states about the norm_placement experiment's results, and their ranges.

Claims only: this experiment gives its pages no data beyond its results. A claim is checked on
every build against the cached results, so rewriting a sentence here (or the range it relies
on) retrains nothing.
"""

from __future__ import annotations

from ..common.gates import Claim

LESSON_7 = "docs/{lang}/lessons/transformer-block.md"
# Claims: what lesson 7 states about these runs (one seed, lr = Config.lr, warm-up or none).
CLAIMS = {
    "init.ratio": Claim(1.2, 1e3, page=LESSON_7,
                        sentence="모두 더하면 Post-LN이 더 큽니다."),
    "init.top_over_bottom.post": Claim(1.25, 1e3, page=LESSON_7,
                                       sentence="Post-LN은 출력 쪽으로 갈수록 커집니다."),
    "init.top_over_bottom.pre": Claim(0.0, 0.8, page=LESSON_7,
                                      sentence="Pre-LN은 출력 쪽으로 갈수록 작아집니다."),
    "final.post.no_warmup": Claim(2.0, 1e9, page=LESSON_7,
                                  sentence="이 학습률에서 웜업 없는 Post-LN만 배우지 못했습니다."),
    "final.post.warmup": Claim(0.0, 1.0, page=LESSON_7,
                               sentence="같은 Post-LN도 웜업을 두면 …까지 내려갑니다."),
    # pre-LN's gradients shrink too once its loss nears 0, so the contrast is the profile: only
    # post-LN without warm-up leaves its lowest layer a tiny fraction of the top layer's gradient
    "runs.post_no_warmup.grad_ratio.0": Claim(
        0.0, 0.01, page=LESSON_7, sentence="손실의 신호가 입력 쪽 층에는 거의 닿지 않는 것입니다."),
    "runs.post_no_warmup.bottom_over_top": Claim(
        0.0, 0.01, page=LESSON_7,
        sentence="마지막 스텝에서 맨 아래 층의 기울기는 맨 위 층의 …배입니다."),
    **{f"runs.{run}.bottom_over_top": Claim(
        0.3, 1e6, page=LESSON_7,
        sentence="나머지 세 실행에서는 맨 아래 층의 기울기가 맨 위 층과 같은 자릿수이거나 더 큽니다.")
       for run in ("post_warmup", "pre_no_warmup", "pre_warmup")},
}
