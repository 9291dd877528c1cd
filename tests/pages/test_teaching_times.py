"""Teaching times on the built instructor guide and lessons (coursebuild/pages/plan.py), both languages.

The time table adds up (its rows make its total, and the total is the plan's before + in class +
after); the demonstration row is every tip's sum and the stop questions have their own row; each
demonstration tip's stated length is the sum of its steps and fits its slot in the whole-course
plan; the whole-course plan's sessions run from 0 without gaps, each to the length in its
heading, cover every lesson with their stop question, demonstration, check questions, and put
every other activity of every lesson somewhere: each lab notebook in a session or after one,
each lesson's remaining check questions, self-checked questions, widgets (the trainer too) and
folded boxes (the backward-pass aside too) after its session, each assignment after one
session; the 50- and 90-minute plans' blocks run from 0 to their length and give the check
questions and the Colab run their stated minutes; each lesson shows a study time, at least its
reading time, as the stated rule computes it; the guide types no minutes.

Every expected value is counted here, apart from the code under test (coursebuild/pages/plan.py and
coursebuild/pages/reading.py): the reading row against the reading times the lesson pages show,
the questions from docs/questions/lesson-NN.yml and self-check.yml, the widgets on the built
lesson page, the folded boxes by a scan of the lesson's Markdown, the hand computations and
their operations by this file's own scan under the rule plan.py states (sizes of the build's
result lists through the public results lookup), the notebooks' run times from the executed
notebooks' own cell timings.
"""

import json
import math
import re
from datetime import datetime

import pytest
import yaml
from bs4 import BeautifulSoup

from coursebuild.pages import plan
from coursebuild.pages import results as results_lookup
from coursebuild.pipeline.site import data_from_report
from coursebuild.course import LESSONS, SESSIONS
from coursebuild.paths import DOCS

pytestmark = pytest.mark.slow
GUIDE = {"ko": "teaching/instructor-guide/index.html", "en": "en/teaching/instructor-guide/index.html"}
SPAN = re.compile(r"^\s*(\d+)\s*[–-]\s*(\d+)\s*$")
NUMBER = re.compile(r"\d+")
STEP = re.compile(r"\((\d+) ?(?:min|분)\)")
SHOWN = re.compile(r'<span class="reading-time">\D*(\d+)\D*</span> · <span class="study-time" title="([^"]*)">\D*(\d+)[^<]*</span>')
VALUE_RESULT = re.compile(r"(=|\\approx)[^=]*\[\[value:")  # "= … [[value:…]]": a number of the build
FOLDED = re.compile(r"^\s*\?\?\?(?!\+)\s", re.M)


def questions_in_source(number: int) -> int:
    """Lesson ``number``'s check questions, counted in its YAML file."""
    return len(yaml.safe_load((DOCS / "questions" / f"lesson-{number:02d}.yml").read_text(encoding="utf-8"))["questions"])


def self_checks_in_source(number: int) -> int:
    data = yaml.safe_load((DOCS / "questions" / "self-check.yml").read_text(encoding="utf-8"))["lessons"]
    return len(data.get(number, []))


def display_formulas(markdown: str) -> list[str]:
    """Displayed formulas ($$ … $$) whose right-hand side holds a [[value:…]] marker, outside
    front matter, code fences and folded ``???`` blocks: plan.py's rule, found by its own scan."""
    lines = markdown.split("\n")
    if lines and lines[0].strip() == "---":
        lines = lines[lines.index("---", 1) + 1:]
    found, fence, fold, math_lines = [], None, None, None
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if fold is not None:
            if not line.strip() or indent > fold:
                continue
            fold = None
        if fence:
            fence = None if line.strip().startswith(fence) else fence
            continue
        if math_lines is not None:
            math_lines.append(line)
            if line.rstrip().endswith("$$"):
                text = "\n".join(math_lines)
                if VALUE_RESULT.search(text):
                    found.append(text.strip().strip("$"))
                math_lines = None
            continue
        opened = re.match(r"\s*(`{3,}|~{3,})", line)
        folded = re.match(r"(\s*)\?\?\?(?!\+)\s", line)
        if opened:
            fence = opened[1]
        elif folded:
            fold = len(folded[1])
        elif line.strip().startswith("$$"):
            if len(line.strip()) > 2 and line.strip().endswith("$$"):  # "$$ … $$" on one line
                if VALUE_RESULT.search(line):
                    found.append(line.strip().strip("$"))
            else:
                math_lines = [line]
    return found


