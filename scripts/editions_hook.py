"""MkDocs hook: the open site or the student edition, and the instructor pack of every build.

``COURSE_EDITION=student`` (:mod:`coursebuild.editions` says what each edition holds):

1. ``on_config`` (before static-i18n reads the navigation) drops the answer key from the
   navigation of the student edition;
2. ``on_files`` (after static-i18n) drops the answer key pages of both languages, so they are
   neither written nor indexed for search, and no page can link to them (a link to them would
   fail the strict build);
3. ``on_page_markdown`` (before the markers, ``pages_hook.py``) keeps each page's
   ``[[edition:…]]`` blocks of this edition only.

Every build: the source archive (``downloads/course-source.zip``) and, after the last language,
the instructor pack next to the site folder (``<site_dir>-instructor/`` and its zip).
"""

import logging

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from coursebuild import colab, editions, pack
from coursebuild import workarounds as wa
from coursebuild.paths import REPO_ROOT
from coursebuild.workarounds import i18n as i18n_fixes

log = logging.getLogger("mkdocs.hooks.editions")
BUILD = REPO_ROOT / ".build" / "downloads"


@event_priority(wa.BEFORE_I18N)
def on_config(config):
    try:
        edition = editions.current()
    except editions.EditionError as exc:
        raise PluginError(str(exc)) from None
    config.extra["edition"] = edition
    try:  # the repository the notebooks' Colab links and the header name (none: the archive)
        repository = colab.resolve(config.extra.get("colab"), config.repo_url, REPO_ROOT)
    except colab.ColabConfigError as exc:
        raise PluginError(str(exc)) from None
    config.extra["repository_url"] = repository.url if repository else None
    if edition == "student":
        config.nav = editions.drop_from_nav(config.nav)
    return config


@event_priority(wa.AFTER_I18N - 10)  # after static-i18n and after the other hooks' file lists
def on_files(files, config):
    edition = config.extra.get("edition", editions.DEFAULT)
    if edition == "student":
        for file in [f for f in files if editions.is_instructor_page(f.src_uri)]:
            files.remove(file)
    # the source archive, made once per build, a file of every language's build
    state = wa.build_state(config, "source_archive")
    if "path" not in state:
        state["path"] = editions.write_source_archive(BUILD / f"course-source-{edition}.zip", edition=edition)
    if files.get_file_from_path(editions.SOURCE_ARCHIVE) is None:
        files.append(File.generated(config, editions.SOURCE_ARCHIVE, abs_src_path=str(state["path"])))
    return files


@event_priority(10)  # before pages_hook.py expands the markers
def on_page_markdown(markdown, page, config, files):
    if not page.file.src_uri.endswith(".md"):
        return markdown
    try:
        return editions.select(markdown, config.extra.get("edition", editions.DEFAULT), page.file.src_uri)
    except editions.EditionError as exc:
        raise PluginError(str(exc)) from None


@event_priority(wa.AFTER_I18N - 10)
def on_post_build(config):
    if config.plugins.get("i18n") is not None and not i18n_fixes.after_last_language(config):
        return
    edition = config.extra.get("edition", editions.DEFAULT)
    stage = editions.staging(config)
    try:
        pack.write(config, stage)
    except Exception as exc:  # no half-written pack left behind: the old one stays as it was
        editions.discard_staging(config)
        if isinstance(exc, ValueError):
            raise PluginError(f"instructor pack: {exc}") from None
        raise
    target = editions.finish_pack(config)
    log.info("editions: built the %s edition; instructor pack in %s", edition, target)
