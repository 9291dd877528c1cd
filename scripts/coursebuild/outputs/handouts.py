"""Printable handouts: one A4 PDF per lesson and language, made at build time from the lesson.

A handout holds, in the page's language:

1. the lesson's key figures: the figures of its worked example (``## … { #worked-example }``),
   or the lesson's first figure where that section has none, as the build drew them;
2. the worked example to fill in: that section's prose and formulas with the build's numbers.
   In the student version the result of each displayed formula (what follows its last ``=`` or
   ``≈``) is a blank to fill in; tables, code, widgets and folded boxes stay on the page;
3. the lesson's check questions (``docs/questions/lesson-NN.yml``) with their hints and a ruled
   box to write in, or, in the answered version (``answers=True``), the worked answers.

The text is set in NanumGothic (regular and bold, shipped in the ``koreanize-matplotlib`` wheel)
with matplotlib's DejaVu Sans as the fallback for mathematical signs, both embedded (subsets) by
fpdf2, so no system font is needed. LaTeX in the questions and the lesson is turned into plain
text with sub- and superscripts (:func:`math_to_html`): a handout is for writing on, not for
typesetting.

:func:`handout_pdf` writes one handout (the instructor pack calls it with ``answers=True``);
:func:`build` writes every lesson's student handout into a cache keyed on everything that goes
into it (the texts after the markers are filled in, the figures' bytes, this module's source,
the fonts and fpdf2's version), so a build with nothing changed only copies files.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.utils import get_relative_url

from ..course import LESSONS
from .. import atomic
from ..content import questions, ui
from ..pages import kinds
from ..paths import DOCS, REPO_ROOT
from ..state import build_state
from ..text import markdown as scanner
from . import editions

ASSET_DIR = "assets/handouts"  # in the site: assets/handouts/<lang>/<lesson-NN-slug>.pdf
MAX_FIGURES = 2
BLANK = "________"


def _font_files() -> dict[str, Path]:
    import importlib.util

    # the packages' font folders, found without importing them (koreanize_matplotlib changes
    # matplotlib's settings when imported)
    spec = {name: importlib.util.find_spec(name) for name in ("koreanize_matplotlib", "matplotlib")}
    missing = [name for name, found in spec.items() if found is None]
    if missing:
        raise FileNotFoundError(f"handouts: package(s) {', '.join(missing)} not installed (requirements.txt)")
    nanum = Path(spec["koreanize_matplotlib"].origin).parent / "fonts"
    dejavu = Path(spec["matplotlib"].origin).parent / "mpl-data" / "fonts" / "ttf"
    files = {"nanum": nanum / "NanumGothic.ttf", "nanum-b": nanum / "NanumGothicBold.ttf",
             "dejavu": dejavu / "DejaVuSans.ttf", "dejavu-b": dejavu / "DejaVuSans-Bold.ttf"}
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"handouts: font file(s) missing: {', '.join(missing)}; "
                                "reinstall koreanize-matplotlib and matplotlib (requirements.txt)")
    return files


# ---------------------------------------------------------------- LaTeX -> text

_SYMBOLS = {
    "cdot": "·", "times": "×", "approx": "≈", "infty": "∞", "sum": "∑", "le": "≤", "leq": "≤",
    "ge": "≥", "geq": "≥", "neq": "≠", "ne": "≠", "to": "→", "rightarrow": "→", "in": "∈",
    "ldots": "…", "dots": "…", "cdots": "⋯", "quad": "  ", "qquad": "   ", "pm": "±", "mid": "|",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π", "sigma": "σ", "phi": "φ", "omega": "ω",
    "Delta": "Δ", "Sigma": "Σ", "prod": "∏", "odot": "⊙", "otimes": "⊗", "propto": "∝",
    "equiv": "≡", "sim": "∼", "top": "ᵀ", "prime": "′", "ell": "ℓ", "lvert": "|", "rvert": "|",
    "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋", "langle": "⟨", "rangle": "⟩",
    "{": "{", "}": "}", "%": "%", "&": "&", "_": "_", "#": "#", "|": "‖",
    ",": " ", ";": " ", ":": " ", "!": "", " ": " ",
}
_DROP = {"left", "right", "big", "Big", "bigg", "displaystyle", "limits", "nolimits"}
_WRAP = {"operatorname", "text", "mathrm", "textrm", "mathit", "mathbf", "boldsymbol", "textbf",
         "mathsf", "texttt", "emph", "hat", "tilde", "bar", "vec", "overline", "underline"}
_BLACKBOARD = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "E": "𝔼"}


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _Math:
    def __init__(self, src: str):
        self.s, self.i = src, 0

    def group(self) -> str:
        """One argument: ``{…}`` or a single token."""
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1
        if self.i < len(self.s) and self.s[self.i] == "{":
            self.i += 1
            out = self.run(stop="}")
            self.i += 1
            return out
        return self.token()

    def token(self) -> str:
        if self.i >= len(self.s):
            return ""
        c = self.s[self.i]
        if c == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", self.s[self.i:])
            name = m[1]
            self.i += len(m[0])
            if name in _DROP:
                return ""
            if name in _WRAP:
                return self.group()
            if name == "sqrt":
                inner = self.group()
                plain = re.sub(r"<[^>]+>", "", inner)
                return "√" + (inner if re.fullmatch(r"[\w.]+", plain) else f"({inner})")
            if name == "frac":
                a, b = self.group(), self.group()
                wrap = lambda t: t if re.fullmatch(r"[\w.√]+", re.sub(r"<[^>]+>", "", t)) else f"({t})"
                return f"{wrap(a)}/{wrap(b)}"
            if name == "mathbb":
                g = self.group()
                return _BLACKBOARD.get(g, g)
            if name in _SYMBOLS:
                return _esc(_SYMBOLS[name])
            return _esc(name)  # \log, \exp, \max, \softmax ...: the name
        if c in "_^":
            self.i += 1
            arg = self.group()
            tag = "sub" if c == "_" else "sup"
            return f"<{tag}>{arg}</{tag}>"
        if c == "{":
            return self.group()
        self.i += 1
        if c == "~":
            return " "
        if c in "=+<>" or c == "-":
            return f" {_esc('−' if c == '-' else c)} " if c != "-" or self._binary() else "−"
        return _esc(c)

    def _binary(self) -> bool:
        before = self.s[: self.i - 1].rstrip()
        return bool(before) and before[-1] not in "({[=,^_"

    def run(self, stop: str | None = None) -> str:
        out = []
        while self.i < len(self.s) and (stop is None or self.s[self.i] != stop):
            out.append(self.token())
        return "".join(out)


def math_to_html(latex: str) -> str:
    """LaTeX (the subset the lessons use) as text with ``<sub>``/``<sup>``, for fpdf2's HTML."""
    text = _Math(latex.strip()).run()
    text = re.sub(r"(<sup>ᵀ</sup>)", "ᵀ", text)
    return re.sub(r" {2,}", " ", text).strip()


