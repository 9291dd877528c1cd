"""Pick the hardware every experiment and notebook runs on.

CUDA if present, else Apple MPS, else the CPU. The choice can be overridden by an
argument or by the environment variable ``TUTORIAL_DEVICE`` (``auto``, ``cpu``,
``cuda``, ``cuda:1``, ``mps``).
"""

from __future__ import annotations

import os

import torch

ENV_VAR = "TUTORIAL_DEVICE"
KINDS = ("auto", "cpu", "cuda", "mps")


def _mps_available() -> bool:
    mps = getattr(torch.backends, "mps", None)
    return bool(mps is not None and mps.is_available())


def pick_device(name: str | None = None) -> torch.device:
    """Return the device to use.

    Args:
        name: ``None`` or ``"auto"`` to read ``$TUTORIAL_DEVICE`` and otherwise take the
            best available device; or one of ``cpu``, ``cuda``, ``cuda:N``, ``mps``.

    Raises:
        ValueError: for an unknown name, or a device this machine does not have.
    """
    source = "argument"
    if name is None or name == "auto":
        env = os.environ.get(ENV_VAR, "").strip()
        if env and env != "auto":
            name, source = env, f"environment variable {ENV_VAR}"
        else:
            if torch.cuda.is_available():
                return torch.device("cuda")
            if _mps_available():
                return torch.device("mps")
            return torch.device("cpu")

    kind, _, index = name.strip().lower().partition(":")
    if kind not in KINDS or (index and (kind != "cuda" or not index.isdigit())):
        raise ValueError(
            f"unknown device {name!r} (from the {source}); "
            f"use one of {', '.join(KINDS)} or cuda:N, e.g. --device cpu or {ENV_VAR}=cpu"
        )
    if kind == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(
                f"device {name!r} was asked for (from the {source}) but this machine has no "
                "CUDA GPU visible to PyTorch; use cpu or auto"
            )
        if index and int(index) >= torch.cuda.device_count():
            raise ValueError(
                f"device {name!r} does not exist: this machine has "
                f"{torch.cuda.device_count()} CUDA device(s), numbered from 0"
            )
    if kind == "mps" and not _mps_available():
        raise ValueError(
            f"device {name!r} was asked for (from the {source}) but Apple MPS is not "
            "available here; use cpu or auto"
        )
    return torch.device(name.strip().lower())


def describe_device(device: torch.device) -> str:
    """A human-readable name of the hardware behind ``device`` (for provenance)."""
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    if device.type == "mps":
        return "Apple GPU (MPS)"
    import platform

    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"CPU: {model or platform.processor() or platform.machine()} ({os.cpu_count()} cores)"
