#!/usr/bin/env python
"""Run the course's experiments (results, figures in ko and en, gates, provenance).

Thin wrapper over :mod:`tutorial_code.experiments.cli`; run with ``--help`` for the options.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root

from tutorial_code.experiments.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
