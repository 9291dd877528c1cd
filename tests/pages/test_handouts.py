"""The lessons' printable handouts (coursebuild/handouts.py): one A4 PDF per lesson and language.

Each student handout is opened with pypdf: A4 pages, a sensible page count, the lesson's title,
its check questions (every one, with room to write) and its worked example in the text, every
font embedded (NanumGothic for the Korean text), no worked answer anywhere; each lesson page
links its own handout. The answered version (for the instructor pack) holds the answers.
"""

import re

import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

from coursebuild.pipeline import site as pipeline_site
from coursebuild.outputs import handouts
from coursebuild.content import questions, ui
from coursebuild.course import LESSONS

pytestmark = pytest.mark.slow
A4 = (595.28, 841.89)  # points


def pdf_text(reader: PdfReader) -> str:
    return re.sub(r"\s+", " ", " ".join(p.extract_text() or "" for p in reader.pages))


def fonts(reader: PdfReader) -> dict[str, bool]:
    """{font name: embedded?} over every page."""
    found = {}
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            desc = target.get("/FontDescriptor")
            desc = desc.get_object() if desc else {}
            found[str(font.get("/BaseFont"))] = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    return found


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_lesson_has_a_student_handout(built_site, lang):
    for lesson in LESSONS:
        path = built_site / handouts.site_path(lesson, lang)
        assert path.is_file(), f"no handout {path.relative_to(built_site)}"
        reader = PdfReader(path)
        assert 2 <= len(reader.pages) <= 10, f"{path.name} ({lang}): {len(reader.pages)} pages"
        for page in reader.pages:
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            assert abs(w - A4[0]) < 1 and abs(h - A4[1]) < 1, f"{path.name}: page {w}×{h} pt is not A4"
        used = fonts(reader)
        assert used and all(used.values()), f"{path.name} ({lang}): fonts not embedded: {used}"
        if lang == "ko":
            assert any("NanumGothic" in name for name in used), f"{path.name}: no Korean font: {used}"
        text = pdf_text(reader)
        assert squash(lesson.title[lang]) in squash(text), f"{path.name}: no title"
        for heading in (ui.text(lang, "handout.worked"), ui.text(lang, "handout.questions")):
            assert squash(heading) in squash(text), f"{path.name}: no '{heading}'"
        qs = questions.load()[lesson.number]["questions"]
        for n in range(1, len(qs) + 1):
            assert squash(ui.text(lang, "handout.question", n=n)) in squash(text), f"{path.name}: question {n} missing"
        assert squash(ui.text(lang, "handout.question", n=len(qs) + 1)) not in squash(text)
        assert squash(ui.text(lang, "questions.answer")) not in squash(text), \
            f"{path.name}: the student handout shows answers"
        if lesson.number in (2, 3, 4, 5, 6, 9):  # worked examples with formulas to work out
            assert handouts.BLANK in text, f"{path.name}: nothing to fill in"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_each_lesson_page_links_its_handout(built_site, lang):
    for lesson in LESSONS:
        page = built_site / ("" if lang == "ko" else "en") / "lessons" / lesson.slug / "index.html"
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        link = soup.select_one("a.classroom-links__handout")
        assert link is not None, f"{lang}/{lesson.slug}: no handout link"
        target = (page.parent / link["href"]).resolve()
        assert target == (built_site / handouts.site_path(lesson, lang)).resolve(), link["href"]
        assert target.is_file()


def test_the_answered_version_holds_the_answers_and_reuses_its_cache(report, tmp_path):
    """What the instructor pack calls: the same handout with the worked answers, cached."""
    figs = {(o.name, stem): p for o in report.outcomes for stem, p in o.figure_paths("en").items()}
    lesson = LESSONS[1]
    args = (lesson, "en", pipeline_site.data_from_report(report), lambda e, s: figs[(e, s)])
    out, made = handouts.handout_pdf(*args, tmp_path / "a.pdf", answers=True, cache=tmp_path / "c")
    assert made
    text = squash(pdf_text(PdfReader(out)))
    assert squash(ui.text("en", "questions.answer")) in text
    assert handouts.BLANK not in text
    again, made = handouts.handout_pdf(*args, tmp_path / "b.pdf", answers=True, cache=tmp_path / "c")
    assert not made and again.read_bytes() == out.read_bytes()


def test_latex_becomes_plain_text():
    assert handouts.math_to_html(r"q_1 \cdot k_1 = 1 \times 0") == "q<sub>1</sub> · k<sub>1</sub> = 1 × 0"
    assert handouts.math_to_html(r"\sqrt{d_k}") == "√d<sub>k</sub>"
    assert handouts.math_to_html(r"\operatorname{softmax}(QK^{\top}/\sqrt{d_k})") == "softmax(QKᵀ/√d<sub>k</sub>)"
    assert handouts._split_result(r"a = b \approx 3")[1].strip() == "3"
    assert handouts.inline_html(r"so $2 \times 3 = 6$ and $d_k = 2$", blank=True) == \
        f"so 2 × 3 = {handouts.BLANK} and d<sub>k</sub> = 2"
