"""How the results of :mod:`tutorial_code.experiments.lstm_vs_attention` are drawn: its tables and figures.

Presentation only: the strings (``LABELS``, both languages), ``tables(results)`` and
``figures(results, lang, outdir)``. Editing this file redraws; it never retrains.
"""

from __future__ import annotations

from ..lstm_vs_attention import MODELS, Config
from . import plotting
from .heatmap import heatmap
from .tables import column, headers


def tables(res: dict) -> dict:
    rows = [res["at"][str(L)] for L in res["lengths"]]
    length = column("length", head("col_length"))
    return {
        "accuracy": {"columns": [
            length,
            column("lstm", head("col_lstm"), ".3f"),
            column("transformer", head("col_transformer"), ".3f"),
            column("no_position", head("col_no_position"), ".3f"),
            column("bag_bound", head("col_bag_bound"), ".3f"),
        ], "rows": rows},
        "accuracy_seeds": {"columns": [
            length,
            column("lstm_seeds", head("col_lstm_seeds")),
            column("transformer_seeds", head("col_transformer_seeds")),
            column("no_position_seeds", head("col_no_position_seeds")),
        ], "rows": rows},
        "attention": {"columns": [
            length,
            column("uniform", head("col_uniform"), ".3f"),
            column("transformer_attn", head("col_transformer_attn"), ".3f"),
            column("transformer_attn_ratio", head("col_transformer_attn_ratio"), ".1f"),
            column("transformer_attn_best_head", head("col_transformer_attn_best_head"), ".3f"),
            column("no_position_attn", head("col_no_position_attn"), ".3f"),
            column("no_position_attn_ratio", head("col_no_position_attn_ratio"), ".2f"),
        ], "rows": rows},
        "ablation": {"columns": [
            length,
            column("no_position", head("col_no_position_2"), ".3f"),
            column("no_position_seeds", head("col_no_position_seeds_2")),
            column("bag_bound", head("col_bag_bound"), ".3f"),
            column("no_position_attn", head("col_no_position_attn_2"), ".4f"),
            column("uniform", head("col_uniform"), ".4f"),
        ], "rows": [r for r in rows if "no_position" in r]},
        "long_budget": {"columns": [
            length,
            column("budget", head("col_budget"), ".3f"),
            column("acc", head("col_long", epochs=res["lstm"]["long"]["max_epochs"]), ".3f"),
            column("epochs", head("col_long_epochs"), "d"),
            column("acc_seeds_text", head("col_long_seeds")),
            column("solved_at_text", head("col_solved_at")),
        ], "rows": long_rows(res)},
    }


def long_rows(res: dict) -> list[dict]:
    """The LSTM's longer budget beside its accuracy after the main budget, per length."""
    long = res["lstm"]["long"]
    return [{**long["at"][str(L)], "budget": res["at"][str(L)]["lstm"]} for L in long["lengths"]]


def words(res: dict) -> dict:
    """What the longer budget did, chosen from the results: ``[[word:lstm_vs_attention.long_0]]``.

    ``long_<i>`` for the i-th length of the longer budget (how many seeds solved it);
    ``long_verdict``: slower to learn, or unable, within these budgets.
    """
    long = res["lstm"]["long"]
    out, solved_any = {}, []
    for i, L in enumerate(long["lengths"]):
        at = long["at"][str(L)]
        k, n = at["solved_seeds"], at["seeds"]
        solved_any.append(k > 0)
        if k == n:
            out[f"long_{i}"] = {"ko": f"시드 {n}개 모두에서 풀었습니다",
                                "en": "solved it on both seeds" if n == 2 else f"solved it on all {n} seeds"}
        elif k:
            out[f"long_{i}"] = {"ko": f"시드 {n}개 중 {k}개에서만 풀었습니다",
                                "en": f"solved it on only {k} of {n} seeds"}
        else:
            out[f"long_{i}"] = {"ko": f"시드 {n}개 중 어느 것에서도 풀지 못했습니다",
                                "en": f"solved it on none of the {n} seeds"}
    every_seed = all(long["at"][str(L)]["solved_seeds"] == long["at"][str(L)]["seeds"]
                     for L in long["lengths"])
    if solved_any and all(solved_any) and not every_seed:
        out["long_verdict"] = {
            "ko": "이 길이들에서 LSTM은 시간을 더 주면 이 과제를 배울 수 있지만, 더 긴 예산으로도 모든 시드가 "
                  "배우지는 못했습니다",
            "en": "at these lengths the LSTM can learn this task given more time, though not every seed "
                  "did even within the longer budget"}
    elif solved_any and all(solved_any):
        out["long_verdict"] = {
            "ko": "이 길이들에서 LSTM은 이 과제를 못 배우는 것이 아니라, 더 느리게 배울 뿐입니다",
            "en": "at these lengths the LSTM is slower to learn this task, not unable to learn it"}
    elif any(solved_any):
        out["long_verdict"] = {
            "ko": "더 긴 예산에서 LSTM은 짧은 쪽 길이는 배웠지만 긴 쪽은 이 예산으로도 배우지 못했습니다",
            "en": "with the longer budget the LSTM learnt the shorter length but not the longer one"}
    else:
        out["long_verdict"] = {
            "ko": "더 긴 예산에서도 LSTM은 이 길이들을 배우지 못했습니다. 그래도 더 긴 예산이나 다른 설정에서 못 배운다는 증명은 아닙니다",
            "en": "even the longer budget did not teach the LSTM these lengths, which still proves nothing "
                  "about budgets or settings beyond it"}
    # sampling noise of one seed's accuracy near 0.5: one standard error, sqrt(p(1 - p) / n)
    noise = (0.25 / Config().n_test) ** 0.5  # the config the build runs (test sequences per seed)
    out["noise"] = {"ko": f"±{noise:.3f}", "en": f"±{noise:.3f}"}
    return out


