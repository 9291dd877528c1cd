"""Printable handouts: one A4 PDF per lesson and language, typeset like the lesson, for paper.

A student handout is two A4 pages:

1. the lesson's title, a line for the name and the date, the **key figure** (a lesson figure as
   the build drew it, cut to the part that shows no blank's answer) and the **worked example to
   fill in**, written for paper in ``docs/handouts/lesson-NN.yml`` (both languages; markers as on
   the pages, and ``[[blank:experiment.key|format]]`` for a blank: a numbered box ①, ②, …, whose
   value is the result the marker ``[[value:experiment.key|format]]`` would print). A handout
   has at least three blanks (:func:`content` refuses fewer), and its source says nothing of
   widgets, clicks or anything else not on paper;
2. the lesson's **check questions** (``docs/questions/lesson-NN.yml``) with their hints, each
   with a ruled box; the boxes share the page.

The page is HTML (this module), set with the vendored KaTeX and NanumGothic (:func:`font_dir`;
``handout/handout.css``) and printed by Chromium (:mod:`coursebuild.outputs.handout_print`),
which embeds the fonts; ``handout/fit.js`` gives the figure the greatest height page 1 leaves
room for and, where even the smallest figure does not fit, lowers the type size in small steps
until both pages hold their content and every box keeps its least height. The answered version (``answers=True``, for the instructor pack) shows each
blank's value in its box and each question's worked answer instead of the box; it may run
longer than two pages.

Every PDF is cached in ``.build/handouts/cache/`` under a hash of its page (texts after the
markers, the figure's bytes), the stylesheet and script, this module and the printer, the
vendored KaTeX, the text font's files and the Chromium binary: a build with nothing changed copies
files and starts no browser; one that changed something starts one browser for all the PDFs
it has to make.
"""

from __future__ import annotations

import base64
import hashlib
import html as htmllib
import io
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml
from mkdocs.utils import get_relative_url

from .. import atomic
from ..content import questions, ui
from ..course import LESSONS
from ..pages import kinds
from ..paths import DOCS, REPO_ROOT
from ..state import build_state
from . import handout_print

ASSET_DIR = "assets/handouts"  # in the site: assets/handouts/<lang>/<lesson-NN-slug>.pdf
SOURCES = DOCS / "handouts"    # docs/handouts/lesson-NN.yml: each handout's worked example
TEMPLATE_DIR = Path(__file__).resolve().parent / "handout"
VENDOR = DOCS / "assets" / "vendor"
MIN_BLANKS = 3
NUMBERS = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫"  # a blank's label; the tests count them in the PDF's text
BLANK = re.compile(r"\[\[blank:([\w.-]+)(?:\|([^\]|]*))?\]\]")
_MATH = re.compile(r"\$\$.+?\$\$|(?<!\\)\$[^$\n]+?\$", re.S)


# ---------------------------------------------------------------- sources and blanks

def source_path(lesson) -> Path:
    return SOURCES / f"lesson-{lesson.number:02d}.yml"


@lru_cache(maxsize=32)
def _source(path: Path, stamp: float) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    where = path.relative_to(REPO_ROOT).as_posix()
    if not isinstance(data, dict) or not isinstance(data.get("figure"), dict):
        raise ValueError(f"{where}: needs 'figure' (name, keep) and 'ko', 'en' (caption, text)")
    for lang in ("ko", "en"):
        part = data.get(lang)
        if not isinstance(part, dict) or not isinstance(part.get("text"), str) or not part.get("caption"):
            raise ValueError(f"{where}: '{lang}' needs 'caption' and 'text'")
    if BLANK.findall(data["ko"]["text"]) != BLANK.findall(data["en"]["text"]):
        raise ValueError(f"{where}: the Korean and English texts must have the same blanks in the same order")
    return data


