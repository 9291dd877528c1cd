#!/usr/bin/env python
"""Measure what an edit a page asks for costs a site build: none may train anything.

Builds the site after a warm-up build, side by side in one run:

1. warm: nothing changed (the reference);
2. after each edit of EDITS, one at a time (made in place, undone after its build): one
   Korean label of a reversal figure, one colour of the shared plotting style, one claim's
   sentence, one widget's data module, the in-page models' file format, the progress bar's
   wording;

and prints each build's wall time, its ratio to the warm build, and how many experiments were
computed, given new page data and redrawn (from .build/provenance.json). Edits are undone
also on Ctrl-C; do not edit those files while it runs.

    python scripts/presentation_benchmark.py            # about 3-6 minutes with warm caches
    python scripts/presentation_benchmark.py --only claim,progress
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

PIPELINE = REPO_ROOT / "scripts" / "coursebuild" / "pipeline"
EDITS = {  # name: (file, text, replacement)
    "label": (EXPERIMENTS / "drawing" / "reversal.py", '"loss_title": "학습 손실"', '"loss_title": "학습 손실 "'),
    "colour": (EXPERIMENTS / "drawing" / "plotting.py", '"raw": "#D55E00"', '"raw": "#D55E01"'),
    "claim": (EXPERIMENTS / "pagedata" / "reversal.py", "마지막 층의 크로스 어텐션은", "마지막 층 크로스 어텐션은"),
    "widget data": (EXPERIMENTS / "pagedata" / "widgets_architecture.py", "D_CHOICES = (16,", "D_CHOICES = (8, 16,"),
    "model file format": (EXPERIMENTS / "pagedata" / "model_export.py", '"dtype": "int8", ',
                          '"dtype": "int8", "edited": 1, '),
    "progress wording": (PIPELINE / "progress.py", "elapsed {elapsed:.1f}s eta", "took {elapsed:.1f}s, left"),
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--only", metavar="EDIT,...", default=None,
                        help=f"only these edits (default: all): {', '.join(EDITS)}")
    args = parser.parse_args(argv)
    chosen = list(EDITS) if args.only is None else [e.strip() for e in args.only.split(",")]
    unknown = [e for e in chosen if e not in EDITS]
    if unknown:
        parser.error(f"unknown edit {', '.join(map(repr, unknown))}; choose from: {', '.join(EDITS)}")
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build(site)  # warm-up: caches filled, files in place
        rows = [("warm build, nothing changed", *build(site))]
        for what in chosen:
            path, old, new = EDITS[what]
            original = edited(path, old, new)
            try:
                rows.append((f"after one {what} edit ({path.relative_to(REPO_ROOT)})", *build(site)))
            finally:
                path.write_text(original, "utf-8")
        build(site)  # leave the caches as the sources are again
    warm = rows[0][1]
    print(f"{'build':82s} {'seconds':>8s} {'× warm':>7s} {'computed':>9s} {'page data':>10s} {'redrawn':>8s}")
    for label, seconds, cache in rows:
        print(f"{label:82s} {seconds:8.1f} {seconds / warm:7.2f} {cache['misses']:9d} "
              f"{cache.get('pagedata_made', 0):10d} {cache['drawings_redrawn']:8d}")
    trained = [label for label, _, cache in rows if cache["misses"]]
    if trained:
        print(f"error: these builds computed an experiment: {'; '.join(trained)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
