"""The course's experiments: every number, table and figure on the site comes from here.

This folder is the experiments' own code, for students to read and change. Its roles, by
folder:

``<name>.py`` (this folder's top)
    the experiments themselves, one module each, listed in :data:`EXPERIMENTS` below;
``common/``
    compute code several experiments share (tasks' data, training loops, gates, int8 rounding);
``pagedata/``
    what a page takes from an experiment beyond its numbers: models exported for the page,
    the data lesson widgets start from and the states the browser tests check, and the claims
    (sentences a page states, with the ranges that keep them true);
``drawing/``
    how each experiment's results become tables, figures and words.

The machinery that runs them through the caches, checks their gates and puts the results into
pages is the build's (``scripts/coursebuild/pipeline``); run ``python scripts/run_experiments.py
--help``. The MkDocs build runs it by itself.

Three stages per experiment
---------------------------
``<name>.py`` — **compute**: trains or measures; no matplotlib, no strings for readers, no page
data.

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
    ``{"dotted.result.path": (lo, hi)}`` or ``Gate(lo, hi, when="cpu")`` (:mod:`.common.gates`):
    closed ranges the full-size results must fall in, which say that training or measuring
    worked; a list-valued result is checked element by element. ``TINY_GATES`` (optional,
    default none) is checked instead under ``--tiny``. Gates are checked again on every cache
    hit, so their ranges are not part of the cache key: changing one recomputes nothing.

Whatever a later stage needs from the run (a trained ``state_dict``, say) is saved into
``ctx.out_dir``; it is cached with the results, so the page data never trains.

``pagedata/<name>.py`` — **page data** (optional; see :mod:`.pagedata`): ``page_data(cfg,
results, files, out_dir) -> dict`` adds keys to the results (``export``, ``widgets``, ...),
checked by ``CHECKS`` (``TINY_CHECKS`` under ``--tiny``); ``CLAIMS`` are the sentences pages
state about the results.

``drawing/<name>.py`` — **presentation**: drawn from the cached results and page data,
never retrains.

``LABELS``
    ``{"ko": {...}, "en": {...}}`` with the same keys: every string of the experiment's
    figures and tables, including ``"title"``.
``tables(results) -> dict`` (optional)
    ``{"name": {"columns": [column("d_k", {"ko": "d_k", "en": "d_k"}, ".3f"), ...], "rows": [...]}}``
    (:func:`.drawing.tables.column`: the result key, the header in both languages, a format),
    shown on pages by ``[[table:<name>.<table>]]``.
``figures(results, lang, outdir) -> list[Path]``
    called once per language ("ko", then "en") with the JSON-round-tripped results; draws
    with :mod:`.drawing.plotting` (``plotting.labels(LABELS, lang)``, ``plotting.style(lang)``,
    ``plotting.save(fig, outdir, "stem")``) and returns the files; both languages make the
    same file names.

Shared code lives in ``common/`` (compute), ``pagedata/`` or ``drawing/`` and is imported with
ordinary import statements: the cache keys follow them. A compute module may import neither
page data nor drawing code. To register an experiment, add its name to :data:`EXPERIMENTS`
below (this file is in no cache key: adding a name recomputes nothing).

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
what it imports, gate ranges left out) and their config, the library versions and the device
kind; page data under a key of the results and the page-data code (claims left out); drawings
under a key of the results, the page data and the drawing code. A label, a colour, a widget's
data, the model file format or a claim's sentence therefore never trains; a change to the
model code retrains.
"""

# The experiments, in the order the course uses them (the build's registry reads this).
EXPERIMENTS: tuple[str, ...] = (
    "reversal",  # lessons 5 and 8: the reference encoder-decoder reverses digits; recipes compared
    "lstm_vs_attention",  # lesson 9 and assignment 2: LSTM vs Transformer, with/without position
    "scaling",  # lesson 3: why divide by sqrt(d_k)
    "norm_placement",  # lesson 7: post-LN vs pre-LN, gradients and warm-up
    "heads",  # lesson 5: 1, 2, 4, 8 heads with the same parameters, learned head patterns
    "translation",  # lessons 1 and 8: toy Korean->English translation, learned cross-attention
    "cost",  # lesson 9: attention time and memory vs length, the n^2 table, KV-cache speed-up
    "worked_examples",  # lessons 2-8: explanatory figures and the worked examples' numbers
    "browser_training",  # lesson 8: the build's PyTorch run of each setting the in-page trainer offers
)

# experiments that time themselves: never computed while another one competes for the cores
ALONE: frozenset[str] = frozenset({"cost"})

# the order in which a build with no earlier timings starts the experiments it computes side by
# side: the long ones first, so that the processes finish together (a build that has timed them
# before orders them by those times; ``scripts/BENCHMARKS.md`` has this machine's)
START_ORDER: tuple[str, ...] = ("lstm_vs_attention", "reversal", "translation", "norm_placement",
                                "browser_training", "heads", "worked_examples", "scaling")
