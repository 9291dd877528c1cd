"""axe-core on every page of the built site, both languages, light and dark palettes.

axe-core 4.14.1 is vendored from npm (tests/browser/vendor/axe-core) and injected into each page with
``add_script_tag(content=…)``: nothing is fetched from another host. The goal, held here: no
critical or serious violation on any page. The light palette runs every rule; the dark one
(Material's ``slate``, picked by ``prefers-color-scheme: dark``) runs the rules that depend on
colour, since nothing else differs between the two.
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


def run_axe(page, rules=None) -> list[dict]:
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


def scan(browser, site_url, paths, scheme, rules=None) -> dict[str, list[dict]]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme,
                                  service_workers="block")
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(site_url)
                  else route.abort())
    page = context.new_page()
    found = {}
    try:
        for path in paths:
            response = page.goto(site_url + path, wait_until="load")
            assert response.ok, path
            page.wait_for_timeout(150)  # the a11y script's debounce (assets/javascripts/a11y.js)
            want = "slate" if scheme == "dark" else "default"
            got = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
            assert got == want, f"{path}: palette {got!r}, wanted {want!r}"
            found[path] = run_axe(page, rules)
    finally:
        context.close()
    return found


def blocking(found: dict[str, list[dict]]) -> list[str]:
    return [f"{path or '/'}: {v['id']} ({v['impact']}, {v['nodes']} nodes: {', '.join(v['targets'])}) "
            f"{v['summary'][0][:200] if v['summary'] else ''}"
            for path, violations in found.items() for v in violations if v["impact"] in BLOCKING]


def test_the_site_has_pages_of_both_languages(built_site):
    found = pages(built_site)
    assert "" in found and "en/" in found and "lessons/position/" in found and "en/lessons/position/" in found
    assert len([p for p in found if p.startswith("en/")]) * 2 >= len(found) - 1, found


def test_no_serious_violation_on_any_page_in_the_light_palette(browser, built_site, site_url):
    found = scan(browser, site_url, pages(built_site), "light")
    problems = blocking(found)
    assert not problems, "\n".join(problems)


def test_no_serious_colour_violation_on_any_page_in_the_dark_palette(browser, built_site, site_url):
    found = scan(browser, site_url, pages(built_site), "dark", COLOUR_RULES)
    problems = blocking(found)
    assert not problems, "\n".join(problems)


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

