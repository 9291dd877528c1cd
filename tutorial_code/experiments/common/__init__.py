"""Compute code the experiments share: tasks' data, training loops, checks, CPU threads.

Nothing here is an experiment of its own (those are the modules one folder up, listed in
``EXPERIMENTS`` of :mod:`tutorial_code.experiments`). An experiment imports what it uses with
an ordinary import statement (``from .common import seq2seq as s2s``), so the cache key of its
results follows the module: a change here recomputes the experiments that import it, and no
other.

    cpu_threads     how many CPU threads a timed or trained part may use
    digit_data      held-out sets, training batches and mirror weights of the digit tasks
    gates           Gate (a range a result must fall in) and Claim (a range a sentence relies on)
    ko_en_grammar   the toy Korean→English grammar of the translator
    quantise        int8 weights with one float32 scale per tensor: the model a page runs
    seed_stack      several seeds of a small model trained at once
    seq2seq         recipes, optimisers and the trainer of the digit encoder–decoders
    hand_computations the worked examples of lessons 2–6, computed in float64
"""
