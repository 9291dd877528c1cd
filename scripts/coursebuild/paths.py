"""Where things are: the one place that knows the repository's layout."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = REPO_ROOT / "tutorial_code"           # the teaching package
EXPERIMENTS = TUTORIAL / "experiments"           # the experiments' own code
NOTEBOOK_SOURCES = TUTORIAL / "notebooks"        # lab notebooks as percent scripts
DOCS = REPO_ROOT / "docs"
DEFAULT_OUT = REPO_ROOT / ".build"               # results, figures, notebooks (git-ignored)
LANGS = ("ko", "en")                             # Korean first, English mirrored
