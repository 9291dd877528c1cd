"""MkDocs hook: the plugin versions checked, the lessons in the navigation, each language alone.

1. ``on_config`` stops the build when mkdocs, Material, static-i18n or mkdocs-jupyter is not
   the version the workarounds in :mod:`coursebuild.workarounds` were written for.
2. ``on_config`` fills the lesson sections of the navigation (the ``[[nav:…]]`` placeholders
   of mkdocs.yml) and their English titles from :mod:`coursebuild.course`, before static-i18n
   (priority -100) reads the configuration; it reads ``nav_translations`` in ``on_nav``.
3. After static-i18n: each language gets its own search index, pages lose the hreflang links
   that make Material fetch sitemaps that do not exist, and there is no sitemap without
   ``site_url`` (:mod:`coursebuild.workarounds.i18n` says why, with the upstream issues).
"""

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from coursebuild import nav
from coursebuild import workarounds as wa
from coursebuild.workarounds import i18n as fixes


@event_priority(wa.BEFORE_I18N)
def on_config(config):
    wa.check_versions()
    try:
        # static-i18n calls on_config once per language: filling is idempotent
        config.nav = nav.fill(config.nav)
        i18n = config.plugins.get("i18n")
        for language in i18n.config.languages if i18n else []:
            if language.locale != wa.default_language(config) and language.build:
                language["nav_translations"] = nav.merge_translations(
                    language.nav_translations, language.locale)
    except KeyError as exc:
        raise PluginError(exc.args[0]) from None
    return config


@event_priority(wa.AFTER_I18N)
def on_post_page(output, page, config):
    if config.plugins.get("i18n") is None:
        return output
    output = fixes.drop_hreflang_links(output)
    return fixes.search_base_per_language(output, page, config, wa.building_language(config))


@event_priority(wa.AFTER_I18N)  # after static-i18n has merged every language's entries
def on_post_build(config):
    if not fixes.after_last_language(config):
        return  # static-i18n is building one more language; the merged index comes later
    fixes.drop_sitemap_without_site_url(config)
    fixes.split_search_index(config)
