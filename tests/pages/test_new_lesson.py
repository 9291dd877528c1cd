"""Adding a lesson touches exactly the files README's "How to add a lesson" lists.

The test copies the repository, adds a tenth lesson there the way README says (its row in
``scripts/coursebuild/course.py``, its two pages, its check questions, its self-checks, its lab
notebook, its stop question and demonstration tip in both instructor guides), builds the copy
from the warm caches of this run's build, and checks that the rest follows: navigation, the next
lesson link, the lists of questions, the whole-course plan and the time table, the counts the
prose quotes, the notebooks and the instructor pack. Nothing may train.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from coursebuild.course import LESSONS, SESSIONS
from repo_copy import copy_repository

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
N = len(LESSONS) + 1
SLUG, KO, EN = "beyond-attention", "어텐션 너머", "Beyond attention"
NEW_SESSION = len(SESSIONS) + 1

# what README's "How to add a lesson" names, besides the row in course.py
README_FILES = [
    f"docs/ko/lessons/{SLUG}.md", f"docs/en/lessons/{SLUG}.md",
    f"docs/questions/lesson-{N:02d}.yml", "docs/questions/self-check.yml",
    f"tutorial_code/notebooks/lesson_{N:02d}_{SLUG.replace('-', '_')}.py",
    "docs/ko/teaching/instructor-guide.md", "docs/en/teaching/instructor-guide.md",
    f"docs/handouts/lesson-{N:02d}.yml",
]
SECTIONS = {"ko": ("왜 필요한가", "손으로 풀어 보기", "이 강의의 한계"),
            "en": ("Motivation", "Worked example", "Where it breaks")}
SECTION_IDS = ("motivation", "worked-example", "where-it-breaks")


def test_readme_names_the_files_a_lesson_needs():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    part = readme[readme.index("- **A lesson**"):]
    part = part[:part.index("\n\n")]
    for path in ["scripts/coursebuild/course.py", "docs/ko/lessons/<slug>.md", "docs/en/lessons/<slug>.md",
                 "docs/questions/lesson-NN.yml", "docs/questions/self-check.yml",
                 "tutorial_code/notebooks/lesson_NN_<slug>.py", "instructor-guide.md", "docs/handouts/lesson-NN.yml"]:
        assert path in part, f"README's 'A lesson' does not name {path}"


def _add_lesson(root: Path) -> None:
    course = root / "scripts/coursebuild/course.py"
    text = course.read_text(encoding="utf-8")
    last = LESSONS[-1]
    row = re.search(r'^    \("%s",.*\),\n' % re.escape(last.slug), text, re.M)
    assert row, "the last lesson's row in course.py"
    text = text[:row.end()] + f'    ("{SLUG}", "{KO}", "{EN}", {NEW_SESSION}, LAB),\n' + text[row.end():]
    course.write_text(text, encoding="utf-8")
    for lang, title, body in (("ko", KO, "이 강의는 어텐션의 다른 모습을 살펴봅니다."),
                              ("en", EN, "This lesson looks at other forms of attention.")):
        sections = "".join(f"## {h} {{ #{a} }}\n\n{body}\n\n" for h, a in zip(SECTIONS[lang], SECTION_IDS))
        check = "확인 문제" if lang == "ko" else "Check questions"
        (root / f"docs/{lang}/lessons/{SLUG}.md").write_text(
            f"# {title} {{ #{SLUG} }}\n\n[[reading-time]]\n\n{body}\n\n{sections}"
            f"## {check} {{ #check-questions }}\n\n[[questions:{N}]]\n\n[[self-check:{N}]]\n", encoding="utf-8")
    (root / f"docs/questions/lesson-{N:02d}.yml").write_text(f'''lesson: {N}
title: {{ko: {KO}, en: "{EN}"}}
questions:
  - id: beyond-score-matrix
    ko: 어텐션의 점수 행렬은 왜 L × L입니까?
    en: Why is the attention score matrix L × L?
    hint:
      ko: 쿼리와 키의 수를 세어 보세요.
      en: Count the queries and the keys.
    answer:
      ko: 쿼리 L개가 키 L개와 모두 점수를 매기기 때문입니다.
      en: Each of the L queries scores each of the L keys.
  - id: beyond-second
    ko: 키가 하나뿐이면 가중치는 얼마입니까?
    en: With a single key, what is its weight?
    hint:
      ko: 소프트맥스의 합을 떠올려 보세요.
      en: Think of what softmax sums to.
    answer:
      ko: 합이 1이므로 1입니다.
      en: The weights sum to 1, so it is 1.
''', encoding="utf-8")
    blanks = " ".join(f"$L = [[value:cost.n2.at.{n}.L|,]]$: $L^2 = [[blank:cost.n2.at.{n}.entries|,]]$."
                      for n in (4096, 8192, 16384))
    (root / README_FILES[-1]).write_text(f'''figure:
  name: cost.attention_cost
ko:
  caption: 길이에 따른 시간과 메모리
  text: |
    {blanks}
en:
  caption: Time and memory by length
  text: |
    {blanks}
''', encoding="utf-8")
    sc = root / "docs/questions/self-check.yml"
    sc.write_text(sc.read_text(encoding="utf-8").rstrip("\n") + f'''
  {N}:
    - id: sc-beyond-entries
      type: choice
      ko: 길이 L인 입력의 점수 행렬은 몇 칸일까요?
      en: How many entries does the score matrix of a length-L input have?
      choices:
        - correct: true
          ko: L²칸입니다.
          en: L² entries.
          why:
            ko: 쿼리마다 키가 L개입니다.
            en: L keys for each query.
        - ko: L칸입니다.
          en: L entries.
          why:
            ko: 아닙니다. 쿼리마다 한 행이 있습니다.
            en: No. Each query has a whole row.
''', encoding="utf-8")
    (root / README_FILES[4]).write_text(f'''# %% [markdown] lang="ko"
# # {N}강 실습: {KO}
#
# 점수 행렬의 크기를 확인합니다.

# %% [markdown] lang="en"
# # Lesson {N} lab: {EN}
#
# Check the size of the score matrix.

# %%
import torch

q = torch.randn(5, 8)
print((q @ q.T).shape)
''', encoding="utf-8")
    for lang in ("ko", "en"):
        guide = root / f"docs/{lang}/teaching/instructor-guide.md"
        text = guide.read_text(encoding="utf-8")
        if lang == "ko":
            block = (f"### {N}강. {KO} {{ #lesson-{N} }}\n\n멈춤 질문 {{ #lesson-{N}-stop }}\n:   \"점수 행렬은 몇 칸일까요?\"\n\n"
                     f"시연 팁 {{ #lesson-{N}-demo }}\n:   약 [[plan:demo-{N}]]분.\n\n    1. **행렬 (2분).** 점수 행렬을 보여 줍니다.\n\n")
        else:
            block = (f"### Lesson {N}. {EN} {{ #lesson-{N} }}\n\nStop question {{ #lesson-{N}-stop }}\n:   \"How many entries has the score matrix?\"\n\n"
                     f"Demonstration tip {{ #lesson-{N}-demo }}\n:   About [[plan:demo-{N}]] minutes.\n\n    1. **The matrix (2 min).** Show the score matrix.\n\n")
        start = text.index(f"{{ #lesson-{N - 1} }}")
        end = start + re.search(r"^## ", text[start:], re.M).start()
        guide.write_text(text[:end] + block + text[end:], encoding="utf-8")


@pytest.fixture(scope="module")
def copy_site(built_site, tmp_path_factory):
    """(the copy's built site, the copy) after adding lesson N to a copy of the repository."""
    root = copy_repository(tmp_path_factory.mktemp("tenth") / "repo")
    before = set(subprocess.run(["git", "status", "--porcelain"], cwd=REPO, capture_output=True,
                                text=True).stdout.splitlines())
    _add_lesson(root)
    changed = [p for p in README_FILES if (root / p).read_bytes() != ((REPO / p).read_bytes() if (REPO / p).exists() else b"")]
    assert sorted(changed) == sorted(README_FILES)
    site = root / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1",
           "PYTHONPATH": os.pathsep.join([str(root), str(root / "scripts")])}
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
                            cwd=root, env=env, capture_output=True, text=True)
    assert result.returncode == 0, f"the copy with lesson {N} does not build:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    after = set(subprocess.run(["git", "status", "--porcelain"], cwd=REPO, capture_output=True,
                               text=True).stdout.splitlines())
    assert after == before, "building the copy changed the repository"
    return site, root


