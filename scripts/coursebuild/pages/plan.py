r"""Teaching times, computed: each lesson's study time, the demonstration tips' lengths, the
50- and 90-minute plans' blocks, and the plan that covers the whole course (``[[plan:…]]``,
``[[course-plan]]``). Every minute is counted by one of these stated rules from what a learner
actually does, so the guide types none.

Study time of a lesson (shown under its title beside the reading time, ``[[reading-time]]``) is
its reading time (:mod:`coursebuild.reading`) plus:

- its hand computations, timed by their operations: a displayed formula of the core text
  (outside folded boxes and code) whose result is a number of the build (a ``[[value:…]]``
  after its last ``=`` or ``\approx``) and which writes at least one operation is redone on
  paper. Its operations are those it writes (each ``\times``, ``\cdot``, ``+``, ``/``,
  ``\frac``, ``\sqrt`` and power ``^``) plus one for each number of its result; a formula that
  works out one entry of a matrix or list of the build (``scores.0.0``) stands for every entry
  of it, as the lesson then fills the whole table. Each operation takes
  :data:`OPERATION_SECONDS`. A formula that only states numbers (a given matrix, a row of
  weights) is not counted;
- :data:`QUESTION_MINUTES` for each check question (read it, work it, compare with the hint);
- :data:`WIDGET_MINUTES` for each widget (try its controls a few times and read what changes).

A demonstration tip's length is the sum of its steps' minutes, written in each step as
"(2 min)" / "(2분)" in the instructor guide (``[[plan:demo-3]]``, ``[[plan:demo-total]]``).

A lab notebook's time (:func:`notebook_minutes`) is its text cells at the reading rate plus, for
each code cell, its run time in the notebook the build executed (``metadata.execution``, where
the build has it) and :data:`CODE_CELL_MINUTES` to read the output and change one thing.

The plan for the whole course (``[[course-plan]]``) is a flipped class: before each session of
:data:`coursebuild.course.SESSIONS` learners read its lessons and follow their hand computations;
in class every lesson gets its stop question (:data:`STOP_MINUTES`), its demonstration tip and
:data:`CLASS_QUESTIONS` of its check questions worked in pairs, then the lab notebook the session
names, with a break half-way through a session of three or more lessons; after it, each lesson's
remaining check questions, its self-checked questions (:data:`SELF_CHECK_MINUTES`), its widgets,
its folded boxes (read at the reading rate), the lab notebooks not run in class, and the
assignments whose lessons the session finished (named, not timed: they depend on the student's
runs). Every activity of every lesson is thus in one place; the time table's rows
(``[[plan:…-total]]``) are these same activities summed, so before + class + after is the table's
total.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from dataclasses import dataclass
from datetime import datetime

from ..course import LESSONS, SESSIONS, SLUGS
from ..paths import DOCS, LANGS, REPO_ROOT
from ..content import questions, selfcheck, ui
from ..text import markdown
from ..text.numbers import count_word
from . import reading
from . import results as results_lookup

OPERATION_SECONDS = 6     # one operation by hand: a product or sum of two short numbers, written down
QUESTION_MINUTES = 4
SELF_CHECK_MINUTES = 2    # a self-checked question: answer, submit, read the explanation
WIDGET_MINUTES = 3
CODE_CELL_MINUTES = 2     # beside its run time: read its output and change one thing
STOP_MINUTES = 3          # the question, 30 seconds with a neighbour, two or three answers
CLASS_QUESTIONS = 2       # check questions worked in pairs in class, per lesson
BREAK_MINUTES = 10
# the Colab codes of the 50- and 90-minute plans: the lesson 2 snippet, tried with a few slips;
# and one section of a lab notebook, set up, run and talked over. Its run gets a budget for
# Colab (a fresh runtime installs and starts slower than the build), beside the run time the
# build measured, which the guide states too (colab_run_minutes)
COLAB_FIRST_MINUTES = 10
COLAB_SECOND = 9          # its lesson; the section is the ui text plan.colab_section
COLAB_SETUP_MINUTES = 5   # open the notebook in Colab, connect, run the cells before the section
COLAB_RUN_MINUTES = 8     # the run's budget in Colab
COLAB_TALK_MINUTES = 12   # predict while it runs, then read the results together
# the 50- and 90-minute plans' blocks (COURSE_SPEC's), in order: minutes, or "colab" (the second
# Colab code: setup, run budget, talk); the 50-minute plan's last block works PLAN_50_QUESTIONS
# check questions at QUESTION_MINUTES each (lesson 9's question is worked in the block before)
PLANS = {50: (5, 15, 10, 10, 5, 5), 90: (15, 20, 15, "colab", 15)}
PLAN_50_QUESTIONS = 1

GUIDE = "teaching/instructor-guide.md"
_STEP = re.compile(r"\((\d+) ?(?:min|분)\)")
_VALUE_RESULT = re.compile(r"(?:=|\\approx)[^=]*\[\[value:")
_RESULT_SIGN = re.compile(r"=|\\approx")
_VALUE_KEY = re.compile(r"\[\[value:([^\]|]+)(?:\|[^\]]*)?\]\]")
_ANY_MARKER = re.compile(r"\[\[[^\]]*\]\]")
_OPERATOR = re.compile(r"\\times|\\cdot|\\frac|\\sqrt|\+|/|\^")
_LESSON_LINK = re.compile(r"\.\./lessons/([\w-]+)\.md")
# a widget element written into the page as HTML (lesson 8's decoder): any tag with data-widget
_WIDGET_HTML = re.compile(r"<[A-Za-z][\w-]*\s[^>]*\bdata-widget=")


# ---------------------------------------------------------------- hand computations

def _parent(key: str) -> str | None:
    """``worked_examples.sdpa.scores.0.0`` → ``worked_examples.sdpa.scores``: the list the
    result is an entry of (None when the key ends in no index)."""
    parts = key.split(".")
    k = len(parts)
    while k > 2 and parts[k - 1].lstrip("-").isdigit():
        k -= 1
    return ".".join(parts[:k]) if k < len(parts) else None


def _leaves(value) -> int:
    return sum(_leaves(v) for v in value) if isinstance(value, (list, tuple)) else 1


def formula_operations(formula: str, results: dict | None = None) -> int:
    """A displayed formula's operations by the module's rule (0: not a hand computation)."""
    signs = list(_RESULT_SIGN.finditer(formula))
    if not signs:
        return 0
    keys = _VALUE_KEY.findall(formula[signs[-1].end():])
    if not keys:
        return 0
    written = len(_OPERATOR.findall(_ANY_MARKER.sub(" N ", formula[:signs[-1].start()])))
    if written == 0:
        return 0
    repeat = 1
    parents = {_parent(k.strip()) for k in keys}
    if results and len(parents) == 1 and None not in parents:
        try:
            size = _leaves(results_lookup.value(results, parents.pop()))
        except (KeyError, ValueError):
            size = 0
        if size > len(keys):
            repeat = size // len(keys)
    return (written + len(keys)) * repeat


def _math_blocks(text: str) -> list[str]:
    return [b.formula for b in markdown.blocks(text) if b.kind == "math" and _VALUE_RESULT.search(b.formula)]


def computations(text: str, results: dict | None = None) -> tuple[int, int]:
    """(hand computations, their operations) of a page's core text: its top-level ``math``
    blocks (:mod:`coursebuild.text.markdown`) that the rule counts."""
    ops = [formula_operations(f, results) for f in _math_blocks(text)]
    ops = [o for o in ops if o]
    return len(ops), sum(ops)


def widgets(text: str) -> int:
    """The widgets a page shows: each ``[[widget:…]]`` marker and each element written as HTML
    with a ``data-widget`` attribute (what the page scripts attach to), outside code fences;
    folded boxes included. Counted from the page itself, so a widget added to it is counted."""
    def count(found) -> int:
        return sum(1 if b.kind == "marker" and b.name == "widget"
                   else len(_WIDGET_HTML.findall(b.text)) if b.kind == "html"
                   else count(b.body) if b.kind == "folded" else 0 for b in found)
    return count(markdown.blocks(text))


def folded_boxes(text: str, lang: str) -> tuple[int, float]:
    """(folded boxes, minutes to read them) of a page: every ``??? note`` box outside code, its
    text at the reading rate (:func:`coursebuild.pages.reading.measure` of its lines)."""
    found, minutes = 0, 0.0

    def walk(blocks):
        nonlocal found, minutes
        for b in blocks:
            if b.kind == "folded":
                found += 1
                body = [line[b.indent + 4:] if line.startswith(" " * (b.indent + 4)) else line.lstrip()
                        for line in b.lines[1:]]
                minutes += reading.measure("\n".join(body), lang).minutes_exact
    walk(markdown.blocks(text))
    return found, minutes


def questions_of(number: int) -> int:
    return len(questions.load().get(number, {}).get("questions", []))


def self_checks_of(number: int) -> int:
    return len(selfcheck.load().get(number, []))


@dataclass(frozen=True)
class Study:
    reading: float
    computations: int
    questions: int
    widgets: int
    operations: int = 0

    @property
    def computing_minutes(self) -> float:
        return self.operations * OPERATION_SECONDS / 60

    @property
    def minutes_exact(self) -> float:
        return (self.reading + self.computing_minutes
                + QUESTION_MINUTES * self.questions + WIDGET_MINUTES * self.widgets)

    @property
    def minutes(self) -> int:
        return max(1, math.floor(self.minutes_exact + 0.5))


_STUDY: dict = {}


def study(slug: str, lang: str, results: dict | None = None) -> Study:
    if slug not in SLUGS:
        raise KeyError(f"no lesson '{slug}'; lessons: {', '.join(SLUGS)}")
    path = reading.lesson_source(slug, lang)
    key = (slug, lang, path.stat().st_mtime, id(results))
    if key not in _STUDY:
        text = path.read_text(encoding="utf-8")
        c, ops = computations(text, results)
        _STUDY[key] = Study(reading=reading.measure(text, lang).minutes_exact, computations=c,
                            questions=questions_of(SLUGS.index(slug) + 1), widgets=widgets(text),
                            operations=ops)
    return _STUDY[key]


def computing_minutes(s: Study) -> int:
    """A lesson's hand computations in whole minutes (at least 1 when it has any)."""
    return max(1, math.floor(s.computing_minutes + 0.5)) if s.operations else 0


