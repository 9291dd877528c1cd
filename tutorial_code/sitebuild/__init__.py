"""What the MkDocs build does to pages beyond the experiments' markers.

* :mod:`.code` — ``[[code:module.name]]`` includes a function or class from ``tutorial_code``
  (never pasted into a page);
* :mod:`.glossary` — the one glossary (``docs/glossary.yml``): the glossary pages, tooltips
  on terms in both languages, and checks against known mistranslations.

``scripts/site_hook.py`` wires them into MkDocs.
"""
