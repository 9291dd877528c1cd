"""The build machinery of the course site: everything that turns ``tutorial_code/`` into pages.

This is the *build room*. What a student reads and runs is in ``tutorial_code/`` (the
Transformer package and the experiments' own code); nothing there imports this package.
What lives here, and may be changed without touching a lesson's numbers:

* :mod:`.pipeline` — runs the experiments through the results cache, checks their gates,
  draws their figures from cached results, records provenance (``scripts/run_experiments.py``);
* :mod:`.markers` — the one ``[[kind:argument|format]]`` grammar of page markers and its
  dispatcher; :mod:`.pages` — runs the pipeline for the build, the result markers' handlers;
* :mod:`.code` — includes source from ``tutorial_code`` in pages and notebooks;
* :mod:`.questions`, :mod:`.glossary` — check questions, assignments, the glossary, tooltips;
* :mod:`.notebooks` — renders, executes and caches the lab notebooks
  (``scripts/build_notebooks.py``);
* :mod:`.benchmark` — the throughput benchmark behind ``scripts/benchmark.py``.

The MkDocs hooks in ``scripts/*_hook.py`` wire these into ``mkdocs build``. The package is
importable as ``coursebuild`` because ``scripts/setup.sh`` puts ``scripts/`` (and the
repository root, for ``tutorial_code``) on the virtual environment's path.
"""
