"""Teaching times, computed: each lesson's study time, the demonstration tips' lengths, the time
table's sums and the plan that covers the whole course (``[[plan:…]]`` markers).

Study time of a lesson (shown under its title beside the reading time, ``[[reading-time]]``) is
its reading time (:mod:`coursebuild.reading`) plus, by these stated rules:

- :data:`COMPUTATION_MINUTES` for each hand computation the lesson works through: a displayed
  formula of the core text whose result is a number of the build (its right-hand side holds a
  ``[[value:…]]`` marker), which the reader is meant to redo on paper;
- :data:`QUESTION_MINUTES` for each check question (read it, work it, compare with the hint);
- :data:`WIDGET_MINUTES` for each widget (try its controls a few times and read what changes).

A demonstration tip's length is the sum of its steps' minutes, written in each step as
"(2 min)" / "(2분)" in the instructor guide (``[[plan:demo-3]]``, ``[[plan:demo-total]]``).

A lab notebook's time (:func:`notebook_minutes`) is its text cells at the reading rate plus
:data:`CODE_CELL_MINUTES` for each code cell (run it, read its output, change one thing).

The plan for the whole course (``[[course-plan]]``) has the sessions of
:data:`coursebuild.course.SESSIONS` (each lesson's row says which session teaches it). In each
session every lesson gets its stop question (:data:`STOP_MINUTES`), its demonstration tip (its
own length) and :data:`CLASS_QUESTIONS` of its check questions worked in pairs; then the lab
notebook the session names, and a break half-way through a session of three or more lessons.
Learners read the session's lessons before it and do the remaining check questions after it.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from functools import lru_cache

from ..course import LESSONS, SESSIONS, SLUGS
from ..paths import DOCS, LANGS, REPO_ROOT
from ..content import questions, ui
from ..text import markdown
from ..text.numbers import count_word
from . import reading

COMPUTATION_MINUTES = 2
QUESTION_MINUTES = 4
WIDGET_MINUTES = 3
CODE_CELL_MINUTES = 2
STOP_MINUTES = 3          # the question, 30 seconds with a neighbour, two or three answers
CLASS_QUESTIONS = 2       # check questions worked in pairs in class, per lesson
BREAK_MINUTES = 10
COLAB_MINUTES = {"first": 10, "second": 20}  # the time table's two Colab codes (the guide says why)

GUIDE = "teaching/instructor-guide.md"
_STEP = re.compile(r"\((\d+) ?(?:min|분)\)")
_VALUE_RESULT = re.compile(r"(?:=|\\approx)[^=]*\[\[value:")
# a widget element written into the page as HTML (lesson 8's decoder): any tag with data-widget
_WIDGET_HTML = re.compile(r"<[A-Za-z][\w-]*\s[^>]*\bdata-widget=")


@dataclass(frozen=True)
class Study:
    reading: float
    computations: int
    questions: int
    widgets: int

    @property
    def minutes_exact(self) -> float:
        return (self.reading + COMPUTATION_MINUTES * self.computations
                + QUESTION_MINUTES * self.questions + WIDGET_MINUTES * self.widgets)

    @property
    def minutes(self) -> int:
        return max(1, math.floor(self.minutes_exact + 0.5))


def computations(text: str) -> int:
    """Displayed formulas of the core text (outside folded boxes and code) whose result is a
    number of the build: the page's top-level ``math`` blocks (:mod:`coursebuild.text.markdown`)."""
    return sum(1 for b in markdown.blocks(text) if b.kind == "math" and _VALUE_RESULT.search(b.formula))


def widgets(text: str) -> int:
    """The widgets a page shows: each ``[[widget:…]]`` marker and each element written as HTML
    with a ``data-widget`` attribute (what the page scripts attach to), outside code fences;
    folded boxes included. Counted from the page itself, so a widget added to it is counted."""
    def count(found) -> int:
        return sum(1 if b.kind == "marker" and b.name == "widget"
                   else len(_WIDGET_HTML.findall(b.text)) if b.kind == "html"
                   else count(b.body) if b.kind == "folded" else 0 for b in found)
    return count(markdown.blocks(text))


