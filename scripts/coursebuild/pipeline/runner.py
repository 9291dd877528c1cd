"""Run experiments through the caches: compute, page data, drawing; then check the claims.

Each experiment goes through three stages, each with its own cache (:mod:`.store`, keys in
:mod:`.keys`):

1. **compute** — ``tutorial_code/experiments/<name>.py``: ``run(cfg, ctx)`` trains or
   measures and returns the results (and saves files later stages need); ``results.json`` is
   cached under a key of the code it runs and its config; its gates are checked on every run;
2. **page data** — ``tutorial_code/experiments/pagedata/<name>.py`` (optional):
   ``page_data(cfg, results, files, out_dir)`` makes what the page runs or checks against
   (exported models, widget data), cached under a key of the results and the page-data code;
   its ``CHECKS`` are checked on every run;
3. **draw** — ``tutorial_code/experiments/drawing/<name>.py``: ``tables(results)`` and
   ``figures(results, lang, outdir)`` per language, cached under a key of the results, the
   page data and the drawing code.

Each stage goes through :func:`.stage.cached` (reuse a checked entry, else make it in a staging
folder and publish it whole) and supplies what differs: how a hit is checked, how an entry is
made, the wording of its log lines. One run's settings (output folder, device, force, tiny,
progress stream) travel as one :class:`RunSettings`, to worker processes too.

Then every experiment's ``CLAIMS`` are checked against its results and page data; a claim
that fails names the page and the sentence, after every entry has been cached, so fixing the
sentence trains nothing. Gates and claims: :mod:`.checks`; provenance: :mod:`.provenance`.
"""


from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import multiprocessing
import os
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from . import figure_layout, keys, registry, stage, store
from .checks import (ClaimError, check_claims, check_gates, checks_for, claims_for, gate_tree,  # noqa: F401
                     gates_for, lookup)
from .context import RunContext, deterministic, device_name, pick_device, seed_everything
from .errors import ExperimentError
from .provenance import provenance, utc_now

log = logging.getLogger("tutorial_code.experiments")


@dataclass(frozen=True)
class RunSettings:
    """What one call of :func:`run_experiments` sets for every experiment it runs: the output
    and cache folder, the device, ``force`` (recompute and redraw even valid entries), ``tiny``
    (tiny configs, TINY_GATES and TINY_CLAIMS) and the progress stream (None: stderr). Worker
    processes get a pickled copy (without the stream)."""

    out_dir: Path
    device: torch.device
    force: bool = False
    tiny: bool = False
    stream: Any = None

    def config(self, module):
        """An experiment module's config at this run's sizes (``Config.tiny()`` or ``Config()``)."""
        return module.Config.tiny() if self.tiny else module.Config()


@dataclass
class Outcome:
    """What happened to one experiment in a run."""

    name: str
    status: str             # "hit" (from cache), "miss" (computed), "recomputed" (corrupt entry)
    entry: Path             # the published compute entry folder (results.json)
    record: dict            # results.json with the page data in "results", the declared "gates"
                            # and "claims", plus the drawing's "title", "tables" and "figures"
    seconds: float          # time spent in this run (checking, computing, drawing)
    drawing: Path           # the published drawing entry folder (figures/<lang>/*.png)
    drawing_status: str = "hit"
    pagedata: Path | None = None  # the published page-data entry folder (page.json, files/); None: none
    pagedata_status: str = "none"  # "hit", "miss" or "none" (the experiment has no page_data)

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
    Raises ClaimError when a sentence a page states no longer holds: every entry is cached
    then, but provenance.json is not written.
    """
    t_start = time.perf_counter()
    selected = registry.resolve(names)
    dev = pick_device(device)  # first: a bad device name creates no output folder
    run = RunSettings(out_dir=store.check_writable(out if out is not None else store.DEFAULT_OUT),
                      device=dev, force=force, tiny=tiny, stream=progress_stream)
    report = Report(out=run.out_dir)
    jobs = pick_jobs(jobs, run.device)
    keys = {n: _compute_key(n, run) for n in selected}  # once: the source scan is not free
    misses = [n for n in selected
              if force or not stage.is_hit(store.COMPUTE, run.out_dir, n, keys[n][0])]
    together = [n for n in misses if n not in registry.ALONE] if jobs > 1 else []
    together = start_order(together, jobs, earlier_times(run.out_dir, run.device, tiny))
    done = _run_in_workers(together, keys, run, jobs) if len(together) > 1 else {}
    for name in selected:
        if name not in done:
            done[name] = _run_locked(name, keys[name], run)
        report.outcomes.append(done[name])
    _check_claims(report.outcomes, tiny)
    report.provenance = provenance(report, run.device, device, tiny, time.perf_counter() - t_start)
    store.write_json(run.out_dir / "provenance.json", report.provenance)
    return report


def earlier_times(out_dir: Path, dev, tiny: bool) -> dict[str, float]:
    """{experiment: seconds it took to compute and draw} from the last run's ``provenance.json``
    in ``out_dir``, when that run used the same kind of device at the same sizes; else {}."""
    try:
        prov = json.loads((out_dir / "provenance.json").read_text(encoding="utf-8"))
        if prov.get("tiny") != tiny or prov["device"]["used"] != dev.type:
            return {}
        # a computed one's whole time (page data too); a cached one's compute and drawing times
        return {n: max(float(e["this_run_s"]), float(e["compute_s"]) + float(e.get("drawing_s") or 0))
                for n, e in prov["experiments"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}  # no earlier run, or one this code cannot read: the declared order serves


def finish_time(order: list[str], times: dict[str, float], jobs: int) -> float:
    """When ``jobs`` processes that each take the next name in ``order`` as they come free
    (as the process pool does) would finish, given each experiment's seconds."""
    free = [0.0] * jobs
    for name in order:
        i = free.index(min(free))
        free[i] += times[name]
    return max(free)


