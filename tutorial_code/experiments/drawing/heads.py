"""How the results of :mod:`tutorial_code.experiments.heads` are drawn: its tables and figures.

Presentation only: the strings (``LABELS``, both languages), ``tables(results)`` and
``figures(results, lang, outdir)``. Editing this file redraws; it never retrains.
"""

from __future__ import annotations

import numpy as np

from . import plotting
from .heatmap import head_grid
from .tables import column, headers


def tables(r: dict) -> dict:
    acc_rows = []
    for h, d_k in zip(r["head_counts"], r["d_k"]):
        e, p = r["by_heads"][str(h)], r["params"]["by_heads"][str(h)]
        acc_rows.append({"h": h, "d_k": d_k, "attention": p["attention"], "total": p["total"],
                         "token": e["test_token_accuracy"], "exact": e["test_exact_match"],
                         "per_seed": " / ".join(f"{x['test']['exact_match']:.3f}" for x in e["runs"]),
                         "seconds": e["seconds"]})
    p = r["patterns"]["test_average"]
    head_rows = [{"layer": i + 1, "head": j + 1, "entropy": p["entropy"][i][j], "max": p["max_weight"][i][j],
                  "write": p["write_weight"][i][j], "read": p["read_weight"][i][j]}
                 for i in range(len(p["entropy"])) for j in range(len(p["entropy"][i]))]
    return {
        "accuracy": {"columns": [
            column("h", head("col_h")), column("d_k", head("col_d_k")),
            column("attention", head("col_attention"), ","),
            column("total", head("col_total"), ","),
            column("token", head("col_token"), ".3f"),
            column("exact", head("col_exact"), ".3f"),
            column("per_seed", head("col_per_seed")),
            column("seconds", head("col_seconds"), ".1f")], "rows": acc_rows},
        "patterns": {"columns": [
            column("layer", head("col_layer")), column("head", head("col_head")),
            column("entropy", head("col_entropy"), ".2f"),
            column("max", head("col_max"), ".2f"),
            column("write", head("col_write"), ".2f"),
            column("read", head("col_read"), ".2f")],
            "rows": head_rows},
    }


def mean_valid_curves(r: dict) -> dict[int, list[float]]:
    """Per head count, the validation exact match along training, averaged over the seeds."""
    out = {}
    for h in r["head_counts"]:
        runs = r["by_heads"][str(h)]["runs"]
        out[h] = [float(m) for m in np.mean([[p["exact_match"] for p in run["valid_curve"]] for run in runs], axis=0)]
    return out


def still_rising(r: dict) -> bool:
    """Whether every head count's seed-mean validation curve is still going up at its last check."""
    return all(len(curve) > 1 and curve[-1] > curve[-2] for curve in mean_valid_curves(r).values())


def words(r: dict) -> dict:
    """The lesson's reading of the accuracies, chosen from the curves: while every curve still
    rises at the end, the head counts are compared on learning speed within the budget."""
    key = "w_rising" if still_rising(r) else "w_flat"
    return {"learning_speed": {lang: LABELS[lang][key] for lang in LABELS}}


LABELS = {
    "ko": {
        "title": '헤드 수를 바꾸면: 같은 파라미터, 다른 분할',
        # table headers
        "col_h": "헤드 수 $h$",
        "col_d_k": "$d_k$",
        "col_attention": "어텐션 파라미터",
        "col_total": "전체 파라미터",
        "col_token": "토큰 정확도",
        "col_exact": "완전 일치율",
        "col_per_seed": "시드별 완전 일치율",
        "col_seconds": "학습 시간 (초)",
        "col_layer": "층",
        "col_head": "헤드",
        "col_entropy": "엔트로피 (nat)",
        "col_max": "최대 가중치",
        "col_write": "쓸 숫자에 준 가중치",
        "col_read": "방금 읽은 숫자에 준 가중치",
        "acc_title": "헤드 수별 테스트 정확도 (학습 샘플 {samples:,}개 뒤, 시드 {n}개)",
        "acc_y": "테스트 정확도",
        "still_climbing": "모든 곡선이 끝에서도 오르는 중: 용량이 아니라 학습 속도의 비교",
        "flat_at_end": "곡선이 끝에서 평평해짐: 이 예산 안에서의 비교",
        "w_rising": ("오른쪽 그림의 곡선은 학습이 끝날 때도 모두 오르는 중이므로, 이 숫자는 헤드 수마다 담을 수 있는 것의 "
                     "비교가 아니라 이 예산 안에서 얼마나 빨리 배우는지의 비교입니다."),
        "w_flat": ("오른쪽 그림에서 평평해진 곡선이 있으므로, 이 숫자는 이 예산 안에서 얻은 값일 뿐 "
                   "더 오래 학습한 결과를 말해 주지는 않습니다."),
        "heads_axis": "헤드 수 $h$ ($d_k = 64/h$)",
        "token": "토큰 정확도", "exact": "완전 일치율", "seed": "시드별 값",
        "curve_title": "학습 중 검증 완전 일치율 (시드 평균)",
        "samples": "학습 샘플 수", "exact_y": "완전 일치율",
        "heads_legend": "$h$ = {h}",
        "params_note": "어텐션 모듈 파라미터: 모든 $h$에서 {n:,}개",
        "grid_title": "크기순 과제를 배운 헤드의 크로스 어텐션 (입력 하나: {src})",
        "layer": "{i}층", "query": "디코더 입력", "key": "원문 토큰",
        "head_title": "헤드 {j}\nH={H:.2f} · 쓸 숫자 {w:.2f}",
        "mark_note": "{colour} 테두리: 지금 쓸 숫자가 있는 원문 위치 · H: 이 입력에서의 엔트로피(nat, 균등하면 {u:.2f}) · 쓸 숫자: 이 입력에서 그 위치에 준 가중치",
    },
    "en": {
        "title": 'Changing the head count: same parameters, different split',
        # table headers
        "col_h": "heads $h$",
        "col_d_k": "$d_k$",
        "col_attention": "attention parameters",
        "col_total": "all parameters",
        "col_token": "token accuracy",
        "col_exact": "exact match",
        "col_per_seed": "exact match per seed",
        "col_seconds": "training time (s)",
        "col_layer": "layer",
        "col_head": "head",
        "col_entropy": "entropy (nats)",
        "col_max": "largest weight",
        "col_write": "weight on the digit written",
        "col_read": "weight on the digit just read",
        "acc_title": "Test accuracy by head count (after {samples:,} training samples, {n} seeds)",
        "acc_y": "test accuracy",
        "still_climbing": "every curve is still rising at the end: this compares learning speed, not capacity",
        "flat_at_end": "some curves have levelled off: a comparison within this budget",
        "w_rising": ("Every curve in the right-hand plot is still rising when training stops, so these numbers "
                     "compare how fast each split learns within this budget, not what each could hold."),
        "w_flat": ("Some curves in the right-hand plot have levelled off, so these numbers hold for this budget "
                   "and say nothing about longer training."),
        "heads_axis": "heads $h$ ($d_k = 64/h$)",
        "token": "token accuracy", "exact": "exact match", "seed": "per seed",
        "curve_title": "Validation exact match during training (seed mean)",
        "samples": "training samples", "exact_y": "exact match",
        "heads_legend": "$h$ = {h}",
        "params_note": "attention module parameters: {n:,} for every $h$",
        "grid_title": "Cross-attention of the heads that learned to sort (one input: {src})",
        "layer": "layer {i}", "query": "decoder input", "key": "source token",
        "head_title": "head {j}\nH={H:.2f} · written {w:.2f}",
        "mark_note": "{colour} outline: the source position of the digit being written\nH: entropy on this input (nats; uniform = {u:.2f}) · written: the weight there on this input",
    },
}
head = headers(LABELS)  # table headers from the same strings
HEAD_COLORS = ("raw", "valid", "accent", "scaled", "other")


