"""The course's experiments: every number, table and figure on the site comes from here.

This folder is the experiments' own code, for students to read and change: the tasks and
their data, the models, the training loops (``<name>.py``), and how each result is drawn
(``drawing/<name>.py``). The machinery that runs them through the caches, checks their gates
and puts the results into pages is the build's (``scripts/coursebuild/pipeline``); run
``python scripts/run_experiments.py --help``. The MkDocs build runs it by itself.

Two files per experiment
------------------------
``<name>.py`` — **compute**: trains or computes; no matplotlib, no strings for readers.

``Config``
    a dataclass of JSON-friendly fields with commented defaults, including ``seed: int = 0``,
    and a classmethod ``tiny()`` returning a config that runs in a few seconds (used by tests
    and ``--tiny``).
``run(cfg, ctx) -> dict``
    does the work and returns the results (nested dicts/lists of numbers and strings; torch
    and numpy values are converted). ``ctx`` gives ``ctx.device`` (the torch.device actually
    used), ``ctx.seed``, ``ctx.generator(offset)`` (a seeded CPU torch.Generator),
    ``ctx.progress(total, desc)`` (epoch loop with a bar or log lines), ``ctx.log(msg)``,
    ``ctx.tiny`` and ``ctx.out_dir`` (extra files, cached with the results). python, numpy and
    torch are seeded from ``cfg.seed`` before ``run`` is called, and torch runs with
    deterministic algorithms.
``GATES``
    ``{"dotted.result.path": (lo, hi)}`` or ``Gate(lo, hi, when="cpu")`` (:mod:`.gates`):
    closed ranges the full-size results must fall in; a list-valued result is checked element
    by element. ``TINY_GATES`` (optional, default none) is checked instead under ``--tiny``.

``drawing/<name>.py`` — **presentation**: drawn from the cached results, never retrains.

``LABELS``
    ``{"ko": {...}, "en": {...}}`` with the same keys: every string of the experiment's
    figures and tables, including ``"title"``.
``tables(results) -> dict`` (optional)
    ``{"name": {"columns": [column("d_k", "d_k", "d_k", ".3f"), ...], "rows": [...]}}``
    (:func:`.drawing.tables.column`), shown on pages by ``[[table:<name>.<table>]]``.
``figures(results, lang, outdir) -> list[Path]``
    called once per language ("ko", then "en") with the JSON-round-tripped results; draws
    with :mod:`.drawing.plotting` (``plotting.labels(LABELS, lang)``, ``plotting.style(lang)``,
    ``plotting.save(fig, outdir, "stem")``) and returns the files; both languages make the
    same file names.

Shared helpers are ordinary modules of this folder (compute) or of ``drawing/``
(presentation), imported with ordinary import statements: the cache keys follow them. Add
the name to ``scripts/coursebuild/pipeline/registry.py`` to register an experiment.

Minimal example (``tutorial_code/experiments/curve.py`` and ``drawing/curve.py``)::

    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Config:
        epochs: int = 25   # passes over the data
        seed: int = 0

        @classmethod
        def tiny(cls):
            return cls(epochs=2)

    GATES = {"final_loss": (0.0, 0.5)}

    def run(cfg, ctx):
        with ctx.progress(cfg.epochs, "train") as bar:
            for epoch in bar:
                loss = 1.0 / (epoch + 1)          # ... train one epoch on ctx.device ...
                bar.log(loss=loss)
        return {"final_loss": loss, "curve": bar.history}

    # drawing/curve.py
    from . import plotting

    LABELS = {"ko": {"title": "학습 곡선"}, "en": {"title": "Training curve"}}

    def figures(results, lang, outdir):
        t = plotting.labels(LABELS, lang)
        with plotting.style(lang):
            fig, ax = plotting.subplots()
            ax.plot([r["loss"] for r in results["curve"]])
            ax.set_title(t["title"])
            return [plotting.save(fig, outdir, "curve")]

Caches
------
Results are cached under a key of the code they run (the package, the compute module and
what it imports) and their config, the library versions and the device kind; drawings under
a key of the results and the drawing code. A label or a colour change therefore redraws in
seconds and trains nothing; a change to the model code retrains.
"""
