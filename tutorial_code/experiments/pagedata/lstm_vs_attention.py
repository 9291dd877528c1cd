"""The sentences lesson 9 (and assignment 2) states about the lstm_vs_attention experiment's results, and their ranges.

Claims only: this experiment gives its pages no data beyond its results. A claim is checked on
every build against the cached results, so rewriting a sentence here (or the range it relies
on) retrains nothing.
"""

from __future__ import annotations

from ..common.gates import Claim

LESSON_9 = "docs/{lang}/lessons/cost-and-impact.md"
# Claims: sentences of lesson 9 that these results must keep true (the words that code can
# choose, such as what the longer budget did, come from drawing/lstm_vs_attention.py's words()).
CLAIMS = {
    "summary.lstm_guessing_from_there_on": Claim(
        1, 1, page=LESSON_9,
        sentence="그러나 이 예산 안에서는 $L = [[value:lstm_vs_attention.summary.lstm_shortest_guessing]]$부터 "
                 "0.5 근처, 곧 찍기 수준입니다"),
    "no_position.acc": Claim(
        0.4, 0.7, page=LESSON_9,
        sentence="평균 정확도는 가장 높아야 …에 그쳐, 순서 없이 가능한 최고치(위의 길이별 정확도 표에서 '순서 없이 가능한 최고' 열)에 묶입니다"),
    "no_position.gap_to_bound": Claim(
        -0.2, 0.05, page=LESSON_9,
        sentence="… 순서 없이 가능한 최고치(위의 길이별 정확도 표에서 '순서 없이 가능한 최고' 열)에 묶입니다"),
    "transformer.attn_first_ratio": Claim(
        2.0, 1e9, page=LESSON_9,
        sentence="트랜스포머는 모든 길이에서 균등 분배선 1/L보다 훨씬 위에 있고 (그림 설명)"),
}
