"""Two editions of the site from one source, and the instructor pack every build writes.

**The switch.** ``COURSE_EDITION`` chooses the edition (the course plugin reads it):

- ``open`` (the default): the self-study site, as it always was: the answer key and the
  instructor guide are pages of the site and the lessons link to the answer key;
- ``student``: the site to give a class. It leaves out every page that answers a question
  (:data:`INSTRUCTOR_PAGES`: the answer key, and the instructor guide, whose demonstrations,
  misconceptions table and derivations answer check questions and an assignment's rubric), the
  worked answers, model answers and rubrics, and every link to them: the check questions keep
  their hints, the self-checked questions keep their feedback. It never names the source
  repository (no header link, no ``git clone``; :mod:`coursebuild.notebooks.colab` gives it a
  Colab repository only from a separate student publication), and it offers the code archive.
  The written site is read back after the last language (:func:`student_leaks`), and any name
  of or link to a place that holds answers fails the build.

Anything else is an error that names the two values. ``COURSE_EDITION=student mkdocs build``
is the one command; ``-d site-student`` keeps it apart from the open site.

**Edition-only text on a page.** Lines between ``[[edition:open]]`` (or ``[[edition:student]]``)
and ``[[edition:end]]``, each alone on its line, are kept only in that edition: the exercises
page says where the answers are in the open edition and that they are with the instructor in
the student edition. :func:`select` resolves them before any other marker. The instructor
pages are rendered for the pack with the edition of the build, so their ``[[edition:student]]``
blocks speak to the instructor of a student-edition class.

**The code archive.** Both editions offer the same ``downloads/course-code.zip``
(:data:`CODE_ARCHIVE`): the course code, the scripts that run the experiments, what installs
them, and a README written for the archive (:func:`archive_readme`). No page, question, answer
or test is in it, so it cannot build the site.

**The instructor pack.** Every build (both editions) writes it next to the site folder, as
``<site_dir>-instructor/`` and the same as a zip, ``<site_dir>-instructor.zip`` (for ``site/``:
``site-instructor/`` and ``site-instructor.zip``)::

    site-instructor/
      index.html                what is in the pack, in Korean and English
      ko/instructor-guide.html  the instructor guide (plans, demonstrations, misconceptions)
      en/instructor-guide.html
      ko/answer-key.html        check questions with worked answers, assignments with rubric
      en/answer-key.html          and model answer (numbers of this build)
      lms/moodle-ko.xml         the self-checked questions for Moodle (Moodle XML)
      lms/moodle-en.xml
      lms/qti-ko.zip            the same for Canvas-style systems (IMS QTI 1.2 package)
      lms/qti-en.zip
      handouts/ko/*.pdf         handouts with answers, where the build makes them
      handouts/en/*.pdf
      assets/                   KaTeX and the stylesheet the pages use (offline)

Other parts of the build add files to the pack by writing them under :func:`staging` during
the build (``handouts/<lang>/<name>.pdf``, for instance); the pack is put together after the
last language's pages are written, in a temporary folder that then replaces the old pack
whole, so a failed build leaves the previous pack as it was.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from .. import atomic
from ..content import ui
from ..paths import LANGS, REPO_ROOT
from ..state import build_state

ENV = "COURSE_EDITION"
EDITIONS = ("open", "student")
DEFAULT = "open"
# pages the student edition leaves out (in each language folder): they answer questions
INSTRUCTOR_PAGES = ("teaching/answer-key.md", "teaching/instructor-guide.md")
PACK_SUFFIX = "-instructor"
# the code archive (both editions, a download of the site)
CODE_ARCHIVE = "downloads/course-code.zip"
ARCHIVE_FOLDER = "attention-course"
# what it holds, from the repository (a folder ends in /); what each is: code_parts()
CODE_PARTS = ("tutorial_code/", "scripts/", "requirements.txt", "pyproject.toml")
# never in an archive, whatever git says (build outputs, environments)
SOURCE_NEVER = re.compile(r"(^|/)(\.git|\.venv|\.build|__pycache__|node_modules)(/|$)|^site[^/]*(/|$)|\.pyc$|\.ipynb$")

BLOCK = re.compile(r"^[ \t]*\[\[edition:(?P<which>[a-z]*)\]\][ \t]*$")


class EditionError(ValueError):
    """A wrong edition setting or edition block; the message names the fix."""


def current(environ: dict | None = None) -> str:
    """The edition this build makes: ``COURSE_EDITION``, else ``open``."""
    environ = os.environ if environ is None else environ
    value = (environ.get(ENV) or DEFAULT).strip().lower()
    if value not in EDITIONS:
        raise EditionError(f"the {ENV} environment variable is {value!r}; it must be one of "
                           f"{', '.join(EDITIONS)} (unset it for the open site)")
    return value


def is_instructor_page(src_uri: str) -> bool:
    """Whether ``src_uri`` (``ko/teaching/answer-key.md``, ``en/...``) is left out of the student edition."""
    path = src_uri.split("/", 1)[1] if re.match(r"^[a-z]{2}/", src_uri) else src_uri
    return path in INSTRUCTOR_PAGES


def drop_from_nav(nav, keep=lambda path: not is_instructor_page(path)):
    """``nav`` without the entries whose page ``keep`` refuses (a new list; empty sections go)."""
    if isinstance(nav, list):
        out = [drop_from_nav(item, keep) for item in nav]
        return [item for item in out if item not in (None, [], {})]
    if isinstance(nav, dict):
        out = {key: drop_from_nav(value, keep) for key, value in nav.items()}
        return {key: value for key, value in out.items() if value not in (None, [], {})} or None
    if isinstance(nav, str) and nav.endswith(".md") and not keep(nav):
        return None
    return nav


def select(markdown: str, edition: str, where: str = "page") -> str:
    """Keep the ``[[edition:<e>]]`` … ``[[edition:end]]`` blocks of ``edition``, drop the others."""
    out, inside, start = [], None, 0
    for number, line in enumerate(markdown.split("\n"), 1):
        m = BLOCK.match(line)
        if m is None:
            if inside is None or inside == edition:
                out.append(line)
            continue
        which = m["which"]
        if which == "end":
            if inside is None:
                raise EditionError(f"{where}:{number}: [[edition:end]] without an [[edition:…]] before it")
            inside = None
        elif which in EDITIONS:
            if inside is not None:
                raise EditionError(f"{where}:{number}: [[edition:{which}]] inside the [[edition:{inside}]] "
                                   f"block of line {start}; close that one with [[edition:end]] first")
            inside, start = which, number
        else:
            raise EditionError(f"{where}:{number}: [[edition:{which}]]: an edition block is "
                               f"[[edition:open]] or [[edition:student]], closed by [[edition:end]]")
    if inside is not None:
        raise EditionError(f"{where}:{start}: [[edition:{inside}]] is never closed; add [[edition:end]]")
    return "\n".join(out)


def edition_marker(arg, fmt, ctx) -> str:
    """``[[edition:…]]`` outside a block of its own: the hook resolves blocks before the markers."""
    raise ValueError("[[edition:open]], [[edition:student]] and [[edition:end]] must each stand "
                     "alone on their line, around the text of one edition")


# ---------------------------------------------------------------- the student edition, as written

# the files of a built site a reader (or a search) reads text or links from
SITE_TEXT = (".html", ".json", ".xml", ".js", ".ipynb", ".txt")
# a link to a page or file that holds answers: the instructor pages, the pack, the questions' files
INSTRUCTOR_LINK = re.compile(r'(?:(?:href|src)="|<loc>)(?P<url>[^"<]*(?:answer-key|instructor-guide'
                             r'|-instructor(?:/|\.zip)|/questions/)[^"<]*|[^"<]*\.ya?ml(?:#[^"<]*)?)(?:"|</loc>)')


def student_leaks(site: Path, repositories=(), commit: str | None = None) -> list[str]:
    """Where the student edition built into ``site`` names a place that holds answers, one line
    each: a source repository (``owner/name``, whole, in any case; ``me/course`` is not found in
    ``me/course-student``), the source's ``commit`` (GitHub's commit search finds the public
    repositories that hold it), ``git clone``, or a link to an instructor page, the instructor pack or a file of questions. The course
    plugin runs it after every student build and fails the build on any line, so whatever a
    page says, no such site is published."""
    names = [re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-]|\.(?!git\b)\w)", re.I)
             for name in sorted({r for r in repositories if r})]
    found = []
    for path in sorted(p for p in Path(site).rglob("*") if p.suffix in SITE_TEXT and p.is_file()):
        rel, text = path.relative_to(site).as_posix(), path.read_text(encoding="utf-8", errors="ignore")
        lowered = text.lower()
        found += [f"{rel} names the source repository {m.group(0)}" for m in map(lambda n: n.search(text), names) if m]
        if commit and commit.lower() in lowered:
            found.append(f"{rel} gives the source's commit {commit}")
        if "git clone" in lowered:
            found.append(f"{rel} says git clone")
        found += [f"{rel} links the instructor page {m['url']}" for m in INSTRUCTOR_LINK.finditer(text)]
    return found


# ---------------------------------------------------------------- the instructor pack

def pack_dir(site_dir: str | Path) -> Path:
    """Where the instructor pack of a site built into ``site_dir`` goes: ``<site_dir>-instructor``."""
    site = Path(site_dir).resolve()
    return site.with_name(site.name + PACK_SUFFIX)


def staging(config) -> Path:
    """The folder this build's pack is put together in (made on first use, one per build)."""
    state = build_state(config, "instructor_pack")
    if "staging" not in state:
        target = pack_dir(config["site_dir"])
        target.parent.mkdir(parents=True, exist_ok=True)
        state["staging"] = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    return state["staging"]


