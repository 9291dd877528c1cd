"""The caches on disk: atomic writes, manifests, checked entries, locks, pruning.

Three caches, one per stage (under the output folder, default ``.build/``)::

    experiments/<name>/<key16>/results.json          numbers, config, versions, device, seed, time
    experiments/<name>/<key16>/files/...             extra files an experiment wrote (ctx.out_dir)
    experiments/<name>/<key16>/manifest.json         sha256 of every file above; written last
    pagedata/<name>/<key16>/page.json                what page_data() returned (pagedata/<name>.py)
    pagedata/<name>/<key16>/files/...                files the page loads (an exported model)
    pagedata/<name>/<key16>/manifest.json
    drawings/<name>/<key16>/drawn.json               title and tables (both languages), figure list
    drawings/<name>/<key16>/figures/<lang>/*.png     one set per language (ko, en)
    drawings/<name>/<key16>/manifest.json
    <kind>/<name>/.staging-*/                        a run in progress; promoted by one rename
    provenance.json                                  how the last successful run was made

The keys these entries are stored under are worked out in :mod:`.keys`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from .. import atomic
from .errors import ExperimentError

from ..paths import LANGS
from ..paths import DEFAULT_OUT, REPO_ROOT  # noqa: F401  (read as store.DEFAULT_OUT, store.REPO_ROOT)

FORMAT = 3  # bump to invalidate every compute entry after a layout change
PAGE_FORMAT = 1  # the same for the page-data cache
DRAW_FORMAT = 2  # the same for the drawings cache
KEEP_ENTRIES = 3  # cache entries kept per experiment (e.g. full, tiny, one older)


# ---------------------------------------------------------------- atomic files

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
    return atomic.write_bytes(path, dumps(obj))


def sha256_file(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ---------------------------------------------------------------- entries

COMPUTE, PAGEDATA, DRAWINGS = "experiments", "pagedata", "drawings"  # the three caches
MAIN_FILE = {COMPUTE: "results.json", PAGEDATA: "page.json", DRAWINGS: "drawn.json"}
FORMATS = {COMPUTE: FORMAT, PAGEDATA: PAGE_FORMAT, DRAWINGS: DRAW_FORMAT}


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
        if manifest.get("format") != FORMATS[kind] or manifest.get("key") != key:
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
    write_json(path / "manifest.json", {"format": FORMATS[kind], "key": key, "key_parts": parts, "files": files})


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
