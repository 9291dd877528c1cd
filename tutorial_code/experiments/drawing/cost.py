"""How the results of :mod:`tutorial_code.experiments.cost` are drawn: its tables and figures.

Presentation only: the strings (``LABELS``, both languages), ``tables(results)`` and
``figures(results, lang, outdir)``. Editing this file redraws; it never retrains.
"""

from __future__ import annotations

import matplotlib.ticker

from . import plotting
from .tables import column, headers


def tables(results: dict) -> dict:
    return {
        "n2": {"columns": [
            column("L", head("col_L"), ","),
            column("entries", head("col_entries"), ","),
            column("mib", head("col_mib"), ",.0f"),
            column("gib", head("col_gib"), ".2f"),
            column("ratio_text", head("col_ratio_text")),
        ], "rows": [{**r, "ratio_text": f"×{r['ratio']:.0f}" if r["ratio"] else "–"} for r in results["n2"]["rows"]]},
        "attention": {"columns": [
            column("L", head("col_L_2"), ","),
            column("materialised_ms", head("col_materialised_ms"), ",.2f"),
            column("fused_ms", head("col_fused_ms"), ",.2f"),
            column("materialised_mib", head("col_materialised_mib"), ",.1f"),
            column("fused_mib", head("col_fused_mib"), ",.1f"),
            column("weights_mib", head("col_weights_mib"), ",.1f"),
        ], "rows": [{**r, "materialised_ms": 1e3 * r["materialised_s"], "fused_ms": 1e3 * r["fused_s"]}
                    for r in results["attention"]["rows"]]},
        "kv": {"columns": [
            column("N", head("col_N")),
            column("no_cache_s", head("col_no_cache_s"), ".3f"),
            column("cache_s", head("col_cache_s"), ".3f"),
            column("speedup", head("col_speedup"), ".1f"),
            column("no_cache_positions", head("col_no_cache_positions"), ","),
            column("cache_positions", head("col_cache_positions"), ","),
        ], "rows": results["kv"]["rows"]},
    }


