"""Self-checked questions: the page checks the reader's answer itself, offline.

Kept once, in ``docs/questions/self-check.yml``, beside the free-text check questions (which
stay as they are). ``[[self-check:3]]`` draws lesson 3's questions as forms that
``docs/assets/javascripts/self-check.js`` checks on submit; :mod:`coursebuild.lms` writes the
same questions as Moodle XML and QTI for the instructor pack. Two types::

    lessons:
      3:
        - id: sc-sdpa-sqrt                 # unique; the form's id
          type: number
          ko: 질문 (Markdown; [[value:…]] markers too)
          en: Question …
          value: worked_examples.sdpa.sqrt_d_k     # experiment.key: the answer is this build's result
          scale: 100                       # optional: the answer is value × scale (a percentage)
          tolerance: 0.01                  # accepted: |answer − expected| ≤ tolerance
          decimals: 2                      # or, instead: the question asks for 2 decimal places
          hint: {ko: …, en: …}             # optional, folded
          explain: {ko: …, en: …}          # shown after a right answer (markers allowed)
        - id: sc-sdpa-why
          type: choice
          ko: …
          en: …
          choices:                         # exactly one has correct: true
            - {correct: true, ko: …, en: …, why: {ko: …, en: …}}
            - {ko: …, en: …, why: {ko: …, en: …}}   # every choice says why

A question that asks for a precision ("소수 둘째 자리까지" / "two decimal places", "정수로" /
"a whole number") gives ``decimals`` instead of ``tolerance``: it accepts every answer within one
unit of its last asked-for digit (10^-decimals), so a rounded and a cut-off answer are both right,
and its explanation must show the answer at that precision (``[[value:<value>|.2f]]``, or
``|.0%`` for a percentage); the prompt's phrase and ``decimals`` must agree (checked on load).

Why not a plugin: mkdocs-quiz (1.7.1) checks typed answers by exact text only (no tolerance),
writes its blanks as ``[[answer]]``, the grammar of this site's markers, and inlines its script
and a confetti library on every page; mkdocs-superquiz (0.7.1) has no numeric type and no
Korean, and ships 7 MB of assets. Neither reads numbers from this build's results.

Whether the site or the instructor pack, every number comes from ``results`` through the
same lookup as ``[[value:…]]``, so the expected answers change when the results do.
"""

from __future__ import annotations

import html
import json
import math
import re
from functools import lru_cache
from pathlib import Path

import markdown as md
import yaml

from ..pages import results as results_lookup
from .questions import entry_text
from ..paths import DOCS, LANGS
from . import ui

SOURCE = DOCS / "questions" / "self-check.yml"
TYPES = ("number", "choice")
MIN_PER_LESSON = 3
_MD = {"extensions": ["pymdownx.arithmatex", "pymdownx.highlight", "pymdownx.superfences"],
       "extension_configs": {"pymdownx.arithmatex": {"generic": True}}}


@lru_cache(maxsize=4)
def _load(path: Path, stamp: float) -> dict[int, list[dict]]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ValueError(f"cannot read {path.name}: {exc}") from exc
    lessons = (data or {}).get("lessons") if isinstance(data, dict) else None
    if not isinstance(lessons, dict) or not lessons:
        raise ValueError(f"{path.name}: needs a mapping 'lessons' of lesson number to questions")
    ids = set()
    for n, items in lessons.items():
        if not isinstance(n, int) or not isinstance(items, list):
            raise ValueError(f"{path.name}: lesson {n!r} needs an integer number and a list of questions")
        for q in items:
            q = q if isinstance(q, dict) else {}
            where = f"{path.name}, lesson {n}, question {q.get('id', '?')}"
            if not re.fullmatch(r"[a-z0-9-]+", str(q.get("id", ""))) or q["id"] in ids:
                raise ValueError(f"{where}: 'id' must be unique, lower-case letters, digits and '-'")
            ids.add(q["id"])
            if q.get("type") not in TYPES:
                raise ValueError(f"{where}: 'type' must be one of {', '.join(TYPES)}")
            for lang in LANGS:
                entry_text(q, lang, lang, where)
                if "hint" in q:
                    entry_text(q, "hint", lang, where)
            if q["type"] == "number":
                if not re.fullmatch(r"[a-z_]\w*\.[\w.-]+", str(q.get("value", ""))):
                    raise ValueError(f"{where}: 'value' must be experiment.key of a result, e.g. worked_examples.sdpa.sqrt_d_k")
                for lang in LANGS:
                    entry_text(q, "explain", lang, where)
                _check_precision(q, where)
            else:
                choices = q.get("choices")
                if not isinstance(choices, list) or len(choices) < 2:
                    raise ValueError(f"{where}: 'choices' needs at least two choices")
                if sum(1 for c in choices if isinstance(c, dict) and c.get("correct") is True) != 1:
                    raise ValueError(f"{where}: exactly one choice needs 'correct: true'")
                for i, c in enumerate(choices, 1):
                    for lang in LANGS:
                        entry_text(c, lang, lang, f"{where}, choice {i}")
                        entry_text(c, "why", lang, f"{where}, choice {i}")
    return {n: lessons[n] for n in sorted(lessons)}


