"""MkDocs hook: the search finds the lesson that teaches a term (:mod:`coursebuild.search`).

1. Before Material's search indexes a page (its ``on_page_context``, priority 0): the page
   gets its kind's ``search.boost`` (lessons up; notebooks, the answer key and the
   instructors' pages down), and a notebook page is indexed without its code cells and
   outputs (its rendered HTML is put back right after).
2. After the last language's build, once each language has its own index: each lesson's
   first entry gets the glossary terms it introduces, in both languages.
3. The search box searches when text arrives without a key release (pasted, composed):
   a workaround of Material's search, in :mod:`coursebuild.workarounds.material`.
"""

from pathlib import Path

from mkdocs.plugins import CombinedEvent, event_priority

from coursebuild import search
from coursebuild import workarounds as wa
from coursebuild.workarounds import i18n as i18n_fixes
from coursebuild.workarounds import jupyter as jupyter_fixes
from coursebuild.workarounds import material as material_fixes

_SHOWN = "_course_search_shown_content"  # a notebook page's HTML while the index reads the other


def on_config(config):
    return material_fixes.search_on_input_config(config)


@event_priority(wa.AFTER_I18N)
def on_files(files, config):
    return material_fixes.search_on_input_files(files, config)


@event_priority(search.BEFORE_SEARCH)  # before Material's search plugin reads the page
def _for_the_index(context, page, config, nav):
    search.set_page_boost(page)
    if jupyter_fixes.is_notebook(page.file, config):
        setattr(page, _SHOWN, page.content)
        page.content = search.notebook_text_for_index(page.content)
    return context


@event_priority(search.AFTER_SEARCH)  # after Material's search has indexed it: the page as shown
def _as_shown(context, page, config, nav):
    shown = getattr(page, _SHOWN, None)
    if shown is not None:
        page.content = shown
        delattr(page, _SHOWN)
    return context


on_page_context = CombinedEvent(_for_the_index, _as_shown)


@event_priority(wa.AFTER_I18N - 10)  # after i18n_hook.py has split the index by language
def on_post_build(config):
    if config.plugins.get("i18n") is not None and not i18n_fixes.after_last_language(config):
        return  # static-i18n is building one more language; the indexes come later
    for path in search.index_files(Path(config.site_dir), wa.default_language(config)).values():
        if path.exists():
            search.rewrite_index_file(path, search.refine_index)
