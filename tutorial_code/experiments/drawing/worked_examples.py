"""How the results of :mod:`tutorial_code.experiments.worked_examples` are drawn: its tables and figures.

Presentation only: the strings (``LABELS``, both languages), ``tables(results)`` and
``figures(results, lang, outdir)``. Editing this file redraws; it never retrains.
"""

from __future__ import annotations

from ..common.hand_computations import WORDS
from ..pagedata import model_sizes
from . import diagrams, number_figures, plotting
from .tables import column, headers, symbol

# Every string drawn on the explanatory figures, in Korean and English (same keys).
# 
# Korean terms follow ``docs/glossary.yml`` (쿼리, 키, 밸류, 멀티헤드 어텐션, 크로스 어텐션,
# 잔차 연결, 층 정규화, 피드포워드 신경망, 위치 인코딩, 인과 마스크). NanumGothic lacks a few
# glyphs (U+2212 minus, subscript zero) and draws arrows, subscripts and √ poorly, so minus signs
# are written as '-' and symbols go through mathtext (``$\rightarrow$``, ``$q_1$``, ``$\sqrt{d_k}$``);
# tests/test_experiment_worked_examples.py checks every Korean string against the font.
SCORE_LINE = r"$q\cdot k$ = {dot:.2f} $\rightarrow$ $\div\sqrt{{2}}$ = {s:.3f}"
SIZES = r"$L$ = {L}, $d_k$ = {d_k}, $\sqrt{{d_k}}$ = {sqrt:g}"
FORMULA = r"$\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right)V$"