def _split_result(latex: str) -> tuple[str, str] | None:
    """(left, result) at the last top-level ``=`` or ``\\approx``, or None."""
    depth, cut = 0, None
    for m in re.finditer(r"\\approx|[{}=]", latex):
        tok = m[0]
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
        elif depth == 0:
            cut = m
    if cut is None or not latex[cut.end():].strip():
        return None
    return latex[: cut.end()], latex[cut.end():]


# ---------------------------------------------------------------- Markdown -> HTML (inline)

_INLINE_MATH = re.compile(r"(?<!\\)\$([^$\n]+?)\$")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITAL = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_ATTR = re.compile(r"\{\s*[:#.][^}]*\}")
_CODE = re.compile(r"`([^`]+)`")


_NUMBER = re.compile(r"^\s*[-−]?\s*[\d.,]+\s*(?:\\%|%)?\s*$")


def _blank_inline(latex: str) -> str | None:
    """An inline formula ``… = 0.503`` with its number blanked, or None when it ends in no number."""
    split = _split_result(latex)
    if split and _NUMBER.match(split[1]) and re.search(r"\d", split[0]):
        return math_to_html(split[0]) + " " + BLANK
    return None


def inline_html(text: str, blank: bool = False) -> str:
    """One paragraph of Markdown (math, bold, links, code) as fpdf2 HTML; with ``blank``, an
    inline formula that computes a number (``$a \\times b = 6$``) shows a blank for it."""
    parts, pos = [], 0
    for m in _INLINE_MATH.finditer(text):
        parts.append(("t", text[pos:m.start()]))
        parts.append(("m", m[1]))
        pos = m.end()
    parts.append(("t", text[pos:]))
    out = []
    for kind, chunk in parts:
        if kind == "m":
            blanked = _blank_inline(chunk) if blank else None
            out.append(blanked or math_to_html(chunk))
            continue
        chunk = _ATTR.sub("", _LINK.sub(r"\1", chunk))
        chunk = re.sub(r"<[^>]+>", "", chunk)  # raw HTML in the Markdown
        chunk = _esc(chunk)
        chunk = _CODE.sub(r"\1", chunk)
        chunk = _BOLD.sub(r"<b>\1</b>", chunk)
        chunk = _ITAL.sub(r"\1", chunk)
        out.append(chunk)
    return re.sub(r"\s+", " ", "".join(out)).strip()


