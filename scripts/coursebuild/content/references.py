"""The references page: every cited work with the pages citing it, and where each figure's idea
comes from. The works and the figures' notes are in ``docs/references.yml``; what is computed
here is everything that can be: which pages cite a work (its ``cite`` strings found in the page
sources of the same language and in ``docs/questions/``), and which figures exist (the
experiments' results of this build) and on which lesson each is shown.

Markers (blocks): ``[[references]]`` (the table of works) and ``[[figure-sources]]`` (the table
of figures). A figure in the results without a line under ``figures:`` fails the build, naming
the file to edit, so a new figure cannot appear without its origin.
"""

from __future__ import annotations

import difflib
import functools
import re
from pathlib import Path

import yaml

from ..course import LESSONS
from ..outputs import editions
from ..paths import DOCS
from . import ui

SOURCE = DOCS / "references.yml"
_HEADING = re.compile(r"^#\s+(.*?)\s*(?:\{[^}]*\})?\s*$", re.M)


@functools.lru_cache(maxsize=1)
def _load_cached(mtime: float) -> dict:
    data = yaml.safe_load(SOURCE.read_text(encoding="utf-8"))
    for key, work in data["works"].items():
        missing = {"authors", "year", "title", "id", "cite"} - set(work)
        if missing:
            raise ValueError(f"{SOURCE.name}: work '{key}' lacks {', '.join(sorted(missing))}")
    for fig, note in data.get("figures", {}).items():
        unknown = [w for w in note.get("from", []) if w not in data["works"]]
        if unknown:
            raise ValueError(f"{SOURCE.name}: figure '{fig}' cites unknown works {unknown}")
    return data


def load() -> dict:
    return _load_cached(SOURCE.stat().st_mtime)


def link(work_id: str) -> str:
    """An arXiv id, a DOI or an address as a Markdown link."""
    if work_id.startswith("arXiv:"):
        return f"[{work_id}](https://arxiv.org/abs/{work_id.removeprefix('arXiv:')})"
    if work_id.startswith("doi:"):
        return f"[{work_id}](https://doi.org/{work_id.removeprefix('doi:')})"
    return f"[{re.sub(r'^https?://', '', work_id).rstrip('/').split('/')[0]}]({work_id})"


def pages(lang: str) -> list[Path]:
    """The page sources of ``lang`` that may cite works (this page itself excluded)."""
    root = DOCS / lang
    return sorted(p for p in root.rglob("*.md") if p.name != "references.md")


def _page_label(path: Path, lang: str) -> str:
    rel = path.relative_to(DOCS / lang).as_posix()
    for lesson in LESSONS:
        if rel == lesson.page:
            return ui.text(lang, "lesson.number", n=lesson.number)
    m = _HEADING.search(path.read_text(encoding="utf-8"))
    return m[1].strip() if m else rel


def _questions_text() -> str:
    folder = DOCS / "questions"
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.yml"))) if folder.is_dir() else ""


# a citation in prose: "Vaswani et al. (2017)", "(Voita et al., 2019)", "Bahdanau, Cho, Bengio (2015)",
# "Reimers and Gurevych (2019)", "Shazeer (2019)", "Reimers·Gurevych (2019)"
CITATION = re.compile(
    r"(?P<first>[A-Z][a-zA-Z'-]+)"
    r"(?: et al\.|(?:(?:, |·| and )[A-Z][a-zA-Z'-]+)+)?"
    r"(?:,? \(| \(|, )(?:[^()\d]{0,40}, )?(?P<year>(?:19|20)\d\d)[a-z]?\b")
NOT_AUTHORS = {"Post-LN", "Pre-LN", "The", "In", "Since", "LN", "Table", "Lesson", "Figure", "Section", "By",
               "From", "At", "Of"}


def citations(text: str) -> set[tuple[str, int]]:
    """(first author, year) of every citation in ``text``."""
    return {(m["first"], int(m["year"])) for m in CITATION.finditer(text) if m["first"] not in NOT_AUTHORS}


def listed(works: dict) -> set[tuple[str, int]]:
    """(first author, year) of every work in references.yml, and of the names pages cite it by."""
    out = set()
    for work in works.values():
        if work["year"]:
            out.add((re.split(r"[, ]", work["authors"])[0], int(work["year"])))
            # a work the pages name by its model, "BERT (2019)", "RoFormer (2021)"
            out.update((c.split()[0], int(work["year"])) for c in work["cite"])
    return out


def unlisted(lang: str, works: dict) -> dict[str, list[str]]:
    """{"Ainslie (2023)": [pages]}: citations on the pages of ``lang`` (this page and the check
    questions included) that references.yml lacks."""
    known, out = listed(works), {}
    sources = sorted((DOCS / lang).rglob("*.md")) + sorted((DOCS / "questions").glob("*.yml"))
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for m in CITATION.finditer(text):
            year = int(m["year"])
            # "Robert Desimone, John Duncan (1995)": a listed first author among the names just before
            names = re.findall(r"[A-Z][a-zA-Z'-]+", text[max(0, m.start() - 80):m.end()])
            if m["first"] in NOT_AUTHORS or any((w, year) in known for w in names):
                continue
            where = out.setdefault(f"{m['first']} ({year})", [])
            if path.relative_to(DOCS).as_posix() not in where:
                where.append(path.relative_to(DOCS).as_posix())
    return out


