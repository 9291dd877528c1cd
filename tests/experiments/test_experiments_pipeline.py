"""The experiment pipeline: cache, gates, atomic writes, bad input, the MkDocs hook's errors.

The page markers that read its results are tested in tests/pages/test_markers.py.

Everything runs the `scaling` experiment at --tiny size in a temporary output folder.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import types
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError


from coursebuild import atomic
from coursebuild.pipeline import site as pipeline_site
from coursebuild.paths import REPO_ROOT as REPO
from coursebuild.pipeline import ExperimentError, GateError, cli, keys, registry, run_experiments, runner, store
from tutorial_code.experiments import scaling
from tutorial_code.experiments.drawing import scaling as drawing_scaling

PY = sys.executable
REAL_CODE_HASH = keys.code_hash
CLI = str(REPO / "scripts" / "run_experiments.py")


@pytest.fixture(autouse=True, scope="module")
def pinned_code_hash():
    """Freeze the source hash for this module: other people editing tutorial_code while the
    tests run must not turn an expected cache hit into a miss (test_code_hash covers it)."""
    mp = pytest.MonkeyPatch()
    frozen = {}
    mp.setattr(keys, "code_hash", lambda name: frozen.setdefault(name, REAL_CODE_HASH(name)))
    yield
    mp.undo()


def fake_package(tmp_path, monkeypatch, sources):
    pkg = tmp_path / "tutorial_code"
    for d in ("experiments/drawing", "experiments/pagedata", "notebooks"):
        (pkg / d).mkdir(parents=True)
    for f in sources:
        (pkg / f).write_text("x = 1\n")
    use_package(monkeypatch, pkg)
    return pkg


def use_package(monkeypatch, pkg: Path) -> None:
    """Read the cache keys' sources from ``pkg`` (a copy of tutorial_code) instead."""
    monkeypatch.setattr(keys, "PACKAGE_DIR", pkg)
    monkeypatch.setattr(keys, "EXPERIMENTS_DIR", pkg / "experiments")
    monkeypatch.setattr(keys, "DRAWING_DIR", pkg / "experiments" / "drawing")
    monkeypatch.setattr(keys, "PAGEDATA_DIR", pkg / "experiments" / "pagedata")
    monkeypatch.setattr(keys, "_NOT_FOLLOWED", (pkg / "__init__.py", pkg / "experiments" / "__init__.py"))


def test_compute_key_covers_the_package_the_experiment_and_its_helpers_not_drawing(tmp_path, monkeypatch):
    sources = {
        "attention.py": True,                     # model code: every experiment
        "experiments/scaling.py": True,           # the experiment itself
        "experiments/helper.py": True,            # imported by scaling
        "experiments/deeper.py": True,            # imported by helper
        "experiments/unused.py": False,           # imported by nobody
        "experiments/reversal.py": False,         # another experiment
        "experiments/drawing/scaling.py": False,  # how it is drawn: labels, colours
        "experiments/drawing/plotting.py": False,
        "notebooks/lesson_01.py": False,          # becomes a notebook, not a number
    }
    pkg = fake_package(tmp_path, monkeypatch, sources)
    (pkg / "experiments/scaling.py").write_text("from .helper import f\n")
    (pkg / "experiments/helper.py").write_text("import tutorial_code.experiments.deeper\n")
    (pkg / "experiments/drawing/scaling.py").write_text("from . import plotting\nfrom .. import scaling\n")
    base, drawn = REAL_CODE_HASH("scaling"), keys.drawing_key("scaling", "r")[0]
    for f, counts in sources.items():
        old = (pkg / f).read_text()
        (pkg / f).write_text(old + "y = 2\n")
        assert (REAL_CODE_HASH("scaling") != base) is counts, f
        redraws = f in ("experiments/drawing/scaling.py", "experiments/drawing/plotting.py") or (
            counts and f != "attention.py")  # the drawing imports the compute module
        assert (keys.drawing_key("scaling", "r")[0] != drawn) is redraws, f
        (pkg / f).write_text(old)
    assert keys.drawing_key("scaling", "other results")[0] != drawn


