"""The marker kinds of every page, in one table: kind -> handler, block or inline, expands or not.

The grammar and the dispatcher are :mod:`coursebuild.pages.markers`; each handler lives with
the data it reads (docstrings there say what each takes). :func:`context` makes the
:class:`~coursebuild.pages.markers.Context` of a page (or a question, a handout) with this table;
a handler that expands the markers of text it reads calls ``ctx.render(text)``.
"""

from __future__ import annotations

from ..content import glossary, questions, references, selfcheck
from ..outputs import editions
from . import code, get_code, nav, plan, results, widgets
from .markers import Context, Kind
from .markers import render as _render

_QUESTIONS = {"block": True, "expands": True, "source": "docs/questions/"}

KINDS: dict[str, Kind] = {
    "value": Kind(results.value_marker),          # [[value:experiment.path|.3f]], provenance too
    "word": Kind(results.word_marker),            # [[word:experiment.name]], chosen by code
    "colour": Kind(results.colour_marker),        # [[colour:raw]], a figure colour's name
    "table": Kind(results.table_marker, block=True),  # [[table:experiment.table]]
    "fig": Kind(results.fig_marker),              # [[fig:experiment.figure|alt text]]
    "url": Kind(results.url_marker),              # [[url:experiment.figure]]
    "code": Kind(code.code_marker, block=True),   # [[code:module.name]]
    "questions": Kind(questions.questions_marker, **_QUESTIONS),  # [[questions:3|all]]
    "answers": Kind(questions.answers_marker, **_QUESTIONS),      # [[answers:3|all]]
    "assignments": Kind(questions.assignments_marker, **_QUESTIONS),
    "assignment-answers": Kind(questions.assignment_answers_marker, **_QUESTIONS),
    "glossary": Kind(glossary.glossary_marker, block=True),  # [[glossary]]
    "widget": Kind(widgets.widget_marker, block=True),       # [[widget:worked_examples.library|model]]
    "reading-time": Kind(plan.reading_time_marker),  # [[reading-time]], [[reading-time:position]]
    "plan": Kind(plan.plan_marker),  # [[plan:demo-3]], [[plan:study-total]]: teaching times
    "course-plan": Kind(plan.course_plan_marker, block=True),  # [[course-plan]]
    "next-lesson": Kind(nav.next_lesson_marker, block=True),  # [[next-lesson]]: link to what follows
    "references": Kind(references.references_marker, block=True),  # [[references]]: docs/references.yml
    "figure-sources": Kind(references.figure_sources_marker, block=True),  # [[figure-sources]]
    "self-check": Kind(selfcheck.self_check_marker, block=True),  # [[self-check:3]]: docs/questions/self-check.yml
    "get-code": Kind(get_code.get_code_marker),  # [[get-code]], [[get-code:notebooks]], [[get-code:archive]]
    "edition": Kind(editions.edition_marker),  # [[edition:student]] … [[edition:end]] (editions.select)
}


def context(lang: str, **fields) -> Context:
    """The context of one page (or question, handout) in ``lang``, knowing every kind above."""
    return Context(lang=lang, kinds=KINDS, **fields)


def render(markdown: str, ctx: Context) -> str:
    """Expand every marker of ``markdown`` for ``ctx`` (:func:`coursebuild.pages.markers.render`)."""
    return _render(markdown, ctx)