LABELS = {
    "ko": {
        "title": '설명 그림과 손으로 푸는 예제',
        # table headers
        "th_corner_inputs": "벡터 \\ 성분",
        "th_corner_scores": "쿼리 \\ 키",
        "th_corner_output": "출력 \\ 성분",
        "th_corner_words": "쿼리 단어 \\ 키 단어",
        "th_weight_book": "가중치 (책 {b})",
        "th_book": "책",
        "th_key": "키 k",
        "th_value": "밸류 v (내용)",
        "th_w_one": "가중치 (q1)",
        "th_w_both": "가중치 (q2)",
        "th_query": "쿼리",
        "th_quantity": "값",
        "th_hand": "손 계산",
        "th_code": "코드",
        "th_diff": "차이",
        "th_scores": "점수",
        # architecture
        "inputs": "입력 (원문 토큰)",
        "outputs": "출력 (한 칸 밀린 목표 토큰)",
        "in_embed": "입력 임베딩",
        "out_embed": "출력 임베딩",
        "pos_enc": "위치\n인코딩",
        "self_attn": "멀티헤드 셀프 어텐션",
        "masked_attn": "멀티헤드 셀프 어텐션\n(인과 마스크)",
        "cross_attn": "멀티헤드 크로스 어텐션",
        "norm": "잔차 연결 + 층 정규화",
        "ffn": "피드포워드 신경망",
        "enc_to_dec": "인코더 출력 $\\rightarrow$ K, V",
        "encoder": "인코더",
        "decoder": "디코더",
        "linear": "선형 층",
        "softmax": "소프트맥스",
        "out_probs": "다음 토큰의 확률",
        # library
        "slip": "쿼리 쪽지",
        "want_one": "주제 1만 찾는다",
        "want_both": "두 주제 모두 궁금",
        "book": "책 {b}",
        "col_key": "키 (색인 카드)",
        "col_value": "밸류 (책 내용)",
        "col_out": "출력",
        "score_head": "점수 $q\\cdot k/\\sqrt{d_k}$ $\\rightarrow$ 가중치 $w$",
        "score_line": SCORE_LINE,
        "blend": r"$\sum_i w_i v_i$ =",
        "row_one": "쿼리 $q_1$ = {q}: 주제 1을 찾는 쪽지",
        "row_both": "쿼리 $q_2$ = {q}: 두 주제가 모두 궁금한 쪽지",
        # scaled dot-product attention, five steps
        "sdpa_q": "1단계: 쿼리 Q",
        "sdpa_k": "1단계: 키 K",
        "sdpa_v": "1단계: 밸류 V",
        "sdpa_formula": FORMULA,
        "sdpa_info": SIZES + "\n행: 쿼리 $q_1$ ~ $q_{L}$\n열: 키 $k_1$ ~ $k_{L}$\n4단계의 각 행은 합이 1",
        "sdpa_scores": "2단계: 점수 $QK^\\top$",
        "sdpa_scaled": "3단계: $\\div\\sqrt{{d_k}}$ (= {sqrt:g})",
        "sdpa_weights": "4단계: 소프트맥스",
        "sdpa_output": "5단계: 가중치 × V",
        "component": "성분",
        "key": "키",
        # toy sentence
        "features": ["동물", "음식", "동작", "지시어"],
        "toy_vectors": "단어 벡터 (손으로 정함)",
        "toy_weights": "셀프 어텐션 가중치\n규칙 $W_Q$: 지시어 $\\rightarrow$ 음식, 동작 $\\rightarrow$ 동물",
        "toy_key": "키 단어 (보이는 쪽)",
        "toy_query": "쿼리 단어 (보는 쪽)",
        "toy_note": ("{ok} 테두리: 규칙이 의도한 대로 본 곳. {bad} 테두리: 틀린 곳. "
                     "지시어 ‘{word}’가 꾸미는 말은 ‘{intended}’인데\n"
                     "가장 많이 보는 것은 ‘{top}’이다 "
                     "(규칙은 내용만 볼 뿐 어느 단어의 바로 앞에 있는지 모른다).\n"
                     "‘{u1}’·‘{u2}’ 행: 규칙이 없어 모든 단어를 {w:.2f}씩 고르게 본다."),
        # causal mask
        "causal_mask": "인과 마스크",
        "causal_weights": "마스크 뒤 소프트맥스 가중치",
        "key_pos": "키 위치 j",
        "query_pos": "쿼리 위치 i",
        "allowed": "볼 수 있음 ($j \\leq i$)",
        "blocked": "가림: 점수 $-\\infty$ ($j > i$)",
        "causal_zero": "대각선 위(가려진 곳) 가중치의 최댓값 = {v}",
        # multi-head
        "proj_each": "각각 D×D\n+ 편향 D",
        "head": "헤드 {i}: 어텐션",
        "split": "헤드로 나누기 $(B, h, L, d_k)$ =",
        "concat": "이어 붙이기",
        "shape_legend": "B = {B} 배치, L = {L} 길이, D = {D}, h = {h} 헤드, $d_k$ = D/h = {d_k}",
        "n_heads": "헤드 수 h",
        "params_title": "파라미터 수 (D = {D})",
        "params_formula": "$4D^2 + 4D$, 헤드 수와 무관",
        # sinusoid
        "pe_heatmap": "사인파 위치 인코딩 (L = {L}, D = {D})",
        "pe_dim": "차원",
        "pe_pos": "위치 pos",
        "pe_curve": "차원 {dim} (파장 {lam:,.1f})",
        "pe_curves": "차원별 곡선: 빠른 바늘과 느린 바늘",
        # rope
        "rope_rotation": "첫 성분 쌍을 m·θ만큼 회전 (θ = {theta:g} rad)",
        "rope_pair": "성분 쌍 $(x_0, x_1)$",
        "rope_scores": "RoPE: 점수 q·k (위치 m, n)",
        "rope_additive": "비교: 사인파 표를 더하면",
        "rope_n": "키 위치 n",
        "rope_m": "쿼리 위치 m",
        "rope_dev": "대각선(m - n 일정)의 최대 편차: {v:.1e}",
        # words of the lessons' sentences, chosen from the results by words(): an exact zero
        # is said as such, a rounding-sized difference with its size
        "w_hand_exact": "두 계산의 값은 정확히 같습니다. 손 계산과 코드는 같은 일을 합니다.",
        "w_hand_rounding": "두 계산의 차이는 가장 큰 것도 {d:.1e}, 64비트 부동소수점의 반올림 오차 수준이니 손 계산과 코드는 같은 일을 합니다.",
        "w_one_exact": "부동소수점으로는 정확히 1로 반올림됩니다",
        "w_one_below": "1에 아주 가깝지만 1보다 작습니다",
        "w_rows_exact": "모든 행의 합은 정확히 1입니다.",
        "w_rows_rounding": "모든 행의 합은 1입니다. 1에서 가장 멀리 벗어난 행의 차이도 {d:.0e}, 반올림 오차뿐입니다.",
        "w_steps_exact": "정확히 같습니다",
        "w_steps_rounding": "최대 {d:.1e}만큼, 반올림 오차만큼 다릅니다",
        "w_dsrows_exact": "$dS$의 각 행은 합이 정확히 0입니다.",
        "w_dsrows_rounding": "$dS$의 각 행은 합이 0입니다. 0에서 가장 먼 행도 {d:.0e}만큼 벗어날 뿐이고, 이는 반올림 오차입니다.",
        "w_autograd_exact": "정확히 같습니다",
        "w_autograd_rounding": "최대 {d:.1e}만큼 다르고, 이는 반올림 오차입니다",
        "w_shuffle_exact": "앞의 두 줄은 정확히 0입니다.",
        "w_shuffle_rounding": "앞의 두 줄은 float64의 반올림 오차 수준으로, 사실상 0입니다.",
        "w_order_exact": "같은 단어끼리 정확히 같습니다",
        "w_order_rounding": "같은 단어끼리 {d:.1e}밖에 다르지 않습니다",
        "w_blocked_exact": "막힌 칸의 가중치는 모두 정확히 0입니다",
        "w_blocked_small": "막힌 칸 가중치의 최댓값은 {d:.1e}입니다",
        "w_toy_exact": "각 단어의 출력은 조금도 달라지지 않았습니다.",
        "w_toy_rounding": "각 단어의 출력은 {d:.1e}밖에 달라지지 않았습니다. 반올림 오차일 뿐, 똑같다는 뜻입니다.",
        "w_rope_exact": "0입니다. 정확히 같습니다",
        "w_rope_rounding": "{d:.1e}입니다. 반올림 오차뿐이니 사실상 같습니다",
        "w_sizes": "{n} × {enc} + {n} × {dec} + 공유 임베딩 {emb}(어휘 {vocab}개 × {d}) + 출력 층의 편향 {rest}(어휘마다 하나) = {total}개(논문 표 3: 약 {paper}개)",
    },
    "en": {
        "title": 'Explanatory figures and worked examples',
        # table headers
        "th_corner_inputs": "vector \\ component",
        "th_corner_scores": "query \\ key",
        "th_corner_output": "output \\ component",
        "th_corner_words": "query word \\ key word",
        "th_weight_book": "weight (book {b})",
        "th_book": "book",
        "th_key": "key k",
        "th_value": "value v (content)",
        "th_w_one": "weight (q1)",
        "th_w_both": "weight (q2)",
        "th_query": "query",
        "th_quantity": "quantity",
        "th_hand": "by hand",
        "th_code": "code",
        "th_diff": "difference",
        "th_scores": "scores",
        "inputs": "Inputs (source tokens)",
        "outputs": "Outputs (target, shifted right)",
        "in_embed": "Input embedding",
        "out_embed": "Output embedding",
        "pos_enc": "Positional\nencoding",
        "self_attn": "Multi-head self-attention",
        "masked_attn": "Masked multi-head\nself-attention",
        "cross_attn": "Multi-head cross-attention",
        "norm": "Add & Norm",
        "ffn": "Feed-forward network",
        "enc_to_dec": "encoder output $\\rightarrow$ K, V",
        "encoder": "Encoder",
        "decoder": "Decoder",
        "linear": "Linear",
        "softmax": "Softmax",
        "out_probs": "Next-token probabilities",
        "slip": "query slip",
        "want_one": "wants topic 1 only",
        "want_both": "curious about both",
        "book": "book {b}",
        "col_key": "key (index card)",
        "col_value": "value (book content)",
        "col_out": "output",
        "score_head": "score $q\\cdot k/\\sqrt{d_k}$ $\\rightarrow$ weight $w$",
        "score_line": SCORE_LINE,
        "blend": r"$\sum_i w_i v_i$ =",
        "row_one": "Query $q_1$ = {q}: a slip asking for topic 1",
        "row_both": "Query $q_2$ = {q}: a slip curious about both topics",
        "sdpa_q": "Step 1: queries Q",
        "sdpa_k": "Step 1: keys K",
        "sdpa_v": "Step 1: values V",
        "sdpa_formula": FORMULA,
        "sdpa_info": SIZES + "\nrows: queries $q_1$ to $q_{L}$\ncolumns: keys $k_1$ to $k_{L}$"
                     "\neach row of step 4 sums to 1",
        "sdpa_scores": "Step 2: scores $QK^\\top$",
        "sdpa_scaled": "Step 3: $\\div\\sqrt{{d_k}}$ (= {sqrt:g})",
        "sdpa_weights": "Step 4: softmax",
        "sdpa_output": "Step 5: weights × V",
        "component": "component",
        "key": "key",
        "features": ["animal", "food", "action", "demonstrative"],
        "toy_vectors": "Word vectors (set by hand)",
        "toy_weights": "Self-attention weights\nrule $W_Q$: demonstrative $\\rightarrow$ food, action $\\rightarrow$ animal",
        "toy_key": "key word (looked at)",
        "toy_query": "query word (looking)",
        "toy_note": ("{ok} outline: attends where the rule intends. {bad} outline: the rule fails. "
                     "The demonstrative ‘{word}’ belongs to ‘{intended}’\n"
                     "but attends most to ‘{top}’ (the rule sees content only, not which word comes next).\n"
                     "Rows ‘{u1}’ and ‘{u2}’: no rule, so {w:.2f} on every word."),
        "causal_mask": "Causal mask",
        "causal_weights": "Softmax weights after the mask",
        "key_pos": "key position j",
        "query_pos": "query position i",
        "allowed": "may attend ($j \\leq i$)",
        "blocked": "blocked: score $-\\infty$ ($j > i$)",
        "causal_zero": "largest weight above the diagonal (blocked) = {v}",
        "proj_each": "each D×D\n+ bias D",
        "head": "head {i}: attention",
        "split": "split into heads $(B, h, L, d_k)$ =",
        "concat": "concat",
        "shape_legend": "B = {B} batch, L = {L} length, D = {D}, h = {h} heads, $d_k$ = D/h = {d_k}",
        "n_heads": "number of heads h",
        "params_title": "Parameters (D = {D})",
        "params_formula": "$4D^2 + 4D$, whatever the head count",
        "pe_heatmap": "Sinusoidal encoding (L = {L}, D = {D})",
        "pe_dim": "dimension",
        "pe_pos": "position pos",
        "pe_curve": "dim {dim} (wavelength {lam:,.1f})",
        "pe_curves": "Per-dimension curves: fast and slow hands",
        "rope_rotation": "First pair rotated by m·θ (θ = {theta:g} rad)",
        "rope_pair": "pair of components $(x_0, x_1)$",
        "rope_scores": "RoPE: scores q·k (positions m, n)",
        "rope_additive": "Contrast: sinusoids added instead",
        "rope_n": "key position n",
        "rope_m": "query position m",
        "rope_dev": "max spread along a diagonal: {v:.1e}",
        "w_hand_exact": "The two agree exactly: the hand computation and the code do the same thing.",
        "w_hand_rounding": "The largest difference is {d:.1e}, the size of rounding in 64-bit floating point. The hand computation and the code do the same thing.",
        "w_one_exact": "rounded to exactly 1",
        "w_one_below": "very close to 1, but below it",
        "w_rows_exact": "Every row sums to exactly 1.",
        "w_rows_rounding": "Every row sums to 1; the row furthest from 1 misses by {d:.0e}, which is rounding.",
        "w_steps_exact": "are exactly equal",
        "w_steps_rounding": "differ by at most {d:.1e}, which is rounding",
        "w_dsrows_exact": "Each row of $dS$ sums to exactly 0.",
        "w_dsrows_rounding": "Each row of $dS$ sums to 0; the row furthest from 0 misses by {d:.0e}, which is rounding error.",
        "w_autograd_exact": "are exactly equal",
        "w_autograd_rounding": "differ by at most {d:.1e}, which is rounding",
        "w_shuffle_exact": "The first two rows are exactly zero.",
        "w_shuffle_rounding": "The first two rows are float64 rounding error: zero in effect.",
        "w_order_exact": "each word's output is exactly the same",
        "w_order_rounding": "each word's output differs by only {d:.1e}",
        "w_blocked_exact": "every blocked weight is exactly 0",
        "w_blocked_small": "the largest blocked weight is {d:.1e}",
        "w_toy_exact": "not at all",
        "w_toy_rounding": "{d:.1e}: rounding error, in other words not at all",
        "w_rope_exact": "0: exactly equal",
        "w_rope_rounding": "{d:.1e}: rounding error, so equal in effect",
        "w_sizes": "{n} × {enc} + {n} × {dec} + {emb} (the shared embedding, a vocabulary of {vocab} × {d}) + {rest} (the output layer's bias, one per vocabulary entry) = {total} (Table 3 of the paper: about {paper})",
    },
}
head = headers(LABELS)  # table headers from the same strings


