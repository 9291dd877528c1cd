"""MkDocs hook: runs the experiment pipeline once per build and fills results into pages.

Listed under ``hooks:`` in mkdocs.yml. The work is in :mod:`tutorial_code.experiments.pages`
(the pipeline itself runs in a child process, so ``mkdocs serve`` always runs fresh code).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root

from tutorial_code.experiments.pages import (  # noqa: E402,F401
    on_files,
    on_page_markdown,
    on_pre_build,
)