def source(lesson) -> dict:
    """The handout source of ``lesson`` (checked: a figure, both languages, the same blanks)."""
    path = source_path(lesson)
    if not path.is_file():
        raise FileNotFoundError(f"handouts: no source {path.relative_to(REPO_ROOT).as_posix()} for lesson {lesson.number}")
    return _source(path, path.stat().st_mtime)


@dataclass
class Blank:
    n: int         # 1, 2, ...: shown as ①, ②, ...
    key: str       # experiment.key, as [[value:…]] reads it
    answer: str    # the value, formatted as the blank's format says


def _label(n: int) -> str:
    return NUMBERS[n - 1] if n <= len(NUMBERS) else f"({n})"


def fill_blanks(text: str, ctx, answers: bool) -> tuple[str, list[Blank]]:
    """``text`` with each ``[[blank:…]]`` as a numbered box, empty or (``answers``) holding its
    value; a blank inside ``$…$`` becomes TeX, elsewhere HTML. Returns (text, blanks)."""
    spans = [(m.start(), m.end()) for m in _MATH.finditer(text)]
    out, pos, blanks = [], 0, []
    for m in BLANK.finditer(text):
        fmt = f"|{m[2]}" if m[2] else ""
        value = ctx.render(f"[[value:{m[1]}{fmt}]]")
        b = Blank(len(blanks) + 1, m[1], value)
        blanks.append(b)
        in_math = any(a <= m.start() < z for a, z in spans)
        label = _label(b.n)
        if in_math:
            tex = re.sub(r"([%#&_$])", r"\\\1", value)  # a value's % is TeX's comment sign
            inner = rf"\;\text{{{tex}}}" if answers else rf"\hspace{{{max(2.6, 0.6 * len(value)):.1f}em}}"
            colour = r"\color{#a3122d}" if answers else ""
            strut = r"\rule[-0.35em]{0pt}{1.3em}"  # the box as tall as a line of text
            piece = rf"{{{colour}\boxed{{{strut}\htmlClass{{n}}{{\text{{{label}}}}}{inner}}}}}"
        else:
            cls = "blank answered" if answers else "blank"
            shown = f" {htmllib.escape(value)}" if answers else ""
            piece = f'<span class="{cls}"><span class="n">{label}</span>{shown}</span>'
        out += [text[pos:m.start()], piece]
        pos = m.end()
    out.append(text[pos:])
    return "".join(out), blanks


# ---------------------------------------------------------------- what goes on a handout

@lru_cache(maxsize=1)
def _markdown():
    import markdown

    return markdown.Markdown(extensions=[
        "tables", "attr_list", "md_in_html", "admonition", "pymdownx.arithmatex", "pymdownx.superfences"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}})


def to_html(markdown_text: str) -> str:
    """Markdown as the site writes it (tables, attribute lists, formulas kept for KaTeX); one
    converter for all (making one costs more than converting a question)."""
    return _markdown().reset().convert(markdown_text)


@dataclass
class Question:
    html: str
    hint: str
    answer: str


