"""axe-core on every page of the built site, both languages, light and dark palettes.

axe-core 4.14.1 is vendored from npm (tests/browser/vendor/axe-core) and injected into each page with
``add_script_tag(content=…)``: nothing is fetched from another host. The goal, held here: no
critical or serious violation on any page. The light palette runs every rule; the dark one
(Material's ``slate``, switched to with the page's own toggle, on the same page load) runs the
rules that depend on colour, since nothing else differs between the two. Every widget is drawn
before axe runs (each is scrolled into view, so the model widgets load too), so the widgets are
checked on every page. The pages are visited once for all the site-wide checks (the ``survey``
fixture, tests/browser/survey.py); here: axe's results, every page found with its widgets
drawn, and no console error on any page at either width.
"""

from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

AXE = (Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
BLOCKING = {"critical", "serious"}


def pages(site: Path) -> list[str]:
    """Every HTML page of the site, as paths relative to its root ("" for the home page)."""
    found = []
    for html in sorted(site.rglob("*.html")):
        rel = html.relative_to(site).as_posix()
        if rel.startswith("assets/"):
            continue
        found.append(rel.removesuffix("index.html"))
    return found


def run_axe(page, rules=None, inject=True) -> list[dict]:
    if inject:
        page.add_script_tag(content=AXE)
    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    return page.evaluate(
        """async (options) => {
          const r = await axe.run(document, options)
          return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
            summary: v.nodes.slice(0, 1).map((n) => n.failureSummary)}))
        }""",
        options,
    )


# every widget on the page scrolled into view (the model widgets load their weights then) and
# waited for until it is drawn, so that axe sees the widgets as a reader does; returns the
# widgets that were not drawn within 20 s, or failed
DRAW_WIDGETS = """async () => {
  const widgets = [...document.querySelectorAll('.widget[data-widget]')]
  for (const w of widgets) {
    w.scrollIntoView()
    const t0 = performance.now()
    while (!['ready', 'error'].includes(w.dataset.state) && performance.now() - t0 < 20000)
      await new Promise((r) => setTimeout(r, 50))
  }
  window.scrollTo(0, 0)
  return widgets.filter((w) => w.dataset.state !== 'ready').map((w) => `${w.dataset.widget}: ${w.dataset.state || 'never started'}`)
}"""
PALETTE = "document.body.getAttribute('data-md-color-scheme')"
SCHEMES = {"light": "default", "dark": "slate"}  # Material's names for the two palettes


# the header's palette toggle, pressed from script: a mouse click would leave the pointer on
# the button, and axe would then read its tooltip halfway through fading in
TOGGLE = """() => [...document.querySelectorAll("form[data-md-component='palette'] label")]
  .find((label) => label.offsetParent !== null).click()"""


def switch_palette(page, scheme: str) -> None:
    """Switch to ``scheme`` ("light" or "dark") with the header's palette toggle, as a reader does."""
    want = SCHEMES[scheme]
    if page.evaluate(PALETTE) != want:
        page.evaluate(TOGGLE)
        page.wait_for_function(f"{PALETTE} === '{want}'")


def blocking(found: dict[str, list[dict]]) -> list[str]:
    return [f"{path or '/'}: {v['id']} ({v['impact']}, {v['nodes']} nodes: {', '.join(v['targets'])}) "
            f"{v['summary'][0][:200] if v['summary'] else ''}"
            for path, violations in found.items() for v in violations if v["impact"] in BLOCKING]


def test_the_site_has_pages_of_both_languages(built_site):
    found = pages(built_site)
    assert "" in found and "en/" in found and "lessons/position/" in found and "en/lessons/position/" in found
    assert len([p for p in found if p.startswith("en/")]) * 2 >= len(found) - 1, found


@pytest.fixture(scope="module")
def every_page(survey) -> dict[str, dict[str, list[dict]]]:
    """{scheme: {path: violations}} from the one visit per page (tests/browser/survey.py)."""
    return {scheme: {path: got["desktop"]["axe"][scheme] for path, got in survey.items()} for scheme in SCHEMES}


def test_every_page_loads_and_draws_its_widgets_at_both_widths(built_site, survey):
    assert sorted(survey) == sorted(pages(built_site))
    problems = [f"{path or '/'} ({width}): {'not found' if not got[width]['ok'] else 'widgets not drawn: '}"
                f"{got[width].get('undrawn') or ''}" for path, got in survey.items() for width in ("desktop", "phone")
                if not got[width]["ok"] or got[width].get("undrawn")]
    assert not problems, "\n".join(problems)


def test_no_page_logs_an_error_at_either_width(survey):
    errors = [f"{path or '/'} ({width}): {e}" for path, got in survey.items() for width in ("desktop", "phone")
              for e in got[width]["errors"]]
    assert not errors, "\n".join(errors[:20])


def test_no_serious_violation_on_any_page_in_the_light_palette(every_page):
    problems = blocking(every_page["light"])
    assert not problems, "\n".join(problems)


def test_no_serious_colour_violation_on_any_page_in_the_dark_palette(every_page):
    problems = blocking(every_page["dark"])
    assert not problems, "\n".join(problems)


def test_a_dark_system_setting_opens_the_dark_palette(browser, site_url):
    """The scan switches palettes with the toggle; a reader whose system is dark gets the dark
    palette at once (mkdocs.yml: palette media queries)."""
    for scheme, want in SCHEMES.items():
        context = browser.new_context(color_scheme=scheme, service_workers="block")
        try:
            page = context.new_page()
            page.goto(site_url + "lessons/position/", wait_until="load")
            assert page.evaluate(PALETTE) == want, scheme
        finally:
            context.close()


def test_axe_finds_what_it_should(browser, site_url):
    """The check can fail: on a page made worse on purpose, axe reports the four rules."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    try:
        page.goto(site_url, wait_until="load")
        page.evaluate("""() => {
          const a = document.createElement("p")
          a.innerHTML = 'text <a href="#" style="text-decoration:none;color:#3f51b5">link</a> text'
          a.style.color = "#000"
          const low = document.createElement("p")
          low.textContent = "low contrast"; low.style.color = "#777"; low.style.background = "#f5f5f5"
          const box = document.createElement("div")
          box.style.cssText = "overflow:auto;width:50px;height:40px"
          box.innerHTML = '<p style="width:400px">' + "words that need scrolling to be read ".repeat(40) + '</p>'
          const dialog = document.createElement("div"); dialog.setAttribute("role", "dialog")
          document.querySelector("article").append(a, low, dialog)
          document.body.append(box)  // outside the content, where a11y.js does not look
        }""")
        ids = {v["id"] for v in run_axe(page) if v["impact"] in BLOCKING}
    finally:
        context.close()
    assert {"color-contrast", "scrollable-region-focusable", "aria-dialog-name"} <= ids, ids



def test_a_copy_button_keeps_its_name_while_its_tooltip_shows(site_page, site_url):
    """Material's tooltip takes a copy button's title (its only name) away while it shows, on
    hover or focus; assets/javascripts/a11y.js keeps the title's words as the button's aria-label."""
    assert site_page.goto(site_url + "lessons/library-qkv/", wait_until="networkidle").ok
    button = site_page.locator(".md-code__button").first
    title = button.get_attribute("title")
    button.hover()
    site_page.wait_for_function("() => !document.querySelector('.md-code__button').hasAttribute('title')")
    assert title and button.get_attribute("aria-label") == title
