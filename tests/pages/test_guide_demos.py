"""The instructor guide's demonstration tips name the widgets' controls as the widgets label them.

A tip says which button to press, which switch to turn, which box to read ("'L/2와 비교한 항목 수'가
4배", "press \"Next token\""). Each such quoted name must be a string of a widget script
(``docs/assets/javascripts/widgets/*.js``, where the labels of both languages live) or a word of a
lesson page (the example sentences the widgets start from). A label renamed in a widget and left
in the guide fails here, naming the tip. Source files only: no build needed.
"""

import re

import pytest

from coursebuild.paths import DOCS

WIDGETS = DOCS / "assets" / "javascripts" / "widgets"
GUIDE = {lang: DOCS / lang / "teaching" / "instructor-guide.md" for lang in ("ko", "en")}

# a quoted name followed by what a reader does with a control, or by what a control shows
QUOTED = {
    "ko": [re.compile(r"'([^'\n]{1,40})'"),  # the Korean guide puts labels and words in '…'
           re.compile(r"[\"“]([^\"”\n]{1,40})[\"”](?:을|를|에서|으로|로|가|이)?\s*"
                      r"(?:눌러|누르|켜|끄|고르|골라|선택|바꿔|바꾸|단추|버튼|상자|읽)")],
    "en": [re.compile(r"(?:[Pp]ress|[Ss]witch|[Cc]hoose|[Pp]ick|[Ss]elect|[Cc]lick|[Tt]ab to the|[Rr]aise|[Ss]et)"
                      r"\s+(?:the\s+)?(?:word\s+)?\"([^\"\n]{1,40})\""),
           re.compile(r"\"([^\"\n]{1,40})\"\s+(?:says|shows|reads|gives|column|button|switch|box|slider)\b")],
}


def demo_tips(lang: str) -> str:
    text = GUIDE[lang].read_text(encoding="utf-8")
    return text[text.index("{ #per-lesson }"): text.index("{ #misconceptions }")]


def known_strings(lang: str) -> str:
    scripts = "\n".join(p.read_text(encoding="utf-8") for p in sorted(WIDGETS.glob("*.js")))
    lessons = "\n".join(p.read_text(encoding="utf-8") for p in sorted((DOCS / lang / "lessons").glob("*.md")))
    return scripts + "\n" + lessons


def quoted_names(lang: str, text: str) -> list[tuple[int, str]]:
    names = []
    for pattern in QUOTED[lang]:
        for m in pattern.finditer(text):
            names.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    return names


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_demo_tips_name_controls_as_the_widgets_do(lang):
    known = known_strings(lang)
    names = quoted_names(lang, demo_tips(lang))
    assert len(names) >= 15, f"found only {len(names)} quoted control names; did the tips' quoting change?"
    missing = [f"per-lesson section, line {line}: «{name}»" for line, name in names if name not in known]
    assert not missing, ("the guide names controls no widget has (rename them as the widget's LABELS do):\n"
                         + "\n".join(missing))


def test_the_check_finds_a_renamed_label():
    """Lines the guide once had, with a label the widget had already renamed."""
    old = {"ko": "32,768로 바꿔 4 GiB를 읽고, 'N/2와 비교'가 4배라는 것을 확인합니다.",
           "en": 'change the length to 32,768 and read 4 GiB; "against N/2" says 4×.'}
    for lang, line in old.items():
        names = [name for _, name in quoted_names(lang, line)]
        assert names and not all(name in known_strings(lang) for name in names), (lang, names)
