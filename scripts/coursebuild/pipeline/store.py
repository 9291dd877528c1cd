"""The results cache on disk: atomic writes, cache keys, manifests, checked entries.

Layout under the output folder (default ``.build/`` at the repository root)::

    experiments/<name>/<key16>/results.json        numbers, config, versions, device, seed, time
    experiments/<name>/<key16>/figures/<lang>/*.png one set per language (ko, en)
    experiments/<name>/<key16>/manifest.json       sha256 of every file above; written last
    experiments/<name>/.staging-*/                 a run in progress; promoted by one rename
    provenance.json                                 how the last successful run was made

The cache key is sha256 over: the sources of the code an experiment can run, the resolved
config, the library versions, the device kind and ``FORMAT``. The sources are every
``tutorial_code/**/*.py`` outside ``experiments/`` (coarse but robust: any change to the model
code reruns every experiment), the framework modules of ``experiments/`` (``_FRAMEWORK``), and
the experiment's own module plus the modules of ``experiments/`` it imports, followed
transitively through its import statements (so a helper such as ``diagrams.py`` only reruns
the experiments that import it). The registry, CLI and page hook (``_NOT_HASHED``) cannot
change a number and are left out, and so are ``sitebuild/`` and ``notebooks/``
(``_NOT_HASHED_DIRS``), which only turn code into pages and notebooks. Import helpers with ordinary import statements (not
``importlib``) so the dependency scan sees them.
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

FORMAT = 1  # bump to invalidate every cache entry after a layout change
from ..paths import LANGS  # noqa: E402
from ..paths import DEFAULT_OUT, REPO_ROOT, TUTORIAL as PACKAGE_DIR  # noqa: F401
# folders of tutorial_code that only become pages and notebooks; they cannot change a number
_NOT_HASHED_DIRS = ("notebooks/",)
# modules every experiment runs through: in experiments/, and the run context (seeding) here
_FRAMEWORK = {"__init__.py", "plotting.py"}
_PIPELINE_HASHED = ("context.py",)
_PREFIX = "tutorial_code.experiments."
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


def code_hash(name: str) -> str:
    """sha256 over the sources that can influence experiment ``name`` (see module docstring)."""
    exp_dir = PACKAGE_DIR / "experiments"
    local = _FRAMEWORK | experiment_imports(name, exp_dir)
    h = hashlib.sha256()
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        rel = path.relative_to(PACKAGE_DIR).as_posix()
        if rel.startswith(_NOT_HASHED_DIRS) or (path.parent == exp_dir and path.name not in local):
            continue
        h.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    here = Path(__file__).resolve().parent
    for fname in _PIPELINE_HASHED:
        h.update(fname.encode() + b"\0" + (here / fname).read_bytes() + b"\0")
    return h.hexdigest()


def experiment_imports(name: str, exp_dir: Path) -> set[str]:
    """File names in experiments/ that ``<name>.py`` imports, directly or through each other."""
    seen: set[str] = set()
    todo = [f"{name}.py"]
    while todo:
        fname = todo.pop()
        path = exp_dir / fname
        if fname in seen or not path.is_file():
            continue
        seen.add(fname)
        try:
            tree = ast.parse(path.read_bytes())
        except SyntaxError:
            continue  # hashed as it is; importing it will fail loudly anyway
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                # from .x import y / from . import x, y
                todo += [node.module.split(".")[0] + ".py"] if node.module else \
                    [a.name + ".py" for a in node.names]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(_PREFIX):
                todo.append(node.module[len(_PREFIX):].split(".")[0] + ".py")
            elif isinstance(node, ast.Import):
                todo += [a.name[len(_PREFIX):].split(".")[0] + ".py"
                         for a in node.names if a.name.startswith(_PREFIX)]
    return seen


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


# ---------------------------------------------------------------- entries

def experiment_dir(out: Path, name: str) -> Path:
    return Path(out) / "experiments" / name


def entry_dir(out: Path, name: str, key: str) -> Path:
    return experiment_dir(out, name) / key[:16]


def verify_entry(path: Path, key: str) -> tuple[dict | None, str | None]:
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
        if manifest.get("format") != FORMAT or manifest.get("key") != key:
            return None, "manifest belongs to another cache key or format"
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        return None, f"manifest.json is unreadable ({type(exc).__name__}: {exc})"
    if not isinstance(files, dict) or "results.json" not in files:
        return None, "manifest.json does not list results.json"
    for rel, digest in files.items():
        f = path / rel
        if not f.is_file():
            return None, f"{rel} is missing"
        if sha256_file(f) != digest:
            return None, f"{rel} does not match its sha256 in manifest.json (corrupt or truncated)"
    try:
        record = json.loads((path / "results.json").read_text("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        return None, f"results.json is not valid JSON ({exc})"
    for lang in LANGS:
        for fig in record.get("figures", {}).get(lang, []):
            if f"figures/{lang}/{fig}" not in files:
                return None, f"figure figures/{lang}/{fig} is not in manifest.json"
    return record, None


def write_manifest(path: Path, key: str, parts: dict) -> None:
    """List every file of a staged entry with its sha256; call this last."""
    files = {
        p.relative_to(path).as_posix(): sha256_file(p)
        for p in sorted(path.rglob("*"))
        if p.is_file() and p.name != "manifest.json" and not p.name.startswith(".")
    }
    write_json(path / "manifest.json", {"format": FORMAT, "key": key, "key_parts": parts, "files": files})


def new_staging_dir(out: Path, name: str, key: str) -> Path:
    parent = experiment_dir(out, name)
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


def clean_stale(out: Path, name: str) -> None:
    """Remove staging/trash folders left by runs that were killed (their pid is gone)."""
    parent = experiment_dir(out, name)
    if not parent.is_dir():
        return
    for p in parent.iterdir():
        if p.name.startswith((".staging-", ".trash-")):
            pid = _pid_of(p.name)
            if pid is None or not _alive(pid):
                discard(p)


def prune(out: Path, name: str, keep: Path) -> None:
    """Keep the ``KEEP_ENTRIES`` most recently used entries of one experiment."""
    parent = experiment_dir(out, name)
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
