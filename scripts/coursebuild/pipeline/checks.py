"""Gates and claims: the ranges an experiment's results must fall in, checked on every build.

``GATES`` (in ``experiments/<name>.py``) and ``CHECKS`` (in ``pagedata/<name>.py``) say that
training, measuring or exporting worked; ``CLAIMS`` (in ``pagedata/<name>.py``) that a sentence
a page states still holds. None of their ranges is part of a cache key (:mod:`.keys`), so all
are checked again on every build, cache hit or not.
"""

from __future__ import annotations

import math

from tutorial_code.experiments.common.gates import Claim, as_gate

from .errors import ClaimError, ExperimentError, GateError


def gates_for(module, tiny: bool) -> dict:
    """Full runs check ``GATES``; --tiny runs check ``TINY_GATES`` if defined, else none."""
    return getattr(module, "TINY_GATES", {}) if tiny else module.GATES


def lookup(data, path: str):
    """Resolve a dotted path ("at.512.peak", "raw_std.3") in nested dicts and lists."""
    value = data
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.lstrip("-").isdigit() and -len(value) <= int(part) < len(value):
            value = value[int(part)]
        else:
            raise KeyError(path)
    return value


def gate_tree(gates: dict) -> dict:
    """Gates as nested dicts, so pages can quote a range: ``[[value:reversal.gates.test.exact.0|.1%]]``."""
    tree: dict = {}
    for path, declared in gates.items():
        gate = as_gate(declared)
        *parents, leaf = path.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = [gate.lo, gate.hi]
    return tree


def claims_for(module, tiny: bool) -> dict:
    """The claims of a page-data module (None: none): full runs check ``CLAIMS``; --tiny runs
    ``TINY_CLAIMS`` if defined (tests), else none."""
    return getattr(module, "TINY_CLAIMS", {}) if tiny else getattr(module, "CLAIMS", {})


def checks_for(module, tiny: bool) -> dict:
    """The gates of a page-data module on what it made: full runs check ``CHECKS``; --tiny
    runs ``TINY_CHECKS`` if defined, else none."""
    return getattr(module, "TINY_CHECKS", {}) if tiny else getattr(module, "CHECKS", {})


def _outside(results: dict, metric: str, gate) -> list[tuple[str, object]] | None:
    """(label, value) of each element of ``metric`` outside ``gate``; None if it is missing."""
    try:
        value = lookup(results, metric)
    except KeyError:
        return None
    items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
    return [(metric if i is None else f"{metric}[{i}]", v) for i, v in items
            if not (isinstance(v, (int, float)) and not math.isnan(v) and gate.lo <= v <= gate.hi)]


def check_gates(name: str, results: dict, gates: dict, device_kind: str = "cpu") -> None:
    """Raise GateError listing every metric outside its closed range [lo, hi].

    A gate on a list checks every element; a gate declared for another device kind is skipped.
    """
    failures = []
    for metric, declared in gates.items():
        gate = as_gate(declared)
        lo, hi = gate.lo, gate.hi
        if not gate.applies(device_kind):
            continue
        bad = _outside(results, metric, gate)
        if bad is None:
            failures.append(f"{name}: metric '{metric}' is missing from the results "
                            f"(gate range [{lo}, {hi}])")
        for label, v in bad or []:
            failures.append(f"{name}: metric '{label}' = {v!r} is outside the gate range [{lo}, {hi}]")
    if failures:
        raise GateError("metric gate failed, nothing was published:\n  " + "\n  ".join(failures))


def check_claims(name: str, results: dict, claims: dict, device_kind: str = "cpu") -> None:
    """Raise ClaimError naming, for every claim that no longer holds, the page and sentence.

    Checked after the gates: training worked, so what failed is a sentence, not the model.
    """
    failures = []
    for metric, claim in claims.items():
        if not isinstance(claim, Claim):
            raise ExperimentError(f"pagedata/{name}.py CLAIMS['{metric}'] must be a Claim(lo, hi, page=..., "
                                  "sentence=...) so that a failure can say what to rewrite")
        if not claim.applies(device_kind):
            continue
        bad = _outside(results, metric, claim)
        where = f"rewrite on {' and '.join(claim.pages())}: «{claim.sentence}»"
        if bad is None:
            failures.append(f"{name}: claim '{metric}' names no result; {where}")
        for label, v in bad or []:
            failures.append(f"{name}: claim no longer holds: {label} = {v!r}, expected "
                            f"[{claim.lo}, {claim.hi}]; {where}")
    if failures:
        raise ClaimError.of(failures)
