"""A toy Korean→English translator: word order flips, and cross-attention learns where to look.

Lessons 1 and 8. Korean puts the verb last (subject–object–verb), English puts it second
(subject–verb–object): "초파리가 사과를 먹었다" → "the fly ate the apple". A small grammar
writes such sentence pairs; the course's reference encoder–decoder (D = 64, h = 4, N = 2) learns
to translate them, is scored on sentences whose (subject, object, verb) combination it never saw,
and its cross-attention shows which Korean word each English word was produced from. Bahdanau et
al. (2015) saw such learned alignments agree with a person's; here nothing is hand-set.

Tokens are whole Korean words as written (어절, noun and particle together: "초파리가"), so each
column of an attention map is one word of the sentence a reader sees; the particle still decides
the role, which is what lets the scrambled order "사과를 초파리가 먹었다" mean the same thing.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

import torch
from torch import nn

import tutorial_code as tc

from .common.cpu_threads import torch_threads
from .common.quantise import round_weights
from .common.ko_en_grammar import (ADJECTIVES, BOS, EOS, NOUNS, PAD, VERBS, Sentence, encode, example_triple,
                            has_batchim, realise, split_triples, trim, triples, vocabulary)

# ---------------------------------------------------------------- training and scoring

@dataclass(frozen=True)
class Config:
    n_train: int = 20000    # training sentences, drawn from the training combinations
    n_test: int = 1000      # test sentences, drawn from the held-out combinations
    test_frac: float = 0.1  # share of (subject, object, verb) combinations held out
    p_adj: float = 0.25     # chance that a noun gets an adjective
    p_adverb: float = 0.2   # chance of a time adverb (first in Korean, last in English)
    p_scramble: float = 0.15  # chance of object-first Korean order (OSV)
    d_model: int = 64       # the course's reference model: D = 64, h = 4, N = 2
    n_heads: int = 4
    n_layers: int = 2
    d_ff: int = 128
    dropout: float = 0.0    # the paper uses 0.1; this task needs none
    epochs: int = 6         # passes over the training sentences
    batch_size: int = 128
    lr: float = 2e-3        # Adam peak learning rate, after a linear warm-up
    warmup: int = 100       # warm-up steps, then cosine decay to zero
    eval_every: int = 40    # steps between points of the training curve
    n_reference: int = 256  # held-out test sentences the page's forward pass is checked on
    threads: int = 1        # CPU threads (restored after): faster on a busy small machine, see cpu_threads
    seed: int = 0

    @classmethod
    def tiny(cls) -> "Config":
        return cls(n_train=1500, n_test=256, epochs=2, eval_every=6)


def make_data(cfg: Config, index: dict[str, int]) -> dict:
    """Training and test sentences from disjoint (subject, object, verb) combinations."""
    train_triples, test_triples = split_triples(cfg.test_frac, cfg.seed)
    rng = random.Random(cfg.seed + 1)
    probs = (cfg.p_adj, cfg.p_adverb, cfg.p_scramble)
    train = [realise(rng.choice(train_triples), rng, *probs) for _ in range(cfg.n_train)]
    test = [realise(rng.choice(test_triples), rng, *probs) for _ in range(cfg.n_test)]
    seen = {(s.subj, s.obj, s.verb) for s in train}
    assert not seen & {(s.subj, s.obj, s.verb) for s in test}  # held out means never seen
    return {"train": train, "test": test, "train_triples": train_triples,
            "test_triples": test_triples, "train_pt": encode(train, index), "test_pt": encode(test, index)}


def token_loss(model, src, tgt) -> tuple[torch.Tensor, torch.Tensor]:
    """Teacher forcing: the decoder reads tgt[:, :-1] and predicts tgt[:, 1:] (padding ignored).

    Returns the mean cross-entropy and the logits (B, L_t - 1, V).
    """
    logits = model(src, tgt[:, :-1])  # (B, L_t - 1, V)
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), tgt[:, 1:].flatten(), ignore_index=PAD)
    return loss, logits


@torch.no_grad()
def evaluate(model, src, tgt) -> dict:
    """Held-out loss and token accuracy under teacher forcing (one batch, no dropout)."""
    was = model.training
    model.eval()
    loss, logits = token_loss(model, src, tgt)
    gold = tgt[:, 1:]
    real = gold != PAD
    acc = ((logits.argmax(-1) == gold) & real).sum().item() / real.sum().item()
    model.train(was)
    return {"test_loss": loss.item(), "test_token_acc": acc}


def warmup_cosine(warmup: int, steps: int):
    """Learning-rate factor: linear warm-up over ``warmup`` steps, then cosine decay to 0."""
    def factor(step: int) -> float:
        return min(1.0, (step + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * step / steps))
    return factor


def train(model, data, cfg: Config, ctx) -> list[dict]:
    """Adam with warm-up and cosine decay. Returns the curve: every ``eval_every`` steps the
    mean training loss since the last point and the held-out loss and token accuracy."""
    src, tgt = (t.to(ctx.device) for t in data["train_pt"])
    test_src, test_tgt = (t.to(ctx.device) for t in data["test_pt"])
    per_epoch = -(-len(src) // cfg.batch_size)
    steps = cfg.epochs * per_epoch
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, betas=(0.9, 0.98))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, warmup_cosine(cfg.warmup, steps))
    gen = ctx.generator(1)
    curve = [{"step": 0, "epoch": 0.0, "loss": None, **evaluate(model, test_src, test_tgt)}]
    step, running, seen = 0, 0.0, 0
    model.train()
    with ctx.progress(cfg.epochs, "train") as bar:
        for _ in bar:
            order = torch.randperm(len(src), generator=gen).to(ctx.device)
            for i in range(0, len(src), cfg.batch_size):
                idx = order[i:i + cfg.batch_size]
                loss, _ = token_loss(model, trim(src[idx]), trim(tgt[idx]))
                opt.zero_grad(set_to_none=True)
                loss.backward()
                opt.step()
                sched.step()
                step, running, seen = step + 1, running + loss.item() * len(idx), seen + len(idx)
                if step % cfg.eval_every == 0 or step == steps:
                    curve.append({"step": step, "epoch": step / per_epoch, "loss": running / seen,
                                  **evaluate(model, test_src, test_tgt)})
                    running, seen = 0.0, 0
            bar.log(loss=curve[-1]["loss"], test_token_acc=curve[-1]["test_token_acc"])
    return curve


def until_eos(ids: list[int]) -> list[int]:
    """Token ids after BOS up to (not including) the first EOS."""
    ids = ids[1:] if ids and ids[0] == BOS else ids
    return ids[:ids.index(EOS)] if EOS in ids else ids


@torch.no_grad()
def translate(model, src: torch.Tensor, max_len: int, device) -> list[list[int]]:
    """Greedy decoding (with the key/value cache) of a batch of source ids."""
    out = tc.greedy_decode(model, src.to(device), BOS, max_len, eos_id=EOS)
    return [until_eos(row) for row in out.tolist()]


# ---------------------------------------------------------------- what the model looks at

@torch.no_grad()
def cross_attention(model, sentence: Sentence, vocab: list[str], device) -> dict:
    """Translate one sentence, then re-run the decoder on its own output to read cross-attention.

    Row i of a map is the step that *produces* target word i (its decoder input is word i − 1),
    the reading of Bahdanau et al.; the last row produces the end token.
    """
    index = {w: i for i, w in enumerate(vocab)}
    src, tgt = encode([sentence], index)
    out = translate(model, src, tgt.size(1), device)[0]
    tgt_in = torch.tensor([[BOS] + out], device=device)  # (1, L_t)
    _, att = model(src.to(device), tgt_in, return_attention=True)
    maps = torch.stack([w[0] for w in att["cross"]]).cpu()  # (N, h, L_t, L_s)
    mean = maps.mean(1)  # (N, L_t, L_s), the average over heads
    rows, cols = [vocab[i] for i in out] + ["</s>"], sentence.korean()
    last = mean[-1]
    argmax = [{"target": r, "source": cols[j], "weight": last[i, j].item()}
              for i, (r, j) in enumerate(zip(rows, last.argmax(-1).tolist()))]
    result = {"korean": cols, "reference": sentence.english(), "output": rows[:-1],
              "correct": int(rows[:-1] == sentence.english()), "rows": rows,
              "heads": maps.tolist(), "mean": mean.tolist(), "argmax_last": argmax}
    verb = VERBS[sentence.verb]
    if verb[1] in rows:  # the weight from the English verb to the Korean verb, per layer
        i, j = rows.index(verb[1]), cols.index(verb[0])
        result["verb_weight_by_layer"] = mean[:, i, j].tolist()
        result["verb_weight"] = last[i, j].item()
        result["verb_weight_by_head"] = maps[-1, :, i, j].tolist()
    return result


ROW_KINDS = ("verb", "other", "the", "end")  # English verb, other words with a Korean word, 'the', end token


def row_kinds(sentences: list[Sentence]) -> dict[str, list[tuple[int, int, int, int]]]:
    """Every decoder row of every sentence, by kind: (sentence, row, translated column or -1,
    the Korean verb's column). Row i produces English word i; the last row the end token."""
    kinds = {k: [] for k in ROW_KINDS}
    for b, s in enumerate(sentences):
        verb_col = len(s.korean()) - 1  # Korean puts the verb last
        aligned = s.english_aligned()
        for i, (_, j) in enumerate(aligned):
            kind = "the" if j is None else ("verb" if j == verb_col else "other")
            kinds[kind].append((b, i, -1 if j is None else j, verb_col))
        kinds["end"].append((b, len(aligned), -1, verb_col))
    return kinds


@torch.no_grad()
def alignment(model, sentences: list[Sentence], index: dict[str, int], device) -> dict:
    """Where the head-averaged cross-attention of each layer peaks, row by row.

    Teacher forcing on the reference. For the words that translate a Korean word (the verb,
    the other words) ``hit``: the share of rows whose largest weight is on that word; for
    every kind of row ``on_verb``: the share that peaks on the Korean verb's column, and
    ``verb_weight``: the mean weight there. 'the' and the end token translate no word, so
    their ``on_verb`` tells how much the verb column draws rows that have no reason to look
    there, i.e. how much of the verb rows' hit a default could explain.
    """
    src, tgt = encode(sentences, index)
    _, att = model(src.to(device), tgt[:, :-1].to(device), return_attention=True)
    rows = {k: [torch.tensor(x) for x in zip(*v)] for k, v in row_kinds(sentences).items()}
    by_layer = []
    for w in att["cross"]:
        mean = w.mean(1).cpu()  # (B, L_t - 1, L_s), the average over heads
        layer = {}
        for kind, (b, i, j, v) in rows.items():
            m = mean[b, i]  # (n_rows, L_s)
            peak, n = m.argmax(-1), torch.arange(len(b))
            layer[kind] = {"n": len(b), "on_verb": (peak == v).float().mean().item(),
                           "verb_weight": m[n, v].mean().item()}
            if kind in ("verb", "other"):
                layer[kind]["hit"] = (peak == j).float().mean().item()
                layer[kind]["weight"] = m[n, j].mean().item()
        words = layer["verb"]["n"] + layer["other"]["n"]
        layer["words"] = {"n": words, **{k: (layer["verb"]["n"] * layer["verb"][k]
                                            + layer["other"]["n"] * layer["other"][k]) / words
                                         for k in ("hit", "weight")}}
        by_layer.append(layer)
    last = by_layer[-1]
    return {"by_layer": by_layer, "last": last,
            "argmax_hit_by_layer": [x["words"]["hit"] for x in by_layer],
            "verb_hit_by_layer": [x["verb"]["hit"] for x in by_layer],
            "weight_by_layer": [x["words"]["weight"] for x in by_layer],
            "argmax_hit": last["words"]["hit"], "verb_hit": last["verb"]["hit"],
            "weight": last["words"]["weight"], "n_words": last["words"]["n"]}


# ---------------------------------------------------------------- the experiment

# sentence patterns, named by their Korean word order (Adj adjective, Adv time adverb)
PATTERNS = {"plain": "S O V", "adjective": "(Adj) S (Adj) O V", "adverb": "Adv S O V", "scrambled": "O S V"}


def build_model(cfg: Config, vocab_size: int, device) -> tc.EncoderDecoderTransformer:
    """The reference encoder–decoder (the package initialises it Xavier-uniform).

    With PyTorch's default N(0, 1) embedding the position code was drowned (see
    :func:`tutorial_code.models.init_parameters`): which noun an adjective belongs to was then
    learned badly here (held-out exact match about 0.94 instead of 0.99+).
    """
    mcfg = tc.TransformerConfig(vocab_size=vocab_size, d_model=cfg.d_model, n_heads=cfg.n_heads,
                                d_ff=cfg.d_ff, n_layers=cfg.n_layers, dropout=cfg.dropout, pad_id=PAD)
    return tc.EncoderDecoderTransformer(mcfg).to(device)


def score(model, data, vocab, device) -> tuple[list[list[int]], dict]:
    """Greedy translations of the test set; exact match overall and per sentence pattern."""
    src, tgt = data["test_pt"]
    outs = translate(model, src, tgt.size(1), device)
    hits = [o == until_eos(r) for o, r in zip(outs, tgt.tolist())]
    by = {p: [h for h, s in zip(hits, data["test"]) if s.pattern == p] for p in PATTERNS}
    return outs, {"exact_match": sum(hits) / len(hits),
                  "by_pattern": {p: {"n": len(v), "exact_match": sum(v) / len(v) if v else None}
                                 for p, v in by.items()}}


def sample_rows(data, outs, vocab, per_pattern: int = 2) -> list[dict]:
    """A few test translations for the page: the first ones of each pattern, mistakes first."""
    rows = []
    for p in PATTERNS:
        pick = [(s, o) for s, o in zip(data["test"], outs) if s.pattern == p]
        pick.sort(key=lambda so: [vocab[i] for i in so[1]] == so[0].english())  # stable: errors first
        for s, o in pick[:per_pattern]:
            out = " ".join(vocab[i] for i in o)
            rows.append({"source": " ".join(s.korean()), "reference": " ".join(s.english()),
                         "output": out, "match": "✓" if out == " ".join(s.english()) else "✗"})
    return rows


def example_row(ex: dict) -> dict:
    """The lessons' sentence as a row of the samples table."""
    out, ref = " ".join(ex["output"]), " ".join(ex["reference"])
    return {"source": " ".join(ex["korean"]), "reference": ref, "output": out,
            "match": "✓" if out == ref else "✗"}


def run(cfg: Config, ctx) -> dict:
    vocab = vocabulary()
    index = {w: i for i, w in enumerate(vocab)}
    data = make_data(cfg, index)
    model = build_model(cfg, len(vocab), ctx.device)
    with torch_threads(cfg.threads, ctx.device) as threads:
        t0 = time.perf_counter()
        curve = train(model, data, cfg, ctx)
        train_s = time.perf_counter() - t0
        model.eval()
        _, float_scores = score(model, data, vocab, ctx.device)
        # the page runs int8 weights (common.quantise): from here on every number is of that model
        round_weights(model)
        outs, scores = score(model, data, vocab, ctx.device)
        in_train = any((s.subj, s.obj, s.verb) == example_triple() for s in data["train"])
        example = {**cross_attention(model, Sentence(*example_triple()), vocab, ctx.device),
                   "in_training": int(in_train)}
        scrambled = cross_attention(model, Sentence(*example_triple(), scrambled=True), vocab, ctx.device)
        aligned = alignment(model, data["test"], index, ctx.device)
    save_for_page(model, outs, ctx)
    batchim = sum(has_batchim(n) for n, _, _ in NOUNS)
    return {
        **scores,
        "example": example,
        "example_scrambled": scrambled,
        "samples": [example_row(example), example_row(scrambled)] + sample_rows(data, outs, vocab),
        "alignment": aligned,
        "float_exact_match": float_scores["exact_match"],  # before rounding the weights to int8
        "seed": cfg.seed,
        "curve": curve,
        "final_loss": curve[-1]["loss"],
        "initial_test_loss": curve[0]["test_loss"],
        "test_token_acc": curve[-1]["test_token_acc"],
        "train_time_s": train_s,
        "device": {"type": ctx.device.type, "name": tc.describe_device(ctx.device), "threads": threads},
        "n_parameters": tc.count_parameters(model),
        "sizes": {"vocab": len(vocab), "nouns": len(NOUNS), "nouns_with_batchim": batchim,
                  "verbs": len(VERBS), "adjectives": len(ADJECTIVES), "train": cfg.n_train,
                  "test": cfg.n_test, "triples": len(triples()),
                  "train_triples": len(data["train_triples"]), "test_triples": len(data["test_triples"])},
    }


GATES = {
    "exact_match": (0.95, 1.0),           # held-out sentences translated word for word
    "example.correct": (1, 1),            # 초파리가 사과를 먹었다 → the fly ate the apple
    "example.in_training": (0, 0),        # ... and the model never saw that combination
    "example_scrambled.correct": (1, 1),  # the object-first example too (the page reads its rows)
    "alignment.argmax_hit": (0.8, 1.0),   # training learned alignments: most words peak on their translation
}
TINY_GATES = {"example.in_training": (0, 0), "test_token_acc": (0.2, 1.0)}


def save_for_page(model, outs: list[list[int]], ctx) -> None:
    """What the page data (:mod:`.pagedata.translation`) needs, so that it runs without training:
    the rounded weights (the model every number is of) and its translations of the test set."""
    torch.save({"state_dict": model.state_dict(), "test_outputs": outs}, ctx.out_dir / "trained.pt")
