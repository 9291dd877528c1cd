"""What lesson 1's page takes from the trained translator: its files, its mistakes, widget data.

Runs on the translation experiment's cached results and the files it saved (the rounded
weights and its translations of the test set), never training (:func:`page_data`):

* :func:`export`: the model as files the page runs (:mod:`.model_export`: int8 weights with a
  float32 scale per tensor, manifest, and PyTorch's greedy decoding with cross-attention of
  held-out test sentences as the reference the browser tests compare the page with);
* :func:`mistakes`: which test sentences it got wrong, and how often their kind occurs;
* :func:`bottleneck` and :func:`translator`: the data of lesson 1's two widgets, with states
  computed here in Python that the browser tests compare the page's JavaScript with.
"""

from __future__ import annotations

import dataclasses

import torch

from .. import translation as tr
from ..common.gates import Claim
from ..common.ko_en_grammar import (ADJECTIVES, ADVERBS, ANIMATE, BOS, EOS, NOUNS, PAD, VERBS, Sentence,
                                    example_triple, object_form, subject_form, vocabulary)
from . import model_export

CHECKS = {
    **model_export.GATES,
    "export.exact_match_drop": (-0.01, 0.01),      # int8 weights translate as the float ones do
    "mistakes.test_scrambled_both_adjectives.n": (1, 10**9),  # the page reads its exact match
}
TINY_CHECKS = model_export.GATES
LESSON_1 = "docs/{lang}/lessons/why-attention.md"
CLAIMS = {  # what lesson 1 reads into the attention weights
    "example.verb_weight": Claim(  # "ate" looks mostly at "먹었다" (last layer, head mean)
        0.5, 1.0, page=LESSON_1, sentence="오른쪽 \"먹었다\" 열이 진합니다."),
    "example.mean.0.2.2": Claim(  # in the first layer too: the worked example says it gets the most
        0.5, 1.0, page=LESSON_1, sentence="가장 큰 몫은 \"먹었다\"가 받지만, 다른 단어도 조금씩 받습니다."),
}

# the longest English sentence the grammar writes (the adj S V the adj O adverb) and its end token
MAX_NEW_TOKENS = len(Sentence(0, 16, 1, 0, 0, 0).english()) + 1


def ids(sentence: Sentence, index: dict[str, int]) -> list[int]:
    return [index[w] for w in sentence.korean()]


def page_data(cfg, results: dict, files, out_dir) -> dict:
    vocab = vocabulary()
    data = tr.make_data(cfg, {w: i for i, w in enumerate(vocab)})
    saved = torch.load(files / "trained.pt", map_location="cpu", weights_only=True)
    model = tr.build_model(cfg, len(vocab), "cpu")
    model.load_state_dict(saved["state_dict"])
    model.eval()
    outs = saved["test_outputs"]
    return {"mistakes": mistakes(data, outs, vocab),
            "bottleneck": bottleneck(cfg.d_model),
            "widgets": {"bottleneck": bottleneck(cfg.d_model),
                        "translator": translator(model, data, outs, vocab, "cpu", tr.cross_attention)},
            "export": export(model, cfg, out_dir, data, vocab, results["float_exact_match"],
                             results["exact_match"])}


# ---------------------------------------------------------------- the model as files

def export(model, cfg, out_dir, data: dict, vocab: list[str], float_exact_match: float,
           exact_match: float) -> dict:
    """Write ``translation.{json,bin}`` and ``translation-reference.json`` into ``out_dir``.

    ``model`` already holds the rounded weights (``common.quantise.round_weights``), so the
    reference is exactly the model the page runs; results: sizes and agreement checks.
    """
    index = {w: i for i, w in enumerate(vocab)}
    example = Sentence(*example_triple())
    tokens = {"names": vocab, "pad_id": PAD, "bos_id": BOS, "eos_id": EOS}
    extra = {"max_new_tokens": MAX_NEW_TOKENS, "example": example.korean()}
    # one sentence at a time, unpadded, as the page decodes them; input 0 is the lesson's
    sources = [ids(s, index) for s in [example] + data["test"][:cfg.n_reference]]
    checked, _ = model_export.export_and_check(model, out_dir, "translation", tokens, extra, sources,
                                               (BOS, EOS, MAX_NEW_TOKENS))
    return {
        **checked,
        "float_exact_match": float_exact_match,  # before rounding the weights to int8
        "exact_match": exact_match,              # after: the model every number of the page is from
        "exact_match_drop": float_exact_match - exact_match,
    }


# ---------------------------------------------------------------- mistakes

def both_adjectives(s: Sentence) -> bool:
    return s.subj_adj is not None and s.obj_adj is not None


def share(pairs: list[tuple[Sentence, bool]]) -> dict:
    """{"n", "right", "exact_match"} of (sentence, translated right) pairs (None when n = 0)."""
    right = sum(ok for _, ok in pairs)
    return {"n": len(pairs), "right": right, "exact_match": right / len(pairs) if pairs else None}