# ---------------------------------------------------------------- figures

LABELS = {
    "ko": {
        "title": '첫 칸 기억하기: LSTM 대 트랜스포머',
        # table headers
        "col_length": "길이 $L$",
        "col_lstm": "LSTM",
        "col_transformer": "트랜스포머",
        "col_no_position": "트랜스포머 (위치 없음)",
        "col_bag_bound": "순서 없이 가능한 최고",
        "col_lstm_seeds": "LSTM (시드별)",
        "col_transformer_seeds": "트랜스포머 (시드별)",
        "col_no_position_seeds": "위치 없음 (시드별)",
        "col_uniform": "균등 $1/L$",
        "col_transformer_attn": "첫 칸 어텐션",
        "col_transformer_attn_ratio": "균등 대비 배수",
        "col_transformer_attn_best_head": "가장 강한 헤드",
        "col_no_position_attn": "위치 없음: 첫 칸 어텐션",
        "col_no_position_attn_ratio": "위치 없음: 균등 대비",
        "col_no_position_2": "정확도 (평균)",
        "col_no_position_seeds_2": "정확도 (시드별)",
        "col_no_position_attn_2": "첫 칸 어텐션",
        "col_budget": "LSTM, 본 예산",
        "col_long": "LSTM, 최대 {epochs} 에포크",
        "col_long_epochs": "실제로 학습한 에포크",
        "col_long_seeds": "긴 예산 (시드별)",
        "col_solved_at": "학습 시퀀스를 다 맞힌 에포크 (시드별)",
        "length": "시퀀스 길이 $L$",
        "acc_title": "테스트 정확도",
        "acc_y": "정확도",
        "lstm": "LSTM",
        "transformer": "트랜스포머",
        "no_position": "트랜스포머 (위치 없음)",
        "chance": "찍기 (0.5)",
        "bound": "순서 없이 가능한 최고",
        "attn_title": "첫 칸에 주는 어텐션",
        "attn_y": "평균 가중치 (헤드·쿼리 평균)",
        "best_head": "트랜스포머: 가장 강한 헤드",
        "uniform": "균등 분배 $1/L$",
        "map_title": "테스트 시퀀스에 대한 평균 어텐션 (헤드 평균, $L$ = {L})",
        "seed": "시드 {s}",
        "query": "쿼리 위치",
        "key": "키 위치",
        "weight": "가중치",
    },
    "en": {
        "title": 'Remember the first cell: LSTM vs Transformer',
        # table headers
        "col_length": "length $L$",
        "col_lstm": "LSTM",
        "col_transformer": "Transformer",
        "col_no_position": "Transformer (no position)",
        "col_bag_bound": "best possible without order",
        "col_lstm_seeds": "LSTM (per seed)",
        "col_transformer_seeds": "Transformer (per seed)",
        "col_no_position_seeds": "no position (per seed)",
        "col_uniform": "uniform $1/L$",
        "col_transformer_attn": "attention to cell 1",
        "col_transformer_attn_ratio": "× uniform",
        "col_transformer_attn_best_head": "strongest head",
        "col_no_position_attn": "no position: attention to cell 1",
        "col_no_position_attn_ratio": "no position: × uniform",
        "col_no_position_2": "accuracy (mean)",
        "col_no_position_seeds_2": "accuracy (per seed)",
        "col_no_position_attn_2": "attention to cell 1",
        "col_budget": "LSTM, main budget",
        "col_long": "LSTM, at most {epochs} epochs",
        "col_long_epochs": "epochs run",
        "col_long_seeds": "longer budget (per seed)",
        "col_solved_at": "epoch it fit every training sequence (per seed)",
        "length": "sequence length $L$",
        "acc_title": "Test accuracy",
        "acc_y": "accuracy",
        "lstm": "LSTM",
        "transformer": "Transformer",
        "no_position": "Transformer (no position)",
        "chance": "guessing (0.5)",
        "bound": "best possible without order",
        "attn_title": "Attention paid to the first cell",
        "attn_y": "mean weight (over heads and queries)",
        "best_head": "Transformer: strongest head",
        "uniform": "uniform $1/L$",
        "map_title": "Mean attention over the test sequences (heads averaged, $L$ = {L})",
        "seed": "seed {s}",
        "query": "query position",
        "key": "key position",
        "weight": "weight",
    },
}
head = headers(LABELS)  # table headers from the same strings
COLOR = {"lstm": "raw", "transformer": "scaled", "no_position": "other"}
MARKER = {"lstm": "o", "transformer": "s", "no_position": "^"}


