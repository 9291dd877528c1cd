"""The site's one glossary: ``docs/glossary.yml``.

Each entry holds a term in Korean and English with a one-sentence definition in both, and
the Korean translations that must never appear (``wrong_ko``: literal mistranslations such
as 변압기 for the Transformer, or a second word for a term the site already names), and the
English second words (``wrong_en``: sublayer for sub-layer, position encoding for positional
encoding).

* ``[[glossary]]`` in a page (a block kind of :mod:`coursebuild.markers`) becomes the
  glossary table in the page's language;
* :func:`add_tooltips` marks the first use of each term on a page with an ``<abbr>`` tooltip
  (Korean terms also when a particle is attached: 어텐션은, 소프트맥스를);
* :func:`find_mistranslations` is used by the build and the tests to refuse wrong terms.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from ..course import LESSONS
from ..paths import DOCS
from . import ui

GLOSSARY = DOCS / "glossary.yml"
FIELDS = ("id", "en", "ko", "en_def", "ko_def")
SKIP_TAGS = {"a", "abbr", "code", "pre", "script", "style", "svg", "h1", "h2", "h3", "h4", "h5", "h6",
             "math", "button", "label", "figcaption", "title", "kbd", "textarea", "nav", "header"}
SKIP_CLASSES = ("katex", "arithmatex", "md-nav", "md-header", "md-footer", "md-search", "headerlink")


@dataclass(frozen=True)
class Term:
    id: str
    en: str
    ko: str
    en_def: str
    ko_def: str
    wrong_ko: tuple[str, ...] = field(default=())
    wrong_en: tuple[str, ...] = field(default=())  # the same for the English pages
    lesson: str = ""  # the slug of the lesson that defines the term ("" for terms the course assumes)

    def term(self, lang: str) -> str:
        return self.ko if lang == "ko" else self.en

    def tooltip(self, lang: str) -> str:
        """Korean pages show the English term; English pages show the Korean one."""
        return f"{self.en} — {self.ko_def}" if lang == "ko" else f"{self.ko} — {self.en_def}"


def _lesson_slugs() -> tuple[str, ...]:
    return tuple(lesson.slug for lesson in LESSONS)


@lru_cache(maxsize=4)
def _load(path: Path, mtime: float) -> tuple[Term, ...]:
    try:
        entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f"cannot read the glossary {path}: {exc}") from exc
    if not isinstance(entries, list):
        raise ValueError(f"{path} must be a list of terms")
    terms, seen = [], {}
    for i, e in enumerate(entries):
        missing = [f for f in FIELDS if not str((e or {}).get(f, "")).strip()]
        if missing:
            raise ValueError(f"{path}: entry {i + 1} ({(e or {}).get('id', '?')}) lacks {', '.join(missing)}")
        wrong, wrong_en = e.get("wrong_ko") or [], e.get("wrong_en") or []
        for key, words in (("wrong_ko", wrong), ("wrong_en", wrong_en)):
            if not (isinstance(words, list) and all(isinstance(w, str) and w.strip() for w in words)):
                raise ValueError(f"{path}: entry {i + 1} ({e.get('id', '?')}): {key} must be a list of "
                                 f"words, not {words!r} (quote a word that ends in ':' or holds ', ')")
        lesson = str(e.get("lesson") or "").strip()
        if lesson and lesson not in _lesson_slugs():
            raise ValueError(f"{path}: entry {i + 1} ({e.get('id', '?')}): lesson {lesson!r} is not a "
                             f"lesson slug of coursebuild/course.py ({', '.join(_lesson_slugs())})")
        t = Term(**{f: str(e[f]).strip() for f in FIELDS}, wrong_ko=tuple(wrong), wrong_en=tuple(wrong_en),
                 lesson=lesson)
        for key in (("id", t.id), ("ko", t.ko), ("en", t.en.lower())):
            if key in seen:
                raise ValueError(f"{path}: {key[0]} {key[1]!r} is used by both {seen[key]} and {t.id}")
            seen[key] = t.id
        terms.append(t)
    return tuple(terms)


def load(path: Path = GLOSSARY) -> tuple[Term, ...]:
    """All terms, validated: every field in both languages, no duplicate id or term."""
    return _load(path, path.stat().st_mtime if path.exists() else 0.0)


def render_glossary(lang: str, terms: tuple[Term, ...] | None = None) -> str:
    """The glossary as a Markdown table in ``lang``, sorted by the term in that language."""
    terms = terms or load()
    head = (f"| {ui.text(lang, 'glossary.column_term')} | {ui.text(lang, 'glossary.column_other')} | "
            f"{ui.text(lang, 'glossary.column_meaning')} |")
    rows = [head, "|:---|:---|:---|"]
    for t in sorted(terms, key=lambda t: t.term(lang).lower()):
        other = t.en if lang == "ko" else t.ko
        definition = t.ko_def if lang == "ko" else t.en_def
        rows.append(f'| <span id="{t.id}"></span>**{t.term(lang)}** | {other} | {definition} |')
    return "\n".join(rows)


def glossary_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[glossary]]``: the table of every term, in the page's language."""
    if arg is not None or fmt is not None:
        raise ValueError("takes no argument and no format: write it bare, [[glossary]]")
    return render_glossary(ctx.lang)


