"""Small counts written as words, as a person writes them in a sentence ("nine lessons",
"아홉 강의", "세 번"): one to ten as words, larger counts as digits.

Korean uses the native numbers in their form before a noun (한, 두, 세, 네, …, 열), which is
how 강의, 번 and 시연 are counted.
"""

from __future__ import annotations

KO = ("한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열")
EN = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def count_word(n: int, lang: str) -> str:
    """``n`` as it is written before a counted noun in ``lang`` (``ko`` or ``en``)."""
    if lang not in ("ko", "en"):
        raise ValueError(f"no count words for language {lang!r}; ko or en")
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"a count is a whole number from 1, not {n!r}")
    words = KO if lang == "ko" else EN
    return words[n - 1] if n <= len(words) else str(n)
