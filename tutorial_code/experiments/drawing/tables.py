"""Tables for the pages: a drawing module's ``tables(results)`` returns
``{name: {"columns": [...], "rows": [...]}}``, shown by ``[[table:<experiment>.<name>]]``.

:func:`column` makes one column: a key into each row, its header in both languages and an
optional Python format spec. Headers come from the experiment's ``LABELS`` like every other
string it shows: ``head = headers(LABELS)``, then ``column("d_k", head("col_d_k"), ".3f")``.
"""

from __future__ import annotations


def headers(labels: dict):
    """A function ``name, **fields -> {"ko": ..., "en": ...}`` over an experiment's LABELS."""
    def head(name: str, **fields) -> dict:
        return {lang: labels[lang][name].format(**fields) if fields else labels[lang][name]
                for lang in ("ko", "en")}
    return head


def symbol(text: str) -> dict:
    """A header that is a symbol or formula ("q1·k", "d_k = 4"), the same in every language."""
    return {"ko": text, "en": text}


def column(key: str, label: dict, fmt: str | None = None) -> dict:
    """``{"key": key, "label": {"ko": …, "en": …}, "fmt": fmt}`` (no ``fmt`` when None)."""
    if set(label) != {"ko", "en"}:
        raise ValueError(f"column {key!r}: its header needs exactly 'ko' and 'en', not {sorted(label)}")
    col = {"key": key, "label": dict(label)}
    return {**col, "fmt": fmt} if fmt else col
