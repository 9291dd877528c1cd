"""MkDocs hook: runs the experiment pipeline once per build and adds its figures to the site.

Listed under ``hooks:`` in mkdocs.yml, before ``pages_hook.py`` (which fills the results into
the pages' markers). The work is in :mod:`coursebuild.experiment_results` (the pipeline itself runs in a
child process, so ``mkdocs serve`` always runs fresh code).
"""

from coursebuild.experiment_results import (  # noqa: F401
    on_files,
    on_pre_build,
)
