"""Every widget control can be hit with a finger: at least 44 × 44 CSS px on a 390 px phone.

The target of a checkbox or radio button is the control with its label (a tap on the label
toggles it), of any other control the control itself. Each lesson page that holds widgets, in
both languages, with every widget scrolled into view (the model widgets load their weights and
draw their word buttons), is checked (in the one visit per page, tests/browser/survey.py). And the translator's Korean words are text, not look-alike
buttons: no border and no pointer, unlike the English word buttons beside them.
"""

import pytest

from coursebuild.course import LESSONS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TARGET = 44  # CSS px, WCAG 2.5.5
SMALL = """(min) => {
  const out = [];
  for (const c of document.querySelectorAll('.widget button, .widget select, .widget input, .widget [tabindex="0"]')) {
    const box = c.getBoundingClientRect();
    if (!box.width || !box.height) continue;  // not shown in this state
    let w = box.width, h = box.height;
    if (c.type === 'checkbox' || c.type === 'radio') {
      for (const label of c.labels || []) {
        const l = label.getBoundingClientRect();
        const left = Math.min(box.left, l.left), right = Math.max(box.right, l.right);
        const top = Math.min(box.top, l.top), bottom = Math.max(box.bottom, l.bottom);
        w = Math.max(w, right - left); h = Math.max(h, bottom - top);
      }
    }
    if (w < min - 0.5 || h < min - 0.5)
      out.push(`${c.closest('.widget').dataset.widget}: <${c.tagName.toLowerCase()} ${c.type || ''}> ` +
               `"${(c.textContent || c.id || '').trim().slice(0, 30)}" ${w.toFixed(0)} × ${h.toFixed(0)} px`);
  }
  return out;
}"""


def widget_pages(site):
    pages = []
    for lesson in LESSONS:
        for prefix in ("", "en/"):
            path = prefix + lesson.page.removesuffix(".md") + "/"
            html = (site / path / "index.html").read_text(encoding="utf-8")
            if 'class="widget"' in html:
                pages.append(path)
    return pages


def test_every_widget_control_is_a_finger_wide_on_a_phone(built_site, survey):
    """From the one visit per page at 390 px, every widget drawn (tests/browser/survey.py)."""
    pages = widget_pages(built_site)
    assert len(pages) >= 14, pages
    assert all(survey[path]["phone"]["widgets"] for path in pages)
    small = [f"{path}: {s}" for path, got in survey.items() for s in got["phone"].get("small", [])]
    assert not small, "controls under 44 × 44 px:\n" + "\n".join(small)
    assert [e for path in pages for e in survey[path]["phone"]["errors"]] == []


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_translator_korean_words_do_not_look_like_buttons(site_page, site_url, lang):
    site_page.goto(site_url + ("" if lang == "ko" else "en/") + "lessons/why-attention/", wait_until="networkidle")
    widget = site_page.locator('.widget[data-widget="translator"]')
    widget.scroll_into_view_if_needed()
    site_page.wait_for_selector('.widget[data-widget="translator"][data-state="ready"]', timeout=20_000)
    style = """(e) => { const s = getComputedStyle(e); return [s.borderTopColor, s.cursor, s.borderTopWidth]; }"""
    token = widget.locator(".widget-tokens li").first.evaluate(style)
    button = widget.locator("button.widget-word").first.evaluate(style)
    assert token[1] != "pointer" and button[1] == "pointer"
    assert token[0] in ("rgba(0, 0, 0, 0)", "transparent") and token[0] != button[0]