def page(site: Path, lang: str, rel: str) -> str:
    prefix = "" if lang == "ko" else "en/"
    return (site / prefix / rel / "index.html").read_text(encoding="utf-8")


def test_nothing_trains(copy_site):
    _, root = copy_site
    cache = json.loads((root / ".build/provenance.json").read_text(encoding="utf-8"))["cache"]
    assert cache["misses"] == 0 and cache["drawings_redrawn"] == 0 and cache["pagedata_made"] == 0, cache


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_navigation_and_next_lesson_follow(copy_site, lang):
    site, _ = copy_site
    title = KO if lang == "ko" else EN
    home = page(site, lang, "")
    assert f"lessons/{SLUG}/" in home and title in home, f"{lang}: the navigation has no lesson {N}"
    last = page(site, lang, f"lessons/{LESSONS[-1].slug}")
    assert re.search(r'href="\.\./%s/"[^>]*>[^<]*' % SLUG, last), f"{lang}: lesson {N - 1} does not lead to lesson {N}"
    mine = page(site, lang, f"lessons/{SLUG}")
    assert 'class="reading-time"' in mine and 'class="study-time"' in mine
    assert "sc-beyond-entries" in mine, f"{lang}: lesson {N}'s self-check is missing"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_question_lists_follow(copy_site, lang):
    site, _ = copy_site
    for rel in ("teaching/exercises", "teaching/answer-key"):
        html = page(site, lang, rel)
        assert f'<h2 id="lesson-{N}">' in html and "beyond-score-matrix" in html.replace("q-", ""), f"{lang} {rel}"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_plan_times_and_counts_follow(copy_site, lang):
    site, _ = copy_site
    guide = page(site, lang, "teaching/instructor-guide")
    head = re.search(r'<h3 id="plan-course-%d">(.*?)</h3>' % NEW_SESSION, guide, re.S)
    assert head, f"{lang}: the whole-course plan has no session {NEW_SESSION} for lesson {N}"
    section = guide[head.end():guide.index("</table>", head.end())]
    assert f"#lesson-{N}-demo" in section and f"lessons/{SLUG}/#check-questions" in section
    assert f"notebooks/lesson-{N:02d}-{SLUG}/" in section
    text = re.sub(r"<[^>]+>", " ", guide)
    assert (f"{N}강 " if lang == "ko" else f"lesson {N}: ") in text, f"{lang}: the reading times list no lesson {N}"
    ten = "열 강의" if lang == "ko" else "ten lessons"
    assert ten in text, f"{lang}: the guide still counts {len(LESSONS)} lessons"
    closing = re.sub(r"<[^>]+>", " ", page(site, lang, "closing"))
    assert ten in closing


def test_notebooks_and_pack_follow(copy_site):
    site, root = copy_site
    for prefix in ("", "en/"):
        assert (site / prefix / f"notebooks/lesson-{N:02d}-{SLUG}/index.html").is_file()
    pack = root / "site-instructor"
    moodle = "".join(p.read_text(encoding="utf-8") for p in pack.rglob("*.xml"))
    assert "sc-beyond-entries" in moodle or "점수 행렬은 몇 칸일까요" in moodle
