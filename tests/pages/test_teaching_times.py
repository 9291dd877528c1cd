"""Teaching times on the built instructor guide and lessons (coursebuild/pages/plan.py), both languages.

The time table adds up (its rows make its total; the demonstration row is every tip's sum;
the check-question row counts every question); each demonstration tip's stated length is the
sum of its steps and fits its slot in the whole-course plan; the whole-course plan's sessions
run from 0 without gaps, each to the length in its heading, cover every lesson with their
stop question, demonstration, check questions and a lab notebook, and add up to the stated total;
each lesson shows a study time, at least its reading time, as the stated rule computes it.

Every expected value is counted here, apart from the code under test (coursebuild/pages/plan.py and
coursebuild/pages/reading.py): the reading row against the reading times the lesson pages show,
the questions from docs/questions/lesson-NN.yml, the widgets on the built lesson page, the hand
computations by this file's own scan of the lesson's Markdown under the rule plan.py states.
"""

import re

import pytest
import yaml
from bs4 import BeautifulSoup

from coursebuild.pages import plan
from coursebuild.course import LESSONS, SESSIONS
from coursebuild.paths import DOCS

pytestmark = pytest.mark.slow
GUIDE = {"ko": "teaching/instructor-guide/index.html", "en": "en/teaching/instructor-guide/index.html"}
SPAN = re.compile(r"^\s*(\d+)\s*[–-]\s*(\d+)\s*$")
NUMBER = re.compile(r"\d+")
STEP = re.compile(r"\((\d+) ?(?:min|분)\)")
SHOWN = re.compile(r'<span class="reading-time">\D*(\d+)\D*</span> · <span class="study-time" title="([^"]*)">\D*(\d+)[^<]*</span>')
VALUE_RESULT = re.compile(r"(=|\\approx)[^=]*\[\[value:")  # "= … [[value:…]]": a number of the build


def questions_in_source(number: int) -> int:
    """Lesson ``number``'s check questions, counted in its YAML file."""
    return len(yaml.safe_load((DOCS / "questions" / f"lesson-{number:02d}.yml").read_text(encoding="utf-8"))["questions"])


def hand_computations(markdown: str) -> int:
    """Displayed formulas ($$ … $$) whose right-hand side holds a [[value:…]] marker, outside
    front matter, code fences and folded ``???`` blocks: plan.py's rule, counted by its own scan."""
    lines = markdown.split("\n")
    if lines and lines[0].strip() == "---":
        lines = lines[lines.index("---", 1) + 1:]
    count, fence, fold, math = 0, None, None, None
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if fold is not None:
            if not line.strip() or indent > fold:
                continue
            fold = None
        if fence:
            fence = None if line.strip().startswith(fence) else fence
            continue
        if math is not None:
            math.append(line)
            if line.rstrip().endswith("$$"):
                count += bool(VALUE_RESULT.search("\n".join(math)))
                math = None
            continue
        opened = re.match(r"\s*(`{3,}|~{3,})", line)
        folded = re.match(r"(\s*)\?\?\?(?!\+)\s", line)
        if opened:
            fence = opened[1]
        elif folded:
            fold = len(folded[1])
        elif line.strip().startswith("$$"):
            if len(line.strip()) > 2 and line.strip().endswith("$$"):  # "$$ … $$" on one line
                count += bool(VALUE_RESULT.search(line))
            else:
                math = [line]
    return count


def test_the_hand_computation_count_sees_only_open_results():
    text = ("# T\n\n$$\nq = [[value:a.b]]\n$$\n\n$$ x = [[value:a.c]] $$\n\n$$\nq \\cdot k\n$$\n\n"
            "??? note \"x\"\n    $$\n    q = [[value:a.c]]\n    $$\n\n```\n$$ y = [[value:a.d]] $$\n```\n")
    assert hand_computations(text) == 2


def lesson_page(built_site, lesson, lang):
    root = built_site if lang == "ko" else built_site / "en"
    return (root / "lessons" / lesson.slug / "index.html").read_text(encoding="utf-8")


def shown_times(html: str) -> tuple[int, int, list[int]]:
    """(reading minutes, study minutes, the numbers the study time's title counts) under a title."""
    m = SHOWN.search(html)
    assert m, "no reading and study time under the title"
    return int(m[1]), int(m[3]), [int(n) for n in NUMBER.findall(m[2])]


@pytest.fixture(scope="module")
def guide(built_site):
    return {lang: BeautifulSoup((built_site / rel).read_text(encoding="utf-8"), "html.parser").find("article")
            for lang, rel in GUIDE.items()}


def tip_minutes(article, n) -> tuple[int, int | None]:
    """(sum of the steps' minutes, the tip's stated length) of lesson n's demonstration tip."""
    dt = article.find("dt", id=f"lesson-{n}-demo")
    dd = dt.find_next_sibling("dd")
    steps = sum(int(m) for m in STEP.findall(dd.get_text(" ")))
    head = dt.get_text(" ") + " " + dd.find("p").get_text(" ")
    stated = re.search(r"(?:약|about|About) (\d+) ?(?:분|minutes)|(\d+)분 정도", head)
    return steps, int(stated[1] or stated[2]) if stated else None


@pytest.mark.parametrize("lang", sorted(GUIDE))
def test_demonstration_tips_state_the_sum_of_their_steps(guide, lang):
    for n in range(1, len(LESSONS) + 1):
        steps, stated = tip_minutes(guide[lang], n)
        assert steps > 0, f"{lang}: lesson {n}'s tip gives no step its minutes"
        assert stated == steps, f"{lang}: lesson {n}'s tip says {stated} min, its steps add to {steps}"


