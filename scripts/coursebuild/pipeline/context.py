"""What an experiment's ``run(cfg, ctx)`` receives: device, seeds, progress, output folder."""

from __future__ import annotations

import contextlib
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import torch

from .errors import ExperimentError


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
    ``experiments.cpu_threads.torch_threads``): a CPU matmul's rounding depends on how many
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


class Progress:
    """Loop helper: a tqdm bar on a terminal, plain log lines otherwise (CI, mkdocs build).

    Use::

        with ctx.progress(cfg.epochs, "train") as bar:
            for epoch in bar:
                ...
                bar.log(loss=loss, acc=acc)   # shown on the bar / in the log line
        curve = bar.history                    # [{"step": 0, "loss": ..., "acc": ...}, ...]

    ``TUTORIAL_PROGRESS=bar|plain|off`` overrides the terminal check.
    """

    def __init__(self, total: int, desc: str, name: str, stream=None, min_interval: float = 2.0):
        self.total, self.desc, self.name = int(total), desc, name
        self.stream = stream or sys.stderr
        self.history: list[dict] = []
        self.min_interval = min_interval
        mode = os.environ.get("TUTORIAL_PROGRESS")
        if mode not in ("bar", "plain", "off"):
            mode = "bar" if _isatty(self.stream) else "plain"
        self.mode = mode
        self._bar = None
        self._metrics: dict = {}
        self._t0 = self._last = time.perf_counter()

    def __enter__(self):
        if self.mode == "bar":
            from tqdm.auto import tqdm
            self._bar = tqdm(total=self.total, desc=f"{self.name}: {self.desc}", unit="step",
                             file=self.stream, dynamic_ncols=True, leave=True)
        return self

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.close()
        return False

    def __iter__(self):
        for step in range(self.total):
            self._metrics = {}
            yield step
            self.history.append({"step": step, **self._metrics})
            self._advance(step)

    def log(self, **metrics) -> None:
        """Record metrics for the current step (floats are shown with 4 significant digits)."""
        self._metrics.update({k: _plain(v) for k, v in metrics.items()})
        if self._bar is not None:
            self._bar.set_postfix({k: f"{v:.4g}" if isinstance(v, float) else v
                                   for k, v in self._metrics.items()}, refresh=False)

    def _advance(self, step: int) -> None:
        if self._bar is not None:
            self._bar.update(1)
            return
        now = time.perf_counter()
        last = step + 1 == self.total
        if self.mode == "off" or not (last or now - self._last >= self.min_interval):
            return
        self._last = now
        elapsed = now - self._t0
        eta = elapsed / (step + 1) * (self.total - step - 1)
        shown = " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                         for k, v in self._metrics.items())
        print(f"[{self.name}] {self.desc} {step + 1}/{self.total} {shown} "
              f"elapsed {elapsed:.1f}s eta {eta:.1f}s", file=self.stream, flush=True)


def _isatty(stream) -> bool:
    """A terminal with a width (a pty of width 0, as under some CI runners, gets plain lines)."""
    try:
        return stream.isatty() and os.get_terminal_size(stream.fileno()).columns > 0
    except (AttributeError, ValueError, OSError):
        return False


def _plain(value):
    if hasattr(value, "item"):
        return value.item()
    return value


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