def words(res: dict) -> dict:
    """The lessons' words that depend on the results: whether a difference is exactly zero
    (then it is said so) or only rounding-sized (then with its size)."""
    lib, sdpa, shuffle = res["library"], res["sdpa"], res["shuffle"]
    picks = {  # name: (the result, the label stem); "exact" when the result is exactly 0
        "hand_vs_code": (lib["max_hand_vs_code_diff"], "w_hand"),
        "row_sums": (sdpa["row_sum_max_err"], "w_rows"),
        "steps_vs_code": (sdpa["code_vs_steps_max_diff"], "w_steps"),
        "shuffle_rows": (max(shuffle["toy_max_diff"], shuffle["mha_max_diff"]), "w_shuffle"),
        "language_order": (res["toy"]["language_order_max_diff"], "w_order"),
        "blocked_weight": (res["causal"]["max_blocked_weight"], "w_blocked"),
        "shuffle_toy": (shuffle["toy_max_diff"], "w_toy"),
        "rope_diagonal": (res["rope"]["max_diagonal_deviation"], "w_rope"),
    }
    if "sdpa_backward" in res:  # lesson 8's aside, from the page data
        grad = res["sdpa_backward"]
        picks["grad_row_sums"] = (grad["ds_row_sum_max_err"], "w_dsrows")
        picks["grad_vs_autograd"] = (grad["max_autograd_diff"], "w_autograd")
    out = {}
    for name, (d, stem) in picks.items():
        other = next(k for k in LABELS["en"] if k.startswith(stem + "_") and not k.endswith("_exact"))
        key = f"{stem}_exact" if d == 0 else other
        out[name] = {lang: LABELS[lang][key].format(d=d) for lang in LABELS}
    # softmax never gives exactly 1 in exact arithmetic; in floating point it can
    one = "w_one_exact" if lib["stretch"]["max_longer_unscaled"] == 1.0 else "w_one_below"
    out["longer_top_weight"] = {lang: LABELS[lang][one] for lang in LABELS}
    # lesson 7: the paper's models, block by block, beside its Table 3
    template = {lang: LABELS[lang]["w_sizes"] for lang in LABELS}
    for name, counted in res.get("model_sizes", {}).items():
        out[f"{name}_model_size"] = model_sizes.sentence(counted, template)
    return out