def start_order(names: list[str], jobs: int, times: dict[str, float]) -> list[str]:
    """The order to hand ``names`` to ``jobs`` processes in, so that they finish together.

    With every name timed before (``times``): of all orders (up to 8 names; more are simply
    handed out longest first), the one whose processes would finish first. Otherwise
    ``registry.START_ORDER``, with the names it does not list after it, in course order.
    """
    declared = [n for n in registry.START_ORDER if n in names] + [n for n in names if n not in registry.START_ORDER]
    if not names or any(n not in times for n in names):
        return declared
    longest_first = sorted(names, key=lambda n: -times[n])
    if len(names) > 8:
        return longest_first
    best = min(itertools.permutations(longest_first), key=lambda o: finish_time(list(o), times, jobs))
    return list(best)


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


def _check_claims(outcomes: list[Outcome], tiny: bool) -> None:
    """Every experiment's claims, all failures in one ClaimError (after everything is cached)."""
    failures = []
    for o in outcomes:
        try:
            check_claims(o.name, o.record["results"], claims_for(registry.load_pagedata(o.name), tiny),
                         o.record["device"])
        except ClaimError as exc:
            failures += exc.failures
    if failures:
        raise ClaimError.of(failures)


def declared(name: str) -> dict:
    """{"gates": ..., "claims": ...}: the full-size ranges as nested dicts, so pages can quote
    one (``[[value:reversal.gates.test.greedy.exact_match.0|.1%]]``); read from the modules on
    every run, never cached."""
    pmod = registry.load_pagedata(name)
    return {"gates": gate_tree({**registry.load(name).GATES, **getattr(pmod, "CHECKS", {})}),
            "claims": gate_tree(getattr(pmod, "CLAIMS", {}))}


def _compute_key(name: str, run: RunSettings) -> tuple[str, dict]:
    """(key, parts) of ``name``'s compute entry (keys.cache_key of its config and sources)."""
    return keys.cache_key(name, dataclasses.asdict(run.config(registry.load(name))), run.device.type)


def _run_locked(name: str, key: tuple[str, dict], run: RunSettings) -> Outcome:
    wait = lambda lock: log.info("%s: waiting for another run to release %s", name, lock)  # noqa: E731
    with store.locked(run.out_dir, name, on_wait=wait):
        return _run_one(name, key, run)


def _run_in_workers(names: list[str], keys: dict[str, tuple[str, dict]], run: RunSettings,
                    jobs: int) -> dict[str, Outcome]:
    """Compute and draw ``names`` in ``jobs`` worker processes; {name: outcome}.

    Each worker is a fresh interpreter (spawn) that seeds every experiment and fixes its CPU
    threads as a sequential run does, so the numbers are the same. Experiments that time
    themselves (``registry.ALONE``) are left to the caller, which runs them on their own
    afterwards. Workers get ``run`` without its progress stream (a stream cannot be pickled;
    theirs is stderr).
    """
    ctx = multiprocessing.get_context("spawn")
    level = logging.getLogger("tutorial_code").getEffectiveLevel()
    log.info("computing %s in %d processes", ", ".join(names), jobs)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_init,
                             initargs=(level,)) as pool:
        in_worker = dataclasses.replace(run, stream=None)
        futures = {n: pool.submit(_run_locked, n, keys[n], in_worker) for n in names}
        try:
            return {n: f.result() for n, f in futures.items()}
        except BaseException:
            for f in futures.values():
                f.cancel()
            raise