# ---------------------------------------------------------------- what goes on a handout

@dataclass
class Block:
    kind: str          # "h" (sub-heading), "p" (paragraph), "li" (list item), "eq" (formula)
    html: str          # "p", "li": with the computed numbers of inline formulas blanked
    answer: str = ""   # "eq": the result, blanked in the student version; "p", "li": the
                       # paragraph with those numbers, where they differ


@dataclass
class Question:
    html: list[str]
    hint: list[str]
    answer: list[str]


@dataclass
class Content:
    lang: str
    number: int
    title: str
    figures: list[tuple[Path, str]] = field(default_factory=list)   # (png, caption)
    worked: list[Block] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)

    def key(self) -> dict:
        return {"lang": self.lang, "number": self.number, "title": self.title,
                "figures": [(hashlib.sha256(p.read_bytes()).hexdigest(), c) for p, c in self.figures],
                "worked": [(b.kind, b.html, b.answer) for b in self.worked],
                "questions": [(q.html, q.hint, q.answer) for q in self.questions]}


_FIG = re.compile(r"\[\[fig:([\w-]+)\.([\w-]+)(?:\|([^\]]*))?\]\]")
# blocks (coursebuild.text.markdown) not on a handout: code, folded boxes, tables, markers
# (widgets, code, questions), raw HTML
_LEFT_OUT = ("front-matter", "blank", "fence", "folded", "table", "marker", "html")


def section(markdown: str, anchor: str) -> str:
    """The text of the ``## … { #anchor }`` section after its heading line (to the next ``##``),
    or ''."""
    text = scanner.sections(markdown).get(anchor, "")
    return text[text.index("\n"):] if "\n" in text else ""


def _equations(formula: str) -> list[Block]:
    """A displayed formula's rows (``\\`` splits them), each cut at its result where it has one."""
    latex = " ".join(line.strip() for line in formula.split("\n")).strip()
    out = []
    for row in re.split(r"\\\\", re.sub(r"\\(?:begin|end)\{[a-z*]+\}", "", latex)):
        row = row.replace("&", " ").strip()
        if not row:
            continue
        split = _split_result(row)
        if split:
            out.append(Block("eq", math_to_html(split[0]), math_to_html(split[1])))
        else:
            out.append(Block("eq", math_to_html(row)))
    return out


def markdown_blocks(md: str) -> list[Block]:
    """Headings, paragraphs, list items and displayed formulas of Markdown with markers filled in;
    code, tables, widgets, raw HTML and folded ``???`` boxes are left out."""
    blocks: list[Block] = []
    for b in scanner.blocks(md):
        if b.kind in _LEFT_OUT:
            continue
        if b.kind == "math":
            blocks.extend(_equations(b.formula))
        elif b.kind == "heading":
            blocks.append(Block("h", inline_html(b.title or "")))
        elif b.kind == "open":
            if b.title:
                blocks.append(Block("p", "<b>" + inline_html(b.title) + "</b>"))
        else:  # a paragraph or a list item
            rest = [s.strip() for s in b.lines[1:]]
            text = " ".join([b.title if b.kind == "item" else b.lines[0].strip()] + rest)
            if text.strip():
                full, blanked = inline_html(text), inline_html(text, blank=True)
                blocks.append(Block("li" if b.kind == "item" else "p", blanked, full if full != blanked else ""))
    return blocks


