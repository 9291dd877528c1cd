"""Which GitHub repository "Open in Colab" opens the lab notebooks from.

Colab opens a notebook from a GitHub address
(``https://colab.research.google.com/github/<owner>/<name>/blob/<branch>/<path>``), so a link is
only as good as the repository it names. The repository is taken from, in order:

1. the ``COLAB_REPOSITORY`` environment variable (the publishing workflow sets it to the
   repository it runs in),
2. ``extra.colab.repository`` in mkdocs.yml,
3. ``repo_url`` in mkdocs.yml, when it is a GitHub address,
4. the git remote (``origin``, or the only remote), when it is a GitHub address.

When none of them names one, there is no Colab link (``resolve`` returns ``None``): the page
offers the download and says how to upload it to Colab. A value given in 1 or 2 that is not
``owner/name`` stops the build with a message that names the fix; a ``repo_url`` or remote
elsewhere than GitHub (GitLab, a local path) is not an error, just no Colab repository.

**The student edition** never opens anything from that repository: it holds the pages and the
questions with their answers, and its ``gh-pages`` branch the open site with the answer key.
Its Colab links come only from a separate *student publication*, a repository that holds
nothing but the student edition's built site on its branch (``extra.colab.branch``), named by
the ``STUDENT_COLAB_REPOSITORY`` variable or ``extra.colab.student_repository``
(:func:`resolve_student`). Without one, the student edition has no Colab link; naming the
source repository there stops the build.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from mkdocs.utils import get_relative_url

# GitHub's rules: owner is letters, digits and single hyphens; a repository name also allows
# '.' and '_' (but is never '.' or '..')
_OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})"
_NAME = r"(?!\.\.?$)[A-Za-z0-9._-]{1,100}"
REPOSITORY = re.compile(rf"(?P<owner>{_OWNER})/(?P<name>{_NAME})")
# https://github.com/o/n(.git)(/), git@github.com:o/n(.git), ssh://git@github.com/o/n(.git)
GITHUB_URL = re.compile(
    rf"^(?:https?://(?:[^@/]+@)?(?:www\.)?github\.com/|git@github\.com:|ssh://git@github\.com(?::\d+)?/)"
    rf"(?P<repo>{_OWNER}/[A-Za-z0-9._-]+?)(?:\.git)?/?$")
URL = "https://colab.research.google.com/github/{repository}/blob/{branch}/{path}"
ENV = "COLAB_REPOSITORY"
STUDENT_ENV = "STUDENT_COLAB_REPOSITORY"


class ColabConfigError(ValueError):
    """A repository setting that is not ``owner/name``; the message names the fix."""


@dataclass(frozen=True)
class Repository:
    name: str    # "owner/name"
    source: str  # where it came from, for the build log

    @property
    def url(self) -> str:
        return f"https://github.com/{self.name}"


def _checked(value: str, where: str) -> str:
    value = value.strip()
    if not REPOSITORY.fullmatch(value):
        raise ColabConfigError(
            f"{where} is {value!r}; it must be 'owner/name' of the GitHub repository whose branch "
            f"holds the built site (e.g. 'octocat/attention-course'). Fix it, or unset "
            f"{ENV} and remove extra.colab.repository from mkdocs.yml to publish without "
            "'Open in Colab' links")
    return value


def from_github_url(url: str | None) -> str | None:
    """``owner/name`` of a GitHub address (https, ssh or scp-style), else ``None``."""
    if not url:
        return None
    m = GITHUB_URL.match(url.strip())
    if m is None or not REPOSITORY.fullmatch(m["repo"]):
        return None
    return m["repo"]


def git_remote_url(root: Path) -> str | None:
    """The URL of ``origin``, or of the only remote; ``None`` outside git or without one."""
    def git(*args):
        try:
            out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout.strip() if out.returncode == 0 else None

    remotes = (git("remote") or "").split()
    if not remotes:
        return None
    name = "origin" if "origin" in remotes else remotes[0] if len(remotes) == 1 else None
    return git("remote", "get-url", name) if name else None


def resolve(extra_colab: dict | None, repo_url: str | None, root: Path,
            environ: dict | None = None) -> Repository | None:
    """The repository Colab opens the notebooks from, or ``None`` when the build knows none."""
    environ = os.environ if environ is None else environ
    value = (environ.get(ENV) or "").strip()
    if value:
        return Repository(_checked(value, f"the {ENV} environment variable"), ENV)
    value = (extra_colab or {}).get("repository")
    if value is not None and str(value).strip():
        return Repository(_checked(str(value), "extra.colab.repository in mkdocs.yml"), "extra.colab.repository")
    repo = from_github_url(repo_url)
    if repo:
        return Repository(repo, "repo_url")
    repo = from_github_url(git_remote_url(root))
    if repo:
        return Repository(repo, "git remote")
    return None


def source_names(extra_colab: dict | None, repo_url: str | None, root: Path,
                 environ: dict | None = None) -> dict[str, str]:
    """Every repository the build's settings name as the source, ``{owner/name (lower case): where}``:
    each of :func:`resolve`'s four places, not only the first that names one."""
    environ = os.environ if environ is None else environ
    found = {}
    for value, where in (((environ.get(ENV) or "").strip(), ENV),
                         (str((extra_colab or {}).get("repository") or "").strip(), "extra.colab.repository"),
                         (from_github_url(repo_url), "repo_url"), (from_github_url(git_remote_url(root)), "git remote")):
        if value:
            found.setdefault(value.lower(), where)
    return found


