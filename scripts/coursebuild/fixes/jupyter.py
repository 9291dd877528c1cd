"""mkdocs-jupyter with mkdocs-static-i18n (and nbconvert's page inside Material).

mkdocs-jupyter wraps each notebook File in its ``on_files`` (default priority, before
static-i18n's -100) so that MkDocs treats it as a page; static-i18n then rebuilds every File
and the wrapper is lost. The functions here run after static-i18n (``AFTER_I18N``) or before
mkdocs-jupyter's own ``on_post_build`` (which evicts cache entries).
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
from pathlib import Path
from types import SimpleNamespace

from mkdocs.utils import get_relative_url

from .. import atomic
from ..state import build_state, building_language, default_language
from .versions import written_for


def _plugin(config):
    return config.plugins.get("mkdocs-jupyter")


def is_notebook(file, config) -> bool:
    """Whether mkdocs-jupyter renders this file (its ``include``/``ignore`` patterns).

    Only ``.ipynb`` files are asked: mkdocs-jupyter would also take ``.py`` and ``.md`` files,
    and reads every ``.md`` with jupytext to decide; this site's notebooks are ``.ipynb``.
    """
    jupyter = _plugin(config)
    path = getattr(file, "abs_src_path", None) or ""
    return jupyter is not None and path.endswith(".ipynb") and jupyter.should_include(file)


# ---------------------------------------------------------------- notebooks as pages

@written_for("mkdocs-static-i18n", "mkdocs-jupyter", "mkdocs")
def notebooks_as_pages(files, config):
    """Make the notebooks pages again after static-i18n, with their language alternates.

    Why: static-i18n rebuilds every File and drops mkdocs-jupyter's wrapper, so the notebook
    source is copied raw to the page's ``index.html`` and the English build overwrites the
    Korean page, with exit code 0 (ultrabug/mkdocs-static-i18n#198, open; #135). Marking the
    files as pages again (what the wrapper did) lets mkdocs-jupyter render them as usual.
    """
    for file in files:
        if is_notebook(file, config):
            _as_page(file, config)
            for alternate in getattr(file, "alternates", {}).values():
                _as_page(alternate, config)
            _add_alternates(file, config)
    return files


def _as_page(file, config) -> None:
    if file.is_documentation_page():
        return
    file.is_documentation_page = lambda: True  # what mkdocs-jupyter's NotebookFile did
    # static-i18n copied the wrapper's page-style destination (…/index.html); a file that
    # never went through the wrapper still ends in .ipynb
    stem = re.sub(r"(/index\.html|\.html|\.ipynb)$", "", file.dest_uri)
    file.dest_uri = f"{stem}/index.html" if config.use_directory_urls else f"{stem}.html"
    file.url = f"{stem}/" if config.use_directory_urls else f"{stem}.html"
    file.abs_dest_path = os.path.normpath(os.path.join(config.site_dir, file.dest_uri))


@written_for("mkdocs-static-i18n")
def _add_alternates(file, config) -> None:
    """List the notebook's other-language files in ``file.alternates`` (the language menu).

    Why: static-i18n lists alternates for Markdown pages only, so the menu on a notebook page
    led to the other language's home page; no upstream issue found beyond #198 above. Uses
    static-i18n's ``folder.create_i18n_file`` (not public API) to build the alternate File
    exactly as static-i18n builds the others.
    """
    i18n = config.plugins.get("i18n")
    if i18n is None or not hasattr(file, "alternates"):
        return
    from mkdocs.structure.files import File
    from mkdocs_static_i18n.folder import create_i18n_file

    norm = getattr(file, "norm_src_uri", file.src_uri)
    for lang in i18n.build_languages:
        src = f"{lang}/{norm}"
        if lang in file.alternates or not (Path(config.docs_dir) / src).is_file():
            continue
        other = File(src, config.docs_dir, config.site_dir, config.use_directory_urls)
        alternate = create_i18n_file(other, lang, i18n.default_language, i18n.all_languages, config)
        _as_page(alternate, config)
        file.alternates[lang] = alternate


# ---------------------------------------------------------------- mkdocs-jupyter's cache

@written_for("mkdocs-jupyter")
def keep_cache_of_every_language(config) -> None:
    """Mark the cached renderings of every language's notebooks as used in this build.

    Why: mkdocs-jupyter's ``on_post_build`` deletes every cache entry not used in the build
    that just ran, and static-i18n runs one build per language, so each language evicted the
    other's notebooks and all were converted again on every build. No upstream issue found.
    Uses mkdocs-jupyter's private ``_compute_cache_key``, ``_get_cache_path`` and
    ``_used_cache_paths``; must run before its ``on_post_build`` (priority 0).
    """
    jupyter = _plugin(config)
    used = getattr(jupyter, "_used_cache_paths", None)
    if jupyter is None or used is None or not jupyter.config.get("cache"):
        return
    from mkdocs_jupyter import plugin as mj

    for path in Path(config.docs_dir).rglob("*.ipynb"):
        if is_notebook(SimpleNamespace(abs_src_path=str(path)), config):
            key = mj._compute_cache_key(str(path), jupyter.config, jupyter.config["execute"])
            used.add(mj._get_cache_path(jupyter.config["cache_dir"], key))


# ---------------------------------------------------------------- nbconvert's page

# what nbconvert's template puts on every notebook page that this site must not have
_UNWANTED = (
    # a MathJax loader with an empty src (the page fetched itself as a script) and its config:
    # danielfrg/mkdocs-jupyter#212 (open); math is KaTeX's job here, as on every page
    re.compile(r'<!-- Load mathjax -->\s*<script src="">\s*</script>'),
    re.compile(r'<!-- MathJax configuration -->\s*<script type="text/x-mathjax-config">.*?</script>'
               r'\s*<!-- End of mathjax configuration -->', re.S),
    # a loader that imports mermaid from a CDN when a notebook has a mermaid diagram (none has;
    # the site loads nothing from other hosts); no upstream issue found
    re.compile(r'<script type="module">(?:(?!</script>).)*?https://cdnjs\.cloudflare\.com.*?</script>', re.S),
)
_STYLE = re.compile(r'<style[^>]*>(.*?)</style>\s*', re.S)
_HEADING = re.compile(
    r'<h(?P<level>[1-6])(?P<pre>[^>]*?)\sid="(?P<id>[^"]*)"(?P<post>[^>]*)>(?P<inner>.*?)</h(?P=level)>', re.S)
_TAG = re.compile(r"<[^>]+>")


@written_for("mkdocs-jupyter")
def clean_notebook_page(html: str, page, config) -> str:
    """A notebook page's HTML without outside-host or MathJax scripts, its CSS shared, and
    its headings given the ids Markdown pages get.

    Why: nbconvert's page loads MathJax from an empty src (danielfrg/mkdocs-jupyter#212) and
    mermaid from a CDN; the parts below say why for the CSS and the heading ids.
    """
    for pattern in _UNWANTED:
        html = pattern.sub("", html)
    html = _shared_stylesheet(html, page, config)
    return _heading_ids(html, page, config)


@written_for("mkdocs-jupyter")
def _shared_stylesheet(html: str, page, config) -> str:
    """Serve nbconvert's CSS once, under assets/ by the hash of its content, and link it.

    Why: nbconvert inlines the same ~600 KB of CSS into every notebook page (no upstream issue
    found). mkdocs-jupyter 0.26 also writes its Pygments rules as a Python list's repr
    (``['pre {…}', …]``), which costs the first rule; it is unwrapped here (no upstream issue
    found).
    """
    blocks = _STYLE.findall(html)
    if not blocks:
        return html
    blocks = ["\n".join(ast.literal_eval(b.strip())) if b.strip().startswith("['") else b for b in blocks]
    css = "\n".join(blocks)
    path = f"assets/notebooks/nbconvert-{hashlib.sha256(css.encode()).hexdigest()[:12]}.css"
    build_state(config, "notebook_css")[path] = css
    link = f'<link rel="stylesheet" href="{get_relative_url(path, page.url)}">\n'
    first = _STYLE.search(html)
    return html[: first.start()] + link + _STYLE.sub("", html[first.start():])


def write_shared_stylesheets(config) -> None:
    """Write the stylesheets :func:`_shared_stylesheet` collected (only when bytes change)."""
    root = Path(config.site_dir)
    lang = building_language(config)
    if lang != default_language(config) and root.name == lang:  # static-i18n builds into <site>/<lang>
        root = root.parent
    for path, css in build_state(config, "notebook_css").items():
        atomic.write_bytes(root / path, css.encode("utf-8"))
        (root / path).chmod(0o644)  # readable by the web server, like every other site file


def _toc_slugify(config):
    """The slugify function Markdown pages use (markdown_extensions: toc: slugify)."""
    slugify = (config.mdx_configs.get("toc") or {}).get("slugify")
    if slugify is None:
        from pymdownx.slugs import slugify as make

        slugify = make(case="lower")
    return slugify


@written_for("mkdocs-jupyter")
def _heading_ids(html: str, page, config) -> str:
    """Give notebook headings the ids Markdown pages get and point the page's toc at them.

    Why: nbconvert derives heading ids its own way, and a Korean heading got none readable
    (related: danielfrg/mkdocs-jupyter#140, toc links and heading ids disagreeing in case).
    """
    slug = _toc_slugify(config)
    seen: dict[str, int] = {}
    headings: list[tuple[int, str]] = []

    def fix(m):
        text = _TAG.sub("", m["inner"]).replace("¶", "").strip()
        base = slug(text, "-") or "section"
        n = seen.get(base, 0)
        seen[base] = n + 1
        new = base if n == 0 else f"{base}_{n}"
        headings.append((int(m["level"]), new))
        inner = m["inner"].replace(f'href="#{m["id"]}"', f'href="#{new}"')
        return f'<h{m["level"]}{m["pre"]} id="{new}"{m["post"]}>{inner}</h{m["level"]}>'

    html = _HEADING.sub(fix, html)
    pending = list(headings)
    for item in _flatten(page.toc):
        for i, (level, new) in enumerate(pending):
            if level == item.level:
                item.id = new
                del pending[: i + 1]
                break
    return html


def _flatten(toc):
    for item in toc:
        yield item
        yield from _flatten(item.children)