# the phrase a prompt uses to ask for a precision → its number of decimals
PRECISION = {
    "ko": {"정수로": 0, "소수 첫째 자리까지": 1, "소수 둘째 자리까지": 2, "소수 셋째 자리까지": 3},
    "en": {"a whole number": 0, "one decimal place": 1, "two decimal places": 2, "three decimal places": 3},
}


def _check_precision(q: dict, where: str) -> None:
    tol, decimals = q.get("tolerance"), q.get("decimals")
    if (tol is None) == (decimals is None):
        raise ValueError(f"{where}: give 'tolerance' (the accepted distance) or 'decimals' (the precision "
                         "the question asks for), exactly one")
    if tol is not None and (not isinstance(tol, (int, float)) or isinstance(tol, bool) or tol <= 0):
        raise ValueError(f"{where}: 'tolerance' must be a positive number (the accepted distance)")
    if decimals is not None and (not isinstance(decimals, int) or isinstance(decimals, bool) or decimals < 0):
        raise ValueError(f"{where}: 'decimals' must be a whole number from 0")
    for lang in LANGS:
        asked = {d for phrase, d in PRECISION[lang].items() if phrase in q[lang]}
        if decimals is None and asked:
            raise ValueError(f"{where}: the {lang} question asks for a precision; give 'decimals: "
                             f"{min(asked)}' instead of 'tolerance'")
        if decimals is not None and asked != {decimals}:
            want = next((p for p, d in PRECISION[lang].items() if d == decimals), f"{decimals} decimals")
            raise ValueError(f"{where}: 'decimals: {decimals}', but the {lang} question does not ask for "
                             f"it in those words; write '{want}' in it")
        if decimals is not None:
            fmt = f".{decimals}%" if float(q.get("scale", 1)) == 100 else f".{decimals}f"
            if f"[[value:{q['value']}|{fmt}]]" not in q["explain"][lang]:
                raise ValueError(f"{where}: the {lang} explanation must show the answer as asked, "
                                 f"[[value:{q['value']}|{fmt}]]")


def tolerance(q: dict) -> float:
    """The accepted distance from the expected answer: ``tolerance``, or one unit of the last
    digit a question with ``decimals`` asks for."""
    return float(q["tolerance"]) if q.get("tolerance") is not None else 10.0 ** -int(q["decimals"])


def load(path: Path = SOURCE) -> dict[int, list[dict]]:
    """{lesson: its questions}, each checked (both languages, type, answer, tolerance, why)."""
    if not path.is_file():
        raise ValueError(f"{path.name} is missing from {path.parent}")
    return _load(path, path.stat().st_mtime)


def expected(q: dict, results: dict) -> float:
    """The answer a number question expects: its result in this build, times its scale."""
    value = results_lookup.value(results, q["value"])
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"self-check {q['id']}: {q['value']} is {value!r}, not a number")
    return float(value) * float(q.get("scale", 1))


def filled(text: str, ctx) -> str:
    """``text`` with its markers expanded for ``ctx`` (Markdown still)."""
    return ctx.render(text)


def to_html(text: str, inline: bool = False) -> str:
    """Markdown to HTML; ``inline``: without the paragraphs (for a <legend> or a <label>),
    paragraphs joined by line breaks."""
    out = md.markdown(text, **_MD).strip()
    if inline and out.startswith("<p>") and out.endswith("</p>"):
        out = re.sub(r"</p>\s*<p>", "<br>", out[3:-4])
    return out


