r"""Every Korean page: a particle right after a number or a formula agrees with how it is read.

"5.657이", "0.576으로", "20으로", "1.0000을", "22.63과", "3은", "n²을": the particle follows the
last syllable of the Korean reading (:mod:`coursebuild.josa`), so "2이", "0.576로" or "n²를" is a
mistake. Numbers reach a page from the results (``[[value:…|.3f|이]]`` picks the particle),
formulas are typed: both are checked here, in the built HTML, with the formulas' TeX (what
KaTeX renders) read like the numbers. A failure names the page and the text around it.

The reading rule for a particle after an inline formula (the glossary page states it too): the
particle follows the last syllable of the formula read aloud in Korean, left to right as written,
with these readings:

* closing brackets are not read: $O(n^2)$ ends in 제곱, $(L, d_k)$ in 케이;
* Latin letters by their Korean names (엘, 엠, 엔, 알 end closed; 에이, 비, 케이 … open), Greek
  letters by theirs (all open but 엡실론), numbers as Sino-Korean numerals (삼, 십, 백 closed;
  이, 사, 오, 구 open), % as 퍼센트, \infty as 무한대;
* a subscript is read after its base, as itself: $k_3$ is 케이 삼 (이, 을, 은), $d_k$ is 디 케이
  (가, 를, 는), $h_1, h_2, h_3$ ends in 삼;
* a superscript $^{\top}$ is 전치 (open: 가, 를, 는); a superscript in brackets is an index read
  as itself ($W_Q^{(i)}$ ends in 아이); every other superscript, ² included, is 제곱 (closed: 이,
  을, 은): $n^2$, $e^{x}$, $D^{-0.5}$, $10000^{2i/d}$;
* $\sqrt{x}$ is 루트 x, so it ends in x; a fraction is read as Korean says it, denominator first
  (b 분의 a), so $\frac{a}{b}$ ends in a.

A formula whose end this reading cannot tell (a function name, a prime) is not checked.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from coursebuild.text import josa

pytestmark = pytest.mark.slow

# a particle directly after the number or formula, and what may follow it: 으로/로 can carry
# 는, 도, 서, 써, 부터, 만, 의 (20으로는); 이었/였 is always followed by more (였습니다);
# every other particle ends the word (so "5가지", "3이상" and "1로그" are not particles)
PARTICLE = re.compile(r"(이었|였|으로|이|가|을|를|은|는|과|와|로)")
ENDS_WORD = r"(?![가-힣])"
AFTER = {"으로": r"(?:는|도|서|써|부터|만|의)?" + ENDS_WORD, "로": r"(?:는|도|서|써|부터|만|의)?" + ENDS_WORD,
         "이었": "", "였": ""}
# a number as a page writes it (1,024, 0.576, 1.5e-04, 98.4%, 4×); not inside a name such as
# GPT-3 or float32 (read in English or as a whole word), nor after a decimal point's digits
NUMBER = re.compile(r"(?<![A-Za-z\d.,_-])\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?(?:\s?%|²|×)?")
MATH = "\x00"  # stands for a formula in the page's text: \x00<index>\x00
BLOCK = {"p", "li", "td", "th", "tr", "div", "h1", "h2", "h3", "h4", "h5", "h6", "br", "dd", "dt",
         "blockquote", "figcaption", "summary", "details", "section", "article", "ul", "ol", "table"}
SKIP = {"code", "pre", "script", "style", "kbd", "svg", "nav", "header", "footer", "textarea", "button"}
VOID = {"img", "br", "hr", "input", "meta", "link", "source", "wbr"}
# how a formula's last symbol is read: Latin letters by their Korean names (엘, 엠, 엔, 알 end
# closed; 에이, 비, 씨, 디 … open), ² and ^2 as 제곱, \infty as 무한대, digits as numbers
LETTER_LAST = {c: "엘" if c in "lL" else "엠" if c in "mM" else "엔" if c in "nN" else "알" if c in "rR" else "이"
               for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"}
TEX_TAIL = re.compile(r"(?:\\[,;!: ]|\\quad|\\right[.|]?|\\big[lr]?|[\s{}])+$")
# Greek letters by their Korean names: all end open except 엡실론
GREEK = {name: "론" if name in ("epsilon", "varepsilon") else "아" for name in (
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "phi", "chi", "psi", "omega")}


class KoreanText(HTMLParser):
    """The article's text, formulas replaced by MATH markers, blocks separated by newlines."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.formulas: list[str] = []
        self._stack: list[tuple[str, str]] = []  # (tag, state): "skip", "math", "annotation", ""
        self._in_article = 0
        self.feed(html)

    @property
    def text(self) -> str:
        return "".join(self.parts)

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


