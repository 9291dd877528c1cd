"""Two editions of the site from one source, and the instructor pack every build writes.

**The switch.** ``COURSE_EDITION`` chooses the edition (``scripts/editions_hook.py`` reads it):

- ``open`` (the default): the self-study site, as it always was: the answer key is a page of
  the site and every lesson links to it;
- ``student``: the same site without the answer key page, without the worked answers, model
  answers and rubrics, and without a link to any of them: the check questions keep their hints,
  the self-checked questions keep their feedback. Those pages never reach the search index, the
  source archive of this edition holds only the code (``SOURCE_STUDENT``), and the notebooks hold
  no answers in either edition.

Anything else is an error that names the two values. ``COURSE_EDITION=student mkdocs build``
is the one command; ``-d site-student`` keeps it apart from the open site.

**Edition-only text on a page.** Lines between ``[[edition:open]]`` (or ``[[edition:student]]``)
and ``[[edition:end]]``, each alone on its line, are kept only in that edition: the exercises
page says where the answers are in the open edition and that they are with the instructor in
the student edition. :func:`select` resolves them before any other marker.

**The instructor pack.** Every build (both editions) writes it next to the site folder, as
``<site_dir>-instructor/`` and the same as a zip, ``<site_dir>-instructor.zip`` (for ``site/``:
``site-instructor/`` and ``site-instructor.zip``)::

    site-instructor/
      index.html                what is in the pack, in Korean and English
      ko/answer-key.html        check questions with worked answers, assignments with rubric
      en/answer-key.html          and model answer (numbers of this build)
      lms/moodle-ko.xml         the self-checked questions for Moodle (Moodle XML)
      lms/moodle-en.xml
      lms/qti-ko.zip            the same for Canvas-style systems (IMS QTI 1.2 package)
      lms/qti-en.zip
      handouts/ko/*.pdf         handouts with answers, where the build makes them
      handouts/en/*.pdf
      assets/                   KaTeX and the stylesheet the answer keys use (offline)

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
from ..paths import REPO_ROOT
from ..state import build_state

ENV = "COURSE_EDITION"
EDITIONS = ("open", "student")
DEFAULT = "open"
# pages the student edition leaves out (in each language folder)
INSTRUCTOR_PAGES = ("teaching/answer-key.md",)
PACK_SUFFIX = "-instructor"
# the source archive (part of both editions, a download of the site)
SOURCE_ARCHIVE = "downloads/course-source.zip"
# what the student edition's source archive holds: the code and how to install it, no pages
# (docs/questions/ holds the worked answers)
SOURCE_STUDENT = ("tutorial_code/", "scripts/", "requirements.txt", "README.md", "pytest.ini", ".gitignore")
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


# ---------------------------------------------------------------- the source archive

def source_files(root: Path = REPO_ROOT, edition: str = DEFAULT) -> list[str]:
    """The files of the source archive: what git tracks (or, outside git, every file that is
    not a build output), in the student edition only :data:`SOURCE_STUDENT`."""
    try:
        listed = subprocess.run(["git", "-C", str(root), "ls-files", "-co", "--exclude-standard"],
                                capture_output=True, text=True, timeout=30)
        names = listed.stdout.splitlines() if listed.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        names = None
    if names is None:
        names = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    names = [n for n in names if not SOURCE_NEVER.search(n) and (root / n).is_file()]
    if edition == "student":
        names = [n for n in names if n.startswith(SOURCE_STUDENT) or n in SOURCE_STUDENT]
    return sorted(set(names))


def write_source_archive(target: Path, root: Path = REPO_ROOT, edition: str = DEFAULT,
                         folder: str = "attention-course") -> Path:
    """Zip :func:`source_files` under ``folder/`` into ``target`` (written to a temp file, then renamed)."""
    with atomic.replace_with(target) as tmp:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in source_files(root, edition):
                archive.write(root / name, f"{folder}/{name}")
    return target
