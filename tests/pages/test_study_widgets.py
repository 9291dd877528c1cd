"""The study time under a lesson's title counts every widget the built page shows.

The study rule (coursebuild/pages/plan.py) adds minutes for each widget of the lesson; a widget
reaches a page by its marker (``[[widget:…]]``) or written as HTML (lesson 8's decoder, which the
trainer feeds). This test does not ask the rule what it counted: it reads the built page. Every
element with a ``data-widget`` attribute is a widget (the page scripts attach to exactly those),
and the page's study time states, in its title, how many widgets it counts and, in its text,
the minutes: both must agree with the widgets the page holds, and the minutes must add up by the
rule the guide states (reading, plus so many minutes a computation, a question, a widget).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from coursebuild.course import LESSONS
from coursebuild.pages import plan

# the numbers the study time shows: "공부하는 데 약 41분" with the title "… 손 계산 3개(연산 40번), 확인 문제 3개,
# 위젯 4개 …" / "about 41 min of study" with "Reading, plus 3 hand computations (40 operations), 3 check
# questions and 4 widgets"
TITLE = {"ko": re.compile(r"손 계산 (\d+)개\(연산 (\d+)번\), 확인 문제 (\d+)개, 위젯 (\d+)개"),
         "en": re.compile(r"plus (\d+) hand computations? \((\d+) operations?\), (\d+) check questions? and (\d+) widgets?")}
MINUTES = {"ko": re.compile(r"약 (\d+)분"), "en": re.compile(r"about (\d+) min")}


class WidgetsAndTimes(HTMLParser):
    """The elements with a data-widget attribute, and the reading and study time spans."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.widgets: list[str] = []
        self.spans: dict[str, dict] = {}
        self._open: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-widget" in a:
            self.widgets.append(a["data-widget"] or "")
        classes = (a.get("class") or "").split()
        for kind in ("reading-time", "study-time"):
            if tag == "span" and kind in classes and kind not in self.spans:
                self.spans[kind] = {"title": a.get("title") or "", "text": ""}
                self._open = kind

    def handle_endtag(self, tag):
        if tag == "span":
            self._open = None

    def handle_data(self, data):
        if self._open:
            self.spans[self._open]["text"] += data


def study_problems(slug: str, lang: str, html: str) -> list[str]:
    """What the study time of lesson ``slug`` says that the built page does not bear out."""
    page = WidgetsAndTimes(html)
    where = f"{lang}/{slug}"
    if "study-time" not in page.spans or "reading-time" not in page.spans:
        return [f"{where}: no reading and study time under the title"]
    study, reading = page.spans["study-time"], page.spans["reading-time"]
    counts, shown = TITLE[lang].search(study["title"]), MINUTES[lang].search(study["text"])
    read = MINUTES[lang].search(reading["text"]) or re.search(r"(\d+)", reading["text"])
    if not (counts and shown and read):
        return [f"{where}: cannot read the study time «{study['text']}» («{study['title']}»)"]
    c, ops, q, w = (int(x) for x in counts.groups())
    problems = []
    if w != len(page.widgets):
        problems.append(f"{where}: the page shows {len(page.widgets)} widgets ({', '.join(page.widgets)}), "
                        f"the study time counts {w}")
    # the reading minutes are shown rounded, the study minutes from the exact reading: 1 apart at most
    expected = int(read[1]) + plan.OPERATION_SECONDS * ops / 60 + plan.QUESTION_MINUTES * q \
        + plan.WIDGET_MINUTES * len(page.widgets)
    if abs(int(shown[1]) - expected) > 1:
        problems.append(f"{where}: the study time shows {shown[1]} min, its parts add up to about {expected}")
    return problems


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_study_time_counts_every_widget_on_the_page(built_site, lang):
    root = built_site if lang == "ko" else built_site / "en"
    problems, widgets = [], 0
    for lesson in LESSONS:
        html = (root / "lessons" / lesson.slug / "index.html").read_text(encoding="utf-8")
        widgets += len(WidgetsAndTimes(html).widgets)
        problems += study_problems(lesson.slug, lang, html)
    assert widgets >= len(LESSONS), "every lesson has at least one widget"
    assert not problems, "\n".join(problems)


def _page(widgets: int, counted: int, minutes: int = 0, reading: int = 10) -> str:
    elements = '<div class="widget" data-widget="x"></div>' * widgets
    return (f'<p><span class="reading-time">읽는 데 약 {reading}분</span> · <span class="study-time" '
            f'title="읽기에 더해 손 계산 0개(연산 0번), 확인 문제 0개, 위젯 {counted}개를 해 보는 시간">공부하는 데 약 '
            f'{minutes or reading + plan.WIDGET_MINUTES * counted}분</span></p>{elements}')


def test_the_check_catches_a_widget_the_study_time_missed():
    assert study_problems("x", "ko", _page(widgets=4, counted=4)) == []
    found = study_problems("x", "ko", _page(widgets=4, counted=3))
    assert found and "shows 4 widgets" in found[0] and "counts 3" in found[0]
    # a widget element written another way is still a widget
    html = _page(widgets=1, counted=1) + '<section data-widget="decode" class="trainer"></section>'
    assert study_problems("x", "ko", html)


def test_the_check_catches_minutes_that_leave_a_widget_out():
    assert not study_problems("x", "ko", _page(widgets=2, counted=2))
    assert study_problems("x", "ko", _page(widgets=2, counted=2, minutes=10 + plan.WIDGET_MINUTES))


def test_the_rule_counts_markers_and_widget_elements_outside_code():
    text = ("Text\n\n[[widget:a.b]]\n\n<div class=\"widget\" data-widget=\"x\"></div>\n\n"
            "<section data-widget=\"y\" class=\"trainer\"></section>\n\n"
            "```html\n<div class=\"widget\" data-widget=\"z\"></div>\n[[widget:c.d]]\n```\n\n"
            "??? note \"more\"\n\n    [[widget:e.f]]\n")
    assert plan.widgets(text) == 4
