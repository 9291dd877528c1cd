"""MkDocs hook: make mkdocs-static-i18n and Material for MkDocs work per language.

1. One search index per language. static-i18n merges every language's entries into the
   single ``search/search_index.json`` that Material loads, so a Korean query also lists
   English pages (upstream: no per-language index, ultrabug/mkdocs-static-i18n#271).
   After the last language is built, entries under ``<lang>/`` move to
   ``<lang>/search/search_index.json`` with that prefix removed; the default language's
   stay in ``search/search_index.json``. Material fetches ``search/search_index.json``
   relative to ``base`` in each page's ``#__config`` JSON and resolves result links
   against the same ``base``, so on ``<lang>/`` pages ``base`` is moved into ``<lang>/``.
   (The search worker finds its lunr language files relative to its own script, not
   ``base``.) This needs ``navigation.instant`` off: with it, the first page's config and
   index would be kept after switching language.

2. No ``<link rel="alternate" hreflang>`` in the head. For each such link Material
   fetches ``<href>/sitemap.xml`` to remap language-switch clicks; static-i18n writes one
   sitemap at the root, so every page logged two 404s and the switch took a detour
   through a redirect. The language menu in the header already links each page to its
   translation; the head links were relative, which search engines ignore anyway.

3. No sitemap without ``site_url``: MkDocs and static-i18n would write addresses such as
   "None./"; with ``SITE_URL`` set, the sitemap is kept as they write it.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from mkdocs.plugins import event_priority

log = logging.getLogger("mkdocs.hooks.i18n")

_CONFIG_SCRIPT = re.compile(
    r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S
)
_HREFLANG_LINK = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')


def _languages(i18n) -> tuple[str, list[str]]:
    """(default locale, the other locales that are built)."""
    default = i18n.default_language
    return default, [lang for lang in i18n.build_languages if lang != default]


@event_priority(-200)  # after static-i18n (-100)
def on_post_page(output: str, page, config) -> str:
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return output
    output = _HREFLANG_LINK.sub("", output)
    default, others = _languages(i18n)
    lang = i18n.current_language
    if lang == default or lang not in others:
        return output
    match = _CONFIG_SCRIPT.search(output)
    if match is None:
        raise RuntimeError(
            f"{page.file.src_uri}: no #__config script; has Material's base.html changed?"
        )
    app = json.loads(match.group(2))
    app["base"] = app["base"].rstrip("/") + f"/{lang}/"  # trailing slash: a directory
    new = json.dumps(app, ensure_ascii=False, separators=(", ", ": "))
    return output[: match.start(2)] + new + output[match.end(2) :]


@event_priority(-200)  # after static-i18n has merged every language's entries
def on_post_build(config) -> None:
    i18n = config.plugins.get("i18n")
    if i18n is None or i18n.building:
        return  # static-i18n is building one more language; the merged index comes later
    default, others = _languages(i18n)
    site = Path(config.site_dir)
    if not config.site_url:
        # a sitemap needs absolute addresses; without site_url it would list "None./" (3.)
        for name in ("sitemap.xml", "sitemap.xml.gz"):
            (site / name).unlink(missing_ok=True)
        log.info("no site_url (set SITE_URL): the sitemap is left out")
    merged_path = site / "search" / "search_index.json"
    merged = json.loads(merged_path.read_text(encoding="utf-8"))

    buckets: dict[str, list[dict]] = {lang: [] for lang in [default, *others]}
    for doc in merged["docs"]:
        lang = next((o for o in others if doc["location"].startswith(f"{o}/")), default)
        if lang != default:
            doc = {**doc, "location": doc["location"][len(lang) + 1 :]}
        buckets[lang].append(doc)

    for lang, docs in buckets.items():
        path = merged_path if lang == default else site / lang / "search" / "search_index.json"
        index = {**merged, "docs": docs}
        if lang != default:
            # only this language's lunr pipeline; the default language's pages keep every
            # configured language, since Korean prose mixes in English terms
            index["config"] = {**merged["config"], "lang": [lang]}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(index, ensure_ascii=False), encoding="utf-8")
