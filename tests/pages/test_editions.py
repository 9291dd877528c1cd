"""Two editions from one source (coursebuild/outputs/editions.py): the switch, the edition blocks,
and a student edition built for real, with a source repository and a student publication
configured, that holds no answer text anywhere (HTML, search index, notebooks, PDFs, archives)
and names or links nothing that holds answers (the source repository, its gh-pages branch, an
instructor page, a file of questions); the code archive; the instructor pack every build writes
next to the site.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from coursebuild.outputs import editions
from coursebuild.pages import markers
from coursebuild.pages import kinds
from coursebuild.content import questions
from coursebuild.paths import REPO_ROOT as REPO


def test_the_switch_defaults_to_open_and_refuses_other_values():
    assert editions.current({}) == "open"
    assert editions.current({"COURSE_EDITION": "Student "}) == "student"
    with pytest.raises(editions.EditionError, match="COURSE_EDITION.*'teacher'.*open, student"):
        editions.current({"COURSE_EDITION": "teacher"})


def test_edition_blocks_keep_only_this_editions_lines():
    text = "a\n[[edition:open]]\nkey\n[[edition:end]]\n[[edition:student]]\nno key\n[[edition:end]]\nb"
    assert editions.select(text, "open") == "a\nkey\nb"
    assert editions.select(text, "student") == "a\nno key\nb"


@pytest.mark.parametrize("text, message", [
    ("[[edition:open]]\nx", r"never closed"),
    ("x\n[[edition:end]]", r"without an \[\[edition:…\]\] before it"),
    ("[[edition:open]]\n[[edition:student]]\n[[edition:end]]", r"inside the \[\[edition:open\]\] block of line 1"),
    ("[[edition:teacher]]\n[[edition:end]]", r"is \[\[edition:open\]\] or \[\[edition:student\]\]"),
])
def test_a_broken_edition_block_names_the_line_and_the_fix(text, message):
    with pytest.raises(editions.EditionError, match=message):
        editions.select(text, "open", "docs/ko/x.md")


def test_an_edition_marker_in_mid_line_fails():
    with pytest.raises(markers.MarkerError, match="alone on their line"):
        markers.render("text [[edition:open]] more", kinds.context(lang="en"))


def test_the_student_navigation_has_no_instructor_page():
    nav = [{"홈": "index.md"}, {"가르치기": [{"강사 가이드": "teaching/instructor-guide.md"},
                                          {"연습 문제와 과제": "teaching/exercises.md"},
                                          {"답안 (강사용)": "teaching/answer-key.md"}]}]
    assert editions.drop_from_nav(nav) == [{"홈": "index.md"}, {"가르치기": [{"연습 문제와 과제": "teaching/exercises.md"}]}]
    for page in ("en/teaching/answer-key.md", "teaching/answer-key.md", "ko/teaching/instructor-guide.md"):
        assert editions.is_instructor_page(page), page
    assert not editions.is_instructor_page("teaching/exercises.md")


def test_answers_refuse_to_render_in_the_student_edition_and_rubrics_are_left_out():
    student = kinds.context(lang="ko", edition="student")
    for marker in ("[[answers:3]]", "[[assignment-answers]]"):
        with pytest.raises(markers.MarkerError, match="student edition has none"):
            markers.render(marker, student)
    open_page = questions.render_assignments("assignments", "en", questions.load_assignments())
    student_page = questions.render_assignments("assignments", "en", questions.load_assignments(), rubric=False)
    assert "**Rubric**" in open_page and "**Rubric**" not in student_page
    assert "**What to hand in**" in student_page


# what no student may reach: the files that hold worked answers, rubrics or model answers, and
# the pages that answer questions
ANSWER_FILES = re.compile(r"(^|/)(docs|tests|questions)(/|$)|answer-key|instructor-guide|\.ya?ml$|mkdocs\.yml")
# the build's own UI words (labels, headings; no question or answer): the archive's scripts read them
UI_STRINGS = re.compile(r"scripts/coursebuild/content/ui/[a-z]{2}\.yml")


def holds_answers(name: str) -> bool:
    """Whether the archive's file ``name`` (a path in the repository) may hold answers."""
    return bool(ANSWER_FILES.search(name)) and not UI_STRINGS.fullmatch(name)


