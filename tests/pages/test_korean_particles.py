r"""Every Korean page: a particle right after a number or a formula agrees with how it is read.

"5.657이", "0.576으로", "20으로", "1.0000을", "22.63과", "3은", "n²을": the particle follows the
last syllable of the Korean reading (:mod:`coursebuild.josa`), so "2이", "0.576로" or "n²를" is a
mistake. Numbers reach a page from the results (``[[value:…|.3f|이]]`` picks the particle),
formulas are typed: both are checked here, in the built HTML, with the formulas' TeX (what
KaTeX renders) read like the numbers. A failure names the page and the text around it.

The reading rule for a particle after an inline formula is :mod:`coursebuild.text.formulas`'s (its
docstring; the glossary page states it for writers): the formula read aloud left to right, closing
brackets unread, letters by their Korean names, a subscript as itself after its base ($k_3$ 케이 삼,
$d_k$ 디 케이), $^{\top}$ as 전치, a bracketed superscript as an index, every other superscript as
제곱, a fraction ending in its numerator. A formula whose end the rule cannot tell (a function name,
a prime, a value filled in by the build) is not checked.

Two readings: the built Korean pages (what a student reads, numbers from the results included),
and every Korean source a student meets that the pages do not show (the same pages' sources, the
check questions and self-checks, the lab notebooks' Korean cells, the widgets' and figures'
Korean strings, the build's own Korean strings), so that a particle is caught where it is written.
"""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from coursebuild.paths import DOCS
from coursebuild.text import formulas, markdown
from coursebuild.text.formulas import MATH

ROOT = DOCS.parent
BLOCK = {"p", "li", "td", "th", "tr", "div", "h1", "h2", "h3", "h4", "h5", "h6", "br", "dd", "dt",
         "blockquote", "figcaption", "summary", "details", "section", "article", "ul", "ol", "table"}
SKIP = {"code", "pre", "script", "style", "kbd", "svg", "nav", "header", "footer", "textarea", "button"}
VOID = {"img", "br", "hr", "input", "meta", "link", "source", "wbr"}
# an inline formula in TeX: \(…\) or $…$ (not $$)
_INLINE = re.compile(r"\\\((.+?)\\\)|(?<![\\$])\$(?!\$)([^$\n]+?)(?<!\\)\$(?!\$)")


