"""Every check question and assignment has its answer, in both languages, on the answer key.

The data (docs/questions/*.yml) is checked without building; the built exercises page and
answer key are checked against each other: every question asked has its answer block.
"""

import re

import pytest
import yaml

from coursebuild.pages import markers
from coursebuild.pages import kinds
from coursebuild.content import questions
from coursebuild.course import LESSONS

LANGS = ("ko", "en")
ROOTS = {"ko": "", "en": "en/"}


def text(entry, key, lang):
    value = entry.get(key)
    return (value.get(lang) if isinstance(value, dict) else value) or ""


def test_every_question_has_question_and_answer_text_in_both_languages():
    lessons = questions.load()
    assert sorted(lessons) == [lesson.number for lesson in LESSONS]
    for n, data in lessons.items():
        assert 2 <= len(data["questions"]) <= 4, f"lesson {n}: the course asks for 2-4 check questions"
        for q in data["questions"]:
            for lang in LANGS:
                assert text(q, lang, lang).strip(), f"lesson {n}, {q['id']}: no {lang} question"
                assert text(q, "answer", lang).strip(), f"lesson {n}, {q['id']}: no {lang} answer"


def test_every_assignment_has_task_rubric_and_model_answer_in_both_languages():
    assignments = questions.load_assignments()
    assert len(assignments) == 2  # COURSE_SPEC: two assignments
    for a in assignments:
        for lang in LANGS:
            for key in ("title", "task", "hand_in", "answer"):
                assert text(a, key, lang).strip(), f"{a['id']}: no {lang} {key}"
            assert all(text(item, lang, lang).strip() for item in a["rubric"]), a["id"]
        assert 3 <= len(a["rubric"]) <= 5 and all(item["points"] > 0 for item in a["rubric"])


def test_assignment_answers_quote_the_build():
    """Model answers take their numbers from results: markers, not typed digits."""
    unscaled, no_position = questions.load_assignments()
    for lang in LANGS:
        # assignment 1 is graded by recomputing the student's own slip: the answer's code takes
        # the lesson's key cards from the build, and names the site's slip and factor
        for key in ("library.keys.0.0", "library.keys.2.1", "library.both.query.0", "library.stretch.factor"):
            assert f"[[value:worked_examples.{key}" in text(unscaled, "answer", lang), key
        assert "[[table:lstm_vs_attention.ablation]]" in text(no_position, "answer", lang)
        assert "bag_bound" in text(no_position, "answer", lang)


# the numeric answers the teaching-kit issue names, by question: markers each answer must quote
BUILD_ANSWERS = {
    "library-dot": ["[[value:worked_examples.library.one.dots.0|", "[[value:worked_examples.library.one.scaled.0|"],
    "library-blend": ["[[value:worked_examples.library.both.hand.output.0|", "[[value:worked_examples.library.both.output.0|"],
    "shuffle-no-position": ["[[value:worked_examples.shuffle.toy_max_diff|"],
    "mha-params-512": ["[[value:worked_examples.multihead.params.512.formula|", "[[value:worked_examples.multihead.params.512.by_heads.8|"],
    "cost-double-length": ["[[value:cost.n2.at.8192.ratio|", "[[value:cost.n2.at.8192.entries|"],
}
# numbers the build computes, typed by hand (with or without thousands separators)
TYPED = re.compile(r"(?<![\d.])(1,?050,?624|1,?048,?576|16,?777,?216|67,?108,?864)(?![\d])")


def test_the_numeric_answers_quote_the_build_and_type_nothing():
    by_id = {q["id"]: q for data in questions.load().values() for q in data["questions"]}
    for qid, quoted in BUILD_ANSWERS.items():
        for lang in LANGS:
            answer = text(by_id[qid], "answer", lang)
            missing = [m for m in quoted if m not in answer]
            assert not missing, f"{qid} ({lang}): the answer does not quote {missing}"
    for path in sorted(questions.FOLDER.glob("*.yml")):
        typed = TYPED.findall(path.read_text(encoding="utf-8"))
        assert not typed, f"{path.name}: {typed} typed by hand; quote the build with a marker"


def write(folder, name, data):
    (folder / name).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


@pytest.fixture
def folder(tmp_path):
    def both():  # a new dict each time: a shared one would be dumped as a YAML alias
        return {"ko": "가", "en": "a"}
    write(tmp_path, "lesson-01.yml", {"lesson": 1, "title": both(), "questions": [
        {"id": "q-one", "ko": "질문", "en": "question", "answer": both()}]})
    write(tmp_path, "assignments.yml", {"assignments": [
        {"id": "task-one", "title": both(), "task": both(), "hand_in": both(), "answer": both(),
         "rubric": [{"points": 2, **both()}, {"points": 3, **both()}]}]})
    return tmp_path


def test_a_valid_folder_loads(folder):
    assert questions.load_assignments(folder)[0]["id"] == "task-one"


