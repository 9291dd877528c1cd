"""Run experiments through the cache, check their gates, write provenance."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import logging
import math
import platform
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from . import registry, store
from .context import RunContext, deterministic, device_name, pick_device, seed_everything
from .errors import ExperimentError, GateError
from tutorial_code.experiments.tables import column

log = logging.getLogger("tutorial_code.experiments")


@dataclass
class Outcome:
    """What happened to one experiment in a run."""

    name: str
    status: str             # "hit" (from cache), "miss" (computed), "recomputed" (corrupt entry)
    entry: Path             # the published cache entry folder
    record: dict            # the parsed results.json
    seconds: float          # time spent in this run (checking or computing)

    @property
    def computed(self) -> bool:
        return self.status != "hit"

    def figure_paths(self, lang: str) -> dict[str, Path]:
        """{figure name (without .png): file} for one language."""
        return {Path(f).stem: self.entry / "figures" / lang / f for f in self.record["figures"][lang]}


@dataclass
class Report:
    """The result of :func:`run_experiments`: outcomes in registry order plus provenance."""

    out: Path
    outcomes: list[Outcome] = field(default_factory=list)
    provenance: dict = field(default_factory=dict)

    def __getitem__(self, name: str) -> Outcome:
        for o in self.outcomes:
            if o.name == name:
                return o
        raise KeyError(name)

    @property
    def statuses(self) -> dict[str, str]:
        return {o.name: o.status for o in self.outcomes}


def run_experiments(
    names: list[str] | None = None,
    out: str | Path | None = None,
    *,
    force: bool = False,
    device: str | None = None,
    tiny: bool = False,
    progress_stream=None,
) -> Report:
    """Run the named experiments (None: all) through the cache and return a :class:`Report`.

    ``device``: None or "auto" (env TUTORIAL_DEVICE, else cuda, mps, cpu), or a device name.
    Raises ExperimentError for bad input and GateError when a result leaves its range; in both
    cases nothing of the failing experiment is published and provenance.json is not written.
    """
    t_start = time.perf_counter()
    selected = registry.resolve(names)
    dev = pick_device(device)
    out_dir = store.check_writable(out if out is not None else store.DEFAULT_OUT)
    report = Report(out=out_dir)
    for name in selected:
        wait = lambda lock, name=name: log.info("%s: waiting for another run to release %s", name, lock)  # noqa: E731
        with store.locked(out_dir, name, on_wait=wait):
            report.outcomes.append(_run_one(name, out_dir, dev, force, tiny, progress_stream))
    report.provenance = provenance(report, dev, device, tiny, time.perf_counter() - t_start)
    store.write_json(out_dir / "provenance.json", report.provenance)
    return report


def _run_one(name, out_dir, dev, force, tiny, stream) -> Outcome:
    t0 = time.perf_counter()
    module = registry.load(name)
    cfg = module.Config.tiny() if tiny else module.Config()
    config = dataclasses.asdict(cfg)
    key, parts = store.cache_key(name, config, dev.type)
    final = store.entry_dir(out_dir, name, key)
    store.clean_stale(out_dir, name)
    status = "miss"
    if not force:
        record, problem = store.verify_entry(final, key)
        if record is not None:
            check_gates(name, record["results"], gates_for(module, tiny))
            store.touch(final)
            return Outcome(name, "hit", final, record, time.perf_counter() - t0)
        if problem:
            log.warning("cache entry for '%s' at %s is corrupt (%s); recomputing it",
                        name, final, problem)
            status = "recomputed"
    staging = store.new_staging_dir(out_dir, name, key)
    try:
        record = _compute(name, module, cfg, config, key, dev, tiny, staging, stream)
        store.write_manifest(staging, key, parts)  # last: an entry without it is never used
        store.promote(staging, final)
    finally:
        store.discard(staging)  # no-op after a successful promote
    store.prune(out_dir, name, keep=final)
    log.info("%s: computed in %.1fs (%s)", name, record["wall_time_s"], status)
    return Outcome(name, status, final, record, time.perf_counter() - t0)


def _compute(name, module, cfg, config, key, dev, tiny, staging, stream) -> dict:
    """Run, check gates, draw both languages, write results.json into ``staging``."""
    seed = int(getattr(cfg, "seed", 0))
    ctx = RunContext(name=name, device=dev, seed=seed, tiny=tiny,
                     out_dir=staging / "files", progress_stream=stream)
    ctx.out_dir.mkdir()
    t0 = time.perf_counter()
    with deterministic():
        seed_everything(seed)
        raw = module.run(cfg, ctx)
    wall = time.perf_counter() - t0
    if not isinstance(raw, dict):
        raise ExperimentError(f"{name}.run() must return a dict, not {type(raw).__name__}")
    raw = dict(raw)
    tables = raw.pop("tables", {})
    # round-trip through JSON so figures see exactly what a cache hit would see
    results, tables = json.loads(store.dumps([raw, tables]))
    check_gates(name, results, gates_for(module, tiny))  # before drawing: fail fast
    record = {
        "experiment": name,
        "title": getattr(module, "TITLE", {"ko": name, "en": name}),
        "key": key,
        "tiny": tiny,
        "config": config,
        "results": results,
        "tables": tables,
        "device": dev.type,
        "device_name": device_name(dev),
        "seed": seed,
        "versions": store.library_versions(),
        "wall_time_s": round(wall, 3),
        "created_utc": _utc_now(),
        "figures": {},
        "gates": gate_tree(module.GATES),  # the full-size claims, also in --tiny runs
    }
    t1 = time.perf_counter()
    figure_names = None
    for lang in store.LANGS:
        outdir = staging / "figures" / lang
        outdir.mkdir(parents=True, exist_ok=True)
        files = [Path(p) for p in module.figures(results, lang, outdir) or []]
        for p in files:
            if p.parent.resolve() != outdir.resolve() or not p.is_file():
                raise ExperimentError(f"{name}.figures() returned {p}, which is not a file in {outdir}")
        these = sorted(p.name for p in files)
        if figure_names is not None and these != figure_names:
            raise ExperimentError(f"{name}.figures() made {these} for {lang} but {figure_names} "
                                  "for the other language; both need the same file names")
        figure_names = these
        record["figures"][lang] = these
    record["figure_time_s"] = round(time.perf_counter() - t1, 3)
    store.write_json(staging / "results.json", record)
    return record


def load_report(out: str | Path | None = None) -> Report:
    """Read the last successful run's outputs back from disk (no computing).

    Every entry is checked against its manifest; a missing or corrupt one is an
    ExperimentError that says which command recomputes it.
    """
    out_dir = Path(out if out is not None else store.DEFAULT_OUT).expanduser().resolve()
    try:
        prov = json.loads((out_dir / "provenance.json").read_text("utf-8"))
        entries = prov["entries"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ExperimentError(
            f"no usable provenance.json in {out_dir} ({type(exc).__name__}: {exc}); "
            "run scripts/run_experiments.py first") from exc
    report = Report(out=out_dir, provenance=prov)
    for name, entry in entries.items():
        path = out_dir / entry["path"]
        record, problem = store.verify_entry(path, entry["key"])
        if record is None:
            raise ExperimentError(
                f"results of '{name}' at {path} are {problem or 'missing'}; "
                f"recompute with: python scripts/run_experiments.py --force {name}")
        status = prov.get("experiments", {}).get(name, {}).get("status", "hit")
        report.outcomes.append(Outcome(name, status, path, record, 0.0))
    return report


# ---------------------------------------------------------------- gates

def gates_for(module, tiny: bool) -> dict:
    """Full runs check ``GATES``; --tiny runs check ``TINY_GATES`` if defined, else none."""
    return getattr(module, "TINY_GATES", {}) if tiny else module.GATES


def lookup(data, path: str):
    """Resolve a dotted path ("at.512.peak", "raw_std.3") in nested dicts and lists."""
    value = data
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.lstrip("-").isdigit() and -len(value) <= int(part) < len(value):
            value = value[int(part)]
        else:
            raise KeyError(path)
    return value


def gate_tree(gates: dict) -> dict:
    """Gates as nested dicts, so pages can quote a range: ``[[reversal.gates.test.exact.0|.1%]]``."""
    tree: dict = {}
    for path, (lo, hi) in gates.items():
        *parents, leaf = path.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = [lo, hi]
    return tree


def check_gates(name: str, results: dict, gates: dict) -> None:
    """Raise GateError listing every metric outside its closed range [lo, hi].

    A gate on a list checks every element.
    """
    failures = []
    for metric, (lo, hi) in gates.items():
        try:
            value = lookup(results, metric)
        except KeyError:
            failures.append(f"{name}: metric '{metric}' is missing from the results "
                            f"(gate range [{lo}, {hi}])")
            continue
        items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
        for i, v in items:
            label = metric if i is None else f"{metric}[{i}]"
            ok = isinstance(v, (int, float)) and not math.isnan(v) and lo <= v <= hi
            if not ok:
                failures.append(f"{name}: metric '{label}' = {v!r} is outside the gate range [{lo}, {hi}]")
    if failures:
        raise GateError("metric gate failed, nothing was published:\n  " + "\n  ".join(failures))


# ---------------------------------------------------------------- provenance

def provenance(report: Report, dev: torch.device, requested: str | None, tiny: bool,
               wall: float) -> dict:
    """Facts about how this run was made, for the 'how this site was built' page."""
    rows = [{"experiment": o.name, "status": o.status,
             "compute_s": o.record["wall_time_s"], "this_run_s": round(o.seconds, 3),
             "device": o.record["device_name"], "seed": o.record["seed"]}
            for o in report.outcomes]
    hits = sum(o.status == "hit" for o in report.outcomes)
    return {
        "format": store.FORMAT,
        "created_utc": _utc_now(),
        "tiny": tiny,
        "device": {"requested": requested or "auto", "used": dev.type, "name": device_name(dev)},
        "cpu": cpu_model(),
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "platform": platform.platform(),
        "versions": store.library_versions(),
        "git": git_state(),
        "seeds": {o.name: o.record["seed"] for o in report.outcomes},
        "experiments": {r["experiment"]: r for r in rows},
        "entries": {o.name: {"path": o.entry.relative_to(report.out).as_posix(),
                             "key": o.record["key"]} for o in report.outcomes},
        "cache": {"hits": hits, "misses": len(report.outcomes) - hits},
        "run_wall_time_s": round(wall, 3),
        "tables": {"experiments": {
            "columns": [
                column("experiment", "실험", "experiment"),
                column("status", "캐시", "cache"),
                column("compute_s", "계산 시간 (초)", "compute time (s)", ".1f"),
                column("device", "장치", "device"),
                column("seed", "시드", "seed"),
            ],
            "rows": rows,
        }},
    }


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def git_state() -> dict:
    """{"commit": sha or None, "dirty": bool or None}; never fails when git is absent."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=store.REPO_ROOT, capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()
    try:
        commit = git("rev-parse", "HEAD")
        dirty = bool(git("status", "--porcelain"))  # untracked files count: they can change results
        return {"commit": commit, "dirty": dirty}
    except (OSError, subprocess.SubprocessError) as exc:
        return {"commit": None, "dirty": None, "note": f"git unavailable: {type(exc).__name__}"}


def _utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def describe(name: str) -> str:
    """First line of an experiment module's docstring, for --list."""
    doc = (sys.modules.get(f"{__package__}.{name}") or registry.load(name)).__doc__ or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""
