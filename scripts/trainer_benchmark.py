#!/usr/bin/env python
"""Measure lesson 8's in-page trainer in Chromium against PyTorch, side by side (``--help``).

The work is in :mod:`coursebuild.trainer_benchmark`; numbers it measured: scripts/BENCHMARKS.md.
"""

import sys

from coursebuild.trainer_benchmark import main

if __name__ == "__main__":
    sys.exit(main())