def test_the_code_archive_holds_the_code_its_readme_and_nothing_that_holds_answers(tmp_path):
    names = editions.code_files(REPO)
    assert any(n.startswith("tutorial_code/") for n in names) and "requirements.txt" in names
    assert "pyproject.toml" in names and "scripts/setup.sh" in names  # what the README's install runs
    assert not [n for n in names if holds_answers(n)], "pages, questions and tests hold the answers"
    assert {"scripts/coursebuild/content/ui/ko.yml", "scripts/coursebuild/content/ui/en.yml"} <= set(names)
    assert {n.split("/", 1)[0] + ("/" if "/" in n else "") for n in names} == set(editions.CODE_PARTS)
    target = editions.write_code_archive(tmp_path / "a.zip", REPO)
    with zipfile.ZipFile(target) as archive:
        members = archive.namelist()
        readme = archive.read("attention-course/README.md").decode("utf-8")
    assert sorted(members) == sorted(["attention-course/README.md", *(f"attention-course/{n}" for n in names)])
    for path in editions.CODE_PARTS:
        assert readme.count(f"`{path}`") == 2, path  # listed in both languages
    assert "scripts/setup.sh" in readme and "scripts/run_experiments.py" in readme


def test_the_code_archive_runs_as_its_readme_says_without_the_pages(tmp_path):
    """Unpacked alone, its README's commands find the package and the experiments (the editable
    install of scripts/setup.sh put on the path by hand: nothing is installed here)."""
    with zipfile.ZipFile(editions.write_code_archive(tmp_path / "a.zip", REPO)) as archive:
        archive.extractall(tmp_path / "unpacked")
    root = tmp_path / "unpacked" / editions.ARCHIVE_FOLDER
    env = {**os.environ, "PYTHONPATH": f"{root / 'scripts'}{os.pathsep}{root}"}
    where = subprocess.run([sys.executable, "-c", "import coursebuild, tutorial_code; print(coursebuild.__file__); "
                            "print(tutorial_code.__file__)"], cwd=root, env=env, capture_output=True, text=True)
    assert where.returncode == 0 and all(Path(p).is_relative_to(root) for p in where.stdout.split()), where
    listed = subprocess.run([sys.executable, "scripts/run_experiments.py", "--list"], cwd=root, env=env,
                            capture_output=True, text=True, timeout=300)
    assert listed.returncode == 0, listed.stderr[-3000:]
    assert "lstm_vs_attention" in listed.stdout  # the experiment the README runs next
    assert not (root / "docs").exists()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_get_code_says_what_the_archive_holds(lang):
    text = markers.render("[[get-code]]", kinds.context(lang=lang, edition="student",
                                                        source_url="../downloads/course-code.zip"))
    assert "../downloads/course-code.zip" in text and "README" in text
    assert all(f"`{path}`" in text for path in editions.CODE_PARTS)
    listed = markers.render("[[get-code:archive]]", kinds.context(lang=lang))
    assert all(f"`{path}`" in listed for path in editions.CODE_PARTS)


def test_a_written_student_site_is_searched_for_every_place_that_holds_answers(tmp_path):
    """The check the course plugin runs after every student build (and fails the build on)."""
    commit = "0123456789abcdef0123456789abcdef01234567"
    clean = {"index.html": '<a href="https://github.com/me/course-student">the publication</a> '
                           '<a href="https://colab.research.google.com/github/me/course-student/blob/gh-pages/x.ipynb">'
                           'Colab</a> <a href="teaching/exercises/">exercises</a> me/courses',
             "search/search_index.json": '{"docs": [{"text": "self-check course.yml? no link"}]}',
             "assets/a.png": "me/course " + commit}  # not text a reader gets
    for name, text in clean.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert editions.student_leaks(tmp_path, ["me/course"], commit) == []
    leaks = {"a.html": f'<a href="https://github.com/ME/Course">x</a> {commit}',
             "b.html": '<p>git clone https://example.org/x</p><a href="../teaching/answer-key/#a-1">key</a>',
             "c.xml": "<loc>https://x.io/site-instructor/index.html</loc> src=\"../x\"",
             "d.html": '<a href="../../questions/lesson-03.yml">q</a> <a href="https://github.com/me/course.git">r</a>',
             "e.js": 'x = "me/course"; y = \'<a href="instructor-guide/">\''}
    for name, text in leaks.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = editions.student_leaks(tmp_path, ["me/course"], commit)
    assert found == ["a.html names the source repository ME/Course", f"a.html gives the source's commit {commit}",
                     "b.html says git clone", "b.html links the instructor page ../teaching/answer-key/#a-1",
                     "c.xml links the instructor page https://x.io/site-instructor/index.html",
                     "d.html names the source repository me/course",
                     "d.html links the instructor page ../../questions/lesson-03.yml",
                     "e.js names the source repository me/course", "e.js links the instructor page instructor-guide/"], found
    assert len(editions.student_leaks(tmp_path, [], None)) == 5  # no repository or commit known: the links


