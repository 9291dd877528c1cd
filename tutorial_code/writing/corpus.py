"""A text corpus in Korean and English: the course's own prose, with its markup taken off.

**Source and why.** The text is this course's pages (``docs/ko/``, ``docs/en/``) and the text
cells of its lab notebooks (``tutorial_code/notebooks/``), read as plain prose. It is in the
repository, so nothing is downloaded, and it is one subject in both languages, page for page,
by the same authors: a tokenizer or a model trained on it meets Korean and English of one kind
and of similar size, which keeps a comparison of the two languages fair. Its licence is the
course's own. A public-domain book from a Python package was the other candidate; we know of
none that ships Korean and English of comparable kind, and a 19th-century novel is far from
what a reader of this course types. What it costs: some 0.15 MB of text per language is tiny
(GPT-2 was trained on about 40 GB), so a model trained on it writes the course's words and
phrases, not general text; a larger corpus would buy rarer words and more varied sentences.

**What is left out.** The instructor pages (the answer key and the instructor guide: they
answer the check questions, which the student edition keeps from students); code, formulas,
tables and figures, which are not prose; text that only one edition of the site shows; and
every sentence that holds a number or a word the site fills in when it is built, or a formula
(without it the sentence would read with a gap, "the loss fell to ."), so the text that is
kept is whole sentences.

**Documents.** A lesson's page and its notebook are one document group (they share sentences);
every other page is a group of its own. :func:`split` puts whole groups into training or
validation, the same groups in both languages (a page's translation in training would tell the
model what the validation page says), chosen in an order fixed by a hash of the group's name,
so the split is the same on every machine and changes only when pages are added or removed. A
validation sentence that also appears word for word in training (a repeated heading such as
"Motivation", a cited title) is dropped from validation.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

LANGS = ("ko", "en")
ROOT = Path(__file__).resolve().parents[2]           # the repository
LEFT_OUT = ("teaching/answer-key.md", "teaching/instructor-guide.md")   # they hold the answers
VALIDATION_SHARE = 0.15   # validation gets at least this share of the characters (both languages)


@dataclass(frozen=True)
class Document:
    """One page or notebook as prose: its language, its source (a path under the repository),
    its group (a lesson's slug for a lesson and its notebook, else the page's path) and its
    text (one paragraph a line)."""

    lang: str
    source: str
    group: str
    text: str


# --- markup to prose ---------------------------------------------------------------------

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_BOX = re.compile(r'^\s*(?:!!!|\?\?\?\+?)\s*[\w-]*(?:\s+"([^"]*)")?\s*$')   # !!! note "title"
_EDITION = re.compile(r"^\s*\[\[edition:(open|student|end)\]\]\s*$")
_SENTENCE_END = re.compile(r"(?<=[^\d\s][.!?])\s+")   # not after "3." of a numbered step
_HOLE = re.compile(r"\[\[|(?<!\\)\$")   # a placeholder (or one written out, \[[), a formula
_INLINE = [                                          # applied in this order
    (re.compile(r"`([^`]*)`"), r"\1"),               # inline code: keep the words
    (re.compile(r"\\\$"), "$"),                      # \$ is written for $
    (re.compile(r"!\[[^\]]*\]\([^)]*\)"), ""),       # images
    (re.compile(r"\[([^\]]*)\]\([^)]*\)"), r"\1"),   # links: keep the text
    (re.compile(r"\[([^\]]*)\]\[[^\]]*\]"), r"\1"),  # reference links
    (re.compile(r"<[^>\n]+>"), ""),                  # inline HTML
    (re.compile(r"\{\s*[:#.][^{}\n]*\}"), ""),       # attribute lists { #id } {: .class }
    (re.compile(r"\*\*|__|(?<!\w)\*|\*(?!\w)"), ""),  # bold and italic marks
    (re.compile(r"\s+"), " "),
]


def _paragraph(text: str) -> str:
    """One paragraph's prose: its whole sentences without holes, inline markup removed."""
    sentences = _SENTENCE_END.split(re.sub(r"\s+", " ", text.strip()))
    text = " ".join(s for s in sentences if not _HOLE.search(s))
    for pattern, replacement in _INLINE:
        text = pattern.sub(replacement, text)
    return text.strip()


