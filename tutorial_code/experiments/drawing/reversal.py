"""How the results of :mod:`tutorial_code.experiments.reversal` are drawn: its tables and figures.

Presentation only: the strings (``LABELS``, both languages), ``tables(results)``,
``figures(results, lang, outdir)`` and ``words(results)`` (the comparatives and yes/no phrases
of lesson 8, chosen here from the results). Editing this file redraws; it never retrains.
"""

from __future__ import annotations

import statistics

import numpy as np
from matplotlib.ticker import FuncFormatter

from . import plotting
from .heatmap import head_grid, heatmap
from .tables import column, headers
from .norm_placement import power_of_ten
from ..common.ko_en_grammar import has_batchim


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
    epochs = {"columns": [
        column("epoch", head("col_epoch")), column("samples", head("col_samples_so_far"), ","),
        column("loss", head("col_loss"), ".3g"),
        column("valid_token_accuracy", head("col_valid_token_greedy"), ".1%"),
        column("valid_exact_match", head("col_valid_exact_greedy"), ".1%")], "rows": r["epochs"]}
    points = [{**c, "output": " ".join(c["greedy_output"][1:])} for c in r["widgets"]["checkpoints"]["checkpoints"]]
    checkpoints = {"columns": [
        column("samples", head("col_samples_so_far"), ","),
        column("valid_exact_match", head("col_valid_exact_tf"), ".1%"),
        column("last_layer_mirror_weight", head("col_mirror_this_input"), ".2f"),
        column("output", head("col_greedy_output"))], "rows": points}
    return {
        "epochs": epochs, "checkpoints": checkpoints,
        "mirror": {"columns": [column("layer", head("col_layer")),
                               *[column(f"h{j + 1}", head("col_head_j", j=j + 1), ".3f") for j in range(n_heads)],
                               column("mean", head("col_mean"), ".3f")], "rows": mirror},
        "recipes": {"columns": [
            column("recipe", head("col_recipe")), column("reached", head("col_reached")),
            column("per_seed", head("col_per_seed")),
            column("mean", head("col_mean_2"), ",.0f")], "rows": rows},  # samples, not seconds: no machine facts on a lesson
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
        "col_reached": "기준 도달 (시드)",
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
        "exact_greedy": "완전 일치율 (그리디, 에포크 끝)", "target": "기준 {t:.1%}",
        "grid_title": "층 × 헤드별 크로스 어텐션: 이 입력 하나({src})",
        "layer": "{i}층", "query": "디코더 입력", "key": "원문 토큰",
        "head_title": "헤드 {j}\n이 입력의 거울 위치 {w:.2f}",
        "mark_note": "{colour} 테두리: 거울 위치 (출력 $y_i = x_{{{m}-i}}$를 쓸 때 볼 원문 위치)",
        "enc_title": "인코더 셀프 어텐션\n({L}층, 헤드 평균, 이 입력)", "enc_query": "원문 토큰 (쿼리)",
        "cross_title": "크로스 어텐션 ({L}층, 헤드 평균)\n이 입력의 거울 위치 가중치 {w:.2f}",
        "lr_title": "학습률 스케줄", "lr": "학습률",
        "race_title": "기준 {t:.1%}에 닿기까지", "exact": "검증 완전 일치율",
        "seed_styles": "실선: 시드 {a}, 점선: 시드 {b}",
        "reached": "기준 도달", "cap": "예산 한도",
        "recipe_one_cycle": "원사이클 (최대 {lr:.2g})", "recipe_noam": "논문의 웜업 (w = {w})",
        "recipe_constant": "고정 학습률 {lr:g}",
        "col_epoch": "에포크", "col_samples_so_far": "누적 학습 샘플", "col_loss": "평균 학습 손실",
        "col_valid_token_greedy": "검증 토큰 정확도 (그리디)",
        "col_valid_exact_greedy": "검증 완전 일치율 (그리디)",
        "col_valid_exact_tf": "검증 완전 일치율 (교사 강요)",
        "col_mirror_this_input": "거울 위치 가중치 (이 입력, 마지막 층)",
        "col_greedy_output": "이 입력의 그리디 출력",
        "ckpt_title": "학습 중 크로스 어텐션 ({L}층, 헤드 평균, 입력 {src})",
        "ckpt_panel": "샘플 {s:,}개 뒤 · 거울 위치 {w:.2f}",
        # words(): comparatives and yes/no, chosen from the results
        "schedule_one_cycle": "원사이클", "schedule_noam": "논문의 웜업", "schedule_constant": "고정 학습률",
        "name_join": "·", "tie": "무승부 ({names})",
        "verdict_same": "{names}{topic} 시드마다 같은 검증 지점({points}샘플)에서 기준에 닿았습니다. 이 간격으로 재서는 {count} 레시피의 빠르기를 가를 수 없습니다.",
        "verdict_equal": "{names}{topic} 평균 {mean:,.0f}샘플로 같았지만, 시드별로 기준에 닿은 지점은 달랐습니다({per}). 시드 {n}개로는 어느 쪽이 빠르다고 할 수 없습니다.",
        "verdict_one": "시드마다 기준에 닿은 레시피 가운데 {name}{subject} 평균 {mean:,.0f}샘플로 가장 빨랐고, 다음 레시피보다 {diff:,.0f}샘플(검증 {steps:g}번 분량) 앞섰습니다.",
        "verdict_only": "시드마다 기준에 닿은 레시피는 {name}뿐이고, 평균 {mean:,.0f}샘플이 들었습니다.",
        "verdict_tie": "{names}{topic} 평균 {diff:,.0f}샘플 차이로, 검증 간격 하나 안이라 무승부입니다({per}).",
        "per_seed": "{name} {points}",
        "verdict_none": "모든 시드에서 기준에 닿은 레시피가 없습니다.",
        "reached_all": "시드 {n}개 모두 한도 안에 기준에 닿았습니다",
        "reached_none": "어느 시드도 한도 안에 기준에 닿지 못했습니다",
        "reached_some": "시드 {n}개 가운데 {k}개만 한도 안에 기준에 닿았습니다",
        "overlap_none": "학습 시퀀스 가운데 검증이나 테스트 시퀀스와 같은 것은 하나도 없습니다",
        "overlap_some": "학습 시퀀스 {k:,}개가 검증이나 테스트 시퀀스와 겹칩니다",
        "far_above": "훨씬 큽니다", "above": "큽니다", "not_above": "크지 않습니다",
        "half_at": "학습 샘플 {s:,}개를 본 지점에서 마지막 층(헤드 평균)이 처음으로 이 입력의 거울 위치에 가중치를 절반 넘게 주었습니다",
        "half_never": "마지막 층(헤드 평균)은 어느 지점에서도 이 입력의 거울 위치에 가중치의 절반 넘게 주지 않았습니다",
        "correct_from": "이 입력을 처음 바르게 뒤집은 것은 샘플 {s:,}개를 본 지점입니다",
        "correct_same": "모델이 이 입력을 처음 바르게 뒤집은 것도 같은 지점입니다",
        "correct_never": "모델은 어느 지점에서도 이 입력을 바르게 뒤집지 못했습니다",
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
        "exact_greedy": "exact match (greedy, end of epoch)", "target": "threshold {t:.1%}",
        "grid_title": "Cross-attention of every layer and head for this one input: {src}",
        "layer": "layer {i}", "query": "decoder input", "key": "source token",
        "head_title": "head {j}\nmirror weight {w:.2f}",
        "mark_note": "{colour} outline: the mirrored position (the source position the output $y_i = x_{{{m}-i}}$ comes from)",
        "enc_title": "Encoder self-attention\n(layer {L}, head mean, this input)", "enc_query": "source token (query)",
        "cross_title": "Cross-attention (layer {L}, head mean)\nweight on the mirror position, this input {w:.2f}",
        "lr_title": "Learning-rate schedules", "lr": "learning rate",
        "race_title": "Reaching the threshold of {t:.1%}", "exact": "validation exact match",
        "seed_styles": "solid: seed {a}, dashed: seed {b}",
        "reached": "threshold reached", "cap": "budget cap",
        "recipe_one_cycle": "one-cycle (max {lr:.2g})", "recipe_noam": "paper's warm-up (w = {w})",
        "recipe_constant": "constant lr {lr:g}",
        "col_epoch": "epoch", "col_samples_so_far": "training samples so far", "col_loss": "mean training loss",
        "col_valid_token_greedy": "validation token accuracy (greedy)",
        "col_valid_exact_greedy": "validation exact match (greedy)",
        "col_valid_exact_tf": "validation exact match (teacher forcing)",
        "col_mirror_this_input": "weight on the mirror position (this input, last layer)",
        "col_greedy_output": "greedy output for this input",
        "ckpt_title": "Cross-attention during training (layer {L}, head mean, input {src})",
        "ckpt_panel": "after {s:,} samples · mirror {w:.2f}",
        # words(): comparatives and yes/no, chosen from the results
        "schedule_one_cycle": "one-cycle", "schedule_noam": "the paper's warm-up", "schedule_constant": "the constant learning rate",
        "name_join": " and ", "tie": "a tie ({names})",
        "verdict_same": "{Names} reached the threshold at the same checks on every seed (after {points} samples): at this interval the {count} recipes cannot be told apart.",
        "verdict_equal": "{Names} needed the same mean, {mean:,.0f} samples, but reached the threshold at different checks on each seed ({per}): with {n} seeds, neither is faster.",
        "verdict_one": "Of the recipes that reached the threshold on every seed, {name} was fastest, {mean:,.0f} samples on average, {diff:,.0f} samples ({steps:g} checks) ahead of the next.",
        "verdict_only": "Only {name} reached the threshold on every seed, after {mean:,.0f} samples on average.",
        "verdict_tie": "{Names} are {diff:,.0f} samples apart on average, within one check interval: a tie ({per}).",
        "per_seed": "{name} {points}",
        "verdict_none": "No recipe reached the threshold on every seed.",
        "reached_all": "reached the threshold within the cap on every seed ({n} of {n})",
        "reached_none": "did not reach the threshold within the cap on any seed",
        "reached_some": "reached the threshold within the cap on only {k} of {n} seeds",
        "overlap_none": "not one training sequence is also a validation or test sequence",
        "overlap_some": "{k:,} training sequences are also validation or test sequences",
        "far_above": "far above", "above": "above", "not_above": "not above",
        "half_at": "After {s:,} training samples, the last layer (mean over heads) first puts more than half of its weight on this input's mirrored positions",
        "half_never": "At no point does the last layer (mean over heads) put more than half of its weight on this input's mirrored positions",
        "correct_from": "It first reverses this input correctly after {s:,} samples",
        "correct_same": "The model first reverses this input correctly at that same point",
        "correct_never": "At no point does the model reverse this input correctly",
    },
}
head = headers(LABELS)  # table headers from the same strings
RECIPE_COLORS = {"one_cycle": "scaled", "noam": "raw", "constant": "accent"}


