"""What a reader gets from the built site: every page, in both languages.

No marker left unrendered, every image and internal link (with its anchor) resolves, no page
over 2 MB with its images, English pages free of Korean prose, Korean pages free of known
mistranslations, glossary tooltips present, and every lesson carries the parts a lesson needs.
"""

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from coursebuild.content import glossary
from coursebuild.course import SLUGS

pytestmark = pytest.mark.slow

LESSONS = SLUGS  # the lesson pages, in course order
HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")
QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|‘[^’]*’|'[^']*'|「[^」]*」")
SKIP_TEXT = {"code", "pre", "script", "style", "svg", "table", "math", "abbr", "kbd"}


class Page(HTMLParser):
    """Ids, links, images and the article's prose (outside code, tables and math)."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.ids, self.links, self.images, self.prose = set(), [], [], []
        self._stack: list[tuple[str, bool, bool]] = []  # (tag, inside article, skipped)
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "img" and a.get("src"):
            self.images.append(a["src"])
        if tag in ("img", "br", "hr", "input", "meta", "link", "source", "wbr"):
            return
        article, skipped = (self._stack[-1][1], self._stack[-1][2]) if self._stack else (False, False)
        classes = a.get("class") or ""
        article = article or tag == "article"
        skipped = skipped or tag in SKIP_TEXT or "katex" in classes or "arithmatex" in classes
        self._stack.append((tag, article, skipped))

    def handle_endtag(self, tag):
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                return

    def handle_data(self, data):
        if self._stack and self._stack[-1][1] and not self._stack[-1][2] and data.strip():
            self.prose.append(data)


@pytest.fixture(scope="module")
def html_pages(built_site) -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in built_site.rglob("*.html") if p.name != "404.html"}


@pytest.fixture(scope="module")
def parsed(html_pages) -> dict[Path, Page]:
    return {p: Page(text) for p, text in html_pages.items()}


def lang_of(page: Path, site: Path) -> str:
    return "en" if page.relative_to(site).parts[0] == "en" else "ko"


def resolve(site: Path, page: Path, url: str) -> Path | None:
    """The file a relative or site-absolute link points at (None for other hosts)."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None
    if not parts.path:
        return page
    base = site if parts.path.startswith("/") else page.parent
    target = (base / unquote(parts.path).lstrip("/")).resolve()
    return target / "index.html" if target.is_dir() or parts.path.endswith("/") else target


def test_every_lesson_exists_in_both_languages(built_site):
    for slug in LESSONS:
        assert (built_site / "lessons" / slug / "index.html").is_file(), slug
        assert (built_site / "en" / "lessons" / slug / "index.html").is_file(), slug


def test_no_marker_or_placeholder_is_left(html_pages):
    # a "|" escaped as "\|" (inside Markdown tables) must not hide a marker either
    marker = re.compile(r"\[\[(?:[a-z]+:)?[A-Za-z_][\w.]*(?:\\?\|[^\]]*)?\]\]|\{\{|\{%")
    left = {str(p): marker.findall(t)[:3] for p, t in html_pages.items() if marker.search(t)}
    assert not left, f"unrendered markers: {left}"


def test_every_image_exists(built_site, parsed):
    missing = [(str(p.relative_to(built_site)), src) for p, page in parsed.items()
               for src in page.images if (t := resolve(built_site, p, src)) is not None and not t.is_file()]
    assert not missing, missing


def test_every_internal_link_and_anchor_resolves(built_site, parsed):
    broken = []
    for p, page in parsed.items():
        for href in page.links:
            target = resolve(built_site, p, href)
            if target is None or href.startswith(("mailto:", "javascript:")):
                continue
            fragment = urlsplit(href).fragment
            if not target.exists():
                broken.append((str(p.relative_to(built_site)), href, "no such file"))
            elif fragment and target.suffix == ".html" and unquote(fragment) not in parsed.get(target, Page("")).ids:
                broken.append((str(p.relative_to(built_site)), href, "no such anchor"))
    assert not broken, broken[:20]


def test_no_page_weighs_over_2_mb_with_its_images(built_site, parsed, html_pages):
    heavy = {}
    for p, page in parsed.items():
        images = {resolve(built_site, p, s) for s in page.images} - {None}
        size = len(html_pages[p].encode()) + sum(i.stat().st_size for i in images if i.is_file())
        if size > 2 * 1024 * 1024:
            heavy[str(p.relative_to(built_site))] = size
    assert not heavy, heavy


def test_english_pages_hold_no_korean_prose(built_site, parsed):
    offenders = {}
    for p, page in parsed.items():
        rel = p.relative_to(built_site).as_posix()
        if lang_of(p, built_site) != "en" or rel.startswith("en/glossary/"):
            continue
        for text in page.prose:
            rest = QUOTED.sub("", text)
            if HANGUL.search(rest):
                offenders.setdefault(rel, []).append(text.strip()[:80])
    assert not offenders, offenders


def test_korean_pages_use_the_glossary_terms(built_site, parsed):
    terms = glossary.load()
    wrong = {}
    for p, page in parsed.items():
        if lang_of(p, built_site) == "ko":
            found = glossary.find_mistranslations(" ".join(page.prose), terms)
            if found:
                wrong[str(p.relative_to(built_site))] = found
    assert not wrong, wrong


def test_lessons_have_tooltips_figures_formulas_code_and_questions(built_site, html_pages):
    for slug in LESSONS:
        for lang, root in (("ko", built_site), ("en", built_site / "en")):
            page = root / "lessons" / slug / "index.html"
            text = html_pages[page]
            where = f"{lang}/{slug}"
            assert "<abbr title=" in text, f"{where}: no glossary tooltip"
            assert re.search(rf'<img[^>]+src="[^"]*assets/generated/{lang}/', text), f"{where}: no figure in {lang}"
            assert re.search(r'<img[^>]+alt="[^"]+"', text), f"{where}: image without alt text"
            assert 'class="arithmatex"' in text, f"{where}: no formula"
            assert "tutorial_code/" in text and "highlight" in text, f"{where}: no included code"
            for anchor in ("motivation", "worked-example", "code", "check-questions", "where-it-breaks"):
                assert f'id="{anchor}"' in text, f"{where}: no section #{anchor}"
            assert re.search(r'id="q-[a-z0-9-]+"', text), f"{where}: no check questions"


def test_no_sitemap_with_invalid_addresses(built_site):
    """Without SITE_URL there is no sitemap (it would list "None./"); with it, addresses are absolute."""
    sitemap = built_site / "sitemap.xml"
    if sitemap.exists():
        locs = re.findall(r"<loc>(.*?)</loc>", sitemap.read_text(encoding="utf-8"))
        assert locs and all(loc.startswith(("http://", "https://")) for loc in locs), locs[:3]
    assert not (built_site / "sitemap.xml.gz").exists() or sitemap.exists()
