"""The one input check every part of the package shares: sizes must be positive integers.

It sits first in the reading order, below everything that uses it (multihead, position,
layers, models, generate), so an impossible model shape fails with a message that names the
size, e.g. ``ValueError: d_model must be a positive integer, got 0``.
"""

from __future__ import annotations


def check_positive(**sizes: int) -> None:
    """Raise ``ValueError`` for any size that is not a positive integer."""
    for name, value in sizes.items():
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
