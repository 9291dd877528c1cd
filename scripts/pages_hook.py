"""MkDocs hook: every ``[[kind:argument|format]]`` marker of a page, the glossary's checks, tooltips.

Listed under ``hooks:`` in mkdocs.yml after ``experiments_hook.py`` (whose ``on_pre_build``
runs the experiments whose results the value, table and figure markers read). The grammar,
the kinds and the order of expansion are in :mod:`coursebuild.markers`; this hook calls its
dispatcher once per page, then refuses the Korean mistranslations listed in
``docs/glossary.yml`` and adds the glossary's tooltips to the rendered HTML.
"""

import posixpath
from pathlib import Path

from mkdocs.exceptions import PluginError

from coursebuild import editions, experiment_results, glossary, markers
from coursebuild.workarounds import page_language

ANSWER_KEY = "teaching/answer-key.md"  # the instructors' page, in each language folder


def on_page_markdown(markdown, page, config, files):
    lang = page_language(page, config)
    try:
        # markers are a Markdown-page feature: notebook pages (mkdocs-jupyter) get their code
        # from the notebooks' own "# [[code:…]]" lines (coursebuild.notebooks)
        if page.file.src_uri.endswith(".md"):
            markdown = markers.render(markdown, context(page, config, files, lang, markdown))
        terms = glossary.load()
    except ValueError as exc:  # a MarkerError, or a broken docs/glossary.yml
        raise PluginError(str(exc)) from None
    if lang == "ko":
        wrong = glossary.find_mistranslations(markdown, terms)
        if wrong:
            raise PluginError(f"{source_name(page, config)}: " + "; ".join(
                f"'{w}' is a mistranslation here, write '{right}' (docs/glossary.yml)" for w, right in wrong))
    return markdown


def on_page_content(html, page, config, files):
    return glossary.add_tooltips(html, page_language(page, config))


def context(page, config, files, lang: str, markdown: str) -> markers.Context:
    return markers.Context(lang=lang, page=source_name(page, config), src_uri=page.file.src_uri,
                           results=experiment_results.data_from_report(experiment_results.report(config)),
                           answer_key_url=answer_key_url(page, files),
                           line_offset=front_matter_lines(page, markdown),
                           edition=config.extra.get("edition", "open"),
                           repository_url=config.extra.get("repository_url"),
                           source_url=relative_url(page, files, editions.SOURCE_ARCHIVE))


def source_name(page, config) -> str:
    """The page's source file as a reader finds it: ``docs/ko/lessons/x.md``."""
    path = Path(page.file.abs_src_path or Path(config["docs_dir"]) / page.file.src_uri).resolve()
    try:
        return path.relative_to(Path(config["docs_dir"]).resolve().parent).as_posix()
    except ValueError:  # a page from outside docs_dir
        return path.as_posix()


def front_matter_lines(page, markdown: str) -> int:
    """Lines MkDocs took off the top (YAML front matter), so error lines match the file."""
    try:
        source = page.file.content_string
    except (OSError, TypeError):
        return 0
    # MkDocs strips the front matter (and the page's trailing newline) before this event
    source, markdown = source.rstrip(), markdown.rstrip()
    return source[: len(source) - len(markdown)].count("\n") if source.endswith(markdown) else 0


def answer_key_url(page, files):
    """Relative link from ``page`` to the answer key of the same language, if it exists."""
    prefix = page.file.src_uri.split("/", 1)[0] + "/" if "/" in page.file.src_uri else ""
    target = files.get_file_from_path(prefix + ANSWER_KEY) or files.get_file_from_path(ANSWER_KEY)
    if target is None:
        return None
    return posixpath.relpath(target.src_uri, posixpath.dirname(page.file.src_uri) or ".")


def relative_url(page, files, src_uri: str):
    """Relative link from ``page`` to the site file ``src_uri`` (shared by both languages), if any."""
    target = files.get_file_from_path(src_uri)
    if target is None:
        return None
    return posixpath.relpath(target.src_uri, posixpath.dirname(page.file.src_uri) or ".")
