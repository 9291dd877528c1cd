"""The one way the build writes a file: whole or not at all.

Every file the build leaves behind (cache entries, pages' data, PDFs, archives, search
indexes) is written by :func:`write_bytes` (or :func:`replace_with`, for a file another
library writes): into a temporary file in the same folder, flushed to disk, then renamed
over the target, so an interruption leaves the old file or the new one, never a part.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path


def write_bytes(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` atomically; False (nothing written) when it already holds it.

    Unchanged files are not rewritten, so watchers such as ``mkdocs serve`` see no change.
    """
    path = Path(path)
    with contextlib.suppress(OSError):
        if path.read_bytes() == data:
            return False
    with replace_with(path) as tmp:
        tmp.write_bytes(data)
    return True


def write_text(path: Path, text: str) -> bool:
    """:func:`write_bytes` of ``text`` in UTF-8."""
    return write_bytes(path, text.encode("utf-8"))


@contextlib.contextmanager
def replace_with(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; renamed over ``path`` when the block ends
    without an error, removed when it raises. For writers that want a file name (a zip)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def rewrite(path: Path, change: Callable[[bytes], bytes]) -> bool:
    """Apply ``change`` to the bytes of ``path`` and write the result atomically."""
    path = Path(path)
    return write_bytes(path, change(path.read_bytes()))
