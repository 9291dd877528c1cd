"""Turn the percent sources of this folder into notebooks, execute them, cache the results.

``render`` makes one language's notebook from a source (no outputs); ``execute`` runs it in a
fresh kernel in an empty temporary folder, without this repository on ``sys.path``;
``build`` does both through a cache keyed by the rendered notebook and the library versions;
``write_site`` puts the executed notebooks (pages) and the output-free, Colab-ready copies
(downloads) where the site build picks them up.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import jupytext
import nbformat

from ..pages import code as code_include
from ..notebooks.dependencies import DependencyError, Inliner, check
from ..paths import LANGS, NOTEBOOK_SOURCES
from ..pipeline.keys import library_versions
from .. import atomic

FOLDER = NOTEBOOK_SOURCES
FORMAT = 2  # bump when rendering or execution changes in a way cached notebooks must see
# (2: each code cell keeps its run time, metadata.execution, which the teaching plan reads)
TIMEOUT_S = 300  # per cell; a lab notebook is meant to finish in well under 2 minutes
SOURCE_NAME = re.compile(r"lesson_(?P<n>\d\d)_(?P<slug>[a-z0-9]+(?:_[a-z0-9]+)*)\.py")
KERNEL = {"name": "python3", "display_name": "Python 3", "language": "python"}
# the first code cell of every Korean notebook: matplotlib draws Hangul as empty boxes without
# a Korean font, and Colab has none (English notebooks have no Hangul in their plots)
HANGUL_FONT_CELL = """# 그래프의 한글 글꼴: Colab에는 한글 글꼴이 없어서 처음 한 번 설치합니다.
try:
    import koreanize_matplotlib  # noqa: F401
except ImportError:
    %pip install -q koreanize-matplotlib
    import koreanize_matplotlib  # noqa: F401"""

_CODE_MARKER = re.compile(r"^(?P<indent>[ \t]*)#\s*\[\[code:(?P<target>[A-Za-z_][\w.]*)\]\]\s*$")
_LANG_COMMENT = re.compile(r"^(?P<indent>[ \t]*)#\s*(?P<lang>ko|en):\s?(?P<text>.*)$")
_LANG_LINE = re.compile(r"^(?P<code>.*?\S)\s+#\s*(?P<lang>ko|en)\s*$")
_BILINGUAL = re.compile(r"^(?P<code>.*?\S)(?P<gap>\s+)#\s*ko:\s*(?P<ko>.*?)\s*#\s*en:\s*(?P<en>.*?)\s*$")


class NotebookError(ValueError):
    """A notebook source that cannot be rendered, or a notebook that fails to run."""


@dataclass(frozen=True)
class Source:
    path: Path
    lesson: int
    slug: str  # the lesson page's file name: lessons/<slug>.md

    @property
    def name(self) -> str:
        """File name stem of the notebook, e.g. ``lesson-03-scaled-dot-product``."""
        return f"lesson-{self.lesson:02d}-{self.slug}"


def sources(folder: Path = FOLDER) -> list[Source]:
    """Every ``lesson_NN_slug.py`` of ``folder``, in lesson order."""
    found = []
    for path in sorted(Path(folder).glob("lesson_*.py")):
        m = SOURCE_NAME.fullmatch(path.name)
        if m is None:
            raise NotebookError(f"{path.name}: notebook sources are named lesson_NN_slug.py "
                                "(two digits, lower-case words joined by '_')")
        found.append(Source(path, int(m["n"]), m["slug"].replace("_", "-")))
    return found


# ---------------------------------------------------------------- rendering

def _code_lines(text: str, lang: str, where: str, inliner: Inliner) -> list[str]:
    out: list[str] = []
    own: list[str] = []  # the notebook's own lines so far, for what they define
    for lineno, line in enumerate(text.splitlines(), 1):
        m = _CODE_MARKER.match(line)
        if m:
            inliner.note("\n".join(own))
            out.extend(m["indent"] + s if s else s for s in _bring(m["target"], inliner, f"{where}, line {lineno}"))
            continue
        m = _LANG_COMMENT.match(line)
        if m:
            if m["lang"] == lang:
                out.append(f"{m['indent']}# {m['text']}".rstrip())
            continue
        m = _BILINGUAL.match(line)
        if m:
            line = f"{m['code']}{m['gap']}# {m[lang]}"
        else:
            m = _LANG_LINE.match(line)
            if m and m["lang"] != lang:
                continue
            line = m["code"] if m else line
        out.append(line)
        own.append(line)
    inliner.note("\n".join(own))
    while out and not out[-1].strip():
        out.pop()
    return out


