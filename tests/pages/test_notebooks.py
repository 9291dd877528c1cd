"""The lesson lab notebooks and the lessons' "Run this" snippets.

Sources render in both languages with the package's code pulled in (what the included objects
need comes with them: tests/pages/test_notebook_dependencies.py) and the same code in each;
bad sources fail with a message that names the file and line; the build runs each notebook top
to bottom in a fresh kernel in an empty folder without this repository on ``sys.path``, and the
downloadable notebooks of the built site are exactly what it ran, outputs stripped; the rendered notebook pages hold executed cells (the static-i18n /
mkdocs-jupyter regression would leave raw JSON); lesson and notebook pages link to Colab and
to the download; every snippet a lesson page marks "Run this" runs alone in a fresh Python.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tokenize
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

from coursebuild.pages import code as code_include
from coursebuild.notebooks import build
from coursebuild.course import SLUGS as LESSONS
from coursebuild.paths import REPO_ROOT

REPO = REPO_ROOT
HANGUL = re.compile(r"[\uac00-\ud7a3]")
COLAB = re.compile(r"^https://colab\.research\.google\.com/github/[\w.-]+/[\w.-]+/blob/[\w./-]+\.ipynb$")
# appended to every notebook the tests run: the repository must not be importable there
NOT_THE_REPO = (
    "import importlib.util, os, sys\n"
    f"assert importlib.util.find_spec('tutorial_code') is None, 'tutorial_code is importable'\n"
    f"assert {str(REPO)!r} not in [os.path.abspath(p or os.getcwd()) for p in sys.path], sys.path\n"
    "print('isolated')"
)


def printed(cell) -> str:
    """What a cell wrote to stdout; a kernel may split one print into several stream messages."""
    return "".join(o["text"] for o in cell.outputs if o.get("output_type") == "stream" and o.get("name") == "stdout")


def code_only(src: str) -> list[tuple[int, str]]:
    """The tokens of a cell without comments and string literals (figure labels differ)."""
    lines = [line for line in src.splitlines() if not line.lstrip().startswith("%")]
    tokens = tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline)
    skip = {tokenize.COMMENT, tokenize.STRING, tokenize.NL, tokenize.NEWLINE,
            tokenize.INDENT, tokenize.DEDENT}
    skip |= {getattr(tokenize, n) for n in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END") if hasattr(tokenize, n)}
    return [(t.type, t.string) for t in tokens if t.type not in skip]


@pytest.fixture(scope="module")
def rendered():
    return {(s.name, lang): build.render(s, lang) for s in build.sources() for lang in build.LANGS}


# ------------------------------------------------------------------ sources (fast)

def test_every_lesson_has_a_notebook():
    assert sorted(s.slug for s in build.sources()) == sorted(LESSONS)
    assert [s.lesson for s in build.sources()] == list(range(1, len(LESSONS) + 1))


def test_rendered_notebooks_hold_the_package_code_and_no_markers(rendered):
    for (name, lang), nb in rendered.items():
        text = "\n".join(c.source for c in nb.cells)
        assert "[[code:" not in text and "# ko:" not in text and "# en:" not in text, (name, lang)
        assert not re.search(r"#\s*(ko|en)\s*$", text, re.M), (name, lang)
        assert not re.search(r"^\s*(import|from)\s+(tutorial_code|coursebuild)\b", text, re.M), name
        nbformat.validate(nb)
    # the included code is the package's, byte for byte
    nb = rendered[("lesson-03-scaled-dot-product", "en")]
    assert code_include.source_of("attention", "scaled_dot_product_attention") in "\n".join(
        c.source for c in nb.cells)


def test_both_languages_run_the_same_code(rendered):
    for source in build.sources():
        ko, en = rendered[(source.name, "ko")], rendered[(source.name, "en")]
        code = {lang: [code_only(c.source) for c in nb.cells if c.cell_type == "code"]
                for lang, nb in (("ko", ko), ("en", en))}
        # the Korean notebook's one extra cell installs the Hangul font for plots
        extra = [c.source for c in ko.cells if c.cell_type == "code" and "koreanize_matplotlib" in c.source]
        assert extra == [build.HANGUL_FONT_CELL], source.name
        first_code = next(c for c in ko.cells if c.cell_type == "code")
        assert first_code.source == build.HANGUL_FONT_CELL, source.name
        assert code["ko"][1:] == code["en"], source.name
        assert not any("koreanize" in c.source for c in en.cells if c.cell_type == "code"), source.name


def test_text_cells_are_in_their_language(rendered):
    for (name, lang), nb in rendered.items():
        prose = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        hangul = len(HANGUL.findall(prose))
        if lang == "ko":
            assert hangul > 100, name
        else:
            assert hangul == 0, (name, HANGUL.findall(prose)[:10])


def package_definitions() -> dict[str, tuple[str, str]]:
    """{name: (file, source)} of every top-level function and class of the teaching package
    (not its experiments, which no notebook includes)."""
    import ast

    out = {}
    for path in sorted((REPO / "tutorial_code").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel.startswith(("tutorial_code/notebooks/", "tutorial_code/experiments/")):
            continue
        text = path.read_text(encoding="utf-8")
        for node in ast.parse(text).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                out[node.name] = (rel, ast.get_source_segment(text, node))
    return out


def included_files(code: str, package: dict) -> set[str]:
    """The package files a code cell's included definitions come from: a function or class whose
    source is the package's, character for character."""
    import ast

    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))
    files = set()
    for node in ast.parse(code).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in package:
            rel, source = package[node.name]
            if ast.get_source_segment(code, node) == source:
                files.add(rel)
    return files


