"""Interactive widgets in the pages: the ``widget`` marker kind and the data it hands the page.

A widget is a small script under ``docs/assets/javascripts/widgets/`` that registers itself
with ``CourseWidgets.register(name, init)`` (``widgets/common.js``). A page places one with a
block marker::

    [[widget:worked_examples.library]]            the data in results["widgets"]["library"] of figures
    [[widget:reversal.reversal|model]]    the same, and the experiment's exported model too

which becomes::

    <div class="widget" data-widget="library" data-scripts="library.js"><script type="application/json">{…}</script></div>

``data-scripts`` names the scripts that draw it (:data:`SCRIPTS`; the shared maths first, then
the forward pass for a model): ``widgets/common.js``, the one widget script every page loads, loads them, so a page
carries only the JavaScript of its own widgets.

The data is what the experiment's ``run()`` returned under ``"widgets"``: the worked example
the widget starts from, and the states the build computed with the Python package so that the
browser tests can compare the page's JavaScript with PyTorch. The widget's name is the last
part of the argument. ``|model`` adds ``data-model="<experiment>"``, which
:mod:`coursebuild.served_models` turns into the URL of the exported weights.

Without JavaScript the ``div`` stays hidden (``widgets.css``) and the lesson's static figure
and numbers tell the same story.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from pathlib import Path

from .results import lookup_value, record, split_key

OPTIONS = ("model",)
# the script (in docs/assets/javascripts/widgets/) that registers each widget; a page loads only
# the scripts of the widgets it holds (widgets/common.js reads data-scripts), and a widget with
# |model the forward pass first
SCRIPTS = {
    "bottleneck": "bottleneck.js", "translator": "translator.js",              # lesson 1
    "library": "library.js", "sdpa": "sdpa.js", "self_attention": "self_attention.js",  # 2-4
    "multihead": "multihead.js", "sinusoid": "position.js", "position_steps": "position.js",
    "rope": "position.js", "block": "block.js",                                 # lessons 5-7
    "reversal": "reversal.js", "checkpoints": "checkpoints.js", "visibility": "visibility.js",  # 8
    "train": "train.js",                                                        # 8
    "n2": "cost.js", "kvcache": "cost.js", "kvmeasure": "kv_measure.js",        # lesson 9
}
FORWARD_PASS = "../transformer.js"  # relative to widgets/
# widgets that draw in figure colours get each role's colour and its name in the page's language
# (drawing/plotting.py COLORS and COLOR_NAMES) as data["colours"], so a label names the colour
# the widget draws in: {"rope": {"q": "scaled", "k": "raw"}} gives data["colours"]["k"] =
# {"hex": "#D55E00", "name": "주홍색"} on a Korean page
COLOURS = {"rope": {"q": "scaled", "k": "raw"},
           "kvmeasure": {"cache": "scaled", "no_cache": "raw"}}  # as lesson 9's figure of the KV cache
# the maths the widgets and the forward pass share (softmax, matmul, the sinusoidal table, masks,
# the SVG helper): loaded first on every page with a widget
MATHS = "../maths.js"


def widget_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[widget:experiment.name]]`` or ``[[widget:experiment.name|model]]`` (a block)."""
    exp, name = split_key(arg, "widget", "worked_examples.library")
    if fmt is not None and fmt not in OPTIONS:
        raise ValueError(f"unknown option '{fmt}' after '|'; options: {', '.join(OPTIONS)}")
    data = lookup_value(record(ctx.results, exp), f"widgets.{name}", exp)
    widget = name.rsplit(".", 1)[-1]
    if widget in COLOURS:
        data = {**data, "colours": colours(COLOURS[widget], ctx.lang)}
    attrs = f' data-widget="{html.escape(widget)}" data-scripts="{" ".join(scripts(widget, fmt == "model"))}"'
    if fmt == "model":
        attrs += f' data-model="{html.escape(exp)}"'
    return f'<div class="widget"{attrs}><script type="application/json">{to_script_json(data)}</script></div>'


def colours(roles: dict, lang: str) -> dict:
    """{part: {"hex", "name"}} for each part's palette role, named in ``lang``."""
    from tutorial_code.experiments.drawing.plotting import COLOR_NAMES, COLORS  # matplotlib is not imported

    return {part: {"hex": COLORS[role], "name": COLOR_NAMES[role][lang]} for part, role in roles.items()}


def scripts(widget: str, model: bool = False) -> list[str]:
    """The scripts a page with ``widget`` loads, in order (relative to assets/javascripts/widgets/)."""
    if widget not in SCRIPTS:
        raise KeyError(f"no script registers the widget '{widget}'; add it to SCRIPTS in "
                       f"scripts/coursebuild/widgets.py (widgets: {', '.join(sorted(SCRIPTS))})")
    return [MATHS] + ([FORWARD_PASS] if model else []) + [SCRIPTS[widget]]


def to_script_json(data) -> str:
    """JSON that is safe inside ``<script>``: no ``</``, no ``<!--``, no U+2028/2029 surprises."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


WIDGETS_DIR = "assets/javascripts/widgets"
_SCRIPTS_ATTR = re.compile(r'data-scripts="([^"]*)"')
_DATA = re.compile(r'<div class="widget"[^>]*><script type="application/json">(.*?)</script>', re.S)


def page_javascript(site: Path, page: str) -> dict[str, int]:
    """{file: bytes} of the JavaScript the widgets add to one built page (``page``: its folder
    in ``site``): common.js, every script its widgets' data-scripts name, and their data."""
    html = (Path(site) / page / "index.html").read_text(encoding="utf-8")
    files = [f"{WIDGETS_DIR}/common.js"]
    for attr in _SCRIPTS_ATTR.findall(html):
        files += [posixpath.normpath(f"{WIDGETS_DIR}/{f}") for f in attr.split()]
    sizes = {f: (Path(site) / f).stat().st_size for f in dict.fromkeys(files)}
    sizes["(widget data in the page)"] = sum(len(d.encode("utf-8")) for d in _DATA.findall(html))
    return sizes