# ---------------------------------------------------------------- demonstrations

def demo_steps(lang: str) -> dict[int, list[int]]:
    """{lesson number: its demonstration tip's step minutes} from the guide in ``lang``."""
    text = (DOCS / lang / GUIDE).read_text(encoding="utf-8")
    out = {}
    for n in range(1, len(LESSONS) + 1):
        m = re.search(r"\{ #lesson-%d-demo \}\n(.*?)(?=\n### |\n## )" % n, text, re.S)
        if m is None:
            raise KeyError(f"docs/{lang}/{GUIDE}: no demonstration tip {{ #lesson-{n}-demo }}")
        steps = [int(x) for x in _STEP.findall(m[1])]
        if not steps:
            raise ValueError(f"docs/{lang}/{GUIDE}: lesson {n}'s demonstration tip gives no step its "
                             "minutes; write them as '(2 min)' / '(2분)'")
        out[n] = steps
    return out


def demo_minutes(lang: str) -> dict[int, int]:
    return {n: sum(s) for n, s in demo_steps(lang).items()}


# ---------------------------------------------------------------- lab notebooks

def _seconds(cell: dict) -> float | None:
    """A code cell's run time in the executed notebook (nbclient's record_timing), or None."""
    ex = (cell.get("metadata") or {}).get("execution") or {}
    start, end = ex.get("iopub.execute_input"), ex.get("shell.execute_reply")
    if not (start and end):
        return None
    parse = lambda t: datetime.fromisoformat(t.replace("Z", "+00:00"))  # noqa: E731
    return max(0.0, (parse(end) - parse(start)).total_seconds())


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def notebook_cells(number: int, lang: str) -> list[tuple[str, str, float | None]]:
    """Lesson ``number``'s lab notebook in ``lang`` as (kind, text, run seconds) cells: the one
    the build executed (the page, ``docs/<lang>/notebooks/``) where it exists, else the source."""
    lesson = LESSONS[number - 1]
    executed = DOCS / lang / "notebooks" / f"{lesson.notebook}.ipynb"
    if executed.is_file():
        nb = json.loads(executed.read_text(encoding="utf-8"))
        return [("markdown" if c["cell_type"] == "markdown" else "code", _source(c),
                 _seconds(c) if c["cell_type"] == "code" else None)
                for c in nb.get("cells", []) if c["cell_type"] in ("markdown", "code")]
    source = (REPO_ROOT / "tutorial_code" / "notebooks" / lesson.notebook_source).read_text(encoding="utf-8")
    parts = re.split(r"^# %%(.*)$", source, flags=re.M)
    out = []
    for head, body in zip(parts[1::2], parts[2::2]):
        if "[markdown]" in head:
            if f'lang="{lang}"' in head or "lang=" not in head:
                out.append(("markdown", "\n".join(re.sub(r"^# ?", "", ln) for ln in body.split("\n")), None))
        elif body.strip():
            out.append(("code", body, None))
    return out


