"""MkDocs hook: serves the models the experiments exported, for the in-page widgets.

Listed last under ``hooks:`` in mkdocs.yml (after experiments_hook.py, which runs the
pipeline); the work is in :mod:`coursebuild.served_models`.
"""

from coursebuild.served_models import on_files, on_page_content  # noqa: F401
