"""What lasts as long as one ``mkdocs build``: the language being built, work done once, shared state.

static-i18n (mkdocs-static-i18n) calls MkDocs' ``build()`` once per language with the same
configuration object, so whatever must happen once per build (run the experiments, write the
notebooks, make the handouts) is marked on that object; ``mkdocs serve`` loads a new object for
every rebuild. The event priorities of :mod:`coursebuild.plugin` are relative to static-i18n's.
"""

from __future__ import annotations

from .paths import LANGS

# static-i18n runs its on_config, on_files, on_nav, on_post_build at priority -100 and
# rebuilds every File there; what must see (or add) files after it runs at AFTER_I18N, what
# must change the configuration before it reads it at BEFORE_I18N
AFTER_I18N = -200
BEFORE_I18N = 0


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
