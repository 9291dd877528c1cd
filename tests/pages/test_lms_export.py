"""The self-checked questions as Moodle XML and QTI (coursebuild/outputs/lms.py), checked against the
source: every question's text, answer and tolerance, every choice and which one is right.

The files are written from the results the site was built from (a missing one fails); the slow test
reads the ones the site build put into the instructor pack.
"""

from __future__ import annotations

import html
import io
import re
import xml.etree.ElementTree as ET
import zipfile

import pytest

from coursebuild.pipeline import site as pipeline_site
from coursebuild.outputs import editions
from coursebuild.outputs import lms
from coursebuild.content import selfcheck

LANGS = ("ko", "en")


@pytest.fixture(scope="module")
def results(report) -> dict:
    """The results the site was built from (conftest's ``report``: missing ones fail)."""
    return pipeline_site.data_from_report(report)


def words(fragment: str) -> str:
    """The words of a question's text, whatever markup (HTML, Canvas equation images) is around."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", html.unescape(fragment)))
    text = text.translate(str.maketrans("‘’“”", "''\"\""))  # text2qti's Markdown curls the quotes
    return " ".join(re.sub(r"\\\(|\\\)|\$", " ", text).split())


def source_words(markdown: str) -> list[str]:
    """Pieces of the source text outside math, which every export keeps word for word."""
    outside = re.split(r"\$[^$]*\$", markdown)
    return [" ".join(p.replace("`", "").replace("**", "").split()) for p in outside if len(p.strip()) > 3]


def expected_items(lang: str, results: dict) -> list[dict]:
    return lms.items(lang, results)


def check_text(got: str, item: dict, where: str):
    got = words(got)
    for piece in source_words(item["text"]):
        assert piece in got, f"{where}: «{piece}» not in the exported text «{got[:200]}»"


def moodle(data: bytes):
    root = ET.fromstring(data)
    return [q for q in root.findall("question") if q.get("type") != "category"], root


def check_moodle(data: bytes, lang: str, results: dict):
    questions, root = moodle(data)
    items = expected_items(lang, results)
    assert len(questions) == len(items) == sum(len(v) for v in selfcheck.load().values())
    lessons = [c.findtext("category/text") for c in root.findall("question[@type='category']")]
    assert len(lessons) == len(selfcheck.load())
    numbers = [f"{n}.{chr(ord('A') + i)}" for n, qs in selfcheck.load().items() for i in range(len(qs))]
    for q, item, number in zip(questions, items, numbers):
        where = f"moodle-{lang} {item['id']}"
        # named as the page numbers it (3.A), so that it is never taken for check question 3.1
        assert q.findtext("name/text") == f"{number} {item['id']}", where
        check_text(q.findtext("questiontext/text"), item, where)
        if item["type"] == "number":
            assert q.get("type") == "numerical", where
            (answer,) = q.findall("answer")
            assert answer.get("fraction") == "100"
            assert float(answer.findtext("text")) == pytest.approx(item["answer"], abs=1e-12), where
            assert float(answer.findtext("tolerance")) == pytest.approx(item["tolerance"]), where
            source = next(s for s in selfcheck.load()[item["lesson"]] if s["id"] == item["id"])
            assert item["answer"] == pytest.approx(selfcheck.expected(source, results))
        else:
            assert q.get("type") == "multichoice" and q.findtext("single") == "true", where
            answers = q.findall("answer")
            assert len(answers) == len(item["choices"]), where
            for a, c in zip(answers, item["choices"]):
                assert a.get("fraction") == ("100" if c["correct"] else "0"), where
                for piece in source_words(c["text"]):
                    assert piece in words(a.findtext("text")), f"{where}: choice «{piece}»"
                for piece in source_words(c["why"]):
                    assert piece in words(a.findtext("feedback/text")), f"{where}: feedback «{piece}»"


def check_qti(data: bytes, lang: str, results: dict):
    archive = zipfile.ZipFile(io.BytesIO(data))
    names = archive.namelist()
    assert "imsmanifest.xml" in names
    manifest = ET.fromstring(archive.read("imsmanifest.xml"))
    hrefs = [el.get("href") for el in manifest.iter() if el.tag.endswith("file") and el.get("href")]
    assert hrefs and all(h in names for h in hrefs), (hrefs, names)
    assessment = next(n for n in names if n.endswith(".xml") and n != "imsmanifest.xml"
                      and "assessment_meta" not in n)
    root = ET.fromstring(archive.read(assessment))
    ns = root.tag.split("}")[0] + "}" if root.tag.startswith("{") else ""
    qti_items = list(root.iter(f"{ns}item"))
    items = expected_items(lang, results)
    assert len(qti_items) == len(items)
    numbers = [f"{n}.{chr(ord('A') + i)}" for n, qs in selfcheck.load().items() for i in range(len(qs))]
    for el, item, number in zip(qti_items, items, numbers):
        where = f"qti-{lang} {item['id']}"
        assert (el.get("title") or "").startswith(f"{number} "), f"{where}: titled {el.get('title')!r}"
        meta = {f.findtext(f"{ns}fieldlabel"): f.findtext(f"{ns}fieldentry") for f in el.iter(f"{ns}qtimetadatafield")}
        text = el.find(f"{ns}presentation/{ns}material/{ns}mattext").text
        check_text(text, item, where)
        if item["type"] == "number":
            assert meta["question_type"] == "numerical_question", where
            lo = float(el.find(f".//{ns}vargte").text)
            hi = float(el.find(f".//{ns}varlte").text)
            # a range answer ([low, high], as the pack writes it) has no exact value in QTI
            assert el.find(f".//{ns}or/{ns}varequal") is None, where
            # the range holds every answer the page accepts, and at most 1e-4 more on each side
            assert item["answer"] - item["tolerance"] - 1e-4 <= lo <= item["answer"] - item["tolerance"] + 1e-12, where
            assert item["answer"] + item["tolerance"] - 1e-12 <= hi <= item["answer"] + item["tolerance"] + 1e-4, where
        else:
            assert meta["question_type"] == "multiple_choice_question", where
            labels = el.findall(f".//{ns}response_label")
            assert len(labels) == len(item["choices"]), where
            scoring = [rc for rc in el.iter(f"{ns}respcondition") if rc.findtext(f"{ns}setvar") == "100"]
            right = [rc.find(f"{ns}conditionvar/{ns}varequal").text for rc in scoring]
            correct = [lab.get("ident") for lab, c in zip(labels, item["choices"]) if c["correct"]]
            assert right == correct, where
            for lab, c in zip(labels, item["choices"]):
                for piece in source_words(c["text"]):
                    assert piece in words(lab.find(f".//{ns}mattext").text), f"{where}: choice «{piece}»"
            feedback = " ".join(words(m.text or "") for m in el.iter(f"{ns}mattext"))
            for c in item["choices"]:
                for piece in source_words(c["why"]):
                    assert piece in feedback, f"{where}: feedback «{piece}»"


@pytest.mark.parametrize("lang", LANGS)
def test_moodle_xml_matches_the_source(results, lang):
    check_moodle(lms.moodle_xml(lang, lms.items(lang, results)), lang, results)


@pytest.mark.parametrize("lang", LANGS)
def test_qti_matches_the_source(results, lang):
    check_qti(lms.qti_zip(lang, lms.items(lang, results)), lang, results)


def test_a_changed_result_changes_the_exported_answer(results):
    import copy

    changed = copy.deepcopy(results)
    changed["worked_examples"]["results"]["sdpa"]["scaled"][0][0] = 7.25
    q = next(i for i in lms.items("en", changed) if i["id"] == "sc-sdpa-scaled")
    assert q["answer"] == 7.25
    questions, _ = moodle(lms.moodle_xml("en", lms.items("en", changed)))
    answer = next(x for x in questions if x.findtext("name/text").endswith(" sc-sdpa-scaled")).find("answer/text").text
    assert float(answer) == 7.25


@pytest.mark.slow
def test_the_pack_holds_both_formats_for_both_languages(built_site, results):
    lms_dir = editions.pack_dir(built_site) / "lms"
    for lang in LANGS:
        check_moodle((lms_dir / f"moodle-{lang}.xml").read_bytes(), lang, results)
        check_qti((lms_dir / f"qti-{lang}.zip").read_bytes(), lang, results)
