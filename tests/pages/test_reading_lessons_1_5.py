"""What the last reading of lessons 1–5 found (issue 27), made into rules a machine checks.

* A Korean sentence cites a work of several authors as "Vaswani et al. (2017)", the style of every
  other citation on the site, with the particle after the year ("Bahdanau et al. (2015)가"), never
  "Bahdanau 외(2015)".
* A number below 1 is never printed as a whole 1 (nor one above 0 as 0): lesson 1's "ate" →
  "먹었다" weight of 0.9997 printed as 1.000 said that attention picked one word, where the
  lesson's point is that it blends. The drawing code writes such a weight with the digits it
  needs (``drawing/translation.py``, ``weight_text``).
* Lesson 5 reads its head-count result by its curves: while every curve still rises when training
  stops, it compares learning speed within the budget (``drawing/heads.py``, ``words``).
* 마스크 규칙 is the one word for the mask convention (docs/glossary.yml), not 약속.

The rules are checked over what that reading covered: lessons 1–5 in both languages, their check
questions and their lab notebooks. Lessons 6–9 and the teaching pages had readings of their own;
widen ``READ`` once theirs hold the same rules (today lesson 9 prints its first-cell accuracy of
0.9995 as 1.000, and the analogy page's reading list writes "Hafting 외 (2005)").
"""

from __future__ import annotations

import re

import pytest
import yaml
from test_prose import NOTEBOOKS, QUESTIONS, notebook_paragraphs

from coursebuild.content import glossary
from coursebuild.course import LESSONS
from coursebuild.paths import DOCS
from tutorial_code.experiments.drawing import heads, translation

READ = [lesson for lesson in LESSONS if lesson.number <= 5]


def read_texts(lang: str):
    """(name, text) of what the reading covered: each lesson's page, check questions and notebook."""
    for lesson in READ:
        page = DOCS / lang / "lessons" / f"{lesson.slug}.md"
        yield page.relative_to(DOCS).as_posix(), page.read_text(encoding="utf-8")
        data = yaml.safe_load((QUESTIONS / f"lesson-{lesson.number:02d}.yml").read_text(encoding="utf-8"))
        for q in data["questions"]:
            parts = [q.get(lang), (q.get("hint") or {}).get(lang), (q.get("answer") or {}).get(lang)]
            yield f"lesson-{lesson.number:02d}.yml {q['id']}", "\n\n".join(p for p in parts if p)
        source = (NOTEBOOKS / lesson.notebook_source).read_text(encoding="utf-8")
        yield f"{lesson.notebook_source} ({lang})", "\n\n".join(notebook_paragraphs(source, lang))


def test_the_reading_covers_lessons_1_to_5():
    assert [lesson.number for lesson in READ] == [1, 2, 3, 4, 5]
    names = [name for name, _ in read_texts("ko")]
    assert sum(n.startswith("ko/lessons/") for n in names) == 5 and sum(n.endswith("(ko)") for n in names) == 5


# ---------------------------------------------------------------- citations

KOREAN_ET_AL = re.compile(r"\b[A-Z][A-Za-z-]+ 외\s?\(\d{4}|\b[A-Z][A-Za-z-]+ 외(?:이|가|은|는|을|를|의)\s")


def citation_problems(name: str, text: str) -> list[str]:
    return [f"{name}: «{m.group(0)}» → «… et al. (연도)»" for m in KOREAN_ET_AL.finditer(text)]


