"""tutorial_code/writing/tokenizer.py: byte-level BPE.

* decode(encode(s)) == s for any string UTF-8 can hold (a property test: Hangul, conjoining
  jamo, emoji, every kind of white space, any code point but a surrogate), and the split loses
  no character;
* the encoding equals tiktoken's ``Encoding`` built with the same ranks and the same pattern,
  on thousands of strings (tokenizer_cases.py: the corpus's lines and seeded random ones) and on
  a property test's strings, for three vocabulary sizes; decoding equals tiktoken's too;
* training follows two examples worked by hand (the references, not the code), and the kept-up
  pair counts give the vocabulary that counting every pair again after each merge gives;
* a deliberately broken merge order (the pair learnt last merged first) fails the hand-worked
  encoding and differs from tiktoken, so the checks above can fail;
* save and load give the same tokenizer; bad input is refused with a message.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
import regex
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizer_cases import EMOJI, SPACES, corpus_lines, strings, trained

from tutorial_code.writing import corpus
from tutorial_code.writing.tokenizer import N_BYTES, SPLIT_PATTERN, Tokenizer, merge, pre_tokenise, tokens_per_character

# the same examples on every run and machine; no example database written into the repository
SAME_EXAMPLES = settings(max_examples=400, deadline=None, database=None, derandomize=True)

HANGUL = st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3)
JAMO = st.characters(min_codepoint=0x1100, max_codepoint=0x11FF)          # conjoining jamo
ANY = st.characters(exclude_categories=("Cs",))                           # UTF-8 cannot hold a surrogate
ASSIGNED = st.characters(exclude_categories=("Cs", "Cn"))                # assigned in Unicode 14.0
OTHERS = (st.sampled_from(EMOJI), st.sampled_from(list(SPACES)),
          st.sampled_from(["'s", "'ll", " ", "  ", "\n\n", "e\u0301"]))
TEXT = st.lists(st.one_of(HANGUL, JAMO, ANY, *OTHERS), max_size=40).map("".join)
ASSIGNED_TEXT = st.lists(st.one_of(HANGUL, JAMO, ASSIGNED, *OTHERS), max_size=40).map("".join)


def bytes_only() -> list[bytes]:
    return [bytes([b]) for b in range(N_BYTES)]


def tiktoken_of(tok: Tokenizer) -> tiktoken.Encoding:
    return tiktoken.Encoding("course", pat_str=tok.pattern, mergeable_ranks=tok.ranks, special_tokens={})


def differences(tok: Tokenizer, texts) -> list[str]:
    enc = tiktoken_of(tok)
    return [t for t in texts if tok.encode(t) != enc.encode_ordinary(t)]


# ---- round trip

@SAME_EXAMPLES
@given(TEXT)
def test_decode_of_encode_gives_the_string_back(text):
    tok = trained()
    assert "".join(pre_tokenise(text)) == text
    assert tok.decode(tok.encode(text)) == text


@SAME_EXAMPLES
@given(TEXT)
def test_the_round_trip_holds_with_bytes_alone(text):
    tok = Tokenizer(bytes_only())
    ids = tok.encode(text)
    assert ids == list(text.encode("utf-8"))
    assert tok.decode(ids) == text


def test_the_round_trip_holds_on_every_case_string():
    tok = trained()
    assert [s for s in strings() if tok.decode(tok.encode(s)) != s] == []


def test_a_lone_surrogate_is_refused_with_a_message():
    with pytest.raises(ValueError, match="lone surrogate"):
        trained().encode("a\ud800b")


# ---- the same tokens as tiktoken

@pytest.mark.parametrize("vocab_size", [512, 1024, 2048])
def test_the_encoding_equals_tiktokens_on_thousands_of_strings(vocab_size):
    cases = strings()
    assert len(cases) >= 4000
    tok = trained(vocab_size)
    assert tok.vocab_size == vocab_size
    assert differences(tok, cases) == []


@SAME_EXAMPLES
@given(ASSIGNED_TEXT)
def test_the_encoding_equals_tiktokens_on_random_unicode(text):
    tok = trained()
    assert tok.encode(text) == tiktoken_of(tok).encode_ordinary(text)


@SAME_EXAMPLES
@given(st.lists(st.integers(0, 1023), max_size=30))
def test_decoding_equals_tiktokens_also_for_parts_of_characters(ids):
    """A token may hold part of a character (one byte of a Hangul syllable's three): both give
    U+FFFD for the same bytes."""
    tok = trained()
    assert tok.decode(ids) == tiktoken_of(tok).decode(ids)


# GPT-2's encoder.py, as tiktoken's openai_public.py quotes it above its faster r50k_base pattern
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?[\p{L}]+| ?[\p{N}]+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def test_the_pattern_splits_as_gpt2s():
    """Written with \\p{White_Space} for \\s (for JavaScript's sake), the split is GPT-2's,
    since the regex package's \\s is that same set."""
    assert [s for s in strings() if pre_tokenise(s) != regex.findall(GPT2_PATTERN, s)] == []


@SAME_EXAMPLES
@given(TEXT)
def test_the_pattern_splits_as_gpt2s_on_any_text(text):
    assert pre_tokenise(text) == regex.findall(GPT2_PATTERN, text)


# ---- training, worked by hand

def test_training_follows_the_worked_example_of_byte_pair_encoding():
    """The example of the Wikipedia article "Byte pair encoding": in aaabdaaabac, aa is the most
    frequent pair (4 times, counting the overlaps in aaa); then ab and aa+a tie at 2 and the tie
    goes to the pair of lower ranks, (a, b); then aa+ab. The text becomes X d X a c."""
    tok = Tokenizer.train("aaabdaaabac", vocab_size=N_BYTES + 3)
    assert tok.vocab[N_BYTES:] == [b"aa", b"ab", b"aaab"]
    assert tok.encode("aaabdaaabac") == [258, ord("d"), 258, ord("a"), ord("c")]


def test_training_counts_each_pre_token_as_often_as_it_occurs():
    """Sennrich et al.'s (2016) dictionary low ×5, lower ×2, newest ×6, widest ×3, as text. The
    pre-tokens (with their spaces) are counted by hand: es and st 9 times each (newest, widest),
    we 8, lo and ow 7, ' l' 6 ... Merging es removes newest's we; est follows (9); lo and ow tie at
    7 (lo has the lower ranks), then low; then five pairs tie at 6 and ' n' has the lowest ranks.
    A trainer that counted each distinct pre-token once would start with lo or ow (3 each)."""
    text = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3
    assert Tokenizer.train(text, N_BYTES + 5).vocab[N_BYTES:] == [b"es", b"est", b"lo", b"low", b" n"]


def counting_again(text: str, vocab_size: int) -> list[bytes]:
    """The slow way: after every merge, count every pair of every pre-token again."""
    words = Counter(tuple(w.encode("utf-8")) for w in pre_tokenise(text))
    vocab = bytes_only()
    while len(vocab) < vocab_size:
        pairs = Counter()
        for word, n in words.items():
            for pair in zip(word, word[1:]):
                pairs[pair] += n
        if not pairs:
            break
        best = min(pairs, key=lambda p: (-pairs[p], p))
        vocab.append(vocab[best[0]] + vocab[best[1]])
        merged = Counter()
        for word, n in words.items():
            merged[tuple(merge(list(word), best, len(vocab) - 1))] += n
        words = merged
    return vocab


@pytest.mark.parametrize("lang", corpus.LANGS)
def test_the_kept_up_counts_equal_counting_every_pair_again(lang):
    text = corpus.text(lang, "train")[:12000]
    assert Tokenizer.train(text, 420).vocab == counting_again(text, 420)


def test_training_stops_when_no_pair_is_left():
    tok = Tokenizer.train("ab ab", 1000)
    assert tok.vocab[N_BYTES:] == [b"ab", b" ab"] and tok.vocab_size == N_BYTES + 2


# ---- the merge order, and a deliberately broken one

# bytes, then bc (rank 256), ab (257), cd (258): learnt in that order
HAND = bytes_only() + [b"bc", b"ab", b"cd"]
HAND_CASES = {"abc": [ord("a"), 256], "abcd": [ord("a"), 256, ord("d")], "bcd": [256, ord("d")],
              "ab": [257], "abab": [257, 257], "cdab": [258, 257], "ab bc": [257, ord(" "), 256],
              "xyz": [ord("x"), ord("y"), ord("z")]}


class LatestFirst(Tokenizer):
    """Broken on purpose: merges the pair learnt last first."""

    def encode_piece(self, piece: bytes) -> list[int]:
        parts = [piece[i:i + 1] for i in range(len(piece))]
        while True:
            found = [(self.ranks[parts[i] + parts[i + 1]], i) for i in range(len(parts) - 1)
                     if parts[i] + parts[i + 1] in self.ranks]
            if not found:
                return [self.ranks[p] for p in parts]
            _, i = max(found)
            parts[i:i + 2] = [parts[i] + parts[i + 1]]


def test_encoding_merges_the_pair_learnt_first():
    """Worked by hand: "abcd" is a, b, c, d with the pairs ab (257), bc (256), cd (258); bc was
    learnt first, so a, bc, d, and neither a+bc nor bc+d is a token. The same tokens learnt in
    the order ab, bc, cd give ab, cd instead."""
    tok = Tokenizer(HAND)
    assert {text: tok.encode(text) for text in HAND_CASES} == HAND_CASES
    other_order = Tokenizer(bytes_only() + [b"ab", b"bc", b"cd"])
    assert other_order.encode("abcd") == [256, 258]


def test_the_checks_catch_a_broken_merge_order():
    """LatestFirst gives ab, c for "abc" and a, b, cd → ab, cd for "abcd": the hand-worked cases
    fail, and on the corpus it differs from tiktoken on most lines."""
    broken = LatestFirst(HAND)
    wrong = {text for text in HAND_CASES if broken.encode(text) != HAND_CASES[text]}
    assert {"abc", "abcd", "bcd"} <= wrong
    broken_trained = LatestFirst(trained().vocab)
    lines = corpus_lines()[:300]
    assert len(differences(broken_trained, lines)) > len(lines) // 2
    assert differences(trained(), lines) == []


def test_a_whole_pre_token_that_is_a_token_is_one_token():
    """As in tiktoken: " abc" is in the vocabulary, so it is one token, although merging pairs
    alone would stop at " ", "a", "bc" (no token joins " " and "a", or "a" and "bc")."""
    tok = Tokenizer(HAND + [b" abc"])
    assert tok.encode(" abc") == [len(HAND)]
    assert tok.encode_piece(b" abcd") == [ord(" "), ord("a"), 256, ord("d")]
    assert tok.encode(" abc") == tiktoken_of(tok).encode_ordinary(" abc")


# ---- saving, loading, and bad input

def test_save_and_load_give_the_same_tokenizer(tmp_path):
    tok = trained()
    path = tmp_path / "ranks.json"
    tok.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert sorted(data) == ["pattern", "tokens"] and data["pattern"] == SPLIT_PATTERN
    assert len(data["tokens"]) == tok.vocab_size
    again = Tokenizer.load(path)
    assert again.vocab == tok.vocab and again.pattern == tok.pattern
    sample = corpus_lines()[:200]
    assert [again.encode(s) for s in sample] == [tok.encode(s) for s in sample]


def test_bad_input_is_refused_with_a_message():
    with pytest.raises(ValueError, match="at least 256"):
        Tokenizer.train("text", 100)
    with pytest.raises(ValueError, match=r"0\.\.1023"):
        trained().decode([1, 5000])
    with pytest.raises(ValueError, match="bytes 0-255"):
        Tokenizer(bytes_only()[1:])
    with pytest.raises(ValueError, match="twice"):
        Tokenizer(bytes_only() + [b"ab", b"ab"])
    with pytest.raises(ValueError, match="empty"):
        tokens_per_character(trained(), "")


def test_tokens_per_character_counts_code_points():
    tok = Tokenizer(bytes_only())
    assert tokens_per_character(tok, "가a") == 2.0    # 3 bytes + 1 byte over 2 characters
    tok = trained()
    assert tok.token_texts("attention") and "".join(tok.token_texts("attention")) == "attention"
