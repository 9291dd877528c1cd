"""Run experiments through the caches, check their gates, draw their figures, write provenance.

Each experiment goes through two stages, each with its own cache (:mod:`.store`):

1. **compute** — ``tutorial_code/experiments/<name>.py``: ``run(cfg, ctx)`` trains or
   computes and returns the results; its gates are checked; ``results.json`` is cached under
   a key of the code it runs and its config;
2. **draw** — ``tutorial_code/experiments/drawing/<name>.py``: ``tables(results)`` and
   ``figures(results, lang, outdir)`` per language, cached under a key of the results and the
   drawing code, so a label or a colour change redraws in seconds and trains nothing.
"""


from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import logging
import math
import multiprocessing
import os
import platform
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import torch

from . import registry, store
from tutorial_code.experiments.gates import Claim, as_gate
from tutorial_code.experiments.drawing.tables import column

from .context import RunContext, deterministic, device_name, pick_device, seed_everything
from .errors import ClaimError, ExperimentError, GateError

log = logging.getLogger("tutorial_code.experiments")


@dataclass
class Outcome:
    """What happened to one experiment in a run."""

    name: str
    status: str             # "hit" (from cache), "miss" (computed), "recomputed" (corrupt entry)
    entry: Path             # the published compute entry folder (results.json)
    record: dict            # results.json, plus the drawing's "title", "tables" and "figures"
    seconds: float          # time spent in this run (checking, computing, drawing)
    drawing: Path           # the published drawing entry folder (figures/<lang>/*.png)
    drawing_status: str = "hit"

    @property
    def computed(self) -> bool:
        return self.status != "hit"

    def figure_paths(self, lang: str) -> dict[str, Path]:
        """{figure name (without .png): file} for one language."""
        return {Path(f).stem: self.drawing / "figures" / lang / f for f in self.record["figures"][lang]}


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
    jobs: int | None = 1,
) -> Report:
    """Run the named experiments (None: all) through the cache and return a :class:`Report`.

    ``device``: None or "auto" (env TUTORIAL_DEVICE, else cuda, mps, cpu), or a device name.
    ``jobs``: how many experiments that miss the cache compute at once; None picks (see
    :func:`pick_jobs`; the command line's default). Workers do not see a caller's monkeypatches.
    Raises ExperimentError for bad input and GateError when a result leaves its range; in both
    cases nothing of the failing experiment is published and provenance.json is not written.
    """
    t_start = time.perf_counter()
    selected = registry.resolve(names)
    dev = pick_device(device)
    out_dir = store.check_writable(out if out is not None else store.DEFAULT_OUT)
    report = Report(out=out_dir)
    jobs = pick_jobs(jobs, dev)
    keys = {n: _compute_key(n, dev, tiny) for n in selected}  # once: the source scan is not free
    misses = [n for n in selected if force or not _cached(n, keys[n], out_dir)]
    together = [n for n in misses if n not in registry.ALONE] if jobs > 1 else []
    done = _run_in_workers(together, keys, out_dir, dev, force, tiny, jobs) if len(together) > 1 else {}
    for name in selected:
        if name not in done:
            done[name] = _run_locked(name, keys[name], out_dir, dev, force, tiny, progress_stream)
        report.outcomes.append(done[name])
    report.provenance = provenance(report, dev, device, tiny, time.perf_counter() - t_start)
    store.write_json(out_dir / "provenance.json", report.provenance)
    return report


def pick_jobs(jobs: int | None, dev) -> int:
    """How many experiments compute at once: ``jobs``, else env TUTORIAL_JOBS, else one per
    CPU core, up to 4, on the CPU (each computes on one thread: context.deterministic) and 1
    on a GPU."""
    raw = jobs if jobs is not None else os.environ.get("TUTORIAL_JOBS") or None
    if raw is None:
        return min(4, os.cpu_count() or 1) if dev.type == "cpu" else 1
    try:
        n = int(raw)
    except ValueError:
        n = 0
    if n < 1:
        raise ExperimentError(f"jobs must be a whole number of at least 1 (TUTORIAL_JOBS or --jobs), not {raw!r}")
    return n


