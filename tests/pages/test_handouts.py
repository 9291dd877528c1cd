"""The lessons' printable handouts (coursebuild/outputs/handouts.py): one A4 PDF per lesson and language.

Every student handout of the built site is opened with pypdf: A4, at most two pages, none of
them holding only an answer box; the lesson's title, the worked example and every check
question; at least three numbered blanks (①, ②, …) and none of their values anywhere on the
sheet; no Markdown or TeX markup and no sentence about what paper has not (widgets, clicks,
sliders); every font embedded, the Korean text in NanumGothic. The blanks' values are what
``[[value:…]]`` prints for the blank markers of the sources (``docs/handouts/``), read here
with a regular expression of this file; the instructor pack's versions hold them. The first
page of every handout is drawn to PNG (pypdfium2) into ``.build/handout-previews/`` for a
person to look at.
"""

import math
import re
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from pypdf import PdfReader

from coursebuild.content import questions, ui
from coursebuild.course import LESSONS
from coursebuild.outputs import editions, handout_print, handouts
from coursebuild.pages import kinds
from coursebuild.pipeline import site as pipeline_site

pytestmark = pytest.mark.slow
A4 = (595.28, 841.89)  # points
REPO = Path(__file__).resolve().parents[2]
SOURCES = REPO / "docs" / "handouts"
PREVIEWS = REPO / ".build" / "handout-previews"
BLANK_MARKER = re.compile(r"\[\[blank:([\w.-]+)(?:\|([^\]|]*))?\]\]")
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫"
# markup that must not survive into the printed text
MARKUP = ["**", "\\frac", "underbrace", "\\cdot", "\\text", "$", "\\(", "[[", "]]", "&amp;"]
# what paper has not (as whole words, either language)
NOT_ON_PAPER = re.compile(r"\b(?:widgets?|click\w*|sliders?|drag\w*|buttons?|toggle\w*|hover\w*|scroll\w*)\b|"
                          r"위젯|클릭|슬라이더|드래그|끌어|버튼|눌러", re.I)
NUMBER = re.compile(r"(?<![\d.,])[-−]?\d[\d,]*(?:\.\d+)?%?")


def pdf_text(reader: PdfReader) -> str:
    return re.sub(r"\s+", " ", " ".join(p.extract_text() or "" for p in reader.pages))


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


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


def as_number(token: str) -> float | None:
    try:
        return float(token.replace(",", "").replace("−", "-").rstrip("%"))
    except ValueError:
        return None


def numbers(text: str) -> list[str]:
    return NUMBER.findall(text)


def blank_values(lesson, lang: str, results: dict) -> list[str]:
    """The values of the lesson's blanks, as ``[[value:…]]`` prints them (read from the source)."""
    source = yaml.safe_load((SOURCES / f"lesson-{lesson.number:02d}.yml").read_text(encoding="utf-8"))
    ctx = kinds.context(lang, page="docs/handouts", src_uri=f"lessons/{lesson.slug}.md", results=results)
    return [ctx.render(f"[[value:{key}{'|' + fmt if fmt else ''}]]")
            for key, fmt in BLANK_MARKER.findall(source[lang]["text"])]


def same_number(a: str, b: str) -> bool:
    x, y = as_number(a), as_number(b)
    if x is None or y is None:
        return False
    if a.endswith("%") != b.endswith("%"):  # 49.7% against 0.497 is the same share
        x, y = (x / 100 if a.endswith("%") else x), (y / 100 if b.endswith("%") else y)
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)