def file_naming_problems(nb, package: dict) -> list[str]:
    """A text cell that names the package files its code cells (those up to the next text cell)
    come from names all of them, and only them: lesson 5's notebook once sent `check_positive` to
    multihead.py. An experiment's file (tutorial_code/experiments/) may be named as what a cell
    writes out, since no notebook includes an experiment's code."""
    bad = []

    def check(start: int, prose: str, files: set[str]) -> None:
        named = {f for f in re.findall(r"`(tutorial_code/[\w/]+\.py)`", prose)
                 if not f.startswith("tutorial_code/experiments/")}
        if files and named and named != files:
            bad.append(f"cell {start + 1}: the text names {sorted(named)}, the code comes from {sorted(files)}")

    start, prose, files = 0, "", set()
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            check(start, prose, files)
            start, prose, files = i, cell.source, set()
        else:
            files |= included_files(cell.source, package)
    check(start, prose, files)
    return bad


READ_NOTEBOOKS = range(1, len(LESSONS) + 1)


def test_a_notebook_names_the_files_its_package_code_comes_from(rendered):
    package = package_definitions()
    bad, checked = [], 0
    for (name, lang), nb in rendered.items():
        if int(name.split("-")[1]) not in READ_NOTEBOOKS:
            continue
        checked += sum(bool(included_files(c.source, package)) for c in nb.cells if c.cell_type == "code")
        bad += [f"{name} ({lang}), {p}" for p in file_naming_problems(nb, package)]
    assert checked >= len(READ_NOTEBOOKS) * 2, checked  # each of them includes package code, in both languages
    assert not bad, "\n".join(bad)


def test_the_file_naming_check_finds_a_wrong_file():
    package = package_definitions()
    code = package["check_positive"][1] + "\n\n\n" + package["MultiHeadAttention"][1]
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("The class below is in `tutorial_code/multihead.py`."),
        nbformat.v4.new_code_cell(code)])
    assert file_naming_problems(nb, package)
    nb.cells[0].source += " `check_positive` is in `tutorial_code/sizes.py`."
    assert not file_naming_problems(nb, package)


def _write(folder: Path, name: str, text: str) -> build.Source:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return next(s for s in build.sources(folder) if s.path == path)


GOOD = '# %% [markdown] lang="ko"\n# # 제목\n\n# %% [markdown] lang="en"\n# # Title\n\n'


def test_bad_sources_fail_with_the_file_and_the_fix(tmp_path):
    src = _write(tmp_path, "lesson_01_demo.py", GOOD + "# %%\nx = 1\n# [[code:attention.no_such_thing]]\n")
    with pytest.raises(build.NotebookError, match=r"lesson_01_demo\.py, cell 3, line 2: .*no function, class or constant 'no_such_thing'"):
        build.render(src, "en")
    src = _write(tmp_path, "lesson_01_demo.py", GOOD + '# %% lang="fr"\nx = 1\n')
    with pytest.raises(build.NotebookError, match=r'lang="fr" is not one of ko, en'):
        build.render(src, "ko")
    src = _write(tmp_path, "lesson_01_demo.py", "# %%\nx = 1\n")
    with pytest.raises(build.NotebookError, match="must start with a text cell"):
        build.render(src, "ko")
    (tmp_path / "lesson_01_demo.py").unlink()
    (tmp_path / "lesson_1_Demo.py").write_text(GOOD)
    with pytest.raises(build.NotebookError, match="named lesson_NN_slug.py"):
        build.sources(tmp_path)
    with pytest.raises(build.NotebookError, match="unknown language 'de'"):
        build.render(build.Source(tmp_path / "x.py", 1, "x"), "de")


