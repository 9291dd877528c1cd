#!/usr/bin/env python
"""Measure the lesson widgets in a real browser: interactions, decoding time, bytes (``--help``).

The work is in :mod:`coursebuild.widget_benchmark`; numbers it measured: scripts/BENCHMARKS.md.
"""

import sys

from coursebuild.widget_benchmark import main

if __name__ == "__main__":
    sys.exit(main())