def _worker_init(level: int) -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s", stream=sys.stderr)
    logging.getLogger("tutorial_code").setLevel(level)


def _run_one(name: str, key: tuple[str, dict], run: RunSettings) -> Outcome:
    t0 = time.perf_counter()
    module = registry.load(name)
    status, entry, record = _compute_stage(name, module, key, run)
    page_status, page_entry, page = _pagedata_stage(name, run.config(module), entry, record, run)
    results = {**record["results"], **page}
    page_sha = store.sha256_file(page_entry / "page.json") if page_entry else None
    drawing_status, drawing, drawn = _draw_stage(name, entry, results, page_sha, run)
    record = {**record, "results": results, **declared(name), **drawn}
    return Outcome(name, status, entry, record, time.perf_counter() - t0, drawing, drawing_status,
                   page_entry, page_status)


def _compute_stage(name: str, module, key: tuple[str, dict], run: RunSettings) -> tuple[str, Path, dict]:
    """(status, entry, record) of the compute cache: reuse a valid entry (its gates checked) or
    run and publish; "recomputed" when a corrupt entry was replaced. ``key``: (key, parts) from
    :func:`_compute_key`, worked out once per run."""
    gates = gates_for(module, run.tiny)

    def on_hit(record: dict) -> dict:
        check_gates(name, record["results"], gates, record["device"])
        return record

    return stage.cached(
        store.COMPUTE, run.out_dir, name, *key, force=run.force, on_hit=on_hit,
        make=lambda staging: _compute(name, module, key[0], run, staging),
        corrupt="cache entry for '%s' at %s is corrupt (%s); recomputing it",
        describe=lambda status, record, _: f"{name}: computed in {record['wall_time_s']:.1f}s ({status})")


def _compute(name: str, module, key: str, run: RunSettings, staging: Path) -> dict:
    """Run, check gates, write results.json into ``staging``."""
    cfg = run.config(module)
    seed = int(getattr(cfg, "seed", 0))
    dev = run.device
    ctx = RunContext(name=name, device=dev, seed=seed, tiny=run.tiny,
                     out_dir=staging / "files", progress_stream=run.stream)
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
    check_gates(name, results, gates_for(module, run.tiny), dev.type)
    record = {
        "experiment": name,
        "key": key,
        "tiny": run.tiny,
        "config": dataclasses.asdict(cfg),
        "results": results,
        "device": dev.type,
        "device_name": device_name(dev),
        "seed": seed,
        "versions": keys.library_versions(),
        "wall_time_s": round(wall, 3),
        "created_utc": utc_now(),
    }
    store.write_json(staging / "results.json", record)
    return record


def _pagedata_stage(name: str, cfg, entry: Path, record: dict, run: RunSettings) -> tuple[str, Path | None, dict]:
    """(status, entry, page data) of the page-data cache; ("none", None, {}) for an experiment
    without ``pagedata/<name>.py`` or without a ``page_data`` there. ``CHECKS`` are checked
    on a hit too. A corrupt entry made again is a "miss"."""
    pmod = registry.load_pagedata(name)
    if not callable(getattr(pmod, "page_data", None)):
        return "none", None, {}
    checks = checks_for(pmod, run.tiny)
    key, parts = keys.pagedata_key(name, store.sha256_file(entry / "results.json"))

    def on_hit(page: dict) -> dict:
        check_gates(name, {**record["results"], **page["data"]}, checks, record["device"])
        return page["data"]

    def make(staging: Path) -> dict:
        t0 = time.perf_counter()
        (staging / "files").mkdir()
        with deterministic():
            seed_everything(int(getattr(cfg, "seed", 0)))
            raw = pmod.page_data(cfg, record["results"], entry / "files", staging / "files")
        if not isinstance(raw, dict):
            raise ExperimentError(f"pagedata/{name}.page_data() must return a dict, not {type(raw).__name__}")
        clash = sorted(set(raw) & set(record["results"]))
        if clash:
            raise ExperimentError(f"pagedata/{name}.page_data() returned {', '.join(clash)}, which "
                                  f"experiments/{name}.py's results already hold; use new keys")
        data = json.loads(store.dumps(raw))
        check_gates(name, {**record["results"], **data}, checks, record["device"])
        store.write_json(staging / "page.json", {"experiment": name, "key": key, "data": data,
                                                 "time_s": round(time.perf_counter() - t0, 3)})
        return data

    status, final, data = stage.cached(
        store.PAGEDATA, run.out_dir, name, key, parts, force=run.force, on_hit=on_hit, make=make,
        corrupt="page data of '%s' at %s is corrupt (%s); making it again",
        describe=lambda status, data, seconds: f"{name}: page data made in {seconds:.1f}s")
    return _hit_or_miss(status), final, data