def _selected(which: str | None, lessons: dict) -> int:
    if not (which or "").isdigit():
        raise ValueError(f"takes a lesson number (got '{which or ''}'), e.g. [[self-check:3]]")
    if int(which) not in lessons:
        raise KeyError(f"no self-checked questions for lesson {which} in docs/questions/self-check.yml; "
                       f"lessons: {', '.join(map(str, lessons))}")
    return int(which)


def number_label(n: int, i: int) -> str:
    """A self-checked question's number on the page: lesson 3's second is 3.B, so that it is never
    confused with check question 3.2 on the same page."""
    if not 1 <= i <= 26:
        raise ValueError(f"lesson {n}: self-checked question {i}; at most 26 a lesson (3.A to 3.Z)")
    return f"{n}.{chr(ord('A') + i - 1)}"


def render(n: int, questions: list[dict], ctx) -> str:
    """Lesson ``n``'s questions as one raw-HTML block (forms the widget script checks)."""
    lang = ctx.lang
    out = [f'<section class="self-check" data-self-check="{lang}:lesson-{n}" data-total="{len(questions)}" '
           f'data-lang="{lang}" aria-labelledby="self-check-{n}">',
           f'<h3 id="self-check-{n}" class="self-check__title">{ui.text(lang, "selfcheck.title")}</h3>',
           f'<p class="self-check__intro">{html.escape(ui.text(lang, "selfcheck.intro"))}</p>',
           '<p class="self-check__progress" aria-live="polite"></p>']
    for i, q in enumerate(questions, 1):
        qid, text = q["id"], to_html(filled(entry_text(q, lang, lang, q["id"]), ctx), inline=True)
        attrs = f'data-kind="{q["type"]}"'
        if q["type"] == "number":
            attrs += f' data-answer="{expected(q, ctx.results)!r}" data-tolerance="{tolerance(q)!r}"'
        out.append(f'<form class="self-check__item" id="{qid}" {attrs} novalidate>')
        out.append(f'<fieldset><legend><span class="self-check__number">{number_label(n, i)}</span> '
                   f'<span class="self-check__text">{text}</span></legend>')
        if q["type"] == "number":
            out.append(f'<label class="self-check__label" for="{qid}-input">{ui.text(lang, "selfcheck.answer")}</label> '
                       f'<input class="self-check__input" id="{qid}-input" name="answer" type="text" '
                       f'inputmode="decimal" autocomplete="off" spellcheck="false">')
        else:
            for j, c in enumerate(q["choices"]):
                label = to_html(filled(entry_text(c, lang, lang, qid), ctx), inline=True)
                out.append(f'<label class="self-check__choice"><input type="radio" name="{qid}" value="{j}"'
                           f'{" data-correct" if c.get("correct") else ""}> <span>{label}</span></label>')
        out.append(f'<button type="submit" class="md-button self-check__submit">{ui.text(lang, "selfcheck.submit")}</button>')
        out.append("</fieldset>")
        if "hint" in q:
            hint = to_html(filled(entry_text(q, "hint", lang, qid), ctx))
            out.append(f'<details class="self-check__hint"><summary>{ui.text(lang, "questions.hint")}</summary>{hint}</details>')
        out.append('<div class="self-check__feedback" role="status" aria-live="polite" hidden></div>')
        if q["type"] == "number":
            explain = to_html(filled(entry_text(q, "explain", lang, qid), ctx))
            out.append(f'<template class="self-check__explain">{explain}</template>')
        else:
            for j, c in enumerate(q["choices"]):
                why = to_html(filled(entry_text(c, "why", lang, qid), ctx))
                out.append(f'<template class="self-check__why" data-choice="{j}">{why}</template>')
        out.append("</form>")
    out.append(f'<button type="button" class="md-button self-check__clear">{ui.text(lang, "selfcheck.clear")}</button>')
    out.append("</section>")
    return "\n".join(out) + "\n"


def self_check_marker(which: str | None, fmt: str | None, ctx) -> str:
    """``[[self-check:N]]``: lesson N's self-checked questions (docs/questions/self-check.yml)."""
    if fmt is not None:
        raise ValueError(f"takes no format after '|' (got '{fmt}')")
    lessons = load()
    n = _selected(which, lessons)
    return render(n, lessons[n], ctx)


def as_json(questions: dict, results: dict) -> str:  # for tests and the LMS export
    return json.dumps({n: [{**q, "expected": expected(q, results)} if q["type"] == "number" else q
                           for q in qs] for n, qs in questions.items()}, ensure_ascii=False)
