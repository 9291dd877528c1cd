"""The list of experiments, in the order the course uses them.

To add an experiment, write ``tutorial_code/experiments/<name>.py`` (compute) and
``tutorial_code/experiments/drawing/<name>.py`` (tables and figures), see that package's
docstring, and append its name here. This file is deliberately left out of the cache key, so adding a name
does not invalidate the cached results of the others.
"""

from __future__ import annotations

import difflib
import importlib
from types import ModuleType

from .errors import ExperimentError

EXPERIMENTS: tuple[str, ...] = (
    "reversal",  # lessons 5 and 8: the reference encoder-decoder reverses digits; recipes compared
    "first_cell",  # lesson 9 and assignment 2: LSTM vs Transformer, with/without position
    "scaling",  # lesson 3: why divide by sqrt(d_k)
    "norm_placement",  # lesson 7: post-LN vs pre-LN, gradients and warm-up
    "heads",  # lesson 5: 1, 2, 4, 8 heads with the same parameters, learned head patterns
    "translation",  # lessons 1 and 8: toy Korean->English translation, learned cross-attention
    "cost",  # lesson 9: attention time and memory vs length, the n^2 table, KV-cache speed-up
    "figures",  # lessons 2-8: explanatory figures and the worked examples' numbers
)

# experiments that time themselves: never computed while another one competes for the cores
ALONE: frozenset[str] = frozenset({"cost"})


def names() -> list[str]:
    """All registered experiment names, in course order."""
    return list(EXPERIMENTS)


def resolve(requested: list[str] | None) -> list[str]:
    """Check requested names (None or [] = all); return them in registry order, without repeats.

    Raises ExperimentError naming the valid experiments and the closest match.
    """
    if not requested:
        return names()
    for name in requested:
        if name not in EXPERIMENTS:
            close = difflib.get_close_matches(name, EXPERIMENTS, n=1, cutoff=0.5)
            hint = f" Did you mean '{close[0]}'?" if close else ""
            raise ExperimentError(
                f"unknown experiment '{name}'.{hint} "
                f"Valid experiments: {', '.join(EXPERIMENTS)} (see --list)."
            )
    return [n for n in EXPERIMENTS if n in set(requested)]


def load(name: str) -> ModuleType:
    """Import the experiment's compute module and check it meets the contract."""
    resolve([name])
    module = importlib.import_module(f"tutorial_code.experiments.{name}")
    missing = [a for a in ("Config", "run", "GATES") if not hasattr(module, a)]
    if missing:
        raise ExperimentError(
            f"experiment module {module.__name__} lacks {', '.join(missing)}; "
            "see the contract in tutorial_code/experiments/__init__.py"
        )
    if not callable(getattr(module.Config, "tiny", None)):
        raise ExperimentError(f"{module.__name__}.Config needs a classmethod tiny()")
    return module


def load_drawing(name: str) -> ModuleType:
    """Import the experiment's drawing module and check it meets the contract."""
    resolve([name])
    module = importlib.import_module(f"tutorial_code.experiments.drawing.{name}")
    if not callable(getattr(module, "figures", None)):
        raise ExperimentError(f"{module.__name__} needs a function figures(results, lang, outdir); "
                              "see the contract in tutorial_code/experiments/__init__.py")
    labels = getattr(module, "LABELS", None)
    if not isinstance(labels, dict) or set(labels) != {"ko", "en"}:
        raise ExperimentError(f"{module.__name__}.LABELS must be {{'ko': {{...}}, 'en': {{...}}}}: "
                              "every string of the experiment's figures and tables, in both languages")
    diff = set(labels["ko"]) ^ set(labels["en"])
    if diff:
        raise ExperimentError(
            f"{module.__name__}.LABELS: ko and en differ in keys {sorted(diff)}; "
            "every label needs both languages"
        )
    if "title" not in labels["ko"]:
        raise ExperimentError(f"{module.__name__}.LABELS needs a 'title' in both languages")
    return module
