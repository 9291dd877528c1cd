"""Every repository path a page or a check question names exists.

A page that sends a student to ``tests/package/test_layers.py`` or
``tutorial_code/experiments/drawing/cost.py`` must name a file this repository has: a path
moved by a refactor (``tests/test_layers.py`` became ``tests/package/test_layers.py``) fails
here, naming the page and the line. A path with a placeholder (``drawing/<experiment>.py``,
``docs/<lang>/**/*.md``) is checked up to its first placeholder, which must be a folder.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TOP = ("tests", "tutorial_code", "scripts", "docs", ".github", ".ci")
# a repository path: a top folder, a slash, then path characters; not inside a URL or another path
PATH = re.compile(r"(?<![\w/.\-])(?:%s)/[\w./\-<>*{}]*" % "|".join(re.escape(t) for t in TOP))
PLACEHOLDER = re.compile(r"[<*{]")


def sources():
    for lang in ("ko", "en"):
        yield from sorted((DOCS / lang).rglob("*.md"))
    yield from sorted((DOCS / "questions").glob("*.yml"))
    yield from sorted(DOCS.glob("*.yml"))


def named_paths(text: str):
    for number, line in enumerate(text.splitlines(), 1):
        for match in PATH.finditer(line):
            yield number, match.group(0).rstrip(".,:;)")


def missing(path: str) -> bool:
    cut = PLACEHOLDER.search(path)
    if cut:  # a pattern: the folder before the placeholder must exist
        return not (ROOT / path[: cut.start()].rsplit("/", 1)[0]).is_dir()
    return not (ROOT / path).exists()


def test_the_finder_sees_the_forms_pages_use():
    text = ("see `tests/package/test_layers.py`, tutorial_code/experiments/drawing/<experiment>.py and "
            "https://example.org/tests/x.py or docs/<lang>/**/*.md.")
    assert [p for _, p in named_paths(text)] == [
        "tests/package/test_layers.py", "tutorial_code/experiments/drawing/<experiment>.py", "docs/<lang>/**/*.md"]
    assert missing("tests/test_layers.py") and not missing("tests/package/test_layers.py")
    assert missing("tutorial_code/nowhere/<x>.py") and not missing("docs/<lang>/teaching/")


def test_every_repository_path_a_page_or_question_names_exists():
    found, wrong = 0, []
    for source in sources():
        for number, path in named_paths(source.read_text(encoding="utf-8")):
            found += 1
            if missing(path):
                wrong.append(f"{source.relative_to(ROOT)}:{number}: {path}")
    assert found > 20, "no repository paths found in the pages: has the pattern stopped matching?"
    assert not wrong, "paths that do not exist in the repository:\n" + "\n".join(wrong)