LABELS = {
    "ko": {
        "title": '어텐션의 비용: L², 메모리, KV 캐시',
        # table headers
        "col_L": "길이 L (토큰)",
        "col_entries": "L² (칸 수)",
        "col_mib": "fp32 메모리 (MiB)",
        "col_gib": "(GiB)",
        "col_ratio_text": "앞 행 대비",
        "col_L_2": "길이 L",
        "col_materialised_ms": "L×L 행렬 생성 (ms)",
        "col_fused_ms": "융합 커널 (ms)",
        "col_materialised_mib": "L×L 행렬 생성 최대 메모리 (MiB)",
        "col_fused_mib": "융합 커널 최대 메모리 (MiB)",
        "col_weights_mib": "가중치 h×L×L (MiB, 계산값)",
        "col_N": "생성 토큰 수 T",
        "col_no_cache_s": "캐시 없음 (초)",
        "col_cache_s": "KV 캐시 (초)",
        "col_speedup": "속도 향상 (배)",
        "col_no_cache_positions": "계산한 위치 수 (캐시 없음)",
        "col_cache_positions": "계산한 위치 수 (KV 캐시)",
        "time_title": "어텐션 한 번의 시간 ({device})",
        "mem_title": "어텐션 한 번의 최대 메모리 (h = {h}, $d_k$ = {d_k})",
        "cpu": "CPU, 스레드 {n}개",
        "L": "시퀀스 길이 L (토큰)",
        "seconds": "시간 (초, 중앙값)",
        "mib": "메모리 (MiB)",
        "materialised": "L×L 행렬을 만드는 구현 (강의 코드)",
        "fused": "융합 커널 (PyTorch SDPA)",
        "weights": "가중치 행렬 h×L×L, fp32 (계산값)",
        "square": "$L^2$에 비례 (참고선)",
        "slope": "지수 {s:.1f}",
        "fit": "지수: L = {a}~{b} 구간의 로그-로그 경사",
        "gen_title": "토큰 T개 생성 시간 ({device})",
        "N": "생성한 토큰 수 T",
        "cache": "KV 캐시 사용",
        "no_cache": "캐시 없음 (매번 앞부분 전체 재계산)",
        "speed_title": "KV 캐시의 속도 향상",
        "speedup": "속도 향상 (배)",
        "one": "1배 (차이 없음)",
        # words of the lesson's sentences, chosen from the results by words()
        "same_tokens": "두 방식이 만든 토큰은 같습니다",
        "different_tokens": "두 방식이 만든 토큰이 다릅니다",
        "faster": "{x:.1f}배 빠릅니다",
        "timed_cpu": "CPU 스레드 {n}개로", "timed_gpu": "GPU 하나로",
        "slower": "{x:.1f}배 느립니다",
        "speedup_grows": "잰 범위($T$ = {a}~{b})에서는 $T$가 길수록 속도 향상이 커졌습니다({x:.1f}배에서 {y:.1f}배로)",
        "speedup_uneven": "잰 범위($T$ = {a}~{b})에서 속도 향상은 $T$가 길수록 꾸준히 커지지는 않았습니다({x:.1f}배에서 {y:.1f}배)",
        "grows_slower": "$T$보다 느리게",
        "grows_proportional": "거의 $T$에 비례해",
        "grows_faster": "$T$보다 빠르게",
        "memory_cuda": "CUDA가 기록한 최대 할당량",
        "memory_profiler": "PyTorch 프로파일러가 기록한 메모리 할당",
    },
    "en": {
        "title": 'What attention costs: L², memory, the KV cache',
        # table headers
        "col_L": "length L (tokens)",
        "col_entries": "L² (entries)",
        "col_mib": "fp32 memory (MiB)",
        "col_gib": "(GiB)",
        "col_ratio_text": "vs previous row",
        "col_L_2": "length L",
        "col_materialised_ms": "builds L×L (ms)",
        "col_fused_ms": "fused kernel (ms)",
        "col_materialised_mib": "builds L×L, peak (MiB)",
        "col_fused_mib": "fused peak (MiB)",
        "col_weights_mib": "weights h×L×L (MiB, computed)",
        "col_N": "tokens generated T",
        "col_no_cache_s": "no cache (s)",
        "col_cache_s": "KV cache (s)",
        "col_speedup": "speed-up (×)",
        "col_no_cache_positions": "positions computed (no cache)",
        "col_cache_positions": "positions computed (KV cache)",
        "time_title": "Time of one attention call ({device})",
        "mem_title": "Peak memory of one attention call (h = {h}, $d_k$ = {d_k})",
        "cpu": "CPU, threads: {n}",
        "L": "sequence length L (tokens)",
        "seconds": "time (s, median)",
        "mib": "memory (MiB)",
        "materialised": "materialises L×L (course code)",
        "fused": "fused kernel (PyTorch SDPA)",
        "weights": "weights h×L×L, fp32 (computed)",
        "square": "proportional to $L^2$ (guide)",
        "slope": "slope {s:.1f}",
        "fit": "slope: log-log, from L = {a} to {b}",
        "gen_title": "Time to generate T tokens ({device})",
        "N": "tokens generated T",
        "cache": "with KV cache",
        "no_cache": "no cache (whole prefix recomputed)",
        "speed_title": "Speed-up from the KV cache",
        "speedup": "speed-up (×)",
        "one": "1× (no gain)",
        "same_tokens": "Both ways produce the same tokens",
        "different_tokens": "The two ways produce different tokens",
        "faster": "{x:.1f} times faster",
        "timed_cpu": "on the CPU with {n} thread{s}", "timed_gpu": "on one GPU",
        "slower": "{x:.1f} times slower",
        "speedup_grows": "Over the lengths measured ($T$ = {a} to {b}) the speed-up grew with $T$, from {x:.1f} to {y:.1f} times",
        "speedup_uneven": "Over the lengths measured ($T$ = {a} to {b}) the speed-up did not grow steadily with $T$ ({x:.1f} to {y:.1f} times)",
        "grows_slower": "more slowly than $T$",
        "grows_proportional": "about in proportion to $T$",
        "grows_faster": "faster than $T$",
        "memory_cuda": "the peak allocation CUDA records",
        "memory_profiler": "the memory allocations PyTorch's profiler records",
    },
}
head = headers(LABELS)  # table headers from the same strings


def words(results: dict) -> dict:
    """The lesson's words that depend on the results: whether the cache changed the tokens,
    whether the fused kernel was faster, how the cached time grew with T (its log-log slope),
    whether the speed-up grew with T, and the conditions the times were measured under."""
    kv, att = results["kv"], results["attention"]
    slope = kv["slope_cache"]
    growth = "grows_slower" if slope < 0.9 else "grows_faster" if slope > 1.1 else "grows_proportional"
    pick = {"kv_tokens": "same_tokens" if kv["same_tokens"] else "different_tokens",
            "cache_growth": growth,
            "memory_method": "memory_cuda" if att["memory_method"].startswith("torch.cuda") else "memory_profiler"}
    out = {name: {lang: LABELS[lang][key] for lang in LABELS} for name, key in pick.items()}
    speedup = att["longest"]["speedup"]  # a slower kernel is said with the inverse: "1.3배 느립니다"
    key, x = ("faster", speedup) if speedup > 1 else ("slower", 1 / speedup)
    out["fused_speed"] = {lang: LABELS[lang][key].format(x=x) for lang in LABELS}
    ups = kv["speedup"]  # one per generated length: said to grow only when every longer T gained more
    key = "speedup_grows" if all(b > a for a, b in zip(ups, ups[1:])) else "speedup_uneven"
    out["speedup_trend"] = {lang: LABELS[lang][key].format(a=kv["lengths"][0], b=kv["lengths"][-1], x=ups[0], y=ups[-1])
                            for lang in LABELS}
    d = results["device"]  # the conditions every time was measured under (not the machine's name)
    key = "timed_cpu" if d["type"] == "cpu" else "timed_gpu"
    n = d.get("threads") or 1
    out["timed_on"] = {lang: LABELS[lang][key].format(n=n, s="" if n == 1 else "s") for lang in LABELS}
    return out