# ---------------------------------------------------------------- tables for the pages

def matrix_table(M, row_names, col_names, corner, fmt=".2f") -> dict:
    """A matrix as a page table; ``corner`` = the header of the row-name column."""
    cols = [column("row", corner)] + [column(f"c{j}", symbol(c), fmt) for j, c in enumerate(col_names)]
    rows = [{"row": r} | {f"c{j}": v for j, v in enumerate(M[i])} for i, r in enumerate(row_names)]
    return {"columns": cols, "rows": rows}


def tables(res: dict) -> dict:
    lib, sdpa, toy = res["library"], res["sdpa"], res["toy"]
    books = range(1, len(lib["keys"]) + 1)
    per_query = [(f"{kind}_{q}", f"q{n}·k" if kind == "dot" else f"q{n}·k/√{lib['d_k']}", fmt)
                 for n, q in ((1, "one"), (2, "both")) for kind, fmt in (("dot", ".2f"), ("scaled", ".3f"))]
    out = {"library": {
        "columns": [column("book", head("th_book")), column("key", head("th_key")),
                    column("value", head("th_value"))]
                   + [column(key, symbol(label), fmt) for key, label, fmt in per_query[:2]]
                   + [column("w_one", head("th_w_one"), ".3f")]
                   + [column(key, symbol(label), fmt) for key, label, fmt in per_query[2:]]
                   + [column("w_both", head("th_w_both"), ".3f")],
        "rows": [{"book": b, "key": _vec(lib["keys"][b - 1]), "value": _vec(lib["values"][b - 1]),
                  **{f"{kind}_{q}": lib[q][src][b - 1] for q in ("one", "both")
                     for kind, src in (("dot", "dots"), ("scaled", "scaled"), ("w", "weights"))}}
                 for b in books]}}
    out["library_hand"] = {
        "columns": [column("query", head("th_query")), column("quantity", head("th_quantity")),
                    column("hand", head("th_hand"), ".6f"), column("code", head("th_code"), ".6f"),
                    column("diff", head("th_diff"), ".1e")],
        "rows": [{"query": f"q{n} = {_vec(lib[q]['query'])}", "quantity": f"{name}{j + 1}",
                  "hand": h, "code": c, "diff": abs(h - c)}
                 for n, q in ((1, "one"), (2, "both"))
                 for name, hs, cs in (("w", lib[q]["hand"]["weights"], lib[q]["weights"]),
                                      ("out", lib[q]["hand"]["output"], lib[q]["output"]))
                 for j, (h, c) in enumerate(zip(hs, cs))]}
    st = lib["stretch"]
    n, dw = st["factor"], st["wider_d_k"]
    settings = ((f"q·k/√{lib['d_k']}", "scaled"), ("q·k", "unscaled"),
                (f"({n:g}q)·({n:g}k)", "longer_unscaled"),
                (f"q'·k', d_k = {dw}", "wider_unscaled"), (f"q'·k'/√{dw}", "wider_scaled"))
    out["library_stretch"] = {
        "columns": [column("scores", head("th_scores"))]
                   + [column(f"w{b}", head("th_weight_book", b=b), ".4f") for b in books],
        "rows": [{"scores": label} | {f"w{b}": st[key][b - 1] for b in books} for label, key in settings]}
    L = sdpa["L"]
    q_names, k_names = [f"q{i + 1}" for i in range(L)], [f"k{j + 1}" for j in range(L)]
    dims = [str(j + 1) for j in range(sdpa["d_k"])]
    out["sdpa_inputs"] = matrix_table(sdpa["Q"] + sdpa["K"] + sdpa["V"],
                                      q_names + k_names + [f"v{j + 1}" for j in range(L)],
                                      dims, head("th_corner_inputs"), fmt=".0f")
    for step in ("scores", "scaled", "weights"):
        out[f"sdpa_{step}"] = matrix_table(sdpa[step], q_names, k_names, head("th_corner_scores"))
    out["sdpa_output"] = matrix_table(sdpa["output"], [f"out{i + 1}" for i in range(L)], dims,
                                      head("th_corner_output"))
    if "sdpa_backward" in res:  # lesson 8's aside: the backward pass on this example (page data)
        grad = res["sdpa_backward"]
        out["sdpa_grad_dv"] = matrix_table(grad["dV"], [f"dv{j + 1}" for j in range(L)], dims,
                                           head("th_corner_inputs"), fmt=".3f")
        out["sdpa_grad_ds"] = matrix_table(grad["dS"], q_names, k_names, head("th_corner_scores"), fmt=".3f")
        out["sdpa_grad_dqk"] = matrix_table(grad["dQ"] + grad["dK"], [f"dq{i + 1}" for i in range(L)]
                                            + [f"dk{j + 1}" for j in range(L)], dims,
                                            head("th_corner_inputs"), fmt=".3f")
    for lang in ("ko", "en"):
        order = toy["lang"][lang]["order"]
        names = [WORDS[lang][w] for w in order]
        corner = head("th_corner_words")
        out[f"toy_weights_{lang}"] = matrix_table(toy["lang"][lang]["weights"], names, names, corner)
    return out


def _vec(v) -> str:
    return "[" + ", ".join(f"{x:g}" for x in v) + "]"


# ---------------------------------------------------------------- figures

def figures(results: dict, lang: str, outdir) -> list:
    t = plotting.labels(LABELS, lang)
    with plotting.style(lang):
        return [
            diagrams.architecture(t, outdir),
            diagrams.qkv_roles(results["library"], t, outdir),
            number_figures.sdpa_steps(results["sdpa"], t, outdir),
            number_figures.self_attention(results["toy"], lang, t, outdir),
            number_figures.causal(results["causal"], t, outdir),
            diagrams.multihead(results["multihead"], t, outdir),
            number_figures.sinusoid(results["sinusoid"], t, outdir),
            number_figures.rope(results["rope"], t, outdir),
        ]
