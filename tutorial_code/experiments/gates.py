"""Gates: what an experiment declares its full-size results must satisfy.

A gate is a closed range for one result, named by its dotted path in the results
(``"test.greedy.exact_match"``; ``"rows.-1.speedup"`` indexes a list). It checks that training
worked and that results are held out and reproducible; a result outside its range fails the
build and nothing is published. Write ``(lo, hi)`` for a gate that always applies, or
``Gate(lo, hi, when="cpu")`` for one that only makes sense on some devices (a timing that a
GPU's launch overhead would turn around, say). The results themselves hold results only.
"""

from __future__ import annotations

from dataclasses import dataclass

DEVICE_KINDS = ("cpu", "cuda", "mps")


@dataclass(frozen=True)
class Gate:
    lo: float
    hi: float
    when: str | None = None  # a device kind ("cpu", "cuda", "mps"): checked only there

    def __post_init__(self):
        if self.when is not None and self.when not in DEVICE_KINDS:
            raise ValueError(f"Gate(when={self.when!r}): use one of {', '.join(DEVICE_KINDS)} or None")
        if not self.lo <= self.hi:
            raise ValueError(f"Gate({self.lo}, {self.hi}): the lower bound is above the upper one")

    def applies(self, device_kind: str) -> bool:
        return self.when is None or self.when == device_kind


def as_gate(value) -> Gate:
    """A gate from its declaration: a Gate, or a (lo, hi) pair."""
    if isinstance(value, Gate):
        return value
    lo, hi = value
    return Gate(lo, hi)
