"""The self-checked questions for an LMS: Moodle XML and QTI 1.2, written into the instructor pack.

Both come from ``docs/questions/self-check.yml`` (:mod:`coursebuild.selfcheck`) and this
build's results, one file per language:

- ``moodle-<lang>.xml``: Moodle XML, one ``<question type="category">`` per lesson, then its
  questions, each named by the number its lesson page shows (``3.A``) and its id: ``numerical`` (the answer with ``<tolerance>``, the explanation as general
  feedback) and ``multichoice`` (single answer, ``fraction`` 100 or 0, each choice's
  explanation as its ``<feedback>``). Texts are HTML; math is ``\\( … \\)``, which Moodle's
  MathJax filter draws. Written with the standard library: the one Moodle XML package on PyPI,
  moodle-questions 0.2.1 (2020), leaves numerical questions unimplemented.
- ``qti-<lang>.zip``: an IMS QTI 1.2 package (``imsmanifest.xml`` and one assessment per
  lesson's set, as Canvas imports it) written by ``text2qti`` from its plain-text quiz format:
  numerical questions as ``= answer +- tolerance``, choices with ``...`` feedback each. Math is
  drawn by Canvas's own equation images (``/equation_images/…``).
"""

from __future__ import annotations

import math

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from .. import atomic
from ..content import selfcheck, ui
from ..pages import kinds
from ..paths import LANGS

# Canvas serves LaTeX as images at this path of every instance
CANVAS_LATEX = "/equation_images"


def _Ctx(lang, results):
    """What the markers of a question need, outside a page (coursebuild.pages.kinds.context)."""
    return kinds.context(lang, page="docs/questions/self-check.yml", src_uri=f"{lang}/index.md",
                         results=results)


def items(lang: str, results: dict, lessons: dict | None = None) -> list[dict]:
    """Every question of ``lang``, its markers filled: {lesson, id, type, text, ...} in order."""
    lessons = selfcheck.load() if lessons is None else lessons
    ctx, out = _Ctx(lang, results), []
    for n, questions in lessons.items():
        for i, q in enumerate(questions, 1):
            item = {"lesson": n, "id": q["id"], "type": q["type"], "label": selfcheck.number_label(n, i),
                    "text": selfcheck.filled(selfcheck.entry_text(q, lang, lang, q["id"]), ctx).strip()}
            if q["type"] == "number":
                item.update(answer=selfcheck.expected(q, results), tolerance=selfcheck.tolerance(q),
                            explain=selfcheck.filled(selfcheck.entry_text(q, "explain", lang, q["id"]), ctx).strip())
            else:
                item["choices"] = [{"text": selfcheck.filled(selfcheck.entry_text(c, lang, lang, q["id"]), ctx).strip(),
                                    "correct": bool(c.get("correct")),
                                    "why": selfcheck.filled(selfcheck.entry_text(c, "why", lang, q["id"]), ctx).strip()}
                                   for c in q["choices"]]
            out.append(item)
    return out


# ---------------------------------------------------------------- Moodle XML

def _html(text: str) -> str:
    return selfcheck.to_html(text)


def _text_el(parent, tag: str, text: str, fmt: str = "html", **attrs) -> ET.Element:
    el = ET.SubElement(parent, tag, {"format": fmt, **attrs} if fmt else attrs)
    ET.SubElement(el, "text").text = text
    return el