@dataclass
class Content:
    lang: str
    number: int
    title: str
    figure: bytes = b""       # the key figure, a PNG, cut as the source says
    caption: str = ""
    worked: str = ""          # HTML
    blanks: list[Blank] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def _cut(png: Path, keep) -> bytes:
    """The part ``keep`` = [left, top, right, bottom] (fractions of the width and height) of
    the figure ``png``, as PNG bytes."""
    from PIL import Image

    with Image.open(png) as im:
        w, h = im.size
        left, top, right, bottom = keep
        part = im.crop((round(left * w), round(top * h), round(right * w), round(bottom * h)))
        buf = io.BytesIO()
        part.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def content(lesson, lang: str, results: dict, figure_path, answers: bool = False,
            edition: str = "open") -> Content:
    """What the handout of ``lesson`` in ``lang`` holds, markers filled in from ``results``;
    ``figure_path(experiment, stem)`` gives a figure's PNG."""
    src = source(lesson)
    where = source_path(lesson).relative_to(REPO_ROOT).as_posix()
    ctx = kinds.context(lang, page=where, src_uri=f"lessons/{lesson.slug}.md", results=results, edition=edition)
    text, blanks = fill_blanks(src[lang]["text"], ctx, answers)
    if len(blanks) < MIN_BLANKS:
        raise ValueError(f"{where}: {len(blanks)} blank(s); a handout needs at least {MIN_BLANKS}")
    exp, stem = src["figure"]["name"].split(".")
    out = Content(lang=lang, number=lesson.number, title=lesson.title[lang],
                  figure=_cut(Path(figure_path(exp, stem)), src["figure"].get("keep", [0, 0, 1, 1])),
                  caption=ctx.render(src[lang]["caption"]), worked=to_html(ctx.render(text)), blanks=blanks)
    qctx = kinds.context(lang, page=f"docs/questions/lesson-{lesson.number:02d}.yml",
                         src_uri=ctx.src_uri, results=results, edition=edition)
    for q in questions.load().get(lesson.number, {}).get("questions", []):
        hint = q.get("hint", {}).get(lang, "")
        out.questions.append(Question(html=to_html(qctx.render(q[lang])),
                                      hint=to_html(qctx.render(hint)) if hint else "",
                                      answer=to_html(qctx.render(q["answer"][lang])) if answers else ""))
    return out


# ---------------------------------------------------------------- the page

# where the page finds the vendored KaTeX and the text font: these tokens in the page (so that
# the cache key does not depend on where the repository or the virtual environment sits), the
# folders' file URLs when it is printed
VENDOR_TOKEN = "course-vendor:/"
FONT_TOKEN = "course-font:/"
FONT_FILES = {400: "NanumGothic.ttf", 700: "NanumGothicBold.ttf"}


@lru_cache(maxsize=1)
def font_dir() -> Path:
    """The text font's folder: NanumGothic, shipped in the ``koreanize-matplotlib`` wheel (the
    figures' Korean font), found without importing the package (importing it changes
    matplotlib's settings). One font file per weight, so a Korean word is one run of one font in
    the PDF and its text reads back whole (the site's Noto Sans KR comes in 100 pieces)."""
    import importlib.util

    spec = importlib.util.find_spec("koreanize_matplotlib")
    folder = Path(spec.origin).parent / "fonts" if spec and spec.origin else None
    missing = [name for name in FONT_FILES.values() if folder is None or not (folder / name).is_file()]
    if missing:
        raise FileNotFoundError(f"handouts: font file(s) {', '.join(missing)} of koreanize-matplotlib not found; "
                                "reinstall it (requirements.txt)")
    return folder


def clean_fonts(folder: Path) -> Path:
    """The text font's files in ``folder``, without the empty VTT source tables (``TSI0``…``TSI5``)
    that Chromium's font check (OTS) refuses in the wheel's copy ("TSI3: zero-length table") and
    without the control characters its space glyph is also mapped from: the outlines, metrics
    and hinting are kept as they are. Written once per version of the font files."""
    from fontTools.ttLib import TTFont

    folder = Path(folder)
    for name in FONT_FILES.values():
        target = folder / name
        if target.is_file():
            continue
        font = TTFont(font_dir() / name)
        for tag in [t for t in font.keys() if t.startswith("TSI")]:
            del font[tag]
        for table in font["cmap"].tables:  # the space's glyph also serves U+0000-U+001F, and the
            for code in [c for c in table.cmap if c < 0x20]:  # PDF would read every space as U+0001
                del table.cmap[code]
        buf = io.BytesIO()
        font.save(buf)
        atomic.write_bytes(target, buf.getvalue())
    return folder


def _font_faces() -> str:
    return "".join(f'@font-face {{ font-family: "Handout Gothic"; font-weight: {weight}; '
                   f'src: url("{FONT_TOKEN}{name}") format("truetype"); }}\n'
                   for weight, name in FONT_FILES.items())


