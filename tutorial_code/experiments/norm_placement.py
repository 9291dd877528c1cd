"""Where the LayerNorm sits: post-LN (the 2017 paper) against pre-LN (GPT-2), six layers deep.

Lesson 7. Post-LN computes LayerNorm(x + Sublayer(x)); pre-LN computes x + Sublayer(LayerNorm(x))
and ends the stack with one more LayerNorm. Xiong et al. (2020, "On Layer Normalization in the
Transformer Architecture") showed that at initialisation post-LN's gradients are large and grow
towards the output, so a large learning rate needs a warm-up, while pre-LN trains without one.

Setup: a decoder-only :class:`~tutorial_code.models.DecoderOnlyTransformer`, 6 layers of the
course's reference width (D = 64, 4 heads, d_ff = 128, tied embeddings), learns to copy: the
sequence ``x_1 … x_8 SEP x_1 … x_8`` of random digits, next-token loss on the second half only
(the first half is random and cannot be predicted; log 10 ≈ 2.30 is the loss of guessing a digit).
Both placements get the same initial weights (same seed, same parameter order) and see the same
batches. Adam at a learning rate where pre-LN trains without a warm-up, with and without a
linear warm-up.

What the package's Xavier initialisation gives at this size (checked on seeds 0, 1, 2): post-LN's
layer gradients grow from input to output and are larger in total; pre-LN's shrink from input to
output, the tilt Shleifer et al. (2021, NormFormer) report for pre-LN models. Neither is flat.
Pre-LN's first loss is the higher one: its residual path carries each token's own embedding to
the tied output layer, which then favours repeating the current token.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import torch

from tutorial_code.models import DecoderOnlyTransformer, TransformerConfig
from tutorial_code.params import layer_grad_norms
from tutorial_code.tasks.copying import DIGIT0, SEP, VOCAB_SIZE, copy_batch, copy_loss  # noqa: F401


NORMS = ("post", "pre")


@dataclass(frozen=True)
class Config:
    n_layers: int = 6          # N, decoder layers (paper: 6)
    d_model: int = 64          # D, the course's reference width
    n_heads: int = 4           # h
    d_ff: int = 128            # feed-forward width
    n_digits: int = 8          # digits to copy
    batch_size: int = 32       # sequences per step
    steps: int = 400           # training steps per run
    lr: float = 0.007          # Adam's peak learning rate: post-LN fails without warm-up here
    warmup: int = 200          # linear warm-up steps, for the runs with warm-up
    init_seeds: int = 8        # initialisations averaged for the gradient norms at init
    init_batch: int = 256      # sequences in the batch that measures them
    checkpoints: tuple[int, ...] = (0, 25, 100, 200, 399)  # steps whose grad norms are kept
    curve_every: int = 10      # the loss curve keeps the mean of each block of this many steps
    seed: int = 0

    @classmethod
    def tiny(cls) -> "Config":
        return cls(n_layers=2, steps=20, warmup=5, init_seeds=2, init_batch=32,
                   checkpoints=(0, 19), curve_every=5)


# Quality gates: the copy task is learnable at this size and learning rate (pre-LN, the
# placement that needs no warm-up, learns it either way).
GATES = {
    "final.pre.no_warmup": (0.0, 0.5),
    "final.pre.warmup": (0.0, 0.5),
}
TINY_GATES = {"init.ratio": (1.0, 1e3)}  # 2 layers: only the total survives the small size


def make_model(cfg: Config, norm: str, device) -> DecoderOnlyTransformer:
    """The same initial weights for both placements: seeded, and LayerNorm draws no numbers."""
    torch.manual_seed(cfg.seed)
    tcfg = TransformerConfig(
        vocab_size=VOCAB_SIZE, d_model=cfg.d_model, n_heads=cfg.n_heads, d_ff=cfg.d_ff,
        n_layers=cfg.n_layers, norm_first=(norm == "pre"), position="learned",
        max_len=2 * cfg.n_digits,
    )
    return DecoderOnlyTransformer(tcfg).to(device)


def grads_at_init(cfg: Config, norm: str, device) -> list[list[float]]:
    """Per-layer gradient norms for ``init_seeds`` initialisations on one fixed batch."""
    x, y = (t.to(device) for t in copy_batch(cfg.init_batch, cfg.n_digits,
                                             torch.Generator().manual_seed(cfg.seed + 7)))
    out = []
    for s in range(cfg.init_seeds):
        model = make_model(dataclasses.replace(cfg, seed=cfg.seed + s), norm, device)
        copy_loss(model, x, y, cfg.n_digits).backward()
        out.append(layer_grad_norms(model))
    return out  # (seeds, layers)


def train(cfg: Config, norm: str, warmup: int, ctx) -> dict:
    """One run: Adam with an optional linear warm-up; loss curve and grad norms at checkpoints."""
    model = make_model(cfg, norm, ctx.device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, betas=(0.9, 0.98))  # betas of §5.3
    ramp = (lambda step: min(1.0, (step + 1) / warmup)) if warmup else (lambda step: 1.0)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, ramp)
    gen = ctx.generator(offset=1)  # the same batches for every run
    losses, grad_norms = [], {}
    with ctx.progress(cfg.steps, f"{norm}-LN, warm-up {warmup}") as bar:
        for step in bar:
            x, y = (t.to(ctx.device) for t in copy_batch(cfg.batch_size, cfg.n_digits, gen))
            loss = copy_loss(model, x, y, cfg.n_digits)
            opt.zero_grad()
            loss.backward()
            if step in cfg.checkpoints:
                grad_norms[str(step)] = layer_grad_norms(model)
            opt.step()
            sched.step()
            losses.append(loss.item())
            bar.log(loss=losses[-1])
    k = cfg.curve_every
    tail = losses[-max(1, cfg.steps // 8):]
    first, last = grad_norms[str(cfg.checkpoints[0])], grad_norms[str(cfg.checkpoints[-1])]
    return {
        "norm": norm, "warmup": warmup,
        "curve_step": [i + k / 2 for i in range(0, cfg.steps, k)],  # centre of each block
        "curve_loss": [sum(block) / len(block) for block in
                       (losses[i : i + k] for i in range(0, cfg.steps, k))],
        "first_loss": losses[0],
        "final_loss": sum(tail) / len(tail),  # mean over the last eighth of the steps
        "grad_norms": grad_norms,                               # {step: per layer}
        "grad_ratio": [b / a for a, b in zip(first, last)],    # last checkpoint ÷ first
        "bottom_over_top": last[0] / last[-1],  # layer 1 ÷ layer N at the last checkpoint
    }


def run(cfg: Config, ctx) -> dict:
    layers = list(range(1, cfg.n_layers + 1))
    init = {norm: grads_at_init(cfg, norm, ctx.device) for norm in NORMS}
    mean = {norm: [sum(col) / len(col) for col in zip(*init[norm])] for norm in NORMS}
    runs = {f"{norm}_{tag}": train(cfg, norm, w, ctx)
            for norm in NORMS for tag, w in (("no_warmup", 0), ("warmup", cfg.warmup))}
    res = {
        "layers": layers,
        "lr": cfg.lr,
        "warmup": cfg.warmup,
        "seeds": 1,  # each of the four runs is one training run, from seed cfg.seed
        "checkpoints": list(cfg.checkpoints),
        "steps": cfg.steps,
        "final_window": cfg.steps // 8,  # final loss: the mean of this many last steps
        "guess_loss": math.log(10),  # loss of a uniform guess over the 10 digits
        "init": {
            **mean,                                   # per layer, mean over initialisations
            "seeds": init,
            "ratio": sum(mean["post"]) / sum(mean["pre"]),  # post-LN ÷ pre-LN, all layers
            "spread": {n: max(mean[n]) / min(mean[n]) for n in NORMS},  # largest ÷ smallest layer
            "top_over_bottom": {n: mean[n][-1] / mean[n][0] for n in NORMS},
        },
        "runs": runs,
        "final": {n: {t: runs[f"{n}_{t}"]["final_loss"] for t in ("no_warmup", "warmup")}
                  for n in NORMS},
    }
    return res
