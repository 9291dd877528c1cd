"""Interactive widgets in the pages: the ``widget`` marker kind and the data it hands the page.

A widget is a small script under ``docs/assets/javascripts/widgets/`` that registers itself
with ``CourseWidgets.register(name, init)`` (``widgets/common.js``). A page places one with a
block marker::

    [[widget:figures.library]]            the data in results["widgets"]["library"] of figures
    [[widget:reversal.reversal|model]]    the same, and the experiment's exported model too

which becomes::

    <div class="widget" data-widget="library"><script type="application/json">{…}</script></div>

The data is what the experiment's ``run()`` returned under ``"widgets"``: the worked example
the widget starts from, and the states the build computed with the Python package so that the
browser tests can compare the page's JavaScript with PyTorch. The widget's name is the last
part of the argument. ``|model`` adds ``data-model="<experiment>"``, which
:mod:`coursebuild.models` turns into the URL of the exported weights.

Without JavaScript the ``div`` stays hidden (``widgets.css``) and the lesson's static figure
and numbers tell the same story.
"""

from __future__ import annotations

import html
import json

from .pages import _record, _split, _value

OPTIONS = ("model",)


def widget_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[widget:experiment.name]]`` or ``[[widget:experiment.name|model]]`` (a block)."""
    exp, name = _split(arg, "widget", "figures.library")
    if fmt is not None and fmt not in OPTIONS:
        raise ValueError(f"unknown option '{fmt}' after '|'; options: {', '.join(OPTIONS)}")
    data = _value(_record(ctx.results, exp), f"widgets.{name}", exp)
    attrs = f' data-widget="{html.escape(name.rsplit(".", 1)[-1])}"'
    if fmt == "model":
        attrs += f' data-model="{html.escape(exp)}"'
    return f'<div class="widget"{attrs}><script type="application/json">{to_script_json(data)}</script></div>'


def to_script_json(data) -> str:
    """JSON that is safe inside ``<script>``: no ``</``, no ``<!--``, no U+2028/2029 surprises."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