def resolve_student(extra_colab: dict | None, sources: dict[str, str],
                    environ: dict | None = None) -> Repository | None:
    """The student publication the student edition's Colab links open, or ``None``.

    ``STUDENT_COLAB_REPOSITORY``, else ``extra.colab.student_repository``; never a repository
    the settings name as the source (``sources``: :func:`source_names`), which holds the answers."""
    environ = os.environ if environ is None else environ
    value, where = (environ.get(STUDENT_ENV) or "").strip(), f"the {STUDENT_ENV} environment variable"
    if not value:
        value = str((extra_colab or {}).get("student_repository") or "").strip()
        where = "extra.colab.student_repository in mkdocs.yml"
    if not value:
        return None
    if not REPOSITORY.fullmatch(value):
        raise ColabConfigError(
            f"{where} is {value!r}; it must be 'owner/name' of a GitHub repository that holds only the "
            f"student edition's built site (e.g. 'octocat/attention-course-student'), or be unset: the "
            "student edition then has no 'Open in Colab' links")
    if value.lower() in sources:
        raise ColabConfigError(
            f"{where} is {value!r}, the repository this site is built from ({sources[value.lower()]}); it holds "
            "the questions with their answers, and its gh-pages branch the open site. Name a separate "
            f"repository that holds only the student edition's built site, or unset {STUDENT_ENV} and "
            "extra.colab.student_repository (no 'Open in Colab' links in the student edition)")
    return Repository(value, STUDENT_ENV if where.startswith("the ") else "extra.colab.student_repository")


def link(repository: Repository | None, extra_colab: dict | None, path: str) -> str | None:
    """The "Open in Colab" address of the site file ``path`` (e.g. ``notebooks/colab/x.ipynb``)."""
    if repository is None:
        return None
    colab = extra_colab or {}
    return URL.format(repository=repository.name, branch=colab.get("branch") or "gh-pages",
                      path=(colab.get("path_prefix") or "") + path)


# ---------------------------------------------------------------- the links a page shows

PAGE = re.compile(r"^(?:(?P<lang>[a-z]{2})/)?notebooks/(?P<name>[^/]+)\.ipynb$")
LESSON = re.compile(r"^(?:(?P<lang>[a-z]{2})/)?lessons/(?P<slug>[^/]+)\.md$")


def page_links(src_uri: str, page_url: str, lang: str, default_lang: str, by_slug: dict[str, str],
               repository: Repository | None, extra_colab: dict | None, use_directory_urls: bool) -> dict | None:
    """What a lesson page or a notebook page links to (docs/overrides/main.html shows it): the
    notebook's page (from a lesson), its download and "Open in Colab" (None without a
    repository); None for any other page. ``by_slug``: lesson slug -> notebook name."""
    m = PAGE.match(src_uri) or LESSON.match(src_uri)
    if m is None:
        return None
    name = m.groupdict().get("name") or by_slug.get(m.groupdict().get("slug"))
    if name is None:
        return None
    prefix = "" if lang == default_lang else f"{lang}/"
    download = f"{prefix}notebooks/colab/{name}.ipynb"
    links = {
        "download": get_relative_url(download, page_url),
        "filename": f"{name}.ipynb",
        "colab": link(repository, extra_colab, download),  # None: no repository
    }
    if LESSON.match(src_uri):
        target = f"{prefix}notebooks/{name}/" if use_directory_urls else f"{prefix}notebooks/{name}.html"
        links["page"] = get_relative_url(target, page_url)
    return links
