"""Page data: what a page takes from an experiment beyond its numbers, made without training.

The second of an experiment's three stages (compute → page data → drawing). The compute stage
(``experiments/<name>.py``) trains or measures and saves what this stage needs into its files
(a trained ``state_dict``, say); this stage reads the cached results and those files and
makes what the page itself runs or checks against:

* models exported for the page, with PyTorch's outputs as the reference the page's
  forward pass is tested against (:mod:`.model_export`: one ``export_and_check`` and one set
  of ``GATES`` for every in-page model);
* the data lesson widgets start from, and the states the browser tests drive them to
  (:mod:`.widgets_attention`, :mod:`.widgets_architecture`, and the experiments' own modules);
* the claims: sentences a page states about the results, with the range that keeps each true.

It is cached under a key of the experiment's ``results.json`` and the sources of its page-data
module (and what that imports), never of the compute code's key: editing a file here rewrites
the page data in seconds and retrains nothing. ``CHECKS`` and ``CLAIMS`` are left out of that
key too; both are checked on every build.

Adding page data to an experiment
---------------------------------
Write ``pagedata/<name>.py`` (``<name>`` as the experiment's compute module) with any of:

``page_data(cfg, results, files, out_dir) -> dict``
    ``cfg``: the experiment's ``Config`` as computed (tiny under ``--tiny``); ``results``: its
    cached results (JSON round-tripped); ``files``: the compute entry's folder of saved files
    (read only); ``out_dir``: a folder for files the page loads (a model's ``.bin``, say),
    cached with the page data. Returns new top-level keys of the experiment's results
    (``export``, ``widgets``, ...), which pages read as ``[[value:<name>.widgets....]]`` and
    ``[[widget:<name>.<widget>]]`` exactly like computed results; a key the compute stage
    already returned is an error. It runs on the CPU, seeded from ``cfg.seed``, on one thread.
``CHECKS`` / ``TINY_CHECKS``
    gates (``{"dotted.path": (lo, hi)}``) on what ``page_data`` returned, as ``GATES`` are on
    the results: an export that does not reload, a widget state that breaks an identity.
``CLAIMS`` / ``TINY_CLAIMS``
    ``{"dotted.path": Claim(lo, hi, page="docs/{lang}/lessons/<slug>.md", sentence="…")}``
    (:mod:`..common.gates`), checked against the results and the page data. A claim that no
    longer holds fails the build naming the page and the sentence; the results stay cached,
    so once the sentence (or the claim) is fixed the next build trains nothing.

No registration is needed: the build looks for ``pagedata/<name>.py`` of every experiment in
:data:`tutorial_code.experiments.EXPERIMENTS`. A file a page loads is served by the build when
it is listed (for models: ``MODELS`` in ``scripts/coursebuild/outputs/models.py``).
"""