def _section(cells, title: str):
    """The cells of the ``## <title…>`` section: from its heading to the next ``##`` heading."""
    start = next((i for i, (kind, text, _) in enumerate(cells) if kind == "markdown"
                  and re.search(r"^##\s+" + re.escape(title), text, re.M)), None)
    if start is None:
        raise KeyError(f"no section '## {title}…' in the notebook")
    end = next((i for i in range(start + 1, len(cells)) if cells[i][0] == "markdown"
                and re.search(r"^##\s", cells[i][1], re.M)), len(cells))
    return cells[start:end]


def _cells_minutes(cells, lang: str) -> float:
    read = reading.measure("\n\n".join(text for kind, text, _ in cells if kind == "markdown"), lang)
    code = [s for kind, _, s in cells if kind == "code"]
    return (read.units / reading.RATES[lang] + read.figures + read.tables
            + CODE_CELL_MINUTES * len(code) + sum(s or 0.0 for s in code) / 60)


def notebook_minutes(number: int, lang: str) -> int:
    """The lab notebook of lesson ``number``: its text cells read, and each code cell run."""
    return max(1, math.floor(_cells_minutes(notebook_cells(number, lang), lang) + 0.5))


def notebook_run_seconds(number: int, lang: str, section: str | None = None) -> float:
    """The build's run time of a notebook's code cells (those of one ``##`` section)."""
    cells = notebook_cells(number, lang)
    cells = _section(cells, section) if section else cells
    return sum(s or 0.0 for kind, _, s in cells if kind == "code")


