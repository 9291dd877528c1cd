"""Korean particles after generated numbers: 5.657이, 0.576으로, 20으로, 1.0000을, 22.63과.

A particle after a number agrees with how the number is *read*, not how it is written: the
last syllable of its Korean reading decides. Digits read 영 일 이 삼 사 오 육 칠 팔 구; whole
tens, hundreds, thousands and ten-thousands end in 십 백 천 만 (억 for 10⁸, 조 for 10¹²); a
decimal is read digit by digit after 점, so its last digit decides; "%" is 퍼센트 and "²" is
제곱. A syllable with a final consonant takes the closed form (이, 을, 은, 과, 으로, 이었); one
without takes the open form (가, 를, 는, 와, 로, 였); ㄹ takes the open 로 but the closed
form of every other particle (일이, 칠을, 팔로).
"""

from __future__ import annotations

import re

# particle: (after a final consonant, after a vowel); "으로" is special for ㄹ
PAIRS = {"이": ("이", "가"), "가": ("이", "가"), "을": ("을", "를"), "를": ("을", "를"),
         "은": ("은", "는"), "는": ("은", "는"), "과": ("과", "와"), "와": ("과", "와"),
         "으로": ("으로", "로"), "로": ("으로", "로"), "이었": ("이었", "였"), "였": ("이었", "였"),
         "이다": ("이다", "다"), "다": ("이다", "다")}
DIGITS = "영일이삼사오육칠팔구"
_LARGE = ((10**12, "조"), (10**8, "억"), (10**4, "만"), (1000, "천"), (100, "백"), (10, "십"))
_UNITS = {"%": "트", "²": "곱", "×": "배", "배": "배", "초": "초", "개": "개", "번": "번", "명": "명"}
_NUMBER = re.compile(r"(\d[\d,]*)(?:\.(\d+))?(?:e([+-]?\d+))?\s*(\S*)$")


def last_syllable(text: str) -> str:
    """The last syllable of how ``text`` (a formatted number, maybe with a unit) is read."""
    text = text.strip()
    if text and "\uac00" <= text[-1] <= "\ud7a3":
        return text[-1]  # already Hangul: 3개, 5배
    if text and text[-1] in _UNITS:
        return _UNITS[text[-1]]  # 98.4%: 퍼센트, n²: 제곱, 4×: 배
    m = _NUMBER.search(text)
    if m is None:
        raise ValueError(f"cannot tell how {text!r} is read in Korean; write the particle by hand")
    whole, decimals, exponent, unit = m.groups()
    if unit:
        if unit[-1] in _UNITS:
            return _UNITS[unit[-1]]
        raise ValueError(f"cannot tell how the unit {unit!r} in {text!r} is read in Korean")
    if exponent is not None:  # 1.5e-04: "… 곱하기 십의 마이너스 사 승" — read the exponent's digits
        return _integer(abs(int(exponent)))
    if decimals:
        return DIGITS[int(decimals[-1])]
    return _integer(int(whole.replace(",", "")))


def _integer(n: int) -> str:
    if n % 10:
        return DIGITS[n % 10]
    if n == 0:
        return "영"
    for size, unit in _LARGE:
        if n % size == 0:
            return unit
    raise AssertionError(n)  # every multiple of 10 is caught by 십


def has_final(syllable: str) -> bool:
    return (ord(syllable) - 0xAC00) % 28 != 0


def final_is_rieul(syllable: str) -> bool:
    return (ord(syllable) - 0xAC00) % 28 == 8


def particle(text: str, which: str) -> str:
    """The form of particle ``which`` ("이", "을", "은", "과", "으로", "이었", "이다" or their
    other halves) that follows ``text`` as it is read."""
    return particle_after_syllable(last_syllable(text), which)


def particle_after_syllable(syllable: str, which: str) -> str:
    """The form of particle ``which`` after a word whose reading ends in ``syllable``."""
    if which not in PAIRS:
        raise ValueError(f"unknown particle {which!r}; one of {', '.join(sorted(set(PAIRS)))}")
    closed, open_ = PAIRS[which]
    if closed == "으로" and final_is_rieul(syllable):
        return open_
    return closed if has_final(syllable) else open_


def with_particle(text: str, which: str) -> str:
    """``text`` followed by the right form of ``which``: with_particle("20", "으로") == "20으로"."""
    return text + particle(text, which)
