"""MkDocs hook: questions and assignments, code from tutorial_code, the glossary, tooltips.

Listed under ``hooks:`` in mkdocs.yml; the work is in :mod:`coursebuild`.
"""

import posixpath
from mkdocs.exceptions import PluginError

from coursebuild import code, glossary, questions
from coursebuild.pages import page_language

ANSWER_KEY = "teaching/answer-key.md"  # the instructors' page, in each language folder


def answer_key_url(page, files):
    """Relative link from ``page`` to the answer key of the same language, if it exists."""
    prefix = page.file.src_uri.split("/", 1)[0] + "/" if "/" in page.file.src_uri else ""
    target = files.get_file_from_path(prefix + ANSWER_KEY) or files.get_file_from_path(ANSWER_KEY)
    if target is None:
        return None
    return posixpath.relpath(target.src_uri, posixpath.dirname(page.file.src_uri) or ".")


def on_page_markdown(markdown, page, config, files):
    lang = page_language(page, config)
    try:
        # questions first: an assignment's text may include code with [[code:...]]
        markdown = questions.render_markers(markdown, lang, answer_key_url(page, files))
        markdown = code.render_code_markers(markdown)
        terms = glossary.load()
    except (KeyError, ValueError) as exc:
        raise PluginError(f"{page.file.src_uri}: {exc.args[0]}") from None
    if lang == "ko":
        wrong = glossary.find_mistranslations(markdown, terms)
        if wrong:
            raise PluginError(f"{page.file.src_uri}: " + "; ".join(
                f"'{w}' is a mistranslation here, write '{right}' (docs/glossary.yml)" for w, right in wrong))
    return markdown.replace("[[glossary]]", glossary.render_glossary(lang, terms))


def on_page_content(html, page, config, files):
    return glossary.add_tooltips(html, page_language(page, config))
