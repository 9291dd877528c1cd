"""A tiny Korean–English grammar: word lists, the particle rule, sentence pairs and tokens.

Korean is subject–object–verb with case particles (이/가 marks the subject, 을/를 the object;
which form depends on whether the noun ends in a consonant); English is subject–verb–object.
Used by the ``translation`` experiment (lessons 1 and 8).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import torch
# ---------------------------------------------------------------- the grammar

ANIMATE, FOOD, THING = "animate", "food", "thing"
ALL = (ANIMATE, FOOD, THING)

# (korean, english, kind); subjects are the animate nouns, objects any noun a verb allows
NOUNS = (
    ("초파리", "fly", ANIMATE), ("고양이", "cat", ANIMATE), ("강아지", "puppy", ANIMATE),
    ("곰", "bear", ANIMATE), ("토끼", "rabbit", ANIMATE), ("원숭이", "monkey", ANIMATE),
    ("여우", "fox", ANIMATE), ("호랑이", "tiger", ANIMATE), ("소년", "boy", ANIMATE),
    ("소녀", "girl", ANIMATE), ("학생", "student", ANIMATE), ("선생님", "teacher", ANIMATE),
    ("아기", "baby", ANIMATE), ("농부", "farmer", ANIMATE), ("왕", "king", ANIMATE),
    ("뱀", "snake", ANIMATE),
    ("사과", "apple", FOOD), ("빵", "bread", FOOD), ("바나나", "banana", FOOD),
    ("포도", "grape", FOOD), ("케이크", "cake", FOOD), ("치즈", "cheese", FOOD),
    ("당근", "carrot", FOOD), ("수박", "watermelon", FOOD), ("딸기", "strawberry", FOOD),
    ("감자", "potato", FOOD), ("달걀", "egg", FOOD), ("귤", "tangerine", FOOD),
    ("책", "book", THING), ("공", "ball", THING), ("편지", "letter", THING),
    ("모자", "hat", THING), ("가방", "bag", THING), ("우산", "umbrella", THING),
    ("연필", "pencil", THING), ("의자", "chair", THING), ("시계", "clock", THING),
    ("상자", "box", THING), ("꽃", "flower", THING), ("인형", "doll", THING),
)
# (korean past tense, english past tense, kinds of object it takes)
VERBS = (
    ("먹었다", "ate", (FOOD,)), ("보았다", "saw", ALL), ("좋아했다", "liked", ALL),
    ("찾았다", "found", ALL), ("그렸다", "drew", ALL), ("씻었다", "washed", ALL),
    ("샀다", "bought", (FOOD, THING)), ("만들었다", "made", (FOOD, THING)),
    ("던졌다", "threw", (FOOD, THING)), ("숨겼다", "hid", (FOOD, THING)),
    ("떨어뜨렸다", "dropped", (FOOD, THING)), ("팔았다", "sold", (FOOD, THING)),
    ("옮겼다", "carried", (FOOD, THING)), ("잘랐다", "cut", (FOOD,)),
    ("잡았다", "caught", (ANIMATE, THING)), ("안았다", "hugged", (ANIMATE, THING)),
    ("밀었다", "pushed", (ANIMATE, THING)), ("쫓았다", "chased", (ANIMATE,)),
    ("도왔다", "helped", (ANIMATE,)), ("깨웠다", "woke", (ANIMATE,)),
)
# (korean attributive form, english, kinds of noun it describes); 늙은/낡은 both become "old"
ADJECTIVES = (
    ("큰", "big", ALL), ("작은", "small", ALL), ("하얀", "white", (FOOD, THING)),
    ("검은", "black", (FOOD, THING)), ("빨간", "red", (FOOD, THING)), ("배고픈", "hungry", (ANIMATE,)), ("귀여운", "cute", (ANIMATE,)),
    ("맛있는", "delicious", (FOOD,)), ("새", "new", (THING,)),
    ("늙은", "old", (ANIMATE,)), ("낡은", "old", (THING,)),
)
ADVERBS = (("어제", "yesterday"), ("오늘", "today"))  # first in Korean, last in English
EXAMPLE = ("초파리", "사과", "먹었다")  # the lessons' sentence: 초파리가 사과를 먹었다

HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3  # 가 … 힣, the 11,172 precomposed syllables


def has_batchim(word: str) -> bool:
    """Does the last syllable end in a consonant (받침)?

    A precomposed syllable's code is 0xAC00 + (initial × 21 + vowel) × 28 + final, with
    final = 0 for "no final consonant" (Unicode §3.12).
    """
    code = ord(word[-1]) if word else 0
    if not HANGUL_FIRST <= code <= HANGUL_LAST:
        raise ValueError(f"{word!r} does not end in a Hangul syllable")
    return (code - HANGUL_FIRST) % 28 != 0


def subject_form(noun: str) -> str:
    """Noun + subject particle: 이 after a final consonant (곰이), 가 after a vowel (초파리가)."""
    return noun + ("이" if has_batchim(noun) else "가")


def object_form(noun: str) -> str:
    """Noun + object particle: 을 after a final consonant (빵을), 를 after a vowel (사과를)."""
    return noun + ("을" if has_batchim(noun) else "를")


@dataclass(frozen=True)
class Sentence:
    """One sentence pair, as indices into the tables above (None = slot left empty)."""

    subj: int
    obj: int
    verb: int
    subj_adj: int | None = None
    obj_adj: int | None = None
    adverb: int | None = None
    scrambled: bool = False  # Korean object phrase first (OSV); particles keep the meaning

    def pairs(self) -> list[tuple[str, str, int]]:
        """Korean words in Korean order, each with its English word and English slot.

        English slots: 0 the, 1 adjective, 2 subject, 3 verb, 4 the, 5 adjective, 6 object,
        7 adverb; Korean order: adverb, subject phrase, object phrase, verb (OSV if scrambled).
        """
        def phrase(noun, adj, form, slot):
            words = [] if adj is None else [(ADJECTIVES[adj][0], ADJECTIVES[adj][1], slot)]
            return words + [(form(NOUNS[noun][0]), NOUNS[noun][1], slot + 1)]

        subj = phrase(self.subj, self.subj_adj, subject_form, 1)
        obj = phrase(self.obj, self.obj_adj, object_form, 5)
        front = [] if self.adverb is None else [(*ADVERBS[self.adverb], 7)]
        verb = [(VERBS[self.verb][0], VERBS[self.verb][1], 3)]
        return front + (obj + subj if self.scrambled else subj + obj) + verb

    def korean(self) -> list[str]:
        return [ko for ko, _, _ in self.pairs()]

    def english(self) -> list[str]:
        """English words in subject–verb–object order ('the' has no Korean counterpart)."""
        return [en for en, _ in self.english_aligned()]

    def english_aligned(self) -> list[tuple[str, int | None]]:
        """English words, each with the index of the Korean word it translates (None for 'the')."""
        slots = {slot: (en, i) for i, (_, en, slot) in enumerate(self.pairs())}
        out = []
        for slot in range(8):
            if slot in (0, 4):
                out.append(("the", None))
            elif slot in slots:
                out.append(slots[slot])
        return out

    @property
    def pattern(self) -> str:
        """The most specific of 'scrambled' > 'adverb' > 'adjective' > 'plain'."""
        if self.scrambled:
            return "scrambled"
        if self.adverb is not None:
            return "adverb"
        if self.subj_adj is not None or self.obj_adj is not None:
            return "adjective"
        return "plain"


def triples() -> list[tuple[int, int, int]]:
    """Every (subject, object, verb) the grammar allows: animate subject, object ≠ subject."""
    return [(s, o, v) for s, (_, _, s_kind) in enumerate(NOUNS) if s_kind == ANIMATE
            for o, (_, _, o_kind) in enumerate(NOUNS) if o != s
            for v, (_, _, takes) in enumerate(VERBS) if o_kind in takes]


def example_triple() -> tuple[int, int, int]:
    s, o, v = EXAMPLE
    index = {ko: i for i, (ko, _, _) in enumerate(NOUNS)}
    return index[s], index[o], [ko for ko, _, _ in VERBS].index(v)


def split_triples(test_frac: float, seed: int) -> tuple[list, list]:
    """Hold out a fraction of the (subject, object, verb) combinations; the example is held out."""
    rng = random.Random(seed)
    every = triples()
    rng.shuffle(every)
    n_test = max(1, round(test_frac * len(every)))
    test, train = every[:n_test], every[n_test:]
    ex = example_triple()
    if ex in train:  # keep the lessons' sentence out of training
        train.remove(ex)
        test.append(ex)
    return train, test


def realise(triple, rng: random.Random, p_adj: float, p_adverb: float, p_scramble: float) -> Sentence:
    """Dress a bare triple with optional adjectives, a time adverb and object-first order."""
    s, o, v = triple

    def adjective(noun):
        if rng.random() >= p_adj:
            return None
        kind = NOUNS[noun][2]
        return rng.choice([i for i, (_, _, kinds) in enumerate(ADJECTIVES) if kind in kinds])

    return Sentence(s, o, v, adjective(s), adjective(o),
                    rng.randrange(len(ADVERBS)) if rng.random() < p_adverb else None,
                    rng.random() < p_scramble)


# ---------------------------------------------------------------- tokens

SPECIALS = ("<pad>", "<s>", "</s>")
PAD, BOS, EOS = 0, 1, 2


def vocabulary() -> list[str]:
    """One shared list of tokens: specials, then every Korean word, then every English word."""
    ko = ([subject_form(n) for n, _, _ in NOUNS] + [object_form(n) for n, _, _ in NOUNS]
          + [a for a, _, _ in ADJECTIVES] + [a for a, _ in ADVERBS] + [v for v, _, _ in VERBS])
    en = (["the"] + [n for _, n, _ in NOUNS] + [a for _, a, _ in ADJECTIVES]
          + [a for _, a in ADVERBS] + [v for _, v, _ in VERBS])
    return list(dict.fromkeys(list(SPECIALS) + ko + en))  # "old" appears twice in ADJECTIVES


def encode(sentences: list[Sentence], index: dict[str, int]) -> tuple[torch.Tensor, torch.Tensor]:
    """Sentences → source ids (N, L_s) and target ids [BOS, …, EOS] (N, L_t), right-padded."""
    src = [[index[w] for w in s.korean()] for s in sentences]
    tgt = [[BOS] + [index[w] for w in s.english()] + [EOS] for s in sentences]

    def pad(rows):
        width = max(len(r) for r in rows)
        return torch.tensor([r + [PAD] * (width - len(r)) for r in rows])

    return pad(src), pad(tgt)


def trim(x: torch.Tensor) -> torch.Tensor:
    """Drop the padding columns that every row of the batch has at its end."""
    width = int((x != PAD).sum(1).max())
    return x[:, :width]