def _uri(path: Path) -> str:
    return VENDOR_TOKEN + path.relative_to(VENDOR).as_posix()


def page(c: Content, answers: bool = False) -> str:
    """The handout of ``c`` as one HTML page for Chromium to print."""
    lang, e = c.lang, htmllib.escape
    title = ui.text(lang, "lesson.titled", n=c.number, title=c.title)
    kind = ui.text(lang, "handout.kind_answers") if answers else ui.text(lang, "handout.kind")
    sheet = "sheet flow" if answers else "sheet fixed"
    foot = htmllib.escape(f"{title} — {kind}")
    figure = base64.b64encode(c.figure).decode("ascii")
    qs = []
    for n, q in enumerate(c.questions, 1):
        hint = (f'<div class="hint"><strong>{e(ui.text(lang, "questions.hint"))}:</strong> {q.hint}</div>' if q.hint else "")
        tail = (f'<div class="answer"><h4>{e(ui.text(lang, "questions.answer"))}</h4>{q.answer}</div>' if answers
                else '<div class="box"></div>')
        qs.append(f'<section class="q"><h3>{e(ui.text(lang, "handout.question", n=n))}</h3>{q.html}{hint}{tail}</section>')
    note = e(ui.text(lang, "handout.worked_note_answers")) if answers else e(ui.text(lang, "handout.worked_note", n=len(c.blanks)))
    return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{htmllib.escape(title)} — {htmllib.escape(kind)}</title>
<link rel="stylesheet" href="{_uri(VENDOR / 'katex' / 'katex.min.css')}">
<style>{_font_faces()}{(TEMPLATE_DIR / 'handout.css').read_text(encoding='utf-8')}</style>
<script src="{_uri(VENDOR / 'katex' / 'katex.min.js')}"></script>
<script src="{_uri(VENDOR / 'katex' / 'auto-render.min.js')}"></script>
</head><body>
<section class="{sheet}">
<header class="top"><h1>{htmllib.escape(title)}</h1><span class="kind">{htmllib.escape(kind)}</span></header>
<div class="who"><span>{e(ui.text(lang, "handout.name"))}:</span><span class="date">{e(ui.text(lang, "handout.date"))}:</span></div>
<figure><img src="data:image/png;base64,{figure}" alt="{htmllib.escape(c.caption)}"><figcaption>{htmllib.escape(c.caption)}</figcaption></figure>
<h2>{e(ui.text(lang, "handout.worked"))}</h2>
<p class="note">{note}</p>
{c.worked}
<footer>{foot}</footer>
</section>
<section class="{sheet}">
<h2>{e(ui.text(lang, "handout.questions"))}</h2>
<div class="questions">{''.join(qs)}</div>
<footer>{foot}</footer>
</section>
</body></html>
"""


def _files_hash(paths) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


@lru_cache(maxsize=1)
def _tool_hash() -> str:
    """What prints every handout alike: the template, this module and the printer, the vendored
    KaTeX (with its fonts) and the text font's files."""
    here = Path(__file__).resolve().parent
    files = [here / "handouts.py", here / "handout_print.py", *sorted(TEMPLATE_DIR.iterdir()),
             *sorted((VENDOR / "katex").rglob("*.*")), *(font_dir() / name for name in FONT_FILES.values())]
    return _files_hash([p for p in files if p.is_file()])


def cache_key(html: str) -> str:
    blob = "\0".join([html, _tool_hash(), handout_print.version_stamp()])
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:24]


# ---------------------------------------------------------------- making PDFs

@dataclass
class Job:
    out: Path
    html: str
    answers: bool
    key: str = ""


