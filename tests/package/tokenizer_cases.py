"""The strings the tokenizer is checked on, shared by the Python tests (against tiktoken) and the
Node test (the page's tokenizer.js against the Python one), so both see the same thousands.

* every paragraph of the corpus, both languages, training and validation (about 2,000 lines);
* RANDOM_COUNT seeded random strings mixing Hangul syllables, conjoining jamo (U+1100-U+11FF),
  emoji (single, with skin tones, joined by U+200D, flags), white space and near-white space
  on which regular-expression engines disagree about "\\s" (U+001C-U+001F, U+0085, U+00A0,
  U+2028, U+3000, U+FEFF, U+200B), apostrophes before contractions, ASCII, any code point.

The random strings hold only characters assigned in Python 3.11's Unicode database (14.0): the
three regular-expression engines (Python's ``regex``, the Rust regex inside tiktoken, the
JavaScript engine) each carry their own Unicode version, and a character assigned after 14.0 is
a letter to one and unassigned to another, so they may split it differently. That is a
difference of Unicode tables, not of the tokenizer; the round trip is checked on every code point.
"""

from __future__ import annotations

import random
import unicodedata
from functools import lru_cache

from tutorial_code.writing import corpus
from tutorial_code.writing.tokenizer import Tokenizer

VOCAB_SIZE = 1024
RANDOM_COUNT = 3000
SEED = 2017
SPACES = "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u200b"
EMOJI = ["😀", "👍🏽", "👨\u200d👩\u200d👧\u200d👦", "🇰🇷", "🇬🇧", "❤\ufe0f", "🧑\u200d💻", "1\ufe0f\u20e3", "🫠"]
WORDS = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", " the", " attention", " 어텐션", "트랜스포머",
         "\u1112\u1161\u11ab", "\u1100\u1161", "e\u0301", "ﬁ", "١٢٣", "²", "Ⅻ", "<|endoftext|>"]


def assigned(ch: str) -> bool:
    """Whether ``ch`` is assigned in Unicode 14.0 (and is not a surrogate, which UTF-8 cannot hold)."""
    return unicodedata.category(ch) not in ("Cn", "Cs")


def random_string(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(0, 24)):
        kind = rng.random()
        if kind < 0.25:
            parts.append(chr(rng.randint(0xAC00, 0xD7A3)))                 # Hangul syllables
        elif kind < 0.35:
            parts.append(chr(rng.randint(0x1100, 0x11FF)))                 # conjoining jamo
        elif kind < 0.45:
            parts.append(rng.choice(SPACES) * rng.randint(1, 3))
        elif kind < 0.52:
            parts.append(rng.choice(EMOJI))
        elif kind < 0.58:
            parts.append(rng.choice(WORDS))
        elif kind < 0.80:
            parts.append(chr(rng.randint(0x20, 0x7E)))                     # ASCII
        else:
            while not assigned(ch := chr(rng.randint(0, 0x10FFFF))):       # any code point
                pass
            parts.append(ch)
    return "".join(parts)


@lru_cache(maxsize=1)
def corpus_lines() -> tuple[str, ...]:
    return tuple(line for lang in corpus.LANGS for part in ("train", "validation")
                 for line in corpus.text(lang, part).split("\n") if line)


@lru_cache(maxsize=1)
def strings() -> tuple[str, ...]:
    """The corpus's lines, then the random strings (see the module)."""
    rng = random.Random(SEED)
    return corpus_lines() + tuple(random_string(rng) for _ in range(RANDOM_COUNT))


@lru_cache(maxsize=4)
def trained(vocab_size: int = VOCAB_SIZE) -> Tokenizer:
    """The tokenizer trained on both languages' training text."""
    return Tokenizer.train(corpus.text("ko", "train") + "\n\n" + corpus.text("en", "train"), vocab_size)
