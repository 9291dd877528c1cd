"""Command line for the experiment pipeline; ``scripts/run_experiments.py`` calls :func:`main`."""

from __future__ import annotations

import argparse
import logging
import sys

from . import registry, store
from .errors import ExperimentError

EPILOG = """\
examples:
  run_experiments.py                    run every experiment (cached ones are reused)
  run_experiments.py scaling            run one experiment
  run_experiments.py --force scaling    recompute even if cached
  run_experiments.py --tiny --out /tmp/x  seconds-long smoke run (gates: TINY_GATES only)
  TUTORIAL_DEVICE=cuda run_experiments.py
  run_experiments.py --jobs 1           one experiment at a time (default: one per core, up to 4)

exit status: 0 ok, 1 a metric gate failed, 2 bad input or unusable output folder, 130 interrupted
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="run_experiments.py",
        description="Run the course's experiments through the results cache: results JSON, "
                    "one figure set per language (ko, en), metric gates, provenance.json.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("names", nargs="*", metavar="EXPERIMENT",
                   help="experiments to run (default: all); see --list")
    p.add_argument("--list", action="store_true", help="list the experiments and exit")
    p.add_argument("--force", action="store_true", help="recompute even when a cached result is valid")
    p.add_argument("--device", choices=["auto", "cpu", "cuda", "mps"], default=None,
                   help="device to run on (default: auto = env TUTORIAL_DEVICE, else cuda, mps, cpu)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help=f"output and cache folder (default: {store.DEFAULT_OUT})")
    p.add_argument("--tiny", action="store_true",
                   help="tiny sizes for tests: seconds per experiment, only TINY_GATES are checked")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="experiments computed at once when several miss the cache (default: env "
                        "TUTORIAL_JOBS, else one per core up to 4 on the CPU, 1 on a GPU)")
    p.add_argument("-q", "--quiet", action="store_true", help="only warnings and errors")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # our messages at INFO, everyone else's (matplotlib, torch) only from WARNING up
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s", stream=sys.stderr)
    logging.getLogger("tutorial_code").setLevel(logging.WARNING if args.quiet else logging.INFO)
    try:
        if args.list:
            from .runner import describe
            for name in registry.names():
                print(f"{name:16s} {describe(name)}")
            return 0
        from .runner import run_experiments
        report = run_experiments(args.names, args.out, force=args.force, device=args.device,
                                 tiny=args.tiny, jobs=args.jobs)
    except ExperimentError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted: nothing half-written was published; rerun to continue",
              file=sys.stderr)
        return 130
    for o in report.outcomes:
        print(f"{o.name:16s} {o.status:10s} {o.seconds:6.1f}s  {o.entry}")
    cache = report.provenance["cache"]
    print(f"done: {cache['hits']} cached, {cache['misses']} computed on "
          f"{report.provenance['device']['name']}; provenance: {report.out / 'provenance.json'}")
    return 0
