"""The build machinery of the course site: everything that turns ``tutorial_code/`` into pages.

This is the *build room*. What a student reads and runs is in ``tutorial_code/`` (the
Transformer package and the experiments' own code); nothing there imports this package. The
build is one MkDocs plugin, :mod:`coursebuild.plugin` (``course`` in mkdocs.yml), whose events
call into these parts, each a folder that says what it is:

* :mod:`coursebuild.plugin` — every build event, in the order it runs;
* :mod:`coursebuild.course` — the lessons, defined once; :mod:`coursebuild.paths` — where things are;
  :mod:`coursebuild.state` — what lasts one build (languages, work done once);
  :mod:`coursebuild.atomic` — the one way a file is written (whole or not at all);
  :mod:`coursebuild.writer` — the writer's mode of ``mkdocs serve`` (one language, the saved page);
* :mod:`coursebuild.text` — Korean particles after numbers (:mod:`coursebuild.text.josa`) and
  the reading rule for a particle after a formula (:mod:`coursebuild.text.formulas`, which the
  tests hold every Korean text to);
* :mod:`coursebuild.content` — what ``docs/`` holds besides pages: check questions and
  assignments, self-checks, the glossary, the references;
* :mod:`coursebuild.pages` — the marker grammar (:mod:`coursebuild.pages.markers`), its table of
  kinds (:mod:`coursebuild.pages.kinds`), the public results lookup
  (:mod:`coursebuild.pages.results`), code includes, widgets, teaching plans and reading times,
  navigation, how to get the code, a page's context (:mod:`coursebuild.pages.site`);
* :mod:`coursebuild.pipeline` — the experiments through their caches, gates and claims,
  provenance (``scripts/run_experiments.py``), and its side of the site build
  (:mod:`coursebuild.pipeline.site`);
* :mod:`coursebuild.notebooks` — the lab notebooks rendered, executed and cached, their
  dependencies inlined, the repository "Open in Colab" names (:mod:`coursebuild.notebooks.colab`);
* :mod:`coursebuild.outputs` — what the build writes besides pages: handouts, LMS files,
  the two editions with the instructor pack and the code archive, the search index,
  the exported models;
* :mod:`coursebuild.fixes` — workarounds of the plugins the site uses, each with its
  upstream issue and the version it was written for;
* :mod:`coursebuild.static_server` — the one static-site server of the tests and benchmarks.

The benchmarks are commands in ``scripts/``, not part of this package. ``pyproject.toml``
installs the package (``scripts/setup.sh``: ``pip install -e .``).
"""

import sys
from pathlib import Path

# the build reads the teaching package from this working tree: tutorial_code is not installed
# (pyproject.toml says why), so the repository root goes on the path of whatever imports the
# build, before any of its modules imports tutorial_code
_REPOSITORY = str(Path(__file__).resolve().parents[2])
if _REPOSITORY not in sys.path:
    sys.path.insert(0, _REPOSITORY)
