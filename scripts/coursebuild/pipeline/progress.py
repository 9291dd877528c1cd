"""The loop helper experiments report progress with: a bar on a terminal, log lines elsewhere.

In no cache key: how progress is shown cannot change a number, so rewording it recomputes
nothing (:mod:`.context`, which seeds the runs, is in every key).
"""

from __future__ import annotations

import os
import sys
import time


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
