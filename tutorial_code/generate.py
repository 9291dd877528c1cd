"""Generation, one token at a time, with or without a key/value cache: greedy, and beam search.

Training runs every position in parallel under the causal mask; generation cannot, since
each new token depends on the ones before it. Without a cache each step runs the whole
prefix through the decoder again. With a cache each layer keeps the keys and values of
the tokens it has already seen (they never change: the causal mask stops them from
seeing later tokens), so each step only computes the newest position. Beam search keeps
the few most probable hypotheses instead of one; each takes over the cache of the
hypothesis it extends.
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


def reorder_cache(cache: list[dict], parents: Tensor) -> None:
    """Keep, for each new hypothesis, the cached keys and values of the one it extends."""
    for layer in cache:
        for part in layer.values():  # "self" and "cross"
            for name in ("k", "v"):
                part[name] = part[name].index_select(0, parents)  # (beams, h, L, d_k)


def length_penalty(length: int, alpha: float) -> float:
    """GNMT's lp(Y) = ((5 + |Y|) / 6)^α (Wu et al. 2016, §7); α = 0 ranks by log-probability alone."""
    return ((5 + length) / 6) ** alpha


@torch.no_grad()
def beam_search(
    model: EncoderDecoderTransformer, src: Tensor, bos_id: int, eos_id: int, max_new_tokens: int,
    beam_width: int = 4, alpha: float = 0.6,
) -> list[tuple[list[int], float]]:
    """Translate one source ``src`` (1, L_s) keeping the ``beam_width`` best hypotheses.

    The 2017 paper decodes with a beam of 4 and α = 0.6 (§6.1). Each step extends every kept
    hypothesis by every token; the candidates are ranked by their summed log-probability (ties:
    the better-ranked hypothesis, then the smaller token id), and the best ``beam_width`` of them are
    kept, those that wrote EOS set aside as finished. It stops when ``beam_width`` hypotheses
    have finished or after ``max_new_tokens`` steps. Returns up to ``beam_width`` hypotheses
    (BOS … EOS, or unfinished ones if too few finished) with their summed log-probability,
    best first by log-probability / lp(length written); width 1 is greedy decoding.
    """
    check_positive(max_new_tokens=max_new_tokens, beam_width=beam_width)
    if src.dim() != 2 or src.size(0) != 1:
        raise ValueError(f"beam_search translates one source at a time, (1, L_s); got {tuple(src.shape)}")
    was_training = model.training
    model.eval()
    try:
        memory, src_mask, _ = model.encode(src)
        cache = new_cache(len(model.decoder.layers))
        beams, scores, finished = [[bos_id]], [0.0], []
        for step in range(max_new_tokens):
            last = torch.tensor([[b[-1]] for b in beams], device=src.device)  # (beams, 1)
            logits = model.decode(last, memory, src_mask, cache=cache, offset=step)[0][:, -1]  # (beams, V)
            logp = logits.double().log_softmax(dim=-1).tolist()
            ranked = sorted(((scores[i] + lp, i, tok) for i, row in enumerate(logp) for tok, lp in enumerate(row)),
                            key=lambda c: (-c[0], c[1], c[2]))[:beam_width]
            keep = [(s, i, tok) for s, i, tok in ranked if tok != eos_id]
            finished += [(beams[i] + [tok], s) for s, i, tok in ranked if tok == eos_id]
            if len(finished) >= beam_width or not keep:
                break
            parents = torch.tensor([i for _, i, _ in keep], device=src.device)
            reorder_cache(cache, parents)
            beams = [beams[i] + [tok] for _, i, tok in keep]
            scores = [s for s, _, _ in keep]
        hyps = finished if len(finished) >= beam_width else finished + list(zip(beams, scores))
        hyps.sort(key=lambda h: -h[1] / length_penalty(len(h[0]) - 1, alpha))
        return hyps[:beam_width]
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
