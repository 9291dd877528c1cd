"""A byte-level BPE tokenizer, as GPT-2 has: train it on text, then encode and decode.

The model reads numbers, not text, so text is cut into tokens, each a number. This file does it
the way GPT-2 does (Radford et al., 2019, section 2.2, after the byte pair encoding of
Sennrich et al., 2016), in four steps, in the order they come below:

1. **split**: a regular expression cuts the text into pre-tokens (a word with the space before
   it, a run of digits, a run of punctuation, a run of white space); a token never crosses the
   edge of a pre-token, so " the" and "the." never share one.
2. **bytes**: each pre-token is its UTF-8 bytes. The 256 byte values are the first 256 tokens,
   so every string (Hangul, emoji, any script) can be encoded and nothing is "unknown". A Hangul
   syllable is 3 bytes, an English letter 1.
3. **train**: count every pair of adjacent tokens in the training text, make the most frequent
   pair one new token, and repeat until there are ``vocab_size`` tokens. A token's number is
   its **rank**: 0-255 the bytes, then the merged tokens in the order they were learnt.
4. **encode / decode**: within each pre-token, repeatedly merge the adjacent pair whose joined
   bytes have the lowest rank (were learnt first) until no pair joins into a token; decoding
   joins the tokens' bytes and reads them as UTF-8.

The ranks (token bytes -> rank) are what OpenAI's ``tiktoken`` calls ``mergeable_ranks``:
``tiktoken.Encoding("x", pat_str=tok.pattern, mergeable_ranks=tok.ranks, special_tokens={})``
encodes as :meth:`Tokenizer.encode` does (a test checks it on thousands of strings), and the
page's ``tokenizer.js`` reads the same ranks from the file :meth:`Tokenizer.save` writes.
Needs the ``regex`` package (for ``\\p{L}``, "any letter"), nothing else outside the standard
library.
"""

from __future__ import annotations

import base64
import heapq
import json
from collections import Counter, defaultdict
from pathlib import Path

import regex

# GPT-2's split (its encoder.py), with \s written \p{White_Space}: JavaScript's \s leaves out
# U+0085 and takes in U+FEFF (Python's re takes in U+001C-U+001F), while the Unicode property is
# one set in the regex package, in the Rust regex inside tiktoken and in JavaScript.
SPLIT_PATTERN = (r"""'s|'t|'re|'ve|'m|'ll|'d"""           # English contractions
                 r"""| ?\p{L}+| ?\p{N}+"""                # a word, a run of digits (with a space before)
                 r"""| ?[^\p{White_Space}\p{L}\p{N}]+"""  # a run of anything else: punctuation, emoji
                 r"""|\p{White_Space}+(?!\P{White_Space})|\p{White_Space}+""")  # white space
N_BYTES = 256


# --- 1. split ----------------------------------------------------------------------------

def pre_tokenise(text: str, pattern: str = SPLIT_PATTERN) -> list[str]:
    """The pre-tokens of ``text``, in order; joined they give ``text`` back.

    >>> pre_tokenise("Hello, world! 안녕하세요")
    ['Hello', ',', ' world', '!', ' 안녕하세요']
    """
    return regex.findall(pattern, text)


# --- 2. and 3. bytes, then merges learnt by counting pairs ---------------------------------

