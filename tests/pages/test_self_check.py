"""Self-checked questions (docs/questions/self-check.yml, coursebuild/content/selfcheck.py): at least three
per lesson, numbers and multiple choice, both languages, answers taken from the build's results;
a broken source names the file, the question and the field; the built lesson pages carry the
forms with this build's answers.
"""

from __future__ import annotations

import math
import re

import pytest
import yaml
from bs4 import BeautifulSoup

from coursebuild.pipeline import site as pipeline_site
from coursebuild.pages import markers
from coursebuild.pages import kinds
from coursebuild.content import selfcheck
from coursebuild.course import SLUGS

LANGS = ("ko", "en")


@pytest.fixture(scope="module")
def results(report) -> dict:
    """The results the site was built from (conftest's ``report``: missing ones fail)."""
    return pipeline_site.data_from_report(report)


def test_every_lesson_has_three_or_more_of_both_kinds():
    lessons = selfcheck.load()
    assert sorted(lessons) == list(range(1, len(SLUGS) + 1))
    for n, qs in lessons.items():
        kinds = [q["type"] for q in qs]
        assert len(qs) >= selfcheck.MIN_PER_LESSON, f"lesson {n}: {len(qs)} self-checked questions"
        assert "number" in kinds and "choice" in kinds, f"lesson {n}: {kinds}"
        for q in qs:
            if q["type"] == "choice":
                assert len(q["choices"]) >= 3, f"{q['id']}: three choices or more"


def test_every_number_comes_from_the_results_and_its_tolerance_tells_answers_apart(results):
    for qs in selfcheck.load().values():
        for q in (q for q in qs if q["type"] == "number"):
            answer = selfcheck.expected(q, results)
            tol = accepted_distance(q)
            # a tolerance that would accept 0, or half the answer, checks nothing
            assert tol < abs(answer) / 2, f"{q['id']}: tolerance {tol} for {answer}"
            assert "[[value:" in q["explain"]["ko"] and "[[value:" in q["explain"]["en"], q["id"]


def accepted_distance(q) -> float:
    """The distance the page accepts, by the rule selfcheck states: a question that asks for
    N decimals accepts one unit of its last digit."""
    return q["tolerance"] if q.get("tolerance") is not None else 10.0 ** -q["decimals"]


def test_a_question_that_asks_for_a_precision_accepts_the_rounded_and_the_cut_off_answer(results):
    asked = 0
    for qs in selfcheck.load().values():
        for q in (q for q in qs if q["type"] == "number" and "decimals" in q):
            asked += 1
            answer, d = selfcheck.expected(q, results), q["decimals"]
            rounded = round(answer, d)
            cut = math.floor(answer * 10 ** d) / 10 ** d
            for typed in (rounded, cut):
                assert abs(typed - answer) <= accepted_distance(q), f"{q['id']}: {typed} for {answer}"
            # and two units off is wrong
            assert abs(rounded + 2 * 10 ** -d - answer) > accepted_distance(q), q["id"]
    assert asked >= 4  # 2.1, 2.2, 6.2 and 7.2 ask for a precision


def test_no_number_is_typed_where_the_results_have_it(results):
    """The question's own answer never appears typed in its text: the page quotes the build."""
    for qs in selfcheck.load().values():
        for q in (q for q in qs if q["type"] == "number"):
            answer = selfcheck.expected(q, results)
            for lang in LANGS:
                for field in (q[lang], q["explain"][lang]):
                    plain = re.sub(r"\[\[[^\]]*\]\]|\$[^$]*\$", " ", field)  # markers; algebra in math is fine
                    typed = [t for t in re.findall(r"\d[\d,]*\.?\d*", plain) if t.replace(",", "")
                             and abs(float(t.replace(",", "").rstrip(".")) - answer) < 1e-9 and answer not in (0, 1, 2)]
                    assert not typed, f"{q['id']} ({lang}): {typed} typed; use a marker"


def write(tmp_path, lessons):
    path = tmp_path / "self-check.yml"
    path.write_text(yaml.safe_dump({"lessons": lessons}, allow_unicode=True), encoding="utf-8")
    return path


def number(**extra):
    q = {"id": "sc-x", "type": "number", "ko": "질문", "en": "question", "value": "worked_examples.sdpa.sqrt_d_k",
         "tolerance": 0.01, "explain": {"ko": "설명", "en": "why"}}
    q.update(extra)
    return q


