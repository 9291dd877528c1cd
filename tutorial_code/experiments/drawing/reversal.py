"""How the results of :mod:`tutorial_code.experiments.reversal` are drawn: its tables and figures.

Presentation only: the strings (``LABELS``, both languages), ``tables(results)`` and
``figures(results, lang, outdir)``. Editing this file redraws; it never retrains.
"""

from __future__ import annotations

import statistics

import numpy as np
from matplotlib.ticker import FuncFormatter

from . import plotting
from .heatmap import head_grid, heatmap
from .tables import column, headers


def recipe_name(key: str, rec: dict) -> str:
    """The recipe as the table names it: optimiser and schedule, a formula (the same in both languages)."""
    return head(f"recipe_formula_{key}", lr=rec["peak_lr"], w=rec.get("warmup"))["en"]


def tables(r: dict) -> dict:
    rows = []
    for key in r["recipe_order"]:
        rec = r["recipes"][key]
        per_seed = [f"{x['samples_to_target']:,}" if x["samples_to_target"] else f"> {x['cap_samples']:,}"
                    for x in rec["runs"]]
        rows.append({"recipe": recipe_name(key, rec), "reached": f"{rec['reached']}/{rec['n_seeds']}",
                     "per_seed": " / ".join(per_seed),
                     "mean": rec["mean_samples_to_target"] or f"> {rec['cap_samples']:,}",
                     "seconds": rec["mean_seconds_to_target"] or "–"})
    test, att = r["test"], r["attention"]["test_average"]
    final = [{"samples": r["train_samples"], "seconds": r["train_seconds"], "n": test["n_sequences"],
              "token": test["greedy"]["token_accuracy"], "exact": test["greedy"]["exact_match"],
              "forced": test["teacher_forced"]["exact_match"], "mirror": att["last_layer_mirror_weight"]}]
    n_heads = len(att["mirror_weight"][0])
    mirror = [{"layer": i + 1, **{f"h{j + 1}": w[j] for j in range(n_heads)}, "mean": statistics.fmean(w)}
              for i, w in enumerate(att["mirror_weight"])]
    return {
        "mirror": {"columns": [column("layer", head("col_layer")),
                               *[column(f"h{j + 1}", head("col_head_j", j=j + 1), ".3f") for j in range(n_heads)],
                               column("mean", head("col_mean"), ".3f")], "rows": mirror},
        "recipes": {"columns": [
            column("recipe", head("col_recipe")), column("reached", head("col_reached")),
            column("per_seed", head("col_per_seed")),
            column("mean", head("col_mean_2"), ",.0f"),
            column("seconds", head("col_seconds"), ".1f")], "rows": rows},
        "final": {"columns": [
            column("samples", head("col_samples"), ","),
            column("seconds", head("col_seconds_2"), ".1f"),
            column("n", head("col_n"), ","),
            column("token", head("col_token"), ".4f"),
            column("exact", head("col_exact"), ".4f"),
            column("forced", head("col_forced"), ".4f"),
            column("mirror", head("col_mirror"), ".3f")],
            "rows": final},
    }