def test_comments_and_labels_follow_the_language(tmp_path):
    src = _write(tmp_path, "lesson_02_demo.py", GOOD + (
        "# %%\nimport matplotlib.pyplot as plt\n"
        "# %%\n"
        "    # ko: 들여쓴 주석\n"
        "    # en: indented comment\n"
        "y = 2  # ko: 둘 # en: two\n"
        'plt.title("가")  # ko\n'
        'plt.title("a")  # en\n'
    ))
    ko, en = (build.render(src, lang).cells[-1].source for lang in ("ko", "en"))
    assert ko == '    # 들여쓴 주석\ny = 2  # 둘\nplt.title("가")'
    assert en == '    # indented comment\ny = 2  # two\nplt.title("a")'


def test_broken_notebook_reports_the_failing_cell_and_leaves_no_cache_entry(tmp_path):
    src = _write(tmp_path, "lesson_01_demo.py", GOOD + "# %%\nraise RuntimeError('boom')\n")
    cache = tmp_path / "cache"
    with pytest.raises(build.NotebookError, match=r"lesson_01_demo\.py \(en\): a cell failed[\s\S]*boom"):
        build.build(src, "en", cache, log=lambda msg: None)
    assert not list(cache.glob("*.ipynb"))


def test_corrupt_cache_entry_is_reported_and_rebuilt(tmp_path):
    src = _write(tmp_path, "lesson_01_demo.py", GOOD + "# %%\nprint(6 * 7)\n")
    cache, messages = tmp_path / "cache", []
    first = build.build(src, "en", cache, log=messages.append)
    assert printed(first.cells[-1]) == "42\n"
    (entry,) = cache.glob("*.ipynb")
    entry.write_text("{not json", encoding="utf-8")
    again = build.build(src, "en", cache, log=messages.append)
    assert printed(again.cells[-1]) == "42\n"
    assert any("unusable" in m and entry.name in m for m in messages), messages
    assert json.loads(entry.read_text(encoding="utf-8"))["cells"]


# ------------------------------------------------------------------ the built site (slow)

def downloads(site: Path) -> list[Path]:
    return sorted(site.glob("notebooks/colab/*.ipynb")) + sorted(site.glob("en/notebooks/colab/*.ipynb"))


def test_the_build_runs_a_notebook_in_a_fresh_kernel_without_the_repo():
    """``build.execute``, which runs every lab notebook the build publishes: an empty folder, a
    fresh kernel, and this repository neither importable nor on ``sys.path``."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(NOT_THE_REPO)])
    nb.metadata["kernelspec"] = dict(build.KERNEL)
    done = build.execute(nb, "isolation check")
    assert printed(done.cells[-1]) == "isolated\n"


@pytest.mark.slow
def test_every_downloadable_notebook_is_the_code_the_build_ran_top_to_bottom(built_site):
    """The download is the notebook the build ran with ``build.execute`` (in a fresh kernel
    without the repository, checked above), its outputs stripped: the same code cells, every one
    of which ran (the build stops on a cell that fails). The notebooks are not run again here."""
    files = downloads(built_site)
    assert len(files) == 2 * len(LESSONS), [f.name for f in files]
    for path in files:
        lang = "en" if path.relative_to(built_site).parts[0] == "en" else "ko"
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), f"{path}: outputs kept"
        ran = nbformat.read(REPO / "docs" / lang / "notebooks" / path.name, as_version=4)
        assert [(c.cell_type, c.source) for c in ran.cells] == [(c.cell_type, c.source) for c in nb.cells], path
        code = [c for c in ran.cells if c.cell_type == "code"]
        assert code and all(isinstance(c.execution_count, int) for c in code), f"{path}: a cell did not run"
        assert not [o for c in code for o in c.outputs if o.get("output_type") == "error"], path


class Blocks(HTMLParser):
    """Notebook cells, outputs and images; the code blocks that follow a "Run this" paragraph."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.cells = self.outputs = self.images = 0
        self.snippets: list[str] = []
        self._want = False  # a p.run-this was seen, the next <code> in a <pre> is its snippet
        self._in_pre = self._in_code = False
        self._buf: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        self.cells += "jp-Cell" in classes
        self.outputs += "jp-OutputArea-output" in classes
        self.images += tag == "img" and (a.get("src") or "").startswith("data:image/png")
        if tag == "p" and "run-this" in classes:
            self._want = True
        elif tag == "pre":
            self._in_pre = True
        elif tag == "code" and self._in_pre and self._want:
            self._in_code, self._buf = True, []

    def handle_endtag(self, tag):
        if tag == "code" and self._in_code:
            self.snippets.append("".join(self._buf))
            self._in_code = self._want = False
        elif tag == "pre":
            self._in_pre = False

    def handle_data(self, data):
        if self._in_code:
            self._buf.append(data)


