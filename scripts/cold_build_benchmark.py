#!/usr/bin/env python3
"""The cold build's cost in reference samples, and a warm build beside it, in one run.

Seconds alone say more about the machine than about the build, so the cold build is also given in
**reference samples**: its seconds times the training throughput of PyTorch's own nn.Transformer
(``scripts/benchmark.py``, batch 64), measured on the same machine just before and just after the
build. The budget is 1.6 M reference samples.

Steps, all in one run:

1. ``git clone`` this repository's committed HEAD into a fresh folder (no experiment cache, no
   executed notebooks, no site: what a fresh machine has, except the installed packages of this
   virtual environment, which the clone uses);
2. the reference throughput (median of ``--repeats`` timed runs of 20 steps);
3. ``mkdocs build --strict`` in the clone, cold; then the same build once more, warm;
4. the reference throughput again.

It prints the seconds of both builds, the throughput before and after, the load averages, and
cold seconds × mean throughput against the budget; with ``--json`` the same as JSON. It exits 1
when the cold build fails or is over budget.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchmark

ROOT = Path(__file__).resolve().parents[1]
BUDGET = 1.6e6  # reference samples


def reference_rate(repeats: int) -> float:
    """nn.Transformer's training samples per second at batch 64, on the default threads."""
    bench = benchmark.BenchmarkConfig(batch_sizes=(64,), repeats=repeats)
    return benchmark.compare_training_throughput(bench)["rows"][0]["pytorch_samples_per_s"]


def build(clone: Path, log: Path) -> float:
    env = {**os.environ, "PYTHONPATH": f"{clone / 'scripts'}{os.pathsep}{clone}", "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=clone, env=env,
                              stdout=out, stderr=subprocess.STDOUT)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"the build in {clone} failed (exit {done.returncode}); its output is in {log}")
    return seconds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeats", type=benchmark.positive, default=7,
                   help="timed runs of the reference throughput, before and after (default 7)")
    p.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    a = p.parse_args()
    if subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                      capture_output=True, text=True).stdout.strip():
        print("note: the working tree has uncommitted changes; the clone builds the committed HEAD", file=sys.stderr)
    folder = Path(tempfile.mkdtemp(prefix="cold-build-"))
    clone = folder / "course"
    ok = False
    try:
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True,
                                text=True, check=True).stdout.strip()
        load_before = os.getloadavg()
        before = reference_rate(a.repeats)
        cold = build(clone, folder / "cold.log")
        warm = build(clone, folder / "warm.log")
        after = reference_rate(a.repeats)
        load_after = os.getloadavg()
        ok = True
    finally:
        if ok and not a.keep:  # a failed build keeps its clone and logs, for reading
            shutil.rmtree(folder, ignore_errors=True)
    rate = (before + after) / 2
    result = {"commit": commit, "cold_s": cold, "warm_s": warm, "reference_samples_per_s_before": before,
              "reference_samples_per_s_after": after, "reference_samples": cold * rate, "budget": BUDGET,
              "load_before": load_before, "load_after": load_after}
    if a.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"commit {commit}; load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
        print(f"nn.Transformer, batch 64: {before:,.0f} samples/s before, {after:,.0f} after")
        print(f"cold build {cold:.1f} s, warm build {warm:.1f} s")
        print(f"cold build = {cold:.1f} s x {rate:,.0f} samples/s = {cold * rate / 1e6:.2f} M reference samples "
              f"(budget {BUDGET / 1e6:.1f} M: {'within' if cold * rate <= BUDGET else 'OVER'})")
        if a.keep:
            print(f"clone kept in {clone}")
    sys.exit(0 if cold * rate <= BUDGET else 1)


if __name__ == "__main__":
    main()
