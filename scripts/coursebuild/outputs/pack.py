"""What goes into the instructor pack (the layout is in :mod:`coursebuild.outputs.editions`).

:func:`write` fills the staging folder: the instructors' pages of each language (the answer key
and the instructor guide, :data:`PAGES`) as standalone HTML pages (the site's own Markdown
rendered with this build's numbers and edition, math drawn by the vendored KaTeX; a link to
the other page of the pack stays inside the pack, a link to a page of the site is kept only
when ``site_url`` says where the site is, else it becomes its text), the self-checked questions
as Moodle XML and QTI (:mod:`coursebuild.outputs.lms`), and an index. Files other parts of the
build staged (handouts) are kept and listed.
"""

from __future__ import annotations

import html
import posixpath
import re
import shutil
from pathlib import Path
from urllib.parse import urljoin

import markdown as md

from . import editions
from . import lms
from ..content import ui
from ..pages import kinds
from ..pipeline import site
from ..paths import DOCS, LANGS

KATEX = DOCS / "assets" / "vendor" / "katex"
# the pack's pages: source in docs/<lang>/ -> file in <lang>/ of the pack (its title: page_title)
PAGES = {
    "teaching/instructor-guide.md": "instructor-guide.html",
    "teaching/answer-key.md": "answer-key.html",
}


def page_title(source: str, lang: str) -> str:
    """The title of the pack's page made from ``source`` (a key of :data:`PAGES`)."""
    titles = {"teaching/instructor-guide.md": ui.text(lang, "pack.guide_title"),
              "teaching/answer-key.md": ui.text(lang, "pack.key_title")}
    return titles[source]


def index_items(lang: str) -> list[tuple[str, str]]:
    """The pack index's entries for ``lang``: (path in the pack, what it is)."""
    return [
        (f"{lang}/instructor-guide.html", ui.text(lang, "pack.index_guide")),
        (f"{lang}/answer-key.html", ui.text(lang, "pack.index_key")),
        (f"lms/moodle-{lang}.xml", ui.text(lang, "pack.index_moodle")),
        (f"lms/qti-{lang}.zip", ui.text(lang, "pack.index_qti")),
        (f"handouts/{lang}/", ui.text(lang, "pack.index_handouts")),
    ]


PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="{up}assets/katex/katex.min.css">
<link rel="stylesheet" href="{up}assets/pack.css">
<script defer src="{up}assets/katex/katex.min.js"></script>
<script defer src="{up}assets/katex/auto-render.min.js"></script>
<script defer src="{up}assets/pack.js"></script>
</head>
<body>
<main>
{body}
</main>
</body>
</html>
"""
CSS = """body { font-family: "Noto Sans KR", "NanumGothic", sans-serif; line-height: 1.6; margin: 0; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
table { border-collapse: collapse; } td, th { border: 1px solid #888; padding: .25rem .5rem; }
details { border-left: 4px solid #3a7; padding: .25rem .75rem; margin: .5rem 0; }
summary { font-weight: bold; cursor: pointer; }
pre { overflow-x: auto; background: #f4f4f4; padding: .5rem; }
@media print { details > * { display: block; } h2 { break-before: page; } }
"""
JS = """document.addEventListener("DOMContentLoaded", () => {
  const tex = [{ left: "\\\\(", right: "\\\\)", display: false }, { left: "\\\\[", right: "\\\\]", display: true }]
  document.querySelectorAll(".arithmatex").forEach((el) => renderMathInElement(el, { delimiters: tex, throwOnError: false }))
  window.addEventListener("beforeprint", () => document.querySelectorAll("details").forEach((d) => { d.open = true }))
})
"""
LINK = re.compile(r'<a href="(?P<href>[^"#:]*\.(?:md|ipynb))(?P<frag>#[^"]*)?">(?P<text>.*?)</a>', re.S)


def write(config, stage: Path) -> None:
    """Fill ``stage`` with the pack's files (see :mod:`coursebuild.outputs.editions`)."""
    results = site.data_from_report(site.report(config))
    assets = stage / "assets"
    if (assets / "katex").exists():
        shutil.rmtree(assets / "katex")
    shutil.copytree(KATEX, assets / "katex")
    (assets / "pack.css").write_text(CSS, encoding="utf-8")
    (assets / "pack.js").write_text(JS, encoding="utf-8")
    for lang in LANGS:
        (stage / lang).mkdir(parents=True, exist_ok=True)
        for source, name in PAGES.items():
            body = page_html(source, lang, results, config)
            (stage / lang / name).write_text(
                PAGE.format(lang=lang, title=page_title(source, lang), up="../", body=body), encoding="utf-8")
    lms.write_all(stage / "lms", results)
    (stage / "index.html").write_text(index_html(stage), encoding="utf-8")


def page_html(source: str, lang: str, results: dict, config) -> str:
    """The instructors' page ``docs/<lang>/<source>``, its markers filled with ``results`` for
    this build's edition, as HTML. The answer key is always the open edition's: it is the page
    whose answers the student edition leaves out."""
    path = DOCS / lang / source
    edition = "open" if source == "teaching/answer-key.md" else config["extra"].get("edition", editions.DEFAULT)
    text = editions.select(path.read_text(encoding="utf-8"), edition, str(path))
    site_url = config.get("site_url")
    ctx = kinds.context(lang, page=f"docs/{lang}/{source}", src_uri=f"{lang}/{source}", results=results,
                        edition=edition, repository_url=config["extra"].get("repository_url"),
                        colab_links=config["extra"].get("colab_links"),
                        source_url=urljoin(site_url, editions.CODE_ARCHIVE) if site_url else None)
    text = ctx.render(text)
    body = md.markdown(text, extensions=config["markdown_extensions"],
                       extension_configs=config["mdx_configs"])
    return LINK.sub(lambda m: _link(m, lang, source, config), body)


def _link(m: re.Match, lang: str, source: str, config) -> str:
    """A link of a pack page: to the other page of the pack; to the published site when
    site_url is known; else its text."""
    target = posixpath.normpath(posixpath.join(posixpath.dirname(source), m["href"]))
    if target in PAGES:
        return f'<a href="{PAGES[target]}{m["frag"] or ""}">{m["text"]}</a>'
    site_url = config.get("site_url")
    if not site_url:
        return m["text"]
    page = posixpath.splitext(target)[0] + "/"
    page = "" if page == "index/" else page
    if lang != "ko":
        page = f"{lang}/{page}"
    return f'<a href="{urljoin(site_url, page)}{m["frag"] or ""}">{m["text"]}</a>'


def index_html(stage: Path) -> str:
    parts = []
    for lang in LANGS:
        title, rows = ui.text(lang, "pack.title"), []
        for path, what in index_items(lang):
            if (stage / path).exists() and (not path.endswith("/") or any((stage / path).iterdir())):
                rows.append(f'<li><a href="{path}">{html.escape(path)}</a>: {html.escape(what)}</li>')
        parts.append(f'<section lang="{lang}"><h1>{title}</h1><ul>{"".join(rows)}</ul></section>')
    title = " · ".join(ui.text(lang, "pack.title") for lang in LANGS)
    return PAGE.format(lang="ko", title=title, up="", body="\n".join(parts))
