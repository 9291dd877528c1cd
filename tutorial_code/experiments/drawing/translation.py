"""How the results of :mod:`tutorial_code.experiments.translation` are drawn: its tables and figures.

Presentation only: the strings (``LABELS``, both languages), ``tables(results)`` and
``figures(results, lang, outdir)``. Editing this file redraws; it never retrains.
"""

from __future__ import annotations

from ..translation import PATTERNS
from . import plotting
from .heatmap import heatmap
from .tables import column, headers


def tables(results: dict) -> dict:
    return {
        "samples": {"columns": [
            column("source", head("col_source")),
            column("reference", head("col_reference")),
            column("output", head("col_output")),
            column("match", head("col_match")),
        ], "rows": results["samples"]},
        "by_pattern": {"columns": [
            column("pattern", head("col_pattern")),
            column("n", head("col_n")),
            column("exact_match", head("col_exact_match"), ".1%"),
        ], "rows": [{"pattern": PATTERN_NAMES[p], **v} for p, v in results["by_pattern"].items()]},
        "alignment_rows": {"columns": [
            column("kind", head("col_row_kind")),
            column("n", head("col_rows")),
            column("hit", head("col_hit"), ".1%"),
            column("on_verb", head("col_on_verb"), ".1%"),
            column("verb_weight", head("col_verb_weight"), ".3f"),
        ], "rows": [{"kind": ROW_NAMES[k], "hit": "–", **results["alignment"]["last"][k]} for k in ROW_NAMES]},
    }


# the word-order table's rows: each sentence is counted once, under the first of O S V > Adv > Adj that it
# has, so the symbols say what each row leaves out (the same in both languages)
PATTERN_NAMES = {"plain": PATTERNS["plain"], "adjective": "Adj S O V, S Adj O V, Adj S Adj O V",
                 "adverb": PATTERNS["adverb"] + " (± Adj)", "scrambled": PATTERNS["scrambled"] + " (± Adj, ± Adv)"}


def words(results: dict) -> dict:
    """Whether rounding the parameters to int8 changed the exact match the lesson quotes, and the
    last layer's weight from "ate" to "먹었다" written so that it never reads as a whole 1."""
    words = {"rounding": _rounding(results)}
    if "verb_weight" in results.get("example", {}):  # a tiny run may not write "ate"
        words["verb_weight"] = weight_text(results["example"]["verb_weight"])
    return words


def _rounding(results: dict) -> dict:
    before, after = results["export"]["float_exact_match"], results["exact_match"]
    x = f"{before:.1%}"
    if before == after:
        return {"ko": "반올림하기 전의 모델도 정확도가 같습니다", "en": "The model before rounding has the same accuracy"}
    if x == f"{after:.1%}":
        return {"ko": f"반올림하기 전의 모델도 {x}로, 소수점 아래 첫째 자리까지 같습니다",
                "en": f"The model before rounding also scores {x}, the same to one decimal place"}
    return {"ko": f"반올림하기 전의 모델은 {x}였습니다", "en": f"The model before rounding scored {x}"}


def weight_text(w: float, digits: int = 3) -> dict:
    """An attention weight with ``digits`` decimals, or more where that many would round it to
    1 or 0: the lesson's point is that attention blends, so a weight below 1 is never shown as
    1.000 (0.99969 is written 0.9997). A weight that is exactly 1 or 0 is said to be exact."""
    if w in (0.0, 1.0):
        return {"ko": f"정확히 {w:g}", "en": f"exactly {w:g}"}
    while float(f"{w:.{digits}f}") in (0.0, 1.0):
        digits += 1
    return {lang: f"{w:.{digits}f}" for lang in ("ko", "en")}


# decoder rows by what they write, in the symbols of the word-order table (the same in both languages)
# (a code span, so that the page shows the end token rather than reading it as an HTML tag)
ROW_NAMES = {"verb": "V", "other": "S · O · Adj · Adv", "the": "the", "end": "EOS"}  # the end token, named as the lessons name it


