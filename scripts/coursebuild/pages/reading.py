"""Each lesson's reading time, computed from its Markdown source, and the ``reading-time`` marker.

What counts as reading (the "core" of a page, what a learner reads straight through):

- prose, headings, list items and open admonitions (``!!!``, ``???+``);
- one minute for each figure (``[[fig:…]]``, ``![…](…)``) and each table (``[[table:…]]`` or a
  Markdown table), whose text is not counted again.

What does not count: YAML front matter; fenced code and included code (``[[code:…]]``), which a
learner runs rather than reads; collapsed blocks (``??? note "…"``: asides, derivations, second
examples, opened by whoever wants them); display math; the check questions (``[[questions:…]]``)
and widgets (``[[widget:…]]``), which are worked and played with, and which the instructor guide
times apart; HTML tags, link targets and attribute lists (``{ #id }``). Where each of these
blocks begins and ends is :mod:`coursebuild.text.markdown`'s rule (the one the other parts of
the build read pages by).

Rates (minutes are ``units / rate + figures + tables``, rounded, at least 1):

- English, :data:`EN_WORDS_PER_MINUTE` = 200 words a minute. Brysbaert (2019), "How many words
  do we read per minute? A review and meta-analysis of reading rate", Journal of Memory and
  Language 109, 104047, doi:10.1016/j.jml.2019.104047, puts adults' silent reading of English
  non-fiction at 238 words a minute (most readers 175–300). Our pages are technical, with
  formulas and numbers to check, so we take the slower 200.
- Korean, :data:`KO_SYLLABLES_PER_MINUTE` = 370 Hangul syllables a minute. Brysbaert (2019)
  finds that other languages' rates follow from how much text they need for the same message
  as English. Our pages are mirrored, so we measured that on them: the nine lessons held 1.83
  Hangul syllables per English word when this was written (:func:`ratio`; a test keeps it
  between 1.6 and 2.1), and 200 words a minute times 1.84 is about 370 syllables a minute.
  The two languages are therefore timed at the same pace of content, not of script.

Beside the reading time, a lesson shows its study time (reading plus its hand computations,
check questions and widgets, by the rules stated in :mod:`coursebuild.plan`).

A value marker (``[[value:…]]``) reads as one word (a number) in English and adds nothing to
the Hangul count. The marker ``[[reading-time]]`` (a block, under a lesson's title) shows the
page's own time; ``[[reading-time:<slug>]]`` gives a lesson's minutes as a number (the
instructor guide's time table), ``[[reading-time:total]]`` the nine lessons' sum.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from ..course import LESSONS, SLUGS
from ..paths import DOCS
from ..text import markdown

EN_WORDS_PER_MINUTE = 200
KO_SYLLABLES_PER_MINUTE = 370
RATES = {"en": EN_WORDS_PER_MINUTE, "ko": KO_SYLLABLES_PER_MINUTE}
BUDGET_MINUTES = 15  # core reading per lesson (COURSE_SPEC: "within about 15 minutes")

NOT_READ = ("front-matter", "fence", "folded", "math")  # kinds of coursebuild.text.markdown blocks
_FIG = re.compile(r"\[\[fig:[^\]]*\]\]|!\[[^\]]*\]\([^)]*\)")
_NOT_READ_MARKER = re.compile(r"\[\[(?:code|questions|answers|widget|reading-time)(?::[^\]]*)?(?:\|[^\]]*)?\]\]")
_VALUE = re.compile(r"\[\[[a-z][a-z0-9_-]*(?::[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_ATTR = re.compile(r"\{[:#.][^}]*\}|\{ *[#.][^}]*\}")
_TAG = re.compile(r"<[^>]+>")
_INLINE_MATH = re.compile(r"\$[^$\n]+\$")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_WORD = re.compile(r"[^\s]*\w[^\s]*")  # a Korean word quoted on an English page is a word too


@dataclass(frozen=True)
class Reading:
    units: int       # Hangul syllables (ko) or words (en) of core prose
    figures: int
    tables: int
    lang: str

    @property
    def minutes_exact(self) -> float:
        return self.units / RATES[self.lang] + self.figures + self.tables

    @property
    def minutes(self) -> int:
        """What the page shows: rounded half up, at least one minute."""
        return max(1, math.floor(self.minutes_exact + 0.5))


def core_blocks(text: str) -> list[markdown.Block]:
    """The blocks of a page that count as reading (:mod:`coursebuild.text.markdown`): all but
    front matter, code fences, folded boxes and display math."""
    return [b for b in markdown.blocks(text) if b.kind not in NOT_READ]


def core_lines(text: str) -> list[str]:
    """The lines that count as reading: those of :func:`core_blocks`, in order."""
    return [line for b in core_blocks(text) for line in b.lines]


def measure(text: str, lang: str) -> Reading:
    """The core reading of a page's Markdown ``text`` in ``lang`` (see the module docstring)."""
    if lang not in RATES:
        raise ValueError(f"no reading rate for language {lang!r}; known: {', '.join(RATES)}")
    figures = tables = 0
    prose: list[str] = []
    for block in core_blocks(text):
        if block.kind == "table" or (block.kind == "marker" and block.name == "table"):
            tables += 1
            continue
        lines = list(block.lines)
        if block.kind in ("heading", "item", "open"):  # the text, not the hashes, bullet or box type
            lines[0] = block.title or ""
        for line in lines:
            figures += len(_FIG.findall(line))
            line = _FIG.sub(" ", line)
            line = _NOT_READ_MARKER.sub(" ", line)
            line = _VALUE.sub(" 0 ", line)
            prose.append(line)
    plain = "\n".join(prose)
    plain = _LINK.sub(r"\1", plain)
    plain = _ATTR.sub(" ", plain)
    plain = _TAG.sub(" ", plain)
    plain = _INLINE_MATH.sub(" x ", plain)
    units = len(_HANGUL.findall(plain)) if lang == "ko" else len(_WORD.findall(plain))
    return Reading(units=units, figures=figures, tables=tables, lang=lang)