def make(jobs: list[Job], cache: Path) -> list[bool]:
    """Write each job's PDF to ``job.out``, from ``cache`` where it holds one made from the same
    page, else printed now (one browser for all). Returns, per job, whether it was printed now."""
    handout_print.chromium()  # a build without Chromium stops here, saying how to install it
    cache = Path(cache)
    pending: dict[str, tuple[Path, Path, bool]] = {}
    fonts = cache / "fonts" / _files_hash([font_dir() / name for name in FONT_FILES.values()])[:12]
    for job in jobs:
        job.key = cache_key(job.html)
        pdf = cache / f"{job.key}.pdf"
        if not pdf.is_file() and job.key not in pending:
            page_file = cache / "pages" / f"{job.key}.html"
            atomic.write_text(page_file, job.html.replace(VENDOR_TOKEN, VENDOR.resolve().as_uri() + "/")
                              .replace(FONT_TOKEN, fonts.resolve().as_uri() + "/"))
            pending[job.key] = (page_file, pdf, not job.answers)
    if pending:
        clean_fonts(fonts)
    handout_print.print_pages(list(pending.values()))
    for page_file, _, _ in pending.values():
        page_file.unlink()
    for job in jobs:
        atomic.write_bytes(Path(job.out), (cache / f"{job.key}.pdf").read_bytes())
    return [job.key in pending for job in jobs]


def handout_pdf(lesson, lang: str, results: dict, figure_path, out: Path, answers: bool = False,
                cache: Path | None = None, edition: str = "open") -> tuple[Path, bool]:
    """Write the handout of ``lesson`` (a :class:`coursebuild.course.Lesson`) in ``lang`` to
    ``out``, reusing a PDF of ``cache`` (a folder) made from the same page. Returns (out,
    whether it was printed now)."""
    c = content(lesson, lang, results, figure_path, answers, edition)
    if cache is None:
        cache = Path(out).parent / ".handout-cache"
    made = make([Job(Path(out), page(c, answers), answers)], cache)
    return Path(out), made[0]


def file_name(lesson) -> str:
    return f"lesson-{lesson.number:02d}-{lesson.slug}.pdf"


def site_path(lesson, lang: str) -> str:
    """The student handout's path in the site (the same for both language trees)."""
    return f"{ASSET_DIR}/{lang}/{file_name(lesson)}"


def jobs(out_dir: Path, results: dict, figure_path, answers: bool = False, langs=("ko", "en"),
         edition: str = "open") -> dict[tuple[int, str], Job]:
    """Every lesson's handout in every language, to be written under ``out_dir/<lang>/``;
    ``figure_path(lang, experiment, stem)``."""
    out = {}
    for lesson in LESSONS:
        for lang in langs:
            c = content(lesson, lang, results, lambda e, s, lang=lang: figure_path(lang, e, s), answers, edition)
            out[(lesson.number, lang)] = Job(Path(out_dir) / lang / file_name(lesson), page(c, answers), answers)
    return out


def build(out_dir: Path, results: dict, figure_path, cache: Path, answers: bool = False,
          langs=("ko", "en"), edition: str = "open") -> dict[tuple[int, str], tuple[Path, bool]]:
    """Every lesson's handout in every language under ``out_dir/<lang>/``. Returns {(lesson
    number, lang): (path, printed now)}."""
    todo = jobs(out_dir, results, figure_path, answers, langs, edition)
    made = make(list(todo.values()), cache)
    return {k: (job.out, new) for (k, job), new in zip(todo.items(), made)}


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
    edition = config.extra.get("edition", "open")
    student = jobs(cache_root / "site", results, figure_path, edition=edition)
    answered = jobs(staging / "handouts", results, figure_path, answers=True, edition=edition)
    every = list(student.values()) + list(answered.values())
    made = sum(make(every, cache_root / "cache"))
    log.info("handouts: %d PDFs, with and without answers (%d printed, %d from the cache) in %.1fs",
             len(every), made, len(every) - made, time.perf_counter() - start)
    state["files"] = {site_path(lesson, lang): student[(lesson.number, lang)].out
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
