"""MkDocs side of the pipeline: run it once per build, add figures, the result markers' handlers.

The marker kinds below are dispatched by :mod:`coursebuild.pages.kinds`, which expands them
everywhere in a page, code blocks included, before Markdown is parsed::

    [[value:scaling.at.512.peak_raw]]        a value; dotted path into results (list index: .3, .-1)
    [[value:scaling.at.512.peak_raw|.1%]]    with a Python format spec (floats default to .4g)
    [[value:scaling.config.n_rows|,]]        falls back to the record (config, device, seed, ...)
    [[value:heads.x|.3f|이]]                 Korean pages: the number and the particle that agrees
    [[value:provenance.git.commit]]          facts of this build (provenance.json), tables too
    [[word:reversal.fewest_samples]]         a word the drawing code chose from the results
    [[colour:raw]]                           a figure colour's name (drawing/plotting.py COLOR_NAMES)
    [[table:scaling.summary]]                a Markdown table in the page's language (a block)
    [[fig:scaling.scaling|alt text]]         an image: ![alt text](relative url)
    [[url:scaling.scaling]]                  only the relative url (for attr_list, <img>, links)

The argument is always ``experiment.key``, where ``provenance`` is read like an experiment.
An unknown experiment, key, table or figure raises ``KeyError`` naming the closest one and
what exists; a format spec that does not fit the value raises ``ValueError``. Figures are
added as files at the stable URL ``/assets/generated/<lang>/<experiment>/<stem>.png`` (both
languages in every build; the links are relative, so they work under any site_url and with
either language prefix).


The lookup is public (:func:`record`, :func:`split_key`, :func:`lookup_value`): widgets and
self-checks read results through it, so every page reads a result the same way.
"""

from __future__ import annotations

import difflib
import posixpath

from ..pipeline.runner import lookup
from ..pipeline.site import figure_uri
from ..text import josa

# ---------------------------------------------------------------- marker handlers
# (kinds of coursebuild.pages.kinds; ctx.results is pipeline.site.data_from_report's dict)

def value_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[value:experiment.path|spec]]``: one result, formatted with the Python spec;
    ``[[value:experiment.path|spec|이]]`` (Korean pages only; the spec may be empty,
    ``|…||을``) adds the particle that agrees with how the number is read: 5.657이, 20으로
    (:mod:`coursebuild.josa`; any of 이/가, 을/를, 은/는, 과/와, 으로/로, 이었/였, 이다/다)."""
    exp, key = split_key(arg, "value", "reversal.test.greedy.exact_match")
    spec, *options = fmt.split("|") if fmt is not None else [None]
    if len(options) > 1:
        raise ValueError(f"takes a format spec and at most one particle after '|'; "
                         f"'{'|'.join(options)}' is more than one")
    text = format_value(lookup_value(record(ctx.results, exp), key, exp), spec or None)
    if not options:
        return text
    which = options[0].strip()
    if which not in josa.PAIRS:
        raise ValueError(f"'{which}' is not a particle this marker knows; "
                         f"one of {', '.join(sorted(set(josa.PAIRS)))}")
    if ctx.lang != "ko":
        raise ValueError(f"a Korean particle ('{which}') on a '{ctx.lang}' page; drop '|{which}'")
    return josa.with_particle(text, which)


def word_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[word:experiment.name]]``: a word or phrase the experiment's drawing code chose from
    its results (``words(results)`` in ``drawing/<name>.py``): "fewest", "a tie", "없습니다"."""
    exp, key = split_key(arg, "word", "reversal.fewest_samples")
    if fmt is not None:
        raise ValueError(f"takes no format after '|' (got '{fmt}'); the drawing code writes the whole word")
    words = record(ctx.results, exp).get("words", {})
    return _find(words, key, f"experiment '{exp}' has no word '{key}' (drawing/{exp}.py words())",
                 "words")[ctx.lang]