def figures(results: dict, lang: str, outdir) -> list:
    t = {**plotting.labels(LABELS, lang), "colour_raw": plotting.COLOR_NAMES["raw"][lang]}
    with plotting.style(lang):
        return [training_curve(results, t, outdir), cross_grid(results, t, outdir),
                attention_summary(results, t, outdir), recipe_figure(results, t, outdir),
                checkpoint_figure(results, t, outdir)]


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
    note = t["mark_note"].format(m=length + 1, colour=t["colour_raw"])
    fig.supxlabel(note[:1].upper() + note[1:], fontsize=8,
                  color=plotting.COLORS["raw"])
    return plotting.save(fig, outdir, "cross_attention_grid")


def attention_summary(r: dict, t: dict, outdir):
    a = r["attention"]
    L = len(a["cross"])
    enc = np.mean(a["encoder"][-1], axis=0)    # (L_s, L_s), the heads averaged
    cross = np.mean(a["cross"][-1], axis=0)    # (L_t, L_s)
    fig, (ax1, ax2) = plotting.subplots(1, 2, figsize=(8.4, 4.2))
    heatmap(ax1, enc, a["src_tokens"], a["src_tokens"], vmin=0.0, vmax=1.0, tick_size=7.5, xrotation="tokens")
    ax1.set_title(t["enc_title"].format(L=L), linespacing=1.5)
    ax1.set(xlabel=t["key"], ylabel=t["enc_query"])
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