LABELS = {
    "ko": {
        "title": '숫자 뒤집기를 배우는 인코더–디코더',
        # table headers
        "recipe_formula_one_cycle": "Adam + OneCycleLR (max lr {lr:.2g})",
        "recipe_formula_noam": "Adam(0.9, 0.98) + $D^{{-0.5}}\\min(s^{{-0.5}}, s\\,w^{{-1.5}})$, w = {w}",
        "recipe_formula_constant": "Adam, lr = {lr:g}",
        "col_head_j": "헤드 {j}",
        "col_layer": "층",
        "col_mean": "헤드 평균",
        "col_recipe": "레시피",
        "col_reached": "목표 도달 (시드)",
        "col_per_seed": "시드별 필요 샘플",
        "col_mean_2": "평균 필요 샘플",
        "col_seconds": "평균 학습 시간 (초)",
        "col_samples": "학습 샘플",
        "col_seconds_2": "학습 시간 (초)",
        "col_n": "테스트 시퀀스",
        "col_token": "토큰 정확도 (그리디)",
        "col_exact": "완전 일치율 (그리디)",
        "col_forced": "완전 일치율 (교사 강요)",
        "col_mirror": "거울 위치 가중치 (마지막 층)",
        "loss_title": "학습 손실", "samples": "학습 샘플 수", "loss": "교차 엔트로피 손실",
        "loss_50": "{n}스텝 평균", "loss_epoch": "에포크 평균", "epoch": "에포크 {e}",
        "acc_title": "검증 정확도 (시퀀스 {n:,}개)", "acc": "정확도",
        "token_tf": "토큰 정확도 (교사 강요)", "exact_tf": "완전 일치율 (교사 강요)",
        "exact_greedy": "완전 일치율 (그리디, 에포크 끝)", "target": "목표 {t:.1%}",
        "grid_title": "층 × 헤드별 크로스 어텐션, 입력 {src}",
        "layer": "{i}층", "query": "디코더 입력", "key": "소스 토큰",
        "head_title": "헤드 {j} · 거울 위치 {w:.2f}",
        "mark_note": "주황 테두리: 거울 위치 (출력 $y_i = x_{{{m}-i}}$를 쓸 때 볼 소스 위치)",
        "enc_title": "인코더 셀프 어텐션 ({L}층, 헤드 평균)", "enc_query": "소스 토큰 (쿼리)",
        "cross_title": "크로스 어텐션 ({L}층, 헤드 평균)\n거울 위치 가중치 {w:.2f}",
        "lr_title": "학습률 스케줄", "lr": "학습률",
        "race_title": "목표 {t:.1%}에 닿기까지", "exact": "검증 완전 일치율",
        "seed_styles": "실선: 시드 {a}, 점선: 시드 {b}",
        "reached": "목표 도달", "cap": "예산 한도",
        "recipe_one_cycle": "원사이클 (최대 {lr:.2g})", "recipe_noam": "논문의 웜업 (w = {w})",
        "recipe_constant": "고정 학습률 {lr:g}",
    },
    "en": {
        "title": 'An encoder–decoder learns to reverse digits',
        # table headers
        "recipe_formula_one_cycle": "Adam + OneCycleLR (max lr {lr:.2g})",
        "recipe_formula_noam": "Adam(0.9, 0.98) + $D^{{-0.5}}\\min(s^{{-0.5}}, s\\,w^{{-1.5}})$, w = {w}",
        "recipe_formula_constant": "Adam, lr = {lr:g}",
        "col_head_j": "head {j}",
        "col_layer": "layer",
        "col_mean": "head mean",
        "col_recipe": "recipe",
        "col_reached": "reached (seeds)",
        "col_per_seed": "samples needed, per seed",
        "col_mean_2": "mean samples needed",
        "col_seconds": "mean training time (s)",
        "col_samples": "training samples",
        "col_seconds_2": "training time (s)",
        "col_n": "test sequences",
        "col_token": "token accuracy (greedy)",
        "col_exact": "exact match (greedy)",
        "col_forced": "exact match (teacher forcing)",
        "col_mirror": "weight on the mirror position (last layer)",
        "loss_title": "Training loss", "samples": "training samples", "loss": "cross-entropy loss",
        "loss_50": "mean of {n} steps", "loss_epoch": "epoch mean", "epoch": "epoch {e}",
        "acc_title": "Validation accuracy ({n:,} sequences)", "acc": "accuracy",
        "token_tf": "token accuracy (teacher forcing)", "exact_tf": "exact match (teacher forcing)",
        "exact_greedy": "exact match (greedy, end of epoch)", "target": "target {t:.1%}",
        "grid_title": "Cross-attention of every layer and head, input {src}",
        "layer": "layer {i}", "query": "decoder input", "key": "source token",
        "head_title": "head {j} · mirror {w:.2f}",
        "mark_note": "orange outline: the mirrored position (the source position the output $y_i = x_{{{m}-i}}$ comes from)",
        "enc_title": "Encoder self-attention (layer {L}, head mean)", "enc_query": "source token (query)",
        "cross_title": "Cross-attention (layer {L}, head mean)\nweight on the mirror position {w:.2f}",
        "lr_title": "Learning-rate schedules", "lr": "learning rate",
        "race_title": "Reaching the target of {t:.1%}", "exact": "validation exact match",
        "seed_styles": "solid: seed {a}, dashed: seed {b}",
        "reached": "target reached", "cap": "budget cap",
        "recipe_one_cycle": "one-cycle (max {lr:.2g})", "recipe_noam": "paper's warm-up (w = {w})",
        "recipe_constant": "constant lr {lr:g}",
    },
}
head = headers(LABELS)  # table headers from the same strings
RECIPE_COLORS = {"one_cycle": "scaled", "noam": "raw", "constant": "accent"}


def figures(results: dict, lang: str, outdir) -> list:
    t = plotting.labels(LABELS, lang)
    with plotting.style(lang):
        return [training_curve(results, t, outdir), cross_grid(results, t, outdir),
                attention_summary(results, t, outdir), recipe_figure(results, t, outdir)]


def training_curve(r: dict, t: dict, outdir):
    c = plotting.COLORS
    fig, (ax1, ax2) = plotting.subplots(1, 2)
    curve, epochs = r["loss_curve"], r["epochs"]
    ax1.plot([p["samples"] for p in curve], [p["loss"] for p in curve], color=c["train"], lw=1.3,
             label=t["loss_50"].format(n=r["log_every"]))
    starts = [0] + [e["samples"] for e in epochs[:-1]]
    ax1.hlines([e["loss"] for e in epochs], starts, [e["samples"] for e in epochs], color=c["valid"], lw=2.5,
               label=t["loss_epoch"])
    ax1.set(title=t["loss_title"], xlabel=t["samples"], ylabel=t["loss"], yscale="log")
    # plain tick labels: the log formatter's mathtext minus is missing from NanumGothic
    ax1.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    checks = r["checks"]
    xs = [p["samples"] for p in checks]
    ax2.plot(xs, [p["token_accuracy"] for p in checks], color=c["train"], lw=1.3, label=t["token_tf"])
    ax2.plot(xs, [p["exact_match"] for p in checks], color=c["accent"], lw=1.3, label=t["exact_tf"])
    ax2.plot([e["samples"] for e in epochs], [e["valid_exact_match"] for e in epochs], "s", color=c["valid"],
             label=t["exact_greedy"])
    ax2.axhline(r["target"], ls=":", color=c["reference"], label=t["target"].format(t=r["target"]))
    ax2.set(title=t["acc_title"].format(n=r["data"]["n_valid"]), xlabel=t["samples"], ylabel=t["acc"],
            ylim=(-0.02, 1.02))
    for ax in (ax1, ax2):
        for e in epochs[:-1]:
            ax.axvline(e["samples"], color=c["reference"], lw=0.6, alpha=0.5)
        ax.legend(fontsize=7.5)
    return plotting.save(fig, outdir, "training_curve")