def colour_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[colour:raw]]``: what the prose calls a figure colour (``plotting.COLOR_NAMES``), so a
    sentence says the colour the figure is drawn in: "주홍색" / "red-orange"."""
    from tutorial_code.experiments.drawing.plotting import COLOR_NAMES  # matplotlib is not imported

    if fmt is not None:
        raise ValueError(f"takes no format after '|' (got '{fmt}')")
    return _find(COLOR_NAMES, arg or "", f"no colour '{arg}' in drawing/plotting.py COLOR_NAMES",
                 "colours")[ctx.lang]


def table_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[table:experiment.table]]``: a results table as Markdown, in the page's language."""
    exp, key = split_key(arg, "table", "cost.n2")
    if fmt is not None:
        raise ValueError(f"takes no format after '|' (got '{fmt}'); the table's columns carry theirs")
    tables = record(ctx.results, exp).get("tables", {})
    return render_table(_find(tables, key, f"experiment '{exp}' has no table '{key}'", "tables"), ctx.lang)


def fig_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[fig:experiment.figure|alt text]]``: the figure as an image (alt: the experiment's title)."""
    exp, rec, url = _figure(arg, "fig", ctx)
    alt = fmt if fmt is not None else rec.get("title", {}).get(ctx.lang, exp)
    return f"![{alt}]({url})"


def url_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[url:experiment.figure]]``: the figure's URL, relative to the page."""
    if fmt is not None:
        raise ValueError(f"takes no format after '|' (got '{fmt}')")
    return _figure(arg, "url", ctx)[2]


def _figure(arg, kind, ctx) -> tuple[str, dict, str]:
    exp, key = split_key(arg, kind, "reversal.training_curve")
    rec = record(ctx.results, exp)
    figs = [f.removesuffix(".png") for f in rec.get("figures", {}).get(ctx.lang, [])]
    _find(dict.fromkeys(figs), key, f"experiment '{exp}' has no figure '{key}' for language '{ctx.lang}'",
          "figures")
    return exp, rec, posixpath.relpath(figure_uri(ctx.lang, exp, key), posixpath.dirname(ctx.src_uri) or ".")


def format_value(value, spec: str | None) -> str:
    if spec:
        try:
            return format(value, spec)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"format spec '{spec}' does not fit value {value!r}: {exc}") from None
    if isinstance(value, float):
        return format(value, ".4g")
    if isinstance(value, (dict, list)):
        raise KeyError(f"value is a {type(value).__name__}, not a number or text; "
                       f"add a key to the path (keys: {', '.join(_keys(value))})")
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


def split_key(arg: str | None, kind: str, example: str) -> tuple[str, str]:
    """``experiment.key`` split in two; ValueError with an example marker of ``kind``."""
    exp, dot, key = (arg or "").partition(".")
    if not (exp and dot and key):
        raise ValueError(f"needs experiment.key, e.g. [[{kind}:{example}]]")
    return exp, key


def record(data: dict, exp: str) -> dict:
    """Experiment ``exp``'s record in the markers' results; KeyError names the closest one."""
    return _find(data, exp, f"no experiment '{exp}'", "experiments with results")


def _find(mapping: dict, key: str, problem: str, what: str):
    if key not in mapping:
        raise KeyError(_unknown(problem, key, sorted(mapping), what))
    return mapping[key]


def lookup_value(rec: dict, key: str, exp: str):
    """The value at dotted ``key`` of one experiment's record (results first, then the
    record's own fields: config, device, seed, versions, ...); KeyError names the closest key."""
    results, first = rec.get("results", {}), key.split(".")[0]
    value, walked = (rec if first not in results and first in rec else results), []
    for part in key.split("."):
        try:
            value = lookup(value, part)
        except KeyError:
            where = f"'{exp}.{'.'.join(walked)}'" if walked else f"experiment '{exp}'"
            choices = _keys(value) if isinstance(value, (dict, list)) else []
            raise KeyError(_unknown(f"{where} has no result '{part}'", part, choices, "keys here")) from None
        walked.append(part)
    return value


def _keys(value) -> list[str]:
    return sorted(value) if isinstance(value, dict) else [str(i) for i in range(len(value))]


def _unknown(problem: str, name: str, choices: list[str], what: str) -> str:
    close = difflib.get_close_matches(name, choices, n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    return f"{problem}.{hint} {what.capitalize()}: {', '.join(choices) or '(none)'}"


def value(data: dict, path: str):
    """The result at ``experiment.key`` in the markers' results: ``[[value:…]]``'s lookup."""
    exp, key = split_key(path, "value", "reversal.test.greedy.exact_match")
    return lookup_value(record(data, exp), key, exp)