def test_korean_citations_write_et_al():
    found = [p for name, text in read_texts("ko") for p in citation_problems(name, text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("text, wrong", [
    ("Sutskever 외(2014)의 모델이", True), ("Bahdanau 외 (2015)가 그림을", True), ("Voita 외가 보였듯", True),
    ("Sutskever et al. (2014)의 모델이", False), ("그 외(2014년 판)는", False), ("Vaswani et al., 2017", False),
])
def test_the_citation_check_finds_what_it_names(text, wrong):
    assert bool(citation_problems("x", text)) is wrong, text


# ---------------------------------------------------------------- a number below 1 is not printed as 1

def value_markers(text: str):
    """(experiment, key, format) of every ``[[value:experiment.key|format]]`` that has a format."""
    return re.findall(r"\[\[value:(\w+)\.([\w.\-]+)\|([^|\]]+)", text)


def printed_as_whole(value, shown: str) -> bool:
    """A value strictly between 0 and 1 (in size) that its text shows as exactly 0 or 1 (or 0 %, 100 %)."""
    return isinstance(value, float) and 0 < abs(value) < 1 \
        and bool(re.fullmatch(r"-?[01](?:\.0*)?%?|-?100(?:\.0*)?%", shown))


def test_a_number_below_one_is_never_printed_as_one(report):
    from coursebuild.pages.results import format_value, lookup_value, record
    from coursebuild.pipeline import site as pipeline_site

    data = pipeline_site.data_from_report(report)
    found, seen = [], 0
    for lang in ("ko", "en"):
        for name, text in read_texts(lang):
            for exp, key, fmt in value_markers(text):
                value = lookup_value(record(data, exp), key, exp)
                seen += isinstance(value, float)
                if printed_as_whole(value, shown := format_value(value, fmt)):
                    found.append(f"{name}: [[value:{exp}.{key}|{fmt}]] = {value!r} is printed {shown}")
    assert seen > 100, seen  # the lessons' numbers were read
    assert not found, "more digits, or a word the drawing code chooses:\n" + "\n".join(found)


@pytest.mark.parametrize("value, shown, whole", [
    (0.9996876, "1.000", True), (0.9995, "100.0%", True), (0.00004, "0.000", True),
    (0.9996876, "0.9997", False), (1.0, "1.000", False), (0.0, "0.000", False), (1.03, "1.0", False),
])
def test_the_whole_number_check_finds_what_it_names(value, shown, whole):
    assert printed_as_whole(value, shown) is whole


@pytest.mark.parametrize("w, text", [
    (0.9996876, "0.9997"), (0.75, "0.750"), (0.00004, "0.00004"), (1.0, "exactly 1"), (0.0, "exactly 0"),
])
def test_a_weight_below_one_is_written_with_the_digits_it_needs(w, text):
    assert translation.weight_text(w)["en"] == text
    assert translation.weight_text(w)["ko"] == text.replace("exactly", "정확히")


def test_lesson_1_writes_the_verb_weight_as_the_drawing_code_chose():
    for lang in ("ko", "en"):
        page = (DOCS / lang / "lessons" / "why-attention.md").read_text(encoding="utf-8")
        assert "[[word:translation.verb_weight]]" in page and "example.verb_weight|" not in page, lang


# ---------------------------------------------------------------- lesson 5's reading of its curves

def heads_results(*curves) -> dict:
    runs = [{"valid_curve": [{"exact_match": x, "samples": 640 * (i + 1)} for i, x in enumerate(c)]} for c in curves]
    return {"head_counts": [1, 2], "by_heads": {"1": {"runs": runs}, "2": {"runs": runs}}}


def test_the_heads_reading_follows_the_curves():
    rising = heads.words(heads_results([0.1, 0.5, 0.7], [0.2, 0.4, 0.8]))["learning_speed"]
    flat = heads.words(heads_results([0.1, 0.7, 0.7], [0.2, 0.7, 0.7]))["learning_speed"]
    assert "still rising" in rising["en"] and "오르는 중" in rising["ko"]
    assert "levelled off" in flat["en"] and "평평" in flat["ko"]
    for lang in ("ko", "en"):  # the sentence that states the result states its conditions too
        page = (DOCS / lang / "lessons" / "multi-head.md").read_text(encoding="utf-8")
        start = page.index("[[value:heads.by_heads.1.test_exact_match")
        sentence = page[page.rindex("\n\n", 0, start):page.index("[[word:heads.learning_speed]]", start)]
        for condition in ("heads.train_samples", "heads.config.max_lr", "heads.seeds"):
            assert condition in sentence, (lang, condition)


# ---------------------------------------------------------------- one word for the mask convention

@pytest.mark.parametrize("text, wrong", [
    ("마스크의 약속은 반대입니다", [("마스크의 약속", "마스크 규칙")]),            # notebook 5
    ("이 약속은 PyTorch의 방식과 같습니다", [("이 약속", "마스크 규칙")]),         # lesson 4
    ("마스크도 같은 약속을 씁니다", [("같은 약속", "마스크 규칙")]),              # notebook 3
    ("마스크 규칙은 반대입니다", []),
])
def test_the_glossary_refuses_a_second_word_for_the_mask_convention(text, wrong):
    assert sorted(glossary.find_mistranslations(text, glossary.load())) == sorted(wrong), text


# ---------------------------------------------------------------- heads are counted from 1 wherever a person reads them

def test_heads_are_numbered_from_one_where_a_person_reads_them(report):
    """The lessons count heads from 1 (head_1 … head_h, as the paper writes them) and say once that
    code indices and columns start at 0: so do the tables, the widgets and the figures' labels."""
    from coursebuild.pages.results import record
    from coursebuild.pipeline import site as pipeline_site

    data = pipeline_site.data_from_report(report)
    rows = record(data, "heads")["tables"]["patterns"]["rows"]
    assert min(r["head"] for r in rows) == 1 and min(r["layer"] for r in rows) == 1
    labels = [c["label"]["en"] for c in record(data, "reversal")["tables"]["mirror"]["columns"]]
    assert "head 1" in labels and "head 0" not in labels, labels
    widgets = DOCS / "assets" / "javascripts" / "widgets"
    assert "t.head(i + 1," in (widgets / "multihead.js").read_text(encoding="utf-8")
    assert "t.headName(i + 1)" in (widgets / "translator.js").read_text(encoding="utf-8")
    for lang, said in (("ko", "헤드는 식처럼 1번부터"), ("en", "Counting heads from 1")):
        page = (DOCS / lang / "lessons" / "multi-head.md").read_text(encoding="utf-8")
        assert said in page and "(i-1) \\cdot d_k" in page, lang