@pytest.mark.slow
def test_notebook_pages_hold_executed_cells_in_their_language(built_site):
    for source in build.sources():
        for lang, root in (("ko", built_site), ("en", built_site / "en")):
            page = root / "notebooks" / source.name / "index.html"
            text = page.read_text(encoding="utf-8")
            assert not text.lstrip().startswith("{"), f"{page}: raw notebook JSON, not a page"
            blocks = Blocks(text)
            assert blocks.cells >= 5 and blocks.outputs >= 2, (page, blocks.cells, blocks.outputs)
            # the lightbox plugin's own few lines of CSS are not nbconvert's inlined stylesheet
            own = re.sub(r'<style id="glightbox-style">.*?</style>', "", text, flags=re.S)
            for unwanted in ("cdnjs", "x-mathjax-config", '<script src="">', "<style"):
                assert unwanted not in own, (page, unwanted)
            sheets = re.findall(r'<link rel="stylesheet" href="([^"]*nbconvert-[0-9a-f]+\.css)"', text)
            assert len(sheets) == 1 and (page.parent / sheets[0]).resolve().is_file(), (page, sheets)
            title = re.search(r"<title>(.*?)</title>", text).group(1)
            assert bool(HANGUL.search(title)) == (lang == "ko"), (page, title)


@pytest.mark.slow
def test_lesson_and_notebook_pages_link_to_colab_and_the_download(built_site):
    for source in build.sources():
        for prefix in ("", "en/"):
            download = built_site / prefix / "notebooks" / "colab" / f"{source.name}.ipynb"
            for page in (built_site / prefix / "lessons" / source.slug / "index.html",
                         built_site / prefix / "notebooks" / source.name / "index.html"):
                html = page.read_text(encoding="utf-8")
                nav = re.search(r'<nav class="notebook-links".*?</nav>', html, re.S)
                assert nav, f"{page}: no notebook links"
                hrefs = dict(re.findall(r'class="md-button[^"]*notebook-links__(\w+)"\s+href="([^"]+)"', nav.group(0)))
                assert (page.parent / hrefs["download"]).resolve() == download.resolve(), (page, hrefs)
                if "colab" in hrefs:  # only when the build knows the repository (test_colab_links.py)
                    assert COLAB.match(hrefs["colab"]), hrefs["colab"]
                    assert hrefs["colab"].endswith(f"/{prefix}notebooks/colab/{source.name}.ipynb"), hrefs["colab"]
                if "lessons" in page.parts:
                    target = (page.parent / hrefs["page"] / "index.html").resolve()
                    assert target == (built_site / prefix / "notebooks" / source.name / "index.html").resolve()


@pytest.mark.slow
def test_every_run_this_snippet_runs_alone_in_a_fresh_python(built_site, tmp_path):
    snippets = []
    for slug in LESSONS:
        for prefix in ("", "en/"):
            page = built_site / prefix / "lessons" / slug / "index.html"
            for i, snippet in enumerate(Blocks(page.read_text(encoding="utf-8")).snippets):
                snippets.append((f"{prefix}lessons/{slug} #{i + 1}", snippet))
    assert len(snippets) >= 14, [name for name, _ in snippets]

    def run(job):
        name, snippet = job
        folder = tmp_path / re.sub(r"\W+", "-", name)
        folder.mkdir()
        # -I: no PYTHONPATH, no user site, no script folder on sys.path
        result = subprocess.run([sys.executable, "-I", "-c", snippet], cwd=folder, capture_output=True,
                                text=True, timeout=120, env={"PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg", "COURSE_ISOLATED": "1"})
        return name, result.returncode, result.stderr[-2000:]

    with ThreadPoolExecutor(max_workers=2) as pool:
        failures = [(name, err) for name, rc, err in pool.map(run, snippets) if rc != 0]
    assert not failures, failures


def test_a_wrong_colab_repository_stops_the_build_with_the_fix(tmp_path):
    env = {**os.environ, "COLAB_REPOSITORY": "not a repository", "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "site")],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode != 0
    assert "extra.colab.repository" in result.stderr and "COLAB_REPOSITORY" in result.stderr, result.stderr
    assert not (tmp_path / "site").exists()