def _paragraphs(markdown: str) -> list[str]:
    out = []
    for b in markdown_blocks(markdown):
        if b.kind == "eq":
            out.append(b.html + (" " + b.answer if b.answer else ""))
        else:  # a question's own numbers are given, not asked for
            out.append(("• " if b.kind == "li" else "") + (b.answer or b.html))
    return out


def content(lesson, lang: str, results: dict, figure_path, edition: str = "open") -> Content:
    """What the handout of ``lesson`` in ``lang`` holds, with every marker filled in from
    ``results`` (the markers' data); ``figure_path(experiment, stem)`` gives a figure's PNG."""
    src = DOCS / lang / "lessons" / f"{lesson.slug}.md"
    page = editions.select(src.read_text(encoding="utf-8"), edition, f"{lang}/lessons/{lesson.slug}.md")
    ctx = kinds.context(lang, page=src.relative_to(REPO_ROOT).as_posix(),
                          src_uri=f"lessons/{lesson.slug}.md", results=results)
    worked = section(page, "worked-example")
    figs = _FIG.findall(worked) or _FIG.findall(page)[:1]
    out = Content(lang=lang, number=lesson.number, title=lesson.title[lang])
    for exp, stem, alt in figs[:MAX_FIGURES]:
        out.figures.append((Path(figure_path(exp, stem)), ctx.render(alt) if alt else ""))
    out.worked = markdown_blocks(ctx.render(_FIG.sub("", worked)))
    qctx = kinds.context(lang, page=f"docs/questions/lesson-{lesson.number:02d}.yml",
                           src_uri=ctx.src_uri, results=results)
    for q in questions.load().get(lesson.number, {}).get("questions", []):
        hint = q.get("hint", {}).get(lang, "")
        out.questions.append(Question(
            html=_paragraphs(qctx.render(q[lang])),
            hint=_paragraphs(qctx.render(hint)) if hint else [],
            answer=_paragraphs(qctx.render(q["answer"][lang]))))
    return out


# ---------------------------------------------------------------- the PDF

def _pdf_class():
    from fpdf import FPDF

    class Handout(FPDF):
        footer_text = ""

        def footer(self):
            self.set_y(-12)
            self.set_font("nanum", size=8)
            self.set_text_color(110)
            self.cell(0, 6, f"{self.footer_text}  ·  {self.page_no()}", align="C")
            self.set_text_color(0)

    return Handout