def operations(formula: str, data: dict | None) -> int:
    """The rule, counted here: the operators written before the last = or ≈ (× · + / frac sqrt ^),
    plus one per number of the result; one entry of a list of the build stands for all of it."""
    signs = list(re.finditer(r"=|\\approx", formula))
    keys = re.findall(r"\[\[value:([^\]|]+)", formula[signs[-1].end():]) if signs else []
    if not keys:
        return 0
    left = re.sub(r"\[\[[^\]]*\]\]", " N ", formula[:signs[-1].start()])
    written = sum(left.count(op) for op in ("\\times", "\\cdot", "\\frac", "\\sqrt", "+", "/", "^"))
    if not written:
        return 0
    repeat = 1
    parents = {re.sub(r"(\.-?\d+)+$", "", k) for k in keys}
    if data and len(parents) == 1 and not parents & set(keys):  # entries of one list of the build
        entries = results_lookup.value(data, parents.pop())
        leaves = json.dumps(entries).count(",") + 1 if isinstance(entries, list) else 1
        repeat = max(1, leaves // len(keys))
    return (written + len(keys)) * repeat


def hand_computations(markdown: str, data: dict | None = None) -> tuple[int, int]:
    ops = [o for o in (operations(f, data) for f in display_formulas(markdown)) if o]
    return len(ops), sum(ops)


@pytest.fixture(scope="module")
def data(report):
    return data_from_report(report)


def test_the_hand_computation_count_sees_only_open_results():
    text = ("# T\n\n$$\nq = 1 + [[value:a.b]] = [[value:a.b]]\n$$\n\n$$ x = 2 \\times 3 = [[value:a.c]] $$\n\n"
            "$$\nq \\cdot k\n$$\n\n$$\nW = [[value:a.m]]\n$$\n\n"
            "??? note \"x\"\n    $$\n    q = 1 + [[value:a.c]]\n    $$\n\n```\n$$ y = 1 + [[value:a.d]] $$\n```\n")
    assert hand_computations(text) == (2, 4)  # (+, result) and (×, result); W only states a number
    # one entry of a 2 × 3 list stands for all six
    assert operations("s = 1 + 2 = [[value:e.s.0.0|g]]", {"e": {"results": {"s": [[1, 2, 3], [4, 5, 6]]}}}) == 12


def test_the_plans_rule_counts_the_same_operations():
    text = "# T\n\n$$\nq = 2 \\times 3 + [[value:a.b]] = [[value:a.c]]\n$$\n\n$$\nW = [[value:a.m]]\n$$\n"
    assert plan.computations(text) == hand_computations(text) == (1, 3)


def lesson_page(built_site, lesson, lang):
    root = built_site if lang == "ko" else built_site / "en"
    return (root / "lessons" / lesson.slug / "index.html").read_text(encoding="utf-8")


def lesson_source(lesson, lang) -> str:
    return (DOCS / lang / lesson.page).read_text(encoding="utf-8")


def page_widgets(built_site, lesson, lang) -> list[str]:
    article = BeautifulSoup(lesson_page(built_site, lesson, lang), "html.parser").find("article")
    return [w["data-widget"] for w in article.select("[data-widget]")]


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


def test_lesson_8s_demonstration_has_a_step_for_the_trainer(guide):
    for lang, article in guide.items():
        dd = article.find("dt", id="lesson-8-demo").find_next_sibling("dd")
        steps = [li for li in dd.find_all("li") if STEP.search(li.get_text(" "))]
        assert any(a["href"].endswith("#train-it-yourself") for li in steps for a in li.find_all("a", href=True)), \
            f"{lang}: no step of lesson 8's tip uses the trainer"


# ---------------------------------------------------------------- the whole-course plan, read from the page

def session_parts(article, k):
    """Session k's (heading length, table rows as (start, end, links), the 'before' paragraph,
    the 'after' paragraph and list items)."""
    head = article.find("h3", id=f"plan-course-{k}")
    assert head is not None, f"no session {k}"
    length = int(NUMBER.findall(head.get_text())[-1])
    before = head.find_next("p")
    table = head.find_next("table")
    rows = []
    for tr in table.find_all("tr"):
        cells = tr.find_all("td")
        if cells:
            m = SPAN.match(cells[0].get_text())
            assert m, f"session {k}: {cells[0].get_text()!r} is not 'start–end'"
            rows.append((int(m[1]), int(m[2]), [a["href"] for a in cells[-1].find_all("a", href=True)]))
    after = table.find_next("p")
    items = after.find_next("ul").find_all("li", recursive=False)
    return length, rows, before, after, items


def executed_notebook(lesson, lang) -> dict:
    path = DOCS / lang / "notebooks" / f"{lesson.notebook}.ipynb"
    assert path.is_file(), f"the build wrote no executed notebook {path}"
    return json.loads(path.read_text(encoding="utf-8"))


def run_seconds(cell) -> float | None:
    ex = cell.get("metadata", {}).get("execution", {})
    if "iopub.execute_input" not in ex or "shell.execute_reply" not in ex:
        return None
    t = [datetime.fromisoformat(ex[k].replace("Z", "+00:00")) for k in ("iopub.execute_input", "shell.execute_reply")]
    return (t[1] - t[0]).total_seconds()


def check_plan(built_site, article, lang) -> tuple[int, int, int]:
    """Every check of the whole-course plan; returns its (in class, before, after) minutes."""
    assert article.find("h2", id="plan-course") is not None
    covered, demos, notebooks, assignments = set(), {}, {}, {}
    class_total = before_total = after_total = 0
    for k, session in enumerate(SESSIONS, 1):
        length, rows, before, after, items = session_parts(article, k)
        t = 0
        for start, end, links in rows:
            assert start == t and end > start, f"{lang} session {k}: gap or overlap at {start}"
            t = end
            for href in links:
                demo = re.fullmatch(r"#lesson-(\d+)-demo", href)
                if demo:
                    demos[int(demo[1])] = end - start
                lesson = re.search(r"lessons/([\w-]+)/#check-questions", href)
                if lesson:
                    covered.add(lesson[1])
                    n = next(l.number for l in LESSONS if l.slug == lesson[1])
                    assert end - start == min(plan.CLASS_QUESTIONS, questions_in_source(n)) * plan.QUESTION_MINUTES
                nb = re.search(r"notebooks/(lesson-\d\d-[\w-]+)/", href)
                if nb:
                    notebooks.setdefault(nb[1], []).append(("class", k, end - start))
        assert t == length, f"{lang} session {k}: rows end at {t}, the heading says {length}"
        class_total += length
        before_total += sum(int(x) for x in NUMBER.findall(before.get_text().rsplit("(", 1)[-1]))
        stated_after = int(NUMBER.findall(after.get_text())[-1])
        listed = 0
        for li in items:
            text, hrefs = li.get_text(" "), [a["href"] for a in li.find_all("a", href=True)]
            nb = next((re.search(r"notebooks/(lesson-\d\d-[\w-]+)/", h) for h in hrefs if "notebooks/" in h), None)
            task = next((re.search(r"#assignment-(\d+)", h) for h in hrefs if "#assignment-" in h), None)
            lesson = next((l for h in hrefs for l in LESSONS if h.rstrip("/").endswith(f"lessons/{l.slug}")), None)
            if nb:
                minutes = int(NUMBER.findall(text)[-1])
                notebooks.setdefault(nb[1], []).append(("after", k, minutes))
                listed += minutes
            elif task:
                assignments.setdefault(int(task[1]), []).append(k)
            else:
                assert lesson is not None and lesson.number in session.lessons, f"{lang} session {k}: {text!r}"
                numbers = [int(x) for x in NUMBER.findall(text.split(":", 1)[1])]
                q, s, w, f, minutes = numbers[-5:]
                where = f"{lang} session {k}, lesson {lesson.number}"
                assert q == max(0, questions_in_source(lesson.number) - plan.CLASS_QUESTIONS), where
                assert s == self_checks_in_source(lesson.number), where
                assert w == len(page_widgets(built_site, lesson, lang)), f"{where}: widgets"
                assert f == len(FOLDED.findall(lesson_source(lesson, lang))), f"{where}: folded boxes"
                rest = minutes - (q * plan.QUESTION_MINUTES + s * plan.SELF_CHECK_MINUTES + w * plan.WIDGET_MINUTES)
                assert (rest > 0) == (f > 0) and rest >= 0, f"{where}: {rest} min for {f} folded boxes"
                listed += minutes
        assert listed == stated_after, f"{lang} session {k}: the items add to {listed}, it says {stated_after}"
        after_total += stated_after
    assert covered == {l.slug for l in LESSONS}, f"{lang}: the plan leaves out {set(l.slug for l in LESSONS) - covered}"
    for n in range(1, len(LESSONS) + 1):  # each demonstration tip fits its slot
        assert n in demos and tip_minutes(article, n)[0] <= demos[n], \
            f"{lang}: lesson {n}'s tip takes {tip_minutes(article, n)[0]} min, its slot {demos.get(n)}"
    # every lab notebook is run once, in class or after, and no longer than its cells' run time allows
    assert sorted(notebooks) == sorted(l.notebook for l in LESSONS), f"{lang}: notebooks {sorted(notebooks)}"
    for lesson in LESSONS:
        (where, _, minutes), *more = notebooks[lesson.notebook]
        assert not more, f"{lang}: {lesson.notebook} is scheduled twice"
        code = [c for c in executed_notebook(lesson, lang)["cells"] if c["cell_type"] == "code"]
        seconds = [run_seconds(c) for c in code]
        assert None not in seconds, f"{lang}: {lesson.notebook}: the build kept no run time of some cells"
        assert minutes >= math.floor(plan.CODE_CELL_MINUTES * len(code) + sum(seconds) / 60), \
            f"{lang}: {lesson.notebook} gets {minutes} min for {len(code)} cells running {sum(seconds):.0f} s"
    questions_all = yaml.safe_load((DOCS / "questions" / "assignments.yml").read_text(encoding="utf-8"))["assignments"]
    assert sorted(assignments) == list(range(1, len(questions_all) + 1)), f"{lang}: assignments {assignments}"
    assert all(len(v) == 1 for v in assignments.values()), f"{lang}: an assignment is set twice: {assignments}"
    return class_total, before_total, after_total


@pytest.mark.parametrize("lang", sorted(GUIDE))
def test_the_whole_course_plan_schedules_every_activity_and_adds_up(built_site, guide, lang):
    check_plan(built_site, guide[lang], lang)


def time_table(article):
    table = article.find("h2", id="time-estimates").find_next("table")
    rows = [[td.get_text(" ", strip=True) for td in tr.find_all("td")] for tr in table.find_all("tr")]
    return [r for r in rows if r]


@pytest.mark.parametrize("lang", sorted(GUIDE))
def test_the_time_table_adds_up_to_the_plan(built_site, guide, lang):
    rows = time_table(guide[lang])
    timed = [(r, int(NUMBER.match(r[1])[0])) for r in rows[:-1] if NUMBER.match(r[1])]
    untimed = [r for r in rows[:-1] if not NUMBER.match(r[1])]
    total = int(NUMBER.match(rows[-1][1])[0])
    assert sum(m for _, m in timed) == total, f"{lang}: rows {[m for _, m in timed]} do not make {total}"
    minutes = [m for _, m in timed]
    # the rows in the guide's order: reading, hand computations, stop questions, demonstrations,
    # check questions, self-checks, widgets, folded boxes, notebooks, breaks
    assert len(minutes) == 10 and len(untimed) == 1, rows
    shown = [shown_times(lesson_page(built_site, lesson, lang))[0] for lesson in LESSONS]
    assert minutes[0] == sum(shown), f"{lang}: reading {minutes[0]}, the lessons show {shown}"
    assert minutes[2] == plan.STOP_MINUTES * len(LESSONS), f"{lang}: stop questions"
    assert minutes[3] == sum(tip_minutes(guide[lang], n)[0] for n in range(1, len(LESSONS) + 1)), f"{lang}: demonstrations"
    count = sum(questions_in_source(lesson.number) for lesson in LESSONS)
    assert minutes[4] == count * plan.QUESTION_MINUTES and str(count) in timed[4][0][3]
    checks = sum(self_checks_in_source(lesson.number) for lesson in LESSONS)
    assert minutes[5] == checks * plan.SELF_CHECK_MINUTES and str(checks) in timed[5][0][3]
    widgets = sum(len(page_widgets(built_site, lesson, lang)) for lesson in LESSONS)
    assert minutes[6] == widgets * plan.WIDGET_MINUTES and str(widgets) in timed[6][0][3]
    folded = sum(len(FOLDED.findall(lesson_source(lesson, lang))) for lesson in LESSONS)
    assert str(folded) in timed[7][0][3], f"{lang}: the folded boxes row does not count {folded}"
    breaks = sum(1 for s in SESSIONS if len(s.lessons) >= 3)
    assert minutes[9] == breaks * plan.BREAK_MINUTES
    assert "exercises/#assignments" in str(guide[lang].find("h2", id="time-estimates").find_next("table"))
    # the total is the plan's: before + in class + after, each as the plan's sessions state it
    class_total, before_total, after_total = check_plan(built_site, guide[lang], lang)
    stated = [int(x) for x in NUMBER.findall(rows[-1][3])]
    assert stated[-3:] == [before_total, class_total, after_total], f"{lang}: {stated} against the plan"
    assert before_total + class_total + after_total == total


@pytest.mark.parametrize("lang", sorted(GUIDE))
def test_the_50_and_90_minute_plans_give_each_block_its_minutes(guide, lang):
    for length, anchor in ((50, "plan-50"), (90, "plan-90")):
        table = guide[lang].find("h2", id=anchor).find_next("table")
        spans, texts = [], []
        for tr in table.find_all("tr"):
            cells = tr.find_all("td")
            if cells:
                m = SPAN.match(cells[0].get_text())
                assert m, f"{lang} {length}: {cells[0].get_text()!r}"
                spans.append((int(m[1]), int(m[2])))
                texts.append(cells[2].get_text(" "))
        assert spans[0][0] == 0 and spans[-1][1] == length, f"{lang} {length}: {spans}"
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:])), f"{lang} {length}: {spans}"
        if length == 50:  # the last block: check questions in pairs, each its stated minutes
            asked = int(NUMBER.findall(texts[-1])[0])
            assert asked >= 1 and spans[-1][1] - spans[-1][0] >= asked * plan.QUESTION_MINUTES, \
                f"{lang}: {spans[-1]} for {asked} questions at {plan.QUESTION_MINUTES} min"
        else:  # the Colab block: setup, run, interpretation; the build's own run fits the run's budget
            colab = next(i for i, t in enumerate(texts) if "Colab" in t)
            setup, run, talk, measured = [int(x) for x in re.findall(r"(\d+) ?(?:분|min)", texts[colab])][:4]
            assert spans[colab][1] - spans[colab][0] == setup + run + talk, f"{lang}: {spans[colab]}"
            assert measured <= run, f"{lang}: the build's run took {measured} min, the plan gives it {run}"


