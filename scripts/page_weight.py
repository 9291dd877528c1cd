#!/usr/bin/env python3
"""Bytes a reader downloads for each lesson page of the built site (``--help``).

The work is in :mod:`coursebuild.page_weight`; numbers it measured: scripts/BENCHMARKS.md.
"""

import sys

from coursebuild.page_weight import main

if __name__ == "__main__":
    sys.exit(main())