def render(c: Content, answers: bool = False) -> bytes:
    """The handout of ``c`` as PDF bytes (A4; the student version unless ``answers``)."""
    import logging

    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # tables it drops: hinting only
    lang = c.lang
    fonts = _font_files()
    pdf = _pdf_class()(format="A4", unit="mm")
    pdf.set_creation_date(__import__("datetime").datetime(2017, 6, 12, tzinfo=__import__("datetime").timezone.utc))
    pdf.set_margins(18, 16, 18)
    pdf.set_auto_page_break(True, margin=18)
    pdf.add_font("nanum", "", str(fonts["nanum"]))
    pdf.add_font("nanum", "B", str(fonts["nanum-b"]))
    pdf.add_font("dejavu", "", str(fonts["dejavu"]))
    pdf.add_font("dejavu", "B", str(fonts["dejavu-b"]))
    pdf.set_fallback_fonts(["dejavu"], exact_match=False)
    title = ui.text(lang, "lesson.titled", n=c.number, title=c.title)
    kind = ui.text(lang, "handout.kind_answers") if answers else ui.text(lang, "handout.kind")
    pdf.set_title(f"{title} — {kind}")
    pdf.set_lang(c.lang)
    pdf.footer_text = f"{title} — {kind}"
    pdf.add_page()
    width = pdf.w - pdf.l_margin - pdf.r_margin

    def html(text: str, size: float = 10.5):
        pdf.set_font("nanum", size=size)
        pdf.write_html(f"<p>{text}</p>", font_family="nanum", tag_styles=None)

    def heading(text: str, size: float = 14):
        pdf.ln(2)
        pdf.set_font("nanum", "B", size)
        pdf.multi_cell(width, size * 0.5, text, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1.5)

    pdf.set_font("nanum", "B", 17)
    pdf.multi_cell(width, 8, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("nanum", "", 11)
    pdf.cell(width, 6, kind, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    y = pdf.get_y() + 6
    for label, x0, x1 in ((ui.text(lang, "handout.name"), 0, 0.6), (ui.text(lang, "handout.date"), 0.65, 1.0)):
        pdf.set_xy(pdf.l_margin + x0 * width, y - 5)
        pdf.cell(16, 6, label + ":")
        pdf.line(pdf.l_margin + x0 * width + 16, y, pdf.l_margin + x1 * width, y)
    pdf.set_xy(pdf.l_margin, y + 2)
    pdf.ln(2)

    if c.figures:
        heading(ui.text(lang, "handout.figures"))
        for png, caption in c.figures:
            from PIL import Image

            with Image.open(png) as im:
                ratio = im.height / im.width
            img_w = width
            if img_w * ratio > 110:  # keep a tall figure to about half a page
                img_w = 110 / ratio
            if pdf.get_y() + img_w * ratio > pdf.h - 26:
                pdf.add_page()
            pdf.image(str(png), x=pdf.l_margin + (width - img_w) / 2, w=img_w)
            if caption:
                pdf.set_font("nanum", size=8.5)
                pdf.multi_cell(width, 4.4, caption, align="C", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)

    heading(ui.text(lang, "handout.worked"))
    pdf.set_font("nanum", size=9)
    pdf.multi_cell(width, 4.6, ui.text(lang, "handout.worked_note_answers") if answers else ui.text(lang, "handout.worked_note"),
                   new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)
    for b in c.worked:
        if b.kind == "h":
            heading(re.sub(r"<[^>]+>", "", b.html), 11.5)
        elif b.kind == "eq":
            shown = b.html + ((" " + (b.answer if answers else BLANK)) if b.answer else "")
            html(f"&#160;&#160;&#160;&#160;{shown}")
        else:
            shown = b.answer if answers and b.answer else b.html
            html(("• " if b.kind == "li" else "") + shown)

    if c.questions:
        pdf.add_page()
        heading(ui.text(lang, "handout.questions"))
        for n, q in enumerate(c.questions, 1):
            pdf.set_font("nanum", "B", 11)
            pdf.cell(width, 6, ui.text(lang, "handout.question", n=n), new_x="LMARGIN", new_y="NEXT")
            for p in q.html:
                html(p)
            for k, p in enumerate(q.hint):
                html((f"<b>{ui.text(lang, 'questions.hint')}:</b> " if k == 0 else "") + p, 9.5)
            if answers:
                pdf.set_font("nanum", "B", 10)
                pdf.cell(width, 6, ui.text(lang, "questions.answer"), new_x="LMARGIN", new_y="NEXT")
                for p in q.answer:
                    html(p, 9.5)
                pdf.ln(3)
            else:
                box = 42
                if pdf.get_y() + box > pdf.h - 20:
                    pdf.add_page()
                y = pdf.get_y() + 1
                pdf.set_draw_color(150)
                pdf.rect(pdf.l_margin, y, width, box)
                pdf.set_draw_color(215)
                for k in range(1, 6):
                    pdf.line(pdf.l_margin + 3, y + k * 7, pdf.l_margin + width - 3, y + k * 7)
                pdf.set_draw_color(0)
                pdf.set_y(y + box + 5)
    return bytes(pdf.output())


def cache_key(c: Content, answers: bool) -> str:
    import fpdf

    fonts = {k: (p.name, p.stat().st_size) for k, p in _font_files().items()}
    blob = json.dumps({"code": Path(__file__).read_text(encoding="utf-8"), "fpdf": fpdf.__version__,
                       "fonts": fonts, "answers": answers, "content": c.key()},
                      sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:24]


def handout_pdf(lesson, lang: str, results: dict, figure_path, out: Path, answers: bool = False,
                cache: Path | None = None, edition: str = "open") -> tuple[Path, bool]:
    """Write the handout of ``lesson`` (a :class:`coursebuild.course.Lesson`) in ``lang`` to
    ``out`` (atomically). With ``cache`` (a folder), reuse a PDF made from the same inputs.
    Returns (out, whether it was made now)."""
    c = content(lesson, lang, results, figure_path, edition)
    made = True
    if cache is not None:
        cached = Path(cache) / f"{cache_key(c, answers)}.pdf"
        if cached.is_file():
            data, made = cached.read_bytes(), False
        else:
            data = render(c, answers)
            atomic.write_bytes(cached, data)
    else:
        data = render(c, answers)
    atomic.write_bytes(Path(out), data)
    return Path(out), made


def file_name(lesson) -> str:
    return f"lesson-{lesson.number:02d}-{lesson.slug}.pdf"


def site_path(lesson, lang: str) -> str:
    """The student handout's path in the site (the same for both language trees)."""
    return f"{ASSET_DIR}/{lang}/{file_name(lesson)}"


def build(out_dir: Path, results: dict, figure_path, cache: Path, answers: bool = False,
          langs=("ko", "en"), edition: str = "open") -> dict[tuple[int, str], tuple[Path, bool]]:
    """Every lesson's handout in every language under ``out_dir/<lang>/``; ``figure_path(lang,
    experiment, stem)``. Returns {(lesson number, lang): (path, made now)}."""
    done = {}
    for lesson in LESSONS:
        for lang in langs:
            done[(lesson.number, lang)] = handout_pdf(
                lesson, lang, results, lambda e, s, lang=lang: figure_path(lang, e, s),
                Path(out_dir) / lang / file_name(lesson), answers=answers, cache=cache, edition=edition)
    return done


# ---------------------------------------------------------------- in the site build

def for_site(config, results: dict, figure_paths: dict, staging: Path, cache_root: Path, log) -> dict[str, Path]:
    """Every handout of this build, made once per build (all its languages): the versions
    without answers for the site ({site path: PDF}), the versions with answers into the
    instructor pack's ``staging/handouts/<lang>/``. ``figure_paths``: {(lang, experiment,
    stem): PNG}; PDFs are cached in ``cache_root/cache`` under a key of all that goes in."""
    state = build_state(config, "handouts")
    if "files" in state:
        return state["files"]

    def figure_path(lang, exp, stem):
        try:
            return figure_paths[(lang, exp, stem)]
        except KeyError:
            raise KeyError(f"handouts: no figure {exp}.{stem} for {lang}") from None

    start = time.perf_counter()
    edition = config.extra.get("edition", editions.DEFAULT)
    done = build(cache_root / "site", results, figure_path, cache=cache_root / "cache", edition=edition)
    answered = build(staging / "handouts", results, figure_path, cache=cache_root / "cache",
                     answers=True, edition=edition)
    every = list(done.values()) + list(answered.values())
    made = sum(new for _, new in every)
    log.info("handouts: %d PDFs, with and without answers (%d made, %d from the cache) in %.1fs",
             len(every), made, len(every) - made, time.perf_counter() - start)
    state["files"] = {site_path(lesson, lang): done[(lesson.number, lang)][0]
                      for lesson in LESSONS for lang in ("ko", "en")}
    return state["files"]


_LESSON_PAGE = re.compile(r"^(?:(?P<lang>[a-z]{2})/)?lessons/(?P<slug>[^/]+)\.md$")


def lesson_of(src_uri: str):
    """The lesson whose page is ``src_uri`` (``ko/lessons/x.md``), or None."""
    m = _LESSON_PAGE.match(src_uri)
    return next((lesson for lesson in LESSONS if m and lesson.slug == m["slug"]), None)


def page_link(lesson, lang: str, page_url: str) -> dict:
    """The handout link of a lesson page (``docs/overrides/partials/classroom.html``)."""
    return {"url": get_relative_url(site_path(lesson, lang), page_url), "filename": file_name(lesson)}
