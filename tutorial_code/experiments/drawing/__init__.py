"""How the experiments' results are drawn: presentation only, for students to read and change.

One module per experiment (``<name>.py``: its ``LABELS`` in Korean and English, ``tables``,
``figures`` and, where a page's sentence depends on the results, ``words(results)``: the words
chosen from them, ``{"fewest": {"ko": …, "en": …}}``, shown by ``[[word:<name>.fewest]]``) and the shared helpers: :mod:`.plotting` (sizes, colours, fonts, saving),
:mod:`.heatmap` (the one heatmap), :mod:`.diagrams` and :mod:`.number_figures` (the explanatory
figures), :mod:`.tables` (table columns). They draw from the cached results, so an edit
here redraws in seconds and never retrains; compute code never imports this folder.
"""
