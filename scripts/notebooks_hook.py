"""MkDocs hook: the lesson lab notebooks, executed at build time and rendered as pages.

1. Before the files are collected, every notebook of tutorial_code/notebooks is rendered per
   language and executed (cached in .build/notebooks), then written to the git-ignored
   ``docs/<lang>/notebooks/<name>.ipynb`` (executed: the page mkdocs-jupyter renders) and
   ``docs/<lang>/notebooks/colab/<name>.ipynb`` (outputs stripped: the download that Colab
   opens). Unchanged bytes are not rewritten, so ``mkdocs serve`` does not loop.
2. mkdocs-static-i18n drops mkdocs-jupyter's notebook wrapper, so the notebook would be copied
   raw instead of rendered; after static-i18n the notebooks are made pages again, with their
   other-language alternates for the language menu.
3. Each lesson page and each notebook page gets ``page.notebook_links`` (notebook page,
   download, "Open in Colab"), shown by docs/overrides/main.html. Colab opens files from
   GitHub: the repository comes from scripts/coursebuild/colab.py (none known: no Colab
   link), the branch and folder from ``extra.colab`` in mkdocs.yml.
4. mkdocs-jupyter's cache entries of both languages are kept (it evicts, after each language's
   build, the other's).
5. Notebook pages are cleaned up: nbconvert's CSS served once from assets/notebooks/, its
   MathJax and CDN loaders dropped (KaTeX draws the math), headings given the ids Markdown
   pages get.

Items 2, 4 and 5 are plugin workarounds: :mod:`coursebuild.workarounds.jupyter` says why, with
the upstream issues and the plugin versions they were written for.
"""

import logging
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

from coursebuild import colab as colab_repo
from coursebuild import notebooks as build
from coursebuild import workarounds as wa
from coursebuild.paths import REPO_ROOT as ROOT
from coursebuild.workarounds import jupyter as fixes

log = logging.getLogger("mkdocs.hooks.notebooks")
CACHE = ROOT / ".build" / "notebooks"
PAGE = re.compile(r"^(?:(?P<lang>[a-z]{2})/)?notebooks/(?P<name>[^/]+)\.ipynb$")
LESSON = re.compile(r"^(?:(?P<lang>[a-z]{2})/)?lessons/(?P<slug>[^/]+)\.md$")

_colab = None  # the repository 'Open in Colab' names, found in on_config


def on_config(config):
    """Find the repository "Open in Colab" names (coursebuild/colab.py); none known: no link.
    Material's repository link (repo_url) follows the same setting when mkdocs.yml has none."""
    global _colab
    try:
        _colab = colab_repo.resolve(config.extra.get("colab"), config.repo_url, ROOT)
    except colab_repo.ColabConfigError as exc:
        raise PluginError(str(exc)) from None
    if _colab is None:
        log.info("notebooks: no GitHub repository known, so no 'Open in Colab' links")
    elif not config.repo_url:
        config.repo_url, config.repo_name = _colab.url, _colab.name
    return config


def on_pre_build(config):
    """Build and write every notebook once per ``mkdocs build`` (one pass writes both languages)."""
    if not wa.once_per_build(config, "notebooks"):
        return
    try:
        built = build.build_all(CACHE, log=log.info)
    except build.NotebookError as exc:
        raise PluginError(f"lab notebooks: {exc}") from None
    for path in build.write_site(Path(config.docs_dir), built):
        log.info("notebooks: wrote %s", path.relative_to(config.docs_dir))


@event_priority(wa.AFTER_I18N)  # after static-i18n (-100) has rebuilt the files
def on_files(files, config):
    return fixes.notebooks_as_pages(files, config)


def on_page_context(context, page, config, nav):
    lang, default = wa.building_language(config), wa.default_language(config)
    m = PAGE.match(page.file.src_uri) or LESSON.match(page.file.src_uri)
    if m is None:
        return context
    by_slug = {s.slug: s.name for s in build.sources()}
    name = m.groupdict().get("name") or by_slug.get(m.groupdict().get("slug"))
    if name is None:
        return context
    prefix = "" if lang == default else f"{lang}/"
    download = f"{prefix}notebooks/colab/{name}.ipynb"
    links = {
        "download": get_relative_url(download, page.url),
        "filename": f"{name}.ipynb",
        "colab": colab_repo.link(_colab, config.extra.get("colab"), download),  # None: no repository
    }
    if LESSON.match(page.file.src_uri):
        target = f"{prefix}notebooks/{name}/" if config.use_directory_urls else f"{prefix}notebooks/{name}.html"
        links["page"] = get_relative_url(target, page.url)
    page.notebook_links = links
    return context


def on_page_content(html, page, config, files):
    if fixes.is_notebook(page.file, config):
        html = fixes.clean_notebook_page(html, page, config)
    return html


@event_priority(50)  # before mkdocs-jupyter (0) evicts the cache entries this language did not use
def on_post_build(config):
    fixes.write_shared_stylesheets(config)
    fixes.keep_cache_of_every_language(config)
