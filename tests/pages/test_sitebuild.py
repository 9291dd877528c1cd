"""Code inclusion and the glossary (tooltips, mistranslation checks), without building the site.

The ``[[code:…]]`` and ``[[glossary]]`` markers themselves are tested in test_markers.py.
"""

import html
import re
import pytest
import yaml

from coursebuild.pages import code
from coursebuild.content import glossary


def test_code_source_is_the_object_as_it_stands():
    src = code.source_of("attention", "scaled_dot_product_attention")
    assert src.startswith("def scaled_dot_product_attention(") and src.endswith("return weights @ v, weights  # (…, L_q, d_v), (…, L_q, L_k)")
    assert code.source_of("masks").startswith('"""Boolean attention masks.')
    assert code.resolve("multihead.MultiHeadAttention") == ("multihead", "MultiHeadAttention")
    assert code.resolve("experiments.common.digit_data") == ("experiments.common.digit_data", None)


def test_code_source_of_module_constants():
    assert code.source_of("models", "POSITIONS") == 'POSITIONS = ("sinusoidal", "learned", "rope", "none")'
    assert code.source_of("tasks.digits", "EOS") == "PAD, BOS, EOS = 0, 1, 2"
    # a name imported into a module is included from where it is defined
    assert code.source_of("experiments.common.digit_data", "DIGIT0").startswith("DIGIT0 = 3  ")


@pytest.mark.parametrize("target, message", [
    ("attention.scaled_dot_product", "Did you mean 'scaled_dot_product_attention'"),
    ("nosuchmodule.f", "no module of tutorial_code matches"),
    ("models.TransformerConfig.d_k", "only top-level names"),
])
def test_unknown_code_targets_fail(target, message):
    with pytest.raises(KeyError, match=message):
        code.source_of(*code.resolve(target))


def test_glossary_has_both_languages_and_no_duplicates():
    terms = glossary.load()
    assert len(terms) >= 30
    assert len({t.ko for t in terms}) == len(terms) and len({t.en.lower() for t in terms}) == len(terms)
    assert glossary.find_mistranslations("트랜스포머는 변압기가 아니다", terms) == [("변압기", "트랜스포머")]


def test_glossary_rejects_broken_files(tmp_path):
    bad = tmp_path / "g.yml"
    entry = {"id": "a", "en": "attention", "ko": "어텐션", "en_def": "x", "ko_def": "y"}
    bad.write_text(yaml.safe_dump([entry, {**entry, "id": "b", "en": "other"}], allow_unicode=True), encoding="utf-8")
    with pytest.raises(ValueError, match="ko '어텐션' is used by both a and b"):
        glossary.load(bad)
    bad.write_text(yaml.safe_dump([{**entry, "ko_def": ""}]), encoding="utf-8")
    with pytest.raises(ValueError, match=r"entry 1 \(a\) lacks ko_def"):
        glossary.load(bad)
    bad.write_text("- {id: a, en: target, ko: 목표, en_def: x, ko_def: y, wrong_ko: [목표 도달, 학습 목표:]}\n",
                   encoding="utf-8")  # an unquoted "학습 목표:" is a mapping in YAML
    with pytest.raises(ValueError, match=r"entry 1 \(a\): wrong_ko must be a list of words.*quote"):
        glossary.load(bad)


def test_tooltips_mark_first_use_in_prose_only():
    html = ("<h2>어텐션</h2><p>셀프 어텐션은 어텐션을 쓴다. <code>어텐션</code></p>"
            "<p>다시 어텐션과 <a href='#'>소프트맥스</a>, 그리고 소프트맥스를</p>")
    out = glossary.add_tooltips(html, "ko")
    assert out.count("<abbr") == 3  # 셀프 어텐션, 어텐션 (particle attached), 소프트맥스 outside the link
    assert out.startswith("<h2>어텐션</h2>")
    assert '<abbr title="self-attention — ' in out and "<code>어텐션</code>" in out
    assert '">소프트맥스</abbr>를' in out
    en = glossary.add_tooltips("<p>Self-attention and attention; attention again.</p>", "en")
    assert en.count("<abbr") == 2 and 'title="셀프 어텐션 — ' in en


@pytest.mark.parametrize("lang, text, term", [
    ("ko", "<p>셀프\n어텐션은 길이를</p>", "self-attention"),
    ("en", "<p>a learned\nposition embedding</p>", "learned position embedding"),
])
def test_a_term_broken_across_a_source_line_keeps_its_own_tooltip(lang, text, term):
    """A line break between a multi-word term's words must not hand the pop-up to a shorter term
    inside it (어텐션 in 셀프 어텐션, token embedding's "embedding" in a learned position embedding)."""
    terms = glossary.load()
    wanted = next(t for t in terms if t.en.lower() == term)
    out = glossary.add_tooltips(text, lang, terms)
    found = re.findall(r'<abbr title="([^"]*)">(.*?)</abbr>', out, re.S)
    assert len(found) == 1, out
    assert found[0][0] == html.escape(wanted.tooltip(lang), quote=True), out
    assert glossary.term_key(found[0][1]) == glossary.term_key(wanted.term(lang))


@pytest.mark.parametrize("text, marked", [
    ("<p>모델을 키우는 법</p>", None),            # 키 (key) inside 키우는 (to grow)
    ("<p>키워드와 키보드</p>", None),
    ("<p>밸류와 키를 곱한다</p>", "밸류 키"),
    ("<p>소프트맥스는 점수를</p>", "소프트맥스"),  # a particle after the term still matches
    ("<p>토큰들에서는 다르다</p>", "토큰"),        # particles in a row
    ("<p>헤드마다 따로</p>", "헤드"),
    ("<p>키.</p>", "키"),
    ("<p>(키)</p>", "키"),
    ("<p>열쇠키를</p>", None),                     # glued to a syllable before it
    ("<p>검증 세트이지 테스트 세트가 아닙니다</p>", ["검증 세트"]),  # the copula 이지
])
def test_korean_tooltips_match_whole_words_only(text, marked):
    out = glossary.add_tooltips(text, "ko")
    found = re.findall(r"<abbr[^>]*>(.*?)</abbr>", out)
    assert found == (marked if isinstance(marked, list) else marked.split() if marked else []), out


def test_glossary_page_lists_every_term_in_each_language():
    terms = glossary.load()
    for lang in ("ko", "en"):
        page = glossary.render_glossary(lang, terms)
        assert all(f'<span id="{t.id}"></span>**{t.term(lang)}**' in page for t in terms)


def test_figure_and_notebook_sources_use_the_glossary_terms():
    """Korean figure labels live in tutorial_code's sources: no mistranslation there either."""
    terms = glossary.load()
    root = code.PACKAGE
    wrong = {str(p.relative_to(root)): found for p in sorted(root.rglob("*.py"))
             if (found := glossary.find_mistranslations(p.read_text(encoding="utf-8"), terms))}
    assert not wrong, wrong
