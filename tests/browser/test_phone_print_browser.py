"""Phone and paper: no page scrolls sideways on a phone, and lessons print cleanly.

- Every page of both languages at 390 × 844 CSS px (a phone), before and after its widgets are
  drawn: the page itself is never wider than the screen; wide tables, code and formulas scroll
  in their own box (measured in the one visit per page, tests/browser/survey.py).
- Two lessons per language printed to A4 PDF with the site's print stylesheet (print.css,
  the one the instructor guide and the answer key use): the lesson's title first, its last
  paragraph and every figure on paper, none of the site around it, and nothing cut at the
  right edge (code wraps, tables and figures fit the page).
"""

import io
import re
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
PRINTED = ["lessons/scaled-dot-product/", "lessons/encoder-decoder/"]  # figures, tables, code, math
A4_CONTENT_PX = 690  # A4 (210 mm) less print.css's 14 mm margins, at 96 CSS px per inch
CHROME = ".md-header, .md-tabs, .md-sidebar, .md-footer, .md-search, .notebook-links, .md-clipboard"

# the elements that stick out past the right edge of the page, and how far
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth
  const out = []
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect()
    if (r.width === 0 || r.right <= width + 1) continue
    // inside a box that scrolls or clips: the box holds it, not the page
    let p = el.parentElement, held = false
    while (p && p !== document.body) {
      const s = getComputedStyle(p)
      if (/(auto|scroll|hidden|clip)/.test(s.overflowX) && p.getBoundingClientRect().right <= width + 1) { held = true; break }
      p = p.parentElement
    }
    if (!held && getComputedStyle(el).position !== "fixed") out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} ${Math.round(r.right)}px`)
  }
  return {scroll: document.documentElement.scrollWidth, width, out: out.slice(0, 5)}
}"""

# in print layout: what does not fit the page's width (a clipped line of code, a wide table)
CUT = """() => {
  const article = document.querySelector("article").getBoundingClientRect()
  const cut = []
  for (const el of document.querySelectorAll("article pre > code, article .md-typeset__scrollwrap, article table, article img, article .katex-display")) {
    const r = el.getBoundingClientRect()
    if (el.scrollWidth > el.clientWidth + 2 || r.right > article.right + 2) cut.push(`${el.tagName.toLowerCase()} ${el.scrollWidth}/${el.clientWidth} right ${Math.round(r.right)}/${Math.round(article.right)}`)
  }
  return cut
}"""


def all_pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix().removesuffix("index.html") for p in site.rglob("*.html")
                  if not p.relative_to(site).as_posix().startswith("assets/"))


def test_no_page_scrolls_sideways_on_a_phone(built_site, survey):
    """From the one visit per page at 390 px (tests/browser/survey.py): as the page comes up,
    and again with its widgets drawn."""
    paths = all_pages(built_site)
    assert len(paths) > 40 and sorted(survey) == paths, paths
    wide = {}
    for path, got in survey.items():
        for state in ("overflow", "overflow_drawn"):
            o = got["phone"].get(state)
            if o and (o["scroll"] > o["width"] or o["out"]):
                wide[f"{path or '/'} ({state})"] = o
    assert not wide, wide


def test_the_overflow_check_can_fail(browser, site_url):
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    try:
        page.goto(site_url, wait_until="load")
        page.evaluate("""() => { const d = document.createElement("div"); d.style.width = "800px"
                       d.textContent = "wide"; document.querySelector("article").append(d) }""")
        got = page.evaluate(OVERFLOW)
    finally:
        context.close()
    assert got["scroll"] > got["width"] and got["out"]


def squash(text: str) -> str:
    return re.sub(r"\s+|¶", "", text)


@pytest.mark.parametrize("lang,path", [(lang, prefix + p) for lang, prefix in (("ko", ""), ("en", "en/"))
                                       for p in PRINTED])
def test_a_lesson_prints_cleanly(browser, site_url, lang, path):
    from pypdf import PdfReader

    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(site_url) else r.abort())
    page = context.new_page()
    try:
        assert page.goto(site_url + path, wait_until="networkidle").ok
        page.evaluate("document.fonts.ready.then(() => true)")
        h1 = page.locator("article h1").inner_text()
        last = page.evaluate("""() => { const ps = [...document.querySelectorAll("article > p")]
          .filter((p) => !p.querySelector(".katex, img, code") && p.innerText.trim().length > 15)
          return ps.length ? ps[ps.length - 1].innerText.trim().slice(0, 20) : null }""")
        chrome = page.evaluate(f"""() => [...document.querySelectorAll('{CHROME}')]
          .flatMap((el) => [...el.querySelectorAll("a, label, span")].map((e) => e.textContent.trim()))
          .filter((t) => t.length >= 4)""")
        figures = page.locator("article img").count()
        article = page.locator("article").inner_text()
        page.emulate_media(media="print")
        page.set_viewport_size({"width": A4_CONTENT_PX, "height": 1000})
        page.wait_for_timeout(200)
        cut = page.evaluate(CUT)
        pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    finally:
        context.close()
    texts = [squash(p.extract_text()) for p in pdf.pages]
    text = "".join(texts)
    assert 2 <= len(pdf.pages) <= 40, len(pdf.pages)
    assert squash(h1) in texts[0][:len(squash(h1)) + 20], "something prints above the title"
    assert last and squash(last) in text, f"the lesson's last paragraph ({last!r}) did not print"
    on_screen = squash(article)
    leaked = sorted({t for t in chrome if squash(t) not in on_screen and squash(t) in text})
    assert leaked == [], f"the site around the lesson printed: {leaked}"
    images = sum(len(p.images) for p in pdf.pages)
    assert figures >= 1 and images >= figures, (figures, images)
    assert cut == [], cut