# What may follow a Korean term inside the same word: particles, plural 들, 별/씩/마다, the
# copula (입니다, 이고, 인) and 하다/되다 forms (정규화한, 정렬된); up to three in a row
# (토큰들에서는 = 들 + 에서 + 는). Longest first, so 에서 is tried before 에.
_KO_PARTICLES = (
    "으로서", "으로써", "에게서", "이라고", "이라는", "이라면", "이지만", "이지요", "입니다", "이었다", "이에요", "이어서",
    "으로", "에서", "에게", "까지", "부터", "보다", "처럼", "만큼", "마다", "조차", "이나", "이란", "이며",
    "이지", "이고", "이다", "이면", "이라", "이든", "이었", "라고", "라는", "라면", "지만", "로서", "로써", "였다",
    "입", "니다", "하는", "하면", "하고", "하여", "해서", "하지", "합니다", "했다", "했습니다", "되는", "되어",
    "된다", "됩니다", "되면", "되고",
    "은", "는", "이", "가", "을", "를", "의", "에", "와", "과", "로", "도", "만", "나", "란", "며", "고", "다",
    "인", "일", "임", "라", "든", "였", "들", "별", "씩", "께", "한", "할", "함", "해", "했", "된", "될", "됨", "돼",
)
KO_ENDINGS = "|".join(sorted(_KO_PARTICLES, key=len, reverse=True))


def term_key(found: str) -> str:
    """The lookup key of a term as found in text: lower case, any run of whitespace one space
    (a term written across a source line, "셀프\\n어텐션", is still the one term)."""
    return " ".join(found.split()).lower()


def term_pattern(terms: tuple[Term, ...], lang: str) -> re.Pattern:
    words = sorted((t.term(lang) for t in terms), key=len, reverse=True)  # longest first
    # the words of a multi-word term may be parted by a line break as well as a space; otherwise
    # a shorter term inside it ("어텐션" in "셀프\n어텐션") would take its place
    alternation = "|".join(r"\s+".join(re.escape(part) for part in w.split()) for w in words)
    if lang == "ko":
        # a whole word: not glued to a Hangul syllable before it, and after it nothing but
        # particles (어텐션은, 키와, 헤드마다의) before the word ends: 키 does not match in 키우는
        return re.compile(rf"(?<![가-힣])(?:{alternation})(?=(?:{KO_ENDINGS}){{0,3}}(?![가-힣]))")
    return re.compile(rf"(?<![\w-])(?:{alternation})(?![\w-])", re.I)


TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*?)(/?)>")
VOID = {"br", "img", "hr", "input", "meta", "link", "source", "wbr", "col", "area", "base", "embed", "track", "param"}


def add_tooltips(page_html: str, lang: str, terms: tuple[Term, ...] | None = None) -> str:
    """Wrap the first use of each glossary term in prose with ``<abbr title=…>``."""
    terms = terms or load()
    by_word = {term_key(t.term(lang)): t for t in terms}
    pattern, used = term_pattern(terms, lang), set()
    out, pos, skip = [], 0, []  # skip: stack of open tags that are (or sit inside) skipped ones

    def wrap(text: str) -> str:
        def one(m: re.Match) -> str:
            t = by_word[term_key(m[0])]
            if t.id in used:
                return m[0]
            used.add(t.id)
            return f'<abbr title="{html.escape(t.tooltip(lang), quote=True)}">{m[0]}</abbr>'
        return pattern.sub(one, text)

    for m in TAG.finditer(page_html):
        text = page_html[pos : m.start()]
        out.append(text if skip and skip[-1][1] else wrap(text))
        closing, name, attrs, selfclose = m[1], m[2].lower(), m[3], m[4]
        if closing:
            # pop back to the matching open tag (tolerates an unclosed <p> or <li>)
            names = [n for n, _ in skip]
            if name in names:
                del skip[len(names) - 1 - names[::-1].index(name):]
        elif name not in VOID and not selfclose:
            skipped = bool(skip and skip[-1][1]) or name in SKIP_TAGS or any(c in attrs for c in SKIP_CLASSES)
            skip.append((name, skipped))
        out.append(m[0])
        pos = m.end()
    tail = page_html[pos:]
    out.append(tail if skip and skip[-1][1] else wrap(tail))
    return "".join(out)


def _wrong_word(word: str) -> re.Pattern:
    # a refused word where a word begins: 로스 (for 손실) is refused, 크로스 어텐션 is not; the word
    # may go on (훈련된, 훈련용), since a refused word is wrong with any ending
    lead = "(?<![가-힣])" if re.match(r"[가-힣]", word) else ""
    return re.compile(lead + re.escape(word))


def find_mistranslations(text: str, terms: tuple[Term, ...] | None = None) -> list[tuple[str, str]]:
    """(wrong word, the right term) for every ``wrong_ko`` word found in ``text``, where a word
    begins (not inside another word: 크로스 holds 로스, 함수열 holds 수열)."""
    terms = terms or load()
    return [(w, t.ko) for t in terms for w in t.wrong_ko if _wrong_word(w).search(text)]


def find_wrong_english(text: str, terms: tuple[Term, ...] | None = None) -> list[tuple[str, str]]:
    """(wrong word, the right term) for every ``wrong_en`` word found in ``text`` as a whole word,
    written as listed (lower case: "sublayer" is refused, the formula's Sublayer(x) and the code's
    ``n_sublayers`` and `sublayer` in code font are not)."""
    terms = terms or load()
    return [(w, t.en) for t in terms for w in t.wrong_en
            if re.search(rf"(?<![\w`-]){re.escape(w)}(?![\w`-])", text)]