def _mirror_marks(a: dict, length: int) -> list[tuple[int, int]]:
    return [(q, length - q) for q in range(length)]  # query q writes x_{L-q}, at source position L - q


def cross_grid(r: dict, t: dict, outdir):
    a = r["attention"]
    n_layers, n_heads = len(a["cross"]), len(a["cross"][0])
    titles = [[t["head_title"].format(j=j + 1, w=a["example"]["mirror_weight"][i][j]) for j in range(n_heads)]
              for i in range(n_layers)]
    length = len(a["src_tokens"]) - 2
    fig = head_grid(a["cross"], a["src_tokens"], a["tgt_tokens"], titles,
                       [t["layer"].format(i=i + 1) for i in range(n_layers)], t["key"], t["query"],
                       _mirror_marks(a, length))
    fig.suptitle(t["grid_title"].format(src=" ".join(a["src_tokens"])), fontsize=11)
    fig.supxlabel(t["mark_note"].format(m=length + 1), fontsize=8, color=plotting.COLORS["raw"])
    return plotting.save(fig, outdir, "cross_attention_grid")


def attention_summary(r: dict, t: dict, outdir):
    a = r["attention"]
    L = len(a["cross"])
    enc = np.mean(a["encoder"][-1], axis=0)    # (L_s, L_s), the heads averaged
    cross = np.mean(a["cross"][-1], axis=0)    # (L_t, L_s)
    fig, (ax1, ax2) = plotting.subplots(1, 2, figsize=(8.4, 4.2))
    heatmap(ax1, enc, a["src_tokens"], a["src_tokens"], vmin=0.0, vmax=1.0, tick_size=7.5, xrotation="tokens")
    ax1.set(title=t["enc_title"].format(L=L), xlabel=t["key"], ylabel=t["enc_query"])
    im = heatmap(ax2, cross, a["src_tokens"], a["tgt_tokens"], marks=_mirror_marks(a, len(a["src_tokens"]) - 2),
                 vmin=0.0, vmax=1.0, tick_size=7.5, xrotation="tokens")
    ax2.set_title(t["cross_title"].format(L=L, w=a["example"]["last_layer_mirror_weight"]), linespacing=1.5)
    ax2.set(xlabel=t["key"], ylabel=t["query"])
    for ax in (ax1, ax2):
        ax.tick_params(labelsize=8.5)
    fig.colorbar(im, ax=[ax1, ax2], shrink=0.8)
    return plotting.save(fig, outdir, "attention_summary")


def recipe_figure(r: dict, t: dict, outdir):
    c = plotting.COLORS
    fig, (ax1, ax2) = plotting.subplots(1, 2)
    for key in r["recipe_order"]:
        rec = r["recipes"][key]
        color = c[RECIPE_COLORS[key]]
        name = t[f"recipe_{key}"].format(lr=rec["peak_lr"], w=rec.get("warmup"))
        xs = np.arange(len(rec["lr_trace"])) * rec["lr_trace_every_samples"]
        ax1.plot(xs, rec["lr_trace"], color=color, label=name)
        for k, run in enumerate(rec["runs"]):
            pts = run["checks"]
            ax2.plot([p["samples"] for p in pts], [p["exact_match"] for p in pts], color=color,
                     lw=1.2, ls="-" if k == 0 else "--", label=name if k == 0 else None)
            if run["samples_to_target"]:
                ax2.plot(run["samples_to_target"], r["target"], "o", color=color, ms=5)
    ax1.set(title=t["lr_title"], xlabel=t["samples"], ylabel=t["lr"])
    ax1.ticklabel_format(axis="y", style="sci", scilimits=(-3, -3))
    ax2.axhline(r["target"], ls=":", color=c["reference"])
    if r["compare_seeds"] > 1:
        ax2.plot([], [], color=c["reference"], lw=0, label=t["seed_styles"].format(a=r["seed"], b=r["seed"] + 1))
    ax2.set(title=t["race_title"].format(t=r["target"]), xlabel=t["samples"], ylabel=t["exact"], ylim=(-0.02, 1.02))
    ax1.legend(fontsize=7.5)
    ax2.legend(fontsize=7.5, loc="lower right")
    return plotting.save(fig, outdir, "recipes")