def _compute_key(name, dev, tiny) -> tuple[str, dict]:
    """(key, parts) of ``name``'s compute entry (store.cache_key of its config and sources)."""
    module = registry.load(name)
    cfg = module.Config.tiny() if tiny else module.Config()
    return store.cache_key(name, dataclasses.asdict(cfg), dev.type)


def _cached(name, key: tuple[str, dict], out_dir) -> bool:
    """Whether ``name``'s compute entry is a valid hit (its drawings may still be missing)."""
    return store.verify_entry(store.entry_dir(out_dir, name, key[0]), key[0])[0] is not None


def _run_locked(name, key, out_dir, dev, force, tiny, stream) -> Outcome:
    wait = lambda lock: log.info("%s: waiting for another run to release %s", name, lock)  # noqa: E731
    with store.locked(out_dir, name, on_wait=wait):
        return _run_one(name, key, out_dir, dev, force, tiny, stream)


def _run_in_workers(names, keys, out_dir, dev, force, tiny, jobs) -> dict[str, Outcome]:
    """Compute and draw ``names`` in ``jobs`` worker processes; {name: outcome}.

    Each worker is a fresh interpreter (spawn) that seeds every experiment and fixes its CPU
    threads as a sequential run does, so the numbers are the same. Experiments that time themselves (``registry.ALONE``) are
    left to the caller, which runs them on their own afterwards.
    """
    ctx = multiprocessing.get_context("spawn")
    level = logging.getLogger("tutorial_code").getEffectiveLevel()
    log.info("computing %s in %d processes", ", ".join(names), jobs)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_init,
                             initargs=(level,)) as pool:
        futures = {n: pool.submit(_run_locked, n, keys[n], out_dir, dev, force, tiny, None) for n in names}
        try:
            return {n: f.result() for n, f in futures.items()}
        except BaseException:
            for f in futures.values():
                f.cancel()
            raise


def _worker_init(level: int) -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s", stream=sys.stderr)
    logging.getLogger("tutorial_code").setLevel(level)


def _run_one(name, key, out_dir, dev, force, tiny, stream) -> Outcome:
    t0 = time.perf_counter()
    module = registry.load(name)
    status, entry, record = _compute_stage(name, module, key, out_dir, dev, force, tiny, stream)
    drawing_status, drawing, drawn = _draw_stage(name, entry, record, out_dir, force)
    record = {**record, **drawn}
    return Outcome(name, status, entry, record, time.perf_counter() - t0, drawing, drawing_status)


def _compute_stage(name, module, key, out_dir, dev, force, tiny, stream) -> tuple[str, Path, dict]:
    """(status, entry, record) of the compute cache: reuse a valid entry or run and publish.
    ``key``: (key, parts) from :func:`_compute_key`, worked out once per run."""
    cfg = module.Config.tiny() if tiny else module.Config()
    config = dataclasses.asdict(cfg)
    key, parts = key
    final = store.entry_dir(out_dir, name, key)
    store.clean_stale(out_dir, name)
    status = "miss"
    if not force:
        record, problem = store.verify_entry(final, key)
        if record is not None:
            check_gates(name, record["results"], gates_for(module, tiny), record["device"])
            check_claims(name, record["results"], claims_for(module, tiny), record["device"])
            store.touch(final)
            return "hit", final, record
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
    return status, final, record


