"""What the build does to make mkdocs-static-i18n, mkdocs-jupyter and Material work together.

Each plugin workaround lives here, next to the upstream issue it works around and the plugin
versions it was written for (languages, "once per build" and event order are
:mod:`coursebuild.state`):

* :mod:`.i18n` — static-i18n with Material: one search index per language, no hreflang
  links that make Material fetch sitemaps that do not exist, no sitemap without ``site_url``;
* :mod:`.jupyter` — static-i18n with mkdocs-jupyter: notebooks made pages again after
  static-i18n, their language alternates, mkdocs-jupyter's cache kept for both languages,
  and nbconvert's page cleaned up (shared CSS, no MathJax or CDN loaders, heading ids);
* :mod:`.material` — Material's search box: it searches text that arrives without a key
  release (pasted, dropped, composed).

A workaround is marked ``@written_for(<distribution>, ...)``; :func:`check_versions` (called
in ``on_config``) stops the build when an installed version differs from :data:`WRITTEN_FOR`
and names the workarounds to re-check.
"""

from __future__ import annotations

from mkdocs.exceptions import PluginError

from . import i18n, jupyter, material  # noqa: F401  (importing them registers their workarounds)
from .versions import DEPENDS, BROWSER, WRITTEN_FOR, installed_version, written_for  # noqa: F401

def depending_on(distribution: str) -> list[str]:
    """The workarounds (``module.function``) that rely on ``distribution``."""
    return sorted(name for name, dists in {**DEPENDS, **BROWSER}.items() if distribution in dists)


def check_versions() -> None:
    """Fail the build when a plugin differs from the version the workarounds were written for."""
    for distribution, wanted in WRITTEN_FOR.items():
        have = installed_version(distribution)
        if have == wanted:
            continue
        names = ", ".join(depending_on(distribution)) or "(none)"
        found = f"{distribution} {have} is installed" if have else f"{distribution} is not installed"
        raise PluginError(
            f"{found}, but the workarounds in scripts/coursebuild/fixes/ were written for "
            f"{distribution} {wanted}. Re-check these against the installed version: {names} (each "
            "cites the upstream issue and says what it works around); then set "
            f"WRITTEN_FOR[{distribution!r}] there and the pin in requirements.txt to that version.")
