"""Cache keys: which sources, settings and versions each stage's entries are stored under.

**Compute key** (:func:`cache_key`): sha256 over the sources of the code an experiment runs,
its resolved config, the library versions, the device kind and ``store.FORMAT``. The sources
are the teaching package's own modules (``tutorial_code/*.py``: any change to the model code
reruns every experiment), the experiment's compute module and the modules of
``tutorial_code`` it imports, followed transitively through its import statements, and the
run context that seeds it (``pipeline/context.py``; the progress bar's wording,
``pipeline/progress.py``, is not part of it). Left out: the compute module's gate ranges
(``GATES``, ``TINY_GATES`` and any ``*_GATES`` statement; gates are checked on every build),
and ``tutorial_code/experiments/__init__.py`` (the list of experiments and the contract).
Drawing and page-data code are never part of it: a compute module may not import them or
matplotlib (:func:`compute_sources` refuses).

**Page-data key** (:func:`pagedata_key`): sha256 over the experiment's ``results.json``, the
sources of ``pagedata/<name>.py`` and what that imports, the library versions and
``store.PAGE_FORMAT``; the module's ``CHECKS`` and ``CLAIMS`` (and the ``LESSON_*`` page paths
claims name) are left out: they are checked on every build.

**Drawing key** (:func:`drawing_key`): sha256 over the experiment's ``results.json`` and
``page.json``, the sources of its drawing module and what that imports, the plotting
libraries' versions and ``store.DRAW_FORMAT``. Each language's figures also have a key of
their own (:func:`language_key`: the drawing sources without the module's ``LABELS``
statement, plus that language's ``LABELS``), kept in ``drawn.json``: after an edit of Korean
labels, the English figures are copied from the older entry, not redrawn.

Import code with ordinary import statements (not ``importlib``) so the scan sees it.
"""

from __future__ import annotations

import ast
import hashlib
import platform
from importlib import metadata
from pathlib import Path

from ..paths import TUTORIAL as PACKAGE_DIR
from .errors import ExperimentError
from .store import DRAW_FORMAT, FORMAT, PAGE_FORMAT, dumps

EXPERIMENTS_DIR = PACKAGE_DIR / "experiments"
DRAWING_DIR = EXPERIMENTS_DIR / "drawing"
PAGEDATA_DIR = EXPERIMENTS_DIR / "pagedata"
PIPELINE_DIR = Path(__file__).resolve().parent
_PIPELINE_HASHED = ("context.py",)  # seeds python, numpy and torch; deterministic algorithms
# package files in no key: the whole package is hashed anyway; the registry and contract
_NOT_FOLLOWED = (PACKAGE_DIR / "__init__.py", EXPERIMENTS_DIR / "__init__.py")


def _is_gate(name: str) -> bool:
    return name.endswith("GATES")


def _is_check(name: str) -> bool:
    return name.endswith(("CHECKS", "CLAIMS")) or name.startswith("LESSON_")


def library_versions() -> dict[str, str]:
    """Versions that can change a number or a pixel."""
    versions = {"python": platform.python_version()}
    for dist in ("torch", "numpy", "matplotlib", "koreanize-matplotlib"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = "absent"
    return versions


def module_file(module: str) -> Path | None:
    """The file of a ``tutorial_code...`` module, or None for anything else."""
    parts = module.split(".")
    if parts[0] != PACKAGE_DIR.name:
        return None
    path = PACKAGE_DIR.joinpath(*parts[1:])
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE_DIR.parent).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path) -> list[str]:
    """Absolute names of the modules ``path`` imports (relative imports resolved)."""
    try:
        tree = ast.parse(path.read_bytes())
    except SyntaxError:
        return []  # hashed as it is; importing it will fail loudly anyway
    package = _module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names.append(base)
            names += [f"{base}.{a.name}" for a in node.names]  # from . import helper
    return names