def _compute(name, module, cfg, config, key, dev, tiny, staging, stream) -> dict:
    """Run, check gates, write results.json into ``staging``."""
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
    # round-trip through JSON so the drawings see exactly what a cache hit would see
    results = json.loads(store.dumps(raw))
    check_gates(name, results, gates_for(module, tiny), dev.type)
    check_claims(name, results, claims_for(module, tiny), dev.type)  # training worked: now the prose
    record = {
        "experiment": name,
        "key": key,
        "tiny": tiny,
        "config": config,
        "results": results,
        "device": dev.type,
        "device_name": device_name(dev),
        "seed": seed,
        "versions": store.library_versions(),
        "wall_time_s": round(wall, 3),
        "created_utc": _utc_now(),
        "gates": gate_tree(module.GATES),  # the full-size ranges, also in --tiny runs
        "claims": gate_tree(getattr(module, "CLAIMS", {})),
    }
    store.write_json(staging / "results.json", record)
    return record


def _draw_stage(name, entry: Path, record: dict, out_dir, force) -> tuple[str, Path, dict]:
    """(status, entry, drawn) of the drawings cache: title, tables and figures of one result."""
    drawing = registry.load_drawing(name)
    key, parts = store.drawing_key(name, store.sha256_file(entry / "results.json"))
    final = store.entry_dir(out_dir, name, key, store.DRAWINGS)
    store.clean_stale(out_dir, name, store.DRAWINGS)
    if not force:
        drawn, problem = store.verify_entry(final, key, store.DRAWINGS)
        if drawn is not None:
            store.touch(final)
            return "hit", final, _public(drawn)
        if problem:
            log.warning("drawings of '%s' at %s are corrupt (%s); drawing them again", name, final, problem)
    results_sha = parts["results_sha256"]
    lang_keys = {lang: store.language_key(name, results_sha, drawing.LABELS[lang], lang) for lang in store.LANGS}
    reuse = _reusable_figures(out_dir, name, lang_keys)
    staging = store.new_staging_dir(out_dir, name, key, store.DRAWINGS)
    try:
        drawn = _draw(name, drawing, record["results"], key, staging, lang_keys, reuse)
        store.write_manifest(staging, key, parts, store.DRAWINGS)
        store.promote(staging, final)
    finally:
        store.discard(staging)
    store.prune(out_dir, name, keep=final, kind=store.DRAWINGS)
    copied = f" ({', '.join(drawn['copied'])} copied: unchanged)" if drawn["copied"] else ""
    log.info("%s: drawn in %.1fs%s", name, drawn["figure_time_s"], copied)
    return "miss", final, _public(drawn)


def _public(drawn: dict) -> dict:
    public = {k: drawn[k] for k in ("title", "tables", "figures", "figure_time_s")}
    return {**public, "words": drawn.get("words", {})}  # entries drawn before words() existed: none