def checkpoint_figure(r: dict, t: dict, outdir):
    """Six of the slider's points: the last layer's cross-attention (head mean) growing into the anti-diagonal."""
    w = r["widgets"]["checkpoints"]
    points = w["checkpoints"]
    picks = sorted({round(i * (len(points) - 1) / 5) for i in range(6)})   # first, last and between
    fig, axes = plotting.subplots(2, 3, figsize=(8.4, 6.0))
    marks = [tuple(m) for m in w["mirror"]]
    for ax, k in zip(axes.flat, picks):
        cross = np.mean(points[k]["cross"][-1], axis=0)                     # (L_t, L_s)
        heatmap(ax, cross, w["src_tokens"], w["tgt_tokens"], marks=marks, vmin=0.0, vmax=1.0,
                tick_size=7.5, xrotation="tokens")
        ax.set_title(t["ckpt_panel"].format(s=points[k]["samples"], w=points[k]["last_layer_mirror_weight"]),
                     fontsize=9)
    for ax in list(axes.flat)[len(picks):]:
        ax.set_visible(False)
    layers = len(points[-1]["cross"])
    fig.suptitle(t["ckpt_title"].format(L=layers, src=" ".join(w["src_tokens"][1:-1])), fontsize=10)
    fig.supxlabel(t["key"], fontsize=9)
    fig.supylabel(t["query"], fontsize=9)
    return plotting.save(fig, outdir, "checkpoints")


