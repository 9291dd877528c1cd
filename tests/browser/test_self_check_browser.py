"""The self-checked questions in Debian's chromium: answered right and wrong with the keyboard
alone, in both languages, the progress kept in localStorage across a reload and cleared by the
section's button; no serious axe violation with the feedback shown, in both palettes."""

from __future__ import annotations

import pytest

from coursebuild.pipeline import site as pipeline_site
from coursebuild.content import selfcheck

from test_accessibility_browser import blocking, run_axe, switch_palette

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOTS = {"ko": "", "en": "en/"}
LESSON = 2, "library-qkv"
WORDS = {"ko": {"right": "맞습니다.", "wrong": "아직 아닙니다.", "progress": "{n}문제 중 {k}문제를 맞혔습니다."},
         "en": {"right": "Right.", "wrong": "Not yet.", "progress": "{k} of {n} right."}}


@pytest.fixture(scope="module")
def questions(report):
    results = pipeline_site.data_from_report(report)
    return [(q, selfcheck.expected(q, results) if q["type"] == "number" else None)
            for q in selfcheck.load()[LESSON[0]]]


def open_lesson(page, site_url, lang):
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    assert page.goto(f"{site_url}{ROOTS[lang]}lessons/{LESSON[1]}/", wait_until="networkidle").ok
    page.wait_for_function("document.querySelector('.self-check__progress').textContent.length > 0")
    return errors


def tab_to(page, selector: str, limit: int = 400) -> None:
    """Press Tab until the element matching ``selector`` has the focus (the keyboard only)."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def feedback(page, qid: str) -> str:
    box = page.locator(f"#{qid} .self-check__feedback")
    box.wait_for(state="visible")
    return box.inner_text()


def progress(page) -> str:
    return page.locator(".self-check__progress").inner_text()


def answer_number(page, qid: str, text: str) -> str:
    tab_to(page, f"#{qid}-input")
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    page.keyboard.press("Enter")  # submits the form
    return feedback(page, qid)


def answer_choice(page, q: dict, index: int) -> str:
    tab_to(page, f"#{q['id']} input[type=radio]")
    for _ in range(index):
        page.keyboard.press("ArrowDown")  # moves and checks the next radio button
    if index == 0:
        page.keyboard.press("Space")
    tab_to(page, f"#{q['id']} button[type=submit]")
    page.keyboard.press("Enter")
    return feedback(page, q["id"])


@pytest.mark.parametrize("lang", ROOTS)
def test_right_and_wrong_answers_by_keyboard_and_progress_kept_then_cleared(site_page, site_url, questions, lang):
    w = WORDS[lang]
    errors = open_lesson(site_page, site_url, lang)
    n = len(questions)
    assert progress(site_page).startswith(w["progress"].format(k=0, n=n))
    right = 0
    for q, expected in questions:
        if q["type"] == "number":
            tol = q["tolerance"] if q.get("tolerance") is not None else 10.0 ** -q["decimals"]
            off = expected + 10 * tol
            assert feedback_starts(answer_number(site_page, q["id"], f"{off:.6f}"), w["wrong"])
            near = expected + 0.5 * tol
            text = answer_number(site_page, q["id"], f"{near:.6f}")
            assert feedback_starts(text, w["right"]), text
        else:
            wrong = next(i for i, c in enumerate(q["choices"]) if not c.get("correct"))
            text = answer_choice(site_page, q, wrong)
            assert feedback_starts(text, w["wrong"]) and q["choices"][wrong]["why"][lang].split()[0] in text
            good = next(i for i, c in enumerate(q["choices"]) if c.get("correct"))
            site_page.reload(wait_until="networkidle")
            text = answer_choice(site_page, q, good)
            assert feedback_starts(text, w["right"]), text
        right += 1
        assert progress(site_page).startswith(w["progress"].format(k=right, n=n))
    key = f"course-self-check:{lang}:lesson-{LESSON[0]}"
    stored = site_page.evaluate("(k) => JSON.parse(localStorage.getItem(k))", key)
    assert stored == {q["id"]: True for q, _ in questions}
    site_page.reload(wait_until="networkidle")
    site_page.wait_for_function("document.querySelector('.self-check__progress').textContent.length > 0")
    assert progress(site_page).startswith(w["progress"].format(k=n, n=n)), "progress not kept"
    tab_to(site_page, ".self-check__clear")
    site_page.keyboard.press("Enter")
    assert w["progress"].format(k=0, n=n) in progress(site_page)
    assert site_page.evaluate("(k) => localStorage.getItem(k)", key) is None
    assert not [r for r in site_page.requests if not r.startswith(site_url)], "a request left the site"
    assert not errors, errors


def feedback_starts(text: str, verdict: str) -> bool:
    return text.strip().startswith(verdict)


def test_a_typed_answer_that_is_not_a_number_says_so(site_page, site_url, questions):
    open_lesson(site_page, site_url, "en")
    q = next(q for q, _ in questions if q["type"] == "number")
    assert "Write a number" in answer_number(site_page, q["id"], "about five")
    assert progress(site_page).startswith("0 of")


def test_axe_finds_nothing_serious_with_feedback_shown(site_page, site_url, questions):
    open_lesson(site_page, site_url, "ko")
    for q, expected in questions:
        if q["type"] == "number":
            answer_number(site_page, q["id"], "0.000001")
        else:
            answer_choice(site_page, q, 0)
    found = {}
    for scheme in ("light", "dark"):
        switch_palette(site_page, scheme)
        found[scheme] = run_axe(site_page, inject=scheme == "light")  # a button still has the focus
        site_page.evaluate("document.activeElement && document.activeElement.blur()")
        found[f"{scheme}, nothing focused"] = run_axe(site_page, inject=False)
    assert not blocking(found), blocking(found)
