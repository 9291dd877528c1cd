"""MkDocs hook: the lesson lab notebooks, executed at build time and rendered as pages.

1. Before the files are collected, every notebook of tutorial_code/notebooks is rendered per
   language and executed (cached in .build/notebooks), then written to the git-ignored
   ``docs/<lang>/notebooks/<name>.ipynb`` (executed: the page mkdocs-jupyter renders) and
   ``docs/<lang>/notebooks/colab/<name>.ipynb`` (outputs stripped: the download that Colab
   opens). Unchanged bytes are not rewritten, so ``mkdocs serve`` does not loop.
2. mkdocs-static-i18n rebuilds every File and drops mkdocs-jupyter's notebook wrapper, so the
   notebook would be copied raw instead of rendered (and the English build would overwrite the
   Korean page). After static-i18n (priority -100), the notebook files are turned back into
   pages here, and so are their other-language alternates for the language menu.
3. Each lesson page and each notebook page gets ``page.notebook_links`` (notebook page,
   download, "Open in Colab"), shown by docs/overrides/main.html. Colab opens files from
   GitHub: the repository comes from scripts/coursebuild/colab.py (none known: no Colab
   link), the branch and folder from ``extra.colab`` in mkdocs.yml.
4. mkdocs-jupyter evicts the cached rendering of every notebook not used in the language it
   has just built, so each language build would convert the other's notebooks again; the
   entries of both languages are kept.
5. Notebook pages are cleaned up: nbconvert's CSS (about 600 KB, the same on every page) is
   served once from assets/notebooks/, its MathJax and CDN loaders are dropped (KaTeX draws
   the math, as on every page), and headings get the ids Markdown pages get.
"""

import ast
import hashlib
import logging
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))  # the coursebuild package

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.utils import get_relative_url  # noqa: E402

from tutorial_code.experiments.store import atomic_write_bytes  # noqa: E402
from tutorial_code.notebooks import build  # noqa: E402
from coursebuild import colab as colab_repo  # noqa: E402

log = logging.getLogger("mkdocs.hooks.notebooks")
CACHE = ROOT / ".build" / "notebooks"
PAGE = re.compile(r"^(?:(?P<lang>[a-z]{2})/)?notebooks/(?P<name>[^/]+)\.ipynb$")
LESSON = re.compile(r"^(?:(?P<lang>[a-z]{2})/)?lessons/(?P<slug>[^/]+)\.md$")


def _languages(config) -> tuple[str, str]:
    """(language being built, default language)."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return "ko", "ko"
    return i18n.current_language, i18n.default_language


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


_colab = None
_DONE_ATTR = "_tutorial_notebooks_written"


def on_pre_build(config):
    """Build and write every notebook once per ``mkdocs build``: static-i18n calls build() per
    language with the same config object, and one pass writes both languages."""
    if getattr(config, _DONE_ATTR, False):
        return
    try:
        built = build.build_all(CACHE, log=log.info)
    except build.NotebookError as exc:
        raise PluginError(f"lab notebooks: {exc}") from None
    for path in build.write_site(Path(config.docs_dir), built):
        log.info("notebooks: wrote %s", path.relative_to(config.docs_dir))
    setattr(config, _DONE_ATTR, True)


def _as_page(file, config) -> None:
    if file.is_documentation_page():
        return
    file.is_documentation_page = lambda: True  # what mkdocs-jupyter's wrapper did
    # static-i18n copied the wrapper's page-style destination (…/index.html); a file that
    # never went through the wrapper still ends in .ipynb
    stem = re.sub(r"(/index\.html|\.html|\.ipynb)$", "", file.dest_uri)
    file.dest_uri = f"{stem}/index.html" if config.use_directory_urls else f"{stem}.html"
    file.url = f"{stem}/" if config.use_directory_urls else f"{stem}.html"
    file.abs_dest_path = os.path.normpath(os.path.join(config.site_dir, file.dest_uri))


def _add_alternates(file, config) -> None:
    """static-i18n lists other-language alternates for Markdown pages only; add the
    notebook's, so the language menu leads to the same notebook in the other language."""
    i18n = config.plugins.get("i18n")
    if i18n is None or not hasattr(file, "alternates"):
        return
    from mkdocs.structure.files import File
    from mkdocs_static_i18n.folder import create_i18n_file

    norm = PAGE.match(file.src_uri)["name"]
    for lang in i18n.build_languages:
        src = f"{lang}/notebooks/{norm}.ipynb"
        if lang in file.alternates or not (Path(config.docs_dir) / src).is_file():
            continue
        other = File(src, config.docs_dir, config.site_dir, config.use_directory_urls)
        alternate = create_i18n_file(other, lang, i18n.default_language, i18n.all_languages, config)
        _as_page(alternate, config)
        file.alternates[lang] = alternate