def plain_log_ticks(ax) -> None:
    """Tick labels as plain numbers (128, 0.01), not mathtext powers: NanumGothic lacks U+2212."""
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(matplotlib.ticker.NullFormatter())


def device_label(results: dict, t: dict) -> str:
    d = results["device"]
    return t["cpu"].format(n=d["threads"]) if d["type"] == "cpu" else d["name"]


def figures(results: dict, lang: str, outdir) -> list:
    t = plotting.labels(LABELS, lang)
    with plotting.style(lang):
        return [attention_figure(results["attention"], t, device_label(results, t), outdir),
                kv_figure(results["kv"], t, device_label(results, t), outdir)]


def attention_figure(a: dict, t: dict, device: str, outdir):
    """Log-log time and memory against L for the materialised and the fused attention."""
    c = plotting.COLORS
    L = a["lengths"]
    col = {k: [r[k] for r in a["rows"]] for k in a["rows"][0]}
    fit = a["fit_lengths"]
    fig, (ax1, ax2) = plotting.subplots(1, 2, figsize=(9.6, 3.9))
    ax1.loglog(L, col["materialised_s"], "o-", color=c["raw"],
               label=f"{t['materialised']}, {t['slope'].format(s=a['slope_materialised'])}")
    ax1.loglog(L, col["fused_s"], "s-", color=c["scaled"],
               label=f"{t['fused']}, {t['slope'].format(s=a['slope_fused'])}")
    guide = [col["materialised_s"][-1] * (x / L[-1]) ** 2 for x in L]  # ∝ L², through the last point
    ax1.loglog(L, guide, ":", color=c["reference"], label=t["square"])
    ax1.set(title=t["time_title"].format(device=device), xlabel=t["L"], ylabel=t["seconds"])
    ax1.text(0.98, 0.03, t["fit"].format(a=fit[0], b=fit[-1]), transform=ax1.transAxes, ha="right",
             fontsize=7.5, color=c["reference"])
    ax2.loglog(L, col["materialised_mib"], "o-", color=c["raw"], label=t["materialised"])
    ax2.loglog(L, [max(m, 1e-3) for m in col["fused_mib"]], "s-", color=c["scaled"], label=t["fused"])
    ax2.loglog(L, col["weights_mib"], "--", color=c["reference"], label=t["weights"])
    ax2.set(title=t["mem_title"].format(h=a["n_heads"], d_k=a["d_k"]), xlabel=t["L"], ylabel=t["mib"])
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        plain_log_ticks(ax)
        ax.legend(fontsize=7.5, loc="upper left")
    return plotting.save(fig, outdir, "attention_cost")


def kv_figure(kv: dict, t: dict, device: str, outdir):
    """Generation time with and without the cache, and the speed-up, against N."""
    c = plotting.COLORS
    N = kv["lengths"]
    fig, (ax1, ax2) = plotting.subplots(1, 2, figsize=(9.6, 3.6))
    # log-log axes, as the slopes on the page are read: without the cache each step redoes the
    # prefix (slope near 2), with it each step is one position (slope near 1)
    ax1.plot(N, [r["no_cache_s"] for r in kv["rows"]], "o-", color=c["raw"], label=t["no_cache"])
    ax1.plot(N, [r["cache_s"] for r in kv["rows"]], "s-", color=c["scaled"], label=t["cache"])
    ax1.set_xscale("log")
    ax1.set(title=t["gen_title"].format(device=device), xlabel=t["N"], ylabel=t["seconds"])
    plotting.log_y(ax1)
    ax1.legend(fontsize=8)
    ax2.plot(N, kv["speedup"], "o-", color=c["accent"])
    for n, s in zip(N, kv["speedup"]):
        ax2.annotate(f"×{s:.1f}", (n, s), textcoords="offset points", xytext=(0, 6), ha="center", fontsize=8)
    ax2.axhline(1, ls=":", color=c["reference"], label=t["one"])
    ax2.set(title=t["speed_title"], xlabel=t["N"], ylabel=t["speedup"], ylim=(0, max(kv["speedup"]) * 1.2))
    ax2.legend(fontsize=8, loc="upper left")
    ax2.set_xscale("log")
    for ax in (ax1, ax2):
        ax.set_xticks(N, [str(n) for n in N])  # the generated lengths, as plain numbers
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    return plotting.save(fig, outdir, "kv_cache")
