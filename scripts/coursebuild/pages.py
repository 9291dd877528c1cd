"""MkDocs side of the pipeline: run it once per build, add figures, fill markers in pages.

``scripts/experiments_hook.py`` re-exports the ``on_*`` functions below. Markers in Markdown
(replaced everywhere in a page, code blocks included, before Markdown is parsed)::

    [[scaling.at.512.peak_raw]]          a value; dotted path into results (list index: .3)
    [[scaling.at.512.peak_raw|.1%]]      with a Python format spec
    [[scaling.config.n_rows|,]]          falls back to the record (config, device, seed, ...)
    [[table:scaling.summary]]            a Markdown table in the page's language
    [[fig:scaling.scaling|alt text]]     an image: ![alt text](relative url)
    [[url:scaling.scaling]]              only the relative url (for attr_list, <img>, links)
    [[provenance.git.commit]]            facts of this build (provenance.json), tables too

An unknown experiment, key, table or figure raises ``PluginError`` naming what exists, so
``mkdocs build`` fails. Figures are added as files at the stable URL
``/assets/generated/<lang>/<experiment>/<stem>.png`` (both languages in every build; the
links are relative, so they work under any site_url and with either language prefix).

The pipeline runs as a child process (``scripts/run_experiments.py``), so ``mkdocs serve``
always runs the current code; its stderr is relayed to the mkdocs log. Environment:
``TUTORIAL_EXPERIMENTS_OUT`` (default ``.build/``), ``TUTORIAL_EXPERIMENTS_TINY=1`` (tiny sizes,
for fast test builds), ``TUTORIAL_EXPERIMENTS=scaling,...`` (run only these; for tests, pages
must then use only these), ``TUTORIAL_DEVICE``.
"""

from __future__ import annotations

import difflib
import logging
import os
import posixpath
import re
import subprocess
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from .paths import DEFAULT_OUT, LANGS, REPO_ROOT
from .pipeline.errors import ExperimentError
from .pipeline.runner import Report, load_report, lookup

log = logging.getLogger("mkdocs.hooks.experiments")
ASSET_ROOT = "assets/generated"
MARKER = re.compile(
    r"\[\[(?:(?P<kind>table|fig|url):)?"
    r"(?P<exp>[A-Za-z_][A-Za-z0-9_]*)\.(?P<key>[A-Za-z0-9_][A-Za-z0-9_.\-]*)"
    r"(?:\|(?P<arg>[^\]\n]*))?\]\]"
)
_REPORT_ATTR = "_tutorial_experiments_report"


# ---------------------------------------------------------------- hook events

def on_pre_build(config):
    """Run the pipeline once per ``mkdocs build`` (static-i18n calls build() per language
    with the same config object, so the report is kept on it).

    The pipeline runs in a child process: ``mkdocs serve`` keeps modules imported, so an
    edited experiment would otherwise run its old code under the new code's cache key.
    """
    if getattr(config, _REPORT_ATTR, None) is not None:
        return
    out = Path(os.environ.get("TUTORIAL_EXPERIMENTS_OUT") or DEFAULT_OUT)
    cmd = [sys.executable, str(REPO_ROOT / "scripts" / "run_experiments.py"), "--out", str(out)]
    if os.environ.get("TUTORIAL_EXPERIMENTS_TINY", "") not in ("", "0", "false"):
        cmd.append("--tiny")
    cmd += os.environ.get("TUTORIAL_EXPERIMENTS", "").replace(",", " ").split()
    tail = _run_child(cmd)
    if tail is not None:
        raise PluginError("experiments: scripts/run_experiments.py failed:\n" + tail)
    try:
        report = load_report(out)
    except ExperimentError as exc:
        raise PluginError(f"experiments: {exc}") from exc
    cache = report.provenance["cache"]
    log.info("experiments: pipeline ran: %d cached, %d computed, %.1fs, outputs in %s",
             cache["hits"], cache["misses"], report.provenance["run_wall_time_s"], report.out)
    setattr(config, _REPORT_ATTR, report)


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


@event_priority(-200)  # after mkdocs-static-i18n (-100), which would choke on generated files
def on_files(files, config):
    report = _report(config)
    for o in report.outcomes:
        for lang in LANGS:
            for stem, path in o.figure_paths(lang).items():
                uri = figure_uri(lang, o.name, stem)
                if files.get_file_from_path(uri) is None:
                    files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


def on_page_markdown(markdown, page, config, files):
    lang = page_language(page, config)
    try:
        return render_markers(markdown, data_from_report(_report(config)), lang, page.file.src_uri)
    except KeyError as exc:
        raise PluginError(f"{page.file.src_uri}: {exc.args[0]}") from None


# ---------------------------------------------------------------- markers

def figure_uri(lang: str, experiment: str, stem: str) -> str:
    return f"{ASSET_ROOT}/{lang}/{experiment}/{stem}.png"


def data_from_report(report: Report) -> dict[str, dict]:
    """{experiment name: its results record, "provenance": provenance} for the markers."""
    data = {o.name: o.record for o in report.outcomes}
    data["provenance"] = report.provenance
    return data


