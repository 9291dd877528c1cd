"""A lesson's title is the same on every page that names it, in each language.

The title is the lesson page's own heading; coursebuild/course.py (the navigation, the
"next lesson" links, the handouts), the check questions' file, the home page's lesson table,
the instructor guide's lesson headings and the lab notebook's heading ("N강 실습: …",
"Lesson N lab: …") all repeat it word for word.
"""

from __future__ import annotations

import re

import pytest
import yaml

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