def _length_axis(ax, lengths, t):
    ax.set_xscale("log")
    ax.set_xticks(lengths, [str(L) for L in lengths])
    ax.tick_params(axis="x", which="minor", bottom=False, labelbottom=False)  # x only: log y keeps 2 and 5
    ax.set_xlabel(t["length"])


def figures(results: dict, lang: str, outdir) -> list:
    t = plotting.labels(LABELS, lang)
    with plotting.style(lang):
        return [accuracy_figure(results, t, outdir), attention_figure(results, t, outdir),
                attention_map_figure(results, t, outdir)]


def accuracy_figure(res, t, outdir):
    c = plotting.COLORS
    fig, ax = plotting.subplots(1, 1, figsize=(6.0, 4.4))
    ax.axhline(0.5, ls="--", color=c["reference"], lw=1, label=t["chance"])
    ax.plot(res["lengths"], res["bag_bound"], ":", color=c["reference"], label=t["bound"])
    for kind in MODELS:
        part, col = res[kind], c[COLOR[kind]]
        ax.plot(part["lengths"], part["acc"], MARKER[kind], ms=7, color=col, label=t[kind])  # measured lengths only
        for L, accs in zip(part["lengths"], part["acc_seeds"]):  # one faint dot per seed
            ax.scatter([L] * len(accs), accs, color=col, alpha=0.35, s=14, lw=0)
    _length_axis(ax, res["lengths"], t)
    ax.set(title=t["acc_title"], ylabel=t["acc_y"], ylim=(0.4, 1.03))
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=3, fontsize=8)
    return plotting.save(fig, outdir, "accuracy")


def attention_figure(res, t, outdir):
    c = plotting.COLORS
    fig, ax = plotting.subplots(1, 1, figsize=(6.0, 4.4))
    ax.plot(res["lengths"], res["uniform"], "--", color=c["reference"], label=t["uniform"])
    for kind in ("transformer", "no_position"):
        part = res[kind]
        ax.plot(part["lengths"], part["attn_first"], MARKER[kind], ms=7, color=c[COLOR[kind]],
                label=t[kind])
    tr = res["transformer"]
    ax.plot(tr["lengths"], tr["attn_first_best_head"], "s", color=c["scaled"], alpha=0.6,
            mfc="none", ms=7, label=t["best_head"])
    plotting.log_y(ax)
    _length_axis(ax, res["lengths"], t)
    ax.set(title=t["attn_title"], ylabel=t["attn_y"])
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=2, fontsize=8)
    return plotting.save(fig, outdir, "attention")


def attention_map_figure(res, t, outdir):
    """Head-averaged attention at L = map_length: each seed with position, one without."""
    panels = [(t["transformer"] + " · " + t["seed"].format(s=i), m)
              for i, m in enumerate(res["transformer"]["attn_maps"])]
    panels.append((t["no_position"] + " · " + t["seed"].format(s=0),
                   res["no_position"]["attn_maps"][0]))
    fig, axes = plotting.subplots(1, len(panels), figsize=(3.4 * len(panels), 3.8))
    vmax = max(max(max(row) for row in m) for _, m in panels)
    for ax, (title, m) in zip(axes, panels):
        im = heatmap(ax, m, cmap="viridis", vmin=0, vmax=vmax)  # m: (L, L) nested lists
        ticks = range(0, len(m), 5)  # every fifth position (1, 6, 11, ...)
        ax.set_xticks(ticks, [str(i + 1) for i in ticks])
        ax.set_yticks(ticks, [str(i + 1) for i in ticks])
        ax.set_title(title, fontsize=9)
        ax.set(xlabel=t["key"], ylabel=t["query"])
    fig.colorbar(im, ax=axes, shrink=0.85, label=t["weight"])
    fig.suptitle(t["map_title"].format(L=res["map_length"]))
    return plotting.save(fig, outdir, "attention_map")
