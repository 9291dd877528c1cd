"""The printable teaching pages: the answer key and the instructor guide as A4 PDFs.

Each page is opened in Chromium, switched to print media and printed with ``page.pdf``; the
PDF's text (read with pypdf) must hold the page's content and nothing of the site around it:
no header, navigation, search or footer. Folded answers must print open (print.js), and each
h2 section but the first must start a new page (print.css).

Chromium's PDF puts spaces between Korean syllables and moves formulas around, so texts are
compared with all whitespace removed, and only prose outside formulas is looked for.
"""

import io
import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOTS = {"ko": "", "en": "en/"}
PAGES = {"answer-key": "teaching/answer-key/", "instructor-guide": "teaching/instructor-guide/"}

# the site around the article: every text in these, unless the article has it too, must not print
CHROME = ".md-header, .md-tabs, .md-sidebar, .md-search, .md-footer, .md-footer-meta, .md-top"
# one piece of prose per folded answer: the start of its longest text node (outside formulas)
ANSWER_SNIPPETS = """() => [...document.querySelectorAll("article details.success")].map((d) => {
  const nodes = [...d.querySelectorAll("p, li")].flatMap((p) =>
    [...p.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim().length >= 12))
  const best = nodes.sort((a, b) => b.textContent.length - a.textContent.length)[0]
  return best ? best.textContent.trim().slice(0, 24) : null
})"""
# the first cell of every table row, unless it holds a formula
CELLS = """() => [...document.querySelectorAll("article table td:first-child")]
  .filter((td) => !td.querySelector(".arithmatex, .katex")).map((td) => td.innerText)"""
CHROME_TEXTS = f"""() => {{
  const texts = [...document.querySelectorAll('{CHROME}')].flatMap((el) =>
    [...el.querySelectorAll("a, label, span, div, p, li")].map((e) => e.textContent))
  const search = document.querySelector(".md-search__input")
  if (search) texts.push(search.placeholder)
  return texts
}}"""


def squash(text: str) -> str:
    """Without whitespace, and without the headings' permalink sign."""
    return re.sub(r"\s+|¶", "", text)


def print_pdf(page, site_url, path) -> dict:
    """Open ``path``, print it to an A4 PDF; return its pages' texts and what the DOM said."""
    from pypdf import PdfReader

    response = page.goto(site_url + path, wait_until="networkidle")
    assert response.ok
    page.evaluate("document.fonts.ready.then(() => true)")
    dom = {
        "closed": page.locator("article details:not([open])").count(),
        "h1": page.locator("article h1").inner_text(),
        "h2": page.locator("article h2").all_inner_texts(),
        "chrome": page.evaluate(CHROME_TEXTS),
        "answers": page.evaluate(ANSWER_SNIPPETS),
        "cells": page.evaluate(CELLS),
    }
    page.emulate_media(media="print")
    # print.js opens every folded block when print media comes on
    page.wait_for_function("() => !document.querySelector('article details:not([open])')", timeout=5000)
    dom["article"] = page.locator("article").inner_text()  # with the folded blocks open
    reader = PdfReader(io.BytesIO(page.pdf(format="A4")))
    n = len(reader.pages)
    pages = []
    for i, p in enumerate(reader.pages):
        text = squash(p.extract_text())
        pages.append(text.removeprefix(f"{i + 1}/{n}"))  # the page number print.css adds
    return {"pages": pages, "text": "".join(pages), **dom}


def new_page_sections(pdf) -> list[str]:
    """The h2 headings (after the first) that do not start a page of the PDF."""
    starts = [p[:200] for p in pdf["pages"]]
    return [h for h in pdf["h2"][1:] if not any(s.startswith(squash(h)) for s in starts)]


def chrome_in_print(pdf) -> list[str]:
    """Texts of the header, navigation, search and footer that made it into the PDF."""
    article = squash(pdf["article"])
    found = set()
    for text in pdf["chrome"]:
        t = squash(text or "")
        if len(t) >= 2 and t not in article and t in pdf["text"]:
            found.add(text.strip())
    return sorted(found)


@pytest.mark.parametrize("lang", ROOTS)
def test_answer_key_prints_every_answer_open_one_lesson_per_page(site_page, site_url, lang):
    pdf = print_pdf(site_page, site_url, ROOTS[lang] + PAGES["answer-key"])
    assert pdf["closed"] > 9, "the answers should be folded on screen"
    # nine lessons and the assignments, each from the top of a page; not absurdly long
    assert len(pdf["h2"]) == 10 and new_page_sections(pdf) == []
    assert 10 <= len(pdf["pages"]) <= 80, len(pdf["pages"])
    assert pdf["pages"][0].startswith(squash(pdf["h1"])), "something prints above the title"
    missing = [s for s in pdf["answers"] if s is None or squash(s) not in pdf["text"]]
    assert len(pdf["answers"]) > 9 and not missing, missing
    assert chrome_in_print(pdf) == []


@pytest.mark.parametrize("lang", ROOTS)
def test_instructor_guide_prints_its_sections_and_tables(site_page, site_url, lang):
    pdf = print_pdf(site_page, site_url, ROOTS[lang] + PAGES["instructor-guide"])
    assert len(pdf["h2"]) >= 5, "the guide should have its sections"
    assert new_page_sections(pdf) == []
    assert len(pdf["h2"]) <= len(pdf["pages"]) <= 60, len(pdf["pages"])
    assert pdf["pages"][0].startswith(squash(pdf["h1"])), "something prints above the title"
    assert any("50" in h for h in pdf["h2"]), "no 50-minute lecture plan"
    assert all(squash(h) in pdf["text"] for h in pdf["h2"])
    cells = [squash(c) for c in pdf["cells"] if len(squash(c)) >= 2]
    assert len(cells) >= 10 and [c for c in cells if c not in pdf["text"]] == []
    assert chrome_in_print(pdf) == []
