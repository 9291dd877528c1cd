"""Experiment pipeline: runs ``tutorial_code/experiments`` through the cache, checks gates.

``python scripts/run_experiments.py --help``; the MkDocs build runs it by itself through
``scripts/experiments_hook.py``. Outputs go to ``.build/`` (git-ignored), see :mod:`.store`.
How to write an experiment is documented in ``tutorial_code/experiments/__init__.py``.
"""

from .context import RunContext, pick_device
from .progress import Progress
from .errors import ClaimError, ExperimentError, GateError
from .registry import names
from . import checks  # noqa: F401  (pipeline.checks, for importers)
from .runner import Outcome, Report, run_experiments

__all__ = ["ClaimError", "ExperimentError", "GateError", "Outcome", "Progress", "Report", "RunContext",
           "names", "pick_device", "run_experiments"]