def test_the_pack_goes_next_to_the_site_folder():
    assert editions.pack_dir("/x/site") == Path("/x/site-instructor")
    assert editions.pack_dir("/x/site-student") == Path("/x/site-student-instructor")


# ---------------------------------------------------------------- answer text

def _plain(markdown: str) -> list[str]:
    """Runs of the answer's own words (no markers, math, code or markup) long enough to be
    its own: what must appear nowhere in the student edition."""
    text = re.sub(r"\[\[[^\]]*\]\]|\$[^$]*\$|`[^`]*`|\*\*|\[|\]\([^)]*\)|<[^>]+>", "\n", markdown)
    runs = []
    for part in re.split(r"[\n.:;!?()|]", text):
        part = " ".join(part.split())
        if len(part.split()) >= 4 and sum(2 if "가" <= ch <= "힣" else 1 for ch in part) >= 30 and not re.fullmatch(r"[\d\s,.%-]+", part):
            runs.append(part)
    return runs


def answer_texts() -> dict[str, list[str]]:
    """{where: phrases} of every worked answer, model answer and rubric criterion, both languages."""
    found = {}
    for n, data in questions.load().items():
        for q in data["questions"]:
            for lang in ("ko", "en"):
                found[f"{q['id']} answer ({lang})"] = _plain(q["answer"][lang])
    for a in questions.load_assignments():
        for lang in ("ko", "en"):
            found[f"{a['id']} model answer ({lang})"] = _plain(a["answer"][lang])
            found[f"{a['id']} rubric ({lang})"] = [p for item in a["rubric"] for p in _plain(item[lang])]
    public = _normalised(public_text())
    found = {k: [p for p in v if _normalised(p) not in public] for k, v in found.items()}
    return {k: v for k, v in found.items() if v}


def public_text() -> str:
    """Everything a student may read: the pages (the answer key left out), the notebooks' and the
    package's source, the questions and hints, the tasks. An answer phrase found here too (a lesson
    sentence the answer repeats) is not answer text."""
    parts = [p.read_text(encoding="utf-8") for p in sorted((REPO / "docs").glob("*/**/*.md"))
             if not editions.is_instructor_page(p.relative_to(REPO / "docs").as_posix())]
    parts += [p.read_text(encoding="utf-8") for p in sorted((REPO / "tutorial_code").rglob("*.py"))]
    parts.append((REPO / "docs" / "questions" / "self-check.yml").read_text(encoding="utf-8"))
    for data in questions.load().values():
        for q in data["questions"]:
            parts += [q[lang] for lang in ("ko", "en")] + [q.get("hint", {}).get(lang, "") for lang in ("ko", "en")]
    for a in questions.load_assignments():
        parts += [a[key][lang] for key in ("title", "task", "hand_in") for lang in ("ko", "en")]
    return "\n".join(parts)


def test_every_answer_has_phrases_to_look_for():
    texts = answer_texts()
    n_questions = sum(len(d["questions"]) for d in questions.load().values())
    assert sum(1 for k in texts if " answer (" in k) >= 0.9 * 2 * n_questions, "too few answers to look for"
    assert all(f"{a['id']} model answer ({lang})" in texts for a in questions.load_assignments() for lang in ("ko", "en"))
    assert sum(len(v) for v in texts.values()) > 200


def _text_of(path: Path, data: bytes) -> str:
    """What a reader (or a search) finds in a file of the site: text, PDF text, archive members."""
    if path.suffix == ".pdf":
        from pypdf import PdfReader

        return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)
    if path.suffix == ".zip":
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "\n".join(_text_of(Path(n), archive.read(n)) for n in archive.namelist())
    if path.suffix in (".png", ".jpg", ".woff", ".woff2", ".ttf", ".bin", ".ico", ".gz"):
        return ""
    text = data.decode("utf-8", errors="ignore")
    if path.suffix == ".json":  # the search index escapes its text
        try:
            text += "\n" + json.dumps(json.loads(text), ensure_ascii=False)
        except ValueError:
            pass
    return text


