"""What the build does to make mkdocs-static-i18n, mkdocs-jupyter and Material work together.

Every hook asks this package, and only this package, about languages, "once per build" and
event order, and each plugin workaround lives here, next to the upstream issue it works
around and the plugin versions it was written for:

* :mod:`.i18n` — static-i18n with Material: one search index per language, no hreflang
  links that make Material fetch sitemaps that do not exist, no sitemap without ``site_url``;
* :mod:`.jupyter` — static-i18n with mkdocs-jupyter: notebooks made pages again after
  static-i18n, their language alternates, mkdocs-jupyter's cache kept for both languages,
  and nbconvert's page cleaned up (shared CSS, no MathJax or CDN loaders, heading ids);
* :mod:`.material` — Material's search box: it searches text that arrives without a key
  release (pasted, dropped, composed).

A workaround is marked ``@written_for(<distribution>, ...)``; :func:`check_versions` (called
in ``on_config``) stops the build when an installed version differs from :data:`WRITTEN_FOR`
and names the workarounds to re-check.
"""

from __future__ import annotations

from importlib import metadata

from mkdocs.exceptions import PluginError

from ..paths import LANGS

# static-i18n runs its on_config, on_files, on_nav, on_post_build at priority -100 and
# rebuilds every File there; what must see (or add) files after it runs at AFTER_I18N, what
# must change the configuration before it reads it at BEFORE_I18N
AFTER_I18N = -200
BEFORE_I18N = 0

# the versions every workaround here was written for and checked against; requirements.txt
# pins the same (tests/pages/test_workarounds.py checks that they agree)
WRITTEN_FOR = {
    "mkdocs": "1.6.1",
    "mkdocs-material": "9.8.2",
    "mkdocs-static-i18n": "1.3.1",
    "mkdocs-jupyter": "0.26.3",
}

_DEPENDS: dict[str, tuple[str, ...]] = {}  # workaround name -> distributions it relies on

# workarounds that run in the reader's browser, with the distributions whose pages they fix:
# checked by check_versions() as the Python ones are (each file's first line names the version)
BROWSER: dict[str, tuple[str, ...]] = {"docs/assets/javascripts/a11y.js": ("mkdocs-material",)}


def written_for(*distributions: str):
    """Mark a workaround as relying on these distributions' behaviour (or private API)."""
    unknown = sorted(set(distributions) - WRITTEN_FOR.keys())
    if unknown:
        raise ValueError(f"{unknown}: add the version the workaround was written for to WRITTEN_FOR")

    def mark(fn):
        _DEPENDS[f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"] = distributions
        return fn

    return mark


def installed_version(distribution: str) -> str | None:
    """The installed version of ``distribution``, or None when it is not installed."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def depending_on(distribution: str) -> list[str]:
    """The workarounds (``module.function``) that rely on ``distribution``."""
    from . import i18n, jupyter, material  # noqa: F401  (importing them registers their workarounds)

    return sorted(name for name, dists in {**_DEPENDS, **BROWSER}.items() if distribution in dists)


def check_versions() -> None:
    """Fail the build when a plugin differs from the version the workarounds were written for."""
    for distribution, wanted in WRITTEN_FOR.items():
        have = installed_version(distribution)
        if have == wanted:
            continue
        names = ", ".join(depending_on(distribution)) or "(none)"
        found = f"{distribution} {have} is installed" if have else f"{distribution} is not installed"
        raise PluginError(
            f"{found}, but the workarounds in scripts/coursebuild/workarounds/ were written for "
            f"{distribution} {wanted}. Re-check these against the installed version: {names} (each "
            "cites the upstream issue and says what it works around); then set "
            f"WRITTEN_FOR[{distribution!r}] there and the pin in requirements.txt to that version.")


# ---------------------------------------------------------------- languages, once per build

def page_language(page, config) -> str:
    """The language of a page's content: static-i18n's file locale, else the build's."""
    lang = getattr(page.file, "locale", None)
    if lang is None:
        lang = building_language(config)
    return lang if lang in LANGS else LANGS[0]


def building_language(config) -> str:
    """The language static-i18n is building now (the theme's language without the plugin)."""
    i18n = config.plugins.get("i18n")
    lang = getattr(i18n, "current_language", None)
    if lang is None:
        lang = config.theme.get("language") if config.theme else None
    return lang if lang in LANGS else LANGS[0]


def default_language(config) -> str:
    """The language served at the site's root (static-i18n's default, else the first)."""
    lang = getattr(config.plugins.get("i18n"), "default_language", None)
    return lang if lang in LANGS else LANGS[0]


def once_per_build(config, name: str) -> bool:
    """True the first time ``name`` is asked for in this ``mkdocs build``, False after.

    static-i18n calls MkDocs' build() once per language with the same config object, so a
    flag on that object marks work (running the experiments, writing the notebooks) done;
    ``mkdocs serve`` loads a new config object for every rebuild, so each rebuild runs it once.
    """
    attr = f"_course_once_{name}"
    if getattr(config, attr, False):
        return False
    setattr(config, attr, True)
    return True


def build_state(config, name: str) -> dict:
    """A dict that lives as long as this ``mkdocs build`` (all its languages), like the flags."""
    attr = f"_course_state_{name}"
    if not isinstance(getattr(config, attr, None), dict):
        setattr(config, attr, {})
    return getattr(config, attr)
