#!/usr/bin/env python3
"""Time making the 18 student handouts (9 lessons × 2 languages) on an empty cache, two ways.

``chromium``: this build's way (coursebuild/outputs/handouts.py): each handout's HTML page set
with KaTeX and printed by one Chromium for all 18. ``fpdf2``: the earlier way, plain text
through fpdf2, taken from a git revision of ``handouts.py`` (``--fpdf2-rev``; it needs fpdf2,
``pip install fpdf2==2.8.9``). Each way runs once, with the experiments' cached results and
figures (``.build/``, or ``--results``); prints wall time, CPU time of this process and of its
children (Chromium) and the PDFs' total size.

    .venv/bin/python scripts/handout_benchmark.py --fpdf2-rev 095564a
"""

import argparse
import importlib.util
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coursebuild.paths import DEFAULT_OUT, REPO_ROOT


def _old_module(rev: str):
    """``scripts/coursebuild/outputs/handouts.py`` at ``rev``, imported inside the package."""
    source = subprocess.run(["git", "show", f"{rev}:scripts/coursebuild/outputs/handouts.py"], cwd=REPO_ROOT,
                            check=True, capture_output=True, text=True).stdout
    # labels the earlier version looked up as they were then (this build's strings changed)
    source = source.replace('ui.text(lang, "handout.figures")', '"Key figures"')
    source = source.replace('ui.text(lang, "handout.worked_note")', 'ui.text(lang, "handout.worked_note", n=0)')
    folder = Path(tempfile.mkdtemp())
    path = folder / "handouts_fpdf2.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("coursebuild.outputs.handouts_fpdf2", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(way: str, module, results: dict, figure_path) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cpu, start = _cpu(), time.perf_counter()
        done = module.build(Path(tmp) / "out", results, figure_path, cache=Path(tmp) / "cache")
        wall, cpu = time.perf_counter() - start, _cpu() - cpu
        size = sum(path.stat().st_size for path, _ in done.values())
    return {"way": way, "pdfs": len(done), "wall_s": wall, "cpu_s": cpu, "mb": size / 1e6}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fpdf2-rev", help="git revision whose handouts.py used fpdf2 (also time that way)")
    parser.add_argument("--results", type=Path, default=DEFAULT_OUT, help="the experiments' cache (default .build/)")
    args = parser.parse_args(argv)

    from coursebuild.outputs import handouts
    from coursebuild.pipeline.runner import load_report
    from coursebuild.pipeline.site import data_from_report

    report = load_report(args.results)
    results = data_from_report(report)
    figures = {(lang, o.name, stem): p for o in report.outcomes for lang in ("ko", "en")
               for stem, p in o.figure_paths(lang).items()}
    rows = [run("chromium", handouts, results, lambda lang, e, s: figures[(lang, e, s)])]
    if args.fpdf2_rev:
        rows.append(run(f"fpdf2 ({args.fpdf2_rev})", _old_module(args.fpdf2_rev), results,
                        lambda lang, e, s: figures[(lang, e, s)]))
    for r in rows:
        print(f"{r['way']:<20} {r['pdfs']} PDFs  wall {r['wall_s']:.1f} s  CPU {r['cpu_s']:.1f} s  {r['mb']:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