def render_markers(markdown: str, data: dict[str, dict], lang: str, src_uri: str = "index.md") -> str:
    """Replace every marker in ``markdown``; raise KeyError with a helpful message if unknown.

    ``data`` maps experiment name to its results record (see :func:`data_from_report`);
    ``src_uri`` is the page's source path, used to make figure links relative.
    """
    def replace(m: re.Match) -> str:
        kind, exp, key, arg = m["kind"], m["exp"], m["key"], m["arg"]
        record = _record(data, exp, m[0])
        if kind == "table":
            table = render_table(_find(record.get("tables", {}), key, exp, m[0], "table"), lang)
            # a table inside an indented block (an admonition, a list) keeps that indent
            line_start = markdown.rfind("\n", 0, m.start()) + 1
            indent = markdown[line_start : m.start()]
            return table.replace("\n", "\n" + indent) if indent.isspace() else table
        if kind in ("fig", "url"):
            figs = [f.removesuffix(".png") for f in record.get("figures", {}).get(lang, [])]
            if key not in figs:
                raise KeyError(_unknown(m[0], f"experiment '{exp}' has no figure '{key}' for "
                                        f"language '{lang}'", key, figs, what="figures"))
            url = posixpath.relpath(figure_uri(lang, exp, key), posixpath.dirname(src_uri) or ".")
            if kind == "url":
                return url
            alt = arg if arg is not None else record.get("title", {}).get(lang, exp)
            return f"![{alt}]({url})"
        value = _value(record, key, exp, m[0])
        return format_value(value, arg)
    return MARKER.sub(replace, markdown)


def format_value(value, spec: str | None) -> str:
    if spec:
        try:
            return format(value, spec)
        except (ValueError, TypeError) as exc:
            raise KeyError(f"format spec '{spec}' does not fit value {value!r}: {exc}") from None
    if isinstance(value, float):
        return format(value, ".4g")
    if isinstance(value, (dict, list)):
        raise KeyError(f"value is a {type(value).__name__}, not a number or text; "
                       f"add a key to the path (keys: {_keys(value)})")
    return str(value)


def render_table(table: dict, lang: str) -> str:
    """A results table ({"columns": [...], "rows": [...]}) as a Markdown table."""
    cols = table["columns"]
    head = [c["label"][lang] if isinstance(c.get("label"), dict) else c.get("label", c["key"])
            for c in cols]
    rows = [[_cell(row.get(c["key"], ""), c.get("fmt")) for c in cols] for row in table["rows"]]
    align = ["---:" if all(isinstance(r.get(c["key"]), (int, float)) for r in table["rows"]) else ":---"
             for c in cols]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _cell(value, fmt):
    text = format_value(value, fmt) if fmt and isinstance(value, (int, float)) else \
        (format(value, ".4g") if isinstance(value, float) else str(value))
    return text.replace("|", "\\|")


def _record(data, exp, marker):
    if exp not in data:
        raise KeyError(_unknown(marker, f"no experiment '{exp}'", exp, sorted(data),
                                what="experiments with results"))
    return data[exp]


def _find(mapping, key, exp, marker, what):
    if key not in mapping:
        raise KeyError(_unknown(marker, f"experiment '{exp}' has no {what} '{key}'", key,
                                sorted(mapping), what=f"{what}s"))
    return mapping[key]


def _value(record, key, exp, marker):
    results, first = record.get("results", {}), key.split(".")[0]
    # results first, then the record's own fields (config, device, seed, versions, ...)
    value, walked = (record if first not in results and first in record else results), []
    for part in key.split("."):
        try:
            value = lookup(value, part)
        except KeyError:
            where = f"'{exp}.{'.'.join(walked)}'" if walked else f"experiment '{exp}'"
            choices = _keys(value) if isinstance(value, (dict, list)) else []
            raise KeyError(_unknown(marker, f"{where} has no result '{part}'", part, choices)) from None
        walked.append(part)
    return value


def _keys(value) -> list[str]:
    return sorted(value) if isinstance(value, dict) else [str(i) for i in range(len(value))]


def _unknown(marker, problem, name, choices, what="keys here"):
    close = difflib.get_close_matches(name, choices, n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    return f"unknown marker {marker}: {problem}.{hint} {what.capitalize()}: {', '.join(choices) or '(none)'}"


# ---------------------------------------------------------------- helpers

def page_language(page, config) -> str:
    """The language of the page's content: static-i18n's file locale, else the build's."""
    lang = getattr(page.file, "locale", None)
    if lang is None:
        i18n = config.plugins.get("i18n")
        lang = getattr(i18n, "current_language", None)
    if lang is None:
        lang = config.theme.get("language") if config.theme else None
    return lang if lang in LANGS else LANGS[0]


def _report(config) -> Report:
    report = getattr(config, _REPORT_ATTR, None)
    if report is None:  # on_pre_build did not run (another hook failed first)
        on_pre_build(config)
        report = getattr(config, _REPORT_ATTR)
    return report