def colab_run_minutes(lang: str) -> int:
    return max(1, math.ceil(notebook_run_seconds(COLAB_SECOND, lang, ui.text(lang, "plan.colab_section")) / 60))


def colab_second_minutes(lang: str | None = None) -> int:
    return COLAB_SETUP_MINUTES + COLAB_RUN_MINUTES + COLAB_TALK_MINUTES


# ---------------------------------------------------------------- the 50- and 90-minute plans

def plan_blocks(length: int, lang: str | None = None) -> list[int]:
    """The minutes of each block of the ``length``-minute plan (:data:`PLANS`)."""
    blocks = [colab_second_minutes() if b == "colab" else b for b in PLANS[length]]
    if sum(blocks) != length:
        raise ValueError(f"the {length}-minute plan's blocks {blocks} add up to {sum(blocks)}")
    if length == 50 and blocks[-1] < PLAN_50_QUESTIONS * QUESTION_MINUTES:
        raise ValueError(f"the 50-minute plan's last block ({blocks[-1]} min) is too short for "
                         f"{PLAN_50_QUESTIONS} check questions at {QUESTION_MINUTES} min")
    return blocks


def plan_span(length: int, k: int, lang: str) -> str:
    blocks = plan_blocks(length, lang)
    if not 1 <= k <= len(blocks):
        raise KeyError(f"the {length}-minute plan has blocks 1 to {len(blocks)}, not {k}")
    start = sum(blocks[:k - 1])
    return f"{start}–{start + blocks[k - 1]}"


# ---------------------------------------------------------------- the whole course

@dataclass(frozen=True)
class Activity:
    minutes: int
    what: dict        # {"ko": ..., "en": ...}, Markdown
    link: dict        # {"ko": ..., "en": ...}: where it is, Markdown links relative to the guide


def _lesson_link(n: int, anchor: str = "") -> str:
    return f"../lessons/{LESSONS[n - 1].slug}.md{anchor}"


def _break_after(index: int) -> int | None:
    """The position of the lesson a session breaks after (half-way through 3 or more), or None."""
    lessons = SESSIONS[index].lessons
    return (len(lessons) + 1) // 2 - 1 if len(lessons) >= 3 else None


