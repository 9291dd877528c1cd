"""The results cache on disk: atomic writes, cache keys, manifests, checked entries.

Two caches, one per kind of work (under the output folder, default ``.build/``)::

    experiments/<name>/<key16>/results.json          numbers, config, versions, device, seed, time
    experiments/<name>/<key16>/files/...             extra files an experiment wrote (ctx.out_dir)
    experiments/<name>/<key16>/manifest.json         sha256 of every file above; written last
    drawings/<name>/<key16>/drawn.json               title and tables (both languages), figure list
    drawings/<name>/<key16>/figures/<lang>/*.png     one set per language (ko, en)
    drawings/<name>/<key16>/manifest.json
    <kind>/<name>/.staging-*/                        a run in progress; promoted by one rename
    provenance.json                                  how the last successful run was made

**Compute key** (:func:`cache_key`): sha256 over the sources of the code an experiment runs,
its resolved config, the library versions, the device kind and ``FORMAT``. The sources are
the teaching package's own modules (``tutorial_code/*.py``: any change to the model code reruns
every experiment), the experiment's compute module and the modules of ``tutorial_code`` it
imports, followed transitively through its import statements, and the run context that seeds
it (``pipeline/context.py``). Drawing code (``tutorial_code/experiments/drawing/``) is never
part of it, and a compute module may not import it or matplotlib (:func:`compute_sources`
refuses), so a label or a colour never retrains a model.

**Drawing key** (:func:`drawing_key`): sha256 over the experiment's ``results.json``, the
sources of its drawing module and what that imports, the plotting libraries' versions and
``DRAW_FORMAT``. A presentation change redraws (seconds) and trains nothing. Each language's
figures also have a key of their own (:func:`language_key`: the drawing sources without the
module's ``LABELS`` statement, plus that language's ``LABELS``), kept in ``drawn.json``: after
an edit of Korean labels, the English figures are copied from the older entry, not redrawn.

Import helpers with ordinary import statements (not ``importlib``) so the scan sees them.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import json
import os
import platform
import shutil
import tempfile
from importlib import metadata
from pathlib import Path

from .errors import ExperimentError

FORMAT = 2  # bump to invalidate every compute entry after a layout change
from ..paths import LANGS  # noqa: E402
from ..paths import DEFAULT_OUT, REPO_ROOT, TUTORIAL as PACKAGE_DIR  # noqa: F401
DRAW_FORMAT = 1  # the same for the drawings cache
DRAWING_DIR = PACKAGE_DIR / "experiments" / "drawing"
_PIPELINE_HASHED = ("context.py",)  # seeds python, numpy and torch; deterministic algorithms
KEEP_ENTRIES = 3  # cache entries kept per experiment (e.g. full, tiny, one older)


# ---------------------------------------------------------------- atomic files

def atomic_write_bytes(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` via a temp file in the same folder, fsync, os.replace.

    Returns False (and writes nothing) when the file already holds exactly these bytes, so
    watchers such as ``mkdocs serve`` see no change. An interruption at any point leaves
    either the old file or the new one, never a partial file.
    """
    path = Path(path)
    with contextlib.suppress(OSError):
        if path.read_bytes() == data:
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return True


def dumps(obj) -> bytes:
    """Canonical JSON bytes (sorted keys, no NaN) used for every file and every hash."""
    try:
        text = json.dumps(obj, indent=1, sort_keys=True, ensure_ascii=False,
                          allow_nan=False, default=_to_json)
    except (TypeError, ValueError) as exc:
        raise ExperimentError(f"value cannot be stored as JSON: {exc}") from exc
    return (text + "\n").encode("utf-8")


def _to_json(value):
    # torch / numpy scalars and arrays, paths
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, Path):
        return value.as_posix()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def write_json(path: Path, obj) -> bool:
    return atomic_write_bytes(path, dumps(obj))


