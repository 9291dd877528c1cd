"""The sentences lesson 3 states about the scaling experiment's results, and their ranges.

Claims only: this experiment gives its pages no data beyond its results. A claim is checked on
every build against the cached results, so rewriting a sentence here (or the range it relies
on) retrains nothing.
"""

from __future__ import annotations

from ..common.gates import Claim

LESSON_3 = "docs/{lang}/lessons/scaled-dot-product.md"
CLAIMS = {  # what lesson 3 says these numbers show
    "at.512.peak_raw": Claim(0.9, 1.0, page=LESSON_3,  # unscaled softmax piles onto one key
                             sentence="키 …개 중 하나가 거의 전부를 가져갑니다."),
    "peak_scaled": Claim(0.0625, 0.35, page=LESSON_3,  # scaled stays spread (1/L = 0.0625 is uniform)
                         sentence="적당히 골라 보면서도 섞는 상태입니다."),
    "at.512.jacobian_ratio": Claim(0.0, 0.35, page=LESSON_3,  # unscaled gradient: a fraction of the scaled one
                                   sentence="나누지 않으면 기울기가 …로 줄어듭니다."),
}
