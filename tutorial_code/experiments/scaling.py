"""Why sqrt(d_k): score spread, softmax peak weight and softmax gradient as d_k grows.

Lesson 3. With q and k of independent N(0, 1) components, Var(q.k) = d_k, so the raw scores
spread like sqrt(d_k) (Vaswani et al. 2017, section 3.2.1, footnote 4). Unscaled, softmax over a
row of L keys then puts almost all weight on one key and its Jacobian shrinks towards zero
(vanishing gradients); divided by sqrt(d_k), the spread stays about 1 for every d_k.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch



@dataclass(frozen=True)
class Config:
    d_ks: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)  # key dimensions to try
    n_rows: int = 4000     # query rows per d_k; each row scores L keys
    seq_len: int = 16      # L, keys per row (softmax runs over these)
    chunk: int = 1000      # rows per batch, bounds memory at d_k = 1024
    seed: int = 0

    @classmethod
    def tiny(cls) -> "Config":
        return cls(d_ks=(1, 8, 64, 512), n_rows=300, chunk=300)


# closed ranges [lo, hi]; a list-valued metric is checked element by element
GATES = {
    "scaled_std": (0.9, 1.1),              # q.k/sqrt(d_k) has spread about 1 for every d_k
    "raw_std_over_sqrt_dk": (0.9, 1.1),    # raw spread grows like sqrt(d_k)
}
TINY_GATES = {  # 300 rows: same claims, wider tolerance
    "scaled_std": (0.8, 1.2),
    "raw_std_over_sqrt_dk": (0.8, 1.2),
    "at.512.peak_raw": (0.85, 1.0),
}


def softmax_stats(scores: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per row: the largest softmax weight and the Frobenius norm of the softmax Jacobian.

    scores: (N, L). The Jacobian of p = softmax(s) is dp/ds = diag(p) - p pᵀ, shape (N, L, L).
    """
    p = torch.softmax(scores, dim=-1)                                  # (N, L)
    jac = torch.diag_embed(p) - p.unsqueeze(-1) * p.unsqueeze(-2)     # (N, L, L)
    return p.max(dim=-1).values, jac.flatten(1).norm(dim=1)            # (N,), (N,)


def measure(d_k: int, cfg: Config, gen: torch.Generator, device: torch.device) -> dict:
    """Sample n_rows queries with seq_len keys each; return spread, peak and gradient stats."""
    raw_parts, peak, jac = [], {"raw": [], "scaled": []}, {"raw": [], "scaled": []}
    for start in range(0, cfg.n_rows, cfg.chunk):
        n = min(cfg.chunk, cfg.n_rows - start)
        # sample on the cpu generator: the same numbers on every device
        q = torch.randn(n, d_k, generator=gen).to(device)                 # (N, d_k)
        k = torch.randn(n, cfg.seq_len, d_k, generator=gen).to(device)    # (N, L, d_k)
        raw = torch.einsum("nd,nld->nl", q, k).double()                   # (N, L)
        raw_parts.append(raw)
        for kind, s in (("raw", raw), ("scaled", raw / math.sqrt(d_k))):
            pk, jn = softmax_stats(s)
            peak[kind].append(pk)
            jac[kind].append(jn)
    raw = torch.cat(raw_parts)
    raw_std = raw.std().item()
    scaled_std = (raw / math.sqrt(d_k)).std().item()
    out = {
        "d_k": d_k,
        "raw_std": raw_std,
        "sqrt_d_k": math.sqrt(d_k),
        "raw_std_over_sqrt_dk": raw_std / math.sqrt(d_k),
        "scaled_std": scaled_std,
        "peak_raw": torch.cat(peak["raw"]).mean().item(),
        "peak_scaled": torch.cat(peak["scaled"]).mean().item(),
        "jacobian_raw": torch.cat(jac["raw"]).mean().item(),
        "jacobian_scaled": torch.cat(jac["scaled"]).mean().item(),
    }
    out["jacobian_ratio"] = out["jacobian_raw"] / out["jacobian_scaled"]
    return out


def run(cfg: Config, ctx) -> dict:
    gen = ctx.generator()
    rows = []
    with ctx.progress(len(cfg.d_ks), "d_k") as bar:
        for i in bar:
            rows.append(measure(cfg.d_ks[i], cfg, gen, ctx.device))
            bar.log(d_k=cfg.d_ks[i], scaled_std=rows[-1]["scaled_std"])
    series = {key: [r[key] for r in rows] for key in rows[0]}
    return {
        **series,                                   # one list per metric, aligned with d_k
        "at": {str(r["d_k"]): r for r in rows},     # per d_k, for pages: scaling.at.512.peak_raw
        "rows": rows,                                # the same, as table rows
        "seq_len": cfg.seq_len,
        "uniform_weight": 1 / cfg.seq_len,
        "n_scores": cfg.n_rows * cfg.seq_len,
    }
