"""One Korean word per concept, wherever a student reads Korean: the pages, the check questions,
the lab notebooks, the widgets' strings, the figures' labels and the handouts.

* A second word for a glossary concept is listed in the glossary's ``wrong_ko`` (수열 for 시퀀스,
  훈련 for 학습): no Korean text of the course holds one. The page hook already refuses them on
  the rendered pages; this test reads the sources the hook never sees (notebooks, widgets,
  figure labels, the build's own Korean strings) and the built handouts' text.
* 스텝 and 단계 are two concepts (docs/glossary.yml, "step"): 스텝 is one update of the
  parameters, 단계 a stage of a computation (the five steps of attention, one generated token).
  A count of training steps, which in this course is a number from the results or a count of
  ten or more, is followed by 스텝, never by 단계.
"""

from __future__ import annotations

import re

import pytest

from coursebuild.content import glossary
from coursebuild.paths import DOCS

ROOT = DOCS.parent
WIDGETS = DOCS / "assets" / "javascripts" / "widgets"


def korean_sources():
    """(name, text) of every source a Korean reader meets, the glossary itself left out."""
    paths = [*sorted((DOCS / "ko").rglob("*.md")), *sorted((DOCS / "questions").glob("*.yml")),
             *sorted((ROOT / "tutorial_code").rglob("*.py")), *sorted(WIDGETS.glob("*.js")),
             *sorted((ROOT / "scripts" / "coursebuild").rglob("*.py"))]
    for path in paths:
        if "notebooks" in path.relative_to(ROOT).parts[:3] and path.suffix == ".ipynb":
            continue
        yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


def test_no_second_word_for_a_glossary_concept_in_any_source():
    terms = glossary.load()
    found = [f"{name}: «{wrong}» → {right}" for name, text in korean_sources()
             for wrong, right in glossary.find_mistranslations(text, terms)
             if not name.endswith("coursebuild/content/glossary.py")]
    assert not found, "write the glossary's word:\n" + "\n".join(found)


def test_no_second_word_in_the_built_handouts(built_site):
    from pypdf import PdfReader

    pdfs = sorted((built_site / "assets" / "handouts" / "ko").glob("*.pdf"))
    assert pdfs, "no Korean handouts in the built site"
    terms = glossary.load()
    found = []
    for pdf in pdfs:
        text = re.sub(r"\s+", " ", "".join(page.extract_text() or "" for page in PdfReader(pdf).pages))
        found += [f"{pdf.name}: «{w}» → {r}" for w, r in glossary.find_mistranslations(text, terms)]
    assert not found, "\n".join(found)


# a count of training steps followed by 단계: a results value ([[value:…]]단계), a pasted value in a
# widget string (s + "단계…"), a format field in a label ({n}단계), or a count of ten or more (250단계)
TRAINING_STEP_AS_DANGYE = re.compile(r"\]\]\s?단계|\{[a-z_]*\}\s?단계|(?<![\d.])(?:\d{2,}|\d{1,3}(?:,\d{3})+)\s?단계|"
                                     r"\+\s*\"단계")


def step_problems(name: str, text: str) -> list[str]:
    return [f"{name}:{text.count(chr(10), 0, m.start()) + 1}: «{m.group(0)}» → 스텝"
            for m in TRAINING_STEP_AS_DANGYE.finditer(text)]


def test_a_count_of_training_steps_is_seuteb():
    found = [p for name, text in korean_sources() for p in step_problems(name, text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("text, wrong", [
    ("기본 설정의 실행은 [[value:browser_training.page.default_reached_step]]단계에서", True),
    ('return s + "단계에서 멈췄습니다."', True), ('"loss_50": "{n}단계 평균"', True), ("250단계에서", True),
    ("1,000단계 동안", True), ("[[value:x.steps]]스텝", False), ("4단계의 가중치", False), ("$L$단계를 거쳐", False),
    ("1단계부터 계산한", False), ("다섯 단계로", False),
])
def test_the_step_check_finds_what_it_names(text, wrong):
    assert bool(step_problems("x", text)) is wrong, text


def test_the_glossary_refuses_the_second_words():
    terms = glossary.load()
    assert ("수열", "시퀀스") in glossary.find_mistranslations("±1 수열의 첫 칸", terms)
    assert ("훈련", "학습") in glossary.find_mistranslations("훈련 데이터", terms)
