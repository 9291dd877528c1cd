"""Train several seeds of one small model as a single model: one step updates them all.

Small models leave a CPU idle between tiny kernels; stacking S copies makes each kernel S times
bigger for the same number of Python calls. Both wrappers take inputs with a leading seed
dimension (S, …) and return outputs with one. Sum the S losses before ``backward()``: seed s's
parameters then receive exactly the gradient of seed s's own loss, and because Adam works
element by element, each seed trains exactly as it would alone (:func:`fit_binary` does this
for binary classifiers).
"""

from __future__ import annotations

import copy

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.func import functional_call, stack_module_state, vmap


class StackedModels:
    """S modules of the same shape run as one with ``torch.func.vmap``.

    ``stack_module_state`` turns the S copies' parameters into tensors of shape (S, …);
    ``parameters()`` gives them to an optimiser. Call with inputs (S, …) → outputs (S, …).
    """

    def __init__(self, models: list[nn.Module]):
        self.params, self.buffers = stack_module_state(models)  # each tensor (S, ...)
        skeleton = copy.deepcopy(models[0]).to("meta")  # structure only, no storage

        def one(params, buffers, *inputs):
            return functional_call(skeleton, (params, buffers), inputs)

        self.forward = vmap(one)

    def parameters(self) -> list[Tensor]:
        return list(self.params.values())

    def __call__(self, *inputs: Tensor):
        return self.forward(self.params, self.buffers, *inputs)


class LoopedModels(nn.ModuleList):
    """S modules called one after another on their slice: inputs (S, B, …) → outputs (S, B, …).

    For modules without a ``vmap`` rule, such as ``nn.LSTM``. (Packing S LSTMs into one wider
    LSTM with block-diagonal weights also works, but ran slower on a CPU than this loop.)
    """

    def forward(self, inputs: Tensor, only: list[int] | None = None) -> Tensor:
        """``only``: run just these seeds (inputs then hold their slices, in that order)."""
        models = self if only is None else [self[i] for i in only]
        return torch.stack([model(x) for model, x in zip(models, inputs)])


def predict(model, inputs: Tensor) -> tuple[Tensor, Tensor | None]:
    """Inputs (S, B, …) → logits (S, B) and the model's second output (attention), or None."""
    out = model(inputs)
    return out if isinstance(out, tuple) else (out, None)


def fit_binary(model, x: Tensor, y: Tensor, *, lr: float, batch_size: int, gen: torch.Generator,
               bar, stop_when_solved: bool = False, after_epoch=None,
               target: list[float] | None = None) -> dict:
    """Train S stacked binary classifiers with Adam, each on its own data x (S, N, …), y (S, N).

    ``bar`` is the epoch loop (``ctx.progress``). With ``stop_when_solved`` training ends once
    every seed has classified its whole training set correctly during one epoch (or reached its
    ``target`` training accuracy, one per seed, when given); looped models
    (:class:`LoopedModels`) also stop training each seed as soon as it has, since skipping it
    saves its whole cost (stacked models share every kernel, so skipping one saves nothing).
    ``after_epoch(epochs_done)`` is called after each epoch (to evaluate at a checkpoint).
    Returns ``epochs`` (passes run) and ``solved_at`` per seed (that epoch, or None).
    """
    S, N = y.shape
    seed_rows = torch.arange(S, device=x.device)[:, None]  # (S, 1), pairs with (S, B) indices
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    solved_at = [None] * S
    freeze = stop_when_solved and isinstance(model, LoopedModels)
    for epoch in bar:
        # one shuffle per seed, drawn for every seed even when some are done, so that a seed's
        # batches never depend on when the others finished
        order = torch.rand(S, N, generator=gen).argsort(dim=1).to(x.device)
        live = [s for s in range(S) if solved_at[s] is None] if freeze else list(range(S))
        correct = torch.zeros(len(live), device=x.device)
        total = torch.zeros((), device=x.device)
        for i in range(0, N, batch_size):
            idx = order[live, i : i + batch_size]  # (S', B)
            xb, yb = x[seed_rows[live], idx], y[seed_rows[live], idx]  # (S', B, …), (S', B)
            if len(live) < S:
                logits = model(xb, only=live)  # a solved seed gets no gradient: Adam skips it
            else:
                logits, _ = predict(model, xb)  # (S, B)
            loss = F.binary_cross_entropy_with_logits(logits, yb, reduction="none")
            opt.zero_grad()
            loss.mean(dim=1).sum().backward()  # summed over seeds: each gets its own gradient
            opt.step()
            correct += ((logits > 0).float() == yb).sum(dim=1).detach()
            total += loss.detach().sum()
        train_acc = (correct / N).tolist()
        bar.log(loss=total.item() / (len(live) * N), acc=min(train_acc))
        for s, acc in zip(live, train_acc):
            if acc >= (1.0 if target is None else target[s]) and solved_at[s] is None:
                solved_at[s] = epoch + 1
        if after_epoch is not None:
            after_epoch(epoch + 1)
        if stop_when_solved and all(a is not None for a in solved_at):
            break
    return {"epochs": epoch + 1, "solved_at": solved_at}
