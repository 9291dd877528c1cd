#!/usr/bin/env python
"""Measure what a presentation-only edit costs a site build: it must train nothing.

Builds the site three times after a warm-up build, side by side in one run:

1. warm: nothing changed (the reference);
2. after editing one Korean label of a reversal figure (drawing/reversal.py);
3. after editing one colour of the shared plotting style (drawing/plotting.py);

and prints each build's wall time, its ratio to the warm build, and how many experiments were
computed and redrawn (from .build/provenance.json). The two edits are made in place and
undone afterwards, also on Ctrl-C; do not edit those files while it runs.

    python scripts/presentation_benchmark.py            # about 2-4 minutes with warm caches
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coursebuild.paths import DEFAULT_OUT, EXPERIMENTS, REPO_ROOT

EDITS = {
    "label": (EXPERIMENTS / "drawing" / "reversal.py", '"loss_title": "학습 손실"', '"loss_title": "학습 손실 "'),
    "colour": (EXPERIMENTS / "drawing" / "plotting.py", '"raw": "#D55E00"', '"raw": "#D55E01"'),
}


def build(site: Path) -> tuple[float, dict]:
    """One `mkdocs build`; (seconds, the cache counts of provenance.json)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)], cwd=REPO_ROOT,
                   env=env, check=True)
    seconds = time.perf_counter() - t0
    out = Path(os.environ.get("TUTORIAL_EXPERIMENTS_OUT") or DEFAULT_OUT)
    prov = json.loads((out / "provenance.json").read_text("utf-8"))
    return seconds, prov["cache"]


def edited(path: Path, old: str, new: str):
    text = path.read_text("utf-8")
    if old not in text:
        raise SystemExit(f"error: {path} no longer contains {old!r}; update EDITS in {__file__}")
    path.write_text(text.replace(old, new, 1), "utf-8")
    return text


def main(argv=None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                            formatter_class=argparse.RawDescriptionHelpFormatter,
                            epilog=__doc__.split("\n\n", 1)[1]).parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build(site)  # warm-up: caches filled, files in place
        rows = [("warm build, nothing changed", *build(site))]
        for what, (path, old, new) in EDITS.items():
            original = edited(path, old, new)
            try:
                rows.append((f"after one {what} edit ({path.relative_to(REPO_ROOT)})", *build(site)))
            finally:
                path.write_text(original, "utf-8")
        build(site)  # leave the caches as the sources are again
    warm = rows[0][1]
    print(f"{'build':58s} {'seconds':>8s} {'× warm':>7s} {'computed':>9s} {'redrawn':>8s}")
    for label, seconds, cache in rows:
        print(f"{label:58s} {seconds:8.1f} {seconds / warm:7.2f} {cache['misses']:9d} "
              f"{cache['drawings_redrawn']:8d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
