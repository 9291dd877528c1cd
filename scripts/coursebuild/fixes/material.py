"""Material for MkDocs' own search box: it searches when text arrives without a key release.

The script (``search_on_input.js``, next to this file) is served as
``assets/javascripts/search-on-input.js`` and loaded on every page after Material's bundle.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File

from .versions import written_for

SCRIPT = Path(__file__).with_name("search_on_input.js")
SCRIPT_URI = "assets/javascripts/search-on-input.js"


@written_for("mkdocs-material")
def search_on_input_config(config):
    """Load :data:`SCRIPT_URI` on every page (added once; static-i18n reruns ``on_config``).

    Why: Material 9.8.2 reads the search query on ``keyup`` and focus only
    (``watchSearchQuery`` in its ``components/search/query``), so text pasted from the
    context menu, dropped in, or committed by an input method or phone keyboard without a
    key release is not searched until another key is pressed. No upstream issue found. The
    script passes each ``input`` event of the search box on as a ``keyup`` on the box;
    tests/browser/test_search_browser.py checks that it is still needed.
    """
    scripts = config.extra_javascript
    if not any(str(getattr(s, "path", s)) == SCRIPT_URI for s in scripts):
        scripts.append(SCRIPT_URI)
    return config


@written_for("mkdocs-material")
def search_on_input_files(files, config):
    """Add the script of :func:`search_on_input_config` to the site's files.

    Why: see :func:`search_on_input_config` (no upstream issue found); the script lives with
    the workarounds, not in docs/, so it is added as a generated file after static-i18n.
    """
    if files.get_file_from_path(SCRIPT_URI) is None:
        files.append(File.generated(config, SCRIPT_URI, abs_src_path=str(SCRIPT)))
    return files
