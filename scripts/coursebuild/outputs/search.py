"""What the site's search finds first: the lesson that teaches a term, in either language.

Material's search index (``search/search_index.json``, one per language: see
:func:`coursebuild.workarounds.i18n.split_search_index`) holds one entry per section of
every page. Left alone, a rendered notebook outscores the lesson it belongs to, because it
repeats the lesson's terms in code and in printed output. Three things change that:

* **a boost per kind of page** (:data:`BOOSTS`, :func:`page_boost`): lessons up, the lab
  notebooks, the answer key and the instructors' pages down. It is set as the page's
  ``search.boost`` (Material's front-matter key) unless the page's front matter sets one;
* **notebooks indexed by their prose**: a notebook page's code cells and their outputs are
  left out of its index entries (:func:`notebook_text_for_index`); the page itself keeps them;
  likewise the self-checks' explanations (:func:`without_self_check_answers`), so that the
  search box does not show which choice is right;
* **each lesson's key terms**: the glossary terms a lesson introduces
  (:func:`introduced_terms`, worked out from the pages and ``docs/glossary.yml``), in both
  languages, go into a ``keywords`` field of the lesson's first entry
  (:func:`add_keywords`), so "softmax" on a Korean page finds the Korean lesson 3 and
  "소프트맥스" on an English page the English one.

:func:`refine_index` does the index part on one language's index; :func:`filter_index`
drops entries or rewrites their text, for builds (such as a student edition) that must
leave something out of the index; :func:`rewrite_index_file` applies either to a written
index in place (atomically).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Callable

from .. import atomic
from ..content import glossary
from ..course import LESSONS
from ..paths import DOCS, LANGS
from ..text import markdown as scanner

# Material's search plugin indexes a page in its on_page_context (priority 0): what changes
# what it reads runs at BEFORE_SEARCH, what puts the page back as shown at AFTER_SEARCH
BEFORE_SEARCH = 50
AFTER_SEARCH = -50

# search.boost per kind of page (the page's path inside docs/<lang>/); anything else: 1
BOOSTS = {
    "lessons/": 4.0,
    "notebooks/": 0.3,
    "teaching/answer-key.md": 0.2,
    "teaching/instructor-guide.md": 0.4,
    "teaching/exercises.md": 0.5,
    "teaching/analogies.md": 0.5,
    "teaching/prompt-cards.md": 0.5,
}
# the field that holds a lesson's key terms, and its weight: above a section title (1000),
# so a term's own lesson comes before every page that only names the term in a heading
KEYWORDS_FIELD = "keywords"
KEYWORDS_BOOST = 1e4


def page_boost(src_uri: str) -> float | None:
    """The search boost of the page at ``docs/<lang>/<src_uri>`` (``lessons/x.md``), or None."""
    path = src_uri.split("/", 1)[1] if src_uri.split("/", 1)[0] in LANGS else src_uri
    for prefix, boost in BOOSTS.items():
        if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
            return boost
    return None


def set_page_boost(page) -> None:
    """Give ``page`` its kind's ``search.boost``, unless its front matter has one."""
    boost = page_boost(page.file.src_uri)
    search = page.meta.get("search")
    if boost is None or (isinstance(search, dict) and "boost" in search):
        return
    page.meta["search"] = {**(search if isinstance(search, dict) else {}), "boost": boost}


# ---------------------------------------------------------------- notebooks

_CODE_CELL = re.compile(r'<div class="jp-Cell jp-CodeCell\b')
_DIV = re.compile(r"<(/?)div\b[^>]*>")


def notebook_text_for_index(html: str) -> str:
    """A rendered notebook's HTML without its code cells (input and output): what is indexed.

    mkdocs-jupyter wraps every code cell, its prompt, copy text and outputs in one
    ``<div class="jp-Cell jp-CodeCell …">``; the Markdown cells stay, headings included, so
    every section keeps its entry and its anchor.
    """
    out, pos = [], 0
    while (start := _CODE_CELL.search(html, pos)) is not None:
        out.append(html[pos:start.start()])
        depth, end = 0, None
        for tag in _DIV.finditer(html, start.start()):
            depth += -1 if tag[1] else 1
            if depth == 0:
                end = tag.end()
                break
        if end is None:  # unbalanced: leave the rest as it is
            out.append(html[start.start():])
            return "".join(out)
        pos = end
    out.append(html[pos:])
    return "".join(out)


# ---------------------------------------------------------------- self-checks

