"""How the results of :mod:`tutorial_code.experiments.scaling` are drawn: its tables and figures.

Presentation only: the strings (``LABELS``, both languages), ``tables(results)`` and
``figures(results, lang, outdir)``. Editing this file redraws; it never retrains.
"""

from __future__ import annotations

from . import plotting
from .tables import column, headers


def tables(results: dict) -> dict:
    return {"summary": {
        "columns": [
            column("d_k", head("col_d_k")),
            column("raw_std", head("col_raw_std"), ".2f"),
            column("sqrt_d_k", head("col_sqrt_d_k"), ".2f"),
            column("scaled_std", head("col_scaled_std"), ".3f"),
            column("peak_raw", head("col_peak_raw"), ".3f"),
            column("peak_scaled", head("col_peak_scaled"), ".3f"),
            column("jacobian_raw", head("col_jacobian_raw"), ".3f"),
            column("jacobian_scaled", head("col_jacobian_scaled"), ".3f"),
        ],
        "rows": results["rows"],
    }}


LABELS = {
    "ko": {
        "title": '왜 √dₖ로 나누는가',
        # table headers
        "col_d_k": "d<sub>k</sub>",
        "col_raw_std": "std(q·k)",
        "col_sqrt_d_k": "√d<sub>k</sub>",
        "col_scaled_std": "std(q·k/√d<sub>k</sub>)",
        "col_peak_raw": "최대 가중치 (스케일 전)",
        "col_peak_scaled": "최대 가중치 (스케일 후)",
        "col_jacobian_raw": "기울기 크기 (스케일 전)",
        "col_jacobian_scaled": "기울기 크기 (스케일 후)",
        "x": "키 벡터 차원 $d_k$",
        "spread_title": "점수의 표준편차",
        "spread_y": "표준편차",
        "raw": "스케일 전 $q\\cdot k$",
        "scaled": "스케일 후 $q\\cdot k/\\sqrt{d_k}$",
        "theory": "$\\sqrt{d_k}$ (이론값)",
        "peak_title": "소프트맥스 최대 가중치 (키 {L}개)",
        "peak_y": "한 행의 최대 가중치 (평균)",
        "uniform": "균등 분배 $1/L$",
        "grad_title": "소프트맥스 기울기의 크기",
        "grad_y": "야코비안 노름 $\\|\\partial p/\\partial s\\|_F$ (평균)",
    },
    "en": {
        "title": 'Why divide by √dₖ',
        # table headers
        "col_d_k": "d<sub>k</sub>",
        "col_raw_std": "std(q·k)",
        "col_sqrt_d_k": "√d<sub>k</sub>",
        "col_scaled_std": "std(q·k/√d<sub>k</sub>)",
        "col_peak_raw": "peak weight (unscaled)",
        "col_peak_scaled": "peak weight (scaled)",
        "col_jacobian_raw": "gradient size (unscaled)",
        "col_jacobian_scaled": "gradient size (scaled)",
        "x": "key dimension $d_k$",
        "spread_title": "Spread of the scores",
        "spread_y": "standard deviation",
        "raw": "unscaled $q\\cdot k$",
        "scaled": "scaled $q\\cdot k/\\sqrt{d_k}$",
        "theory": "$\\sqrt{d_k}$ (theory)",
        "peak_title": "Largest softmax weight ({L} keys)",
        "peak_y": "largest weight in a row (mean)",
        "uniform": "uniform $1/L$",
        "grad_title": "Size of the softmax gradient",
        "grad_y": "Jacobian norm $\\|\\partial p/\\partial s\\|_F$ (mean)",
    },
}
head = headers(LABELS)  # table headers from the same strings


def figures(results: dict, lang: str, outdir) -> list:
    t = plotting.labels(LABELS, lang)
    c = plotting.COLORS
    d = results["d_k"]
    with plotting.style(lang):
        fig, (ax1, ax2, ax3) = plotting.subplots(1, 3)
        ax1.loglog(d, results["raw_std"], "o-", color=c["raw"], label=t["raw"])
        ax1.loglog(d, results["scaled_std"], "s-", color=c["scaled"], label=t["scaled"])
        ax1.loglog(d, results["sqrt_d_k"], "--", color=c["reference"], label=t["theory"])
        ax1.set(title=t["spread_title"], xlabel=t["x"], ylabel=t["spread_y"])
        plotting.log_y(ax1)  # labels 2 and 5 as well as 1 and 10
        ax2.semilogx(d, results["peak_raw"], "o-", color=c["raw"], label=t["raw"])
        ax2.semilogx(d, results["peak_scaled"], "s-", color=c["scaled"], label=t["scaled"])
        ax2.axhline(results["uniform_weight"], ls=":", color=c["reference"], label=t["uniform"])
        ax2.set(title=t["peak_title"].format(L=results["seq_len"]), xlabel=t["x"],
                ylabel=t["peak_y"], ylim=(0, 1.02))
        ax3.semilogx(d, results["jacobian_raw"], "o-", color=c["raw"], label=t["raw"])
        ax3.semilogx(d, results["jacobian_scaled"], "s-", color=c["scaled"], label=t["scaled"])
        ax3.set(title=t["grad_title"], xlabel=t["x"], ylabel=t["grad_y"], ylim=(0, None))
        for ax in (ax1, ax2, ax3):
            ax.set_xscale("log", base=2)
            ax.legend(fontsize=8)
        return [plotting.save(fig, outdir, "scaling")]
