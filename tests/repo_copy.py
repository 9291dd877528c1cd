"""A copy of this working tree for tests that build or serve an edited course: the files git
tracks and the untracked ones it does not ignore, plus this run's caches (``.build/``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def copy_repository(root: Path) -> Path:
    """Copy the working tree and ``.build/`` to ``root`` (which must not exist); return ``root``."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=REPO, capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        if (REPO / rel).is_file():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, root / rel)
    shutil.copytree(REPO / ".build", root / ".build")  # the caches this run's build filled
    return root
