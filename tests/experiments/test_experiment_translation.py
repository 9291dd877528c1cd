"""The toy Korean→English translation experiment: grammar, particles, split, tokens, row kinds,
mistakes, the lesson 1 widgets' data, the model it exports for the page, a tiny run."""

from __future__ import annotations

import json
import random
import unicodedata
from types import SimpleNamespace

import pytest
import torch


from coursebuild.outputs import models
from coursebuild.pipeline import run_experiments
from tutorial_code.experiments.common import ko_en_grammar as g
from tutorial_code.experiments import translation
from tutorial_code.experiments.pagedata import translation as page



@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """One torch thread: on a busy 2-core machine two threads contend and run several times slower."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


# ---------------------------------------------------------------- the particle rule

@pytest.mark.parametrize("word, expected", [
    ("사과", False), ("초파리", False), ("곰", True), ("빵", True), ("귤", True),  # ㄹ counts
    ("닭", True), ("꽃", True), ("선생님", True), ("가", False), ("힣", True),
])
def test_has_batchim_reads_the_final_consonant(word, expected):
    assert g.has_batchim(word) is expected


def test_has_batchim_agrees_with_unicode_decomposition_for_every_noun():
    # NFD splits a syllable into 2 jamo (initial, vowel) or 3 (plus a final consonant)
    for noun, _, _ in g.NOUNS:
        assert g.has_batchim(noun) is (len(unicodedata.normalize("NFD", noun[-1])) == 3), noun


@pytest.mark.parametrize("word", ["", "apple", "사과a", "ㄱ"])
def test_has_batchim_rejects_non_syllables(word):
    with pytest.raises(ValueError):
        g.has_batchim(word)


def test_particles_follow_the_final_consonant():
    assert g.subject_form("초파리") == "초파리가" and g.object_form("사과") == "사과를"
    assert g.subject_form("곰") == "곰이" and g.object_form("빵") == "빵을"
    assert g.subject_form("달걀") == "달걀이" and g.object_form("귤") == "귤을"


def test_both_particle_forms_occur_among_the_nouns():
    kinds = {g.has_batchim(n) for n, _, _ in g.NOUNS}
    assert kinds == {True, False}


# ---------------------------------------------------------------- word order

def test_the_lessons_sentence():
    s = g.Sentence(*g.example_triple())
    assert s.korean() == ["초파리가", "사과를", "먹었다"]
    assert s.english() == ["the", "fly", "ate", "the", "apple"]
    assert s.english_aligned()[2] == ("ate", 2)  # "ate" translates the last Korean word


def test_scrambled_order_keeps_the_meaning():
    s = g.Sentence(*g.example_triple(), scrambled=True)
    assert s.korean() == ["사과를", "초파리가", "먹었다"]
    assert s.english() == ["the", "fly", "ate", "the", "apple"]


def test_adjectives_and_adverb():
    big, delicious = ("큰", "맛있는")
    adj = [a for a, _, _ in g.ADJECTIVES]
    s = g.Sentence(*g.example_triple(), subj_adj=adj.index(big), obj_adj=adj.index(delicious), adverb=0)
    assert s.korean() == ["어제", "큰", "초파리가", "맛있는", "사과를", "먹었다"]
    assert s.english() == "the big fly ate the delicious apple yesterday".split()


def test_random_sentences_are_sov_to_svo_and_aligned():
    rng = random.Random(0)
    ko_to_en = {ko: en for ko, en, _ in g.VERBS} | {ko: en for ko, en, _ in g.ADJECTIVES} | dict(g.ADVERBS)
    ko_to_en |= {g.subject_form(n): en for n, en, _ in g.NOUNS} | {g.object_form(n): en for n, en, _ in g.NOUNS}
    for triple in rng.sample(g.triples(), 300):
        s = g.realise(triple, rng, 0.5, 0.5, 0.5)
        ko, en = s.korean(), s.english()
        verb_ko, verb_en, _ = g.VERBS[s.verb]
        assert ko[-1] == verb_ko  # Korean: verb last
        subj_en, obj_en = g.NOUNS[s.subj][1], g.NOUNS[s.obj][1]
        assert en.index(subj_en) < en.index(verb_en) < len(en) - 1 - en[::-1].index(obj_en)  # S V O
        subj_ko = ko.index(g.subject_form(g.NOUNS[s.subj][0]))
        obj_ko = ko.index(g.object_form(g.NOUNS[s.obj][0]))
        assert (subj_ko > obj_ko) is s.scrambled
        for word, j in s.english_aligned():
            assert (word == "the") is (j is None)
            if j is not None:
                assert ko_to_en[ko[j]] == word
        assert sorted(j for _, j in s.english_aligned() if j is not None) == list(range(len(ko)))


def test_verbs_take_only_the_objects_they_allow():
    for s, o, v in g.triples():
        assert g.NOUNS[s][2] == g.ANIMATE and s != o
        assert g.NOUNS[o][2] in g.VERBS[v][2]
    assert all(g.NOUNS[o][2] == g.FOOD for s, o, v in g.triples() if g.VERBS[v][1] == "ate")


# ---------------------------------------------------------------- split and tokens

def test_split_holds_out_combinations_and_the_example():
    train, test = g.split_triples(0.1, seed=0)
    assert not set(train) & set(test)
    assert len(train) + len(test) == len(g.triples())
    assert g.example_triple() in test


def test_make_data_never_shows_a_test_combination():
    cfg = translation.Config.tiny()
    vocab = g.vocabulary()
    data = translation.make_data(cfg, {w: i for i, w in enumerate(vocab)})
    seen = {(s.subj, s.obj, s.verb) for s in data["train"]}
    assert not seen & {(s.subj, s.obj, s.verb) for s in data["test"]}
    assert g.example_triple() not in seen


def test_vocabulary_and_encoding():
    vocab = g.vocabulary()
    assert vocab[:3] == list(g.SPECIALS) and len(vocab) == len(set(vocab))
    index = {w: i for i, w in enumerate(vocab)}
    s = g.Sentence(*g.example_triple(), adverb=1)
    src, tgt = g.encode([s, g.Sentence(*g.example_triple())], index)
    assert src.shape == (2, 4) and tgt.shape == (2, 8)
    assert [vocab[i] for i in src[1].tolist()] == ["초파리가", "사과를", "먹었다", "<pad>"]
    assert [vocab[i] for i in tgt[1].tolist()] == ["<s>", "the", "fly", "ate", "the", "apple", "</s>", "<pad>"]
    assert g.trim(src[1:]).shape == (1, 3)


# ---------------------------------------------------------------- row kinds, mistakes, widget data

def test_row_kinds_split_verb_other_the_and_end():
    s = g.Sentence(*g.example_triple())  # the fly ate the apple </s>
    kinds = translation.row_kinds([s, g.Sentence(*g.example_triple(), scrambled=True)])
    assert [(i, j) for _, i, j, _ in kinds["verb"]] == [(2, 2), (2, 2)]
    assert [(i, j) for b, i, j, _ in kinds["other"] if b == 0] == [(1, 0), (4, 1)]
    assert [(i, j) for b, i, j, _ in kinds["other"] if b == 1] == [(1, 1), (4, 0)]  # object first
    assert [i for b, i, _, _ in kinds["the"] if b == 0] == [0, 3] and [i for _, i, _, _ in kinds["end"]] == [5, 5]
    assert {v for rows in kinds.values() for *_, v in rows} == {2}  # the verb's column: last


def test_mistakes_count_the_wrong_translations_by_kind():
    index = {w: i for i, w in enumerate(g.vocabulary())}
    right = g.Sentence(*g.example_triple())
    both = g.Sentence(*g.example_triple(), subj_adj=0, obj_adj=1, scrambled=True)  # 작은 사과를 큰 초파리가 …
    data = {"test": [right, both], "train": [both, right, right]}
    outs = [[index[w] for w in right.english()], [index[w] for w in right.english()]]  # the second is wrong
    m = page.mistakes(data, outs, g.vocabulary())
    assert (m["n_wrong"], m["wrong_scrambled"], m["wrong_both_adjectives"]) == (1, 1, 1)
    assert m["train_scrambled_both_adjectives"] == 1 and m["train_scrambled"] == 1
    assert m["test_scrambled_both_adjectives"] == {"n": 1, "right": 0, "exact_match": 0.0}
    assert m["test_scrambled_other"] == {"n": 0, "right": 0, "exact_match": None}


def test_bottleneck_states_share_one_vector():
    b = page.bottleneck(64)
    assert (b["min"], b["max"], b["example"]["n"]) == (5, 40, 5)
    assert b["example"]["share"] == 12.8 and b["checks"][-1] == {
        "n": 40, "numbers": 64, "share": 1.6, "fraction": 0.025, "attention_numbers": 2560}


def test_widget_grammar_composes_the_sentences_the_grammar_writes():
    gr = page.grammar()
    assert gr["nouns"][0][:3] == ["초파리가", "초파리를", "fly"] and gr["nouns"][3][:2] == ["곰이", "곰을"]
    for s in page.check_sentences():  # the picker's rule: animate subject, an object the verb takes
        assert (s.subj, s.obj, s.verb) in set(g.triples())
        for noun, adj in ((s.subj, s.subj_adj), (s.obj, s.obj_adj)):
            assert adj is None or g.NOUNS[noun][2] in g.ADJECTIVES[adj][2]
    assert page.MAX_NEW_TOKENS == 9  # the adj S V the adj O adverb, then the end token


def test_models_serve_the_translation_model():
    assert models.MODELS["translation"][0] == "translation.json"
    served = SimpleNamespace(get_file_from_path=lambda uri: uri if uri == models.model_uri("translation") else None)
    html = models.add_model_urls('<div data-model="translation"></div>', "lessons/why-attention/", served)
    assert 'data-model-url="../../assets/generated/models/translation/translation.json"' in html


# ---------------------------------------------------------------- end to end

def test_tiny_run_end_to_end(tmp_path):
    report = run_experiments(["translation"], tmp_path / "out", tiny=True, device="cpu")
    o = report["translation"]
    rec = o.record  # results.json plus what was drawn from it
    res = rec["results"]
    assert res["example"]["in_training"] == 0
    assert res["example"]["korean"] == ["초파리가", "사과를", "먹었다"]
    n_layers, n_heads = translation.Config.tiny().n_layers, translation.Config.tiny().n_heads
    assert len(res["example"]["heads"]) == n_layers and len(res["example"]["heads"][0]) == n_heads
    for row in res["example"]["mean"][-1]:
        assert sum(row) == pytest.approx(1.0, abs=1e-5)  # attention weights sum to 1
    assert 0.0 <= res["exact_match"] <= 1.0 and res["sizes"]["vocab"] == len(g.vocabulary())
    assert rec["tables"]["samples"]["rows"] and len(rec["tables"]["by_pattern"]["rows"]) == 4
    for lang in ("ko", "en"):
        for stem in ("cross_attention", "cross_attention_scrambled", "cross_attention_heads", "training_curve"):
            assert (o.drawing / "figures" / lang / f"{stem}.png").read_bytes()[:4] == b"\x89PNG"
    # the model for the page: files, reference inputs (unpadded test sentences), agreement
    export, files = res["export"], o.pagedata / "files"
    assert export["n_reference"] >= 200 and export["reload"]["tokens_equal"] == 1
    assert export["reload"]["max_attention_gap"] <= 1e-6
    assert (files / "translation.bin").stat().st_size == export["weights_bytes"] < 500_000
    manifest = json.loads((files / "translation.json").read_text())
    assert manifest["tokens"]["names"] == g.vocabulary() and manifest["max_new_tokens"] == page.MAX_NEW_TOKENS
    ref = json.loads((files / "translation-reference.json").read_text())
    assert ref["n_inputs"] == export["n_reference"] + 1 and g.PAD not in ref["inputs"][0]["src"]
    assert [manifest["tokens"]["names"][i] for i in ref["inputs"][0]["src"]] == res["example"]["korean"]
    # the widgets' data: the lesson's example first, Python states to compare the page with
    w = res["widgets"]["translator"]
    assert w["example"]["korean"] == res["example"]["korean"] and w["example"]["mean_last"] == res["example"]["mean"][-1]
    assert [c["korean"] for c in w["checks"]] == [s.korean() for s in page.check_sentences()]
    assert all(g.Sentence(**s["choice"]).korean() == s["korean"] for s in w["sentences"])  # the picker sets it
    assert res["widgets"]["bottleneck"]["d_model"] == translation.Config.tiny().d_model
    assert len(rec["tables"]["alignment_rows"]["rows"]) == 4
