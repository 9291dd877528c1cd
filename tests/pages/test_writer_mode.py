"""The writer's mode of ``mkdocs serve`` (``COURSE_SERVE=<lang> mkdocs serve --dirty``).

In a copy of the repository with this run's warm caches, the test serves one language in the
writer's mode and checks what a writer relies on: only that language is served, a saved edit of
a lesson's prose reaches the served page, an edit of a file the pages are made from (a lesson's
check questions) reaches the page that shows it, and the other language's pages are not built.
How fast an edit shows is measured by ``scripts/serve_benchmark.py``, not here.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from coursebuild import writer
from repo_copy import copy_repository

pytestmark = pytest.mark.slow

WAIT_S = 180  # the first build of the copy (warm caches) and each rebuild, on a loaded machine


def test_the_writers_mode_refuses_what_it_cannot_do(monkeypatch):
    monkeypatch.setenv(writer.ENV, "fr")
    with pytest.raises(writer.WriterError, match=r"COURSE_SERVE='fr' is not a language of the site; use one of: ko, en"):
        writer.requested("serve")
    monkeypatch.setenv(writer.ENV, "ko")
    with pytest.raises(writer.WriterError, match=r"writer's mode of 'mkdocs serve'.*unset it to build the whole site"):
        writer.requested("build")
    assert writer.requested("serve") == "ko"
    monkeypatch.delenv(writer.ENV)
    assert writer.requested("build") is None and writer.requested("serve") is None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return 0, ""


def _wait_for(url: str, text: str, server: subprocess.Popen, log: Path) -> None:
    t0 = time.monotonic()
    while time.monotonic() - t0 < WAIT_S:
        assert server.poll() is None, f"mkdocs serve stopped:\n{log.read_text('utf-8')[-3000:]}"
        status, page = _get(url)
        if status == 200 and text in page:
            return
        time.sleep(0.2)
    pytest.fail(f"{url} did not show {text!r} within {WAIT_S} s:\n{log.read_text('utf-8')[-3000:]}")


@pytest.fixture(scope="module")
def copy(built_site, tmp_path_factory):
    """A copy of the repository (tracked and untracked files) with this run's caches."""
    return copy_repository(tmp_path_factory.mktemp("writer") / "repo")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{path.name} no longer holds {old!r}: update this test"
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_one_language_is_served_and_edits_reach_it(copy):
    port = _free_port()
    log = copy / "serve.log"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", writer.ENV: "ko",
           "PYTHONPATH": os.pathsep.join([str(copy), str(copy / "scripts")])}
    env.pop("TUTORIAL_EXPERIMENTS_OUT", None)
    with open(log, "w", encoding="utf-8") as out:
        server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--dirty", "-a", f"127.0.0.1:{port}"],
                                  cwd=copy, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}/"
    try:
        _wait_for(base + "lessons/why-attention/", "</html>", server, log)
        assert _get(base + "en/lessons/why-attention/")[0] == 404, "the writer's mode built English too"
        # a sentence added to a lesson's prose
        lesson = copy / "docs/ko/lessons/why-attention.md"
        original = lesson.read_text("utf-8")
        paragraph = original.split("\n\n## ", 2)[1].split("\n\n", 2)[1]
        _edit(lesson, paragraph, paragraph + " 작가 모드 시험 문장입니다.")
        _wait_for(base + "lessons/why-attention/", "작가 모드 시험 문장입니다.", server, log)
        # a check question of lesson 2 (docs/questions/): the lesson 2 page, which is not the
        # page saved last, follows too
        questions = copy / "docs/questions/lesson-02.yml"
        lines = questions.read_text("utf-8").splitlines()
        first = lines[lines.index("    ko: |") + 1]  # the first line of the first question's text
        _edit(questions, first, first.replace(first.strip(), "(작가 모드 확인) " + first.strip()))
        _wait_for(base + "lessons/library-qkv/", "(작가 모드 확인)", server, log)
        assert "rebuilding every page once" in log.read_text("utf-8")
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
