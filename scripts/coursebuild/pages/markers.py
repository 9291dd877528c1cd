"""Page markers: one grammar, one dispatcher, one place that decides the order of expansion.

Every generated value, table, figure, code include, question list and the glossary reaches a
page through a marker of this one form (modelled on Material for MkDocs' own
``shortcodes.py`` hook: one pattern, one dispatcher, an error on an unknown kind)::

    [[kind]]                   [[glossary]]  [[assignments]]  [[assignment-answers]]
    [[kind:argument]]          [[table:cost.n2]]  [[code:attention.scaled_dot_product_attention]]
    [[kind:argument|format]]   [[value:reversal.test.greedy.exact_match|.1%]]

``kind`` is lower-case letters, digits, ``_`` and ``-``; ``argument`` runs to the first ``|``
or ``]``; ``format`` is everything after the first ``|`` up to ``]]``, handed to the kind's
handler unparsed (so a later option, such as a Korean particle after a number, can be added as
another ``|``-separated part without touching the grammar). The kinds, their handlers (each in
the module that owns the data) and whether a kind is a *block* are listed once, in the table of
:mod:`coursebuild.pages.kinds`; a kind added later is one more line there. A handler that must
expand the markers of text it reads calls :meth:`Context.render`, so no handler imports this
module's dispatcher back.

Order of expansion (all of it is :func:`render`): one pass over the page, left to right. A
block kind (table, code, questions, answers, assignments, glossary, widget) must stand alone on its
line; its output keeps the line's indent on every non-blank line (inside an admonition or a
list item). The output of a kind marked ``expands`` (questions, answers, assignments) is
Markdown from ``docs/questions/`` that may itself hold markers (an answer's numbers, an
assignment's ``[[code:...]]``): it is rendered again, at most :data:`MAX_DEPTH` levels deep.
Every other output (values, tables, figures, included source code, the glossary, widgets) is final
and never scanned again, so Python source with ``[[`` in it is never mistaken for a marker.

Errors are :class:`MarkerError` (the course plugin turns them into ``PluginError``), each naming
the page (``docs/ko/lessons/x.md``), the line in its source, the marker, and the closest valid
kind or key: an unknown kind, an unknown key, a wrong format or argument, a block marker that
does not stand alone on its line, and a leftover marker.

Leftover rule: after the markers are expanded, the page's own text (and the text of
``expands`` kinds) must hold no ``[[`` that is followed, after optional spaces, by a name
(``[A-Za-z_][\\w-]*``) and then ``:``, ``.``, ``|`` or ``]]``: that is a marker that does not
fit the grammar (``[[reversal.x]]`` without a kind, ``[[value:x|.1f]`` with one bracket,
``[[ value:x]]``). Python on pages keeps its nested lists: ``[[1.0, 2.0]]``, ``[[True, False]]``
and ``[[[value:x|g]], ...]`` are not leftovers. To show a marker literally on a page, write
``\\[[`` (the backslash is dropped: ``\\[[code:…]]`` shows ``[[code:…]]``); after LaTeX's line
break ``\\\\`` a ``[[`` is a marker as usual.
Python's ``a[[i]]`` does look like a marker: write ``a[[ i ]]`` on a page.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Callable

# "[[" not escaped: no backslash before it, or LaTeX's line break "\\" before it
_OPEN = r"(?:(?<!\\)|(?<=\\\\))\[\["
# the one grammar
MARKER = re.compile(_OPEN + r"(?P<kind>[a-z][a-z0-9_-]*)(?::(?P<arg>[^\]|\n]*))?(?:\|(?P<fmt>[^\]\n]*))?\]\]")
# what looks like a marker but did not fit the grammar (see the module docstring)
LEFTOVER = re.compile(_OPEN + r"[ \t]*[A-Za-z_][\w-]*(?::|\.|\||\]\])")
ESCAPE = re.compile(r"(?<!\\)\\\[\[")  # "\[[" shows "[[" (but "\\[[" is LaTeX's "\\" and a marker)
MAX_DEPTH = 3


@dataclass(frozen=True)
class Kind:
    handler: Callable[[str | None, str | None, "Context"], str]
    block: bool = False    # must stand alone on its line; the output keeps the line's indent
    expands: bool = False  # the output may hold markers and is rendered again
    source: str = ""       # where that output's text comes from, for error messages


@dataclass
class Context:
    """What the handlers may use: the page's language and paths, and the build's data."""

    lang: str
    kinds: dict[str, Kind] = field(default_factory=dict)  # the kinds it knows: pages.kinds.KINDS
    page: str = "docs/ko/index.md"   # the page's source, for error messages
    src_uri: str = "index.md"        # the page's path in the site, for relative links
    results: dict = field(default_factory=dict)  # {experiment: record, "provenance": {...}}
    answer_key_url: str | None = None
    line_offset: int = 0             # lines above the Markdown given (front matter)
    edition: str = "open"            # "open" or "student" (coursebuild.outputs.editions)
    repository_url: str | None = None  # the GitHub repository the build knows (coursebuild.notebooks.colab)
    source_url: str | None = None    # relative link to the code archive (coursebuild.outputs.editions)
    colab_links: bool | None = None  # whether the lesson pages have "Open in Colab" (None: as repository_url)

    def render(self, text: str) -> str:
        """``text`` (Markdown) with its markers expanded for this context: what a handler calls
        for text it reads from elsewhere (a self-check question, a handout's section)."""
        return render(text, self)


class MarkerError(ValueError):
    """A marker that cannot be expanded; the message names page, line, marker and a fix."""


def render(markdown: str, ctx: Context) -> str:
    """Expand every marker of ``markdown`` (a page's Markdown) for ``ctx``; see the docstring."""
    return _render(markdown, ctx, depth=0, where=None)


def _render(text: str, ctx: Context, depth: int, where: tuple[int, str] | None) -> str:
    out, pos = [], 0
    for m in MARKER.finditer(text):
        out.append(_plain(text[pos : m.start()], text, pos, ctx, where))
        kind = _kind(m, text, ctx, where)
        end = _alone_on_line(m, text, ctx, where) if kind.block else m.end()
        out.append(_expand(m, kind, text, ctx, depth, where))
        pos = end
    out.append(_plain(text[pos:], text, pos, ctx, where))
    return "".join(out)


def _kind(m: re.Match, text: str, ctx: Context, where) -> Kind:
    if m["kind"] in ctx.kinds:
        return ctx.kinds[m["kind"]]
    raise _error(ctx, text, m.start(), where, m[0],
                 f"unknown kind '{m['kind']}'.{_closest(m['kind'], ctx.kinds)} Kinds: {', '.join(ctx.kinds)}")


def _alone_on_line(m: re.Match, text: str, ctx: Context, where) -> int:
    """Where a block marker ends, trailing blanks included; an error unless alone on its line."""
    line_start = text.rfind("\n", 0, m.start()) + 1
    line_end = text.find("\n", m.end())
    line_end = len(text) if line_end < 0 else line_end
    if text[line_start : m.start()].strip() or text[m.end() : line_end].strip():
        raise _error(ctx, text, m.start(), where, m[0],
                     f"'{m['kind']}' makes a block and must stand alone on its line "
                     f"(only spaces before it, for an indent); put it on a line of its own")
    return line_end


def _expand(m: re.Match, kind: Kind, text: str, ctx: Context, depth: int, where) -> str:
    try:
        result = kind.handler(m["arg"], m["fmt"], ctx)
    except (KeyError, ValueError) as exc:
        if isinstance(exc, MarkerError):
            raise
        raise _error(ctx, text, m.start(), where, m[0], str(exc.args[0]) if exc.args else repr(exc)) from None
    if kind.expands:
        if depth >= MAX_DEPTH:
            raise _error(ctx, text, m.start(), where, m[0],
                         f"markers nested more than {MAX_DEPTH} deep (does a text include itself?)")
        inner = where or (_line(text, m.start(), ctx), f"{m[0]} ({kind.source})" if kind.source else m[0])
        result = _render(result, ctx, depth + 1, inner)
    if kind.block and "\n" in result:
        indent = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
        first, *rest = result.split("\n")
        result = "\n".join([first] + [indent + line if line else line for line in rest])
    return result


def _plain(segment: str, text: str, offset: int, ctx: Context, where) -> str:
    """Text between markers: refuse leftovers, drop the backslash of an escaped ``\\[[``."""
    left = LEFTOVER.search(segment)
    if left:
        line = segment[left.start() :].split("\n", 1)[0]
        shown = line[: line.find("]]") + 2] if "]]" in line else line[:60]
        raise _error(ctx, text, offset + left.start(), where, shown, _leftover_hint(shown, ctx.kinds))
    return ESCAPE.sub("[[", segment)


def _leftover_hint(shown: str, kinds: dict) -> str:
    rest = shown[2:].lstrip()
    name = re.match(r"[A-Za-z_][\w-]*", rest)[0]
    if name in kinds:
        return (f"a '{name}' marker that does not fit [[kind:argument|format]] (a missing bracket, "
                f"a space, a line break?); write \\[[ to show it literally")
    if rest[len(name)] == ".":
        return f"a marker needs a kind: for a value write [[value:{rest}"
    return f"not a marker of any kind.{_closest(name, kinds)} Kinds: {', '.join(kinds)}"


def _line(text: str, index: int, ctx: Context) -> int:
    return ctx.line_offset + text.count("\n", 0, index) + 1


def _error(ctx: Context, text: str, index: int, where, marker: str, problem: str) -> MarkerError:
    if where is None:
        return MarkerError(f"{ctx.page}:{_line(text, index, ctx)}: {marker}: {problem}")
    line, outer = where  # inside the text that an outer marker (questions, ...) produced
    return MarkerError(f"{ctx.page}:{line}: in the text of {outer}: {marker}: {problem}")


def _closest(name: str, choices) -> str:
    close = difflib.get_close_matches(name, list(choices), n=1)
    return f" Did you mean '{close[0]}'?" if close else ""