def _bring(target: str, inliner: Inliner, where: str) -> list[str]:
    """The lines of ``# [[code:target]]``: the object, after what it needs that is not in yet."""
    try:
        module, name = code_include.resolve(target)
        if module.split(".")[0] == "experiments":
            raise KeyError(f"[[code:{target}]]: a notebook takes its code from the teaching package, "
                           "not from an experiment's module; move it to a module of tutorial_code "
                           "(e.g. tutorial_code/tasks/) and include it from there")
        if name is None:
            raise KeyError(f"[[code:{target}]]: a notebook brings in one object at a time; name it "
                           f"([[code:{target}.name]])")
        return inliner.bring(module, name, where)
    except (KeyError, DependencyError) as exc:
        raise NotebookError(f"{where}: {exc.args[0]}") from None


def render(source: Source, lang: str) -> nbformat.NotebookNode:
    """The ``lang`` notebook of ``source``, without outputs."""
    if lang not in LANGS:
        raise NotebookError(f"unknown language '{lang}': use one of {', '.join(LANGS)}")
    try:
        doc = jupytext.reads(source.path.read_text(encoding="utf-8"), fmt="py:percent")
    except Exception as exc:  # jupytext raises several kinds
        raise NotebookError(f"{source.path.name}: cannot read it as a percent script: {exc}") from exc
    cells, origins, inliner = [], [], Inliner(lang)
    for i, cell in enumerate(doc.cells, 1):
        where = f"{source.path.name}, cell {i}"
        cell_lang = cell.metadata.get("lang")
        if cell_lang not in (None, *LANGS):
            raise NotebookError(f"{where}: lang=\"{cell_lang}\" is not one of {', '.join(LANGS)}")
        if cell_lang not in (None, lang):
            continue
        cid = f"{source.name}-{len(cells):02d}"
        if cell.cell_type == "markdown":
            cells.append(nbformat.v4.new_markdown_cell(cell.source.strip(), id=cid))
        elif cell.cell_type == "code":
            lines = _code_lines(cell.source, lang, where, inliner)
            if lines:
                cells.append(nbformat.v4.new_code_cell("\n".join(lines), id=cid))
                origins.append(i)
    if not cells or cells[0].cell_type != "markdown" or not cells[0].source.startswith("# "):
        raise NotebookError(f"{source.path.name}: the {lang} notebook must start with a text "
                            "cell whose first line is its '# ' title")
    if lang == "ko":
        first_code = next((i for i, c in enumerate(cells) if c.cell_type == "code"), len(cells))
        cells.insert(first_code, nbformat.v4.new_code_cell(HANGUL_FONT_CELL, id=f"{source.name}-font"))
    # before any kernel runs: every name defined by an earlier cell, nothing from this repository
    code_cells = [c.source for c in cells if c.cell_type == "code" and c.source != HANGUL_FONT_CELL]
    try:
        check(list(zip(origins, code_cells)), f"{source.path.name} ({lang})")
    except DependencyError as exc:
        raise NotebookError(str(exc)) from None
    nb = nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": dict(KERNEL),
        "language_info": {"name": "python"},
        "colab": {"name": f"{source.name}.ipynb", "provenance": []},
        "tutorial": {"lesson": source.lesson, "lang": lang},
    })
    nbformat.validate(nb)
    return nb


# ---------------------------------------------------------------- execution

