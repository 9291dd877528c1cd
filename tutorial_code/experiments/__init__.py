"""Experiment pipeline: every number, table and figure on the site comes from here.

Run ``python scripts/run_experiments.py --help``; the MkDocs build runs it by itself through
``scripts/experiments_hook.py``. Outputs go to ``.build/`` (git-ignored), see :mod:`.store`.

Writing an experiment
---------------------
Create ``tutorial_code/experiments/<name>.py`` and add ``<name>`` to ``registry.EXPERIMENTS``.
The module must define:

``Config``
    a dataclass of JSON-friendly fields with commented defaults, including ``seed: int = 0``,
    and a classmethod ``tiny()`` returning a config that runs in a few seconds (used by tests
    and ``--tiny``).
``run(cfg, ctx) -> dict``
    does the work and returns the numbers (nested dicts/lists of numbers and strings; torch
    and numpy values are converted). ``ctx`` is a :class:`RunContext`: ``ctx.device`` (the
    torch.device actually used), ``ctx.seed``, ``ctx.generator(offset)`` (a seeded CPU
    torch.Generator), ``ctx.progress(total, desc)`` (epoch loop with a bar or log lines),
    ``ctx.log(msg)``, ``ctx.tiny``, ``ctx.out_dir`` (extra files, published with the results).
    python, numpy and torch are seeded from ``cfg.seed`` before ``run`` is called, and torch
    runs with deterministic algorithms. An optional key ``"tables"`` holds tables for pages:
    ``{"name": {"columns": [{"key": "d_k", "label": {"ko": ..., "en": ...}, "fmt": ".3f"}, ...],
    "rows": [{"d_k": 1, ...}, ...]}}``.
``figures(results, lang, outdir) -> list[Path]``
    called once per language ("ko", then "en") with the JSON-round-tripped results; draws
    with :mod:`.plotting` (``plotting.labels(LABELS, lang)``, ``plotting.style(lang)``,
    ``plotting.save(fig, outdir, "stem")``) and returns the files. Both languages must
    produce the same file names.
``GATES``
    ``{"dotted.metric.path": (lo, hi)}``: closed ranges the full-size results must fall in; a
    list-valued metric is checked element by element. ``TINY_GATES`` (optional, default none)
    is checked instead under ``--tiny``, where sizes are too small for the real claims.
Optional: ``TITLE = {"ko": ..., "en": ...}`` and ``LABELS = {"ko": {...}, "en": {...}}``
(checked to have the same keys). Shared helpers go in unregistered modules of this folder,
imported with ordinary ``from . import helper`` statements: the cache key follows them.

Minimal example::

    from dataclasses import dataclass
    from . import plotting

    @dataclass(frozen=True)
    class Config:
        epochs: int = 25   # passes over the data
        seed: int = 0

        @classmethod
        def tiny(cls):
            return cls(epochs=2)

    GATES = {"final_loss": (0.0, 0.5)}
    LABELS = {"ko": {"title": "학습 곡선"}, "en": {"title": "Training curve"}}

    def run(cfg, ctx):
        with ctx.progress(cfg.epochs, "train") as bar:
            for epoch in bar:
                loss = 1.0 / (epoch + 1)          # ... train one epoch on ctx.device ...
                bar.log(loss=loss)
        return {"final_loss": loss, "curve": bar.history}

    def figures(results, lang, outdir):
        t = plotting.labels(LABELS, lang)
        with plotting.style(lang):
            fig, ax = plotting.subplots()
            ax.plot([r["loss"] for r in results["curve"]])
            ax.set_title(t["title"])
            return [plotting.save(fig, outdir, "curve")]

Using results in pages (see :mod:`.pages`)
------------------------------------------
``[[scaling.at.512.peak_raw|.1%]]`` a number (Python format spec after ``|``);
``[[table:scaling.summary]]`` a Markdown table; ``[[fig:scaling.scaling|alt text]]`` an image;
``[[url:scaling.scaling]]`` the image's relative URL; ``[[provenance.git.commit]]`` facts of
the build. Figures are served at ``/assets/generated/<lang>/<experiment>/<stem>.png``.

Cache and reproducibility
-------------------------
An entry is keyed by the code it runs (all of ``tutorial_code`` outside this folder, the
framework, the experiment module and the helpers it imports), its config, library versions
and device kind (:func:`store.cache_key`),
carries a manifest of sha256 sums written last, and is staged in a temporary folder and promoted
by rename only after its gates pass. Corrupt or partial entries are recomputed with a warning.
"""