# ---------------------------------------------------------------- words chosen from the results


def leaders(r: dict) -> tuple[list[str], float | None]:
    """The recipes tied for the fewest mean samples, and the gap to the next (None: nothing to compare).

    Tie rule: samples are only known to one check interval (a run is checked every
    ``check_every`` samples), so means that differ by at most one interval are a tie.
    Only recipes that reached the target on every seed have a mean.
    """
    means = {k: r["recipes"][k]["mean_samples_to_target"] for k in r["recipe_order"]
             if r["recipes"][k]["all_reached"]}
    if not means:
        return [], None
    best = min(means.values())
    step = r["check_every"]
    tied = [k for k, m in means.items() if m - best <= step]
    if len(tied) > 1:
        return tied, max(means[k] for k in tied) - best
    rest = [m for k, m in means.items() if k not in tied]
    return tied, (min(rest) - best) if rest else None


def korean_list(names: list[str]) -> str:
    """원사이클과 고정 학습률; three or more: 원사이클, 논문의 웜업과 고정 학습률."""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-2] + [names[-2] + ("과" if has_batchim(names[-2]) else "와") + " " + names[-1]])


def verdict_words(r: dict, tied: list[str], diff: float | None) -> dict:
    """Lesson 8's verdict on the recipes: who reached the target first, with each seed's check.

    The page explains the tie rule just before; this sentence says what the runs did: the same
    checks on every seed, the same mean from different checks, a tie within one interval, or
    a leader and by how many checks.
    """
    if not tied:
        return head("verdict_none")
    check, recipes = r["check_every"], r["recipes"]

    def seeds(k):  # each seed's samples to the target, when the results carry the runs
        return [run["samples_to_target"] for run in recipes[k].get("runs", [])]

    def points(k, lang):  # 14,336, 16,384 / 14,336 and 16,384
        text = [f"{s:,}" for s in seeds(k)]
        return ", ".join(text) if lang == "ko" or len(text) < 2 else ", ".join(text[:-1]) + " and " + text[-1]

    out = {}
    for lang in LABELS:
        t = LABELS[lang]
        names = [t[f"schedule_{k}"] for k in tied]
        joined = korean_list(names) if lang == "ko" else t["name_join"].join(names)
        topic = ("은" if has_batchim(joined) else "는") if lang == "ko" else ""
        subject = ("이" if has_batchim(names[0]) else "가") if lang == "ko" else ""
        mean = recipes[tied[0]]["mean_samples_to_target"]
        per = "; ".join(t["per_seed"].format(name=n, points=points(k, lang)) for n, k in zip(names, tied))
        common = dict(names=joined, Names=joined[:1].upper() + joined[1:], topic=topic, subject=subject,
                      mean=mean, n=r["compare_seeds"], per=per)
        if len(tied) > 1:
            same = all(seeds(k) == seeds(tied[0]) for k in tied) and seeds(tied[0])
            kind = "verdict_same" if same else "verdict_equal" if diff == 0 else "verdict_tie"
            count = {"ko": {2: "두", 3: "세"}, "en": {2: "two", 3: "three"}}[lang].get(len(tied), str(len(tied)))
            out[lang] = t[kind].format(points=points(tied[0], lang), count=count, diff=diff, **common)
        elif diff is None:
            out[lang] = t["verdict_only"].format(name=names[0], **common)
        else:
            out[lang] = t["verdict_one"].format(name=names[0], diff=diff, steps=round(diff / check * 2) / 2, **{
                k: v for k, v in common.items() if k != "names"})
    return out