@pytest.fixture(scope="module")
def results(report):
    return pipeline_site.data_from_report(report)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_lesson_has_a_student_handout_fit_for_paper(built_site, results, lang):
    problems = []
    for lesson in LESSONS:
        path = built_site / handouts.site_path(lesson, lang)
        assert path.is_file(), f"no handout {path.relative_to(built_site)}"
        reader = PdfReader(path)
        name = f"{lang}/{path.name}"
        if not 1 <= len(reader.pages) <= 2:
            problems.append(f"{name}: {len(reader.pages)} pages, not one or two")
        for n, page in enumerate(reader.pages, 1):
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            if abs(w - A4[0]) > 1 or abs(h - A4[1]) > 1:
                problems.append(f"{name}: page {n} is {w}×{h} pt, not A4")
            body = squash(page.extract_text() or "").replace(squash(reader.metadata.title or ""), "")
            if len(body) < 150:  # a page holding only a box (and the footer)
                problems.append(f"{name}: page {n} holds almost no text ({len(body)} characters)")
        used = fonts(reader)
        if not used or not all(used.values()):
            problems.append(f"{name}: fonts not embedded: {[f for f, e in used.items() if not e]}")
        if lang == "ko" and not any("NanumGothic" in f for f in used):
            problems.append(f"{name}: no Korean font: {sorted(used)}")
        text = pdf_text(reader)
        flat = squash(text)
        for expected in (lesson.title[lang], ui.text(lang, "handout.worked"), ui.text(lang, "handout.questions")):
            if squash(expected) not in flat:
                problems.append(f"{name}: «{expected}» missing")
        qs = questions.load()[lesson.number]["questions"]
        for n in range(1, len(qs) + 2):
            shown = squash(ui.text(lang, "handout.question", n=n)) in flat
            if shown != (n <= len(qs)):
                problems.append(f"{name}: question {n} {'missing' if n <= len(qs) else 'is extra'}")
        if squash(ui.text(lang, "questions.answer")) in flat:
            problems.append(f"{name}: the student handout shows answers")
        labels = {c for c in text if c in CIRCLED}
        if len(labels) < 3:
            problems.append(f"{name}: {len(labels)} numbered blank(s), fewer than 3")
        values = blank_values(lesson, lang, results)
        if len(values) < 3 or len(labels) != len(values):
            problems.append(f"{name}: {len(values)} blanks in the source, {len(labels)} on the sheet")
        found = numbers(text)
        for k, value in enumerate(values, 1):
            if any(same_number(value, token) for token in found):
                problems.append(f"{name}: blank {CIRCLED[k - 1]}'s answer {value} is printed on the sheet")
        problems += [f"{name}: markup {m!r} in the text" for m in MARKUP if m in text]
        problems += [f"{name}: «{m.group(0)}»: not on paper" for m in NOT_ON_PAPER.finditer(text)]
    assert not problems, "\n".join(problems)


def test_a_blank_answer_on_the_sheet_is_caught():
    """The number comparison the test above relies on: formats differ, values do not."""
    assert same_number("16,640", "16640") and same_number("0.10", "0.1") and same_number("49.7%", "0.497")
    assert not same_number("0.455", "0.456")
    assert any(same_number("1.50", t) for t in numbers("scaled: 3 / 2 = 1.5 here"))
    assert not any(same_number("3", t) for t in numbers("2.3 and 13 and 0.3%"))
    assert any(same_number("3", t) for t in numbers("q3 and k 3"))


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_instructor_pack_fills_every_blank(built_site, results, lang):
    pack = editions.pack_dir(built_site) / "handouts" / lang
    problems = []
    for lesson in LESSONS:
        path = pack / handouts.file_name(lesson)
        if not path.is_file():
            problems.append(f"no {path}")
            continue
        text = pdf_text(PdfReader(path))
        found = numbers(text)
        missing = [v for v in blank_values(lesson, lang, results) if not any(same_number(v, t) for t in found)]
        if missing:
            problems.append(f"{lang}/{path.name}: blanks not filled: {missing}")
        if squash(ui.text(lang, "questions.answer")) not in squash(text):
            problems.append(f"{lang}/{path.name}: no worked answers")
    assert not problems, "\n".join(problems)