def _reusable_figures(out_dir, name, lang_keys: dict) -> dict[str, tuple[Path, list[str]]]:
    """{lang: (folder, file names)} of figures an older drawings entry holds for the same
    language key: after an edit of one language's LABELS, the other language is copied, not
    drawn again."""
    found = {}
    for entry in sorted(store.experiment_dir(out_dir, name, store.DRAWINGS).glob("[0-9a-f]*")):
        try:
            key = json.loads((entry / "manifest.json").read_text("utf-8"))["key"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        drawn, _ = store.verify_entry(entry, key, store.DRAWINGS)
        for lang, lang_key in (drawn or {}).get("language_keys", {}).items():
            if lang_keys.get(lang) == lang_key and lang not in found:
                found[lang] = (entry / "figures" / lang, drawn["figures"][lang])
    return found


def _draw(name, drawing, results: dict, key: str, staging: Path, lang_keys: dict,
          reuse: dict | None = None) -> dict:
    """Tables and both languages' figures of ``results``, written into ``staging``; a language
    in ``reuse`` ({lang: (folder, file names)}) is copied from there instead of drawn."""
    t0 = time.perf_counter()
    reuse = reuse or {}
    strings = drawing.LABELS
    tables = drawing.tables(results) if hasattr(drawing, "tables") else {}
    words = _words(name, drawing, results)
    drawn = {"experiment": name, "key": key, "figures": {},
             "title": {lang: strings[lang]["title"] for lang in store.LANGS},
             "tables": json.loads(store.dumps(tables)), "words": words,
             "language_keys": lang_keys, "copied": sorted(reuse)}
    figure_names = None
    for lang in store.LANGS:
        outdir = staging / "figures" / lang
        outdir.mkdir(parents=True, exist_ok=True)
        if lang in reuse:
            folder, names = reuse[lang]
            files = [Path(shutil.copy2(folder / n, outdir / n)) for n in names]
        else:
            files = [Path(p) for p in drawing.figures(results, lang, outdir) or []]
        for p in files:
            if p.parent.resolve() != outdir.resolve() or not p.is_file():
                raise ExperimentError(f"drawing/{name}.figures() returned {p}, which is not a file in {outdir}")
        these = sorted(p.name for p in files)
        if figure_names is not None and these != figure_names:
            raise ExperimentError(f"drawing/{name}.figures() made {these} for {lang} but {figure_names} "
                                  "for the other language; both need the same file names")
        figure_names = these
        drawn["figures"][lang] = these
    drawn["figure_time_s"] = round(time.perf_counter() - t0, 3)
    store.write_json(staging / "drawn.json", drawn)
    return drawn


def _words(name, drawing, results: dict) -> dict:
    """``drawing.words(results)``: {name: {"ko": text, "en": text}}, the words code chose."""
    words = drawing.words(results) if hasattr(drawing, "words") else {}
    for key, word in words.items():
        if not (isinstance(word, dict) and set(word) == set(store.LANGS)
                and all(isinstance(w, str) for w in word.values())):
            raise ExperimentError(f"drawing/{name}.words() gave {key!r} = {word!r}; each word needs "
                                  f"a text for exactly {', '.join(store.LANGS)}")
    return words


def load_report(out: str | Path | None = None) -> Report:
    """Read the last successful run's outputs back from disk (no computing).

    Every entry is checked against its manifest; a missing or corrupt one is an
    ExperimentError that says which command recomputes it.
    """
    out_dir = Path(out if out is not None else store.DEFAULT_OUT).expanduser().resolve()
    try:
        prov = json.loads((out_dir / "provenance.json").read_text("utf-8"))
        entries = prov["entries"]
        if prov.get("format") != store.FORMAT:
            raise KeyError("format")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ExperimentError(
            f"no usable provenance.json in {out_dir} ({type(exc).__name__}: {exc}); "
            "run scripts/run_experiments.py first") from exc
    report = Report(out=out_dir, provenance=prov)
    for name, entry in entries.items():
        path, drawing = out_dir / entry["path"], out_dir / entry["drawing_path"]
        record, problem = store.verify_entry(path, entry["key"])
        drawn, drawing_problem = store.verify_entry(drawing, entry["drawing_key"], store.DRAWINGS)
        if record is None or drawn is None:
            what, where = ("results", path) if record is None else ("drawings", drawing)
            raise ExperimentError(
                f"{what} of '{name}' at {where} are {problem or drawing_problem or 'missing'}; "
                f"recompute with: python scripts/run_experiments.py --force {name}")
        status = prov.get("experiments", {}).get(name, {}).get("status", "hit")
        report.outcomes.append(Outcome(name, status, path, {**record, **_public(drawn)}, 0.0, drawing))
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
    """Gates as nested dicts, so pages can quote a range: ``[[value:reversal.gates.test.exact.0|.1%]]``."""
    tree: dict = {}
    for path, declared in gates.items():
        gate = as_gate(declared)
        *parents, leaf = path.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = [gate.lo, gate.hi]
    return tree


def claims_for(module, tiny: bool) -> dict:
    """Full runs check ``CLAIMS``; --tiny runs ``TINY_CLAIMS`` if defined (tests), else none."""
    return getattr(module, "TINY_CLAIMS", {}) if tiny else getattr(module, "CLAIMS", {})


def _outside(results: dict, metric: str, gate) -> list[tuple[str, object]] | None:
    """(label, value) of each element of ``metric`` outside ``gate``; None if it is missing."""
    try:
        value = lookup(results, metric)
    except KeyError:
        return None
    items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
    return [(metric if i is None else f"{metric}[{i}]", v) for i, v in items
            if not (isinstance(v, (int, float)) and not math.isnan(v) and gate.lo <= v <= gate.hi)]


def check_gates(name: str, results: dict, gates: dict, device_kind: str = "cpu") -> None:
    """Raise GateError listing every metric outside its closed range [lo, hi].

    A gate on a list checks every element; a gate declared for another device kind is skipped.
    """
    failures = []
    for metric, declared in gates.items():
        gate = as_gate(declared)
        lo, hi = gate.lo, gate.hi
        if not gate.applies(device_kind):
            continue
        bad = _outside(results, metric, gate)
        if bad is None:
            failures.append(f"{name}: metric '{metric}' is missing from the results "
                            f"(gate range [{lo}, {hi}])")
        for label, v in bad or []:
            failures.append(f"{name}: metric '{label}' = {v!r} is outside the gate range [{lo}, {hi}]")
    if failures:
        raise GateError("metric gate failed, nothing was published:\n  " + "\n  ".join(failures))


def check_claims(name: str, results: dict, claims: dict, device_kind: str = "cpu") -> None:
    """Raise ClaimError naming, for every claim that no longer holds, the page and sentence.

    Checked after the gates: training worked, so what failed is a sentence, not the model.
    """
    failures = []
    for metric, claim in claims.items():
        if not isinstance(claim, Claim):
            raise ExperimentError(f"{name}.CLAIMS['{metric}'] must be a Claim(lo, hi, page=..., "
                                  "sentence=...) so that a failure can say what to rewrite")
        if not claim.applies(device_kind):
            continue
        bad = _outside(results, metric, claim)
        where = f"rewrite on {' and '.join(claim.pages())}: «{claim.sentence}»"
        if bad is None:
            failures.append(f"{name}: claim '{metric}' names no result; {where}")
        for label, v in bad or []:
            failures.append(f"{name}: claim no longer holds: {label} = {v!r}, expected "
                            f"[{claim.lo}, {claim.hi}]; {where}")
    if failures:
        raise ClaimError("a page states what these results no longer show, nothing was "
                         "published:\n  " + "\n  ".join(failures))


# ---------------------------------------------------------------- provenance

def provenance(report: Report, dev: torch.device, requested: str | None, tiny: bool,
               wall: float) -> dict:
    """Facts about how this run was made, for the 'how this site was built' page."""
    rows = [{"experiment": o.name, "status": o.status, "drawing_status": o.drawing_status,
             "compute_s": o.record["wall_time_s"], "this_run_s": round(o.seconds, 3),
             "drawing_s": o.record["figure_time_s"],
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
        "entries": {o.name: {"path": o.entry.relative_to(report.out).as_posix(), "key": o.record["key"],
                             "drawing_path": o.drawing.relative_to(report.out).as_posix(),
                             "drawing_key": _drawing_key(o)}
                    for o in report.outcomes},
        "cache": {"hits": hits, "misses": len(report.outcomes) - hits,
                  "drawings_redrawn": sum(o.drawing_status != "hit" for o in report.outcomes)},
        "run_wall_time_s": round(wall, 3),
        "tables": {"experiments": {
            "columns": [
                column("experiment", {"ko": "실험", "en": "experiment"}),
                column("status", {"ko": "캐시", "en": "cache"}),
                column("drawing_status", {"ko": "그림 캐시", "en": "figure cache"}),
                column("compute_s", {"ko": "계산 시간 (초)", "en": "compute time (s)"}, ".1f"),
                column("device", {"ko": "장치", "en": "device"}),
                column("seed", {"ko": "시드", "en": "seed"}),
            ],
            "rows": rows,
        }},
    }


def _drawing_key(o: Outcome) -> str:
    return json.loads((o.drawing / "drawn.json").read_text("utf-8"))["key"]


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