def moodle_xml(lang: str, entries: list[dict]) -> bytes:
    quiz = ET.Element("quiz")
    lesson = None
    for e in entries:
        if e["lesson"] != lesson:
            lesson = e["lesson"]
            cat = ET.SubElement(quiz, "question", type="category")
            ET.SubElement(ET.SubElement(cat, "category"), "text").text = (
                f"$course$/{ui.text(lang, 'lms.title')}/{ui.text(lang, 'lesson.number', n=lesson)}")
        q = ET.SubElement(quiz, "question", type="numerical" if e["type"] == "number" else "multichoice")
        # the number the lesson page shows (3.A, never a check question's 3.1), then the id
        ET.SubElement(ET.SubElement(q, "name"), "text").text = f"{e['label']} {e['id']}"
        _text_el(q, "questiontext", _html(e["text"]))
        ET.SubElement(q, "defaultgrade").text = "1"
        if e["type"] == "number":
            _text_el(q, "generalfeedback", _html(e["explain"]))
            answer = _text_el(q, "answer", repr(e["answer"]), fmt="moodle_auto_format", fraction="100")
            ET.SubElement(answer, "tolerance").text = repr(e["tolerance"])
            _text_el(answer, "feedback", _html(e["explain"]))
        else:
            _text_el(q, "generalfeedback", "")
            ET.SubElement(q, "single").text = "true"
            ET.SubElement(q, "shuffleanswers").text = "true"
            ET.SubElement(q, "answernumbering").text = "abc"
            for c in e["choices"]:
                answer = _text_el(q, "answer", selfcheck.to_html(c["text"], inline=True),
                                  fraction="100" if c["correct"] else "0")
                _text_el(answer, "feedback", _html(c["why"]))
    ET.indent(quiz)
    return ET.tostring(quiz, encoding="utf-8", xml_declaration=True)


# ---------------------------------------------------------------- QTI through text2qti

def _one_line(text: str) -> str:
    """text2qti reads a question, a choice or a feedback from its line and the indented lines after."""
    return re.sub(r"\s*\n\s*", " ", text.strip())


QTI_DECIMALS = 4  # text2qti writes a range's ends with 4 decimals


def qti_range(answer: float, tolerance: float) -> tuple[float, float]:
    """The accepted range ``answer ± tolerance`` with its ends rounded outwards to the 4 decimals
    text2qti writes, so the exported range holds every answer the page accepts (text2qti's own
    rounding of ``a +- t`` could move an end inwards: [5.6469, 5.6669] for [5.646854, 5.666854])."""
    scale = 10 ** QTI_DECIMALS
    low = math.floor(round((answer - tolerance) * scale, 6)) / scale
    high = math.ceil(round((answer + tolerance) * scale, 6)) / scale
    return low, high


def text2qti_source(lang: str, entries: list[dict]) -> str:
    """The questions in text2qti's plain-text quiz format."""
    title = ui.text(lang, "lms.title")
    lines = [f"Quiz title: {title}", f"Quiz description: {title}", ""]
    for i, e in enumerate(entries, 1):
        lines.append(f"Title: {e['label']} · {e['id']}")
        lines.append(f"{i}.  {_one_line(e['text'])}")
        if e["type"] == "number":
            lines.append(f"... {_one_line(e['explain'])}")
            low, high = qti_range(e["answer"], e["tolerance"])
            lines.append(f"=   [{low!r}, {high!r}]")
        else:
            for j, c in enumerate(e["choices"]):
                mark = "*" if c["correct"] else ""
                lines.append(f"{mark}{'abcdefghij'[j]}) {_one_line(c['text'])}")
                lines.append(f"... {_one_line(c['why'])}")
        lines.append("")
    return "\n".join(lines)


def qti_zip(lang: str, entries: list[dict]) -> bytes:
    from text2qti.config import Config
    from text2qti.qti import QTI
    from text2qti.quiz import Quiz

    config = Config()
    config["latex_render_url"] = CANVAS_LATEX
    quiz = Quiz(text2qti_source(lang, entries), config=config, source_name=f"self-check-{lang}")
    return QTI(quiz).zip_bytes()


def write_all(folder: Path, results: dict) -> list[Path]:
    """``moodle-<lang>.xml`` and ``qti-<lang>.zip`` for every language, into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in LANGS:
        entries = items(lang, results)
        for name, data in ((f"moodle-{lang}.xml", moodle_xml(lang, entries)), (f"qti-{lang}.zip", qti_zip(lang, entries))):
            atomic.write_bytes(folder / name, data)
            written.append(folder / name)
    return written