def _draw_stage(name: str, entry: Path, results: dict, page_sha: str | None,
                run: RunSettings) -> tuple[str, Path, dict]:
    """(status, entry, drawn) of the drawings cache: title, tables and figures of one result
    (``results``: the computed results with the page data; ``page_sha``: page.json's sha256).
    A corrupt entry drawn again is a "miss". --tiny figures are never published, so their text
    is not checked (as only TINY_GATES are)."""
    drawing = registry.load_drawing(name)
    key, parts = keys.drawing_key(name, store.sha256_file(entry / "results.json"), page_sha)

    def make(staging: Path) -> dict:
        lang_keys = {lang: keys.language_key(name, parts["results_sha256"], drawing.LABELS[lang], lang, page_sha)
                     for lang in store.LANGS}
        reuse = _reusable_figures(run.out_dir, name, lang_keys)
        return _draw(name, drawing, results, key, staging, lang_keys, reuse, check_layout=not run.tiny)

    def describe(status: str, drawn: dict, seconds: float) -> str:
        copied = f" ({', '.join(drawn['copied'])} copied: unchanged)" if drawn["copied"] else ""
        return f"{name}: drawn in {drawn['figure_time_s']:.1f}s{copied}"

    status, final, drawn = stage.cached(
        store.DRAWINGS, run.out_dir, name, key, parts, force=run.force, make=make, describe=describe,
        corrupt="drawings of '%s' at %s are corrupt (%s); drawing them again")
    return _hit_or_miss(status), final, _public(drawn)


def _hit_or_miss(status: str) -> str:
    """The page-data and drawing statuses: "hit" or "miss" (a corrupt entry made again is a
    miss; only the compute stage reports "recomputed")."""
    return "miss" if status == "recomputed" else status


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
          reuse: dict | None = None, check_layout: bool = True) -> dict:
    """Tables and both languages' figures of ``results``, written into ``staging``; a language
    in ``reuse`` ({lang: (folder, file names)}) is copied from there instead of drawn; each drawn
    figure's text is checked as it is saved (:mod:`.figure_layout`) unless ``check_layout`` is False."""
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
            with figure_layout.checking(name, lang, enabled=check_layout):  # each figure's text, as saved
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
        page_path = out_dir / entry["pagedata_path"] if entry.get("pagedata_path") else None
        record, problem = store.verify_entry(path, entry["key"])
        drawn, drawing_problem = store.verify_entry(drawing, entry["drawing_key"], store.DRAWINGS)
        page, page_problem = (store.verify_entry(page_path, entry["pagedata_key"], store.PAGEDATA)
                              if page_path else ({"data": {}}, None))
        if record is None or drawn is None or page is None:
            what, where = (("results", path) if record is None else ("page data", page_path)
                           if page is None else ("drawings", drawing))
            raise ExperimentError(
                f"{what} of '{name}' at {where} are {problem or page_problem or drawing_problem or 'missing'}; "
                f"recompute with: python scripts/run_experiments.py --force {name}")
        facts = prov.get("experiments", {}).get(name, {})
        record = {**record, "results": {**record["results"], **page["data"]}, **declared(name), **_public(drawn)}
        report.outcomes.append(Outcome(name, facts.get("status", "hit"), path, record, 0.0, drawing,
                                       facts.get("drawing_status", "hit"), page_path,
                                       facts.get("pagedata_status", "none")))
    return report


def describe(name: str) -> str:
    """First line of an experiment module's docstring, for --list."""
    doc = (sys.modules.get(f"{__package__}.{name}") or registry.load(name)).__doc__ or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""
