"""One cached stage: reuse a checked cache entry, or make it in a staging folder and publish it whole.

The runner's three stages (compute, page data, draw; :mod:`.runner`) each go through
:func:`cached`, which holds the protocol they share; what differs is passed in: how a hit is
checked and what it gives, how a new entry is made, and the wording of the log lines. The
entries themselves (manifests, staging folders, promotion, pruning) are :mod:`.store`'s.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Callable

from . import store

log = logging.getLogger("tutorial_code.experiments")


def cached(kind: str, out_dir: Path, name: str, key: str, parts: dict, *, force: bool,
           make: Callable[[Path], Any], corrupt: str, describe: Callable[[str, Any, float], str],
           on_hit: Callable[[dict], Any] = lambda record: record) -> tuple[str, Path, Any]:
    """(status, entry, value) of ``name``'s entry under ``key`` in the ``kind`` cache
    (``store.COMPUTE``, ``store.PAGEDATA`` or ``store.DRAWINGS``) of ``out_dir``.

    Unless ``force``, a valid entry is a hit: ``on_hit(record)`` (the entry's main file, read
    back) checks it and gives the value (it may raise, and then the entry is not marked as
    used), and the status is "hit". Otherwise ``make(staging)`` writes the entry into an empty
    staging folder and gives the value; the manifest (listing ``parts``, the key's parts) is
    written last, the folder replaces the entry in one rename, and older entries past
    ``store.KEEP_ENTRIES`` are pruned. The status is then "miss", or "recomputed" when an entry
    was there but unusable: that is logged as a warning, ``corrupt`` with the experiment's name,
    the entry folder and the reason filled in (``%s`` each, in that order). A made entry is
    logged with ``describe(status, value, seconds)``. If ``make`` raises, nothing is published
    and the staging folder is removed.
    """
    final = store.entry_dir(out_dir, name, key, kind)
    store.clean_stale(out_dir, name, kind)
    status = "miss"
    if not force:
        record, problem = store.verify_entry(final, key, kind)
        if record is not None:
            value = on_hit(record)
            store.touch(final)
            return "hit", final, value
        if problem:
            log.warning(corrupt, name, final, problem)
            status = "recomputed"
    t0 = time.perf_counter()
    staging = store.new_staging_dir(out_dir, name, key, kind)
    try:
        value = make(staging)
        store.write_manifest(staging, key, parts, kind)  # last: an entry without it is never used
        store.promote(staging, final)
    finally:
        store.discard(staging)  # no-op after a successful promote
    store.prune(out_dir, name, keep=final, kind=kind)
    log.info("%s", describe(status, value, time.perf_counter() - t0))
    return status, final, value


def is_hit(kind: str, out_dir: Path, name: str, key: str) -> bool:
    """Whether ``name``'s entry under ``key`` in the ``kind`` cache is there and valid (what
    :func:`cached` would reuse, before its checks)."""
    return store.verify_entry(store.entry_dir(out_dir, name, key, kind), key, kind)[0] is not None