def questions_of(number: int) -> int:

    return len(questions.load().get(number, {}).get("questions", []))


@lru_cache(maxsize=64)
def _study(slug: str, lang: str, stamp: float) -> Study:
    text = reading.lesson_source(slug, lang).read_text(encoding="utf-8")
    number = SLUGS.index(slug) + 1
    return Study(reading=reading.measure(text, lang).minutes_exact, computations=computations(text),
                 questions=questions_of(number), widgets=widgets(text))


def study(slug: str, lang: str) -> Study:
    if slug not in SLUGS:
        raise KeyError(f"no lesson '{slug}'; lessons: {', '.join(SLUGS)}")
    return _study(slug, lang, reading.lesson_source(slug, lang).stat().st_mtime)


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


def notebook_minutes(number: int, lang: str) -> int:
    """The lab notebook of lesson ``number``: its text cells read, and each code cell run."""
    lesson = LESSONS[number - 1]
    source = (REPO_ROOT / "tutorial_code" / "notebooks" / lesson.notebook_source).read_text(encoding="utf-8")
    cells = re.split(r"^# %%(.*)$", source, flags=re.M)
    text, code = [], 0
    for head, body in zip(cells[1::2], cells[2::2]):
        if "[markdown]" in head:
            if f'lang="{lang}"' in head or "lang=" not in head:
                text.append("\n".join(re.sub(r"^# ?", "", ln) for ln in body.split("\n")))
        elif body.strip():
            code += 1
    read = reading.measure("\n\n".join(text), lang)
    return max(1, math.floor(read.units / reading.RATES[lang] + read.figures + read.tables
                             + CODE_CELL_MINUTES * code + 0.5))


@dataclass(frozen=True)
class Activity:
    minutes: int
    what: dict        # {"ko": ..., "en": ...}, Markdown
    link: dict        # {"ko": ..., "en": ...}: where it is, Markdown links relative to the guide


def _lesson_link(n: int, anchor: str = "") -> str:
    return f"../lessons/{LESSONS[n - 1].slug}.md{anchor}"


