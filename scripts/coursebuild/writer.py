"""The writer's mode of ``mkdocs serve``: one language, and a saved page shows in about a second.

``COURSE_SERVE=ko mkdocs serve --dirty`` (or ``en``) serves one language, and after the first
build a save rebuilds only what the save changed:

* the pages whose Markdown changed (MkDocs' ``--dirty``: a page whose source is newer than its
  built file); a change to anything else the pages are made from (``docs/*.yml``,
  ``docs/questions/``, ``tutorial_code/``) rebuilds every page of the language once;
* the experiments' report and the lab notebooks are kept from the build before and made again
  only when ``tutorial_code/`` changed (through their caches, as in any build);
* the handouts, the instructor pack and the code archive are made by the first build and kept
  (restart the server to make them again);
* a change to the build's own code (``scripts/``) cannot reach a running server: it says so,
  and a restart picks it up.

The plugin is kept between rebuilds because it has an ``on_startup`` event (MkDocs keeps such
plugins for the whole ``mkdocs serve``), so a :class:`Session` on it lasts as long as the server.
``mkdocs build`` ignores nothing and keeps nothing: with ``COURSE_SERVE`` set it stops with an
error, so a site is never published in one language by mistake.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field

from .pages import nav
from .paths import LANGS, REPO_ROOT

ENV = "COURSE_SERVE"
log = logging.getLogger("mkdocs.plugins.course")

# what pages are made from besides their own Markdown: a change here rebuilds every page
SHARED = (("docs", "*.yml"), ("docs/questions", "*.yml"), ("tutorial_code", "**/*.py"))
CODE = (("tutorial_code", "**/*.py"),)  # a change here runs the experiments and notebooks again
BUILD_CODE = (("scripts", "**/*.py"),)  # the build's own code: only a restart sees a change


class WriterError(ValueError):
    """A ``COURSE_SERVE`` that cannot be honoured."""


def requested(command: str | None) -> str | None:
    """The language ``COURSE_SERVE`` asks for under ``mkdocs serve``; None when it is unset."""
    lang = os.environ.get(ENV, "").strip()
    if not lang:
        return None
    if lang not in LANGS:
        raise WriterError(f"{ENV}={lang!r} is not a language of the site; use one of: {', '.join(LANGS)}")
    if command != "serve":
        raise WriterError(f"{ENV}={lang} is the writer's mode of 'mkdocs serve' (one language only); "
                          f"unset it to build the whole site: env -u {ENV} mkdocs build")
    return lang


def fingerprint(patterns) -> tuple:
    """(path, mtime, size) of every file the patterns name, relative to the repository root."""
    found = []
    for folder, pattern in patterns:
        for path in sorted((REPO_ROOT / folder).glob(pattern)):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            st = path.stat()
            found.append((str(path.relative_to(REPO_ROOT)), st.st_mtime_ns, st.st_size))
    return tuple(found)


@dataclass
class Session:
    """What the writer's mode keeps from one rebuild to the next."""

    language: str
    dirty: bool
    builds: int = 0
    shared: tuple = ()   # fingerprint(SHARED) at the last build
    code: tuple = ()     # fingerprint(CODE) when the report and notebooks were last made
    build_code: tuple = ()
    every_page: bool = True  # this rebuild builds every page (the first, or shared sources changed)
    kept: dict = field(default_factory=dict)  # name -> what a build made and the next ones reuse

    def start_build(self) -> None:
        """Called once per rebuild: work out what changed since the last one."""
        shared, build_code = fingerprint(SHARED), fingerprint(BUILD_CODE)
        if self.builds == 0:
            self.build_code = build_code
            if not self.dirty:
                log.info("writer's mode: add --dirty to rebuild only the page you saved "
                         f"({ENV}={self.language} mkdocs serve --dirty)")
        elif build_code != self.build_code:
            log.warning("writer's mode: the build's own code (scripts/) changed; restart mkdocs serve "
                        "to use it")
            self.build_code = build_code
        self.every_page = self.builds == 0 or shared != self.shared
        if self.builds and self.every_page:
            log.info("writer's mode: a file the pages are made from changed; rebuilding every page once")
        self.shared = shared
        code = fingerprint(CODE)
        if code != self.code:
            for name in ("report", "notebooks"):
                self.kept.pop(name, None)
            self.code = code
        self.builds += 1

    def keep(self, name: str, make):
        """``make()`` the first time (or after ``tutorial_code/`` changed), the kept value after."""
        if name not in self.kept:
            self.kept[name] = make()
        return self.kept[name]

    def first_build(self) -> bool:
        return self.builds == 1


def one_language(config, lang: str) -> None:
    """Build only ``lang`` (static-i18n's ``build`` flags). static-i18n always builds its
    default language first, so ``lang`` becomes the default one: it is served at the root of the
    preview, with the navigation in its words."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return
    chosen = next((language for language in i18n.config.languages if language.locale == lang), None)
    if chosen is None:
        raise WriterError(f"{ENV}={lang}: mkdocs.yml's i18n plugin has no language {lang!r}")
    if not chosen.default:
        config.nav = nav.translate(config.nav, chosen.nav_translations or {})
    for language in i18n.config.languages:
        language["build"] = language.locale == lang
        language["default"] = language.locale == lang


def mark_every_page_modified(files) -> None:
    """Make MkDocs' ``--dirty`` build every page of this rebuild (a shared source changed)."""
    for file in files.documentation_pages():
        file.is_modified = lambda: True
