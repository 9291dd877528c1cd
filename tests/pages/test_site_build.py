"""The site builds strictly, both languages mirror each other, and vendored assets are intact."""

import hashlib
import json
import re

import pytest

from coursebuild.paths import REPO_ROOT

REPO = REPO_ROOT
DOCS = REPO / "docs"
VENDOR = DOCS / "assets" / "vendor"


def pages(lang: str) -> set[str]:
    root = DOCS / lang
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_every_korean_page_has_an_english_page_and_back():
    ko, en = pages("ko"), pages("en")
    assert ko, "docs/ko is empty"
    assert sorted(ko - en) == [], "Korean pages without an English page"
    assert sorted(en - ko) == [], "English pages without a Korean page"


def test_headings_have_the_same_explicit_ids_in_both_languages():
    heading = re.compile(r"^#{1,6} .*\{ *#([\w-]+)[^}]*\} *$", re.M)
    for rel in sorted(pages("ko") & pages("en")):
        if not rel.endswith(".md"):
            continue
        ko = heading.findall((DOCS / "ko" / rel).read_text(encoding="utf-8"))
        en = heading.findall((DOCS / "en" / rel).read_text(encoding="utf-8"))
        assert ko == en, f"{rel}: heading ids differ between ko and en"


@pytest.mark.slow
def test_strict_build_writes_both_languages(built_site):
    assert (built_site / "index.html").is_file()
    assert (built_site / "en" / "index.html").is_file()
    ko = (built_site / "index.html").read_text(encoding="utf-8")
    en = (built_site / "en" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="ko"' in ko and '<html lang="en"' in en
    assert "<title>어텐션과 트랜스포머</title>" in ko
    assert re.search(r"<title>[^<]*Attention and the Transformer</title>", en)


@pytest.mark.slow
def test_shared_assets_are_served_once_for_both_languages(built_site):
    assert (built_site / "assets" / "extra.css").is_file()
    assert not (built_site / "en" / "assets").exists()
    en = (built_site / "en" / "index.html").read_text(encoding="utf-8")
    assert 'href="../assets/extra.css"' in en


@pytest.mark.slow
def test_each_language_has_its_own_search_index(built_site):
    ko = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    en = json.loads((built_site / "en" / "search" / "search_index.json").read_text("utf-8"))
    assert ko["docs"] and en["docs"]
    assert all(not d["location"].startswith("en/") for d in ko["docs"])
    assert any("트랜스포머" in d["text"] for d in ko["docs"])
    # the English glossary lists the Korean terms on purpose; no other English page holds them
    assert all("트랜스포머" not in d["text"] for d in en["docs"] if not d["location"].startswith("glossary"))


def test_vendored_files_match_their_checksums():
    """docs/assets/vendor is exactly what scripts/vendor_assets.sh wrote (no edits, no extras)."""
    listed = {}
    for line in (VENDOR / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split(maxsplit=1)
        listed[name] = digest
    present = {
        p.relative_to(VENDOR).as_posix() for p in VENDOR.rglob("*") if p.is_file()
    } - {"SHA256SUMS"}
    assert present == set(listed)
    for name, digest in listed.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name


def test_stylesheets_only_point_at_files_that_exist():
    for css in [*VENDOR.rglob("*.css"), DOCS / "assets" / "extra.css"]:
        for url in re.findall(r"url\(['\"]?([^'\")]+)", css.read_text(encoding="utf-8")):
            assert not re.match(r"[a-z]+:", url), f"{css.name} refers to {url}"
            assert (css.parent / url).is_file(), f"{css.name} refers to missing {url}"


def test_numbers_with_thousands_separators_are_text_inside_math():
    """KaTeX reads the comma in $4,096$ as punctuation and prints "4, 096": wrap in \\text{}."""
    sources = sorted(DOCS.glob("*/**/*.md")) + sorted((DOCS / "questions").glob("*.yml"))
    bad = []
    for path in sources:
        for math in re.finditer(r"\$\$?(.+?)\$\$?", path.read_text(encoding="utf-8"), re.S):
            for marker in re.finditer(r"(\\text\{)?\[\[[^\]|]*\|[^\]]*,[^\]]*\]\]", math.group(1)):
                if not marker.group(1):
                    bad.append(f"{path.relative_to(DOCS)}: {marker.group(0)}")
    assert not bad, bad


# ---------------------------------------------------------------- the lessons in the navigation

_NAV_LINK = re.compile(r'<a href="(?P<href>[^"]+)" class="md-nav__link[^"]*">\s*'
                       r'<span class="md-ellipsis">\s*(?P<text>.*?)\s*</span>', re.S)


def nav_links(html: str) -> list[tuple[str, str]]:
    """(href, title) of the primary navigation's links, in order, each once."""
    sidebar = html[html.index('md-sidebar--primary'):html.index('md-sidebar--secondary')]
    seen = []
    for m in _NAV_LINK.finditer(sidebar):
        link = (m["href"], re.sub(r"\s+", " ", m["text"]))
        if link not in seen:
            seen.append(link)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_nav_lists_the_lessons_and_notebooks_of_course_py_in_order(built_site, lang):
    from coursebuild.course import LESSONS

    root = built_site if lang == "ko" else built_site / "en"
    links = nav_links((root / "index.html").read_text(encoding="utf-8"))
    lessons = [(h, t) for h, t in links if h.startswith("lessons/")]
    assert lessons == [(f"lessons/{n.slug}/", f"{n.number}. {n.title[lang]}") for n in LESSONS]
    notebooks = [(h, t) for h, t in links if h.startswith("notebooks/")]
    assert [h for h, _ in notebooks] == [f"notebooks/{n.notebook}/" for n in LESSONS]
    lab = "실습" if lang == "ko" else "lab"
    assert all(lab in t for _, t in notebooks), notebooks  # each titled by its own first heading


# ---------------------------------------------------------------- no dead configuration

def _config():
    from mkdocs.config import load_config

    return load_config(str(REPO / "mkdocs.yml"))


def _configured_extensions() -> list[str]:
    """markdown_extensions as mkdocs.yml lists them (MkDocs adds toc, tables, fenced_code)."""
    from mkdocs.utils.yaml import yaml_load

    with open(REPO / "mkdocs.yml", encoding="utf-8") as f:
        entries = yaml_load(f)["markdown_extensions"]
    return [e if isinstance(e, str) else next(iter(e)) for e in entries]


def _top_level_imports() -> set[str]:
    found = set()
    for folder in ("tutorial_code", "scripts", "tests"):
        for path in (REPO / folder).rglob("*.py"):
            found |= set(re.findall(r"^\s*(?:from|import) ([A-Za-z_]\w*)", path.read_text("utf-8"), re.M))
    return found


# pinned, neither imported nor a dependency of something that is, and still needed: why
RUN_NOT_IMPORTED = {
    "ipykernel": "the python3 kernel that nbclient starts to execute the lab notebooks",
    "pytest-xdist": "the pytest plugin behind pytest.ini's -n (pytest loads it by its entry point)",
    "ruff": "the Python linter the suite runs (tests/package/test_lint.py)",
}
# the project's own distribution (pyproject.toml: the build package and its plugin), installed
# by setup.sh from this tree, never pinned
PROJECT = "attention-course-build"


def _roots() -> set[str]:
    """Distributions the project imports, configures in mkdocs.yml, or runs."""
    from importlib.metadata import entry_points, packages_distributions

    modules = packages_distributions()
    config = _config()
    names = _top_level_imports()
    names |= {ext.split(".")[0] for ext in config.markdown_extensions}
    names |= {"markdown"}  # the built-in extensions (admonition, toc, ...) live in Markdown
    names |= {type(p).__module__.split(".")[0] for p in config.plugins.values()}
    roots = {dist for name in names for dist in modules.get(name, [])}
    themes = {ep.name: ep.dist.name for ep in entry_points(group="mkdocs.themes")}
    return (roots | {themes[config.theme.name]} | set(RUN_NOT_IMPORTED)) - {PROJECT}


def _closure(roots: set[str]) -> set[str]:
    from importlib.metadata import PackageNotFoundError, requires

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    seen, todo = set(), [(r, frozenset()) for r in roots]
    while todo:
        name, extras = todo.pop()
        key = (canonicalize_name(name), extras)
        if key in seen:
            continue
        seen.add(key)
        try:
            reqs = requires(name) or []
        except PackageNotFoundError:
            continue
        for req in map(Requirement, reqs):
            if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in {"", *extras}):
                todo.append((req.name, frozenset(req.extras)))
    return {name for name, _ in seen}


def test_every_pinned_distribution_is_needed_and_every_needed_one_pinned():
    from packaging.utils import canonicalize_name

    pins = set()
    for line in (REPO / "requirements.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"requirements.txt: {line!r} is not pinned exactly"
            pins.add(canonicalize_name(name))
    needed = _closure(_roots())
    assert sorted(pins - needed) == [], "pinned but nothing needs them: remove them"
    assert sorted(needed - pins) == [], "needed but not pinned"


# each markdown extension: ("uses", a pattern that some page source, or markdown the build
# writes, must contain) or ("needs", why it is needed without one)
EXTENSIONS = {
    "admonition": ("uses", r"!!! \w"),
    "attr_list": ("uses", r"\{ *[:#.][\w-]"),
    "def_list": ("uses", r"^:   \S"),
    "md_in_html": ("uses", r"<div[^>]*\smarkdown[\s>=]"),
    "toc": ("needs", "heading ids (pymdownx slugify, also for notebook headings) and permalinks"),
    "pymdownx.arithmatex": ("uses", r"\$[^$\n]+\$"),
    "pymdownx.details": ("uses", r"\?\?\?\+? \w"),
    "pymdownx.highlight": ("needs", "highlights superfences' code blocks (line spans, language classes)"),
    "pymdownx.superfences": ("uses", r"^\s*```"),
}


def test_every_markdown_extension_is_used_or_needed():
    assert sorted(_configured_extensions()) == sorted(EXTENSIONS), "say in EXTENSIONS what each is for"
    sources = [*DOCS.glob("*/**/*.md"), *DOCS.glob("**/*.yml"), *(REPO / "scripts" / "coursebuild").rglob("*.py")]
    text = "\n".join(p.read_text(encoding="utf-8") for p in sources)
    unused = [name for name, (kind, what) in EXTENSIONS.items()
              if kind == "uses" and not re.search(what, text, re.M)]
    assert unused == [], "configured but no page uses them: remove them from mkdocs.yml"
