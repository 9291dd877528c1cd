"""What attention costs: time and memory against length, the n² table, and the KV cache.

Lesson 9. Every query scores every key, so one head builds an L × L matrix: 2× the length is
4× the entries (Vaswani et al. 2017, table 1: O(n²·d) per self-attention layer). We time the
course's :func:`tutorial_code.scaled_dot_product_attention`, which materialises that matrix,
against PyTorch's fused ``torch.nn.functional.scaled_dot_product_attention``, which walks the
keys in blocks and never stores it (the FlashAttention idea): the fused kernel saves memory,
yet still does n² work. Then greedy generation with and without the key/value cache.

Every time here is measured on ``ctx.device`` and depends on it (and on how busy it is); the
n² table is exact arithmetic. On the CPU, memory is the peak of the tensors PyTorch allocates,
read from ``torch.profiler``'s allocation events; on CUDA, ``torch.cuda.max_memory_allocated``.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass

import torch
import torch.nn.functional as F

import tutorial_code as tc
from tutorial_code.generate import positions_computed

from .common.cpu_threads import torch_threads

MIB = 2**20


@dataclass(frozen=True)
class Config:
    lengths: tuple[int, ...] = (128, 256, 512, 1024, 2048, 4096)  # L timed on the CPU
    cuda_lengths: tuple[int, ...] = (512, 1024, 2048, 4096, 8192, 16384)  # L timed on a GPU
    n_heads: int = 4        # h; batch size 1
    d_k: int = 64           # width of one head's queries and keys
    repeats: int = 7        # rounds, each timing every length and kernel once; medians reported
    fit_points: int = 2     # the log-log slope is fitted over the longest this many lengths
    table_lengths: tuple[int, ...] = (4096, 8192, 16384, 32768)  # rows of the n² table
    gen_lengths: tuple[int, ...] = (32, 64, 128, 256)  # tokens generated, with and without cache
    gen_repeats: int = 5    # timed generations per length and mode (median)
    vocab_size: int = 64    # decoder-only model of the reference size (D = 64, h = 4, N = 2)
    threads: int = 1        # CPU threads while timing (restored after); see cpu_threads
    seed: int = 0

    @classmethod
    def tiny(cls) -> "Config":
        return cls(lengths=(64, 128, 256), cuda_lengths=(64, 128, 256), repeats=2, fit_points=2,
                   gen_lengths=(8, 16, 32), gen_repeats=1)


GATES = {
    "n2.rows.0.entries": (16_777_216, 16_777_216),  # 4,096² exactly
    "n2.rows.0.mib": (64, 64),                      # = 64 MiB in fp32
    "n2.ratios": (4, 4),                            # 2× length → 4× entries, every row
    "kv.positions_ratio_longest": (100, 1e9),       # without it: 1 + … + N positions, not N
    "kv.same_tokens": (1, 1),                       # and changes nothing in the output
}
TINY_GATES = {"n2.ratios": (4, 4), "kv.same_tokens": (1, 1)}


# ---------------------------------------------------------------- measuring

def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def median_times(fns: dict, rounds, device: torch.device, min_batch_s: float = 0.02) -> dict[str, float]:
    """Median seconds per call of each function over ``rounds`` (an int or a progress loop).

    One warm-up call each; a fast function is called several times per timed batch (at least
    ``min_batch_s``) so that the timer's resolution and brief interruptions matter less.
    Each round times every function once, so a machine that slows down hits all alike.
    """
    inner = {}
    for name, fn in fns.items():
        sync(device)
        start = time.perf_counter()
        fn()
        sync(device)
        inner[name] = max(1, math.ceil(min_batch_s / max(time.perf_counter() - start, 1e-6)))
    times = {name: [] for name in fns}
    for _ in range(rounds) if isinstance(rounds, int) else rounds:
        for name, fn in fns.items():
            sync(device)
            start = time.perf_counter()
            for _ in range(inner[name]):
                fn()
            sync(device)
            times[name].append((time.perf_counter() - start) / inner[name])
    return {name: statistics.median(t) for name, t in times.items()}


def cpu_peaks(calls: dict) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Peak bytes PyTorch allocates inside each call, from the profiler's allocation events.

    Each event's own allocations minus frees are replayed in time order (an op that has
    children at its end, after them) and the running total's maximum is the peak. Empty
    marker ranges bracket each call, so frees between ops stay separate events. Also
    returns the aten ops seen per call (to name the kernel that ran).
    """
    from torch.profiler import ProfilerActivity, profile, record_function

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        for label, fn in calls.items():
            with record_function(f"begin {label}"):
                pass
            out = fn()
            del out
            with record_function(f"end {label}"):
                pass
    events = list(prof.events())
    peaks, ops = {}, {}
    for label in calls:
        lo = next(e for e in events if e.name == f"begin {label}").time_range.end
        hi = next(e for e in events if e.name == f"end {label}").time_range.start
        inside = [e for e in events if lo <= e.time_range.start <= hi]
        steps = sorted((e.time_range.end if e.cpu_children else e.time_range.start, e.self_cpu_memory_usage)
                       for e in inside)
        total = peak = 0
        for _, delta in steps:
            total += delta
            peak = max(peak, total)
        peaks[label] = peak
        ops[label] = sorted({e.name for e in inside if e.name.startswith("aten::")})
    return peaks, ops