LABELS = {
    "ko": {
        "title": '장난감 한→영 번역과 크로스 어텐션',
        # table headers
        "col_source": "한국어 입력",
        "col_reference": "정답",
        "col_output": "모델 번역",
        "col_match": "일치",
        "col_pattern": "어순 (한국어)",
        "col_n": "문장 수",
        "col_exact_match": "완전 일치율",
        "col_row_kind": "쓰는 단어",
        "col_rows": "행 수",
        "col_hit": "최댓값이 번역 단어에",
        "col_on_verb": "최댓값이 동사 열에",
        "col_verb_weight": "동사 열의 평균 가중치",
        "src": "한국어 입력 (인코더)",
        "tgt": "만들어 내는 영어 단어 (디코더)",
        "eos": "EOS",
        "mean_title": "크로스 어텐션 (마지막 층, 헤드 평균)",
        "grid_title": "층 × 헤드별 크로스 어텐션",
        "layer": "층 {l}",
        "head": "헤드 {h}",
        "mean": "헤드 평균",
        "weight": "가중치",
        "epoch": "에포크",
        "loss_title": "손실",
        "train_loss": "학습 데이터",
        "test_loss": "테스트 (처음 보는 조합)",
        "loss": "교차 엔트로피",
        "acc_title": "처음 보는 조합의 문장 (테스트)",
        "acc": "정확도",
        "token_acc": "토큰 정확도 (교사 강요)",
        "exact": "문장 완전 일치율 (그리디 디코딩, 학습 후)",
    },
    "en": {
        "title": 'A toy Korean→English translator and its cross-attention',
        # table headers
        "col_source": "Korean source",
        "col_reference": "reference",
        "col_output": "model output",
        "col_match": "match",
        "col_pattern": "pattern (Korean)",
        "col_n": "sentences",
        "col_exact_match": "exact match",
        "col_row_kind": "row writes",
        "col_rows": "rows",
        "col_hit": "peak on the translated word",
        "col_on_verb": "peak on the verb's column",
        "col_verb_weight": "mean weight on the verb's column",
        "src": "Korean source (encoder)",
        "tgt": "English word being produced (decoder)",
        "eos": "EOS",
        "mean_title": "Cross-attention (last layer, mean over heads)",
        "grid_title": "Cross-attention by layer × head",
        "layer": "layer {l}",
        "head": "head {h}",
        "mean": "mean of heads",
        "weight": "weight",
        "epoch": "epoch",
        "loss_title": "Loss",
        "train_loss": "training data",
        "test_loss": "test (unseen combinations)",
        "loss": "cross-entropy",
        "acc_title": "Sentences with unseen combinations (test)",
        "acc": "accuracy",
        "token_acc": "token accuracy (teacher forcing)",
        "exact": "exact sentence match (greedy, after training)",
    },
}
head = headers(LABELS)  # table headers from the same strings


def figures(results: dict, lang: str, outdir) -> list:
    t = plotting.labels(LABELS, lang)
    files = []
    with plotting.style(lang):
        for stem, key in (("cross_attention", "example"), ("cross_attention_scrambled", "example_scrambled")):
            ex = results[key]
            rows = ex["rows"][:-1] + [t["eos"]]
            fig, ax = plotting.subplots(1, 1, figsize=(4.6, 4.2))
            im = heatmap(ax, ex["mean"][-1], ex["korean"], rows, fmt=".2f", vmin=0, vmax=1, fontsize=8,
                         aspect="auto", xrotation=30 if len(ex["korean"]) > 3 else 0)
            ax.set(title=f"{t['mean_title']}\n{' '.join(ex['korean'])}", xlabel=t["src"], ylabel=t["tgt"])
            fig.colorbar(im, ax=ax, shrink=0.8, label=t["weight"])
            files.append(plotting.save(fig, outdir, stem))
        files.append(grid_figure(results["example"], t, outdir))
        files.append(curve_figure(results, t, outdir))
    return files


def grid_figure(ex: dict, t: dict, outdir):
    """Layer × head maps of the example, with the head average in the last column."""
    n_layers, n_heads = len(ex["heads"]), len(ex["heads"][0])
    rows = ex["rows"][:-1] + [t["eos"]]
    fig, axes = plotting.subplots(n_layers, n_heads + 1, figsize=(1.9 * (n_heads + 1) + 0.6, 2.5 * n_layers + 0.6),
                                  squeeze=False)
    for l in range(n_layers):
        for h in range(n_heads + 1):
            ax = axes[l][h]
            m = ex["heads"][l][h] if h < n_heads else ex["mean"][l]
            im = heatmap(ax, m, ex["korean"], rows, vmin=0, vmax=1, aspect="auto",
                         xrotation=30 if len(ex["korean"]) > 3 else 0, show_ticks=(l == n_layers - 1, h == 0))
            ax.set_title(t["head"].format(h=h + 1) if h < n_heads else t["mean"], fontsize=9)
            if h == 0:
                ax.set_ylabel(t["layer"].format(l=l + 1), fontsize=10)
    fig.colorbar(im, ax=axes, shrink=0.6, label=t["weight"])
    fig.suptitle(t["grid_title"])
    return plotting.save(fig, outdir, "cross_attention_heads")


def curve_figure(results: dict, t: dict, outdir):
    """Training and held-out loss, held-out token accuracy; the final exact match as a line."""
    c = plotting.COLORS
    curve = results["curve"]
    epochs = [r["epoch"] for r in curve]
    fig, (ax1, ax2) = plotting.subplots(1, 2)
    ax1.plot(epochs[1:], [r["loss"] for r in curve[1:]], "-", color=c["train"], label=t["train_loss"])
    ax1.plot(epochs, [r["test_loss"] for r in curve], "--", color=c["valid"], label=t["test_loss"])
    ax1.set(title=t["loss_title"], xlabel=t["epoch"], ylabel=t["loss"])
    plotting.log_y(ax1)
    ax1.legend(fontsize=8)
    ax2.plot(epochs, [r["test_token_acc"] for r in curve], "-", color=c["valid"], label=t["token_acc"])
    ax2.axhline(results["exact_match"], ls=":", color=c["accent"], label=t["exact"])
    ax2.set(title=t["acc_title"], xlabel=t["epoch"], ylabel=t["acc"], ylim=(0, 1.02))
    ax2.legend(fontsize=8, loc="lower right")
    return plotting.save(fig, outdir, "training_curve")
