"""The course's MkDocs plugin: every event of the build, in the order it runs.

Listed last under ``plugins:`` in mkdocs.yml as ``course`` (``pyproject.toml`` installs the
entry point). Each event below is one method; where one event must run at two points relative
to the other plugins, it is a ``CombinedEvent`` of steps whose priorities say when. The
priorities that matter are relative to mkdocs-static-i18n, which runs its ``on_config``,
``on_files``, ``on_nav`` and ``on_post_build`` at -100 and rebuilds every file there, and to
Material's search plugin, which indexes a page in ``on_page_context`` at 0:

==========================  ========  =========================================================
event                       priority  what happens, in this order
==========================  ========  =========================================================
on_startup                            the command (``mkdocs serve``: the plugin is kept between
                                      rebuilds, and ``COURSE_SERVE`` asks for the writer's mode,
                                      :mod:`coursebuild.writer`)
on_config                   0         the writer's mode: one language; plugin versions checked;
                                      lessons into the navigation;
                                      the edition (the student one drops the instructors'
                                      pages and every link to the source repository); the
                                      repository the notebooks' Colab links name; the
                                      search box's script
on_pre_build                0         lab notebooks built and executed (cached); experiments
                                      run through their cache (a child process); the writer's
                                      mode keeps both until ``tutorial_code/`` changes
on_files                    -200      after static-i18n: notebooks made pages again; figures,
                                      exported models, handouts, the search script added
on_files                    -210      the student edition drops the instructors' pages; the
                                      code archive added (after every other file list)
on_page_markdown            10, 0     the edition's blocks kept; then every marker expanded and
                                      the glossary's mistranslations refused
on_page_content             0         notebook pages cleaned up; glossary tooltips; model URLs
on_page_context             50        before the search index reads the page: its boost, a
                                      notebook's text without code, a lesson's without the
                                      self-checks' explanations
on_page_context             0         notebook and handout links for the page's header
on_page_context             -50       after the index: the notebook page as shown
on_post_page                -200      hreflang links dropped; the search index per language
on_post_template            0         404.html: the default language's, for every language's
                                      build, without hreflang links
on_post_build               50        before mkdocs-jupyter evicts the other language's cache:
                                      shared notebook CSS written, that cache kept
on_post_build               -200      after the last language: no sitemap without site_url;
                                      one search index per language
on_post_build               -210      the instructor pack; the lessons' glossary terms into
                                      the search indexes
on_post_build               -220      the student edition: the written site checked for any
                                      name of or link to a place that holds answers
==========================  ========  =========================================================

static-i18n calls MkDocs' build once per language with the same configuration object, so work
done once per build is marked on it (:mod:`coursebuild.state`).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import File, Files

from . import fixes
from .content import glossary
from .fixes import i18n as i18n_fixes
from .fixes import jupyter as jupyter_fixes
from .fixes import material as material_fixes
from .notebooks import build as notebooks
from .notebooks import colab
from .outputs import editions, handouts, models, pack, search
from .pages import markers, nav
from .pages.site import page_context, source_name
from .paths import DEFAULT_OUT, REPO_ROOT
from .pipeline import site as experiments
from .pipeline.provenance import git_state
from . import writer
from .state import AFTER_I18N, BEFORE_I18N, building_language, build_state, default_language, \
    once_per_build, page_language

log = logging.getLogger("mkdocs.plugins.course")
NOTEBOOK_CACHE = REPO_ROOT / ".build" / "notebooks"
DOWNLOADS = REPO_ROOT / ".build" / "downloads"


def _cache_root() -> Path:
    return Path(os.environ.get("TUTORIAL_EXPERIMENTS_OUT") or DEFAULT_OUT)


class CourseConfig(base.Config):
    """``plugins: - course:`` options; the site builds with all of them on. A small site (a test's)
    turns off what it has no sources for."""

    notebooks = c.Type(bool, default=True)  # the lab notebooks: built, executed, made pages
    handouts = c.Type(bool, default=True)  # each lesson's printable handout
    instructor_pack = c.Type(bool, default=True)  # the code archive and the instructor pack


class CoursePlugin(BasePlugin[CourseConfig]):
    """Builds the course: notebooks, experiments, markers, handouts, editions, search."""

    def __init__(self):
        super().__init__()
        self.repository: colab.Repository | None = None  # the one 'Open in Colab' names
        self.sources: dict[str, str] = {}  # every source repository the settings name (student edition)
        self.command: str | None = None  # "build", "serve" or "gh-deploy" (on_startup)
        self.dirty = False
        self.writer: writer.Session | None = None  # the writer's mode of mkdocs serve, if asked for

    # ------------------------------------------------------------ the command

    def on_startup(self, *, command, dirty):
        # having this event keeps the plugin for the whole of `mkdocs serve` (MkDocs' rule), so
        # the writer's mode can carry what one rebuild made over to the next
        self.command, self.dirty = command, dirty

    # ------------------------------------------------------------ configuration

    @event_priority(BEFORE_I18N)  # before static-i18n reads the configuration
    def on_config(self, config: MkDocsConfig):
        fixes.check_versions()
        try:
            lang = writer.requested(self.command)
            # static-i18n calls on_config once per language: filling is idempotent
            config.nav = nav.fill(config.nav)
            i18n = config.plugins.get("i18n")
            for language in i18n.config.languages if i18n else []:
                if language.locale != default_language(config) and language.build:
                    language["nav_translations"] = nav.merge_translations(
                        language.nav_translations, language.locale)
            if lang is not None:  # the writer's mode: one language (after its translations)
                if self.writer is None:
                    self.writer = writer.Session(lang, self.dirty)
                writer.one_language(config, lang)
            edition = editions.current()
            source = colab.resolve(config.extra.get("colab"), config.repo_url, REPO_ROOT)
            if edition == "student":  # never the source repository: it holds the answers
                self.sources = colab.source_names(config.extra.get("colab"), config.repo_url, REPO_ROOT)
                self.repository = colab.resolve_student(config.extra.get("colab"), self.sources)
            else:
                self.repository = source
        except KeyError as exc:
            raise PluginError(exc.args[0]) from None
        except (colab.ColabConfigError, editions.EditionError, writer.WriterError) as exc:
            raise PluginError(str(exc)) from None
        if edition == "student":
            # no header link, no "edit this page", no git clone: the pages name no repository
            config.repo_url = config.repo_name = config.edit_uri = config.edit_uri_template = None
            config.extra["repository_url"] = None
            if self.repository is None:
                log.info("notebooks: the student edition has no student publication (%s), so no "
                         "'Open in Colab' links", colab.STUDENT_ENV)
        else:
            if self.repository is None:
                log.info("notebooks: no GitHub repository known, so no 'Open in Colab' links")
            elif not config.repo_url:  # Material's repository link follows the same setting
                config.repo_url, config.repo_name = self.repository.url, self.repository.name
            config.extra["repository_url"] = self.repository.url if self.repository else None
        config.extra["edition"] = edition
        config.extra["colab_links"] = self.repository is not None
        if edition == "student":
            config.nav = editions.drop_from_nav(config.nav)
        return material_fixes.search_on_input_config(config)

    def on_pre_build(self, config: MkDocsConfig):
        if self.writer is not None and once_per_build(config, "writer"):
            self.writer.start_build()
        if self.config.notebooks and once_per_build(config, "notebooks"):
            self._keep("notebooks", lambda: self._notebooks(config))
        if once_per_build(config, "experiments"):
            experiments.use_report(config, self._keep("report", lambda: experiments.run_once(config)))

    def _keep(self, name: str, make):
        """``make()``; in the writer's mode, what the last make made while nothing it uses changed."""
        return make() if self.writer is None else self.writer.keep(name, make)

    def _notebooks(self, config: MkDocsConfig) -> bool:
        try:
            built = notebooks.build_all(NOTEBOOK_CACHE, log=log.info)
        except notebooks.NotebookError as exc:
            raise PluginError(f"lab notebooks: {exc}") from None
        for path in notebooks.write_site(Path(config.docs_dir), built):
            log.info("notebooks: wrote %s", path.relative_to(config.docs_dir))
        return True

    # ------------------------------------------------------------ files

    @event_priority(AFTER_I18N)  # static-i18n rebuilds every File earlier; generated ones come after
    def _files_generated(self, files: Files, config: MkDocsConfig):
        if self.config.notebooks:
            files = jupyter_fixes.notebooks_as_pages(files, config)
        files = experiments.add_figures(files, config)
        files = models.add_files(files, config, experiments.report(config))
        for uri, path in self._keep("handouts", lambda: self._handouts(config)).items() if self.config.handouts else ():
            _add(files, config, uri, path)
        return material_fixes.search_on_input_files(files, config)

    @event_priority(AFTER_I18N - 10)  # after every other file list
    def _files_of_edition(self, files: Files, config: MkDocsConfig):
        edition = config.extra.get("edition", editions.DEFAULT)
        if edition == "student":
            for file in [f for f in files if editions.is_instructor_page(f.src_uri)]:
                files.remove(file)
        if self.writer is not None and self.writer.every_page:
            writer.mark_every_page_modified(files)
        if not self.config.instructor_pack:
            return files
        state = build_state(config, "code_archive")  # made once per build, a file of each language
        if "path" not in state:
            state["path"] = self._keep("code archive", lambda: editions.write_code_archive(DOWNLOADS / "course-code.zip"))
        _add(files, config, editions.CODE_ARCHIVE, state["path"])
        return files

    on_files = CombinedEvent(_files_generated, _files_of_edition)

    def _handouts(self, config: MkDocsConfig) -> dict[str, Path]:
        report = experiments.report(config)
        figures = {(lang, o.name, stem): path for o in report.outcomes for lang in ("ko", "en")
                   for stem, path in o.figure_paths(lang).items()}
        try:
            return handouts.for_site(config, experiments.data_from_report(report), figures,
                                     editions.staging(config), _cache_root() / "handouts", log)
        except (ValueError, KeyError, FileNotFoundError) as exc:
            raise PluginError(f"handouts: {exc}") from None

    # ------------------------------------------------------------ pages

    @event_priority(10)  # before the markers: a block of the other edition is not expanded
    def _markdown_of_edition(self, markdown: str, page, config: MkDocsConfig, files: Files):
        if not page.file.src_uri.endswith(".md"):
            return markdown
        try:
            return editions.select(markdown, config.extra.get("edition", editions.DEFAULT), page.file.src_uri)
        except editions.EditionError as exc:
            raise PluginError(str(exc)) from None

    @event_priority(0)
    def _markdown_markers(self, markdown: str, page, config: MkDocsConfig, files: Files):
        lang = page_language(page, config)
        try:
            # markers are a Markdown-page feature: notebook pages (mkdocs-jupyter) get their code
            # from the notebooks' own "# [[code:…]]" lines (coursebuild.notebooks.build)
            if page.file.src_uri.endswith(".md"):
                results = experiments.data_from_report(experiments.report(config))
                markdown = markers.render(markdown, page_context(page, config, files, lang, markdown, results))
            terms = glossary.load()
        except ValueError as exc:  # a MarkerError, or a broken docs/glossary.yml
            raise PluginError(str(exc)) from None
        if lang == "ko":
            wrong = glossary.find_mistranslations(markdown, terms)
            if wrong:
                raise PluginError(f"{source_name(page, config)}: " + "; ".join(
                    f"'{w}' is a mistranslation here, write '{right}' (docs/glossary.yml)" for w, right in wrong))
        return markdown

    on_page_markdown = CombinedEvent(_markdown_of_edition, _markdown_markers)

    def on_page_content(self, html: str, page, config: MkDocsConfig, files: Files):
        if jupyter_fixes.is_notebook(page.file, config):
            html = jupyter_fixes.clean_notebook_page(html, page, config)
        html = glossary.add_tooltips(html, page_language(page, config))
        return models.page_model_urls(html, page, files)

    @event_priority(search.BEFORE_SEARCH)  # before Material's search plugin reads the page
    def _context_for_the_index(self, context, page, config: MkDocsConfig, nav):
        search.set_page_boost(page)
        indexed = page.content
        if jupyter_fixes.is_notebook(page.file, config):
            indexed = search.notebook_text_for_index(indexed)
        indexed = search.without_self_check_answers(indexed)
        if indexed != page.content:
            page._course_shown_content = page.content
            page.content = indexed
        return context

    def _context_links(self, context, page, config: MkDocsConfig, nav):
        lang = building_language(config)
        by_slug = {s.slug: s.name for s in notebooks.sources()}
        links = colab.page_links(page.file.src_uri, page.url, lang, default_language(config), by_slug,
                                 self.repository, config.extra.get("colab"), config.use_directory_urls)
        if links is not None and self.config.notebooks:
            page.notebook_links = links
        lesson = handouts.lesson_of(page.file.src_uri)
        if lesson is not None and self.config.handouts:
            page.handout_link = handouts.page_link(lesson, lang, page.url)
        return context

    @event_priority(search.AFTER_SEARCH)  # after Material's search has indexed it: the page as shown
    def _context_as_shown(self, context, page, config: MkDocsConfig, nav):
        shown = getattr(page, "_course_shown_content", None)
        if shown is not None:
            page.content = shown
            del page._course_shown_content
        return context

    on_page_context = CombinedEvent(_context_for_the_index, _context_links, _context_as_shown)

    @event_priority(AFTER_I18N)
    def on_post_page(self, output: str, page, config: MkDocsConfig):
        if config.plugins.get("i18n") is None:
            return output
        output = i18n_fixes.drop_hreflang_links(output)
        return i18n_fixes.search_base_per_language(output, page, config, building_language(config))

    def on_post_template(self, output: str, template_name: str, config: MkDocsConfig):
        if template_name != "404.html" or config.plugins.get("i18n") is None:
            return output
        return i18n_fixes.one_error_page(output, config, building_language(config))

    # ------------------------------------------------------------ after each language's build

    @event_priority(50)  # before mkdocs-jupyter (0) evicts the cache entries this language did not use
    def _post_build_notebooks(self, config: MkDocsConfig):
        if not self.config.notebooks:
            return
        jupyter_fixes.write_shared_stylesheets(config)
        jupyter_fixes.keep_cache_of_every_language(config)

    @event_priority(AFTER_I18N)  # after static-i18n has merged every language's entries
    def _post_build_languages(self, config: MkDocsConfig):
        if not i18n_fixes.after_last_language(config):
            return  # static-i18n is building one more language; the merged index comes later
        i18n_fixes.drop_sitemap_without_site_url(config)
        if _has_search(config):
            i18n_fixes.split_search_index(config)

    @event_priority(AFTER_I18N - 10)  # after the index is split by language
    def _post_build_outputs(self, config: MkDocsConfig):
        if config.plugins.get("i18n") is not None and not i18n_fixes.after_last_language(config):
            return
        if self.config.instructor_pack and (self.writer is None or self.writer.first_build()):
            self._instructor_pack(config)  # the writer's mode: made by the first build, then kept
        for path in search.index_files(Path(config.site_dir), default_language(config)).values():
            if _has_search(config) and path.exists():
                search.rewrite_index_file(path, search.refine_index)

    @event_priority(AFTER_I18N - 20)  # the site as it is published: every language, the index rewritten
    def _post_build_student_check(self, config: MkDocsConfig):
        if config.extra.get("edition") != "student" or (
                config.plugins.get("i18n") is not None and not i18n_fixes.after_last_language(config)):
            return
        leaks = editions.student_leaks(Path(config.site_dir), self.sources, git_state().get("commit"))
        if leaks:
            raise PluginError("the student edition names or links a place that holds answers:\n  "
                              + "\n  ".join(leaks[:20]) + ("\n  …" if len(leaks) > 20 else "")
                              + "\nput that text in an [[edition:open]] block, or leave it out")

    on_post_build = CombinedEvent(_post_build_notebooks, _post_build_languages, _post_build_outputs,
                                  _post_build_student_check)

    def _instructor_pack(self, config: MkDocsConfig) -> None:
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


def _add(files: Files, config: MkDocsConfig, uri: str, path: Path) -> None:
    """Add a file the build made (outside docs/) to the site, once."""
    if files.get_file_from_path(uri) is None:
        files.append(File.generated(config, uri, abs_src_path=str(path)))


def _has_search(config: MkDocsConfig) -> bool:
    """Whether the site has Material's search (a small test site may leave it out)."""
    return any(name in config.plugins for name in ("material/search", "search"))
