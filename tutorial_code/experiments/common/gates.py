"""Gates: what an experiment declares its full-size results must satisfy.

A gate is a closed range for one result, named by its dotted path in the results
(``"test.greedy.exact_match"``; ``"rows.-1.speedup"`` indexes a list). It checks that training
worked and that results are held out and reproducible; a result outside its range fails the
build and nothing is published. Write ``(lo, hi)`` for a gate that always applies, or
``Gate(lo, hi, when="cpu")`` for one that only makes sense on some devices (a timing that a
GPU's launch overhead would turn around, say). The results themselves hold results only.

A claim (``CLAIMS``, declared apart from ``GATES``) is a different kind of check: training
worked, but does a qualitative sentence a page states ("within 30 epochs the LSTM stays near
chance from L = 25") still hold for these results? ``Claim(lo, hi, page=..., sentence=...)``
names the page (``docs/{lang}/...``) and the sentence, as the Korean page has it, so that a
failure says what to rewrite rather than that training broke. Where drawing code can choose
the word from the results instead (``words(results)``, the ``[[word:...]]`` marker), it should,
and no claim is needed.
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


@dataclass(frozen=True)
class Claim(Gate):
    """A range that keeps one sentence of a page true; the page and the sentence to rewrite."""

    page: str = ""      # "docs/{lang}/lessons/<slug>.md": {lang} is filled with ko and en
    sentence: str = ""  # the sentence as the Korean page states it (markers may stand in it)

    def __post_init__(self):
        super().__post_init__()
        if not (self.page and self.sentence):
            raise ValueError("Claim(...) needs page= and sentence=: a failure must say what to rewrite")

    def pages(self) -> list[str]:
        return [self.page.format(lang=lang) for lang in ("ko", "en")] if "{lang}" in self.page \
            else [self.page]