def prose(markdown: str) -> str:
    """The prose of one page of Markdown: one paragraph a line, markup removed.

    Removed whole: front matter, code fences, display math (``$$``), tables, HTML lines,
    placeholder lines (``[[...]]``), abbreviation lines (``*[X]: ...``), text of one edition
    only, sentences with a hole (:func:`_paragraph`). Kept as text: headings, list items and
    box titles without their marks, link texts, inline code's words."""
    lines = markdown.split("\n")
    if lines and lines[0] == "---":                       # front matter
        close = next((k for k in range(1, len(lines)) if lines[k].rstrip() == "---"), None)
        if close is not None:
            lines = lines[close + 1:]
    paragraphs: list[str] = []
    current: list[str] = []
    fence, in_math, in_edition = None, False, False

    def end_paragraph() -> None:
        text = _paragraph(" ".join(current))
        if text:
            paragraphs.append(text)
        current.clear()

    for line in lines:
        stripped = line.strip()
        if fence is not None:                              # inside a code fence
            if re.fullmatch(re.escape(fence[0]) + "{%d,}" % len(fence), stripped):
                fence = None
            continue
        if in_math:                                        # inside display math
            in_math = "$$" not in stripped
            continue
        if edition := _EDITION.match(line):
            end_paragraph()
            in_edition = edition[1] != "end"
            continue
        if in_edition:
            continue
        if opening := _FENCE.match(line):
            end_paragraph()
            fence = opening[1]
            continue
        if stripped.startswith("$$"):                       # a hole in its paragraph
            current.append("$$")
            in_math = "$$" not in stripped[2:]
            continue
        if (not stripped or stripped.startswith(("|", "<", "*[", "{:"))
                or re.fullmatch(r"\[\[.*\]\]", stripped)):  # blank, table, HTML, placeholder
            end_paragraph()
            continue
        if box := _BOX.match(line):
            end_paragraph()
            current.append(box[1] or "")
            end_paragraph()
            continue
        heading = re.match(r"^#{1,6}\s+(.*)$", stripped)
        item = re.match(r"^(?:[-*+]|\d+\.|:)\s+(.*)$", stripped)   # list item, definition
        if heading or item:
            end_paragraph()
            current.append((heading or item)[1])
            if heading:
                end_paragraph()
            continue
        current.append(stripped)
    end_paragraph()
    return "\n".join(paragraphs)


def notebook_markdown(source: str, lang: str) -> str:
    """The Markdown of a percent-script notebook's text cells in one language (cells headed
    ``# %% [markdown] lang="ko"``), each line without its leading ``# ``."""
    cells, inside = [], False
    for line in source.split("\n"):
        if line.startswith("# %%"):
            inside = line.startswith(f'# %% [markdown] lang="{lang}"')
            cells.append("")
        elif inside:
            cells.append(re.sub(r"^# ?", "", line))
    return "\n".join(cells)


# --- sources to documents ----------------------------------------------------------------

