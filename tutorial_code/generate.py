"""Greedy generation, one token at a time, with or without a key/value cache.

Training runs every position in parallel under the causal mask; generation cannot, since
each new token depends on the ones before it. Without a cache each step runs the whole
prefix through the decoder again. With a cache each layer keeps the keys and values of
the tokens it has already seen (they never change: the causal mask stops them from
seeing later tokens), so each step only computes the newest position.
"""

from __future__ import annotations

import torch
from torch import Tensor

from .models import DecoderOnlyTransformer, EncoderDecoderTransformer
from .sizes import check_positive


def new_cache(n_layers: int) -> list[dict]:
    """One empty dict per decoder layer; the attention modules fill them in."""
    return [{} for _ in range(n_layers)]


def next_tokens(logits: Tensor, done: Tensor, eos_id: int | None, pad_id: int) -> tuple[Tensor, Tensor]:
    """Greedy choice from the last position's logits (B, L, V); finished rows get padding."""
    nxt = logits[:, -1].argmax(dim=-1, keepdim=True)  # (B, 1)
    nxt = nxt.masked_fill(done[:, None], pad_id)
    if eos_id is not None:
        done = done | (nxt[:, 0] == eos_id)
    return nxt, done


def greedy_loop(step, tokens: Tensor, n_layers: int, max_new_tokens: int,
                use_cache: bool, eos_id: int | None, pad_id: int) -> Tensor:
    """The loop both generators share. ``step(inputs, cache, offset)`` returns logits (B, L, V).

    With the cache only the newest tokens go in; without it the whole prefix, every step.
    """
    check_positive(max_new_tokens=max_new_tokens)
    cache = new_cache(n_layers) if use_cache else None
    step_input, offset = tokens, 0
    done = torch.zeros(tokens.size(0), dtype=torch.bool, device=tokens.device)
    for _ in range(max_new_tokens):
        if use_cache:
            logits = step(step_input, cache, offset)  # only the new positions
            offset += step_input.size(1)
        else:
            logits = step(tokens, None, 0)  # the whole prefix again
        step_input, done = next_tokens(logits, done, eos_id, pad_id)
        tokens = torch.cat([tokens, step_input], dim=1)
        if done.all():
            break
    return tokens


@torch.no_grad()
def generate(
    model: DecoderOnlyTransformer, prompt: Tensor, max_new_tokens: int,
    use_cache: bool = True, eos_id: int | None = None,
) -> Tensor:
    """Continue ``prompt`` (B, L_0) greedily; returns (B, L_0 + max_new_tokens) or fewer
    if every row has produced ``eos_id``. Rows that finish early are padded."""
    was_training = model.training
    model.eval()
    try:
        return greedy_loop(lambda x, cache, offset: model(x, cache=cache, offset=offset), prompt,
                           len(model.decoder.layers), max_new_tokens, use_cache, eos_id, model.cfg.pad_id)
    finally:
        model.train(was_training)


@torch.no_grad()
def greedy_decode(
    model: EncoderDecoderTransformer, src: Tensor, bos_id: int, max_new_tokens: int,
    eos_id: int | None = None, use_cache: bool = True,
) -> Tensor:
    """Translate ``src`` (B, L_s) greedily; returns target ids (B, 1 + steps) starting with BOS.

    The encoder runs once; with the cache, cross-attention projects its output once too.
    """
    was_training = model.training
    model.eval()
    try:
        memory, src_mask, _ = model.encode(src)
        bos = torch.full((src.size(0), 1), bos_id, dtype=torch.long, device=src.device)

        def step(x, cache, offset):
            return model.decode(x, memory, src_mask, cache=cache, offset=offset)[0]

        return greedy_loop(step, bos, len(model.decoder.layers), max_new_tokens, use_cache, eos_id,
                           model.cfg.pad_id)
    finally:
        model.train(was_training)


def positions_computed(model, fn) -> int:
    """How many token positions the model embeds (and so runs through every layer) during fn()."""
    count = []
    hook = model.embed.register_forward_pre_hook(lambda _, args: count.append(args[0].numel()))
    try:
        fn()
    finally:
        hook.remove()
    return sum(count)