def closure(start: Path) -> tuple[list[Path], set[str]]:
    """(the tutorial_code files ``start`` imports, transitively, itself included;
    the top-level names of every other module they import)."""
    seen: dict[Path, None] = {}
    outside: set[str] = set()
    todo = [start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen[path] = None
        for name in _imported(path):
            f = module_file(name)
            if f is None:
                outside.add(name.split(".")[0])
            elif f not in _NOT_FOLLOWED:
                todo.append(f)
    return sorted(seen), outside


def compute_sources(name: str) -> list[Path]:
    """Every file whose change can change experiment ``name``'s numbers (see the docstring)."""
    module = EXPERIMENTS_DIR / f"{name}.py"
    files, outside = closure(module)
    later = [f for f in files if DRAWING_DIR in f.parents or PAGEDATA_DIR in f.parents]
    if later or "matplotlib" in outside:
        what = ", ".join(f.relative_to(PACKAGE_DIR).as_posix() for f in later) or "matplotlib"
        raise ExperimentError(
            f"tutorial_code/experiments/{name}.py imports {what}: page data or drawing code would "
            f"then be part of the compute cache key, so a page edit would retrain it. Move that "
            f"use into tutorial_code/experiments/pagedata/{name}.py or drawing/{name}.py")
    package = sorted(p for p in PACKAGE_DIR.glob("*.py"))
    return sorted(set(package) | set(files)) + [PIPELINE_DIR / f for f in _PIPELINE_HASHED]


def pagedata_module(name: str) -> Path:
    return PAGEDATA_DIR / f"{name}.py"


def pagedata_sources(name: str) -> list[Path]:
    """The page-data module of ``name`` and every tutorial_code module it imports."""
    return closure(pagedata_module(name))[0] if pagedata_module(name).is_file() else []


def drawing_sources(name: str) -> list[Path]:
    """The drawing module of ``name`` and every tutorial_code module it imports."""
    files, _ = closure(DRAWING_DIR / f"{name}.py")
    return files


def without(source: bytes, cut) -> bytes:
    """``source`` with its top-level assignments to names ``cut(name)`` accepts replaced by
    ``NAME = ...`` (unchanged if there are none, or if it does not parse)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines(keepends=True)
    for node in reversed(tree.body):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        names = [t.id for t in targets if isinstance(t, ast.Name) and cut(t.id)]
        if names:
            lines[node.lineno - 1: node.end_lineno] = [f"{names[0]} = ...\n".encode()]
    return b"".join(lines)


def without_labels(source: bytes) -> bytes:
    """``source`` with its top-level ``LABELS = ...`` statement cut out (unchanged if none)."""
    return without(source, lambda n: n == "LABELS")


def _hash_files(paths, cuts: dict | None = None) -> str:
    """sha256 over the files' paths and contents; ``cuts``: {path: cut} as for :func:`without`."""
    cuts = cuts or {}
    h = hashlib.sha256()
    for path in paths:
        root = PACKAGE_DIR.parent if PACKAGE_DIR in path.parents else path.parents[1]
        rel = path.relative_to(root).as_posix()
        data = path.read_bytes()
        if path in cuts:
            data = without(data, cuts[path])
        h.update(rel.encode() + b"\0" + data + b"\0")
    return h.hexdigest()


def code_hash(name: str) -> str:
    """sha256 over :func:`compute_sources`, the module's gate ranges left out."""
    return _hash_files(compute_sources(name), {EXPERIMENTS_DIR / f"{name}.py": _is_gate})


def cache_key(name: str, config: dict, device_kind: str) -> tuple[str, dict]:
    """Return (key, parts): the parts are stored in the manifest to explain a miss."""
    parts = {
        "format": FORMAT,
        "experiment": name,
        "code_sha256": code_hash(name),
        "config": config,
        "versions": library_versions(),
        "device_kind": device_kind,
    }
    return hashlib.sha256(dumps(parts)).hexdigest(), parts


def pagedata_key(name: str, results_sha256: str) -> tuple[str, dict]:
    """(key, parts) of the page data of one computed result."""
    parts = {
        "format": PAGE_FORMAT,
        "experiment": name,
        "results_sha256": results_sha256,
        "code_sha256": _hash_files(pagedata_sources(name), {pagedata_module(name): _is_check}),
        "versions": library_versions(),
    }
    return hashlib.sha256(dumps(parts)).hexdigest(), parts


def drawing_key(name: str, results_sha256: str, page_sha256: str | None = None) -> tuple[str, dict]:
    """(key, parts) of the drawings of one computed result and its page data."""
    versions = library_versions()
    parts = {
        "format": DRAW_FORMAT,
        "experiment": name,
        "results_sha256": results_sha256,
        "page_sha256": page_sha256,
        "code_sha256": _hash_files(drawing_sources(name)),
        "versions": {k: versions[k] for k in ("python", "matplotlib", "koreanize-matplotlib")},
    }
    return hashlib.sha256(dumps(parts)).hexdigest(), parts


def language_key(name: str, results_sha256: str, labels: dict, lang: str,
                 page_sha256: str | None = None) -> str:
    """The key of one language's figures, so that editing one language redraws only it.

    Like :func:`drawing_key`, with the drawing module's own ``LABELS = {...}`` left out of its
    source and only ``labels`` (that module's ``LABELS[lang]``) hashed in its place. The rule
    this relies on: a language's figures read that language's strings only.
    """
    own = DRAWING_DIR / f"{name}.py"
    code = _hash_files(drawing_sources(name), {own: lambda n: n == "LABELS"})
    parts = {**drawing_key(name, results_sha256, page_sha256)[1], "code_sha256": code, "lang": lang,
             "labels": labels}
    return hashlib.sha256(dumps(parts)).hexdigest()