def _normalised(text: str) -> str:
    return " ".join(re.sub(r"<[^>]+>|&[a-z]+;|\*\*", " ", text).split())


# the repositories the student edition is built with: the source, as the publishing workflow sets
# it (COLAB_REPOSITORY) and as mkdocs.yml's repo_url names it (a mirror, so that each is looked
# for on its own), and a separate student publication
SOURCE_REPOSITORY = "course-owner/attention-course-source"
SOURCE_REPO_URL = "https://github.com/course-mirror/attention-course-source"
STUDENT_PUBLICATION = "course-owner/attention-course-student"
STUDENT_SITE_URL = "https://course-owner.github.io/attention-course-student/"
# `mkdocs build --strict -d SITE` with repo_url set, as a repository's mkdocs.yml may set it
# (the command line has no option for it; the same calls as mkdocs' own build command)
BUILD_WITH_REPO_URL = """
import sys
from mkdocs.commands import build
from mkdocs.config import load_config
config = load_config("mkdocs.yml", strict=True, site_dir=sys.argv[1], repo_url=sys.argv[2])
config.plugins.on_startup(command="build", dirty=False)
try:
    build.build(config, dirty=False)
finally:
    config.plugins.on_shutdown()
"""


@pytest.fixture(scope="module")
def student_site(built_site, tmp_path_factory) -> Path:
    """The student edition, built once, after the open site (``built_site``): the experiments,
    notebooks and handouts are then in the caches, so it trains nothing and runs no notebook
    (started before the open build had filled them, on another worker, it would compute every
    experiment a second time); with a source repository (the variable and repo_url) and a student
    publication configured and a site address (so a sitemap)."""
    site = tmp_path_factory.mktemp("student") / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "COURSE_EDITION": "student",
           "COLAB_REPOSITORY": SOURCE_REPOSITORY, "STUDENT_COLAB_REPOSITORY": STUDENT_PUBLICATION,
           "SITE_URL": STUDENT_SITE_URL}
    result = subprocess.run([sys.executable, "-c", BUILD_WITH_REPO_URL, str(site), SOURCE_REPO_URL],
                            cwd=REPO, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(f"student edition build failed:\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}", pytrace=False)
    return site


@pytest.mark.slow
def test_the_student_edition_holds_no_answer_text_anywhere(student_site):
    assert not (student_site / "teaching" / "answer-key").exists()
    assert not (student_site / "en" / "teaching" / "answer-key").exists()
    files = [p for p in student_site.rglob("*") if p.is_file()]
    kinds = {p.suffix for p in files}
    assert {".html", ".json", ".ipynb", ".zip"} <= kinds, kinds
    texts = {p: _normalised(_text_of(p, p.read_bytes())) for p in files}
    leaks = []
    for where, phrases in answer_texts().items():
        for phrase in phrases:
            phrase = _normalised(phrase)
            leaks += [f"{where}: «{phrase}» in {p.relative_to(student_site)}" for p, t in texts.items() if phrase in t]
    assert not leaks, "\n".join(leaks[:20])
    answer_anchors = [f'id="a-{q["id"]}"' for d in questions.load().values() for q in d["questions"]]
    answer_anchors += [f'id="a-{a["id"]}"' for a in questions.load_assignments()]
    for p in (p for p in files if p.suffix == ".html"):
        page = p.read_text(encoding="utf-8")
        assert not re.search(r'href="[^"]*answer-key', page), f"{p.relative_to(student_site)} links to the answer key"
        found = [a for a in answer_anchors if a in page]
        assert not found, f"{p.relative_to(student_site)} has the answer anchors {found}"
    index = json.loads((student_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert not [d["location"] for d in index["docs"] if "answer-key" in d["location"]]


def _site_texts(site: Path) -> dict[str, str]:
    """What can name or link a place in a built site: every HTML page, each search index, the
    sitemap, every notebook and the member list of every archive (``name!``)."""
    out = {}
    for p in site.rglob("*"):
        rel = p.relative_to(site).as_posix()
        if p.suffix in (".html", ".json", ".xml", ".ipynb", ".txt", ".js"):
            out[rel] = p.read_text(encoding="utf-8", errors="ignore")
        elif p.name.endswith(".xml.gz"):
            out[rel] = gzip.decompress(p.read_bytes()).decode("utf-8")
        elif p.suffix == ".zip":
            with zipfile.ZipFile(p) as archive:
                out[rel + "!"] = "\n".join(archive.namelist())
    return out


def _head_commit() -> str:
    """The commit the builds record (provenance.git.commit): this checkout's HEAD."""
    return subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.mark.slow
def test_the_student_edition_names_no_place_that_holds_answers(student_site, built_site):
    texts = _site_texts(student_site)
    assert "sitemap.xml" in texts and "search/search_index.json" in texts and "en/search/search_index.json" in texts
    assert "downloads/course-code.zip!" in texts
    # GitHub's commit search finds the public repositories that hold a commit from its hash
    commit = _head_commit()
    assert commit in (built_site / "build" / "index.html").read_text(encoding="utf-8")  # the open site gives it
    source_names = [name.lower() for name in (SOURCE_REPOSITORY, SOURCE_REPO_URL.removeprefix("https://github.com/"))]
    found = []
    for rel, text in texts.items():
        lowered = text.lower()
        if any(name in lowered for name in source_names) or "attention-course-source" in lowered:
            found.append(f"{rel} names the source repository")
        if commit in lowered:
            found.append(f"{rel} gives the source's commit {commit}")
        if "git clone" in lowered:
            found.append(f"{rel} says git clone")
        for href in re.findall(r'(?:href|src)="([^"]+)"|<loc>([^<]+)</loc>', text):
            href = href[0] or href[1]
            if re.search(r"answer-key|instructor-guide|site[^/]*-instructor|/questions/|\.ya?ml(#|$)", href):
                found.append(f"{rel} links {href}")
            if "gh-pages" in href and f"/github/{STUDENT_PUBLICATION}/blob/gh-pages/" not in href:
                found.append(f"{rel} links a gh-pages branch other than the student publication's: {href}")
        if rel.endswith("!"):
            found += [f"{rel} holds {n}" for n in text.splitlines() if holds_answers(n.split("/", 1)[-1])]
    assert not found, "\n".join(found[:30])
    for prefix in ("", "en/"):
        for page in ("teaching/answer-key", "teaching/instructor-guide"):
            assert not (student_site / prefix / page).exists(), prefix + page
        home = texts[f"{prefix}index.html"]
        assert 'class="md-source"' not in home, "the header links a repository"
        assert f'{prefix and "../"}downloads/course-code.zip' in home
    colab = re.findall(r'href="(https://colab\.research\.google\.com/[^"]+)"', "\n".join(texts.values()))
    assert colab and all(c.startswith(f"https://colab.research.google.com/github/{STUDENT_PUBLICATION}/blob/gh-pages/")
                         for c in colab), sorted(set(colab))[:5]


@pytest.mark.slow
def test_the_search_box_does_not_show_the_self_checks_answers(student_site):
    from coursebuild.content import selfcheck

    for lang, prefix in (("ko", ""), ("en", "en/")):
        index = json.loads((student_site / prefix / "search" / "search_index.json").read_text(encoding="utf-8"))
        text = _normalised(" ".join(d["text"] for d in index["docs"]))
        leaks = []
        for n, items in selfcheck.load().items():
            for q in items:
                whys = [q["explain"]] if q["type"] == "number" else [c["why"] for c in q["choices"]]
                for why in whys:
                    words = _normalised(selfcheck.to_html(why[lang].split("[[")[0].split("$")[0]))
                    if len(words) >= 12 and words in text:
                        leaks.append(f"{q['id']}: «{words}»")
        assert not leaks, "\n".join(leaks[:10])
        lesson = (student_site / prefix / "lessons" / "scaled-dot-product" / "index.html").read_text(encoding="utf-8")
        assert 'class="self-check__explain"' in lesson  # the page itself keeps them


def test_the_index_leaves_out_the_self_checks_explanations():
    from coursebuild.outputs import search

    html = ('<p>Q</p><label><input data-correct> <span>Right</span></label>'
            '<template class="self-check__why" data-choice="0"><p>Yes, because</p></template>'
            '<template class="self-check__explain"><p>It is 5.657</p></template><p>after</p>')
    assert search.without_self_check_answers(html) == '<p>Q</p><label><input data-correct> <span>Right</span></label><p>after</p>'


@pytest.mark.slow
def test_the_student_edition_keeps_the_questions_with_hints_and_the_self_checks(student_site):
    for prefix, hint in (("", "힌트"), ("en/", "Hint")):
        html = (student_site / prefix / "teaching" / "exercises" / "index.html").read_text(encoding="utf-8")
        asked = re.findall(r'id="q-([a-z0-9-]+)"', html)
        assert len(asked) == sum(len(d["questions"]) for d in questions.load().values()) + 2
        assert html.count(f"<summary>{hint}</summary>") >= 9
        lesson = (student_site / prefix / "lessons" / "scaled-dot-product" / "index.html").read_text(encoding="utf-8")
        assert 'class="self-check"' in lesson and 'id="q-sdpa-row-by-hand"' in lesson


@pytest.mark.slow
def test_the_open_site_has_the_answer_key_and_the_pack_beside_it(built_site):
    assert (built_site / "teaching" / "answer-key" / "index.html").is_file()
    pack = editions.pack_dir(built_site)
    for name in ("index.html", "ko/answer-key.html", "en/answer-key.html", "lms/moodle-ko.xml",
                 "lms/moodle-en.xml", "lms/qti-ko.zip", "lms/qti-en.zip", "assets/katex/katex.min.js"):
        assert (pack / name).is_file(), name
    for lang in ("ko", "en"):
        key = (pack / lang / "answer-key.html").read_text(encoding="utf-8")
        assert len(re.findall(r'id="a-[a-z0-9-]+"', key)) == len(re.findall(r'id="q-', (
            built_site / ("" if lang == "ko" else "en") / "teaching" / "exercises" / "index.html").read_text(encoding="utf-8")))
        assert "[[" not in key and "<details" in key
    with zipfile.ZipFile(pack.with_name(pack.name + ".zip")) as archive:
        assert f"{pack.name}/ko/answer-key.html" in archive.namelist()
    with zipfile.ZipFile(built_site / editions.CODE_ARCHIVE) as archive:  # the same code in both editions
        names = archive.namelist()
    assert "attention-course/README.md" in names and "attention-course/tutorial_code/attention.py" in names
    assert not [n for n in names if holds_answers(n.split("/", 1)[1])], "the code archive holds no answers"


@pytest.mark.slow
def test_the_pack_holds_the_instructor_guide_whose_links_stay_in_the_pack_or_go_to_the_site(student_site):
    pack = editions.pack_dir(student_site)
    for lang, prefix in (("ko", ""), ("en", "en/")):
        guide = (pack / lang / "instructor-guide.html").read_text(encoding="utf-8")
        assert "[[" not in guide and 'id="editions"' in guide and 'id="misconceptions"' in guide
        links = re.findall(r'<a href="([^"]+)"', guide)
        assert "answer-key.html" in links
        outside = [h for h in links if not h.startswith(("#", "answer-key.html", STUDENT_SITE_URL + prefix))
                   and h != f"{STUDENT_SITE_URL}downloads/course-code.zip"]  # one archive for both languages
        assert not outside, outside[:5]
        assert f"{STUDENT_SITE_URL}{prefix}lessons/multi-head/#parameters" in links
        assert f"{STUDENT_SITE_URL}downloads/course-code.zip" in guide  # [[get-code]]: the archive
        index = (pack / "index.html").read_text(encoding="utf-8")
        assert f'href="{lang}/instructor-guide.html"' in index


class _Config(dict):
    """Enough of a MkDocs config for the pack's staging (a dict that takes attributes)."""


def test_the_pack_replaces_the_old_one_whole_and_a_failed_build_leaves_it_as_it_was(tmp_path):
    config = _Config(site_dir=str(tmp_path / "site"))
    (editions.staging(config) / "a.txt").write_text("first", encoding="utf-8")
    target = editions.finish_pack(config)
    assert target == tmp_path / "site-instructor" and (target / "a.txt").read_text(encoding="utf-8") == "first"
    with zipfile.ZipFile(tmp_path / "site-instructor.zip") as archive:
        assert archive.namelist() == ["site-instructor/a.txt"]
    config = _Config(site_dir=str(tmp_path / "site"))  # the next build, which fails half-way
    stage = editions.staging(config)
    (stage / "b.txt").write_text("half", encoding="utf-8")
    editions.discard_staging(config)
    assert not stage.exists() and sorted(p.name for p in target.iterdir()) == ["a.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site-instructor", "site-instructor.zip"]