def discard_staging(config) -> None:
    """Remove this build's staged pack (a build that failed); the old pack stays."""
    state = build_state(config, "instructor_pack")
    if "staging" in state:
        shutil.rmtree(state.pop("staging"), ignore_errors=True)


def finish_pack(config) -> Path:
    """Replace the old pack with the staged one, and write its zip (both atomically)."""
    stage = staging(config)
    target = pack_dir(config["site_dir"])
    zipped = target.with_name(target.name + ".zip")
    with atomic.replace_with(zipped) as tmp_zip:
        with zipfile.ZipFile(tmp_zip, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(stage.rglob("*")):
                if path.is_file():
                    archive.write(path, Path(target.name) / path.relative_to(stage))
        _move_into_place(stage, target)
    build_state(config, "instructor_pack").clear()
    return target


def _move_into_place(stage: Path, target: Path) -> None:
    """The staged folder becomes ``target``; the old one is removed only once it is replaced."""
    for path in [stage, *stage.rglob("*")]:  # mkdtemp and mkstemp make them private
        path.chmod(0o755 if path.is_dir() else 0o644)
    old = target.with_name(f".{target.name}.old")
    if old.exists():
        shutil.rmtree(old)
    if target.exists():
        target.rename(old)
    stage.rename(target)
    if old.exists():
        shutil.rmtree(old)


# ---------------------------------------------------------------- the code archive

def code_parts(lang: str) -> list[tuple[str, str]]:
    """What the code archive holds, as (what it is, its path) in ``lang``: :data:`CODE_PARTS`, each
    named by its ``archive.*`` text of ``content/ui/``."""
    what = {"tutorial_code/": ui.text(lang, "archive.course_code"), "scripts/": ui.text(lang, "archive.scripts"),
            "requirements.txt": ui.text(lang, "archive.requirements"),
            "pyproject.toml": ui.text(lang, "archive.pyproject")}
    unnamed = [path for path in CODE_PARTS if path not in what]
    if unnamed:
        raise KeyError(f"editions.code_parts names no {unnamed}: add an archive.* text for each to "
                       "scripts/coursebuild/content/ui/ko.yml and en.yml and look it up here")
    return [(what[path], path) for path in CODE_PARTS]


def archive_readme() -> str:
    """The archive's own README.md (not the repository's, which describes pages the archive
    lacks): what it holds and how to install and run it, in both languages, one after the other."""
    title = " / ".join(ui.text(lang, "archive.title") for lang in LANGS)
    bodies = [ui.text(lang, "archive.readme", parts="\n".join(f"- {what} (`{path}`)" for what, path in code_parts(lang)))
              for lang in LANGS]
    return f"# {title}\n\n" + "\n".join(bodies)


def code_files(root: Path = REPO_ROOT) -> list[str]:
    """The repository's files under :data:`CODE_PARTS`: what git tracks (or, outside git, every
    file that is not a build output)."""
    try:
        listed = subprocess.run(["git", "-C", str(root), "ls-files", "-co", "--exclude-standard"],
                                capture_output=True, text=True, timeout=30)
        names = listed.stdout.splitlines() if listed.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        names = None
    if names is None:
        names = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    parts = tuple(CODE_PARTS)
    names = [n for n in names if not SOURCE_NEVER.search(n) and (root / n).is_file()
             and (n in parts or n.startswith(tuple(p for p in parts if p.endswith("/"))))]
    return sorted(set(names))


def write_code_archive(target: Path, root: Path = REPO_ROOT, folder: str = ARCHIVE_FOLDER) -> Path:
    """Zip :func:`code_files` and :func:`archive_readme` under ``folder/`` into ``target``
    (written to a temp file, then renamed)."""
    with atomic.replace_with(target) as tmp:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(f"{folder}/README.md", archive_readme())
            for name in code_files(root):
                archive.write(root / name, f"{folder}/{name}")
    return target