@pytest.mark.parametrize("lang", sorted(GUIDE))
def test_the_guide_types_no_minutes(lang):
    """Every number of minutes in the guide comes from a marker, but a demonstration step's own
    length, which the markers add up, and the names of the 50- and 90-minute plans."""
    text = (DOCS / lang / "teaching" / "instructor-guide.md").read_text(encoding="utf-8")
    text = re.sub(r"\[\[[^\]]*\]\]", "", text)
    typed = [m for m in re.finditer(r"(?<![\w.(])(\d+) ?(?:분|min\b|minutes?\b)", text)
             if m[1] not in ("50", "90")]
    assert not typed, f"{lang}: minutes typed in the guide: {[text[m.start() - 20:m.end()] for m in typed]}"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_each_lesson_shows_its_study_time(built_site, data, lang):
    """Study = reading + the stated rule's hand computations, check questions and widgets, each
    counted here; the reading time shown is whole minutes, the study time is rounded from the
    exact sum, so the two differ by the rest within one minute."""
    for lesson in LESSONS:
        html = lesson_page(built_site, lesson, lang)
        read, study, counted = shown_times(html)
        c, ops = hand_computations(lesson_source(lesson, lang), data)
        q, w = questions_in_source(lesson.number), len(page_widgets(built_site, lesson, lang))
        where = f"{lang}/{lesson.slug}"
        assert counted == [c, ops, q, w], f"{where}: the study time counts {counted}, the lesson has {[c, ops, q, w]}"
        want = read + ops * plan.OPERATION_SECONDS / 60 + plan.QUESTION_MINUTES * q + plan.WIDGET_MINUTES * w
        assert abs(study - want) <= 1 and study >= read, f"{where}: shows {study} min of study, the rule makes {want:.1f}"


def test_lesson_3s_full_hand_computation_is_counted_for_every_cell(data):
    """Lesson 3 works out q1·k1 and one output entry and fills the 4 × 4 tables: 16 of each."""
    lesson = LESSONS[2]
    c, ops = hand_computations(lesson_source(lesson, "en"), data)
    L = results_lookup.value(data, "worked_examples.sdpa.L")
    assert ops >= 2 * L * L * 4, f"lesson 3 counts {ops} operations for its {L} × {L} computation"


def test_the_study_rule_counts_what_the_lesson_asks():
    text = ("# T\n\nProse.\n\n$$\nq = 1 + 2 = [[value:a.b]]\n$$\n\n??? note \"x\"\n    $$\n    q = 1 + 2 = [[value:a.c]]\n    $$\n\n"
            "[[widget:a.b]]\n")
    assert plan.computations(text) == (1, 2)  # the folded one is not asked for
    s = plan.Study(reading=10.2, computations=1, questions=3, widgets=1, operations=20)
    assert s.minutes == round(10.2 + 20 * plan.OPERATION_SECONDS / 60 + 3 * plan.QUESTION_MINUTES + plan.WIDGET_MINUTES)