def mistakes(data: dict, outs: list[list[int]], vocab: list[str]) -> dict:
    """The test sentences translated wrong, and how common their kind is in training and test.

    Object-first order with an adjective on both nouns puts the subject's adjective between
    the two nouns ("귀여운 소년을 큰 왕이"); counted apart because the wrong ones are of that kind.
    Object-first with an animate object is where only the particles tell the roles apart
    (either noun could be the subject).
    """
    done = [(s, [vocab[i] for i in o] == s.english()) for s, o in zip(data["test"], outs)]
    wrong = [(s, o) for (s, ok), o in zip(done, outs) if not ok]
    osv_two = lambda s: s.scrambled and both_adjectives(s)  # noqa: E731
    return {
        "n_wrong": len(wrong),
        "wrong_scrambled": sum(s.scrambled for s, _ in wrong),
        "wrong_both_adjectives": sum(both_adjectives(s) for s, _ in wrong),
        "wrong": [{"source": " ".join(s.korean()), "reference": " ".join(s.english()),
                   "output": " ".join(vocab[i] for i in o), "pattern": s.pattern}
                  for s, o in wrong[:20]],  # the first 20: enough to read, bounded if training failed
        "train_scrambled_both_adjectives": sum(osv_two(s) for s in data["train"]),
        "train_scrambled": sum(s.scrambled for s in data["train"]),
        "test_scrambled_both_adjectives": share([p for p in done if osv_two(p[0])]),
        "test_scrambled_other": share([p for p in done if p[0].scrambled and not both_adjectives(p[0])]),
        "test_scrambled_animate_object": share([p for p in done if p[0].scrambled
                                                and NOUNS[p[0].obj][2] == ANIMATE]),
    }


# ---------------------------------------------------------------- the widgets' data

def bottleneck(d_model: int, lo: int = 5, hi: int = 40, start: int = 5, checks=(12, 40)) -> dict:
    """A context vector of ``d_model`` numbers shared by n words (slider lo … hi), against
    attention, which keeps one vector of ``d_model`` numbers per word."""
    def state(n: int) -> dict:
        return {"n": n, "numbers": d_model, "share": d_model / n, "fraction": 1 / n,
                "attention_numbers": n * d_model}
    return {"d_model": d_model, "min": lo, "max": hi, "example": state(start),
            "checks": [state(n) for n in checks]}


def grammar() -> dict:
    """The word lists the page's sentence picker composes from (particles already attached)."""
    return {"nouns": [[subject_form(ko), object_form(ko), en, kind] for ko, en, kind in NOUNS],
            "verbs": [[ko, en, list(kinds)] for ko, en, kinds in VERBS],
            "adjectives": [[ko, en, list(kinds)] for ko, en, kinds in ADJECTIVES],
            "adverbs": [list(a) for a in ADVERBS]}


def find(table, word: str) -> int:
    return [row[0] for row in table].index(word)


def check_sentences() -> list[Sentence]:
    """Two composed sentences unlike the lesson's: object-first with two animate nouns and an
    adverb; an adjective on each noun of a verb that takes things."""
    n = lambda w: find(NOUNS, w)  # noqa: E731
    a = lambda w: find(ADJECTIVES, w)  # noqa: E731
    return [Sentence(n("호랑이"), n("고양이"), find(VERBS, "쫓았다"), subj_adj=a("배고픈"), adverb=1,
                     scrambled=True),
            Sentence(n("소녀"), n("우산"), find(VERBS, "숨겼다"), subj_adj=a("작은"), obj_adj=a("빨간"))]


def state(model, sentence: Sentence, vocab: list[str], device, cross_attention) -> dict:
    """One widget state: the picker's choice, the model's greedy output, last-layer weights."""
    ex = cross_attention(model, sentence, vocab, device)
    return {"choice": dataclasses.asdict(sentence), "korean": ex["korean"], "output": ex["output"],
            "reference": ex["reference"], "mean_last": ex["mean"][-1], "heads_last": ex["heads"][-1]}


def translator(model, data: dict, outs, vocab: list[str], device, cross_attention,
               per_pattern: int = 7) -> dict:
    """The translator widget: test sentences to pick from, the grammar, the checked states."""
    picked, seen = [], set()
    wrong = [s for s, o in zip(data["test"], outs) if [vocab[i] for i in o] != s.english()]
    for p in ("plain", "adjective", "adverb", "scrambled"):
        picked += [s for s in data["test"] if s.pattern == p][:per_pattern]
    sentences = []
    for s in picked + wrong[:8]:  # a few wrong ones too: a reader may try them
        if s not in seen:
            seen.add(s)
            sentences.append({"choice": dataclasses.asdict(s), "korean": s.korean(), "reference": s.english(),
                              "pattern": s.pattern})
    example = state(model, Sentence(*example_triple()), vocab, device, cross_attention)
    verb = VERBS[example_triple()[2]][1]
    return {"grammar": grammar(), "sentences": sentences, "max_new_tokens": MAX_NEW_TOKENS,
            "example": {**example, "row": example["output"].index(verb) if verb in example["output"] else 0},
            "checks": [state(model, s, vocab, device, cross_attention) for s in check_sentences()]}