# what a self-checked question shows only once answered (coursebuild.content.selfcheck.render):
# a number's explanation, each choice's why; the search box must not show them
_SELF_CHECK_ANSWER = re.compile(r'<template class="self-check__(?:explain|why)"[^>]*>.*?</template>', re.S)


def without_self_check_answers(html: str) -> str:
    """A page's HTML without its self-checks' explanations: what is indexed. The page keeps
    them (its script shows them after an answer), and the expected numbers and the right
    choice stay in the form's attributes, which the index does not read."""
    return _SELF_CHECK_ANSWER.sub("", html)


# ---------------------------------------------------------------- the terms each lesson introduces

_MARKER = re.compile(r"\[\[[^\]]*\]\]")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_HTML = re.compile(r"<[^>]+>|<!--.*?-->", re.S)
_ATTRS = re.compile(r"\{[^{}\n]*\}")


def _prose_lines(blocks) -> list[str]:
    """The lines of ``blocks`` (:mod:`coursebuild.text.markdown`) a reader reads: no front
    matter; a code fence or a displayed formula becomes one blank line; a folded box keeps its
    title line and the prose of its body."""
    lines: list[str] = []
    for block in blocks:
        if block.kind in ("fence", "math"):
            lines.append(" ")
        elif block.kind == "folded":
            lines.append(block.lines[0])
            lines.extend(_prose_lines(block.body))
        elif block.kind != "front-matter":
            lines.extend(block.lines)
    return lines


def prose(markdown: str) -> str:
    """A page's Markdown as a reader reads it: no code, markers, formulas, URLs or tags."""
    text = "\n".join(_prose_lines(scanner.blocks(markdown)))
    for pattern in (_MARKER, _MATH, _INLINE_CODE, _LINK_TARGET, _HTML, _ATTRS):
        text = pattern.sub(" ", text)
    return text


_WORD = re.compile(r"[^\W_]+")


def _names(title: str, term: str) -> bool:
    """Whether ``title`` names ``term``: its words in a row, also inside a longer term
    ("dot-product" in "Scaled dot-product attention"), the last one with a particle after
    it (어텐션 in 왜 어텐션인가)."""
    have, want = _WORD.findall(title.lower()), _WORD.findall(term.lower())
    for i in range(len(have) - len(want) + 1):
        window = have[i:i + len(want)]
        if window[:-1] == want[:-1] and window[-1].startswith(want[-1]):
            return True
    return False


def _headings(text: str) -> str:
    return "\n".join(line.lstrip("#") for line in text.splitlines() if line.startswith("#"))


def _uses(text: str, lang: str, terms) -> dict[str, int]:
    """How often each glossary term is used in ``text`` (longest term first, as the tooltips)."""
    by_word = {glossary.term_key(t.term(lang)): t.id for t in terms}
    counts: dict[str, int] = {}
    for m in glossary.term_pattern(terms, lang).finditer(text):
        term_id = by_word[glossary.term_key(m[0])]
        counts[term_id] = counts.get(term_id, 0) + 1
    return counts


@lru_cache(maxsize=4)
def _introduced(stamp: tuple) -> dict[int, tuple[str, ...]]:
    terms = glossary.load()
    pages = {(lesson.number, lang): prose((DOCS / lang / lesson.page).read_text(encoding="utf-8"))
             for lesson in LESSONS for lang in LANGS}
    titles, heads, uses = {}, {}, {}
    for lesson in LESSONS:
        n = lesson.number
        titles[n] = {t.id for t in terms for lang in LANGS if _names(lesson.title[lang], t.term(lang))}
        heads[n] = {i for lang in LANGS for i in _uses(_headings(pages[n, lang]), lang, terms)}
        uses[n] = {}
        for lang in LANGS:
            for i, c in _uses(pages[n, lang], lang, terms).items():
                uses[n][i] = uses[n].get(i, 0) + c
    owner: dict[str, int] = {}
    number = {lesson.slug: lesson.number for lesson in LESSONS}
    for t in terms:
        if t.lesson:  # the glossary says which lesson teaches it
            owner[t.id] = number[t.lesson]
            continue
        named = [n for n in titles if t.id in titles[n]]
        if named:  # named in a lesson's title
            owner[t.id] = min(named)
            continue
        if all(uses[n].get(t.id) for n in uses):  # an everyday word: every lesson uses it
            continue
        named = [n for n in heads if t.id in heads[n]]
        if named:  # named in a lesson's headings
            owner[t.id] = min(named)
            continue
        best, n = max((uses[n].get(t.id, 0), -n) for n in uses)  # used most, the first of a tie
        if best:
            owner[t.id] = -n
    return {lesson.number: tuple(t.id for t in terms if owner.get(t.id) == lesson.number)
            for lesson in LESSONS}


