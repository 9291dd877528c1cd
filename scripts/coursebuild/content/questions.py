"""Check questions, assignments and their answers, kept once in ``docs/questions/``.

A lesson page shows its questions with ``[[questions:2]]`` (hints fold open); the exercises
page shows every lesson's with ``[[questions:all]]``; the instructors' answer key shows the
worked answers with ``[[answers:2]]`` or ``[[answers:all]]``. The two assignments live in
``assignments.yml``: ``[[assignments]]`` shows their tasks, what to hand in and the rubric
(exercises page), ``[[assignment-answers]]`` the rubric and the model answers (answer key).
Each assignment is an ``###`` heading ``{ #assignment-N }``: put the marker under an ``##``
heading of the page. These are block kinds of :mod:`coursebuild.markers` (alone on their line)
whose output is rendered again: answers may hold the experiments' ``[[value:experiment.key]]``
and ``[[table:...]]`` markers, so their numbers come from the build, and tasks
``[[code:module.name]]`` includes. Every text must exist in both languages; a missing one is a
``ValueError`` naming the file, the entry and the field.

Anchors: question or assignment ``id`` gets ``q-<id>`` where it is asked and ``a-<id>`` on
the answer key; ids are unique across all files.

File formats::

    # lesson-02.yml
    lesson: 2
    title: {ko: 도서관 비유, en: The library analogy}
    questions:
      - id: library-dot                 # stable; the anchor is q-library-dot
        ko: 질문 …
        en: Question …
        hint: {ko: …, en: …}           # optional
        answer: {ko: …, en: …}         # worked steps, Markdown

    # assignments.yml (numbered in file order: 과제 1, Assignment 1, ...)
    assignments:
      - id: assignment-unscaled         # anchors q-assignment-unscaled, a-assignment-unscaled
        title: {ko: …, en: …}
        task: {ko: …, en: …}            # Markdown; links are relative to docs/<lang>/teaching/
        hand_in: {ko: …, en: …}         # Markdown
        rubric:                         # criteria, shown as a table with the total
          - {points: 3, ko: …, en: …}
        answer: {ko: …, en: …}          # the model answer, Markdown
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

from ..paths import DOCS, LANGS
from . import ui

FOLDER = DOCS / "questions"
ASSIGNMENTS = "assignments.yml"

def entry_text(entry: dict, key: str, lang: str, where: str) -> str:
    """``entry[key]`` in ``lang`` (or ``entry[key]`` itself when it is one text), stripped;
    ValueError naming ``where`` when it is missing or empty."""
    value = entry.get(key)
    if isinstance(value, dict):
        value = value.get(lang)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: '{key}' needs text in both ko and en (missing {lang})")
    return value.strip()


@lru_cache(maxsize=4)
def _load(folder: Path, stamp: tuple) -> dict[int, dict]:
    lessons, ids = {}, {}
    for path in sorted(folder.glob("lesson-*.yml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise ValueError(f"cannot read {path.name}: {exc}") from exc
        n = data.get("lesson") if isinstance(data, dict) else None
        if not isinstance(n, int) or n in lessons:
            raise ValueError(f"{path.name}: needs a unique integer 'lesson'")
        qs = data.get("questions") or []
        for q in qs:
            where = f"{path.name}, question {q.get('id', '?')}"
            if not re.fullmatch(r"[a-z0-9-]+", str(q.get("id", ""))):
                raise ValueError(f"{where}: 'id' must be lower-case letters, digits and '-'")
            if q["id"] in ids:
                raise ValueError(f"{where}: id also used in {ids[q['id']]}")
            ids[q["id"]] = path.name
            for lang in LANGS:
                entry_text(q, lang, lang, where)
                entry_text(q, "answer", lang, where)
                if "hint" in q:
                    entry_text(q, "hint", lang, where)
        for lang in LANGS:
            entry_text(data, "title", lang, path.name)
        lessons[n] = data
    return lessons


def load(folder: Path = FOLDER) -> dict[int, dict]:
    """{lesson number: its data}, every question checked to have both languages and an answer."""
    stamp = tuple((p.name, p.stat().st_mtime) for p in sorted(folder.glob("lesson-*.yml")))
    return _load(folder, stamp)


@lru_cache(maxsize=4)
def _load_assignments(path: Path, stamp: float, taken: frozenset) -> list[dict]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ValueError(f"cannot read {path.name}: {exc}") from exc
    items = data.get("assignments") if isinstance(data, dict) else None
    if not isinstance(items, list) or not items:
        raise ValueError(f"{path.name}: needs a non-empty list 'assignments'")
    seen = set()
    for n, a in enumerate(items, 1):
        a = a if isinstance(a, dict) else {}
        where = f"{path.name}, assignment {n} ({a.get('id', '?')})"
        if not re.fullmatch(r"[a-z0-9-]+", str(a.get("id", ""))):
            raise ValueError(f"{where}: 'id' must be lower-case letters, digits and '-'")
        if a["id"] in seen or a["id"] in taken:
            raise ValueError(f"{where}: id also used by another question or assignment")
        seen.add(a["id"])
        rubric = a.get("rubric")
        if not isinstance(rubric, list) or not rubric:
            raise ValueError(f"{where}: needs a non-empty list 'rubric'")
        for i, item in enumerate(rubric, 1):
            if not isinstance(item, dict) or not isinstance(item.get("points"), int) or item["points"] <= 0:
                raise ValueError(f"{where}, rubric item {i}: 'points' must be a positive integer")
        for lang in LANGS:
            for key in ("title", "task", "hand_in", "answer"):
                entry_text(a, key, lang, where)
            for i, item in enumerate(rubric, 1):
                entry_text(item, lang, lang, f"{where}, rubric item {i}")
    return items


def load_assignments(folder: Path = FOLDER) -> list[dict]:
    """The assignments in order (number = position + 1), each checked like the questions."""
    path = folder / ASSIGNMENTS
    if not path.is_file():
        raise ValueError(f"{ASSIGNMENTS} is missing from {folder}")
    taken = frozenset(q["id"] for data in load(folder).values() for q in data.get("questions") or [])
    return _load_assignments(path, path.stat().st_mtime, taken)


def _selected(which: str | None, lessons: dict[int, dict]) -> list[int]:
    if which == "all":
        return sorted(lessons)
    if not (which or "").isdigit():
        raise ValueError(f"takes a lesson number or 'all' (got '{which or ''}'), e.g. [[questions:3]]")
    if int(which) not in lessons:
        raise KeyError(f"no questions for lesson {which}: docs/questions/lesson-{int(which):02d}.yml is "
                       f"missing. Lessons: {', '.join(map(str, sorted(lessons)))}, all")
    return [int(which)]


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.splitlines())


def render(kind: str, which: str, lang: str, lessons: dict[int, dict], answer_key_url: str | None = None) -> str:
    out = []
    numbers = _selected(which, lessons)
    for n in numbers:
        data = lessons[n]
        if which == "all":
            out.append(f"## {ui.text(lang, 'lesson.titled', n=n, title=entry_text(data, 'title', lang, ''))} {{ #lesson-{n} }}\n")
        for i, q in enumerate(data["questions"], 1):
            anchor = f"q-{q['id']}" if kind == "questions" else f"a-{q['id']}"
            out.append(f'<span id="{anchor}"></span>**{n}.{i}** {entry_text(q, lang, lang, "")}\n')
            if kind == "questions" and "hint" in q:
                out.append(f'??? tip "{ui.text(lang, "questions.hint")}"\n{_indent(entry_text(q, "hint", lang, ""))}\n')
            if kind == "answers":
                out.append(f'??? success "{ui.text(lang, "questions.answer")}"\n{_indent(entry_text(q, "answer", lang, ""))}\n')
        if kind == "questions" and answer_key_url:
            out.append(f"[{ui.text(lang, 'questions.key')}]({answer_key_url}#lesson-{n})\n")
    return "\n".join(out)


def _rubric(a: dict, lang: str) -> str:
    """The rubric as a Markdown table: one criterion a row (on one line), then the total."""

    def cell(item):  # one line; a "|" of the text is escaped, those of [[markers]] are not
        text = " ".join(entry_text(item, lang, lang, "").split())
        return re.sub(r"(\[\[[^\]\n]*\]\])|\|", lambda m: m[1] or "\\|", text)

    rows = [f"| {cell(item)} | {item['points']} |" for item in a["rubric"]]
    total = sum(item["points"] for item in a["rubric"])
    return "\n".join([f"| {ui.text(lang, 'questions.criterion')} | {ui.text(lang, 'questions.points')} |",
                      "|:---|---:|", *rows, f"| **{ui.text(lang, 'questions.total')}** | **{total}** |"])


def render_assignments(kind: str, lang: str, assignments: list[dict], answer_key_url: str | None = None,
                       rubric: bool = True) -> str:
    """``kind`` "assignments": task, hand-in and rubric (``rubric=False``, the student edition:
    no rubric); "assignment-answers": rubric and model answer."""
    out = []
    for n, a in enumerate(assignments, 1):
        out.append(f"### {ui.text(lang, 'questions.assignment', n=n)}. {entry_text(a, 'title', lang, '')} {{ #assignment-{n} }}\n")
        task, hand_in = entry_text(a, "task", lang, ""), entry_text(a, "hand_in", lang, "")
        if kind == "assignments":
            out.append(f'<span id="q-{a["id"]}"></span>{task}\n')
            out.append(f"**{ui.text(lang, 'questions.hand_in')}**\n\n{hand_in}\n")
            if rubric:
                out.append(f"**{ui.text(lang, 'questions.rubric')}**\n\n{_rubric(a, lang)}\n")
            if answer_key_url:
                out.append(f"[{ui.text(lang, 'questions.key')}]({answer_key_url}#assignment-{n})\n")
        else:
            out.append(f'<span id="a-{a["id"]}"></span>**{ui.text(lang, "questions.rubric")}**\n\n{_rubric(a, lang)}\n')
            out.append(f'??? abstract "{ui.text(lang, "questions.task")}"\n{_indent(task)}\n\n'
                       f'    **{ui.text(lang, "questions.hand_in")}**\n\n{_indent(hand_in)}\n')
            out.append(f'??? success "{ui.text(lang, "questions.model")}"\n{_indent(entry_text(a, "answer", lang, ""))}\n')
    return "\n".join(out)


# ---------------------------------------------------------------- marker handlers
# (kinds of coursebuild.markers; the data is read from FOLDER at call time)

def questions_marker(which: str | None, fmt: str | None, ctx) -> str:
    """``[[questions:N]]`` or ``[[questions:all]]``: the questions with hints and a link to the answers."""
    _no_format(fmt)
    return render("questions", which, ctx.lang, load(FOLDER), ctx.answer_key_url)


def answers_marker(which: str | None, fmt: str | None, ctx) -> str:
    """``[[answers:N]]`` or ``[[answers:all]]``: the questions with their worked answers."""
    _no_format(fmt)
    _not_in_student_edition(ctx, "answers")
    return render("answers", which, ctx.lang, load(FOLDER))


def assignments_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[assignments]]``: each assignment's task, what to hand in and its rubric."""
    _no_argument(arg, fmt)
    return render_assignments("assignments", ctx.lang, load_assignments(FOLDER), ctx.answer_key_url,
                              rubric=getattr(ctx, "edition", "open") != "student")


def assignment_answers_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[assignment-answers]]``: each assignment's rubric and model answer."""
    _no_argument(arg, fmt)
    _not_in_student_edition(ctx, "assignment-answers")
    return render_assignments("assignment-answers", ctx.lang, load_assignments(FOLDER))


def _not_in_student_edition(ctx, kind: str) -> None:
    """Answers never reach a page of the student edition (coursebuild.editions)."""
    if getattr(ctx, "edition", "open") == "student":
        raise ValueError(f"'{kind}' shows answers, and the student edition has none: use it only on "
                         f"teaching/answer-key.md (which that edition leaves out), or put it between "
                         f"[[edition:open]] and [[edition:end]]")


def _no_format(fmt: str | None) -> None:
    if fmt is not None:
        raise ValueError(f"takes no format after '|' (got '{fmt}')")


def _no_argument(arg: str | None, fmt: str | None) -> None:
    if arg is not None or fmt is not None:
        raise ValueError("takes no argument and no format: write it bare, e.g. [[assignments]]")
