"""What a run records about itself (``provenance.json``): device, versions, seeds, times, cache.

The "how this site was built" page reads it (``[[value:provenance...]]``, ``[[table:provenance...]]``),
and :func:`.runner.load_report` finds each experiment's cache entries through it.
"""

from __future__ import annotations

import datetime as _dt
import json
import platform
import subprocess
from pathlib import Path

import torch

from tutorial_code.experiments.drawing.tables import column

from ..content import ui
from . import store
from .context import device_name
from .keys import library_versions


def provenance(report, dev: torch.device, requested: str | None, tiny: bool,
               wall: float) -> dict:
    """Facts about how this run was made, for the 'how this site was built' page."""
    rows = [{"experiment": o.name, "status": o.status, "drawing_status": o.drawing_status,
             "compute_s": o.record["wall_time_s"], "this_run_s": round(o.seconds, 3),
             "drawing_s": o.record["figure_time_s"], "pagedata_status": o.pagedata_status,
             "device": o.record["device_name"], "seed": o.record["seed"]}
            for o in report.outcomes]
    hits = sum(o.status == "hit" for o in report.outcomes)
    return {
        "format": store.FORMAT,
        "created_utc": utc_now(),
        "tiny": tiny,
        "device": {"requested": requested or "auto", "used": dev.type, "name": device_name(dev)},
        "cpu": cpu_model(),
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "platform": platform.platform(),
        "versions": library_versions(),
        "git": git_state(),
        "seeds": {o.name: o.record["seed"] for o in report.outcomes},
        "experiments": {r["experiment"]: r for r in rows},
        "entries": {o.name: {"path": o.entry.relative_to(report.out).as_posix(), "key": o.record["key"],
                             "drawing_path": o.drawing.relative_to(report.out).as_posix(),
                             "drawing_key": _drawing_key(o),
                             "pagedata_path": o.pagedata.relative_to(report.out).as_posix() if o.pagedata else None,
                             "pagedata_key": _page_key(o)}
                    for o in report.outcomes},
        "cache": {"hits": hits, "misses": len(report.outcomes) - hits,
                  "pagedata_made": sum(o.pagedata_status == "miss" for o in report.outcomes),
                  "drawings_redrawn": sum(o.drawing_status != "hit" for o in report.outcomes)},
        "run_wall_time_s": round(wall, 3),
        "tables": {"experiments": {
            "columns": [
                column("experiment", ui.both("provenance.experiment")),
                column("status", ui.both("provenance.cache")),
                column("drawing_status", ui.both("provenance.figure_cache")),
                column("compute_s", ui.both("provenance.compute_time"), ".1f"),
                column("device", ui.both("provenance.device")),
                column("seed", ui.both("provenance.seed")),
            ],
            "rows": rows,
        }},
    }


def _page_key(o) -> str | None:
    return json.loads((o.pagedata / "page.json").read_text("utf-8"))["key"] if o.pagedata else None


def _drawing_key(o) -> str:
    return json.loads((o.drawing / "drawn.json").read_text("utf-8"))["key"]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def git_state() -> dict:
    """{"commit": sha or None, "dirty": bool or None}; never fails when git is absent."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=store.REPO_ROOT, capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()
    try:
        commit = git("rev-parse", "HEAD")
        dirty = bool(git("status", "--porcelain"))  # untracked files count: they can change results
        return {"commit": commit, "dirty": dirty}
    except (OSError, subprocess.SubprocessError) as exc:
        return {"commit": None, "dirty": None, "note": f"git unavailable: {type(exc).__name__}"}


def utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
