"""What the build does to make mkdocs-static-i18n, mkdocs-jupyter and Material work together.

Every hook asks this module, and only this module, about languages, "once per build" and
event order; each plugin workaround lives here with the upstream issue it works around.
(First cut: the shared helpers. The workarounds themselves still sit in the hooks and move
here next.)
"""

from __future__ import annotations

from .paths import LANGS

# static-i18n runs its on_files at priority -100 and rebuilds every File; what must see (or
# add) files after it runs at this priority
AFTER_I18N = -200


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


def once_per_build(config, name: str) -> bool:
    """True the first time ``name`` is asked for in this ``mkdocs build``, False after.

    static-i18n calls MkDocs' build() once per language with the same config object, so a
    flag on that object marks work (running the experiments, writing the notebooks) done.
    """
    attr = f"_course_once_{name}"
    if getattr(config, attr, False):
        return False
    setattr(config, attr, True)
    return True
