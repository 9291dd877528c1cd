"""Lab notebooks, one per lesson, built from jupytext "percent" sources in this folder.

A source ``lesson_03_scaled_dot_product.py`` becomes the notebook
``lesson-03-scaled-dot-product.ipynb`` for the lesson page ``lessons/scaled-dot-product.md``,
once in Korean and once in English. Run ``python scripts/build_notebooks.py --help``; the
MkDocs build does it by itself through its plugin (``scripts/coursebuild/plugin.py``).

Direction of the single source: the package is the source, the notebook is generated. A code
cell line ``# [[code:models.DecoderOnlyTransformer]]`` is replaced by that object's source as it
stands in ``tutorial_code`` (the same extraction as the pages' ``[[code:...]]`` markers,
``scripts/coursebuild/pages/code.py``), so a notebook never holds a hand-kept copy.

Ask only for the objects the lesson shows at that point, in the order it teaches them: what an
object needs from the package (functions, classes, constants its source refers to, transitively)
and has not come in yet is put before it, once per notebook, under a one-line comment in the
notebook's language saying which object needs it; so are the imports of other libraries it uses,
unless an earlier cell has them (``scripts/coursebuild/notebooks/dependencies.py``). Asking for an object
the notebook already has fails with "remove this line".

Before any kernel runs, every rendered notebook is checked: each name a cell uses is defined by
an earlier cell or the same one (a failure names the cell and the ``# [[code:…]]`` line to add),
and no cell imports ``tutorial_code`` or ``coursebuild``. Code from ``tutorial_code/experiments``
cannot be included: a notebook's task data and helpers live in teaching modules
(``tutorial_code/tasks/``, ``tutorial_code/classifiers.py`` …), and an experiment's settings that
a notebook repeats are plain constants in the notebook. The notebook itself imports nothing from
this repository: it runs in a fresh Colab runtime with torch, numpy and matplotlib.

Source format (cells start with ``# %%``; see jupytext's percent format)::

    # %% [markdown] lang="ko"
    # # 3강 실습: ...                      <- Korean text cell
    # %% [markdown] lang="en"
    # # Lesson 3 lab: ...                  <- English text cell
    # %% lang="ko"
    # ... a code cell only the Korean notebook has
    # %%
    import torch
    # ko: 한국어 주석                      <- whole-line comment, Korean notebook only
    # en: English comment                  <- whole-line comment, English notebook only
    x = torch.ones(3)  # ko: 셋 # en: three  <- trailing comment in each language
    plt.title("가중치")  # ko                <- the whole line only in the Korean notebook
    plt.title("Weights")  # en             <- the whole line only in the English notebook
    # [[code:attention.scaled_dot_product_attention]]   <- with check_mask, which it calls, before it

Cells without ``lang`` go into both notebooks; apart from comments, the ``# ko``/``# en``
lines (figure labels) and the Hangul font cell that the build puts before the first code cell
of every Korean notebook (``coursebuild.notebooks.HANGUL_FONT_CELL``), the code of both languages is
identical, and a test checks that. Text cells may use ``$...$`` math.
"""