def figures(results: dict, lang: str, outdir) -> list:
    t = plotting.labels(LABELS, lang)
    with plotting.style(lang):
        return [accuracy_figure(results, t, outdir), patterns_figure(results, t, lang, outdir)]


def accuracy_figure(r: dict, t: dict, outdir):
    c = plotting.COLORS
    fig, (ax1, ax2) = plotting.subplots(1, 2, figsize=(10.0, 3.7))
    x = np.arange(len(r["head_counts"]))
    ticks = [f"{h}\n($d_k$={d})" for h, d in zip(r["head_counts"], r["d_k"])]
    for key, color, dx, marker in (("token_accuracy", c["scaled"], -0.08, "o"), ("exact_match", c["raw"], 0.08, "s")):
        ax1.plot(x + dx, r[f"test_{key}"], marker=marker, color=color, lw=1.5,
                 label=t["token" if key == "token_accuracy" else "exact"])
        for i, h in enumerate(r["head_counts"]):
            seeds = [run["test"][key] for run in r["by_heads"][str(h)]["runs"]]
            ax1.scatter([x[i] + dx] * len(seeds), seeds, s=12, color=color, alpha=0.45, lw=0)
    ax1.set_xticks(x, ticks)
    title = (t["acc_title"].format(n=r["seeds"], samples=r["train_samples"]) + "\n"
             + t["params_note"].format(n=r["params"]["attention_module"]))
    ax1.set(title=title, xlabel=t["heads_axis"], ylabel=t["acc_y"], ylim=(None, 1.01))
    ax1.legend(fontsize=8, loc="center right")
    curves = mean_valid_curves(r)
    for i, h in enumerate(r["head_counts"]):
        samples = [p["samples"] for p in r["by_heads"][str(h)]["runs"][0]["valid_curve"]]
        mean = curves[h]
        ax2.plot(samples, mean, "o-", ms=3, color=c[HEAD_COLORS[i % len(HEAD_COLORS)]],
                 label=t["heads_legend"].format(h=h))
    ax2.set(title=t["curve_title"], xlabel=t["samples"], ylabel=t["exact_y"], ylim=(-0.02, 1.02))
    ax2.legend(fontsize=8)
    fig.supxlabel(t["still_climbing" if still_rising(r) else "flat_at_end"], fontsize=9)
    return plotting.save(fig, outdir, "heads_accuracy")


def patterns_figure(r: dict, t: dict, lang: str, outdir):
    p = r["patterns"]
    stats = p["example"]
    n_layers, n_heads = len(p["cross"]), p["n_heads"]
    titles = [[t["head_title"].format(j=j + 1, H=stats["entropy"][i][j], w=stats["write_weight"][i][j])
               for j in range(n_heads)] for i in range(n_layers)]
    marks = [(q, p["src_tokens"].index(tok)) for q, tok in enumerate(p["out_tokens"]) if tok in p["src_tokens"]]
    fig = head_grid(p["cross"], p["src_tokens"], p["tgt_tokens"], titles,
                       [t["layer"].format(i=i + 1) for i in range(n_layers)], t["key"], t["query"], marks)
    digits = " ".join(tok for tok in p["src_tokens"] if tok.isdigit())
    fig.suptitle(t["grid_title"].format(src=digits), fontsize=11)
    fig.supxlabel(t["mark_note"].format(u=p["uniform_entropy"], colour=plotting.COLOR_NAMES["raw"][lang]),
                  fontsize=8, color=plotting.COLORS["raw"])
    return plotting.save(fig, outdir, "heads_patterns")