@pytest.mark.parametrize("change, message", [
    (lambda a: a["task"].pop("en"), r"assignments.yml, assignment 1 \(task-one\): 'task' needs text in both ko and en \(missing en\)"),
    (lambda a: a["answer"].update(ko=" "), r"'answer' needs text in both ko and en \(missing ko\)"),
    (lambda a: a["rubric"][1].pop("en"), r"assignment 1 \(task-one\), rubric item 2: 'en' needs text"),
    (lambda a: a["rubric"][0].update(points=0), r"rubric item 1: 'points' must be a positive integer"),
    (lambda a: a.update(id="q-one"), r"id also used by another question or assignment"),
    (lambda a: a.pop("hand_in"), r"'hand_in' needs text"),
])
def test_a_broken_assignment_names_file_entry_and_field(folder, change, message):
    data = yaml.safe_load((folder / "assignments.yml").read_text(encoding="utf-8"))
    change(data["assignments"][0])
    write(folder, "assignments.yml", data)
    with pytest.raises(ValueError, match=message):
        questions.load_assignments(folder)


def test_a_question_without_an_english_answer_fails(folder):
    data = yaml.safe_load((folder / "lesson-01.yml").read_text(encoding="utf-8"))
    del data["questions"][0]["answer"]["en"]
    write(folder, "lesson-01.yml", data)
    with pytest.raises(ValueError, match=r"lesson-01.yml, question q-one: 'answer' needs text .*missing en"):
        questions.load(folder)


def test_assignment_markers_render_task_rubric_and_answer(folder, monkeypatch):
    monkeypatch.setattr(questions, "FOLDER", folder)
    ctx = kinds.context(lang="ko", answer_key_url="answer-key.md")
    page = markers.render("## 과제\n\n[[assignments]]\n", ctx)
    assert "### 과제 1. 가 { #assignment-1 }" in page
    assert '<span id="q-task-one"></span>가' in page
    assert "| **합계** | **5** |" in page  # the total is added up, not typed
    assert "[답안(강사용)](answer-key.md#assignment-1)" in page
    key = markers.render("[[assignment-answers]]", kinds.context(lang="en"))
    assert "### Assignment 1. a { #assignment-1 }" in key and '<span id="a-task-one"></span>' in key
    assert '??? success "Model answer"\n    a' in key and '??? abstract "The task"' in key
    assert "q-task-one" not in key


def test_rubric_cells_escape_pipes_but_keep_markers():
    table = questions._rubric({"rubric": [{"points": 1, "en": "a | b [[value:worked_examples.x|g]]"}]}, "en")
    assert "| a \\| b [[value:worked_examples.x|g]] | 1 |" in table


# ---------------------------------------------------------------- the built pages

def anchors(html: str, prefix: str) -> list[str]:
    return re.findall(rf'id="{prefix}-([a-z0-9-]+)"', html)


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_answer_key_answers_every_question_of_the_exercises_page(built_site, lang):
    exercises = (built_site / ROOTS[lang] / "teaching" / "exercises" / "index.html").read_text(encoding="utf-8")
    key = (built_site / ROOTS[lang] / "teaching" / "answer-key" / "index.html").read_text(encoding="utf-8")
    asked, answered = anchors(exercises, "q"), anchors(key, "a")
    every = [q["id"] for data in questions.load().values() for q in data["questions"]]
    every += [a["id"] for a in questions.load_assignments()]
    assert sorted(asked) == sorted(every), "the exercises page must ask every question once"
    assert answered == asked, "the answer key must answer the same questions, in the same order"
    # each answer anchor is followed, before the next one, by a non-empty answer block
    starts = [key.index(f'id="a-{i}"') for i in answered] + [key.index("</article>")]
    for qid, start, end in zip(answered, starts, starts[1:]):
        block = re.search(r'<details class="success">\s*<summary>[^<]+</summary>(.*?)</details>',
                          key[start:end], re.S)
        assert block and len(re.sub(r"<[^>]+>|\s", "", block[1])) > 40, f"a-{qid}: no answer block"
    # every lesson and the assignments are sections of both pages
    for page in (exercises, key):
        assert all(f'<h2 id="lesson-{n}">' in page for n in (lesson.number for lesson in LESSONS))
        assert '<h2 id="assignments">' in page
        assert all(f'<h3 id="assignment-{n}">' in page for n in (1, 2))


def answer_block(key: str, qid: str) -> str:
    """The answer key's text from the anchor a-<qid> to the next answer anchor, tags removed."""
    start = key.index(f'id="a-{qid}"')
    end = key.find('id="a-', start + 1)
    return re.sub(r"<[^>]+>", " ", key[start:end if end > 0 else len(key)])


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_answer_key_shows_the_parameter_count_and_the_length_factor(built_site, lang):
    key = (built_site / ROOTS[lang] / "teaching" / "answer-key" / "index.html").read_text(encoding="utf-8")
    d = 512
    params = f"{4 * d * d + 4 * d:,}"  # 4d² + 4d, worked out here, apart from the build
    block = answer_block(key, "mha-params-512")
    assert block.count(params) == 5, f"{lang}: want {params} for the formula and for 1, 2, 4 and 8 heads"
    block = answer_block(key, "cost-double-length")
    assert f"{4096 ** 2:,}" in block and f"{8192 ** 2:,}" in block
    assert re.search(r"= ?4\\\)", block), f"{lang}: no factor of 4 for twice the length"
