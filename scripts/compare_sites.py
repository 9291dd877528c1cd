#!/usr/bin/env python3
"""Compare two built sites page by page: the text a reader sees and every image's alt text.

    .venv/bin/python scripts/compare_sites.py OLD_SITE NEW_SITE [--ignore REGEX ...]

For a change of the build machinery that should change no page (a refactor). Each HTML page's
visible text (scripts, styles and templates left out, whitespace collapsed) and its images' alt
texts are compared; pages only in one site are listed. Lines that match an ``--ignore``
pattern are left out of both (by default: the build's date and times, cache hits and misses,
wall times, the commit). Exit status 0 when every page is the same, 1 otherwise, with a unified diff of
each page that differs (``--context N`` lines).
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser as HTMLParser

# what differs between two builds of the same tree: times, dates, cache hits, the commit
DEFAULT_IGNORE = [
    r"\d+(\.\d+)? ?(s|seconds|초|분|min)\b",
    r"\b\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?",
    r"(cache|캐시)",
    r"^(hit|miss)$",
    r"computed afresh|새로 계산",
    r"\b[0-9a-f]{7,40}\b",
]


def page_lines(path: Path) -> list[str]:
    """The visible text of ``path`` (one line per block of text) and its images' alt texts."""
    tree = HTMLParser(path.read_text(encoding="utf-8", errors="replace"))
    for node in tree.css("script, style, template, noscript"):
        node.decompose()
    body = tree.body
    if body is None:
        return []
    lines = [re.sub(r"\s+", " ", t).strip() for t in body.text(separator="\n").split("\n")]
    lines = [line for line in lines if line]
    lines += [f"[img alt] {img.attributes.get('alt') or ''}" for img in body.css("img")]
    return lines


def compare(old: Path, new: Path, ignore: list[str], context: int = 2) -> tuple[list[str], list[str]]:
    """(pages that differ, with their diffs), (pages found in only one of the two sites)."""
    patterns = [re.compile(p) for p in ignore]

    def kept(lines):
        return [line for line in lines if not any(p.search(line) for p in patterns)]

    pages_old = {p.relative_to(old).as_posix() for p in old.rglob("*.html")}
    pages_new = {p.relative_to(new).as_posix() for p in new.rglob("*.html")}
    only = [f"only in {old}: {p}" for p in sorted(pages_old - pages_new)]
    only += [f"only in {new}: {p}" for p in sorted(pages_new - pages_old)]
    diffs = []
    for page in sorted(pages_old & pages_new):
        a, b = kept(page_lines(old / page)), kept(page_lines(new / page))
        if a != b:
            diffs.append("\n".join(difflib.unified_diff(a, b, f"old/{page}", f"new/{page}",
                                                        n=context, lineterm="")))
    return diffs, only


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("old", type=Path, help="the site built before the change")
    p.add_argument("new", type=Path, help="the site built after it")
    p.add_argument("--ignore", action="append", default=None, metavar="REGEX",
                   help="leave out lines that match (repeatable; replaces the default list)")
    p.add_argument("--context", type=int, default=2, help="lines of context in each diff (default 2)")
    a = p.parse_args(argv)
    for site in (a.old, a.new):
        if not (site / "index.html").is_file():
            p.error(f"{site} holds no index.html: give the folders `mkdocs build -d` wrote")
    diffs, only = compare(a.old, a.new, DEFAULT_IGNORE if a.ignore is None else a.ignore, a.context)
    for line in only:
        print(line)
    for d in diffs:
        print(d, end="\n\n")
    total = len({q.relative_to(a.new) for q in a.new.rglob("*.html")})
    print(f"{total} pages compared: {len(diffs)} differ, {len(only)} in one site only")
    return 0 if not diffs and not only else 1


if __name__ == "__main__":
    sys.exit(main())