@event_priority(-200)  # after static-i18n (-100) has rebuilt the files
def on_files(files, config):
    for file in files:
        if PAGE.match(file.src_uri):
            _as_page(file, config)
            for alternate in getattr(file, "alternates", {}).values():
                _as_page(alternate, config)
            _add_alternates(file, config)
    return files


def on_page_context(context, page, config, nav):
    lang, default = _languages(config)
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


_HEADING = re.compile(r'<h(?P<level>[1-6])(?P<pre>[^>]*?)\sid="(?P<id>[^"]*)"(?P<post>[^>]*)>(?P<inner>.*?)</h(?P=level)>', re.S)
_TAG = re.compile(r"<[^>]+>")


def _flatten(toc):
    for item in toc:
        yield item
        yield from _flatten(item.children)


# what nbconvert's template puts on every notebook page that this site must not have: a MathJax
# loader with an empty src (the page fetched itself as a script) and its config (math is KaTeX's
# job here, as on every page), and a loader that imports mermaid from a CDN when a notebook has a
# mermaid diagram (none has; the site loads nothing from other hosts)
_UNWANTED = (
    re.compile(r'<!-- Load mathjax -->\s*<script src="">\s*</script>'),
    re.compile(r'<!-- MathJax configuration -->\s*<script type="text/x-mathjax-config">.*?</script>'
               r'\s*<!-- End of mathjax configuration -->', re.S),
    re.compile(r'<script type="module">(?:(?!</script>).)*?https://cdnjs\.cloudflare\.com.*?</script>', re.S),
)


_STYLE = re.compile(r'<style[^>]*>(.*?)</style>\s*', re.S)
_stylesheets: dict[str, str] = {}  # site path -> CSS, written once per build by on_post_build


def _shared_stylesheet(html: str, page) -> str:
    """nbconvert inlines the same ~600 KB of CSS into every notebook page; serve it once as a
    file under assets/ (by the hash of its content) and link it instead."""
    blocks = _STYLE.findall(html)
    if not blocks:
        return html
    # mkdocs-jupyter 0.26 writes the Pygments rules as a Python list's repr (['pre {…}', …]),
    # which costs the first rule; unwrap it
    blocks = ["\n".join(ast.literal_eval(b.strip())) if b.strip().startswith("['") else b for b in blocks]
    css = "\n".join(blocks)
    path = f"assets/notebooks/nbconvert-{hashlib.sha256(css.encode()).hexdigest()[:12]}.css"
    _stylesheets[path] = css
    link = f'<link rel="stylesheet" href="{get_relative_url(path, page.url)}">\n'
    first = _STYLE.search(html)
    return html[: first.start()] + link + _STYLE.sub("", html[first.start():])


def on_page_content(html, page, config, files):
    """Notebook pages: drop nbconvert's outside-host and MathJax scripts; give headings the
    same ids Markdown pages get (pymdownx slugify), so Korean headings get readable, unique ids
    instead of empty ones, and point the table of contents at them."""
    if not PAGE.match(page.file.src_uri):
        return html
    for pattern in _UNWANTED:
        html = pattern.sub("", html)
    html = _shared_stylesheet(html, page)
    from pymdownx.slugs import slugify

    slug = slugify(case="lower")
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


@event_priority(50)  # before mkdocs-jupyter evicts the entries it did not use in this language
def on_post_build(config):
    lang, default = _languages(config)
    root = Path(config.site_dir)
    if lang != default and root.name == lang:  # static-i18n builds other languages into <site>/<lang>
        root = root.parent
    for path, css in _stylesheets.items():
        atomic_write_bytes(root / path, css.encode("utf-8"))
        (root / path).chmod(0o644)  # readable by the web server, like every other site file
    jupyter = config.plugins.get("mkdocs-jupyter")
    used = getattr(jupyter, "_used_cache_paths", None)
    if jupyter is None or used is None or not jupyter.config.get("cache"):
        return
    from mkdocs_jupyter import plugin as mj

    for path in Path(config.docs_dir).glob("*/notebooks/*.ipynb"):
        key = mj._compute_cache_key(str(path), jupyter.config, jupyter.config["execute"])
        used.add(mj._get_cache_path(jupyter.config["cache_dir"], key))
