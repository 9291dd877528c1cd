"""A page of the site build: its marker context, its source's name, links to shared files."""

from __future__ import annotations

import posixpath
from pathlib import Path

from ..outputs import editions
from .kinds import context
from .markers import Context

ANSWER_KEY = "teaching/answer-key.md"  # the instructors' page, in each language folder


def page_context(page, config, files, lang: str, markdown: str, results: dict) -> Context:
    """What the markers of ``page`` (in ``lang``) may use in this build."""
    return context(lang, page=source_name(page, config), src_uri=page.file.src_uri, results=results,
                   answer_key_url=relative_link(page, files, _in_language(page, ANSWER_KEY), ANSWER_KEY),
                   line_offset=front_matter_lines(page, markdown),
                   edition=config.extra.get("edition", "open"),
                   repository_url=config.extra.get("repository_url"),
                   colab_links=config.extra.get("colab_links"),
                   source_url=relative_link(page, files, editions.CODE_ARCHIVE))


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


def _in_language(page, src_uri: str) -> str:
    prefix = page.file.src_uri.split("/", 1)[0] + "/" if "/" in page.file.src_uri else ""
    return prefix + src_uri


def relative_link(page, files, *src_uris: str) -> str | None:
    """Relative link from ``page`` to the first of ``src_uris`` the site has, if any."""
    for src_uri in src_uris:
        target = files.get_file_from_path(src_uri)
        if target is not None:
            return posixpath.relpath(target.src_uri, posixpath.dirname(page.file.src_uri) or ".")
    return None