def session_activities(index: int, lang: str) -> list[Activity]:
    lessons, lab = SESSIONS[index].lessons, SESSIONS[index].lab
    demos = demo_minutes(lang)
    break_after = _break_after(index)
    acts = []
    for k, n in enumerate(lessons):
        title = {l: LESSONS[n - 1].title[l] for l in ("ko", "en")}
        acts.append(Activity(STOP_MINUTES,
                             ui.both("plan.stop", n=n),
                             {l: f"[{t}](#lesson-{n}-stop)" for l, t in ui.both("plan.stop_link", n=n).items()}))
        acts.append(Activity(demos[n],
                             {l: ui.text(l, "plan.demo", n=n, title=title[l]) for l in LANGS},
                             {l: f"[{t}](#lesson-{n}-demo)" for l, t in ui.both("plan.demo_link", n=n).items()}))
        acts.append(Activity(min(CLASS_QUESTIONS, questions_of(n)) * QUESTION_MINUTES,
                             ui.both("plan.questions", n=n, count=min(CLASS_QUESTIONS, questions_of(n))),
                             {l: f"[{t}]({_lesson_link(n, '#check-questions')})"
                              for l, t in ui.both("plan.questions_link", n=n).items()}))
        if k == break_after:
            acts.append(Activity(BREAK_MINUTES, ui.both("plan.break"),
                                 {"ko": "", "en": ""}))
    nb = LESSONS[lab - 1].notebook
    acts.append(Activity(notebook_minutes(lab, lang),
                         ui.both("plan.notebook", n=lab),
                         {l: f"[{t}](../notebooks/{nb}.ipynb)" for l, t in ui.both("plan.notebook_link", n=lab).items()}))
    return acts


def session_minutes(index: int, lang: str) -> int:
    return sum(a.minutes for a in session_activities(index, lang))


@dataclass(frozen=True)
class Homework:
    """What one lesson leaves for after its session, in whole minutes each."""
    lesson: int
    questions: int
    self_checks: int
    widgets: int
    folded: int
    folded_minutes: int
    notebook: int          # its lab notebook's minutes when the session does not run it, else 0

    @property
    def minutes(self) -> int:
        return ((self.questions * QUESTION_MINUTES) + self.self_checks * SELF_CHECK_MINUTES
                + self.widgets * WIDGET_MINUTES + self.folded_minutes + self.notebook)


def homework(n: int, lang: str) -> Homework:
    text = reading.lesson_source(LESSONS[n - 1].slug, lang).read_text(encoding="utf-8")
    folded, folded_exact = folded_boxes(text, lang)
    in_class = any(s.lab == n for s in SESSIONS)
    return Homework(n, max(0, questions_of(n) - CLASS_QUESTIONS), self_checks_of(n), widgets(text),
                    folded, max(1, math.floor(folded_exact + 0.5)) if folded else 0,
                    0 if in_class else notebook_minutes(n, lang))


def assignments_after(index: int) -> list[int]:
    """The assignments (numbered from 1) to set after session ``index``: those whose task's
    latest linked lesson the session teaches (an assignment that links none: after the last)."""
    out = []
    for k, a in enumerate(questions.load_assignments(), 1):
        linked = [SLUGS.index(s) + 1 for s in _LESSON_LINK.findall(a["task"]["en"]) if s in SLUGS]
        if (max(linked) if linked else LESSONS[-1].number) in SESSIONS[index].lessons:
            out.append(k)
    return out


def before_minutes(index: int, lang: str, results: dict | None) -> tuple[int, int]:
    """(reading, hand computations) of a session's lessons, read before it."""
    lessons = SESSIONS[index].lessons
    return (sum(reading.lesson_reading(LESSONS[n - 1].slug, lang).minutes for n in lessons),
            sum(computing_minutes(study(LESSONS[n - 1].slug, lang, results)) for n in lessons))


def after_minutes(index: int, lang: str) -> int:
    return sum(homework(n, lang).minutes for n in SESSIONS[index].lessons)


def _lesson_range(lessons: tuple[int, ...], lang: str) -> str:
    """1–3강 / lessons 1–3; one lesson: 10강 / lesson 10; two: 4·5강 / lessons 4 and 5."""
    if len(lessons) == 1:
        return ui.text(lang, "plan.range_one", n=lessons[0])
    if len(lessons) == 2:
        return ui.text(lang, "plan.range_two", first=lessons[0], second=lessons[1])
    return ui.text(lang, "plan.range_many", first=lessons[0], last=lessons[-1])


