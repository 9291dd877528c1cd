"""How many CPU threads torch may use while an experiment runs, restored afterwards.

On a small machine that other jobs share, two threads per process contend with them and with
each other: the course's small models then train several times *slower* than on one thread
(measured on a busy 2-core machine: about 60 s against 12 s per epoch of the translation
experiment). Experiments that time things or train small models run under :func:`torch_threads`.
"""

from __future__ import annotations

import contextlib

import torch


@contextlib.contextmanager
def torch_threads(n: int, device: torch.device):
    """Run with ``n`` CPU threads (0 = leave as is; ignored off the CPU), then restore.

    Yields the number of threads in use.
    """
    before = torch.get_num_threads()
    if n and device.type == "cpu":
        torch.set_num_threads(n)
    try:
        yield torch.get_num_threads()
    finally:
        torch.set_num_threads(before)
