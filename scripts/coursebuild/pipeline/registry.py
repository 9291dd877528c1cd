"""The experiments the build runs, read from ``tutorial_code/experiments/__init__.py``.

The list itself (``EXPERIMENTS``, in course order, and ``ALONE``, the experiments that time
themselves) lives beside the experiments, in that folder's ``__init__.py``, which is in no
cache key: adding a name recomputes none of the others. This module checks names and loads
each stage's module: ``experiments/<name>.py`` (compute), ``experiments/pagedata/<name>.py``
(page data, optional) and ``experiments/drawing/<name>.py`` (drawing).
"""

from __future__ import annotations

import difflib
import importlib
from types import ModuleType

from tutorial_code.experiments import ALONE, EXPERIMENTS, START_ORDER  # noqa: F401  (read as registry.ALONE)

from ..paths import TUTORIAL
from .errors import ExperimentError


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


def load_pagedata(name: str) -> ModuleType | None:
    """Import the experiment's page-data module (``pagedata/<name>.py``); None when it has none."""
    resolve([name])
    if not (TUTORIAL / "experiments" / "pagedata" / f"{name}.py").is_file():
        return None
    module = importlib.import_module(f"tutorial_code.experiments.pagedata.{name}")
    page_data = getattr(module, "page_data", None)
    if page_data is not None and not callable(page_data):
        raise ExperimentError(f"{module.__name__}.page_data must be a function page_data(cfg, results, "
                              "files, out_dir); see tutorial_code/experiments/pagedata/__init__.py")
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
