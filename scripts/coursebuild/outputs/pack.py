"""What goes into the instructor pack (the layout is in :mod:`coursebuild.editions`).

:func:`write` fills the staging folder: the answer key of each language as one standalone HTML
page (the site's own ``teaching/answer-key.md`` rendered with this build's numbers, math drawn
by the vendored KaTeX, links to the site's pages kept only when ``site_url`` says where the site
is), the self-checked questions as Moodle XML and QTI (:mod:`coursebuild.lms`), and an index.
Files other parts of the build staged (handouts) are kept and listed.
"""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path
from urllib.parse import urljoin

import markdown as md

from . import editions
from . import lms
from ..pages import kinds
from ..pipeline import site
from ..paths import DOCS, LANGS

KATEX = DOCS / "assets" / "vendor" / "katex"
TITLES = {"ko": "답안 (강사용)", "en": "Answer key (instructors)"}
INDEX = {
    "ko": ("강사용 묶음", [
        ("ko/answer-key.html", "답안: 확인 문제의 답과 풀이, 과제의 평가 기준과 모범 답안"),
        ("lms/moodle-ko.xml", "스스로 확인하는 문제, Moodle XML (문제 은행 → 가져오기 → Moodle XML)"),
        ("lms/qti-ko.zip", "스스로 확인하는 문제, QTI 1.2 묶음 (Canvas: 설정 → 콘텐츠 가져오기 → QTI .zip)"),
        ("handouts/ko/", "답을 적은 유인물 (빌드가 만든 경우)"),
    ]),
    "en": ("Instructor pack", [
        ("en/answer-key.html", "Answer key: worked answers to the check questions, assignment rubrics and model answers"),
        ("lms/moodle-en.xml", "Self-checked questions, Moodle XML (Question bank → Import → Moodle XML format)"),
        ("lms/qti-en.zip", "Self-checked questions, QTI 1.2 package (Canvas: Settings → Import course content → QTI .zip)"),
        ("handouts/en/", "Handouts with answers (where the build makes them)"),
    ]),
}
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
LINK = re.compile(r'<a href="(?P<href>[^"#:]*\.md)(?P<frag>#[^"]*)?">(?P<text>.*?)</a>', re.S)


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
        body = answer_key_html(lang, results, config)
        (stage / lang).mkdir(parents=True, exist_ok=True)
        (stage / lang / "answer-key.html").write_text(
            PAGE.format(lang=lang, title=TITLES[lang], up="../", body=body), encoding="utf-8")
    lms.write_all(stage / "lms", results)
    (stage / "index.html").write_text(index_html(stage), encoding="utf-8")


def answer_key_html(lang: str, results: dict, config) -> str:
    """The answer key page of ``lang``, its markers filled with ``results``, as HTML."""
    source = DOCS / lang / "teaching" / "answer-key.md"
    text = editions.select(source.read_text(encoding="utf-8"), "open", str(source))
    ctx = kinds.context(lang, page=f"docs/{lang}/teaching/answer-key.md",
                          src_uri=f"{lang}/teaching/answer-key.md", results=results, edition="open",
                          repository_url=config["extra"].get("repository_url"),
                          source_url=urljoin(config["site_url"], editions.SOURCE_ARCHIVE) if config.get("site_url") else None)
    text = ctx.render(text)
    body = md.markdown(text, extensions=config["markdown_extensions"],
                       extension_configs=config["mdx_configs"])
    return LINK.sub(lambda m: _link(m, lang, config), body)


def _link(m: re.Match, lang: str, config) -> str:
    """A link to a page of the site: to the published site when site_url is known, else its text."""
    site = config.get("site_url")
    if not site:
        return m["text"]
    page = urljoin(f"{lang}/teaching/", m["href"])[: -len(".md")] + "/"
    if lang != "ko" and not page.startswith(f"{lang}/"):
        page = f"{lang}/{page}"
    page = page.removeprefix("ko/")
    return f'<a href="{urljoin(site, page)}{m["frag"] or ""}">{m["text"]}</a>'


def index_html(stage: Path) -> str:
    parts = []
    for lang in LANGS:
        title, items = INDEX[lang]
        rows = []
        for path, what in items:
            if (stage / path).exists() and (not path.endswith("/") or any((stage / path).iterdir())):
                rows.append(f'<li><a href="{path}">{html.escape(path)}</a>: {html.escape(what)}</li>')
        parts.append(f'<section lang="{lang}"><h1>{title}</h1><ul>{"".join(rows)}</ul></section>')
    return PAGE.format(lang="ko", title="강사용 묶음 · Instructor pack", up="", body="\n".join(parts))
