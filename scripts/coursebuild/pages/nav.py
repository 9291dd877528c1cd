"""The lessons' part of the site navigation, made from :data:`coursebuild.course.LESSONS`.

``mkdocs.yml``'s ``nav`` holds a placeholder where the lesson entries go,
``"[[nav:lessons]]"`` (one page per lesson, titled "N. <title>" in the default language) and
``"[[nav:notebooks]]"`` (each lesson's lab notebook; its title comes from the notebook's first
heading, in its language). :func:`translations` gives static-i18n's ``nav_translations``
for the other languages. An unknown ``[[nav:…]]`` placeholder fails the build.
"""

from __future__ import annotations

import re

from ..content import ui
from ..course import LESSONS
from ..paths import LANGS

PLACEHOLDER = re.compile(r"\[\[nav:(?P<kind>[^\]]*)\]\]")


def title(lesson, lang: str) -> str:
    return f"{lesson.number}. {lesson.title[lang]}"


def lesson_entries() -> list[dict[str, str]]:
    return [{title(lesson, LANGS[0]): lesson.page} for lesson in LESSONS]


def notebook_entries() -> list[str]:
    return [f"notebooks/{lesson.notebook}.ipynb" for lesson in LESSONS]


SECTIONS = {"lessons": lesson_entries, "notebooks": notebook_entries}


def fill(nav):
    """``nav`` with every ``[[nav:…]]`` placeholder replaced by its entries (a new list)."""
    if isinstance(nav, list):
        return [fill(item) for item in nav]
    if isinstance(nav, dict):
        return {key: fill(value) for key, value in nav.items()}
    if isinstance(nav, str) and (m := PLACEHOLDER.fullmatch(nav.strip())):
        if m["kind"] not in SECTIONS:
            raise KeyError(
                f"mkdocs.yml nav: unknown placeholder {nav!r}; use one of "
                + ", ".join(f"'[[nav:{k}]]'" for k in SECTIONS))
        return SECTIONS[m["kind"]]()
    return nav


def translate(nav, mapping: dict[str, str]):
    """``nav`` with its titles renamed by ``mapping`` (a language's nav_translations), for a build
    in which that language is the default one (the writer's mode of ``mkdocs serve``)."""
    if isinstance(nav, list):
        return [translate(item, mapping) for item in nav]
    if isinstance(nav, dict):
        return {mapping.get(key, key): translate(value, mapping) for key, value in nav.items()}
    return nav


def translations(lang: str) -> dict[str, str]:
    """The lesson titles of the default language mapped to ``lang``'s (nav_translations)."""
    return {title(lesson, LANGS[0]): title(lesson, lang) for lesson in LESSONS}


def merge_translations(configured: dict | None, lang: str) -> dict[str, str]:
    """``configured`` (from mkdocs.yml) plus the lesson titles; a clash is an error."""
    merged = dict(configured or {})
    for ko, other in translations(lang).items():
        if merged.setdefault(ko, other) != other:
            raise KeyError(
                f"mkdocs.yml nav_translations ({lang}) maps {ko!r} to {merged[ko]!r}, but the lesson "
                f"title is {other!r} in scripts/coursebuild/course.py: remove the entry from "
                "mkdocs.yml (lesson titles come from course.py)")
    return merged


# ---------------------------------------------------------------- what follows a lesson

CLOSING_PAGE = "closing.md"


def next_lesson_marker(arg, fmt, ctx) -> str:
    """``[[next-lesson]]`` (a block, at a lesson's end): a link to the next lesson in
    :data:`coursebuild.course.LESSONS`, or from the last lesson to the closing page."""
    if arg is not None or fmt is not None:
        raise ValueError("next-lesson takes no argument: it follows the page's place in course.py")
    slug = ctx.page.rsplit("/", 1)[-1].removesuffix(".md")
    slugs = [lesson.slug for lesson in LESSONS]
    if "/lessons/" not in "/" + ctx.page or slug not in slugs:
        raise ValueError(f"next-lesson belongs on a lesson page (docs/<lang>/lessons/<slug>.md), "
                         f"not {ctx.page}")
    i = slugs.index(slug)
    if i + 1 < len(LESSONS):
        nxt = LESSONS[i + 1]
        link = f"[{ui.text(ctx.lang, 'lesson.titled', n=nxt.number, title=nxt.title[ctx.lang])}]({nxt.slug}.md)"
        return f"**{ui.text(ctx.lang, 'nav.next_lesson')}:** {link}\n{{: .next-lesson }}"
    return (f"**{ui.text(ctx.lang, 'nav.next_closing')}:** [{ui.text(ctx.lang, 'nav.closing_title')}]"
            f"(../{CLOSING_PAGE})\n{{: .next-lesson }}")
