#!/usr/bin/env python
"""Run the course's experiments (results, figures in ko and en, gates, provenance).

Thin wrapper over :mod:`coursebuild.pipeline.cli`; run with ``--help`` for the options.
"""

import sys

from coursebuild.pipeline.cli import main

if __name__ == "__main__":
    sys.exit(main())
