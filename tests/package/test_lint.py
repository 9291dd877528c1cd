"""Ruff, with the rules pyproject.toml selects, finds nothing in the Python of the project."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_ruff_finds_nothing():
    ruff = Path(sys.executable).with_name("ruff")
    assert ruff.is_file(), f"{ruff} is missing: run `bash scripts/setup.sh --test` (requirements.txt pins ruff)"
    result = subprocess.run([str(ruff), "check", "--no-cache", "tutorial_code", "scripts", "tests"],
                            cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_would_find_an_unused_import(tmp_path):
    """The same check on a file with an unused import fails: the rules are switched on."""
    (tmp_path / "bad.py").write_text("import os\n", encoding="utf-8")
    ruff = Path(sys.executable).with_name("ruff")
    result = subprocess.run([str(ruff), "check", "--no-cache", "--config", str(REPO / "pyproject.toml"),
                             str(tmp_path / "bad.py")], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and "F401" in result.stdout, result.stdout
