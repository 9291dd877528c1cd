"""Page markers: the one grammar, each kind's happy path, and each way a marker fails.

Fast: the dispatcher runs on small Markdown strings with a small fake results dict; the one
site build at the end (a tiny two-language site) checks that the hook fails the build with
the page and the line.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
import yaml

from coursebuild.pages import code
from coursebuild.content import glossary
from coursebuild.pages import markers
from coursebuild.pages import kinds
from coursebuild.content import questions

RESULTS = {
    "scaling": {
        "title": {"ko": "스케일링", "en": "Scaling"},
        "config": {"n_rows": 1200},
        "results": {"at": {"512": {"peak_raw": 0.98761}}, "seq_len": 16, "stds": [1.0, 2.5, 4.25],
                    "label": "softmax"},
        "tables": {"summary": {
            "columns": [{"key": "d_k", "label": "d_k"},
                        {"key": "std", "label": {"ko": "표준편차", "en": "std"}, "fmt": ".2f"}],
            "rows": [{"d_k": 8, "std": 2.8284}, {"d_k": 512, "std": 22.627}]}},
        "figures": {"ko": ["scaling.png"], "en": ["scaling.png"]},
    },
    "provenance": {"git": {"commit": "abc1234"}, "device": {"used": "cpu"}},
}


def render(md: str, lang: str = "en", **kw) -> str:
    ctx = kinds.context(lang=lang, page=f"docs/{lang}/lessons/x.md", src_uri="lessons/x.md",
                          results=RESULTS, **kw)
    return markers.render(md, ctx)


def fails(md: str, pattern: str, **kw) -> str:
    with pytest.raises(markers.MarkerError, match=pattern) as err:
        render(md, **kw)
    return str(err.value)


# ---------------------------------------------------------------- values, tables, figures

def test_values_with_and_without_a_format_spec():
    md = ("peak [[value:scaling.at.512.peak_raw|.1%]], [[value:scaling.at.512.peak_raw]]; "
          "rows [[value:scaling.config.n_rows|,]]; last [[value:scaling.stds.-1]]; "
          "[[value:scaling.label]] on [[value:provenance.device.used]] at `[[value:provenance.git.commit]]`")
    assert render(md) == "peak 98.8%, 0.9876; rows 1,200; last 4.25; softmax on cpu at `abc1234`"


def test_a_particle_option_agrees_with_how_the_number_is_read():
    # 오 점 육삼 → 이, 십육 → 으로, 이 → 를, 일천이백 → 과 (josa reads the formatted text)
    md = ("[[value:scaling.stds.1|.2f|이]] [[value:scaling.seq_len||으로]] [[value:scaling.stds.1|.0f|을]] "
          "[[value:scaling.config.n_rows|,|과]] [[value:scaling.at.512.peak_raw|.1%|는]] "
          "[[value:scaling.stds.0|.1f|이었]]")
    assert render(md, lang="ko") == "2.50이 16으로 2를 1,200과 98.8%는 1.0이었"
    assert render("[[value:scaling.stds.-1|.2f|가]]", lang="ko") == "4.25가"  # either half names the pair


def test_colour_names_come_from_the_figure_style():
    from tutorial_code.experiments.drawing.plotting import COLORS, COLOR_NAMES

    assert set(COLOR_NAMES) == set(COLORS)  # every colour a figure uses has a name in prose
    assert render("[[colour:raw]] outline") == f"{COLOR_NAMES['raw']['en']} outline"
    assert render("[[colour:accent]] 테두리", lang="ko") == f"{COLOR_NAMES['accent']['ko']} 테두리"
    fails("[[colour:rwa]]", r"no colour 'rwa'.*Did you mean 'raw'\?")
    fails("[[colour:raw|x]]", r"takes no format")


def test_markers_inside_code_and_math_leave_python_lists_alone():
    md = ("```python\nx = torch.tensor([[1.0, 2.0]])  # [[True, False]]\n"
          "q = [[[value:scaling.stds.0|.1f]], [[value:scaling.stds.1|.1f]]]\n```\n"
          "$\\text{[[value:scaling.config.n_rows|,]]}$")
    assert render(md) == ("```python\nx = torch.tensor([[1.0, 2.0]])  # [[True, False]]\n"
                          "q = [1.0, 2.5]\n```\n$\\text{1,200}$")


def test_table_in_the_pages_language_keeps_the_indent():
    en = render("[[table:scaling.summary]]")
    assert en.splitlines() == ["| d_k | std |", "|---:|---:|", "| 8 | 2.83 |", "| 512 | 22.63 |"]
    ko = render('!!! note "n"\n\n    [[table:scaling.summary]]\n', lang="ko")
    assert "    | d_k | 표준편차 |\n    |---:|---:|\n    | 8 | 2.83 |" in ko


def test_figures_and_urls_are_relative_to_the_page():
    assert render("[[fig:scaling.scaling|alt text]]") == "![alt text](../assets/generated/en/scaling/scaling.png)"
    assert render("[[fig:scaling.scaling]]", lang="ko") == "![스케일링](../assets/generated/ko/scaling/scaling.png)"
    assert render('<img src="[[url:scaling.scaling]]">') == '<img src="../assets/generated/en/scaling/scaling.png">'


# ---------------------------------------------------------------- code, questions, glossary

def test_code_becomes_a_fenced_block_that_keeps_the_indent():
    src = code.source_of("attention", "scaled_dot_product_attention")
    md = render("text\n[[code:attention.scaled_dot_product_attention]]\nmore")
    assert md == f'text\n```python title="tutorial_code/attention.py"\n{src}\n```\nmore'
    md = render("1. step\n\n    [[code:multihead.MultiHeadAttention]]  \n\n2. next\n")
    assert "\n    class MultiHeadAttention(nn.Module):" in md and md.endswith("    ```\n\n2. next\n")
    assert render("[[code:models.POSITIONS]]").splitlines()[1] == code.source_of("models", "POSITIONS")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A questions folder whose texts hold markers: they are expanded in the page's context."""
    def both(ko, en):
        return {"ko": ko, "en": en}
    answer = both("길이 [[value:scaling.seq_len]]", "length [[value:scaling.seq_len]]\n\n[[table:scaling.summary]]")
    (tmp_path / "lesson-01.yml").write_text(yaml.safe_dump(
        {"lesson": 1, "title": both("일", "One"), "questions": [
            {"id": "q-one", "ko": "질문", "en": "Question?", "hint": both("힌트", "a hint"), "answer": answer}]},
        allow_unicode=True), encoding="utf-8")
    task = both("과제\n\n[[code:masks.causal_mask]]", "Task\n\n[[code:masks.causal_mask]]")
    (tmp_path / "assignments.yml").write_text(yaml.safe_dump({"assignments": [
        {"id": "task-one", "title": both("가", "a"), "task": task, "hand_in": both("나", "b"),
         "answer": both("다 [[value:scaling.stds.1]]", "c [[value:scaling.stds.1]]"),
         "rubric": [{"points": 2, **both("기준 [[value:scaling.seq_len]]", "criterion [[value:scaling.seq_len]]")}]}]},
        allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(questions, "FOLDER", tmp_path)
    return tmp_path


def test_questions_and_answers_expand_the_markers_of_their_text(folder):
    asked = render("## Q\n\n[[questions:1]]\n", answer_key_url="../teaching/answer-key.md")
    assert '<span id="q-q-one"></span>**1.1** Question?' in asked and '??? tip "Hint"\n    a hint' in asked
    assert "[answer key (instructors)](../teaching/answer-key.md#lesson-1)" in asked
    key = render("[[answers:all]]")
    assert "## Lesson 1. One { #lesson-1 }" in key and "    length 16\n" in key
    assert "\n    | 8 | 2.83 |" in key  # a table inside the answer's fold keeps its indent


def test_assignments_and_their_answers_include_code_and_values(folder):
    page = render("[[assignments]]", lang="ko", answer_key_url="answer-key.md")
    assert "### 과제 1. 가 { #assignment-1 }" in page and "| 기준 16 | 2 |" in page
    assert '```python title="tutorial_code/masks.py"\ndef causal_mask(' in page
    assert "[답안(강사용)](answer-key.md#assignment-1)" in page
    key = render("[[assignment-answers]]")
    assert '??? success "Model answer"\n    c 2.5' in key
    assert '??? abstract "The task"\n    Task\n\n    ```python title="tutorial_code/masks.py"\n    def causal_mask(' in key


def test_glossary_table_and_escaped_markers():
    page = render("# Glossary\n\n[[glossary]]\n", lang="ko")
    assert page.startswith("# Glossary\n\n| 용어 | English | 뜻 |")
    assert all(f"**{t.ko}**" in page for t in glossary.load())
    assert render("lines such as `# \\[[code:…]]` and \\[[value:x.y]]") == \
        "lines such as `# [[code:…]]` and [[value:x.y]]"


def test_a_kind_added_later_registers_the_same_way(monkeypatch):
    monkeypatch.setitem(kinds.KINDS, "shout", markers.Kind(lambda arg, fmt, ctx: arg.upper() + (fmt or "")))
    assert render("[[shout:hello|!]] [[shout:x]]") == "HELLO! X"


# ---------------------------------------------------------------- every failure names page, line, fix

def test_unknown_kind_names_page_line_and_closest_kind():
    msg = fails("# t\n\ncost: [[tabel:cost.n2]]\n", r"unknown kind 'tabel'\. Did you mean 'table'\?")
    assert msg.startswith("docs/en/lessons/x.md:3: [[tabel:cost.n2]]: ")


@pytest.mark.parametrize("marker, expected", [
    ("[[value:scaling.at.512.peak_rawz]]", r"'scaling.at.512' has no result 'peak_rawz'\. Did you mean 'peak_raw'\?"),
    ("[[value:scaling.at.999.peak_raw]]", r"'scaling.at' has no result '999'.*Keys here: 512"),
    ("[[value:scalng.seq_len]]", r"no experiment 'scalng'\. Did you mean 'scaling'\?"),
    ("[[value:scaling.stds.7]]", r"'scaling.stds' has no result '7'.*0, 1, 2"),
    ("[[value:scaling.at]]", r"value is a dict.*keys: 512"),
    ("[[table:scaling.sumary]]", r"no table 'sumary'\. Did you mean 'summary'\?"),
    ("[[fig:scaling.scalin]]", r"no figure 'scalin' for language 'en'\. Did you mean 'scaling'\?"),
    ("[[code:attention.scaled_dot_product]]", r"Did you mean 'scaled_dot_product_attention'"),
    ("[[code:atention.f]]", r"no module of tutorial_code matches 'atention.f'\. Did you mean 'attention'\?"),
    ("[[code:models.TransformerConfig.d_k]]", r"only top-level names"),
    ("[[questions:12]]", r"no questions for lesson 12.*Lessons: 1, 2"),
])
def test_unknown_key_names_the_closest_one(marker, expected):
    msg = fails(f"text\n\n{marker}\n", expected)
    assert msg.startswith(f"docs/en/lessons/x.md:3: {marker}: ")


@pytest.mark.parametrize("marker, expected", [
    ("[[value:scaling.label|.1%]]", r"format spec '\.1%' does not fit value 'softmax'"),
    ("[[value:scaling.seq_len|.3f|이]]", r"a Korean particle \('이'\) on a 'en' page"),
    ("[[value:scaling.seq_len|.3f|에게]]", r"'에게' is not a particle this marker knows; one of "),
    ("[[value:scaling.seq_len|d|이|을]]", r"at most one particle after '\|'; '이\|을' is more than one"),
    ("[[value:scaling]]", r"needs experiment\.key, e\.g\. \[\[value:"),
    ("[[table:scaling.summary|.2f]]", r"takes no format"),
    ("[[code:attention|x]]", r"takes no format"),
    ("[[questions:one]]", r"takes a lesson number or 'all'"),
    ("[[glossary:ko]]", r"takes no argument"),
    ("[[assignments|x]]", r"takes no argument"),
])
def test_wrong_format_or_argument(marker, expected):
    fails(f"{marker}\n", expected)


@pytest.mark.parametrize("md", ["see [[questions:3]] here", "[[code:attention]] and more", "| [[table:scaling.summary]] |"])
def test_a_block_marker_in_mid_line_fails(md):
    msg = fails(f"# t\n{md}\n", r"must stand alone on its line")
    assert msg.startswith("docs/en/lessons/x.md:2: ")


@pytest.mark.parametrize("md, expected", [
    ("[[scaling.seq_len]]", r"\[\[scaling\.seq_len\]\]: a marker needs a kind: for a value write \[\[value:scaling\.seq_len\]\]"),
    ("[[value:scaling.seq_len|.1f] more", r"\[\[value:scaling.seq_len\|\.1f\] more: a 'value' marker that does not fit"),
    ("[[ value:scaling.seq_len]]", r"a 'value' marker that does not fit"),
    ("[[Table:scaling.summary]]", r"not a marker of any kind\. Did you mean 'table'\?"),
    ("[[questions:3\n]]", r"a 'questions' marker that does not fit"),
])
def test_a_leftover_marker_fails(md, expected):
    msg = fails(f"ok [[value:scaling.seq_len]]\n\n{md}\n", expected)
    assert msg.startswith("docs/en/lessons/x.md:3: ")


def test_errors_inside_a_questions_text_name_the_page_line_and_the_marker(folder):
    data = yaml.safe_load((folder / "lesson-01.yml").read_text(encoding="utf-8"))
    data["questions"][0]["answer"]["en"] = "see [[tabel:scaling.summary]]"
    (folder / "lesson-01.yml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    msg = fails("# Key\n\n[[answers:1]]\n", r"Did you mean 'table'")
    assert msg.startswith("docs/en/lessons/x.md:3: in the text of [[answers:1]] (docs/questions/): [[tabel:")


def test_line_numbers_count_the_front_matter_and_nesting_is_bounded(monkeypatch):
    assert fails("\n[[nope]]", r"unknown kind", line_offset=4).startswith("docs/en/lessons/x.md:6: ")
    monkeypatch.setitem(kinds.KINDS, "loop", markers.Kind(lambda arg, fmt, ctx: "[[loop]]", expands=True))
    fails("[[loop]]", r"nested more than 3 deep")


# ---------------------------------------------------------------- the hook in a real build

@pytest.fixture(scope="module")
def tiny_results(tmp_path_factory):
    from coursebuild.pipeline import run_experiments
    out = tmp_path_factory.mktemp("results")
    run_experiments(["scaling"], out, tiny=True, device="cpu")
    return out


@pytest.mark.slow
def test_mkdocs_build_fills_markers_and_fails_on_a_misspelt_one_with_page_and_line(tiny_results, tmp_path):
    """A two-language site: markers filled, figures at stable URLs; a misspelt kind fails."""
    shutil.copytree(tiny_results, tmp_path / ".build")  # warm cache: the build trains nothing
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent("""
        site_name: t
        theme: {name: material, language: ko}
        plugins:
          - i18n:
              docs_structure: folder
              languages:
                - {locale: ko, default: true, name: 한국어, build: true}
                - {locale: en, name: English, build: true}
          - course: {notebooks: false, handouts: false, instructor_pack: false}
        markdown_extensions: [tables]
    """), encoding="utf-8")
    for lang in ("ko", "en"):
        d = tmp_path / "docs" / lang / "lesson"
        d.mkdir(parents=True)
        (d.parent / "index.md").write_text("# x\n", encoding="utf-8")
        (d / "index.md").write_text("# L\n\n[[value:scaling.at.512.peak_raw|.3f]]\n\n[[fig:scaling.scaling]]\n",
                                    encoding="utf-8")
    env = {**os.environ, "TUTORIAL_EXPERIMENTS_OUT": str(tmp_path / ".build"), "TUTORIAL_EXPERIMENTS": "scaling",
           "TUTORIAL_EXPERIMENTS_TINY": "1", "TUTORIAL_DEVICE": "cpu", "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "--strict"]
    r = subprocess.run(mkdocs, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    # once for both languages (cached unless someone edited tutorial_code meanwhile)
    assert r.stderr.count("pipeline ran:") == 1, r.stderr
    site = tmp_path / "site"
    for lang, prefix in (("ko", ""), ("en", "en/")):
        assert (site / f"assets/generated/{lang}/scaling/scaling.png").is_file()
        html = (site / prefix / "lesson/index.html").read_text("utf-8")
        assert f'src="../{"../" if prefix else ""}assets/generated/{lang}/scaling/scaling.png"' in html
        assert "[[" not in html
    (tmp_path / "docs/en/lesson/index.md").write_text("---\ntitle: L\n---\n# L\n\nA [[vlaue:scaling.seq_len]].\n")
    r = subprocess.run(mkdocs, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
    assert r.returncode != 0
    assert "docs/en/lesson/index.md:6: [[vlaue:scaling.seq_len]]: unknown kind 'vlaue'. " \
           "Did you mean 'value'?" in r.stderr, r.stderr


# ---------------------------------------------------------------- widgets

def test_a_widget_marker_hands_the_page_the_experiments_widget_data():
    RESULTS["scaling"]["results"]["widgets"] = {"sdpa": {"d_k": [8, 512], "note": "</script><b>"}}
    try:
        out = render("Text.\n\n[[widget:scaling.sdpa]]\n\nMore.")
        model = render("[[widget:scaling.sdpa|model]]")
    finally:
        del RESULTS["scaling"]["results"]["widgets"]
    html = out.split("\n\n")[1]
    head = '<div class="widget" data-widget="sdpa" data-scripts="../maths.js sdpa.js"><script type="application/json">'
    assert html.startswith(head)
    payload = html.removeprefix(head).removesuffix("</script></div>")
    assert "</" not in payload and json.loads(payload) == {"d_k": [8, 512], "note": "</script><b>"}
    # every widget loads the shared maths first, a model's widget then the forward pass
    assert model.startswith('<div class="widget" data-widget="sdpa" data-scripts="../maths.js ../transformer.js sdpa.js" '
                            'data-model="scaling">')


def test_a_widget_marker_names_the_widgets_that_exist_and_its_options():
    RESULTS["scaling"]["results"]["widgets"] = {"sdpa": {}, "peak": {}}
    try:
        assert "Did you mean 'sdpa'" in fails("[[widget:scaling.sdpaa]]", "has no result 'sdpaa'")
        fails("[[widget:scaling.sdpa|modle]]", "unknown option 'modle'.*model")
        fails("See [[widget:scaling.sdpa]] here.", "must stand alone on its line")
        fails("[[widget:scaling.peak]]", "no script registers the widget 'peak'.*SCRIPTS")
    finally:
        del RESULTS["scaling"]["results"]["widgets"]


# ---------------------------------------------------------------- words chosen by code

def test_a_word_marker_shows_the_word_the_drawing_code_chose_in_the_pages_language():
    RESULTS["scaling"]["words"] = {"verdict": {"ko": "비깁니다", "en": "a tie"}}
    try:
        assert render("It is [[word:scaling.verdict]].") == "It is a tie."
        assert render("[[word:scaling.verdict]]", lang="ko") == "비깁니다"
        assert "Did you mean 'verdict'" in fails("[[word:scaling.verdikt]]", "has no word 'verdikt'")
        fails("[[word:scaling.verdict|.2f]]", "takes no format")
    finally:
        del RESULTS["scaling"]["words"]


def test_words_need_both_languages():
    from types import SimpleNamespace

    from coursebuild.pipeline.errors import ExperimentError
    from coursebuild.pipeline.runner import _words

    good = SimpleNamespace(words=lambda r: {"best": {"ko": "가장 적게", "en": "fewest"}})
    assert _words("x", good, {}) == {"best": {"ko": "가장 적게", "en": "fewest"}}
    assert _words("x", SimpleNamespace(), {}) == {}
    with pytest.raises(ExperimentError, match="drawing/x.words.. gave 'best'.*exactly ko, en"):
        _words("x", SimpleNamespace(words=lambda r: {"best": {"en": "fewest"}}), {})