def bare(tex: str) -> str:
    """The formula without its delimiters: \\(n^2\\) → n^2."""
    tex = tex.strip()
    for left, right in (("\\(", "\\)"), ("\\[", "\\]"), ("$$", "$$"), ("$", "$")):
        if tex.startswith(left) and tex.endswith(right):
            return tex[len(left) : len(tex) - len(right)].strip()
    return tex


def _last_frac(tex: str) -> str | None:
    """The numerator of a ``\\frac{a}{b}`` that ends ``tex`` (read "b 분의 a"), else None."""
    start = tex.rfind("\\frac")
    if start < 0:
        return None
    groups, i = [], start + len("\\frac")
    while len(groups) < 2 and i < len(tex) and tex[i] == "{":
        depth, j = 0, i
        while j < len(tex):
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            if depth == 0:
                break
            j += 1
        groups.append(tex[i + 1 : j])
        i = j + 1
    return groups[0] if len(groups) == 2 and i == len(tex) else None


def formula_reading(tex: str) -> str | None:
    """The last syllable of how a formula is read, or None when this test cannot tell (the
    reading rule is the module's docstring).

    A closing bracket is not read: $O(n^2)$ ends in 제곱, $(B, h, L, L)$ in 엘, $(L, d_k)$ in 케이."""
    core = re.sub(r"(?:\\[,;!: ]|\\quad|\s|\\right[.|]?|\\big[lr]?|[)\]])+$", "", bare(tex))
    numerator = _last_frac(core)
    if numerator is not None:
        return formula_reading(f"\\({numerator}\\)")
    index = re.search(r"\^\{\(([^{}()]*)\)\}$", core)
    if index:  # W_Q^{(i)}: a bracketed superscript is an index, read as itself (아이)
        return formula_reading(f"\\({index[1]}\\)")
    if re.search(r"\^\{?\\top\}?$", core):
        return "치"  # 전치
    if re.search(r"\^(?:\{[^{}]*\}|\\?[A-Za-z0-9]+)$|²$", core):
        return "곱"  # 제곱, whatever the power
    sub = re.search(r"_(?:\{([^{}]*)\}|([A-Za-z0-9]))$", core)
    if sub:  # read as itself after its base: k_3 is 케이 삼
        s = sub[1] if sub[1] is not None else sub[2]
        if re.search(r"(?<!\\)(?<![\\A-Za-z][A-Za-z])[A-Za-z]$|^[A-Za-z]+$", s):  # x_{ij}: 제이
            return LETTER_LAST[s[-1]]
        return formula_reading(f"\\({s}\\)")
    tex = TEX_TAIL.sub("", bare(tex))
    if re.search(r"(?:\^\{?2\}?|²)$", tex):
        return "곱"  # 제곱
    tex = TEX_TAIL.sub("", re.sub(r"(?:\\right|\\big[lr]?)?[)\]]$", "", tex))
    greek = re.search(r"\\([a-z]+)$", tex)
    if greek and greek[1] in GREEK:
        return GREEK[greek[1]]
    if re.search(r"(?:\^\{?2\}?|²)$", tex):
        return "곱"  # 제곱
    if tex.endswith("\\infty"):
        return "대"  # 무한대
    if tex.endswith("\\%"):
        return "트"  # 퍼센트
    number = re.search(r"(?<![A-Za-z_^\d,.])(?<!\^\{)(?<!_\{)\d[\d,]*(?:\.\d+)?$", tex)  # not 2^{10}: 승
    if number:
        return josa.last_syllable(number[0])
    if re.search(r"(?<![\\A-Za-z])[A-Za-z]$", tex):  # a single letter: n, L, x, or a subscript's
        return LETTER_LAST[tex[-1]]
    return None


