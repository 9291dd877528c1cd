"""The build's one reading of a page's Markdown: its lines split into typed blocks.

Every part of the build that needs to know where a code fence, a folded box, a formula or a
section is (reading times, hand computations, the search's prose, the handouts) asks
:func:`blocks` or :func:`sections`, so that they all agree on the edges.

:func:`blocks` reads the text line by line (lines are split at ``\\n``; numbers count from 0)
and gives each run of lines one kind. The rules, in the order they are tried on a line:

- ``front-matter``: only at the top: a first line ``---`` up to the next line that is ``---``
  (spaces after it allowed). Without that closing line there is no front matter.
- ``blank``: a run of empty or all-space lines.
- ``fence``: a line that starts, after any indentation, with three or more backticks or tildes
  (the mark; what follows it is the ``info``, e.g. ``python``). It closes at the first later line
  that holds, after any indentation, only the same character repeated at least as many times as
  the mark, and spaces: four backticks close a fence opened with three, three do not close one
  opened with four, and a backtick line with a word after it closes nothing. An unclosed fence
  runs to the end of the text. A fence indented in a list item or a box is found the same way.
- ``folded``: a folded box, ``??? note "title"`` (``???`` then a space, not ``???+``). It holds
  every following line that is blank or indented deeper than the ``???`` line, less the blank
  lines at its end: it ends at the first line indented no deeper (a dedent). Its lines after
  the first are scanned again, by these same rules, into its ``body``.
- ``math``: display math, a line that starts (after indentation) with ``$$``. If the rest of
  that line holds another ``$$`` it is a one-line block (``$$ x = 1 $$``); else the block runs
  to the first later line that holds ``$$`` (or to the end). Its ``formula`` is the text
  between the two ``$$``.
- ``heading``: ``#`` to ``######`` then a space (or nothing): ``level``, ``title`` (without the
  hashes and without a closing attribute list) and ``id``, the ``#id`` of an attribute list
  ``{ #id }`` at its end (``{ #id .class }`` too), or None.
- ``open``: an open box, ``!!! warning "title"`` or ``???+ note "title"``: its first line only
  (``name`` the box's type, ``title`` the quoted title or None); the indented lines after it are
  read as the blocks they are, since they are shown. A folded box's ``name`` and ``title`` are
  read the same way.
- ``table``: a run of lines that start (after indentation) with ``|``.
- ``marker``: a line that is one build marker and nothing else (``[[fig:attention.heatmap]]``,
  ``[[questions]]``); ``name`` is the marker's name.
- ``html``: a line that starts (after indentation) with ``<``, one block a line.
- ``item``: a list item (``-``, ``*``, ``+`` or ``1.`` then a space) and the lines that continue
  it (as a ``paragraph`` does); ``title`` is its text after the bullet, on the first line.
- ``paragraph``: a run of other lines, up to a blank line or a line that starts any block above.

:func:`sections` gives a page's ``## … { #id }`` sections (level-2 headings with an id, outside
fences and boxes): each runs from its heading line to the next heading of level 1 or 2 (or the
end of the text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = ("front-matter", "blank", "fence", "folded", "math", "heading", "open", "table",
         "marker", "html", "item", "paragraph")

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")
_BOX = r'\s*([\w-]*)(?:\s+"([^"]*)")?'  # a box's type and its quoted title
_FOLDED = re.compile(r"^\s*\?\?\?(?=\s|$)" + _BOX)
_OPEN = re.compile(r"^\s*(?:!!!|\?\?\?\+)" + _BOX)
_HEADING = re.compile(r"^\s*(#{1,6})(?:\s+(.*?))?\s*$")
_HEADING_ID = re.compile(r"\s*\{[^{}]*?#([\w-]+)[^{}]*\}$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+(.*)$")
_MARKER = re.compile(r"^\s*\[\[([a-z][a-z0-9_-]*)(?::[^\]\n]*)?(?:\|[^\]\n]*)?\]\]\s*$")


@dataclass(frozen=True)
class Block:
    """One block of a page: its kind (:data:`KINDS`), its lines ``start`` to ``end`` (the line
    after its last), their text, and what its kind has (see the module's rules)."""

    kind: str
    start: int
    end: int
    lines: tuple[str, ...]
    indent: int = 0                    # spaces before its first line
    level: int = 0                     # heading: 1 to 6
    id: str | None = None              # heading: its { #id }
    title: str | None = None           # heading, open or folded box, list item: its text (see the rules)
    name: str = ""                     # fence: its mark; open or folded box: its type; marker: its name
    info: str = ""                     # fence: what follows the mark (the language)
    body: tuple[Block, ...] = ()       # folded box: the blocks of its lines after the first

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def formula(self) -> str:
        """Display math: the text between its opening and its closing ``$$``."""
        if self.kind != "math":
            raise ValueError(f"a {self.kind} block has no formula; only display math ($$ … $$) has")
        text = self.text
        opening = text.index("$$") + 2
        closing = text.find("$$", opening)
        return text[opening:] if closing < 0 else text[opening:closing]


def blocks(text: str) -> list[Block]:
    """The blocks of the Markdown ``text``, in order; together they hold every line once."""
    lines = text.split("\n")
    out: list[Block] = []
    start = 0
    if lines[0] == "---":
        close = next((k for k in range(1, len(lines)) if lines[k].rstrip() == "---"), None)
        if close is not None:
            out.append(_block("front-matter", lines, 0, close + 1))
            start = close + 1
    out.extend(_scan(lines, start, len(lines)))
    return out


def sections(text: str) -> dict[str, str]:
    """A page's ``## … { #id }`` sections: id -> its text, from its heading line up to the next
    heading of level 1 or 2 (the text's own characters, line ends included). Two sections with
    one id are an error (a link to it could not say which it means)."""
    found = blocks(text)
    offsets = [0]
    for line in text.split("\n"):
        offsets.append(offsets[-1] + len(line) + 1)
    offsets[-1] = len(text)
    heads = [b for b in found if b.kind == "heading" and b.level <= 2]
    out: dict[str, str] = {}
    first: dict[str, int] = {}
    for k, head in enumerate(heads):
        if head.level == 2 and head.id is not None:
            if head.id in first:
                raise ValueError(f"two sections have the id #{head.id} (lines {first[head.id] + 1} and "
                                 f"{head.start + 1}); give each ## heading its own {{ #id }}")
            first[head.id] = head.start
            end = heads[k + 1].start if k + 1 < len(heads) else len(offsets) - 1
            out[head.id] = text[offsets[head.start]:offsets[end]]
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block(kind: str, lines: list[str], start: int, end: int, **detail) -> Block:
    return Block(kind, start, end, tuple(lines[start:end]), indent=_indent(lines[start]), **detail)


def _starts_block(line: str) -> bool:
    """Whether ``line`` starts a block other than a paragraph (and so ends a paragraph)."""
    stripped = line.strip()
    return (not stripped or stripped.startswith(("$$", "|", "<")) or bool(
        _FENCE.match(line) or _FOLDED.match(line) or _OPEN.match(line) or _HEADING.match(line)
        or _MARKER.match(line) or _ITEM.match(line)))


def _fence_end(lines: list[str], i: int, end: int, mark: str) -> int:
    close = re.compile(r"^\s*" + re.escape(mark[0]) + "{%d,}\\s*$" % len(mark))
    for k in range(i + 1, end):
        if close.match(lines[k]):
            return k + 1
    return end


def _scan(lines: list[str], i: int, end: int) -> list[Block]:
    out: list[Block] = []
    while i < end:
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            j = i + 1
            while j < end and not lines[j].strip():
                j += 1
            out.append(_block("blank", lines, i, j))
        elif fence := _FENCE.match(line):
            j = _fence_end(lines, i, end, fence[1])
            out.append(_block("fence", lines, i, j, name=fence[1], info=fence[2].strip()))
        elif box := _FOLDED.match(line):
            indent, j = _indent(line), i + 1
            while j < end and (not lines[j].strip() or _indent(lines[j]) > indent):
                j += 1
            while j > i + 1 and not lines[j - 1].strip():
                j -= 1
            out.append(_block("folded", lines, i, j, name=box[1], title=box[2],
                              body=tuple(_scan(lines, i + 1, j))))
        elif stripped.startswith("$$"):
            j = i + 1
            if "$$" not in stripped[2:]:
                while j < end and "$$" not in lines[j]:
                    j += 1
                j = min(j + 1, end)
            out.append(_block("math", lines, i, j))
        elif heading := _HEADING.match(line):
            title = heading[2] or ""
            attr = _HEADING_ID.search(title)
            out.append(_block("heading", lines, i, i + 1, level=len(heading[1]),
                              id=attr[1] if attr else None, title=title[:attr.start()] if attr else title))
        elif box := _OPEN.match(line):
            out.append(_block("open", lines, i, i + 1, name=box[1], title=box[2]))
        elif stripped.startswith("|"):
            j = i + 1
            while j < end and lines[j].strip().startswith("|"):
                j += 1
            out.append(_block("table", lines, i, j))
        elif marker := _MARKER.match(line):
            out.append(_block("marker", lines, i, i + 1, name=marker[1]))
        elif stripped.startswith("<"):
            out.append(_block("html", lines, i, i + 1))
        else:
            item = _ITEM.match(line)
            j = i + 1
            while j < end and not _starts_block(lines[j]):
                j += 1
            out.append(_block("item" if item else "paragraph", lines, i, j,
                              title=item[1] if item else None))
        i = out[-1].end
    return out