def lesson_source(slug: str, lang: str) -> Path:
    return DOCS / lang / "lessons" / f"{slug}.md"


def lesson_reading(slug: str, lang: str) -> Reading:
    if slug not in SLUGS:
        raise KeyError(f"no lesson '{slug}'; lessons: {', '.join(SLUGS)}")
    return measure(lesson_source(slug, lang).read_text(encoding="utf-8"), lang)


def ratio() -> float:
    """Hangul syllables per English word over all the lessons' core text (see the rates)."""
    ko = sum(lesson_reading(s, "ko").units for s in SLUGS)
    en = sum(lesson_reading(s, "en").units for s in SLUGS)
    return ko / en


def sections(text: str) -> dict[str, str]:
    """A page's ``## … { #id }`` sections: id -> its text up to the next ``##`` heading
    (:func:`coursebuild.text.markdown.sections`)."""
    return markdown.sections(text)


def section_reading(slug: str, lang: str, ids: list[str]) -> Reading:
    """The core reading of only the sections ``ids`` of a lesson (each must exist)."""
    parts = sections(lesson_source(slug, lang).read_text(encoding="utf-8"))
    missing = [i for i in ids if i not in parts]
    if missing:
        raise KeyError(f"lesson '{slug}' ({lang}) has no section {', '.join('#' + m for m in missing)}; "
                       f"its sections: {', '.join(parts)}")
    return measure("\n".join(parts[i] for i in ids), lang)


def report(lang: str) -> list[tuple[int, str, Reading]]:
    """(number, slug, reading) for each lesson, in course order."""
    return [(lesson.number, lesson.slug, lesson_reading(lesson.slug, lang)) for lesson in LESSONS]


if __name__ == "__main__":  # python -m coursebuild.reading: the table of every lesson's time
    for lang in RATES:
        rows = report(lang)
        for n, slug, r in rows:
            flag = "  over budget" if r.minutes > BUDGET_MINUTES else ""
            print(f"{lang} {n} {slug:20s} {r.units:6d} units {r.figures} fig {r.tables} tab "
                  f"{r.minutes_exact:5.1f} -> {r.minutes} min{flag}")
        print(f"{lang} total {sum(r.minutes for *_, r in rows)} min")
    print(f"Hangul syllables per English word: {ratio():.2f}")