def merge(ids: list[int], pair: tuple[int, int], new: int) -> list[int]:
    """``ids`` with every occurrence of ``pair``, left to right, replaced by ``new``."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def learn_merges(text: str, vocab_size: int, pattern: str = SPLIT_PATTERN) -> list[bytes]:
    """The vocabulary byte-level BPE learns from ``text``: a list whose entry ``r`` is the bytes
    of the token of rank ``r`` (256 bytes, then ``vocab_size - 256`` merges, fewer if the text
    runs out of pairs).

    Each merge takes the most frequent adjacent pair (on a tie the pair of lowest ranks). Counting
    all pairs again after every merge would be slow, so the counts are kept up to date instead:
    each distinct pre-token is held once with its frequency, and a merge recounts only the
    pre-tokens that hold the merged pair."""
    if vocab_size < N_BYTES:
        raise ValueError(f"vocab_size must be at least {N_BYTES} (one token per byte), got {vocab_size}")
    frequency = Counter(pre_tokenise(text, pattern))        # distinct pre-token -> how often
    words = [list(w.encode("utf-8")) for w in frequency]     # each as its byte tokens
    counts = list(frequency.values())
    pairs: Counter[tuple[int, int]] = Counter()             # adjacent pair -> how often in the text
    holders: defaultdict[tuple[int, int], set[int]] = defaultdict(set)   # pair -> words that hold it
    for w, ids in enumerate(words):
        for pair in zip(ids, ids[1:]):
            pairs[pair] += counts[w]
            holders[pair].add(w)
    # the most frequent pair, found with a heap of (-count, pair); an entry whose count is out of
    # date is dropped when it comes to the top
    heap = [(-n, pair) for pair, n in pairs.items()]
    heapq.heapify(heap)
    vocab = [bytes([b]) for b in range(N_BYTES)]
    while len(vocab) < vocab_size and heap:
        n, best = heapq.heappop(heap)
        if pairs.get(best, 0) != -n:
            continue                                         # out of date
        new = len(vocab)
        vocab.append(vocab[best[0]] + vocab[best[1]])
        changed = set()
        for w in holders.pop(best):
            for pair in zip(words[w], words[w][1:]):         # take the word's pairs out ...
                pairs[pair] -= counts[w]
                changed.add(pair)
            words[w] = merge(words[w], best, new)
            for pair in zip(words[w], words[w][1:]):         # ... and put the merged word's back
                pairs[pair] += counts[w]
                holders[pair].add(w)
                changed.add(pair)
        for pair in changed:
            if pairs[pair] > 0:
                heapq.heappush(heap, (-pairs[pair], pair))
            else:
                del pairs[pair]
    return vocab


# --- 4. encode and decode ------------------------------------------------------------------

class Tokenizer:
    """Byte-level BPE: ``vocab[r]`` is the bytes of the token of rank (id) ``r``.

    >>> tok = Tokenizer.train("low lower lowest " * 50, vocab_size=260)
    >>> tok.decode(tok.encode("lowest")) == "lowest"
    True
    """

    def __init__(self, vocab: list[bytes], pattern: str = SPLIT_PATTERN):
        if vocab[:N_BYTES] != [bytes([b]) for b in range(N_BYTES)]:
            raise ValueError("the first 256 tokens must be the bytes 0-255, in order")
        self.vocab = list(vocab)
        self.pattern = pattern
        self.ranks = {token: rank for rank, token in enumerate(self.vocab)}   # bytes -> rank
        if len(self.ranks) != len(self.vocab):
            raise ValueError("a token appears twice in the vocabulary")
        self._cache: dict[str, list[int]] = {}

    @classmethod
    def train(cls, text: str, vocab_size: int, pattern: str = SPLIT_PATTERN) -> Tokenizer:
        """A tokenizer of ``vocab_size`` tokens learnt from ``text`` (see :func:`learn_merges`)."""
        return cls(learn_merges(text, vocab_size, pattern), pattern)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def encode_piece(self, piece: bytes) -> list[int]:
        """The tokens of one pre-token's bytes: merge the adjacent pair whose joined bytes have
        the lowest rank (on a tie the leftmost) until no adjacent pair joins into a token."""
        if piece in self.ranks:             # a whole pre-token that is a token (tiktoken does the same)
            return [self.ranks[piece]]
        parts = [piece[i:i + 1] for i in range(len(piece))]
        while len(parts) > 1:
            rank, i = min((self.ranks.get(parts[i] + parts[i + 1], len(self.vocab)), i)
                          for i in range(len(parts) - 1))
            if rank == len(self.vocab):     # no adjacent pair is a token
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        return [self.ranks[part] for part in parts]

    def encode(self, text: str) -> list[int]:
        """``text`` as token ids: split, then each pre-token's bytes merged (:meth:`encode_piece`).
        A lone surrogate (half of a UTF-16 pair) has no UTF-8 bytes and raises ``ValueError``."""
        ids = []
        for piece in pre_tokenise(text, self.pattern):
            if piece not in self._cache:    # a frequent word is merged once
                try:
                    data = piece.encode("utf-8")
                except UnicodeEncodeError as e:
                    raise ValueError(f"cannot encode {piece!r}: {e.reason} (a lone surrogate "
                                     "has no UTF-8 bytes)") from None
                self._cache[piece] = self.encode_piece(data)
            ids.extend(self._cache[piece])
        return ids

    def decode_bytes(self, ids: list[int]) -> bytes:
        """The bytes of the tokens ``ids``, joined."""
        bad = [i for i in ids if not 0 <= i < len(self.vocab)]
        if bad:
            raise ValueError(f"token ids must be in 0..{len(self.vocab) - 1}, got {bad[:5]}")
        return b"".join(self.vocab[i] for i in ids)

    def decode(self, ids: list[int]) -> str:
        """The text of the tokens ``ids``. A token may hold part of a character (one of a Hangul
        syllable's 3 bytes); bytes that are not whole UTF-8 characters become U+FFFD, as in
        tiktoken, so ``decode`` of any ids is a string, and ``decode(encode(s)) == s``."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")

    def token_texts(self, text: str) -> list[str]:
        """How ``text`` is split: each token's text (part of a character shows as U+FFFD)."""
        return [self.decode([i]) for i in self.encode(text)]

    # --- the ranks on disk: JSON that the page's tokenizer.js reads too

    def to_json(self) -> dict:
        """``{"pattern": ..., "tokens": [...]}``, the tokens' bytes in base64, in rank order."""
        return {"pattern": self.pattern,
                "tokens": [base64.b64encode(token).decode("ascii") for token in self.vocab]}

    @classmethod
    def from_json(cls, data: dict) -> Tokenizer:
        return cls([base64.b64decode(token) for token in data["tokens"]], data["pattern"])

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Tokenizer:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


def tokens_per_character(tokenizer: Tokenizer, text: str) -> float:
    """How many tokens ``tokenizer`` spends on one character of ``text`` (characters as Python
    counts them: code points)."""
    if not text:
        raise ValueError("the text is empty")
    return len(tokenizer.encode(text)) / len(text)
