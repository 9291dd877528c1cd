"""A lesson's title is the same on every page that names it, in each language.

The title is the lesson page's own heading; coursebuild/course.py (the navigation, the
"next lesson" links, the handouts), the check questions' file, the home page's lesson table,
the instructor guide's lesson headings and the lab notebook's heading ("N강 실습: …",
"Lesson N lab: …") all repeat it word for word. The built site is read too, so that no other
source can put a second title in front of a reader: each lesson page's heading and the tab's
title, the "next lesson" link at the end of the lesson before it, the footer's previous and
next links, the navigation, the whole-course plan in the instructor guide ("N강 시연 (…)") and
each handout's title.
"""

from __future__ import annotations

import html
import re

import pytest
import yaml

from coursebuild.content import ui
from coursebuild.course import LESSONS
from coursebuild.paths import DOCS

ROOT = DOCS.parent
NOTEBOOKS = ROOT / "tutorial_code" / "notebooks"


def page_title(lang: str, slug: str) -> str:
    first = (DOCS / lang / "lessons" / f"{slug}.md").read_text(encoding="utf-8").splitlines()[0]
    return re.match(r"# (.*?) \{ #", first).group(1)


def named_titles(lang: str, lesson) -> dict[str, str | None]:
    """Where the lesson's title is written, and what is written there (None: not found)."""
    n, slug = lesson.number, lesson.slug
    home = (DOCS / lang / "index.md").read_text(encoding="utf-8")
    guide = (DOCS / lang / "teaching" / "instructor-guide.md").read_text(encoding="utf-8")
    questions = yaml.safe_load((DOCS / "questions" / f"lesson-{n:02d}.yml").read_text(encoding="utf-8"))
    notebook = next(NOTEBOOKS.glob(f"lesson_{n:02d}_*.py")).read_text(encoding="utf-8")
    row = re.search(rf"^\| \[{n}\. (.*?)\]\(lessons/{slug}\.md\)", home, re.M)
    heading = re.search(rf"^### (?:{n}강|Lesson {n})\. (.*?) \{{ #lesson-{n} \}}$", guide, re.M)
    lab = re.search(rf"^# # {f'{n}강 실습' if lang == 'ko' else f'Lesson {n} lab'}: (.*)$", notebook, re.M)
    return {"coursebuild/course.py": lesson.title[lang], f"docs/questions/lesson-{n:02d}.yml": questions["title"][lang],
            f"{lang}/index.md": row and row[1], f"{lang}/teaching/instructor-guide.md": heading and heading[1],
            NOTEBOOKS.joinpath(f"lesson_{n:02d}").name: lab and lab[1]}


def mismatches(lang: str, lesson, title: str | None = None) -> list[str]:
    title = title or page_title(lang, lesson.slug)
    return [f"lesson {lesson.number} ({lang}): {where} says «{said}», the page «{title}»"
            for where, said in named_titles(lang, lesson).items() if said != title]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_place_names_a_lesson_by_its_page_title(lang):
    found = [m for lesson in LESSONS for m in mismatches(lang, lesson)]
    assert not found, "\n".join(found)


def test_the_check_finds_a_title_that_differs():
    lesson = LESSONS[1]
    found = mismatches("ko", lesson, title="도서관 비유로 보는 Q, K, V")
    assert len(found) == 5, found  # none of the five places agrees with the wrong title