@pytest.mark.parametrize("line", ["from .drawing import plotting\n", "import matplotlib.pyplot as plt\n",
                                  "from .pagedata import model_export\n"])
def test_a_compute_module_that_imports_page_data_or_drawing_code_is_refused(tmp_path, monkeypatch, line):
    pkg = fake_package(tmp_path, monkeypatch, ["experiments/scaling.py", "experiments/drawing/plotting.py",
                                               "experiments/pagedata/model_export.py"])
    (pkg / "experiments/scaling.py").write_text(line)
    with pytest.raises(ExperimentError, match=r"Move that use into tutorial_code/experiments/pagedata/scaling.py "
                                              r"or drawing/scaling.py"):
        REAL_CODE_HASH("scaling")


def test_gate_ranges_and_the_list_of_experiments_are_in_no_compute_key(tmp_path, monkeypatch):
    pkg = fake_package(tmp_path, monkeypatch, ["experiments/__init__.py"])
    (pkg / "experiments/scaling.py").write_text("from . import x\nGATES = {'a': (0, 1)}\nTINY_GATES = GATES\ny = 1\n")
    (pkg / "experiments/x.py").write_text("z = 1\n")
    base = REAL_CODE_HASH("scaling")
    (pkg / "experiments/scaling.py").write_text("from . import x\nGATES = {'a': (0, 2)}\nTINY_GATES = {}\ny = 1\n")
    (pkg / "experiments/__init__.py").write_text("EXPERIMENTS = ('scaling', 'new')\n")
    assert REAL_CODE_HASH("scaling") == base
    (pkg / "experiments/scaling.py").write_text("from . import x\nGATES = {'a': (0, 2)}\nTINY_GATES = {}\ny = 2\n")
    assert REAL_CODE_HASH("scaling") != base  # the rest of the module is


def run_tiny(out, **kw):
    return run_experiments(["scaling"], out, tiny=True, device="cpu", **kw)


def listing(out, kind=store.COMPUTE) -> list[str]:
    """What the scaling folder of one cache holds, besides its lock file."""
    folder = Path(out) / kind / "scaling"
    return sorted(p.name for p in folder.iterdir() if p.name != ".lock") if folder.is_dir() else []