@pytest.mark.parametrize("lang", sorted(GUIDE))
def test_the_time_table_adds_up(built_site, guide, lang):
    table = guide[lang].find("h2", id="time-estimates").find_next("table")
    rows = [[td.get_text(" ", strip=True) for td in tr.find_all("td")] for tr in table.find_all("tr")]
    rows = [r for r in rows if r]
    minutes = [int(NUMBER.match(r[1])[0]) for r in rows]
    assert len(rows) == 5, rows
    assert sum(minutes[:-1]) == minutes[-1], f"{lang}: rows {minutes[:-1]} do not make the total {minutes[-1]}"
    shown = [shown_times(lesson_page(built_site, lesson, lang))[0] for lesson in LESSONS]
    assert minutes[0] == sum(shown), f"{lang}: reading {minutes[0]}, the lessons show {shown}"
    assert minutes[1] == sum(tip_minutes(guide[lang], n)[0] for n in range(1, len(LESSONS) + 1)), f"{lang}: demonstrations"
    count = sum(questions_in_source(lesson.number) for lesson in LESSONS)
    assert minutes[2] == count * plan.QUESTION_MINUTES and str(count) in rows[2][2]


@pytest.mark.parametrize("lang", sorted(GUIDE))
def test_the_whole_course_plan_covers_every_lesson_and_adds_up(guide, lang):
    article = guide[lang]
    section = article.find("h2", id="plan-course")
    assert section is not None, f"{lang}: no #plan-course"
    stated_total = int(NUMBER.search(section.find_next("p").get_text())[0])
    covered, demos, labs, totals = set(), {}, 0, []
    for k in range(1, len(SESSIONS) + 1):
        head = article.find("h3", id=f"plan-course-{k}")
        assert head is not None and head.find_previous("h2") is section, f"{lang}: no session {k}"
        length = int(NUMBER.findall(head.get_text())[-1])
        table = head.find_next("table")
        t = 0
        for tr in table.find_all("tr"):
            cells = tr.find_all("td")
            if not cells:
                continue
            m = SPAN.match(cells[0].get_text())
            assert m, f"{lang} session {k}: {cells[0].get_text()!r} is not 'start–end'"
            start, end = int(m[1]), int(m[2])
            assert start == t and end > start, f"{lang} session {k}: gap or overlap at {start}"
            t = end
            for a in cells[-1].find_all("a", href=True):
                href = a["href"]
                demo = re.fullmatch(r"#lesson-(\d+)-demo", href)
                if demo:
                    demos[int(demo[1])] = end - start
                lesson = re.search(r"lessons/([\w-]+)/#check-questions", href)
                if lesson:
                    covered.add(lesson[1])
                    assert end - start <= questions_in_source(
                        next(l.number for l in LESSONS if l.slug == lesson[1])) * plan.QUESTION_MINUTES
                if "notebooks/lesson-" in href:
                    labs += 1
        assert t == length, f"{lang} session {k}: rows end at {t}, the heading says {length}"
        totals.append(length)
    assert covered == {l.slug for l in LESSONS}, f"{lang}: the plan leaves out {set(l.slug for l in LESSONS) - covered}"
    assert labs == len(SESSIONS), f"{lang}: {labs} lab notebooks in the plan"
    for n in range(1, len(LESSONS) + 1):  # each demonstration tip fits its slot
        assert n in demos and tip_minutes(article, n)[0] <= demos[n], \
            f"{lang}: lesson {n}'s tip takes {tip_minutes(article, n)[0]} min, its slot {demos.get(n)}"
    assert sum(totals) == stated_total, f"{lang}: sessions {totals} do not make {stated_total}"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_each_lesson_shows_its_study_time(built_site, lang):
    """Study = reading + the stated minutes for each hand computation, check question and widget,
    each counted here; the reading time shown is whole minutes, and the rest adds whole minutes,
    so the two shown times differ by exactly that."""
    for lesson in LESSONS:
        html = lesson_page(built_site, lesson, lang)
        read, study, counted = shown_times(html)
        source = (DOCS / lang / lesson.page).read_text(encoding="utf-8")
        article = BeautifulSoup(html, "html.parser").find("article")
        widgets = [w["data-widget"] for w in article.select(".widget[data-widget]")]
        c, q, w = hand_computations(source), questions_in_source(lesson.number), len(widgets)
        where = f"{lang}/{lesson.slug}"
        assert counted == [c, q, w], f"{where}: the study time counts {counted}, the lesson has {[c, q, w]}"
        want = read + plan.COMPUTATION_MINUTES * c + plan.QUESTION_MINUTES * q + plan.WIDGET_MINUTES * w
        assert study == want >= read, f"{where}: shows {study} min of study, {read} min reading makes {want}"


def test_the_study_rule_counts_what_the_lesson_asks():
    text = "# T\n\nProse.\n\n$$\nq = [[value:a.b]]\n$$\n\n??? note \"x\"\n    $$\n    q = [[value:a.c]]\n    $$\n\n[[widget:a.b]]\n"
    assert plan.computations(text) == 1  # the folded one is not asked for
    s = plan.Study(reading=10.2, computations=1, questions=3, widgets=1)
    assert s.minutes == round(10.2 + plan.COMPUTATION_MINUTES + 3 * plan.QUESTION_MINUTES + plan.WIDGET_MINUTES)