@pytest.mark.parametrize("change, message", [
    ({"tolerance": 0}, r"lesson 1, question sc-x: 'tolerance' must be a positive number"),
    ({"value": "sqrt_d_k"}, r"'value' must be experiment.key"),
    ({"type": "essay"}, r"'type' must be one of number, choice"),
    ({"explain": {"ko": "설명"}}, r"'explain' needs text in both ko and en \(missing en\)"),
    ({"en": ""}, r"'en' needs text"),
    ({"decimals": 2}, r"give 'tolerance' .* or 'decimals' .*, exactly one"),
    ({"ko": "질문 (소수 둘째 자리까지)", "en": "question (two decimal places)"},
     r"the ko question asks for a precision; give 'decimals: 2' instead of 'tolerance'"),
    ({"tolerance": None, "decimals": 1, "ko": "질문 (소수 둘째 자리까지)", "en": "question (one decimal place)"},
     r"'decimals: 1', but the ko question does not ask for it in those words; write '소수 첫째 자리까지'"),
    ({"tolerance": None, "decimals": 2, "ko": "질문 (소수 둘째 자리까지)", "en": "question (two decimal places)"},
     r"the ko explanation must show the answer as asked, \[\[value:worked_examples.sdpa.sqrt_d_k\|.2f\]\]"),
])
def test_a_broken_number_question_names_file_question_and_field(tmp_path, change, message):
    with pytest.raises(ValueError, match=message):
        selfcheck.load(write(tmp_path, {1: [number(**change)]}))


def test_a_choice_question_needs_one_right_choice_and_a_reason_for_each(tmp_path):
    def choice(**c):
        return {"ko": "가", "en": "a", "why": {"ko": "왜", "en": "why"}, **c}
    two_right = {"id": "sc-c", "type": "choice", "ko": "질문", "en": "q", "choices": [choice(correct=True), choice(correct=True)]}
    with pytest.raises(ValueError, match="exactly one choice needs 'correct: true'"):
        selfcheck.load(write(tmp_path, {1: [two_right]}))
    no_why = {**two_right, "choices": [choice(correct=True), {"ko": "나", "en": "b"}]}
    with pytest.raises(ValueError, match=r"choice 2: 'why' needs text"):
        selfcheck.load(write(tmp_path, {1: [no_why]}))


def test_the_marker_draws_forms_with_the_results_answer(results, monkeypatch):
    ctx = kinds.context(lang="en", results=results)
    html = markers.render("[[self-check:3]]", ctx)
    soup = BeautifulSoup(html, "html.parser")
    forms = soup.select("form.self-check__item")
    assert len(forms) == len(selfcheck.load()[3])
    by_id = {q["id"]: q for q in selfcheck.load()[3]}
    for form in forms:
        q = by_id[form["id"]]
        # lettered, so that 3.B is never taken for check question 3.2 on the same page
        assert form.select_one(".self-check__number").get_text() == f"3.{'ABCDEFGH'[list(by_id).index(q['id'])]}"
        if q["type"] == "number":
            assert float(form["data-answer"]) == selfcheck.expected(q, results)
            assert float(form["data-tolerance"]) == accepted_distance(q)
            assert soup.find("label", attrs={"for": f"{form['id']}-input"})
        else:
            radios = form.select("input[type=radio]")
            assert len(radios) == len(q["choices"])
            assert [r.has_attr("data-correct") for r in radios] == [bool(c.get("correct")) for c in q["choices"]]
            assert len(form.select("template.self-check__why")) == len(q["choices"])
    with pytest.raises(markers.MarkerError, match="no self-checked questions for lesson 42"):
        markers.render("[[self-check:42]]", ctx)


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_every_lesson_page_has_its_self_checks_in_both_languages(built_site, results, lang):
    for n, slug in enumerate(SLUGS, 1):
        page = built_site / ("" if lang == "ko" else "en") / "lessons" / slug / "index.html"
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        section = soup.select_one("section.self-check")
        assert section is not None and section["data-self-check"] == f"{lang}:lesson-{n}", slug
        assert [f["id"] for f in section.select("form")] == [q["id"] for q in selfcheck.load()[n]]
        assert "[[" not in section.get_text()