def disagreements(text: str, formulas: list[str]) -> list[str]:
    """Every "number or formula + particle" in ``text`` whose particle is the wrong half."""
    found = []
    pattern = re.compile(rf"(?P<what>{NUMBER.pattern}|{MATH}(?P<i>\d+){MATH}){PARTICLE.pattern}")
    for m in pattern.finditer(text):
        which = m.group(m.lastindex)  # the particle as written
        if not re.match(AFTER.get(which, ENDS_WORD), text[m.end() :]):
            continue
        if m["i"] is not None:
            syllable, shown = formula_reading(formulas[int(m["i"])]), f"${bare(formulas[int(m['i'])])}$"
        else:
            syllable, shown = josa.last_syllable(m["what"]), m["what"]
        if syllable is None:
            continue
        right = josa.particle_after_syllable(syllable, which)
        if right != which:
            context = text[max(0, m.start() - 25) : m.end() + 10].replace("\n", " ")
            context = re.sub(rf"{MATH}(\d+){MATH}", lambda f: f"${bare(formulas[int(f[1])])}$", context)
            found.append(f"{shown}{which} should be {shown}{right}: …{context}…")
    return found


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
    found = disagreements(text, [])
    assert [f.split(":")[0] for f in found] == expected


def test_formulas_are_read_too():
    page = KoreanText('<article><p>비용은 <span class="arithmatex">\\(n^2\\)</span>를 따릅니다. '
                      '<span class="arithmatex">\\(L\\)</span>가 길면 <span class="arithmatex">\\(d_k = 16\\)</span>를 '
                      '<span class="arithmatex">\\(x\\)</span>를</p></article>')
    found = [f.split(":")[0] for f in disagreements(page.text, page.formulas)]
    assert found == ["$n^2$를 should be $n^2$을", "$L$가 should be $L$이", "$d_k = 16$를 should be $d_k = 16$을"]
    for tex, syllable in [("O(n^2)", "곱"), ("(B, h, L, L)", "엘"), ("(L, d_k)", "이"), ("\\theta", "아"),
                          ("\\sqrt{d_k}", "이"), ("QK^{\\top}", "치"), ("2^{10}", "곱"), ("\\text{1,200}", "백"),
                          ("e^{-\\infty} = 0", "영"), ("P\\,QK^{\\top}P^{\\top}", "치"), ("D^{-0.5}w^{-0.5}", "곱"),
                          ("k_{3}", "삼"), ("q_3", "삼"), ("h_1, h_2, h_3", "삼"), ("W_Q", "이"), ("x_{ij}", "이"),
                          ("\\frac{QK^{\\top}}{\\sqrt{d_k}}", "치"), ("10000^{2i/d}", "곱"), ("f'(x)", "이"), ("x'", None), ("W_Q^{(i)}", "이"),
                          ("e^{x}", "곱")]:
        assert formula_reading(f"\\({tex}\\)") == syllable, tex


@pytest.mark.parametrize("formula, wrong, right", [
    ("P\\,QK^{\\top}P^{\\top}", "이", "가"), ("D^{-0.5}w^{-0.5}", "는", "은"), ("k_{3}", "가", "이"),
    ("q_3", "는", "은"), ("h_1, h_2, h_3", "를", "을"), ("d_k", "을", "를"),
])
def test_the_reading_rule_catches_the_particles_it_was_written_against(formula, wrong, right):
    """The cases the third reading found on the pages, each written wrong and then right."""
    html = f'<article><p>식 <span class="arithmatex">\\({formula}\\)</span>@ 됩니다</p></article>'
    wrong_page, right_page = KoreanText(html.replace("@", wrong)), KoreanText(html.replace("@", right))
    assert disagreements(wrong_page.text, wrong_page.formulas), (formula, wrong)
    assert not disagreements(right_page.text, right_page.formulas), (formula, right)


def test_every_korean_page_has_particles_that_agree(built_site):
    problems = []
    pages = korean_pages(built_site)
    assert any("lessons" in p.parts for p in pages), "no Korean lesson pages found in the built site"
    for page in pages:
        parsed = KoreanText(page.read_text(encoding="utf-8"))
        for problem in disagreements(parsed.text, parsed.formulas):
            problems.append(f"{page.relative_to(built_site)}: {problem}")
    assert not problems, f"{len(problems)} particles disagree with the number or formula before them " \
                         "(use [[value:…|spec|이]] for a number):\n" + "\n".join(problems)
