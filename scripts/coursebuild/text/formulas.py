r"""How an inline formula is read aloud in Korean, so that the particle after it agrees.

A particle after a number follows the number's reading (:mod:`coursebuild.text.josa`); after a
formula it follows the formula's reading. The rule, stated for writers on the glossary page
(``docs/ko/glossary.md#particles-after-formulas``): read the formula aloud left to right as
written and take its last syllable (a final consonant takes 이/을/은/과/으로, none takes
가/를/는/와/로, ㄹ takes 로), with these readings:

* closing brackets are not read: $O(n^2)$ ends in 제곱, $(L, d_k)$ in 케이;
* Latin letters by their Korean names, one by one ($PX$ is 피 엑스; 엘, 엠, 엔, 알 end closed;
  에이, 비, 케이 … open), Greek
  letters by theirs (all open but 엡실론), numbers as Sino-Korean numerals (삼, 십, 백 closed;
  이, 사, 오, 구 open), % as 퍼센트, \infty as 무한대;
* a subscript is read after its base, as itself: $k_3$ is 케이 삼 (이, 을, 은), $d_k$ is 디 케이
  (가, 를, 는), $h_1, h_2, h_3$ ends in 삼;
* a superscript $^{\top}$ is 전치 (open: 가, 를, 는): $P\,QK^{\top}P^{\top}$가; a superscript in
  brackets is an index read as itself ($W_Q^{(i)}$ ends in 아이); every other superscript, ²
  included, is 제곱 (closed: 이, 을, 은): $n^2$, $e^{x}$, $D^{-0.5}w^{-0.5}$은, $10000^{2i/d}$;
* $\sqrt{x}$ is 루트 x, so it ends in x; a fraction is read as Korean says it, denominator first
  (b 분의 a), so $\frac{a}{b}$ ends in a.

:func:`last_syllable` gives that syllable, or None for a formula whose end the rule cannot tell
(a function name, a prime, something the build fills in); :func:`disagreements` finds every
number or formula in a text whose particle is the wrong half.
"""

from __future__ import annotations

import re

from . import josa

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
MATH = "\x00"  # stands for a formula in a text: \x00<index>\x00
# Latin letters by their Korean names: 엘, 엠, 엔, 알 end closed; 에이, 비, 씨, 디 … open
LETTER_LAST = {c: "엘" if c in "lL" else "엠" if c in "mM" else "엔" if c in "nN" else "알" if c in "rR" else "이"
               for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"}
TEX_TAIL = re.compile(r"(?:\\[,;!: ]|\\quad|\\right[.|]?|\\big[lr]?|[\s{}])+$")
# Greek letters by their Korean names: all end open except 엡실론
GREEK = {name: "론" if name in ("epsilon", "varepsilon") else "아" for name in (
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "phi", "chi", "psi", "omega")}


def bare(tex: str) -> str:
    """The formula without its delimiters: \\(n^2\\) → n^2."""
    tex = tex.strip()
    for left, right in (("\\(", "\\)"), ("\\[", "\\]"), ("$$", "$$"), ("$", "$")):
        if tex.startswith(left) and tex.endswith(right) and len(tex) >= len(left) + len(right):
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


def last_syllable(tex: str) -> str | None:
    """The last syllable of how the formula ``tex`` (with or without its delimiters) is read
    aloud in Korean by the module's rule, or None when the rule cannot tell."""
    core = re.sub(r"(?:\\[,;!: ]|\\quad|\s|\\right[.|]?|\\big[lr]?|[)\]])+$", "", bare(tex))
    numerator = _last_frac(core)
    if numerator is not None:
        return last_syllable(numerator)
    index = re.search(r"\^\{\(([^{}()]*)\)\}$", core)
    if index:  # W_Q^{(i)}: a bracketed superscript is an index, read as itself (아이)
        return last_syllable(index[1])
    if re.search(r"\^\{?\\top\}?$", core):
        return "치"  # 전치
    if re.search(r"\^(?:\{[^{}]*\}|\\?[A-Za-z0-9]+)$|²$", core):
        return "곱"  # 제곱, whatever the power
    sub = re.search(r"_(?:\{([^{}]*)\}|([A-Za-z0-9]))$", core)
    if sub:  # read as itself after its base: k_3 is 케이 삼
        s = sub[1] if sub[1] is not None else sub[2]
        if re.search(r"(?<!\\)(?<![\\A-Za-z][A-Za-z])[A-Za-z]$|^[A-Za-z]+$", s):  # x_{ij}: 제이
            return LETTER_LAST[s[-1]]
        return last_syllable(s)
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
    if re.search(r"(?<![\\A-Za-z{])[A-Za-z]{1,3}$", tex):  # letters read one by one: n, L, PX, dV
        return LETTER_LAST[tex[-1]]
    if re.search(r"\\top$", tex):
        return "치"  # 전치, the symbol alone
    return None


def disagreements(text: str, formulas: list[str]) -> list[str]:
    """Every "number or formula + particle" in ``text`` whose particle is the wrong half, as
    "$k_3$가 should be $k_3$이: …the text around it…". The formulas stand in ``text`` as
    ``MATH + index + MATH`` into ``formulas``."""
    found = []
    pattern = re.compile(rf"(?P<what>{NUMBER.pattern}|{MATH}(?P<i>\d+){MATH}){PARTICLE.pattern}")
    for m in pattern.finditer(text):
        which = m.group(m.lastindex)  # the particle as written
        if not re.match(AFTER.get(which, ENDS_WORD), text[m.end() :]):
            continue
        if m["i"] is not None:
            syllable, shown = last_syllable(formulas[int(m["i"])]), f"${bare(formulas[int(m['i'])])}$"
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