class KoreanText(HTMLParser):
    """The article's text, formulas replaced by MATH markers, blocks separated by newlines."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.formulas: list[str] = []
        self._stack: list[tuple[str, str]] = []  # (tag, state): "skip", "math", "annotation", ""
        self._in_article = 0
        self.feed(html)
        # a notebook's Markdown cells keep their TeX in the text ($(B, h, L, L)$을) for the browser
        self._text = _INLINE.sub(self._formula, "".join(self.parts))

    def _formula(self, m: re.Match) -> str:
        self.formulas.append(m[1] if m[1] is not None else m[2])
        return f"{MATH}{len(self.formulas) - 1}{MATH}"

    @property
    def text(self) -> str:
        return self._text

    def _state(self) -> str:
        return self._stack[-1][1] if self._stack else ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in BLOCK:
            self.parts.append("\n")
        if tag in VOID:
            return
        state, classes = self._state(), a.get("class") or ""
        if tag == "article":
            self._in_article += 1
        if state in ("skip", "katex"):
            new = state
        elif tag == "annotation" and state == "katex-math":
            new = "annotation"
        elif tag in SKIP:
            new = "skip"
        elif "arithmatex" in classes:  # TeX left for KaTeX to render in the browser
            new = "math"
            self.formulas.append("")
            self.parts.append(f"{MATH}{len(self.formulas) - 1}{MATH}")
        elif "katex" in classes.split():  # rendered already: read its annotation (the TeX)
            new = "katex-math"
            self.formulas.append("")
            self.parts.append(f"{MATH}{len(self.formulas) - 1}{MATH}")
        elif state == "katex-math":
            new = "katex-math"
        else:
            new = state
        self._stack.append((tag, new))

    def handle_endtag(self, tag):
        if tag in BLOCK:
            self.parts.append("\n")
        if tag == "article":
            self._in_article -= 1
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                return

    def handle_data(self, data):
        if not self._in_article:
            return
        state = self._state()
        if state in ("math", "annotation"):
            self.formulas[-1] += data
        elif state == "":
            self.parts.append(data)


def korean_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html")
                  if p.relative_to(site).parts[0] not in ("en", "assets", "search") and p.name != "404.html")


@pytest.mark.parametrize("text, expected", [
    ("값은 5.657이 됩니다", []), ("값은 5.657가 됩니다", ["5.657가 should be 5.657이"]),
    ("0.576로 줄고", ["0.576로 should be 0.576으로"]), ("20으로는 부족", []), ("8로 나눕니다", []),
    ("1.0000를 넘지", ["1.0000를 should be 1.0000을"]), ("22.63와 비교", ["22.63와 should be 22.63과"]),
    ("3는", ["3는 should be 3은"]), ("2가지 방법", []), ("98.4%가", []), ("98.4%이 되고", ["98.4%이 should be 98.4%가"]),
    ("12.5이었습니다", ["12.5이었 should be 12.5였"]), ("GPT-3가", []), ("float32를", []),
])
def test_the_check_finds_what_disagrees(text, expected):
    found = formulas.disagreements(text, [])
    assert [f.split(":")[0] for f in found] == expected


def test_formulas_are_read_too():
    page = KoreanText('<article><p>비용은 <span class="arithmatex">\\(n^2\\)</span>를 따릅니다. '
                      '<span class="arithmatex">\\(L\\)</span>가 길면 <span class="arithmatex">\\(d_k = 16\\)</span>를 '
                      '<span class="arithmatex">\\(x\\)</span>를</p></article>')
    found = [f.split(":")[0] for f in formulas.disagreements(page.text, page.formulas)]
    assert found == ["$n^2$를 should be $n^2$을", "$L$가 should be $L$이", "$d_k = 16$를 should be $d_k = 16$을"]
    for tex, syllable in [("O(n^2)", "곱"), ("(B, h, L, L)", "엘"), ("(L, d_k)", "이"), ("\\theta", "아"),
                          ("\\sqrt{d_k}", "이"), ("QK^{\\top}", "치"), ("2^{10}", "곱"), ("\\text{1,200}", "백"),
                          ("e^{-\\infty} = 0", "영"), ("P\\,QK^{\\top}P^{\\top}", "치"), ("D^{-0.5}w^{-0.5}", "곱"),
                          ("k_{3}", "삼"), ("q_3", "삼"), ("h_1, h_2, h_3", "삼"), ("W_Q", "이"), ("x_{ij}", "이"),
                          ("\\frac{QK^{\\top}}{\\sqrt{d_k}}", "치"), ("10000^{2i/d}", "곱"), ("f'(x)", "이"), ("x'", None), ("W_Q^{(i)}", "이"),
                          ("e^{x}", "곱"), ("PX", "이"), ("O = PV", "이"), ("dL", "엘"), ("\\top", "치"),
                          ("\\text{mask}", None), ("\\log", None), ("\\operatorname{softmax}", None)]:
        assert formulas.last_syllable(f"\\({tex}\\)") == syllable, tex


def test_a_notebook_page_s_tex_is_read_as_formulas():
    page = KoreanText('<article><div class="jp-RenderedMarkdown"><p>가중치 $(B, h, L, L)$를 함께, '
                      '파장 $2\\pi \\cdot 10000^{2i/d}$을 계산</p></div></article>')
    found = [f.split(":")[0] for f in formulas.disagreements(page.text, page.formulas)]
    assert found == ["$(B, h, L, L)$를 should be $(B, h, L, L)$을"]


@pytest.mark.parametrize("formula, wrong, right", [
    ("P\\,QK^{\\top}P^{\\top}", "이", "가"), ("D^{-0.5}w^{-0.5}", "는", "은"), ("k_{3}", "가", "이"),
    ("q_3", "는", "은"), ("h_1, h_2, h_3", "를", "을"), ("d_k", "을", "를"),
])
def test_the_reading_rule_catches_the_particles_it_was_written_against(formula, wrong, right):
    """The cases the third reading found on the pages, each written wrong and then right."""
    html = f'<article><p>식 <span class="arithmatex">\\({formula}\\)</span>@ 됩니다</p></article>'
    wrong_page, right_page = KoreanText(html.replace("@", wrong)), KoreanText(html.replace("@", right))
    assert formulas.disagreements(wrong_page.text, wrong_page.formulas), (formula, wrong)
    assert not formulas.disagreements(right_page.text, right_page.formulas), (formula, right)


@pytest.mark.slow
def test_every_korean_page_has_particles_that_agree(built_site):
    problems = []
    pages = korean_pages(built_site)
    assert any("lessons" in p.parts for p in pages), "no Korean lesson pages found in the built site"
    for page in pages:
        parsed = KoreanText(page.read_text(encoding="utf-8"))
        for problem in formulas.disagreements(parsed.text, parsed.formulas):
            problems.append(f"{page.relative_to(built_site)}: {problem}")
    assert not problems, f"{len(problems)} particles disagree with the number or formula before them " \
                         "(use [[value:…|spec|이]] for a number):\n" + "\n".join(problems)


# what a source holds that is not read as prose: a build marker (its value is read on the built
# page), a code span, an HTML tag, a link's address, an attribute list, display math
_MARKER = re.compile(r"\[\[[a-z][a-z0-9_-]*(?::[^\[\]\n]*)?(?:\|[^\[\]\n]*)?\]\]")
_UNREAD = [(re.compile(r"`[^`\n]+`"), "\x01"), (re.compile(r"<[^<>\n]+>"), " "),
           (re.compile(r"\]\([^()\s]*\)"), "]"), (re.compile(r"\{[:\s]*[#.][^{}\n]*\}"), " "),
           (re.compile(r"\$\$.*?\$\$", re.S), "\n")]
HANGUL = re.compile(r"[가-힣]")


def prose_with_formulas(text: str) -> tuple[str, list[str]]:
    """A Markdown source's prose, its inline formulas replaced by MATH markers (as
    :class:`KoreanText` does for a built page), and the formulas."""
    text = "\n".join(b.text for b in markdown.blocks(text) if b.kind not in ("fence", "front-matter"))
    while _MARKER.search(text):  # markers in a marker's argument ([[[value:…]]]) too
        text = _MARKER.sub("\x01", text)
    for pattern, by in _UNREAD:
        text = pattern.sub(by, text)
    found: list[str] = []

    def keep(m):
        found.append(m[1] if m[1] is not None else m[2])
        return f"{MATH}{len(found) - 1}{MATH}"
    return _INLINE.sub(keep, text), found


def _strings(data) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() if k != "en" for s in _strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return []


def _notebook_korean(text: str) -> str:
    cells = re.split(r"^# %%", text, flags=re.M)[1:]
    return "\n\n".join(re.sub(r"^# ?", "", c.partition("\n")[2], flags=re.M) for c in cells
                       if c.startswith(' [markdown] lang="ko"'))


def _python_strings(text: str) -> list[str]:
    return [n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _js_strings(text: str) -> list[str]:
    out = []
    for m in re.finditer(r"\"((?:\\.|[^\"\\\n])*)\"|'((?:\\.|[^'\\\n])*)'|`((?:\\.|[^`\\])*)`", text):
        s = next(g for g in m.groups() if g is not None)
        out.append(re.sub(r"\\(.)", r"\1", s))
    return out


def korean_sources():
    """(where, Korean text) of every source a Korean reader meets: the Korean pages, the
    questions (check questions, self-checks, assignments), the glossary, the notebooks' Korean
    cells, the Korean strings of the package, the experiments' figures and the widgets, and the
    build's own Korean strings."""
    for path in sorted((DOCS / "ko").rglob("*.md")):
        yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")
    for path in [*sorted((DOCS / "questions").glob("*.yml")), DOCS / "glossary.yml",
                 ROOT / "scripts" / "coursebuild" / "content" / "ui" / "ko.yml"]:
        strings = _strings(yaml.safe_load(path.read_text(encoding="utf-8")))
        yield path.relative_to(ROOT).as_posix(), "\n\n".join(s for s in strings if HANGUL.search(s))
    for path in sorted((ROOT / "tutorial_code").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        strings = [s for s in _python_strings(text) if HANGUL.search(s)]
        if "notebooks" in path.parts:
            strings = [_notebook_korean(text), *(s for s in strings if not s.startswith("#"))]
        yield path.relative_to(ROOT).as_posix(), "\n\n".join(strings)
    for path in sorted((DOCS / "assets" / "javascripts").rglob("*.js")):
        if "vendor" not in path.parts:
            text = path.read_text(encoding="utf-8")
            yield path.relative_to(ROOT).as_posix(), "\n\n".join(s for s in _js_strings(text) if HANGUL.search(s))


def source_problems(where: str, text: str) -> list[str]:
    prose, found = prose_with_formulas(text)
    return [f"{where}: {p}" for p in formulas.disagreements(prose, found)]


def test_every_korean_source_has_particles_that_agree():
    sources = list(korean_sources())
    assert {"docs/ko/lessons/self-attention.md", "docs/questions/lesson-04.yml",
            "tutorial_code/notebooks/lesson_04_self_attention.py"} <= {w for w, _ in sources}
    problems = [p for where, text in sources for p in source_problems(where, text)]
    assert not problems, f"{len(problems)} particles disagree with the number or formula before them " \
                         "(the rule: docs/ko/glossary.md, #particles-after-formulas):\n" + "\n".join(problems)


@pytest.mark.parametrize("source, wrong", [
    ("점수는 $P\\,QK^{\\top}P^{\\top}$이 되어", True), ("점수는 $P\\,QK^{\\top}P^{\\top}$가 되어", False),
    ("학습률 $D^{-0.5}w^{-0.5}$는", True), ("학습률 $D^{-0.5}w^{-0.5}$은", False),
    ("$k_{3}$가 가장 큽니다", True), ("$q_3$는", True), ("$h_1, h_2, h_3$을 섞은", False),
    ("\\(d_k\\)을", True), ("`d_k`을", False), ("[[value:x.y|.3f]]가", False), ("$q_3 = [[[value:a.b|g]]]$의", False),
    ("```\n$k_3$가\n```", False), ("[링크](a/3.md)는", False), ("$$\nk_3\n$$\n는", False),
])
def test_the_source_reading_finds_what_disagrees(source, wrong):
    assert bool(source_problems("x", source)) is wrong, source


def test_every_kind_of_korean_source_is_read():
    names = [w for w, _ in korean_sources()]
    for kind in ("docs/ko/", "docs/questions/self-check.yml", "docs/questions/assignments.yml", "docs/glossary.yml",
                 "content/ui/ko.yml", "tutorial_code/notebooks/", "tutorial_code/experiments/drawing/",
                 "docs/assets/javascripts/widgets/"):
        assert any(kind in n for n in names), kind
    js = _js_strings('const T = { ko: { a: "\\\\(k_3\\\\)가 커집니다", b: \'그 값\' } };')
    assert js == ["\\(k_3\\)가 커집니다", "그 값"] and source_problems("x", js[0])


def test_the_glossary_page_states_the_rule_in_both_languages():
    """A writer finds the rule on the glossary page; its examples follow it (the source check
    reads them too) and name the readings the rule turns on."""
    for lang, words in (("ko", ("전치", "제곱", "아래 첨자")), ("en", ("전치", "제곱", "subscript"))):
        section = markdown.sections((DOCS / lang / "glossary.md").read_text(encoding="utf-8"))
        assert "particles-after-formulas" in section, lang
        assert all(w in section["particles-after-formulas"] for w in words), lang
