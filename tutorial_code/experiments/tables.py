"""Tables for the pages: an experiment returns ``{"tables": {name: {"columns": …, "rows": …}}}``.

:func:`column` builds one column: a key into each row, a header in each language, and an
optional Python format spec. ``pages.render_table`` draws the table in the page's language.
"""

from __future__ import annotations


def column(key: str, ko: str, en: str, fmt: str | None = None) -> dict:
    """``{"key": key, "label": {"ko": ko, "en": en}, "fmt": fmt}`` (no ``fmt`` when None)."""
    col = {"key": key, "label": {"ko": ko, "en": en}}
    return {**col, "fmt": fmt} if fmt else col
