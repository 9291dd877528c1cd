"""The plugin versions the workarounds were written for, and the mark that ties each to them."""

from __future__ import annotations

from importlib import metadata

# the versions every workaround here was written for and checked against; requirements.txt
# pins the same (tests/pages/test_workarounds.py checks that they agree)
WRITTEN_FOR = {
    "mkdocs": "1.6.1",
    "mkdocs-material": "9.8.2",
    "mkdocs-static-i18n": "1.3.1",
    "mkdocs-jupyter": "0.26.3",
}

DEPENDS: dict[str, tuple[str, ...]] = {}  # workaround name -> distributions it relies on

# workarounds that run in the reader's browser, with the distributions whose pages they fix:
# checked by check_versions() as the Python ones are (each file's first line names the version)
BROWSER: dict[str, tuple[str, ...]] = {"docs/assets/javascripts/a11y.js": ("mkdocs-material",)}


def written_for(*distributions: str):
    """Mark a workaround as relying on these distributions' behaviour (or private API)."""
    unknown = sorted(set(distributions) - WRITTEN_FOR.keys())
    if unknown:
        raise ValueError(f"{unknown}: add the version the workaround was written for to WRITTEN_FOR")

    def mark(fn):
        DEPENDS[f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"] = distributions
        return fn

    return mark


def installed_version(distribution: str) -> str | None:
    """The installed version of ``distribution``, or None when it is not installed."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None