def course_plan(lang: str, results: dict | None = None) -> str:
    """The whole-course plan: for each session, what to do before, a timed table, what after."""
    out = []
    for k, session in enumerate(SESSIONS):
        lessons = session.lessons
        acts = session_activities(k, lang)
        total = sum(a.minutes for a in acts)
        title = ui.text(lang, "plan.session_title", k=k + 1, lessons=_lesson_range(lessons, lang), total=total)
        out.append(f"### {title} {{ #plan-course-{k + 1} }}")
        out.append("")
        names = [f"[{ui.text(lang, 'plan.lesson_link', n=n)}]({_lesson_link(n)})" for n in lessons]
        joined = names[0] if len(names) == 1 else ui.text(
            lang, "plan.lessons_last", rest=ui.text(lang, "plan.lessons_separator").join(names[:-1]), last=names[-1])
        read, computing = before_minutes(k, lang, results)
        out.append(ui.text(lang, "plan.before", lessons=joined, reading=read, computing=computing) if computing
                   else ui.text(lang, "plan.before_reading", lessons=joined, reading=read))
        out.append("")
        out.append(f"| {ui.text(lang, 'plan.column_minutes')} | {ui.text(lang, 'plan.column_activity')} | "
                   f"{ui.text(lang, 'plan.column_where')} |\n|:---|:---|:---|")
        t = 0
        for a in acts:
            out.append(f"| {t}–{t + a.minutes} | {a.what[lang]} | {a.link[lang]} |")
            t += a.minutes
        out.append("")
        out.append(ui.text(lang, "plan.after_title", minutes=after_minutes(k, lang)))
        out.append("")
        for n in lessons:
            h = homework(n, lang)
            name = ui.text(lang, "plan.lesson_link", n=n)
            link = f"[{name[:1].upper() + name[1:]}]({_lesson_link(n)})"  # it starts the item
            out.append("- " + ui.text(lang, "plan.after_lesson", lesson=link, q=h.questions, s=h.self_checks,
                                      w=h.widgets, f=h.folded, minutes=h.minutes - h.notebook))
            if h.notebook:
                nb = f"[{ui.text(lang, 'plan.notebook_link', n=n)}](../notebooks/{LESSONS[n - 1].notebook}.ipynb)"
                out.append("- " + ui.text(lang, "plan.after_notebook", notebook=nb, minutes=h.notebook))
        for a in assignments_after(k):
            out.append("- " + ui.text(lang, "plan.after_assignment",
                                      assignment=f"[{ui.text(lang, 'questions.assignment', n=a)}](exercises.md#assignment-{a})"))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def totals(lang: str, results: dict | None = None) -> dict[str, int]:
    """The time table's rows: every activity of every lesson, summed, in whole minutes."""
    n_lessons = range(1, len(LESSONS) + 1)
    hw = [homework(n, lang) for n in n_lessons]
    sessions = range(len(SESSIONS))
    t = {
        "reading": sum(reading.lesson_reading(s, lang).minutes for s in SLUGS),
        "computations": sum(computing_minutes(study(s, lang, results)) for s in SLUGS),
        "stops": STOP_MINUTES * len(LESSONS),
        "demos": sum(demo_minutes(lang).values()),
        "questions": QUESTION_MINUTES * sum(questions_of(n) for n in n_lessons),
        "self-checks": SELF_CHECK_MINUTES * sum(h.self_checks for h in hw),
        "widgets": WIDGET_MINUTES * sum(h.widgets for h in hw),
        "folded": sum(h.folded_minutes for h in hw),
        "notebooks": sum(notebook_minutes(n, lang) for n in n_lessons),
        "breaks": BREAK_MINUTES * sum(1 for k in sessions if _break_after(k) is not None),
    }
    t["before"] = sum(sum(before_minutes(k, lang, results)) for k in sessions)
    t["class"] = sum(session_minutes(k, lang) for k in sessions)
    t["after"] = sum(after_minutes(k, lang) for k in sessions)
    rows = ("reading", "computations", "stops", "demos", "questions", "self-checks", "widgets",
            "folded", "notebooks", "breaks")
    t["total"] = t["before"] + t["class"] + t["after"]
    if sum(t[r] for r in rows) != t["total"]:
        raise ValueError(f"the time table's rows ({sum(t[r] for r in rows)}) and the plan "
                         f"(before + class + after = {t['total']}) disagree")
    return t