def kernel_env() -> dict[str, str]:
    """The kernel's environment: this one, minus what could reach the repository."""
    drop = {"PYTHONPATH", "MPLBACKEND", "PYTHONSTARTUP", "TUTORIAL_DEVICE"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    # the build runs two kernels side by side; torch's default of one thread per core made
    # small models 5-50x slower when they competed for the same cores
    env.setdefault("OMP_NUM_THREADS", "1")
    env["COURSE_ISOLATED"] = "1"  # tells code that looks that it runs as in a fresh Colab runtime
    return env


def execute(nb: nbformat.NotebookNode, label: str, timeout: int = TIMEOUT_S) -> nbformat.NotebookNode:
    """Run a copy of ``nb`` top to bottom in a fresh kernel, in an empty temporary folder."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
    from traitlets.config import Config

    nb = copy.deepcopy(nb)
    with tempfile.TemporaryDirectory(prefix="notebook-") as tmp:
        # local sockets instead of TCP ports: nothing listens on the network while it runs
        config = Config()
        config.KernelManager.transport = "ipc"
        config.KernelManager.ip = os.path.join(tmp, "kernel")
        # record_timing: each code cell keeps when it started and finished (metadata.execution),
        # the run time the teaching plan gives it (coursebuild.pages.plan); the Colab copy drops it
        client = NotebookClient(nb, config=config, timeout=timeout, kernel_name=KERNEL["name"],
                                record_timing=True, resources={"metadata": {"path": tmp}})
        try:
            client.execute(env=kernel_env())
        except CellExecutionError as exc:
            raise NotebookError(f"{label}: a cell failed.\n{exc}") from None
        except CellTimeoutError as exc:
            raise NotebookError(f"{label}: a cell ran longer than {timeout} s: {exc}") from None
        except DeadKernelError as exc:
            raise NotebookError(f"{label}: the kernel died (out of memory?): {exc}") from None
    return nb


def strip_outputs(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy without outputs or execution counts: what a student opens in Colab."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
    return nb


def dumps(nb: nbformat.NotebookNode) -> bytes:
    return (nbformat.writes(nb) + "\n").encode("utf-8")


def cache_key(nb: nbformat.NotebookNode) -> str:
    h = hashlib.sha256()
    h.update(json.dumps({"format": FORMAT, "versions": library_versions()}, sort_keys=True).encode())
    h.update(dumps(nb))
    return h.hexdigest()


def build(source: Source, lang: str, cache_dir: Path, log: Callable[[str], None] = print,
          nb: nbformat.NotebookNode | None = None) -> nbformat.NotebookNode:
    """The executed ``lang`` notebook of ``source`` (``nb``: already rendered), from the cache
    when nothing changed."""
    nb = render(source, lang) if nb is None else nb
    key = cache_key(nb)
    cache_dir = Path(cache_dir)
    entry = cache_dir / f"{source.name}.{lang}.{key[:16]}.ipynb"
    if entry.is_file():
        try:
            cached = nbformat.reads(entry.read_text(encoding="utf-8"), as_version=4)
            if cached.metadata.get("tutorial", {}).get("cache_key") == key:
                return cached
            reason = "its key does not match"
        except Exception as exc:  # unreadable JSON or not a notebook
            reason = str(exc).splitlines()[0]
        log(f"notebooks: cache entry {entry.name} is unusable ({reason}); running the notebook again")
    log(f"notebooks: running {source.name} ({lang})")
    done = execute(nb, f"{source.path.name} ({lang})")
    done.metadata["tutorial"]["cache_key"] = key
    atomic.write_bytes(entry, dumps(done))
    for old in cache_dir.glob(f"{source.name}.{lang}.*.ipynb"):
        if old != entry:
            old.unlink(missing_ok=True)
    return done


def build_all(cache_dir: Path, langs=LANGS, jobs: int = 2, only: set[int] | None = None,
              log: Callable[[str], None] = print) -> dict[tuple[str, str], nbformat.NotebookNode]:
    """Every (or ``only`` these lessons') notebook in every language, ``jobs`` kernels at a time."""
    todo = [(s, lang) for s in sources() if only is None or s.lesson in only for lang in langs]
    # render (and check) in this thread, execute in the pool: CPython 3.11.7's ast.parse is not
    # safe in threads ("AST constructor recursion depth mismatch", python/cpython#106905)
    rendered = [render(s, lang) for s, lang in todo]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = list(pool.map(lambda job: build(*job[0], cache_dir, log, job[1]), zip(todo, rendered)))
    return {(s.name, lang): nb for (s, lang), nb in zip(todo, done)}


def write_site(docs_dir: Path, built: dict[tuple[str, str], nbformat.NotebookNode]) -> list[Path]:
    """Write ``<lang>/notebooks/<name>.ipynb`` (executed: the page) and
    ``<lang>/notebooks/colab/<name>.ipynb`` (outputs stripped: the download) under ``docs_dir``.

    Files whose bytes did not change are left alone (so ``mkdocs serve`` sees no change), and
    notebooks that no longer have a source are removed. Returns the files written.
    """
    written = []
    wanted: set[Path] = set()
    for (name, lang), nb in built.items():
        page = Path(docs_dir) / lang / "notebooks" / f"{name}.ipynb"
        download = page.parent / "colab" / page.name
        wanted |= {page, download}
        clean = strip_outputs(nb)
        clean.metadata.get("tutorial", {}).pop("cache_key", None)
        for path, data in ((page, dumps(nb)), (download, dumps(clean))):
            if atomic.write_bytes(path, data):
                written.append(path)
    for lang in {lang for _, lang in built}:
        for folder in (Path(docs_dir) / lang / "notebooks", Path(docs_dir) / lang / "notebooks" / "colab"):
            for stale in folder.glob("*.ipynb"):
                if stale not in wanted:
                    stale.unlink()
    return written