def cuda_peak(fn, device) -> int:
    """Peak bytes allocated on the GPU during one call, above what was allocated before."""
    sync(device)
    torch.cuda.reset_peak_memory_stats(device)
    base = torch.cuda.memory_allocated(device)
    out = fn()
    sync(device)
    del out
    return torch.cuda.max_memory_allocated(device) - base


def loglog_slope(xs, ys) -> float:
    """Least-squares slope of log y against log x: 2 means y ∝ x²."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = statistics.fmean(lx), statistics.fmean(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


# ---------------------------------------------------------------- the three parts

def attention_costs(cfg: Config, ctx) -> dict:
    """Time and peak memory of materialised vs fused attention for each length L.

    Every (length, kernel) pair is timed once per round, so a machine whose load changes
    during the measurement slows all lengths alike and the slope stays honest.
    """
    device = ctx.device
    lengths = cfg.cuda_lengths if device.type == "cuda" else cfg.lengths
    gen = ctx.generator(1)
    inputs = {L: [torch.randn(1, cfg.n_heads, L, cfg.d_k, generator=gen).to(device) for _ in range(3)]
              for L in lengths}  # q, k, v: (B=1, h, L, d_k)
    fns = {}
    for L, (q, k, v) in inputs.items():
        fns[f"materialised {L}"] = lambda q=q, k=k, v=v: tc.scaled_dot_product_attention(q, k, v)[0]
        fns[f"fused {L}"] = lambda q=q, k=k, v=v: F.scaled_dot_product_attention(q, k, v)
    with torch.no_grad():
        with ctx.progress(cfg.repeats, "attention") as bar:
            secs = median_times(fns, bar, device)
        if device.type == "cuda":
            peak = {name: cuda_peak(fn, device) for name, fn in fns.items()}
            kernels = {}
        else:
            peak, ops = cpu_peaks(fns)
            kernels = {kind: [o for o in ops[f"{kind} {lengths[-1]}"] if "attention" in o or o == "aten::softmax"]
                       for kind in ("materialised", "fused")}
    rows = [{"L": L, "materialised_s": secs[f"materialised {L}"], "fused_s": secs[f"fused {L}"],
             "speedup": secs[f"materialised {L}"] / secs[f"fused {L}"],
             "materialised_mib": peak[f"materialised {L}"] / MIB, "fused_mib": peak[f"fused {L}"] / MIB,
             "weights_mib": cfg.n_heads * L * L * 4 / MIB}  # h × L × L fp32 weights
            for L in lengths]
    top = rows[-cfg.fit_points:]
    longest = rows[-1]
    return {
        "rows": rows,
        "lengths": [r["L"] for r in rows],
        "slope_materialised": loglog_slope([r["L"] for r in top], [r["materialised_s"] for r in top]),
        "slope_fused": loglog_slope([r["L"] for r in top], [r["fused_s"] for r in top]),
        "fit_lengths": [r["L"] for r in top],
        "memory_ratio_longest": longest["materialised_mib"] / max(longest["fused_mib"], 1 / MIB),
        "peak_over_weights_longest": longest["materialised_mib"] / longest["weights_mib"],
        "longest": longest,
        "kernels": kernels,
        "n_heads": cfg.n_heads,
        "d_k": cfg.d_k,
        "memory_method": ("torch.cuda.max_memory_allocated" if device.type == "cuda"
                          else "torch.profiler allocation events (PyTorch CPU allocator)"),
    }


def n2_table(lengths) -> dict:
    """Entries and fp32 bytes of one L × L attention matrix (one head, one layer): arithmetic."""
    rows = []
    for i, L in enumerate(lengths):
        rows.append({"L": L, "entries": L * L, "mib": L * L * 4 / MIB, "gib": L * L * 4 / 2**30,
                     "ratio": L * L / lengths[i - 1] ** 2 if i else None})
    return {"rows": rows, "ratios": [r["ratio"] for r in rows[1:]],
            "at": {str(r["L"]): r for r in rows}}


def kv_cache_speed(cfg: Config, ctx) -> dict:
    """Seconds to generate N tokens greedily with and without the key/value cache.

    Also counts the positions each mode computes: N with the cache, 1 + 2 + … + N without.
    """
    device = ctx.device
    mcfg = tc.TransformerConfig(vocab_size=cfg.vocab_size)  # D = 64, h = 4, d_ff = 128, N = 2
    model = tc.DecoderOnlyTransformer(mcfg).to(device).eval()
    prompt = torch.randint(1, cfg.vocab_size, (1, 1), generator=ctx.generator(2)).to(device)
    rows, same = [], True
    with ctx.progress(len(cfg.gen_lengths), "generate") as bar:
        for i in bar:
            N = cfg.gen_lengths[i]
            fns = {"cache": lambda n=N: tc.generate(model, prompt, n, use_cache=True),
                   "no_cache": lambda n=N: tc.generate(model, prompt, n, use_cache=False)}
            same &= torch.equal(fns["cache"](), fns["no_cache"]())
            work = {name: positions_computed(model, fn) for name, fn in fns.items()}
            secs = median_times(fns, cfg.gen_repeats, device)
            rows.append({"N": N, "cache_s": secs["cache"], "no_cache_s": secs["no_cache"],
                         "speedup": secs["no_cache"] / secs["cache"],
                         "cache_tok_s": N / secs["cache"], "no_cache_tok_s": N / secs["no_cache"],
                         "cache_positions": work["cache"], "no_cache_positions": work["no_cache"],
                         "positions_ratio": work["no_cache"] / work["cache"]})
            bar.log(N=N, speedup=rows[-1]["speedup"])
    Ns = [r["N"] for r in rows]
    return {"rows": rows, "lengths": Ns, "speedup": [r["speedup"] for r in rows],
            "speedup_longest": rows[-1]["speedup"], "longest": rows[-1], "same_tokens": int(same),
            "positions_ratio_longest": rows[-1]["positions_ratio"],
            "slope_cache": loglog_slope(Ns, [r["cache_s"] for r in rows]),
            "slope_no_cache": loglog_slope(Ns, [r["no_cache_s"] for r in rows]),
            "n_parameters": tc.count_parameters(model)}


# one published model with grouped-query attention (Touvron et al. 2023, Llama 2 70B: 80 layers,
# D = 8,192, 64 query heads sharing 8 key/value heads, a 4,096-token context, 16-bit numbers)
def run(cfg: Config, ctx) -> dict:
    with torch_threads(cfg.threads, ctx.device) as threads:
        attention = attention_costs(cfg, ctx)
        kv = kv_cache_speed(cfg, ctx)
    n2 = n2_table(cfg.table_lengths)
    return {
        "attention": attention,
        "n2": n2,
        "kv": kv,
        "device": {"type": ctx.device.type, "name": tc.describe_device(ctx.device), "threads": threads,
                   "torch": torch.__version__},
    }