def plan_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[plan:<what>]]``: ``lesson-count`` / ``session-count`` (how many lessons, how many
    sessions in the whole-course plan, as words: 아홉 / nine); ``demo-N`` (a demonstration
    tip's minutes); the time table's rows, every lesson's summed: ``reading-total``,
    ``computations-total`` (with ``operation-count``), ``stop-total``, ``demo-total``,
    ``questions-total``, ``self-check-total``, ``widgets-total``, ``folded-total``,
    ``notebooks-total``, ``breaks-total``, and where they happen, ``before-total``,
    ``class-total`` (= ``course-total``), ``after-total``, ``time-total`` (their sum); the counts
    ``question-count``, ``class-question-count``, ``self-check-count``, ``widget-count``,
    ``folded-count``, ``notebook-count``, ``class-notebook-count``; the rules' minutes
    (``question-minutes``, ``stop-minutes``, ``break-minutes``, ``code-cell-minutes``,
    ``operation-seconds``, ``widget-minutes``, ``self-check-minutes``) and ``class-questions``
    (check questions worked in class per lesson); ``colab-first``, ``colab-setup``,
    ``colab-run`` (the second code's run budget), ``colab-measured`` (its run time in the build),
    ``colab-talk``, ``colab-second``, ``plan-50-questions``,
    ``colab-total``; ``span-50-K`` / ``span-90-K`` (block K of the 50- or 90-minute plan, as
    "start–end"); ``study-<slug>`` / ``study-total``; ``session-N`` (a session's minutes); the
    plan itself is the block ``[[course-plan]]``."""
    if fmt is not None:
        raise ValueError(f"takes no format after '|' (got '{fmt}')")
    what = (arg or "").strip()
    lang, res = ctx.lang, getattr(ctx, "results", None)
    demos = lambda: demo_minutes(lang)  # noqa: E731
    n_questions = lambda: sum(questions_of(l.number) for l in LESSONS)  # noqa: E731
    total = lambda key: lambda: totals(lang, res)[key]  # noqa: E731
    hw = lambda: [homework(l.number, lang) for l in LESSONS]  # noqa: E731
    simple = {
        "demo-total": total("demos"),
        "reading-total": total("reading"),
        "computations-total": total("computations"),
        "stop-total": total("stops"),
        "questions-total": total("questions"),
        "self-check-total": total("self-checks"),
        "widgets-total": total("widgets"),
        "folded-total": total("folded"),
        "notebooks-total": total("notebooks"),
        "breaks-total": total("breaks"),
        "before-total": total("before"),
        "class-total": total("class"),
        "after-total": total("after"),
        "time-total": total("total"),
        "course-total": total("class"),
        "study-total": lambda: sum(study(s, lang, res).minutes for s in SLUGS),
        "question-count": n_questions,
        "class-question-count": lambda: sum(min(CLASS_QUESTIONS, questions_of(l.number)) for l in LESSONS),
        "self-check-count": lambda: sum(h.self_checks for h in hw()),
        "widget-count": lambda: sum(h.widgets for h in hw()),
        "folded-count": lambda: sum(h.folded for h in hw()),
        "notebook-count": lambda: len(LESSONS),
        "class-notebook-count": lambda: len(SESSIONS),
        "operation-count": lambda: sum(study(s, lang, res).operations for s in SLUGS),
        "colab-first": lambda: COLAB_FIRST_MINUTES,
        "colab-setup": lambda: COLAB_SETUP_MINUTES,
        "colab-run": lambda: COLAB_RUN_MINUTES,
        "colab-measured": lambda: colab_run_minutes(lang),
        "plan-50-questions": lambda: PLAN_50_QUESTIONS,
        "colab-talk": lambda: COLAB_TALK_MINUTES,
        "colab-second": lambda: colab_second_minutes(lang),
        "colab-total": lambda: COLAB_FIRST_MINUTES + colab_second_minutes(lang),
        "question-minutes": lambda: QUESTION_MINUTES,
        "stop-minutes": lambda: STOP_MINUTES,
        "break-minutes": lambda: BREAK_MINUTES,
        "code-cell-minutes": lambda: CODE_CELL_MINUTES,
        "operation-seconds": lambda: OPERATION_SECONDS,
        "widget-minutes": lambda: WIDGET_MINUTES,
        "self-check-minutes": lambda: SELF_CHECK_MINUTES,
        "class-questions": lambda: CLASS_QUESTIONS,
        "lesson-count": lambda: count_word(len(LESSONS), lang),
        "session-count": lambda: count_word(len(SESSIONS), lang),
    }
    if what in simple:
        return str(simple[what]())
    m = re.fullmatch(r"demo-(\d+)", what)
    if m and 1 <= int(m[1]) <= len(LESSONS):
        return str(demos()[int(m[1])])
    m = re.fullmatch(r"session-(\d+)", what)
    if m and 1 <= int(m[1]) <= len(SESSIONS):
        return str(session_minutes(int(m[1]) - 1, lang))
    m = re.fullmatch(r"span-(\d+)-(\d+)", what)
    if m and int(m[1]) in PLANS:
        return plan_span(int(m[1]), int(m[2]), lang)
    m = re.fullmatch(r"study-([\w-]+)", what)
    if m and m[1] in SLUGS:
        return str(study(m[1], lang, res).minutes)
    choices = (list(simple) + [f"demo-{n}" for n in range(1, len(LESSONS) + 1)] + [f"study-{s}" for s in SLUGS]
               + [f"span-{p}-{k}" for p in PLANS for k in range(1, len(PLANS[p]) + 1)])
    close = difflib.get_close_matches(what, choices, n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    raise KeyError(f"no plan time '{what}'.{hint} Known: {', '.join(sorted(simple))}, demo-N, study-<lesson>, "
                   "session-N, span-50-K, span-90-K")


# ---------------------------------------------------------------- reading times in a page

def _reading_minutes(slug: str, lang: str, ids: list[str] | None) -> int:
    r = reading.section_reading(slug, lang, ids) if ids else reading.lesson_reading(slug, lang)
    return r.minutes


def reading_time_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[reading-time]]``: this page's line under its title. ``[[reading-time:<slug>]]``: that
    lesson's minutes in the page's language; ``[[reading-time:total]]``: the lessons' sum (of the
    minutes each page shows); ``[[reading-time:each]]``: every lesson's, in a list ("1강 15분,
    2강 12분, …" / "lesson 1: 15 min; lesson 2: 12 min; …"); ``[[reading-time:rate-en]]`` and
    ``[[reading-time:rate-ko]]``: the reading rates themselves (words, syllables a minute). After
    ``|``, a comma-separated list of section ids counts only those sections:
    ``[[reading-time:total|motivation,worked-example]]``."""
    ids = [i.strip() for i in fmt.split(",") if i.strip()] if fmt else None
    if arg is None:
        if ids:
            raise ValueError("[[reading-time]] (this page) takes no sections; name a lesson: "
                             "[[reading-time:<slug>|motivation,...]]")
        path = (REPO_ROOT / ctx.page).resolve()
        if not path.is_file():
            raise ValueError(f"cannot read the page's source {ctx.page} to time it")
        minutes = reading.measure(path.read_text(encoding="utf-8"), ctx.lang).minutes
        shown = f'<span class="reading-time">{ui.text(ctx.lang, "reading.shown", n=minutes)}</span>'
        slug = path.stem
        if path.parent.name == "lessons" and slug in SLUGS:
            s = study(slug, ctx.lang, getattr(ctx, "results", None))
            title = ui.text(ctx.lang, "reading.study_title", c=s.computations, o=s.operations,
                            q=s.questions, w=s.widgets)
            shown += (f' · <span class="study-time" title="{title}">'
                      f'{ui.text(ctx.lang, "reading.study_shown", n=s.minutes)}</span>')
        return shown
    arg = arg.strip()
    if arg in ("rate-en", "rate-ko"):
        if ids:
            raise ValueError(f"[[reading-time:{arg}]] takes no sections")
        return str(reading.RATES[arg.removeprefix("rate-")])
    if arg == "total":
        return str(sum(_reading_minutes(s, ctx.lang, ids) for s in SLUGS))
    if arg == "each":
        each = [(lesson.number, _reading_minutes(lesson.slug, ctx.lang, ids)) for lesson in LESSONS]
        return ui.text(ctx.lang, "reading.each_separator").join(
            ui.text(ctx.lang, "reading.each_item", n=n, m=m) for n, m in each)
    if arg not in SLUGS:
        close = difflib.get_close_matches(arg, list(SLUGS) + ["total", "each", "rate-en", "rate-ko"], n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        raise KeyError(f"no lesson '{arg}'.{hint} Lessons: {', '.join(SLUGS)}, or 'total', 'each', 'rate-en', 'rate-ko'")
    return str(_reading_minutes(arg, ctx.lang, ids))


def course_plan_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[course-plan]]``: the whole-course plan, a block (:func:`course_plan`)."""
    if arg is not None or fmt is not None:
        raise ValueError("takes no argument and no format: [[course-plan]]")
    return course_plan(ctx.lang, getattr(ctx, "results", None))
