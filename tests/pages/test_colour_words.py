"""The colours that figure descriptions name are the palette's own words.

A figure marker's description (``[[fig:experiment.name|…]]``) cannot hold a ``[[colour:…]]``
marker, so its colour words are typed. This test holds them to the words of
``plotting.COLOR_NAMES`` (the colours the drawing code uses): a description that says 빨간색 or
"purple", which no figure is drawn in, fails and names the page and the word. And where a
description speaks of outlined cells, the colour it names is the outline's own
(``heatmap.MARK_COLOR``), not another of the palette's.
"""
OUTLINE = {"ko": "테두리", "en": "outline"}

import re
from pathlib import Path

import pytest

from tutorial_code.experiments.drawing.heatmap import MARK_COLOR
from tutorial_code.experiments.drawing.plotting import COLOR_NAMES, COLORS

DOCS = Path(__file__).resolve().parents[2] / "docs"
FIG = re.compile(r"\[\[fig:([\w.]+)\|(.*?)\]\]", re.S)
# hue words a description might use, by language; the palette's names are removed first
HUES = {
    "ko": ["빨간", "빨강", "붉은", "노란", "노랑", "보라", "하늘색", "남색", "녹색", "연두", "갈색", "자주", "주홍", "주황",
           "파란", "파랑", "초록", "분홍", "회색"],
    "en": ["red", "yellow", "purple", "violet", "brown", "cyan", "magenta", "vermillion", "gray", "orange",
           "blue", "green", "pink", "grey"],
}


def palette_words(lang: str) -> list[str]:
    """The palette's names and, in Korean, their stems before 색 (주홍색 → 주홍, as in 주홍 선)."""
    words = {names[lang] for names in COLOR_NAMES.values()}
    if lang == "ko":
        words |= {w.removesuffix("색") for w in words}
    return sorted(words, key=len, reverse=True)  # "red-orange" before "orange"


def foreign_colours(text: str, lang: str) -> list[str]:
    """Hue words in ``text`` that are not the palette's names."""
    for word in palette_words(lang):
        text = re.sub(re.escape(word) if lang == "ko" else rf"\b{re.escape(word)}\b", " ", text, flags=re.I)
    pattern = (lambda h: h) if lang == "ko" else (lambda h: rf"\b{h}\b")
    return [h for h in HUES[lang] if re.search(pattern(h), text, flags=re.I)]


def descriptions(lang: str):
    for page in sorted((DOCS / lang).rglob("*.md")):
        for match in FIG.finditer(page.read_text(encoding="utf-8")):
            yield page.relative_to(DOCS).as_posix(), match.group(1), match.group(2)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_figure_descriptions_name_colours_as_the_palette_does(lang):
    found = list(descriptions(lang))
    assert len(found) > 20, "no figure markers found: has the marker's grammar changed?"
    wrong = [f"{page}: {name}: {words}" for page, name, text in found if (words := foreign_colours(text, lang))]
    assert not wrong, "\n".join(wrong) + "\n(use the words of COLOR_NAMES in plotting.py)"


def outline_colour(lang: str) -> str:
    role = next(k for k, v in COLORS.items() if v == MARK_COLOR)
    return COLOR_NAMES[role][lang]


def named_colours(text: str, lang: str) -> set[str]:
    """The palette's colour names that ``text`` uses (a Korean stem counts: 주홍 테두리)."""
    found, rest = set(), text
    for names in COLOR_NAMES.values():
        word = names[lang]
        forms = [word, word.removesuffix("색")] if lang == "ko" else [word]
        for form in forms:
            pattern = re.escape(form) if lang == "ko" else rf"\b{re.escape(form)}\b"
            if re.search(pattern, rest, flags=re.I):
                found.add(word)
                rest = re.sub(pattern, " ", rest, flags=re.I)
                break
    return found


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_outlined_cells_are_described_in_the_outlines_colour(lang):
    want = outline_colour(lang)
    wrong = [f"{page}: {name}: says {sorted(named)}, the outline is {want}"
             for page, name, text in descriptions(lang) if OUTLINE[lang] in text
             and (named := named_colours(text, lang)) and named != {want}]
    assert not wrong, "\n".join(wrong)


def test_the_outline_check_can_fail():
    assert named_colours("주황 테두리", "ko") == {"주황색"} != {outline_colour("ko")}
    assert named_colours("the red-orange outlines", "en") == {outline_colour("en")}


@pytest.mark.parametrize("lang, text, wrong", [
    ("ko", "빨간색 선은 올라가고 보라색 점은 내려간다", ["빨간", "보라"]),
    ("ko", "주홍색은 Post-LN, 진한 파란 선은 Pre-LN", []),
    ("en", "the purple line and the red one", ["red", "purple"]),
    ("en", "red-orange is Post-LN, blue is Pre-LN", []),
])
def test_the_check_can_fail(lang, text, wrong):
    assert foreign_colours(text, lang) == wrong
