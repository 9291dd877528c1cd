"""The widgets' own sentences (their LABELS and the strings built in code) follow the same rules as
the pages: the glossary's words, one word per concept, L for a length, and Korean particles that do
not depend on a value pasted in front of them.

The pages' mistranslations are refused by the build (scripts/pages_hook.py), but a widget's text is
JavaScript the page hook never reads; these tests read the string literals of every widget file.
"""

import re

import pytest

from coursebuild.content import glossary
from coursebuild.paths import DOCS

WIDGETS = DOCS / "assets" / "javascripts" / "widgets"
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def literals(path) -> list[str]:
    """Every double-quoted string literal of a JavaScript file, comments left out."""
    text = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
    return [m.group(1) for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text)]


def widget_files():
    return [pytest.param(p, id=p.name) for p in sorted(WIDGETS.glob("*.js"))]


# (pattern, what to write instead)
BANNED = {
    "ko": [
        (r"(LayerNorm|층 정규화|정규화)(의)? 위치", "층 정규화를 놓는 자리 (위치는 토큰의 position만)"),
        (r"(문서 )?길이 N\b", "길이는 L (N은 층 수)"),
        (r"(단계|모델)의 가중치를|가중치를 불러|가중치를 남", "파라미터 (가중치는 어텐션 가중치만)"),
        (r"\d(\.\d+)?e[-+]\d+배", "1.3 × 10⁻⁵배"),
        (r"피드포워드 네트워크", "피드포워드 신경망 (용어집)"),
        (r"(설정|토큰), 가중치|가중치가 설정", "파라미터 (모델이 학습하는 수; 가중치는 어텐션 가중치만)"),
        (r"시험 세트", "테스트 시퀀스 (8강이 쓰는 말)"),
        (r"one-cycle", "원사이클 (8강이 쓰는 말)"),
        (r"(웜업 후|처음부터) 일정", "고정 (8강의 '고정 학습률')"),
        # a particle right after a pasted value follows the value's last letter, which the code
        # does not know: attach it to a fixed noun instead (“cake”과 → 번역(“cake”)과)
        (r"^[”’](과|와|이|가|을|를|은|는|으로|로)(\s|$)", "조사를 고정된 낱말 뒤에"),
        (r"^\([^)]*\)(과|와|이|가|을|를|은|는|으로|로)(\s|$)", "조사를 고정된 낱말 뒤에"),
    ],
    "en": [
        (r"\bweights of the step before\b|\bthe model's weights\b|\bLoading the weights\b",
         "parameters (weights are attention weights)"),
        (r"\d(\.\d+)?e[-+]\d+ times", "1.3 × 10⁻⁵ times"),
        (r"\b(document|length) of N\b|\blength N\b", "L is the length"),
        (r"\btokens or weights\b|\bits weights do not\b|\bstarting weights\b", "parameters (weights are attention weights)"),
        (r"[Pp]lace of the LayerNorm", "where the LayerNorm sits (the glossary)"),
        (r"[Hh]eld-out exact match", "exact match on the test sequences (lesson 8's words)"),
        (r"whole number from 1 \(", "a whole number of at least 1"),
    ],
}


@pytest.mark.parametrize("path", widget_files())
def test_widget_texts_use_the_glossarys_words(path):
    strings = literals(path)
    korean = [s for s in strings if HANGUL.search(s)]
    english = [s for s in strings if not HANGUL.search(s)]
    found = [f"«{wrong}» → {right}" for wrong, right in glossary.find_mistranslations("\n".join(korean))]
    for lang, texts in (("ko", korean), ("en", english)):
        for pattern, instead in BANNED[lang]:
            found += [f"«{s}» → {instead}" for s in texts if re.search(pattern, s)]
    assert not found, f"{path.name}:\n" + "\n".join(found)


def test_the_checks_catch_what_they_name(tmp_path):
    """Each banned kind, once in a made-up widget, is found (the tests above can fail)."""
    bad = tmp_path / "bad.js"
    bad.write_text('const LABELS = { ko: { a: "LayerNorm 위치", b: "문서 길이 N (토큰)", '
                   'c: function (w) { return "“" + w + "”과 다릅니다"; }, d: "그 전 단계의 가중치를 남겼습니다", '
                   'e: function (h) { return "길이 " + h + "(L/2)와 비교"; }, f: "자기 주의", '
                   'g: "설정, 토큰, 가중치 가운데", h: "시험 세트 완전 일치율", i: "있음 (one-cycle)", j: "7강의 웜업 후 일정" }, '
                   'en: { a: "the weights of the step before are kept", b: "a document of N tokens", '
                   'c: "its config, tokens or weights", d: "Place of the LayerNorm", e: "held-out exact match 9%", '
                   'f: "not a whole number from 1 (got 0)" } };\n'
                   '// a comment with 문서 길이 N is not a label\n', encoding="utf-8")
    strings = literals(bad)
    assert not any("comment" in s for s in strings)
    korean = [s for s in strings if HANGUL.search(s)]
    english = [s for s in strings if not HANGUL.search(s)]
    hits = {lang: {p for p, _ in BANNED[lang] for s in texts if re.search(p, s)}
            for lang, texts in (("ko", korean), ("en", english))}
    assert len(hits["ko"]) == 9 and len(hits["en"]) == 6, hits
    assert glossary.find_mistranslations("\n".join(korean)) == [("자기 주의", "셀프 어텐션")]


def test_lessons_and_home_page_write_the_length_as_L():
    """Lessons and the home page write a sequence's length L (N is the number of layers); the
    paper's own n is named once, where lesson 9 translates its Table 1."""
    found = []
    for lang in ("ko", "en"):
        pages = [DOCS / lang / "index.md", *sorted((DOCS / lang / "lessons").glob("*.md"))]
        for page in pages:
            text = page.read_text(encoding="utf-8")
            for m in re.finditer(r"n²|\$n\^2\$|\\\(n\^2|O\(n[\s^)]|길이(가|는)? \$n\$|length \$n\$|\$n\$ the length"
                                 r"|문서 길이 N\b|길이 \$N\$", text):
                found.append(f"{lang}/{page.name}:{text.count(chr(10), 0, m.start()) + 1}: «{m.group(0)}»")
    assert not found, "write the length as L:\n" + "\n".join(found)
