"""The toy tasks the course trains its models on, one module per task.

* :mod:`.first_cell` — sequences of ±1 cells; the label is the first cell (lessons 6 and 9);
* :mod:`.copying` — ``x SEP x``: copy a row of digits after a separator (lesson 7);
* :mod:`.digits` — reverse or sort a row of digits, for the encoder–decoder (lessons 5 and 8).

Each task has its own token numbers (``VOCAB_SIZE`` differs from task to task), so import them
from the task's module. Data are drawn on a seeded CPU ``torch.Generator``: the same sequences
on every machine.
"""