def introduced_terms() -> dict[int, tuple[glossary.Term, ...]]:
    """For each lesson number, the glossary terms it introduces, in glossary order.

    A term belongs to the lesson the glossary names as teaching it (its ``lesson``); else
    to the first lesson whose title names it (in either language, also as part of a longer
    term: "dot-product" in "Scaled dot-product attention"); else to the first whose
    headings name it; else to the lesson whose prose (both languages; code, formulas and
    markers left out) uses it most, the first of a tie. A term no lesson uses belongs to
    none, and so does an everyday word of the course that no title names and every
    lesson's prose uses (training): no one lesson is the place to look it up. Matching is the glossary tooltips' (longest term first, so
    "셀프 어텐션" counts for self-attention, not attention).
    """
    sources = [DOCS / lang / lesson.page for lesson in LESSONS for lang in LANGS] + [glossary.GLOSSARY]
    ids = _introduced(tuple(p.stat().st_mtime_ns for p in sources))
    by_id = {t.id: t for t in glossary.load()}
    return {n: tuple(by_id[i] for i in found) for n, found in ids.items()}


def key_terms(lesson, lang: str) -> list[str]:
    """What a reader of ``lang`` types to find ``lesson``: its title, then each term it introduces."""
    return [lesson.title[lang], *(t.term(lang) for t in introduced_terms()[lesson.number])]


# ---------------------------------------------------------------- the index

def lesson_location(lesson) -> str:
    """The index location of a lesson's first entry, in its language's index."""
    return f"lessons/{lesson.slug}/"


def add_keywords(index: dict) -> dict:
    """Each lesson's first entry gets its key terms in both languages (:data:`KEYWORDS_FIELD`)."""
    words = {lesson_location(lesson): " ".join(
        f"{t.ko} {t.en}" for t in introduced_terms()[lesson.number]) for lesson in LESSONS}
    docs = [{**doc, KEYWORDS_FIELD: words[doc["location"]]} if words.get(doc["location"]) else doc
            for doc in index["docs"]]
    fields = {**index["config"]["fields"], KEYWORDS_FIELD: {"boost": KEYWORDS_BOOST}}
    return {**index, "config": {**index["config"], "fields": fields}, "docs": docs}


def refine_index(index: dict) -> dict:
    """One language's index as the course's search needs it (today: the lessons' key terms)."""
    return add_keywords(index)


def filter_index(index: dict, drop: Callable[[dict], bool] = lambda doc: False,
                 text: Callable[[dict], str] | None = None) -> dict:
    """``index`` without the entries ``drop(entry)`` is true for, each kept entry's text
    replaced by ``text(entry)`` where given. Entries are Material's: ``location`` (``page/``
    or ``page/#anchor``, relative to the language's root), ``title``, ``text`` (HTML)."""
    docs = []
    for doc in index["docs"]:
        if drop(doc):
            continue
        docs.append({**doc, "text": text(doc)} if text else doc)
    return {**index, "docs": docs}


def without_pages(index: dict, pages) -> dict:
    """``index`` without every entry of the given pages (``teaching/answer-key/``)."""
    pages = {p if p.endswith("/") else p + "/" for p in pages}
    return filter_index(index, drop=lambda doc: page_of(doc["location"]) in pages)


def page_of(location: str) -> str:
    """The page part of an index location: ``teaching/answer-key/`` for ``…/#a-x``."""
    return location.split("#", 1)[0]


def index_files(site: Path, default_lang: str = LANGS[0]) -> dict[str, Path]:
    """Each language's index in a built site: the default language's at the root."""
    return {lang: site / ("" if lang == default_lang else lang) / "search" / "search_index.json"
            for lang in LANGS}


def rewrite_index_file(path: Path, change: Callable[[dict], dict]) -> None:
    """Apply ``change`` to the index at ``path``, writing it atomically (temp file, rename)."""
    index = json.loads(path.read_text(encoding="utf-8"))
    data = json.dumps(change(index), ensure_ascii=False, separators=(",", ":"))
    atomic.write_text(path, data)
