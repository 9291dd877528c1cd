"""mkdocs-static-i18n with Material for MkDocs: each language searched, switched and mapped alone.

static-i18n builds the default language into the site's root and every other language into
``<lang>/`` by calling MkDocs' build() once more per language from its ``on_post_build``
(priority -100). The functions here run after it (``AFTER_I18N``).
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from ..state import default_language
from .versions import written_for

log = logging.getLogger("mkdocs.hooks.i18n")

_CONFIG_SCRIPT = re.compile(
    r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S
)
_HREFLANG_LINK = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')


def other_languages(config) -> list[str]:
    """The languages static-i18n builds besides the default one (none without the plugin)."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return []
    default = default_language(config)
    return [lang for lang in i18n.build_languages if lang != default]


def after_last_language(config) -> bool:
    """True in the ``on_post_build`` that follows the last language's build.

    static-i18n's ``building`` flag (not documented) is True while it builds the other
    languages from inside the default language's ``on_post_build``; the merged search index
    exists only once that outer call has finished them all.
    """
    i18n = config.plugins.get("i18n")
    return i18n is not None and not i18n.building


@written_for("mkdocs-material", "mkdocs-static-i18n")
def drop_hreflang_links(output: str) -> str:
    """Remove ``<link rel="alternate" hreflang>`` from a page's head.

    Why: for each such link Material fetches ``<href>/sitemap.xml`` to remap language-switch
    clicks; static-i18n writes one sitemap at the root only, so every page logged two 404s and
    the switch took a detour through a redirect. No upstream issue found for Material; its
    successor's port of the same code is reported as zensical/zensical#908 (a sitemap fetched
    for every ``link[rel=alternate]``). The language menu in the header already links each
    page to its translation; the head links were relative, which search engines ignore.
    """
    return _HREFLANG_LINK.sub("", output)


@written_for("mkdocs-material", "mkdocs-static-i18n")
def search_base_per_language(output: str, page, config, lang: str) -> str:
    """On ``<lang>/`` pages, point Material's ``base`` (in ``#__config``) into ``<lang>/``.

    Why: static-i18n merges every language into the one ``search/search_index.json`` that
    Material loads (ultrabug/mkdocs-static-i18n#271, closed: "the material theme has a static
    and unique search index path"; also #98). Material fetches the index relative to ``base``
    and resolves result links against the same ``base``, so moving ``base`` makes each
    language load its own index (written by :func:`split_search_index`). Needs
    ``navigation.instant`` off: with it, the first page's config and index would be kept after
    switching language. (The search worker finds its lunr language files relative to its own
    script, not ``base``.)
    """
    if lang not in other_languages(config):
        return output
    match = _CONFIG_SCRIPT.search(output)
    if match is None:
        raise RuntimeError(
            f"{page.file.src_uri}: no #__config script; has Material's base.html changed?")
    app = json.loads(match.group(2))
    app["base"] = app["base"].rstrip("/") + f"/{lang}/"  # trailing slash: a directory
    new = json.dumps(app, ensure_ascii=False, separators=(", ", ": "))
    return output[: match.start(2)] + new + output[match.end(2):]


@written_for("mkdocs-material", "mkdocs-static-i18n")
def split_search_index(config) -> None:
    """Split static-i18n's merged index into one per language.

    Why: one index holds every language, so a Korean query listed English pages
    (ultrabug/mkdocs-static-i18n#271; see :func:`search_base_per_language`). Entries under ``<lang>/`` move to ``<lang>/search/search_index.json`` with that prefix
    removed; the default language's stay in ``search/search_index.json``.
    """
    default, others = default_language(config), other_languages(config)
    merged_path = Path(config.site_dir) / "search" / "search_index.json"
    merged = json.loads(merged_path.read_text(encoding="utf-8"))
    buckets: dict[str, list[dict]] = {lang: [] for lang in [default, *others]}
    for doc in merged["docs"]:
        lang = next((o for o in others if doc["location"].startswith(f"{o}/")), default)
        if lang != default:
            doc = {**doc, "location": doc["location"][len(lang) + 1:]}
        buckets[lang].append(doc)
    for lang, docs in buckets.items():
        path = merged_path if lang == default else merged_path.parents[1] / lang / "search" / merged_path.name
        index = {**merged, "docs": docs}
        if lang != default:
            # only this language's lunr pipeline; the default language's pages keep every
            # configured language, since Korean prose mixes in English terms
            index["config"] = {**merged["config"], "lang": [lang]}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(index, ensure_ascii=False), encoding="utf-8")


@written_for("mkdocs", "mkdocs-static-i18n")
def drop_sitemap_without_site_url(config) -> None:
    """No sitemap unless ``site_url`` is set.

    Why: a sitemap needs absolute addresses; without ``site_url`` MkDocs writes ``<loc>None``
    entries (mkdocs/mkdocs#1783, open) and static-i18n's sitemap template writes "None./".
    With ``SITE_URL`` set, the sitemap is kept as they write it.
    """
    if config.site_url:
        return
    site = Path(config.site_dir)
    for name in ("sitemap.xml", "sitemap.xml.gz"):
        (site / name).unlink(missing_ok=True)
    log.info("no site_url (set SITE_URL): the sitemap is left out")