def entry_files(out) -> dict[str, bytes]:
    """Every file of both caches (compute and drawings)."""
    return {p.relative_to(out).as_posix(): p.read_bytes()
            for kind in (store.COMPUTE, store.DRAWINGS) for p in (Path(out) / kind).rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def golden(tmp_path_factory):
    """One cold tiny run, shared: (output folder, report)."""
    out = tmp_path_factory.mktemp("golden")
    return out, run_tiny(out)


@pytest.fixture()
def warm(golden, tmp_path):
    """A private copy of the golden output folder: (folder, outcome of a warm run)."""
    out = tmp_path / "out"
    shutil.copytree(golden[0], out)
    o = run_tiny(out)["scaling"]
    assert o.status == "hit"
    return out, o


# ---------------------------------------------------------------- end to end and cache

def test_tiny_run_produces_results_and_both_languages(golden):
    out, report = golden
    o = report["scaling"]
    assert o.status == "miss"
    rec = json.loads((o.entry / "results.json").read_text("utf-8"))
    for field in ("config", "results", "versions", "device", "seed", "wall_time_s"):
        assert field in rec, field
    assert "tables" not in rec and "figures" not in rec and "title" not in rec  # results only
    assert rec["device"] == "cpu" and rec["seed"] == 0 and rec["tiny"] is True
    assert set(rec["versions"]) >= {"python", "torch", "numpy", "matplotlib"}
    assert rec["results"]["d_k"] == list(scaling.Config.tiny().d_ks)
    drawn = json.loads((o.drawing / "drawn.json").read_text("utf-8"))
    assert drawn["tables"]["summary"]["rows"] and o.record["tables"] == drawn["tables"]
    assert drawn["title"]["ko"] != drawn["title"]["en"]
    for lang in ("ko", "en"):
        png = o.drawing / "figures" / lang / "scaling.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (o.drawing / "figures/ko/scaling.png").read_bytes() != (o.drawing / "figures/en/scaling.png").read_bytes()
    prov = json.loads((out / "provenance.json").read_text("utf-8"))
    assert prov["device"]["used"] == "cpu"
    assert prov["cache"] == {"hits": 0, "misses": 1, "pagedata_made": 0, "drawings_redrawn": 1}
    assert prov["seeds"] == {"scaling": 0} and "commit" in prov["git"] and prov["cpu"]
    assert prov["experiments"]["scaling"]["compute_s"] == rec["wall_time_s"]


def test_second_run_is_a_cache_hit_and_force_recomputes(warm, capsys, monkeypatch):
    monkeypatch.delenv("TUTORIAL_PROGRESS", raising=False)
    out, first = warm
    before = entry_files(out)
    t0 = time.perf_counter()
    again = run_tiny(out)["scaling"]
    assert again.status == "hit" and time.perf_counter() - t0 < 5
    assert entry_files(out) == before  # nothing rewritten
    forced = run_tiny(out, force=True)["scaling"]
    assert forced.status == "miss"
    # same device + seed: the same numbers
    assert forced.record["results"] == first.record["results"]
    # stderr is not a terminal here: plain progress lines, no bar
    err = capsys.readouterr().err
    assert "[scaling] d_k 4/4" in err and "eta" in err and "\r" not in err


def test_changed_config_is_a_miss(warm, monkeypatch):
    out, first = warm
    monkeypatch.setattr(scaling.Config, "tiny", classmethod(lambda cls: cls(d_ks=(1, 512), n_rows=200, chunk=200)))
    o = run_tiny(out)["scaling"]
    assert o.status == "miss" and o.entry != first.entry
    assert first.entry.is_dir()  # the other entry is kept


@pytest.mark.parametrize("damage, reason", [
    ("bad_json", "results.json does not match its sha256"),
    ("truncated_figure", "figures/en/scaling.png does not match its sha256"),
    ("missing_figure", "figures/ko/scaling.png is missing"),
    ("bad_manifest", "manifest.json is unreadable"),
    ("no_manifest", "manifest.json is missing"),
])
def test_corrupt_entry_is_detected(warm, damage, reason):
    out, o = warm
    drawing_key = json.loads((o.drawing / "drawn.json").read_text("utf-8"))["key"]
    target, entry, key, kind = {
        "bad_json": (o.entry / "results.json", o.entry, o.record["key"], store.COMPUTE),
        "truncated_figure": (o.drawing / "figures/en/scaling.png", o.drawing, drawing_key, store.DRAWINGS),
        "missing_figure": (o.drawing / "figures/ko/scaling.png", o.drawing, drawing_key, store.DRAWINGS),
        "bad_manifest": (o.entry / "manifest.json", o.entry, o.record["key"], store.COMPUTE),
        "no_manifest": (o.drawing / "manifest.json", o.drawing, drawing_key, store.DRAWINGS),
    }[damage]
    if damage in ("missing_figure", "no_manifest"):
        target.unlink()
    elif damage == "truncated_figure":
        target.write_bytes(target.read_bytes()[:100])
    else:
        target.write_text('{"files": {"results.json": ', encoding="utf-8")
    record, problem = store.verify_entry(entry, key, kind)
    assert record is None and reason in problem


def test_corrupt_results_are_recomputed_with_a_warning(warm, caplog):
    out, o = warm
    res = o.entry / "results.json"
    res.write_bytes(res.read_bytes()[:100])
    with caplog.at_level(logging.WARNING, logger="tutorial_code.experiments"):
        again = run_tiny(out)["scaling"]
    assert again.status == "recomputed"
    assert "corrupt" in caplog.text and "recomputing" in caplog.text and "results.json" in caplog.text
    assert store.verify_entry(again.entry, again.record["key"])[0] is not None
    assert again.record["results"] == o.record["results"]


def test_a_corrupt_figure_is_redrawn_without_recomputing(warm, caplog):
    out, o = warm
    fig = o.drawing / "figures/en/scaling.png"
    good = fig.read_bytes()
    fig.write_bytes(good[:100])
    with caplog.at_level(logging.WARNING, logger="tutorial_code.experiments"):
        again = run_tiny(out)["scaling"]
    assert again.status == "hit" and again.drawing_status == "miss"
    assert "corrupt" in caplog.text and "scaling.png" in caplog.text
    assert (again.drawing / "figures/en/scaling.png").read_bytes() == good


# ---------------------------------------------------------------- gates

def test_failed_gate_names_everything_and_publishes_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(scaling, "TINY_GATES", {"at.512.peak_raw": (0.0, 0.01)})
    with pytest.raises(GateError) as err:
        run_tiny(tmp_path)
    msg = str(err.value)
    assert "scaling" in msg and "at.512.peak_raw" in msg and "[0.0, 0.01]" in msg
    assert "= 0.9" in msg  # the value
    assert err.value.exit_code == 1
    assert not (tmp_path / "provenance.json").exists()
    assert listing(tmp_path) == []  # no entry, no staging


def test_failed_gate_leaves_previous_good_entry_untouched(warm, monkeypatch):
    out, o = warm
    before = entry_files(out)
    prov = (out / "provenance.json").read_bytes()
    monkeypatch.setattr(scaling, "TINY_GATES", {"scaled_std": (5.0, 6.0)})
    with pytest.raises(GateError, match=r"scaled_std\[0\]"):
        run_tiny(out, force=True)
    assert entry_files(out) == before
    assert (out / "provenance.json").read_bytes() == prov


# ---------------------------------------------------------------- interruptions

def test_atomic_write_interrupted_leaves_old_file_and_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "a.json"
    atomic.write_bytes(path, b"old")

    def boom(*a):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        atomic.write_bytes(path, b"new" * 1000)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_interrupt_during_figures_publishes_no_drawing(tmp_path, monkeypatch):
    real = drawing_scaling.figures

    def half(results, lang, outdir):
        files = real(results, lang, outdir)
        if lang == "en":
            raise KeyboardInterrupt
        return files

    monkeypatch.setattr(drawing_scaling, "figures", half)
    with pytest.raises(KeyboardInterrupt):
        run_tiny(tmp_path)
    assert listing(tmp_path, store.DRAWINGS) == []  # no half-drawn entry
    assert len(listing(tmp_path)) == 1  # the computed results are kept: they were complete
    monkeypatch.setattr(drawing_scaling, "figures", real)
    o = run_tiny(tmp_path)["scaling"]
    assert (o.status, o.drawing_status) == ("hit", "miss")  # a clean miss, not 'corrupt'


def test_killed_run_leaves_cache_consistent(tmp_path):
    # a child process hangs after writing the ko figure; we SIGKILL it mid-run
    marker = tmp_path / "ko-written"
    child = textwrap.dedent(f"""
        import time
        from coursebuild.pipeline import run_experiments
        from tutorial_code.experiments.drawing import scaling
        real = scaling.figures
        def slow(results, lang, outdir):
            files = real(results, lang, outdir)
            open({str(marker)!r}, "w").close()
            time.sleep(60)
            return files
        scaling.figures = slow
        run_experiments(["scaling"], {str(tmp_path)!r}, tiny=True, device="cpu")
    """)
    proc = subprocess.Popen([PY, "-c", child], stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 40
        while not marker.exists():
            assert proc.poll() is None and time.time() < deadline, "child did not reach the figure step"
            time.sleep(0.05)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    leftovers = listing(tmp_path, store.DRAWINGS)
    assert leftovers and all(n.startswith(".staging-") for n in leftovers)  # nothing published
    assert not (tmp_path / "provenance.json").exists()
    o = run_tiny(tmp_path)["scaling"]
    assert (o.status, o.drawing_status) == ("hit", "miss")
    assert listing(tmp_path, store.DRAWINGS) == [o.drawing.name]  # the dead run's staging was cleaned


# ---------------------------------------------------------------- bad input

def test_unknown_experiment_suggests_the_closest(tmp_path):
    with pytest.raises(ExperimentError, match=r"unknown experiment 'scalng'.*Did you mean 'scaling'") as err:
        run_experiments(["scalng"], tmp_path)
    assert "Valid experiments: " + ", ".join(registry.names()) in str(err.value)
    assert not any(tmp_path.iterdir())  # checked before anything is written


def test_unwritable_output_folder_is_a_clear_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(ExperimentError, match=r"output folder .* is not writable.*--out"):
        run_tiny(blocker / "sub")
    if os.geteuid() != 0:  # root can write anywhere
        locked = tmp_path / "ro"
        locked.mkdir(mode=0o500)
        with pytest.raises(ExperimentError, match="not writable"):
            run_tiny(locked)


def test_cli_errors_exit_2_without_traceback(tmp_path, capsys, monkeypatch):
    r = subprocess.run([PY, CLI, "scalng", "--out", str(tmp_path)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "Did you mean 'scaling'" in r.stderr and "Traceback" not in r.stderr
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--device", "tpu"])
    assert exit_.value.code == 2 and "invalid choice: 'tpu'" in capsys.readouterr().err
    (tmp_path / "f").write_text("x")
    assert cli.main(["--tiny", "--out", str(tmp_path / "f" / "sub")]) == 2
    assert "not writable" in capsys.readouterr().err
    monkeypatch.setenv("TUTORIAL_DEVICE", "abacus")
    assert cli.main(["--tiny", "--out", str(tmp_path)]) == 2
    assert "abacus" in capsys.readouterr().err
    monkeypatch.delenv("TUTORIAL_DEVICE")
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--help"])
    assert exit_.value.code == 0 and "--tiny" in capsys.readouterr().out
    assert cli.main(["--list"]) == 0 and "scaling" in capsys.readouterr().out


def test_load_report_reads_back_and_rejects_corrupt_files(warm):
    out, o = warm
    report = runner.load_report(out)
    assert report["scaling"].record == o.record
    (o.entry / "results.json").write_text("{", encoding="utf-8")
    with pytest.raises(ExperimentError, match=r"results of 'scaling' .* --force scaling"):
        runner.load_report(out)
    (out / "provenance.json").write_text("[", encoding="utf-8")
    with pytest.raises(ExperimentError, match="no usable provenance.json"):
        runner.load_report(out)


def test_the_plugin_turns_pipeline_errors_into_a_build_error(tmp_path, monkeypatch):
    (tmp_path / "f").write_text("x")
    monkeypatch.setenv("TUTORIAL_EXPERIMENTS_OUT", str(tmp_path / "f" / "sub"))
    with pytest.raises(PluginError, match=r"error: output folder .* is not writable"):
        pipeline_site.run_once(types.SimpleNamespace())


# ---------------------------------------------------------------- compute apart from presentation

@pytest.mark.slow
def test_nothing_a_page_says_leaves_a_compute_entry_a_miss(tmp_path, monkeypatch):
    """Edits a page may ask for, in a copy of the package and of the pipeline that the cache keys
    are read from: a colour of the shared style, a Korean label, a claim's sentence, a widget's
    data module, the in-page model's file format, the progress bar's wording, a gate's range.
    No experiment's compute key changes; a run of two of them finds both computed entries,
    makes reversal's page data again from its saved files (the file format changed) and
    redraws the figures, training nothing."""
    copy = tmp_path / "tutorial_code"
    shutil.copytree(keys.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    pipeline = tmp_path / "pipeline"
    shutil.copytree(keys.PIPELINE_DIR, pipeline, ignore=shutil.ignore_patterns("__pycache__"))
    use_package(monkeypatch, copy)
    monkeypatch.setattr(keys, "PIPELINE_DIR", pipeline)
    monkeypatch.setattr(keys, "code_hash", REAL_CODE_HASH)

    def compute_keys():  # every experiment's, without running any
        return {n: keys.cache_key(n, dataclasses.asdict(registry.load(n).Config.tiny()), "cpu")[0]
                for n in registry.names()}

    def page_keys(outcomes):
        return {o.name: keys.pagedata_key(o.name, store.sha256_file(o.entry / "results.json"))[0]
                for o in outcomes}

    before = compute_keys()
    run = ["scaling", "reversal"]  # run for real: the shared style and reversal's own page data and drawing
    out = tmp_path / "out"
    first = run_experiments(run, out, tiny=True, device="cpu")
    assert {o.name: o.record["key"] for o in first.outcomes} == {n: before[n] for n in run}
    assert first["reversal"].pagedata_status == "miss" and first["scaling"].pagedata_status == "none"
    made = page_keys(first.outcomes)

    def edit(rel, old, new, root=copy):
        path = root / rel
        text = path.read_text("utf-8")
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1), "utf-8")

    edit("experiments/pagedata/reversal.py", "마지막 층의 크로스 어텐션은", "마지막 층 크로스 어텐션은")  # a claim
    edit("experiments/pagedata/reversal.py", '"export.rounded.test_exact_match": (0.995, 1.0)',
         '"export.rounded.test_exact_match": (0.99, 1.0)')   # a page-data check's range
    edit("experiments/reversal.py", '"test.n_sequences": (5_000, 10**9)', '"test.n_sequences": (4_000, 10**9)')  # a gate
    assert compute_keys() == before and page_keys(first.outcomes) == made  # claims and checks: in no key
    edit("experiments/drawing/plotting.py", '"raw": "#D55E00"', '"raw": "#D55E01"')
    edit("experiments/drawing/reversal.py", '"loss_title": "학습 손실"', '"loss_title": "학습의 손실"')
    edit("experiments/pagedata/widgets_architecture.py", "D_CHOICES = (16,", "D_CHOICES = (8, 16,")
    edit("experiments/pagedata/model_export.py", "ROUND = 7  #", "ROUND = 7  # (edited)  #")
    edit("progress.py", "elapsed {elapsed:.1f}s eta", "took {elapsed:.1f}s, left", root=pipeline)
    assert compute_keys() == before
    assert page_keys(first.outcomes)["reversal"] != made["reversal"]  # its file format changed
    again = run_experiments(run, out, tiny=True, device="cpu")
    assert again.statuses == {name: "hit" for name in run}
    assert {o.name: o.drawing_status for o in again.outcomes} == {name: "miss" for name in run}
    assert again.provenance["cache"] == {"hits": len(run), "misses": 0, "pagedata_made": 1,
                                         "drawings_redrawn": len(run)}

    # the model code and the run context that seeds it, by contrast, are in every compute key
    edit("context.py", "torch.manual_seed(seed)", "torch.manual_seed(seed + 0)", root=pipeline)
    assert all(new != before[n] for n, new in compute_keys().items())
    edit("context.py", "torch.manual_seed(seed + 0)", "torch.manual_seed(seed)", root=pipeline)
    edit("attention.py", '"""', '"""Edited. ')
    assert all(new != before[n] for n, new in compute_keys().items())


def test_without_labels_cuts_the_labels_statement_only():
    src = b'import x\nLABELS = {\n    "ko": {"a": "\xea\xb0\x80"},\n    "en": {"a": "A"},\n}\nY = 1\n'
    assert keys.without_labels(src) == b"import x\nLABELS = ...\nY = 1\n"
    assert keys.without_labels(b"Y = 1\n") == b"Y = 1\n"


def test_editing_one_languages_labels_redraws_that_language_and_copies_the_other(tmp_path, monkeypatch):
    """A Korean label edit (in a copy of the package, and in the loaded LABELS) misses the
    drawing key, draws the Korean figures again and copies the English ones unchanged."""
    copy = tmp_path / "tutorial_code"
    shutil.copytree(keys.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    use_package(monkeypatch, copy)
    monkeypatch.setattr(keys, "code_hash", REAL_CODE_HASH)
    out = tmp_path / "out"
    first = run_experiments(["scaling"], out, tiny=True, device="cpu")["scaling"]
    path = copy / "experiments" / "drawing" / "scaling.py"
    path.write_text(path.read_text("utf-8").replace('"점수의 표준편차"', '"점수의 표준 편차"', 1), "utf-8")
    monkeypatch.setitem(drawing_scaling.LABELS, "ko", {**drawing_scaling.LABELS["ko"], "spread_title": "점수의 표준 편차"})
    again = run_experiments(["scaling"], out, tiny=True, device="cpu")["scaling"]
    drawn = json.loads((again.drawing / "drawn.json").read_text("utf-8"))
    assert again.drawing_status == "miss" and drawn["copied"] == ["en"]
    assert drawn["language_keys"]["en"] == json.loads((first.drawing / "drawn.json").read_text("utf-8"))["language_keys"]["en"]
    for stem, png in again.figure_paths("en").items():
        assert png.read_bytes() == first.figure_paths("en")[stem].read_bytes()
    assert any(png.read_bytes() != first.figure_paths("ko")[stem].read_bytes()
               for stem, png in again.figure_paths("ko").items())


def test_jobs_must_be_a_positive_whole_number(monkeypatch):
    cpu = types.SimpleNamespace(type="cpu")
    assert runner.pick_jobs(3, cpu) == 3
    assert runner.pick_jobs(None, types.SimpleNamespace(type="cuda")) == 1
    monkeypatch.setenv("TUTORIAL_JOBS", "two")
    with pytest.raises(ExperimentError, match="jobs must be a whole number of at least 1.*'two'"):
        runner.pick_jobs(None, cpu)
    with pytest.raises(ExperimentError, match="at least 1"):
        runner.pick_jobs(0, cpu)


def test_experiments_computed_side_by_side_start_so_that_the_processes_finish_together(tmp_path):
    # this machine's cold-run times (scripts/BENCHMARKS.md): in course order the second process
    # is left alone with browser_training at the end; the chosen order splits the work evenly
    times = {"reversal": 123, "lstm_vs_attention": 204, "scaling": 3, "norm_placement": 52, "heads": 43,
             "translation": 51, "worked_examples": 7, "browser_training": 84}
    names = list(times)
    order = runner.start_order(names, 2, times)
    assert sorted(order) == sorted(names)
    assert runner.finish_time(names, times, 2) == 312  # the first process ends with browser_training
    assert runner.finish_time(order, times, 2) == 288  # the best split: lstm_vs_attention and browser_training on one
    # with one time unknown, the declared order; names it does not list come after, in course order
    assert runner.start_order(names, 2, {}) == [n for n in registry.START_ORDER if n in names]
    assert runner.start_order(["new_one", "scaling", "reversal"], 2, {"scaling": 1}) == ["reversal", "scaling", "new_one"]
    assert sorted(registry.START_ORDER) == sorted(n for n in registry.EXPERIMENTS if n not in registry.ALONE)
    # earlier times come from the last run's provenance in the same folder, same device and sizes only
    cpu = types.SimpleNamespace(type="cpu")
    assert runner.earlier_times(tmp_path, cpu, False) == {}
    prov = {"tiny": False, "device": {"used": "cpu"},
            "experiments": {"heads": {"compute_s": 40.0, "drawing_s": 2.5, "this_run_s": 0.1, "status": "hit"},
                            "scaling": {"compute_s": 1.5, "drawing_s": 1.0, "this_run_s": 3.0, "status": "miss"}}}
    (tmp_path / "provenance.json").write_text(json.dumps(prov), encoding="utf-8")
    assert runner.earlier_times(tmp_path, cpu, False) == {"heads": 42.5, "scaling": 3.0}
    assert runner.earlier_times(tmp_path, cpu, True) == {}
    assert runner.earlier_times(tmp_path, types.SimpleNamespace(type="cuda"), False) == {}
    (tmp_path / "provenance.json").write_text("{not json", encoding="utf-8")
    assert runner.earlier_times(tmp_path, cpu, False) == {}


def test_an_error_from_a_worker_keeps_its_exit_code():
    import pickle

    gate = pickle.loads(pickle.dumps(GateError("out of range")))
    assert isinstance(gate, GateError) and gate.exit_code == 1 and str(gate) == "out of range"
    assert pickle.loads(pickle.dumps(ExperimentError("bad", exit_code=3))).exit_code == 3


@pytest.mark.slow
def test_experiments_computed_in_worker_processes_give_the_sequential_numbers(tmp_path):
    names = ["scaling", "worked_examples"]
    one = run_experiments(names, tmp_path / "one", tiny=True, device="cpu", jobs=1)
    two = run_experiments(names, tmp_path / "two", tiny=True, device="cpu", jobs=2)
    assert [o.name for o in two.outcomes] == names and two.statuses == {n: "miss" for n in names}
    for name in names:
        assert two[name].record["results"] == one[name].record["results"], name
        assert two[name].record["key"] == one[name].record["key"]