def words(r: dict) -> dict:
    """Comparatives and yes/no phrases for lesson 8, in both languages, chosen from the results."""
    tied, diff = leaders(r)
    names = {lang: [LABELS[lang][f"schedule_{k}"] for k in tied] for lang in LABELS}
    verdict = verdict_words(r, tied, diff)
    if len(tied) == 1:
        fewest = {lang: names[lang][0] for lang in LABELS}
    elif tied:
        fewest = {lang: LABELS[lang]["tie"].format(names=LABELS[lang]["name_join"].join(names[lang]))
                  for lang in LABELS}
    else:
        fewest = head("verdict_none")
    noam = r["recipes"]["noam"]
    reached = ("reached_all" if noam["reached"] == noam["n_seeds"] else
               "reached_none" if noam["reached"] == 0 else "reached_some")
    overlap = r["data"]["train_test_overlap"] + r["data"]["train_valid_overlap"]
    att = r["attention"]["test_average"]["last_layer_mirror_weight"] / r["attention"]["uniform_weight"]
    points = r["widgets"]["checkpoints"]["checkpoints"]
    half = next((p for p in points if p["last_layer_mirror_weight"] > 0.5), None)
    right = next((p for p in points if p["correct"]), None)
    return {
        "fewest_samples": fewest,
        "recipes_verdict": verdict,
        "noam_reached": head(reached, n=noam["n_seeds"], k=noam["reached"]),
        "no_overlap": head("overlap_none") if overlap == 0 else head("overlap_some", k=overlap),
        # "far above" from three times the even spread up: a judgement, stated in code
        "mirror_vs_uniform": head("far_above" if att >= 3 else "above" if att > 1 else "not_above"),
        "half_mirror_at": head("half_at", s=half["samples"]) if half else head("half_never"),
        "correct_from": (head("correct_never") if not right else
                         head("correct_same") if half and half["samples"] == right["samples"] else
                         head("correct_from", s=right["samples"])),
        "paper_peak": {lang: power_of_ten(r["paper_noam"]["peak_lr"]) for lang in LABELS},  # 7.0 × 10⁻⁴
        # the warm-up recipe's peak against the paper's own and against one-cycle's, as "36"
        "noam_over_paper": {lang: f"{noam['peak_lr'] / r['paper_noam']['peak_lr']:.0f}" for lang in LABELS},
        "noam_over_one_cycle": {lang: f"{noam['peak_lr'] / r['recipes']['one_cycle']['peak_lr']:.0f}"
                                for lang in LABELS},
    }