def sha256_file(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ---------------------------------------------------------------- cache keys

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
            elif f != PACKAGE_DIR / "__init__.py":  # the package as a whole is hashed anyway
                todo.append(f)
    return sorted(seen), outside


def compute_sources(name: str) -> list[Path]:
    """Every file whose change can change experiment ``name``'s numbers (see the docstring)."""
    module = PACKAGE_DIR / "experiments" / f"{name}.py"
    files, outside = closure(module)
    drawing = [f for f in files if DRAWING_DIR in f.parents]
    if drawing or "matplotlib" in outside:
        what = ", ".join(f.relative_to(PACKAGE_DIR).as_posix() for f in drawing) or "matplotlib"
        raise ExperimentError(
            f"tutorial_code/experiments/{name}.py imports {what}: drawing code would then be part of "
            f"the compute cache key, so a label change would retrain it. Move it into "
            f"tutorial_code/experiments/drawing/{name}.py")
    package = sorted(p for p in PACKAGE_DIR.glob("*.py"))
    here = Path(__file__).resolve().parent
    return sorted(set(package) | set(files)) + [here / f for f in _PIPELINE_HASHED]


def drawing_sources(name: str) -> list[Path]:
    """The drawing module of ``name`` and every tutorial_code module it imports."""
    files, _ = closure(DRAWING_DIR / f"{name}.py")
    return files


def _hash_files(paths) -> str:
    h = hashlib.sha256()
    for path in paths:
        root = PACKAGE_DIR.parent if PACKAGE_DIR in path.parents else path.parents[1]
        rel = path.relative_to(root).as_posix()
        h.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def code_hash(name: str) -> str:
    """sha256 over :func:`compute_sources`."""
    return _hash_files(compute_sources(name))


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


def drawing_key(name: str, results_sha256: str) -> tuple[str, dict]:
    """(key, parts) of the drawings of one computed result."""
    versions = library_versions()
    parts = {
        "format": DRAW_FORMAT,
        "experiment": name,
        "results_sha256": results_sha256,
        "code_sha256": _hash_files(drawing_sources(name)),
        "versions": {k: versions[k] for k in ("python", "matplotlib", "koreanize-matplotlib")},
    }
    return hashlib.sha256(dumps(parts)).hexdigest(), parts


def language_key(name: str, results_sha256: str, labels: dict, lang: str) -> str:
    """The key of one language's figures, so that editing one language redraws only it.

    Like :func:`drawing_key`, with the drawing module's own ``LABELS = {...}`` left out of its
    source and only ``labels`` (that module's ``LABELS[lang]``) hashed in its place. The rule
    this relies on: a language's figures read that language's strings only.
    """
    own = DRAWING_DIR / f"{name}.py"
    h = hashlib.sha256()
    for path in drawing_sources(name):
        data = without_labels(path.read_bytes()) if path == own else path.read_bytes()
        h.update(path.relative_to(PACKAGE_DIR.parent).as_posix().encode() + b"\0" + data + b"\0")
    parts = {**drawing_key(name, results_sha256)[1], "code_sha256": h.hexdigest(), "lang": lang,
             "labels": labels}
    return hashlib.sha256(dumps(parts)).hexdigest()


def without_labels(source: bytes) -> bytes:
    """``source`` with its top-level ``LABELS = ...`` statement cut out (unchanged if none)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines(keepends=True)
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "LABELS" for t in targets):
            return b"".join(lines[: node.lineno - 1] + [b"LABELS = ...\n"] + lines[node.end_lineno :])
    return source


# ---------------------------------------------------------------- entries

COMPUTE, DRAWINGS = "experiments", "drawings"  # the two caches
MAIN_FILE = {COMPUTE: "results.json", DRAWINGS: "drawn.json"}


def experiment_dir(out: Path, name: str, kind: str = COMPUTE) -> Path:
    return Path(out) / kind / name


def entry_dir(out: Path, name: str, key: str, kind: str = COMPUTE) -> Path:
    return experiment_dir(out, name, kind) / key[:16]


def verify_entry(path: Path, key: str, kind: str = COMPUTE) -> tuple[dict | None, str | None]:
    """Check a cache entry. Returns (record, None) if usable, (None, reason) if not.

    ``(None, None)`` means there is no entry at all (a plain miss).
    """
    manifest_path = path / "manifest.json"
    if not path.exists():
        return None, None
    if not manifest_path.exists():
        return None, "manifest.json is missing (interrupted run?)"
    try:
        manifest = json.loads(manifest_path.read_text("utf-8"))
        files = manifest["files"]
        if manifest.get("format") != (FORMAT if kind == COMPUTE else DRAW_FORMAT) or manifest.get("key") != key:
            return None, "manifest belongs to another cache key or format"
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        return None, f"manifest.json is unreadable ({type(exc).__name__}: {exc})"
    main = MAIN_FILE[kind]
    if not isinstance(files, dict) or main not in files:
        return None, f"manifest.json does not list {main}"
    for rel, digest in files.items():
        f = path / rel
        if not f.is_file():
            return None, f"{rel} is missing"
        if sha256_file(f) != digest:
            return None, f"{rel} does not match its sha256 in manifest.json (corrupt or truncated)"
    try:
        record = json.loads((path / main).read_text("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        return None, f"{main} is not valid JSON ({exc})"
    for lang in LANGS:
        for fig in record.get("figures", {}).get(lang, []):
            if f"figures/{lang}/{fig}" not in files:
                return None, f"figure figures/{lang}/{fig} is not in manifest.json"
    return record, None


def write_manifest(path: Path, key: str, parts: dict, kind: str = COMPUTE) -> None:
    """List every file of a staged entry with its sha256; call this last."""
    files = {
        p.relative_to(path).as_posix(): sha256_file(p)
        for p in sorted(path.rglob("*"))
        if p.is_file() and p.name != "manifest.json" and not p.name.startswith(".")
    }
    fmt = FORMAT if kind == COMPUTE else DRAW_FORMAT
    write_json(path / "manifest.json", {"format": fmt, "key": key, "key_parts": parts, "files": files})


def new_staging_dir(out: Path, name: str, key: str, kind: str = COMPUTE) -> Path:
    parent = experiment_dir(out, name, kind)
    parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(dir=parent, prefix=f".staging-{key[:16]}-{os.getpid()}-"))


def promote(staging: Path, final: Path) -> None:
    """Move a complete staged entry into place with renames; the old entry goes last."""
    trash = None
    if final.exists():
        trash = final.with_name(f".trash-{final.name}-{os.getpid()}")
        os.replace(final, trash)
    os.replace(staging, final)
    if trash is not None:
        shutil.rmtree(trash, ignore_errors=True)
    _fsync_dir(final.parent)


def discard(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def clean_stale(out: Path, name: str, kind: str = COMPUTE) -> None:
    """Remove staging/trash folders left by runs that were killed (their pid is gone)."""
    parent = experiment_dir(out, name, kind)
    if not parent.is_dir():
        return
    for p in parent.iterdir():
        if p.name.startswith((".staging-", ".trash-")):
            pid = _pid_of(p.name)
            if pid is None or not _alive(pid):
                discard(p)


def prune(out: Path, name: str, keep: Path, kind: str = COMPUTE) -> None:
    """Keep the ``KEEP_ENTRIES`` most recently used entries of one experiment."""
    parent = experiment_dir(out, name, kind)
    entries = [p for p in parent.iterdir() if p.is_dir() and not p.name.startswith(".")]
    entries.sort(key=lambda p: (p == keep, p.stat().st_mtime), reverse=True)
    for old in entries[KEEP_ENTRIES:]:
        discard(old)


def touch(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.utime(path)


def check_writable(out: Path) -> Path:
    """Create ``out`` if needed and prove we can write there; fail early and clearly."""
    out = Path(out).expanduser().resolve()
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out, prefix=".write-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise ExperimentError(
            f"output folder '{out}' is not writable ({exc.strerror or exc}). "
            "Choose another folder with --out DIR, or fix its permissions."
        ) from exc
    return out


@contextlib.contextmanager
def locked(out: Path, name: str, on_wait=None):
    """Serialise runs of one experiment on one output folder (two builds at once would race
    on promotion); runs of different experiments proceed in parallel."""
    try:
        import fcntl
    except ImportError:  # windows: no advisory locks; runs are still atomic per entry
        yield
        return
    lock_dir = experiment_dir(out, name)
    lock_dir.mkdir(parents=True, exist_ok=True)
    with open(lock_dir / ".lock", "w") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait:
                on_wait(lock_dir / ".lock")
            fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _pid_of(dirname: str) -> int | None:
    try:
        return int(dirname.split("-")[2])
    except (IndexError, ValueError):
        return None


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