def test_the_sources_have_the_same_blanks_in_both_languages():
    for lesson in LESSONS:
        source = yaml.safe_load((SOURCES / f"lesson-{lesson.number:02d}.yml").read_text(encoding="utf-8"))
        ko, en = (BLANK_MARKER.findall(source[lang]["text"]) for lang in ("ko", "en"))
        assert ko == en and len(ko) >= 3, f"lesson {lesson.number}: ko {ko}, en {en}"


def test_the_first_pages_drawn_for_a_person_to_look_at(built_site):
    """Each handout's first page as a PNG in .build/handout-previews/ (see README, "Handouts");
    a drawn page is A4-shaped and not blank."""
    import pypdfium2

    PREVIEWS.mkdir(parents=True, exist_ok=True)
    for old in PREVIEWS.glob("*.png"):
        old.unlink()
    for lesson in LESSONS:
        for lang in ("ko", "en"):
            doc = pypdfium2.PdfDocument(str(built_site / handouts.site_path(lesson, lang)))
            try:
                image = doc[0].render(scale=96 / 72).to_pil()
            finally:
                doc.close()
            target = PREVIEWS / f"{lang}-{handouts.file_name(lesson)[:-4]}.png"
            image.save(target)
            assert abs(image.height / image.width - A4[1] / A4[0]) < 0.01, target.name
            dark = sum(image.convert("L").histogram()[:128]) / (image.width * image.height)
            assert dark > 0.01, f"{target.name}: the page is almost empty ({dark:.1%} dark)"


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


def test_the_answered_version_reuses_its_cache(report, tmp_path):
    """What the instructor pack calls: the same handout with the blanks filled, cached by its page."""
    figs = {(o.name, stem): p for o in report.outcomes for stem, p in o.figure_paths("en").items()}
    lesson = LESSONS[1]
    args = (lesson, "en", pipeline_site.data_from_report(report), lambda e, s: figs[(e, s)])
    out, made = handouts.handout_pdf(*args, tmp_path / "a.pdf", answers=True, cache=tmp_path / "c")
    assert made
    text = squash(pdf_text(PdfReader(out)))
    assert squash(ui.text("en", "questions.answer")) in text
    again, made = handouts.handout_pdf(*args, tmp_path / "b.pdf", answers=True, cache=tmp_path / "c")
    assert not made and again.read_bytes() == out.read_bytes()


def test_without_chromium_the_handouts_stop_and_say_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setenv("CHROMIUM_PATH", str(tmp_path / "no-chromium"))
    with pytest.raises(handout_print.ChromiumMissing) as caught:
        handouts.make([handouts.Job(tmp_path / "x.pdf", "<html></html>", False)], tmp_path / "cache")
    assert "apt-get install -y chromium" in str(caught.value) and "scripts/setup.sh" in str(caught.value)


def test_the_korean_sources_particles_agree():
    """The particles after numbers and formulas in the Korean handout sources, by the rule the
    pages follow (tests/pages/test_korean_particles.py)."""
    from test_korean_particles import source_problems

    problems = []
    for path in sorted(SOURCES.glob("lesson-*.yml")):
        ko = yaml.safe_load(path.read_text(encoding="utf-8"))["ko"]
        problems += source_problems(f"docs/handouts/{path.name}", ko["caption"] + "\n\n" + ko["text"])
    assert not problems, "\n".join(problems)


def test_the_sources_use_the_glossary_s_words():
    """One word per concept on paper too: no word the glossary refuses, in either language."""
    from coursebuild.content import glossary

    terms, problems = glossary.load(), []
    for path in sorted(SOURCES.glob("lesson-*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        ko, en = (data[lang]["caption"] + "\n" + data[lang]["text"] for lang in ("ko", "en"))
        problems += [f"{path.name}: «{w}» → {r}" for w, r in glossary.find_mistranslations(ko, terms)]
        problems += [f"{path.name}: «{w}» → {r}" for w, r in glossary.find_wrong_english(en, terms)]
    assert not problems, "\n".join(problems)
