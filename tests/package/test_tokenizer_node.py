"""The page's tokenizer (docs/assets/javascripts/tokenizer.js) against the Python one, in Node
(tests/node_runner.py): no site build and no browser.

* on the same thousands of strings as the Python tests (tokenizer_cases.py: every line of the
  corpus and seeded random strings with Hangul, conjoining jamo, emoji and every kind of white
  space), for three vocabulary sizes, every token id equals Python's;
* decoding random token ids (parts of characters too) gives Python's string, U+FFFD included;
* the ranks are read from the JSON that ``Tokenizer.save`` writes; the split and the per-token
  texts equal Python's; a lone surrogate and a bad id are refused, as in Python;
* a copy of tokenizer.js whose merge takes the pair learnt last differs, so the comparison can fail.
"""

from __future__ import annotations

import json
import random

import pytest
from node_runner import JAVASCRIPTS, NodeError, run_js
from tokenizer_cases import strings, trained

from tutorial_code.writing.tokenizer import pre_tokenise

ENCODE_ALL = """(a) => { const t = Tokenizer.fromJSON(a.ranks);
                         return a.texts.map((s) => Tokenizer.encode(t, s)); }"""


def mismatches(ranks: dict, texts, expected, scripts=("tokenizer.js",)) -> list[str]:
    got = run_js(list(scripts), ENCODE_ALL, {"ranks": ranks, "texts": list(texts)})
    assert len(got) == len(texts)
    return [t for t, ids, want in zip(texts, got, expected) if ids != want]


@pytest.mark.parametrize("vocab_size", [512, 1024, 2048])
def test_the_page_encodes_as_python_on_thousands_of_strings(vocab_size):
    tok = trained(vocab_size)
    cases = strings()
    assert len(cases) >= 4000
    assert mismatches(tok.to_json(), cases, [tok.encode(s) for s in cases]) == []


def test_the_page_decodes_as_python_also_parts_of_characters():
    tok = trained()
    rng = random.Random(8)
    seqs = [[rng.randrange(tok.vocab_size) if rng.random() < 0.6 else rng.randrange(128, 256)
             for _ in range(rng.randint(0, 12))] for _ in range(3000)]
    got = run_js(["tokenizer.js"], """(a) => { const t = Tokenizer.fromJSON(a.ranks);
                                               return a.seqs.map((s) => Tokenizer.decode(t, s)); }""",
                 {"ranks": tok.to_json(), "seqs": seqs})
    want = [tok.decode(s) for s in seqs]
    assert any("\ufffd" in w for w in want)
    assert [s for s, g, w in zip(seqs, got, want) if g != w] == []


def test_the_page_reads_the_saved_file_and_splits_as_python(tmp_path):
    tok = trained()
    tok.save(tmp_path / "tokenizer.json")
    texts = ["트랜스포머는 어텐션만으로 시퀀스를 읽습니다.", "It's 2017:  attention 👍🏽\n\n", "\u1112\u1161\u11ab글"]
    got = run_js(["tokenizer.js"], """async (texts) => { const t = await Tokenizer.load("tokenizer.json");
        return texts.map((s) => [Tokenizer.preTokenise(s, t.split), Tokenizer.tokenTexts(t, s), t.vocab.length]); }""",
                 texts, root=tmp_path)
    assert got == [[pre_tokenise(s), tok.token_texts(s), tok.vocab_size] for s in texts]


def test_the_page_refuses_what_python_refuses():
    ranks = trained().to_json()
    with pytest.raises(NodeError, match="lone surrogate"):
        run_js(["tokenizer.js"], "(a) => Tokenizer.encode(Tokenizer.fromJSON(a), 'a\\uD800b')", ranks)
    with pytest.raises(NodeError, match=r"0\.\.1023"):
        run_js(["tokenizer.js"], "(a) => Tokenizer.decode(Tokenizer.fromJSON(a), [1, 5000])", ranks)
    with pytest.raises(NodeError, match="bytes 0-255"):
        run_js(["tokenizer.js"], "(a) => Tokenizer.fromJSON({pattern: a.pattern, tokens: a.tokens.slice(1)})", ranks)
    # a surrogate pair is one character, not a lone surrogate
    assert run_js(["tokenizer.js"], "(a) => Tokenizer.encode(Tokenizer.fromJSON(a), '\\uD83D\\uDE00')", ranks) \
        == trained().encode("😀")


def test_a_broken_merge_order_in_the_page_is_caught(tmp_path):
    source = (JAVASCRIPTS / "tokenizer.js").read_text(encoding="utf-8")
    old = "if (rank !== undefined && rank < best) { best = rank; at = i; }"
    assert source.count(old) == 1
    broken = tmp_path / "tokenizer_broken.js"
    broken.write_text(source.replace(old, "if (rank !== undefined && (at < 0 || rank > best)) { best = rank; at = i; }"),
                      encoding="utf-8")
    tok = trained()
    lines = list(strings()[:300])
    assert len(mismatches(tok.to_json(), lines, [tok.encode(s) for s in lines], scripts=[broken])) > 150


def test_the_saved_ranks_are_what_the_page_reads():
    """The JSON holds the pattern and base64 tokens; atob of each gives the token's bytes."""
    tok = trained(512)
    data = json.loads(json.dumps(tok.to_json()))
    got = run_js(["tokenizer.js"], """(a) => Tokenizer.fromJSON(a).vocab.map(
        (b) => Array.from(b, (c) => c.charCodeAt(0)))""", data)
    assert got == [list(token) for token in tok.vocab]
