"""MkDocs hook: runs the experiment pipeline once per build and fills results into pages.

Listed under ``hooks:`` in mkdocs.yml. The work is in :mod:`coursebuild.pages`
(the pipeline itself runs in a child process, so ``mkdocs serve`` always runs fresh code).
"""

from coursebuild.pages import (  # noqa: F401
    on_files,
    on_page_markdown,
    on_pre_build,
)
