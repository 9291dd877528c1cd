"""Lesson 8's in-page trainer: the reversal task, its random numbers and the starting weights,
as ``docs/assets/javascripts/trainer_task.js`` makes them, exactly.

Three pieces of the page's trainer are mirrored here, with the same names:

* :func:`mulberry32`: the seeded stream of numbers in [0, 1) (``TrainerTask.mulberry32``), on
  32-bit integers as JavaScript computes it;
* :class:`task`: the held-out set (``n_held_out`` distinct sequences drawn from ``seed``) and the
  training stream (drawn from ``seed + 1``, a held-out sequence drawn again), as
  ``TrainerTask.task``;
* :func:`init_values` / :func:`init_model`: ``TrainerTask.initModel``'s order of draws and
  bounds (Xavier-uniform weight matrices, ``nn.Linear``'s U(±1/√fan_in) biases, LayerNorm γ = 1,
  β = 0), computed in float64 and then rounded to float32, as a ``Float32Array`` stores them.

``tests/package/test_trainer_node.py`` runs the page's file in Node and checks that these give
exactly its random numbers, starting weights, held-out set and batches.
"""

from __future__ import annotations

import math

import torch

import tutorial_code as tc

TOKENS = {"pad_id": 0, "bos_id": 1, "eos_id": 2, "digit0": 3}
_U32 = 0xFFFFFFFF


def mulberry32(seed: int):
    """TrainerTask.mulberry32: a seeded stream of numbers in [0, 1), the same as the page's, bit for bit."""
    a = seed & _U32

    def rand() -> float:
        nonlocal a
        a = (a + 0x6D2B79F5) & _U32
        t = a
        t = ((t ^ (t >> 15)) * (t | 1)) & _U32                         # Math.imul(t ^ t >>> 15, t | 1)
        t = (t ^ ((t + (((t ^ (t >> 7)) * (t | 61)) & _U32)) & _U32)) & _U32
        return (t ^ (t >> 14)) / 4294967296
    return rand


def pair(digits: list[int]) -> tuple[list[int], list[int]]:
    """Source [BOS, x_1 … x_n, EOS] and target [BOS, x_n … x_1, EOS]."""
    d = [x + TOKENS["digit0"] for x in digits]
    return [TOKENS["bos_id"], *d, TOKENS["eos_id"]], [TOKENS["bos_id"], *d[::-1], TOKENS["eos_id"]]


def _draw(rand, length: int) -> list[int]:
    return [math.floor(rand() * 10) for _ in range(length)]


class task:
    """TrainerTask.task: the held-out set and a training stream that never yields one of its sequences.

    ``exclude=False`` turns the filter off (only for the test that shows the build's check
    catches an overlap)."""

    def __init__(self, seed: int, length: int, n_held_out: int, exclude: bool = True):
        rand, self.held_out, self._seen = mulberry32(seed), [], set()
        while len(self.held_out) < n_held_out:
            d = _draw(rand, length)
            if tuple(d) not in self._seen:
                self._seen.add(tuple(d))
                self.held_out.append(d)
        self._train, self._length, self._exclude = mulberry32(seed + 1), length, exclude
        self.redrawn = 0

    def batch(self, size: int) -> list[list[int]]:
        """The next ``size`` training sequences (digits)."""
        out = []
        while len(out) < size:
            d = _draw(self._train, self._length)
            if self._exclude and tuple(d) in self._seen:
                self.redrawn += 1
                continue
            out.append(d)
        return out


def tensors(digit_rows: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
    pairs = [pair(d) for d in digit_rows]
    return torch.tensor([p[0] for p in pairs]), torch.tensor([p[1] for p in pairs])


def init_values(mcfg: tc.TransformerConfig, seed: int) -> dict[str, torch.Tensor]:
    """TrainerTask.initModel's starting weights by state_dict name: the same draws in the same order,
    float64 maths, then float32."""
    rand, D, out = mulberry32(seed), mcfg.d_model, {}

    def uniform(shape, bound):
        n = math.prod(shape)
        return torch.tensor([(2 * rand() - 1) * bound for _ in range(n)], dtype=torch.float64).reshape(shape).float()

    def lin(name, n_in, n_out):
        out[name + ".weight"] = uniform((n_out, n_in), math.sqrt(6 / (n_in + n_out)))
        out[name + ".bias"] = uniform((n_out,), 1 / math.sqrt(n_in))

    def norm(name):
        out[name + ".weight"], out[name + ".bias"] = torch.ones(D), torch.zeros(D)

    def attn(name):
        for w in ("W_Q", "W_K", "W_V", "W_O"):
            lin(f"{name}.{w}", D, D)

    def ffn(name):
        lin(name + ".W_1", D, mcfg.d_ff)
        lin(name + ".W_2", mcfg.d_ff, D)

    out["embed.tokens.weight"] = uniform((mcfg.vocab_size, D), math.sqrt(6 / (mcfg.vocab_size + D)))
    for layer in range(mcfg.n_layers):
        e = f"encoder.layers.{layer}"
        attn(e + ".self_attn"); ffn(e + ".ffn"); norm(e + ".sublayer1.norm"); norm(e + ".sublayer2.norm")  # noqa: E702
    for layer in range(mcfg.n_layers):
        d = f"decoder.layers.{layer}"
        attn(d + ".self_attn"); attn(d + ".cross_attn"); ffn(d + ".ffn")  # noqa: E702
        for k in (1, 2, 3):
            norm(f"{d}.sublayer{k}.norm")
    if mcfg.norm_first:
        norm("encoder.norm"); norm("decoder.norm")  # noqa: E702
    out["out.bias"] = uniform((mcfg.vocab_size,), 1 / math.sqrt(D))
    return out


def init_model(mcfg: tc.TransformerConfig, seed: int) -> tc.EncoderDecoderTransformer:
    """tutorial_code's model holding TrainerTask.initModel's weights (out.weight tied to the embedding)."""
    model = tc.EncoderDecoderTransformer(mcfg)
    values = init_values(mcfg, seed)
    params = dict(model.named_parameters())
    if set(values) != set(params):
        raise RuntimeError(f"the page's initialisation and the model disagree on names: "
                           f"{sorted(set(values) ^ set(params))[:5]}; keep init_values in the order of TrainerTask.initModel")
    with torch.no_grad():
        for name, p in params.items():
            p.copy_(values[name])
    return model