def text_of(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()


def built_titles(site, lang: str, lesson) -> dict[str, list[str]]:
    """Where the built site names ``lesson``, and what it writes there (empty: not found). The
    navigation, the tab and the footer number the lessons ("2. …"), the next-lesson link and the
    handout say "2강. …" / "Lesson 2. …", the course plan "2강 시연 (…)"."""
    prefix = site if lang == "ko" else site / lang
    n, i = lesson.number, lesson.number - 1
    numbered = re.compile(rf"^{n}\. (.*)$")
    titled = re.compile(rf"^{n}강\. (.*)$" if lang == "ko" else rf"^Lesson {n}\. (.*)$")

    def after(pattern: re.Pattern, said: list[str]) -> list[str]:
        return [m[1] if (m := pattern.match(t)) else f"{t} (no number {n})" for t in said]

    own = (prefix / "lessons" / lesson.slug / "index.html").read_text(encoding="utf-8")
    own_h1 = [re.sub(r'<a class="headerlink".*?</a>', "", h) for h in re.findall(r"<h1[^>]*>(.*?)</h1>", own, re.S)]
    found = {"the page's heading": [text_of(h) for h in own_h1],
             "the tab's title": after(numbered, [text_of(t).rsplit(" - ", 1)[0]
                                                 for t in re.findall(r"<title>(.*?)</title>", own, re.S)]),
             "the navigation": after(numbered, [text_of(a) for a in re.findall(
                 r'<a href="\./" class="md-nav__link md-nav__link--active">(.*?)</a>', own, re.S)])}
    if i > 0:
        before = (prefix / "lessons" / LESSONS[i - 1].slug / "index.html").read_text(encoding="utf-8")
        found["the next-lesson link of the lesson before"] = after(titled, [
            text_of(a) for p in re.findall(r'<p class="next-lesson">(.*?)</p>', before, re.S)
            for a in re.findall(rf'<a href="\.\./{lesson.slug}/">(.*?)</a>', p, re.S)])
        found["the footer of the lesson before"] = after(numbered, re.findall(
            rf'<a href="\.\./{lesson.slug}/" class="md-footer__link md-footer__link--next" aria-label="[^:"]*: ([^"]*)"', before))
    if i + 1 < len(LESSONS):
        nxt = (prefix / "lessons" / LESSONS[i + 1].slug / "index.html").read_text(encoding="utf-8")
        found["the footer of the lesson after"] = after(numbered, re.findall(
            rf'<a href="\.\./{lesson.slug}/" class="md-footer__link md-footer__link--prev" aria-label="[^:"]*: ([^"]*)"', nxt))
    guide = text_of((prefix / "teaching" / "instructor-guide" / "index.html").read_text(encoding="utf-8"))
    demo = re.escape(ui.text(lang, "plan.demo", n=n, title="\0")).replace(re.escape("\0"), "(.*?)")
    found["the course plan in the guide"] = re.findall(demo, guide)  # no title holds a ")"
    return {where: [html.unescape(t) for t in said] for where, said in found.items()}


def handout_title(site, lang: str, lesson) -> str:
    from pypdf import PdfReader

    pdf = site / "assets" / "handouts" / lang / f"{lesson.notebook}.pdf"
    return PdfReader(pdf).metadata.title.rsplit(" — ", 1)[0]


def built_mismatches(site, lang: str, lesson, title: str | None = None) -> list[str]:
    title = title or page_title(lang, lesson.slug)
    out = [f"lesson {lesson.number} ({lang}): {where} says {said or 'nothing'}, the page «{title}»"
           for where, said in built_titles(site, lang, lesson).items() if not said or set(said) != {title}]
    expected = ui.text(lang, "lesson.titled", n=lesson.number, title=title)
    if (got := handout_title(site, lang, lesson)) != expected:
        out.append(f"lesson {lesson.number} ({lang}): the handout's title is «{got}», not «{expected}»")
    return out


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_built_site_names_each_lesson_by_its_page_title(built_site, lang):
    found = [m for lesson in LESSONS for m in built_mismatches(built_site, lang, lesson)]
    assert not found, "\n".join(found)


def test_the_built_check_finds_a_title_that_differs(built_site):
    """Lesson 2 under the home page's old title, "Q, K, V": every place disagrees."""
    found = built_mismatches(built_site, "ko", LESSONS[1], title="도서관 비유로 보는 Q, K, V")
    assert len(found) == 8, "\n".join(found)