def cited_in(work: dict, lang: str, edition: str = "open") -> list[tuple[str, str]]:
    """(label, page path relative to the language root) of each page of ``edition`` that names
    ``work`` (the student edition has no instructor page, and only its own edition blocks)."""
    found = []
    for path in pages(lang):
        rel = path.relative_to(DOCS / lang).as_posix()
        if edition == "student" and editions.is_instructor_page(rel):
            continue
        text = editions.select(path.read_text(encoding="utf-8"), edition, str(path))
        if any(c in text for c in work["cite"]):
            found.append((_page_label(path, lang), path.relative_to(DOCS / lang).as_posix()))
    # the check questions are shown on the lessons, the exercises page and the answer key
    if any(c in _questions_text() for c in work["cite"]):
        exercises = DOCS / lang / "teaching" / "exercises.md"
        if exercises.is_file() and all(p != "teaching/exercises.md" for _, p in found):
            found.append((_page_label(exercises, lang), "teaching/exercises.md"))
    order = {lesson.page: lesson.number for lesson in LESSONS}
    return sorted(found, key=lambda f: (order.get(f[1], 100), f[1]))


def references_marker(arg, fmt, ctx) -> str:
    """``[[references]]``: one row per work, sorted by first author and year."""
    if arg is not None or fmt is not None:
        raise ValueError("references takes no argument or format")
    works = load()["works"]
    missing = unlisted(ctx.lang, works)
    if missing:
        raise ValueError("cited but not in docs/references.yml (add each with authors, year, title, id, cite): "
                         + "; ".join(f"{w} on {', '.join(p)}" for w, p in missing.items()))
    own = (DOCS / ctx.lang / "references.md").read_text(encoding="utf-8")
    rows = [f"| {ui.text(ctx.lang, 'references.column_work')} | {ui.text(ctx.lang, 'references.column_id')} | "
            f"{ui.text(ctx.lang, 'references.column_cited')} |", "|:---|:---|:---|"]
    for key, work in sorted(works.items(), key=lambda kv: (kv[1]["authors"].lower(), kv[1]["year"] or 0)):
        year = f" ({work['year']})" if work["year"] else ""
        # links are relative to the references page, which sits at the language root
        where = ", ".join(f"[{label}]({path})" for label, path in cited_in(work, ctx.lang, ctx.edition))
        if not where and ctx.edition != "open" and cited_in(work, ctx.lang):
            continue  # cited on the instructors' pages only, which this edition leaves out
        if not where and not any(c in own for c in work["cite"]):
            raise ValueError(f"docs/references.yml: work '{key}' is cited on no {ctx.lang} page (none of "
                             f"{work['cite']} appears): cite it where the page relies on it, or remove it")
        rows.append(f"| {work['authors']}{year}, *{work['title']}* | {link(work['id'])} | "
                    f"{where or ui.text(ctx.lang, 'references.this_page')} |")
    return "\n".join(rows)


def short_name(work: dict, lang: str) -> str:
    """"Vaswani et al. (2017)", "Carandini and Heeger (2012)", "Rush (2018)"."""
    names = [n.strip() for n in work["authors"].split(",")]
    if len(names) == 2:
        who = ui.text(lang, "references.two_authors", first=names[0], second=names[1])
    else:
        who = names[0] if len(names) == 1 or names[0].endswith("et al.") else f"{names[0]} et al."
    return f"{who} ({work['year']})" if work["year"] else who


def shown_in(figure: str, lang: str) -> list[tuple[str, str]]:
    marker = f"[[fig:{figure}|"
    return [(_page_label(DOCS / lang / l.page, lang), l.page) for l in LESSONS
            if marker in (DOCS / lang / l.page).read_text(encoding="utf-8")]


def figure_sources_marker(arg, fmt, ctx) -> str:
    """``[[figure-sources]]``: every figure of this build's results, where it is shown, its origin."""
    if arg is not None or fmt is not None:
        raise ValueError("figure-sources takes no argument or format")
    data = load()
    notes, works = data.get("figures", {}), data["works"]
    rows = [f"| {ui.text(ctx.lang, 'references.column_figure')} | {ui.text(ctx.lang, 'references.column_shown')} | "
            f"{ui.text(ctx.lang, 'references.column_idea')} | {ui.text(ctx.lang, 'references.column_works')} |",
            "|:---|:---|:---|:---|"]
    for exp in sorted(ctx.results):
        record = ctx.results[exp]
        figs = [f.removesuffix(".png") for f in (record.get("figures", {}) or {}).get(ctx.lang, [])] \
            if isinstance(record, dict) else []
        for fig in figs:
            name = f"{exp}.{fig}"
            if name not in notes:
                close = difflib.get_close_matches(name, list(notes), n=1)
                hint = f" (closest listed: '{close[0]}')" if close else ""
                raise KeyError(f"figure '{name}' has no origin note: add it under 'figures:' in "
                               f"docs/references.yml{hint}")
            note = notes[name]
            cites = "; ".join(short_name(works[w], ctx.lang) for w in note.get("from", []))
            where = ", ".join(f"[{label}]({path})" for label, path in shown_in(name, ctx.lang)) or "–"
            rows.append(f"| `{name}` | {where} | {note[ctx.lang]} | {cites or '–'} |")
    return "\n".join(rows)
