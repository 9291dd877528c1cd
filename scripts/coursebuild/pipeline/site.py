"""The pipeline in a site build: run it, keep its report for the build, add its figures.

The pipeline runs as a child process (``scripts/run_experiments.py``), so ``mkdocs serve``
always runs the current code; its stderr is relayed to the mkdocs log. Environment:
``TUTORIAL_EXPERIMENTS_OUT`` (default ``.build/``), ``TUTORIAL_EXPERIMENTS_TINY=1`` (tiny sizes,
for fast test builds), ``TUTORIAL_EXPERIMENTS=scaling,...`` (run only these; for tests, pages
must then use only these), ``TUTORIAL_DEVICE``.

Figures are added as files at the stable URL ``/assets/generated/<lang>/<experiment>/<stem>.png``
(both languages in every build; pages link them relatively, so they work under any site_url
and with either language prefix).
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from ..paths import DEFAULT_OUT, LANGS, REPO_ROOT
from .errors import ExperimentError
from .runner import Report, load_report

log = logging.getLogger("mkdocs.hooks.experiments")
ASSET_ROOT = "assets/generated"
_REPORT_ATTR = "_tutorial_experiments_report"


def run_once(config) -> Report:
    """Run the pipeline and return its report; the plugin runs it once per ``mkdocs build``
    (static-i18n calls build() per language with the same config object) and keeps the report
    on the config with :func:`use_report`.

    The pipeline runs in a child process: ``mkdocs serve`` keeps modules imported, so an
    edited experiment would otherwise run its old code under the new code's cache key.
    """
    out = Path(os.environ.get("TUTORIAL_EXPERIMENTS_OUT") or DEFAULT_OUT)
    cmd = [sys.executable, str(REPO_ROOT / "scripts" / "run_experiments.py"), "--out", str(out)]
    if os.environ.get("TUTORIAL_EXPERIMENTS_TINY", "") not in ("", "0", "false"):
        cmd.append("--tiny")
    cmd += os.environ.get("TUTORIAL_EXPERIMENTS", "").replace(",", " ").split()
    tail = _run_child(cmd)
    if tail is not None:
        raise PluginError("experiments: scripts/run_experiments.py failed:\n" + tail)
    try:
        run = load_report(out)
    except ExperimentError as exc:
        raise PluginError(f"experiments: {exc}") from exc
    cache = run.provenance["cache"]
    log.info("experiments: pipeline ran: %d cached, %d computed, %.1fs, outputs in %s",
             cache["hits"], cache["misses"], run.provenance["run_wall_time_s"], run.out)
    return run


def use_report(config, run: Report) -> None:
    """Keep ``run`` as this build's report (what :func:`report` returns)."""
    setattr(config, _REPORT_ATTR, run)


def _run_child(cmd) -> str | None:
    """Run the CLI, relaying its stderr lines to mkdocs' log; return the error text or None."""
    # no .pyc writes: tutorial_code is under mkdocs' watch list, a write would trigger a rebuild
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            encoding="utf-8", errors="replace", cwd=REPO_ROOT, env=env)
    lines = []
    for line in proc.stderr:
        line = line.rstrip()
        lines.append(line)
        log.info("experiments: %s", line)
    if proc.wait() == 0:
        return None
    errors = [ln for ln in lines if ln.startswith(("error:", "  "))] or lines[-20:]
    return "\n".join(errors)


def add_figures(files, config):
    for o in report(config).outcomes:
        for lang in LANGS:
            for stem, path in o.figure_paths(lang).items():
                uri = figure_uri(lang, o.name, stem)
                if files.get_file_from_path(uri) is None:
                    files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


def report(config) -> Report:
    """The pipeline's report of this build (:func:`on_pre_build` keeps it on the config)."""
    found = getattr(config, _REPORT_ATTR, None)
    if found is None:
        raise PluginError("experiments: no results in this build: the course plugin must be listed "
                          "under plugins: in mkdocs.yml (its on_pre_build runs them)")
    return found


def figure_uri(lang: str, experiment: str, stem: str) -> str:
    return f"{ASSET_ROOT}/{lang}/{experiment}/{stem}.png"


def data_from_report(report: Report) -> dict[str, dict]:
    """{experiment name: its results record, "provenance": provenance} for the markers."""
    data = {o.name: o.record for o in report.outcomes}
    data["provenance"] = report.provenance
    return data