def documents(lang: str, root: Path = ROOT) -> list[Document]:
    """Every page of ``docs/<lang>/`` (without the instructor pages) and every lab notebook's
    text in ``lang``, as :class:`Document` s, sorted by source; sources without prose are left
    out."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    pages = root / "docs" / lang
    if not pages.is_dir():
        raise FileNotFoundError(f"no pages at {pages}: the corpus is the course's own text")
    found = []
    for path in sorted(pages.rglob("*.md")):
        page = path.relative_to(pages).as_posix()
        if page not in LEFT_OUT:
            group = page.removeprefix("lessons/").removesuffix(".md") if page.startswith("lessons/") else page
            found.append((path, group, prose(path.read_text(encoding="utf-8"))))
    for path in sorted((root / "tutorial_code" / "notebooks").glob("lesson_*.py")):
        slug = path.stem.split("_", 2)[2].replace("_", "-")   # lesson_06_position -> position
        found.append((path, slug, prose(notebook_markdown(path.read_text(encoding="utf-8"), lang))))
    return [Document(lang, path.relative_to(root).as_posix(), group, text)
            for path, group, text in found if text]


def _order(group: str) -> str:
    return hashlib.sha256(group.encode("utf-8")).hexdigest()


def validation_groups(root: Path = ROOT) -> list[str]:
    """The document groups held out for validation, the same in both languages: in the order of
    a hash of their names, groups are taken until they hold :data:`VALIDATION_SHARE` of the
    characters of both languages together."""
    size: dict[str, int] = {}
    for lang in LANGS:
        for doc in documents(lang, root):
            size[doc.group] = size.get(doc.group, 0) + len(doc.text)
    total, taken, held = sum(size.values()), [], 0
    for group in sorted(size, key=_order):
        if held >= VALIDATION_SHARE * total:
            break
        taken.append(group)
        held += size[group]
    return sorted(taken)


def _sentences(paragraph: str) -> list[str]:
    return _SENTENCE_END.split(paragraph)


def split(lang: str, root: Path = ROOT) -> tuple[list[Document], list[Document]]:
    """The documents of one language as (training, validation), whole groups on either side;
    validation without the sentences that training has word for word."""
    held_out = set(validation_groups(root))
    docs = documents(lang, root)
    train = [d for d in docs if d.group not in held_out]
    seen = {s for d in train for line in d.text.split("\n") for s in _sentences(line)}
    validation = []
    for d in docs:
        if d.group in held_out:
            lines = (" ".join(s for s in _sentences(line) if s not in seen) for line in d.text.split("\n"))
            kept = "\n".join(line for line in lines if line)
            if kept:
                validation.append(Document(d.lang, d.source, d.group, kept))
    return train, validation


def text(lang: str, part: str, root: Path = ROOT) -> str:
    """The training (``part="train"``) or validation (``"validation"``) text of one language:
    its documents one after another, a blank line between two."""
    if part not in ("train", "validation"):
        raise ValueError(f"part must be 'train' or 'validation', got {part!r}")
    train, validation = split(lang, root)
    return "\n\n".join(d.text for d in (train if part == "train" else validation))


# --- what a tokenizer trained mostly on English costs Korean --------------------------------

def tokens_per_character_table(vocab_size: int = 1024, root: Path = ROOT) -> dict[str, dict[str, float]]:
    """Tokens per character of each language's validation text, ``{trained on: {lang: value}}``,
    for a tokenizer trained on both languages' training text (``"ko+en"``) and one of the same
    ``vocab_size`` trained on the English training text alone (``"en"``)."""
    from .tokenizer import Tokenizer, tokens_per_character

    trained = {"ko+en": Tokenizer.train(text("ko", "train", root) + "\n\n" + text("en", "train", root), vocab_size),
               "en": Tokenizer.train(text("en", "train", root), vocab_size)}
    return {name: {lang: tokens_per_character(tok, text(lang, "validation", root)) for lang in LANGS}
            for name, tok in trained.items()}


def main(argv: list[str] | None = None) -> None:
    """Print the corpus's size per language and part, how long training the tokenizer on both
    languages takes, and :func:`tokens_per_character_table`."""
    import argparse
    import time

    from .tokenizer import Tokenizer

    parser = argparse.ArgumentParser(prog="python -m tutorial_code.writing.corpus", description=main.__doc__)
    parser.add_argument("--vocab-size", type=int, nargs="+", default=[512, 1024, 2048])
    args = parser.parse_args(argv)
    for lang in LANGS:
        for part in ("train", "validation"):
            body = text(lang, part)
            print(f"{lang} {part:10} {len(body.encode('utf-8')) / 1000:6.1f} KB UTF-8, {len(body):7,} characters")
    both = text("ko", "train") + "\n\n" + text("en", "train")
    print("tokens per character of the validation text, ko and en, by what the tokenizer was trained on")
    for vocab_size in args.vocab_size:
        wall, cpu = time.perf_counter(), time.process_time()
        Tokenizer.train(both, vocab_size)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        table = tokens_per_character_table(vocab_size)
        cells = "   ".join(f"{name}: {row['ko']:.3f}, {row['en']:.3f}" for name, row in table.items())
        print(f"vocab {vocab_size:5}: {cells}   (training on ko+en: {wall:.2f} s wall, {cpu:.2f} s CPU)")


if __name__ == "__main__":
    main()