def session_activities(index: int, lang: str) -> list[Activity]:
    lessons, lab = SESSIONS[index].lessons, SESSIONS[index].lab
    demos = demo_minutes(lang)
    break_after = (len(lessons) + 1) // 2 - 1 if len(lessons) >= 3 else None
    acts = []
    for k, n in enumerate(lessons):
        title = {l: LESSONS[n - 1].title[l] for l in ("ko", "en")}
        acts.append(Activity(STOP_MINUTES,
                             ui.both("plan.stop", n=n),
                             {l: f"[{t}](#lesson-{n}-stop)" for l, t in ui.both("plan.stop_link", n=n).items()}))
        acts.append(Activity(demos[n],
                             {l: ui.text(l, "plan.demo", n=n, title=title[l]) for l in LANGS},
                             {l: f"[{t}](#lesson-{n}-demo)" for l, t in ui.both("plan.demo_link", n=n).items()}))
        acts.append(Activity(CLASS_QUESTIONS * QUESTION_MINUTES,
                             ui.both("plan.questions", n=n, count=CLASS_QUESTIONS),
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


def _lesson_range(lessons: tuple[int, ...], lang: str) -> str:
    """1–3강 / lessons 1–3; one lesson: 10강 / lesson 10; two: 4·5강 / lessons 4 and 5."""
    if len(lessons) == 1:
        return ui.text(lang, "plan.range_one", n=lessons[0])
    if len(lessons) == 2:
        return ui.text(lang, "plan.range_two", first=lessons[0], second=lessons[1])
    return ui.text(lang, "plan.range_many", first=lessons[0], last=lessons[-1])


def course_plan(lang: str) -> str:
    """The whole-course plan: for each session, what to read before, a timed table, what after."""
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
        read = sum(reading.lesson_reading(LESSONS[n - 1].slug, lang).minutes for n in lessons)
        out.append(ui.text(lang, "plan.before", lessons=joined, minutes=read))
        out.append("")
        out.append(f"| {ui.text(lang, 'plan.column_minutes')} | {ui.text(lang, 'plan.column_activity')} | "
                   f"{ui.text(lang, 'plan.column_where')} |\n|:---|:---|:---|")
        t = 0
        for a in acts:
            out.append(f"| {t}–{t + a.minutes} | {a.what[lang]} | {a.link[lang]} |")
            t += a.minutes
        out.append("")
        left = sum(max(0, questions_of(n) - CLASS_QUESTIONS) for n in lessons)
        study_sum = sum(study(LESSONS[n - 1].slug, lang).minutes for n in lessons)
        out.append(ui.text(lang, "plan.after", n=left, minutes=left * QUESTION_MINUTES, study=study_sum,
                                      count=count_word(len(lessons), lang)))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def plan_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[plan:<what>]]``: ``lesson-count`` / ``session-count`` (how many lessons, how many
    sessions in the whole-course plan, as words: 아홉 / nine), ``demo-N`` / ``demo-total`` (a
    demonstration tip's minutes, every lesson's),
    ``study-<slug>`` / ``study-total``, ``questions-total`` (every check question's minutes),
    ``question-count``, ``question-minutes`` and the other rules' minutes (``stop-minutes``,
    ``break-minutes``, ``code-cell-minutes``, ``computation-minutes``, ``widget-minutes``) and
    ``class-questions`` (check questions worked in class per lesson), ``colab-first`` / ``colab-second`` / ``colab-total``, ``time-total``
    (the time table's sum: reading, demonstrations, check questions, Colab), ``session-N``
    (a session's minutes), ``course-total``; the plan itself is the block ``[[course-plan]]``."""
    if fmt is not None:
        raise ValueError(f"takes no format after '|' (got '{fmt}')")
    what = (arg or "").strip()
    lang = ctx.lang
    demos = lambda: demo_minutes(lang)  # noqa: E731
    n_questions = lambda: sum(questions_of(l.number) for l in LESSONS)  # noqa: E731
    simple = {
        "demo-total": lambda: sum(demos().values()),
        "study-total": lambda: sum(study(s, lang).minutes for s in SLUGS),
        "question-count": n_questions,
        "questions-total": lambda: QUESTION_MINUTES * n_questions(),
        "colab-first": lambda: COLAB_MINUTES["first"],
        "colab-second": lambda: COLAB_MINUTES["second"],
        "colab-total": lambda: sum(COLAB_MINUTES.values()),
        "time-total": lambda: (sum(reading.lesson_reading(s, lang).minutes for s in SLUGS)
                               + sum(demos().values()) + QUESTION_MINUTES * n_questions()
                               + sum(COLAB_MINUTES.values())),
        "course-total": lambda: sum(session_minutes(k, lang) for k in range(len(SESSIONS))),
        "question-minutes": lambda: QUESTION_MINUTES,
        "stop-minutes": lambda: STOP_MINUTES,
        "break-minutes": lambda: BREAK_MINUTES,
        "code-cell-minutes": lambda: CODE_CELL_MINUTES,
        "computation-minutes": lambda: COMPUTATION_MINUTES,
        "widget-minutes": lambda: WIDGET_MINUTES,
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
    m = re.fullmatch(r"study-([\w-]+)", what)
    if m and m[1] in SLUGS:
        return str(study(m[1], lang).minutes)
    choices = list(simple) + [f"demo-{n}" for n in range(1, len(LESSONS) + 1)] + [f"study-{s}" for s in SLUGS]
    close = difflib.get_close_matches(what, choices, n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    raise KeyError(f"no plan time '{what}'.{hint} Known: lesson-count, session-count, the rules' *-minutes, class-questions, demo-N, demo-total, study-<lesson>, "
                   "study-total, questions-total, question-count, colab-first, colab-second, "
                   "colab-total, time-total, session-N, course-total")


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
            s = study(slug, ctx.lang)
            title = ui.text(ctx.lang, "reading.study_title", c=s.computations, q=s.questions, w=s.widgets)
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
    return course_plan(ctx.lang)
