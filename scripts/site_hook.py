"""MkDocs hook: code included from tutorial_code, the glossary page, tooltips, term checks.

Listed under ``hooks:`` in mkdocs.yml; the work is in :mod:`tutorial_code.sitebuild`.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root

from mkdocs.exceptions import PluginError  # noqa: E402

from tutorial_code.experiments.pages import page_language  # noqa: E402
from tutorial_code.sitebuild import code, glossary  # noqa: E402


def on_page_markdown(markdown, page, config, files):
    lang = page_language(page, config)
    try:
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
