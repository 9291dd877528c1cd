"""What an experiment's ``run(cfg, ctx)`` receives: device, seeds, progress, output folder.

This file is part of every compute key (it seeds python, numpy and torch and fixes the
deterministic algorithms and CPU threads); the progress bar's wording lives in
:mod:`.progress`, which is in none, so rewording it recomputes nothing.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import torch

from .errors import ExperimentError
from .progress import Progress


def pick_device(name: str | None = None) -> torch.device:
    """``tutorial_code.device.pick_device``, with its ValueError turned into a clear error."""
    from tutorial_code.device import pick_device as _pick

    try:
        device = _pick(name)
    except ValueError as exc:
        raise ExperimentError(f"invalid device: {exc}") from exc
    available = {
        "cpu": True,
        "cuda": torch.cuda.is_available(),
        "mps": getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available(),
    }
    if not available.get(device.type, False):
        raise ExperimentError(
            f"device '{device.type}' was requested but is not available on this machine; "
            "use --device auto or --device cpu (or unset TUTORIAL_DEVICE)."
        )
    return device


def device_name(device: torch.device) -> str:
    """A human name for the device actually used, e.g. 'NVIDIA H200' or 'cpu'."""
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    return device.type


def seed_everything(seed: int) -> None:
    """Seed python, numpy and torch (all devices)."""
    random.seed(seed)
    with contextlib.suppress(ImportError):
        import numpy as np
        np.random.seed(seed)
    torch.manual_seed(seed)  # also seeds cuda and mps


CPU_THREADS = 1  # see deterministic()


@contextlib.contextmanager
def deterministic():
    """Ask torch for deterministic kernels while an experiment runs, then restore.

    Also one CPU thread (an experiment may ask for more around a timed part, with
    ``experiments.common.cpu_threads.torch_threads``): a CPU matmul's rounding depends on how many
    threads split it, so a fixed count gives the same numbers on any machine, whether the
    experiment runs alone or next to another in a worker process (runner.pick_jobs).
    """
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # needed by cuBLAS determinism
    was = torch.are_deterministic_algorithms_enabled()
    was_warn = torch.is_deterministic_algorithms_warn_only_enabled()
    bench = torch.backends.cudnn.benchmark
    threads = torch.get_num_threads()
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.backends.cudnn.benchmark = False
    torch.set_num_threads(CPU_THREADS)
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(was, warn_only=was_warn)
        torch.backends.cudnn.benchmark = bench
        torch.set_num_threads(threads)


@dataclass
class RunContext:
    """Everything an experiment may use besides its config.

    Attributes: ``name`` (experiment), ``device`` (torch.device actually used), ``seed``,
    ``tiny`` (True in --tiny mode), ``out_dir`` (a private folder for extra files; anything
    written there is listed in the manifest and published with the results).
    """

    name: str
    device: torch.device
    seed: int
    tiny: bool
    out_dir: Path
    progress_stream: object = None  # None: sys.stderr

    def seed_everything(self, seed: int | None = None) -> None:
        """Re-seed python, numpy and torch; the runner already did this once before ``run``."""
        seed_everything(self.seed if seed is None else seed)

    def generator(self, offset: int = 0, device: str | torch.device = "cpu") -> torch.Generator:
        """A fresh torch.Generator seeded with ``seed + offset`` (independent random streams).

        The default is a CPU generator: sample on the CPU and move to ``ctx.device`` for numbers
        that do not depend on the accelerator's random number generator.
        """
        return torch.Generator(device=device).manual_seed(self.seed + offset)

    def progress(self, total: int, desc: str = "train") -> Progress:
        """A loop helper with a progress bar or log lines; see :class:`Progress`."""
        return Progress(total, desc, self.name, stream=self.progress_stream)

    def log(self, message: str) -> None:
        """One plain line on stderr, prefixed with the experiment name."""
        print(f"[{self.name}] {message}", file=self.progress_stream or sys.stderr, flush=True)
