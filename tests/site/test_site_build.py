"""The site builds strictly, both languages mirror each other, and vendored assets are intact."""

import hashlib
import json
import re
from pathlib import Path

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
