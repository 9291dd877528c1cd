"""The search index: lessons first, notebooks by their prose, each lesson's key terms in both
languages, and a filter that leaves pages out (the student edition's index holds no answers)."""

import json
import re

import pytest

from coursebuild.content import questions
from coursebuild.outputs import search
from coursebuild.course import LESSONS
from coursebuild.paths import LANGS

ANSWER_KEY = "teaching/answer-key/"


@pytest.fixture(scope="module")
def indexes(built_site):
    return {lang: json.loads(path.read_text(encoding="utf-8"))
            for lang, path in search.index_files(built_site).items()}


def owner(term_id):
    return next(n for n, terms in search.introduced_terms().items() if term_id in {t.id for t in terms})


def test_the_readers_terms_belong_to_the_lesson_that_teaches_them():
    # the queries a reader tried (they found notebooks first), and the lesson that teaches each
    lesson = {"head": 5, "query": 2, "attention": 1, "transformer": 7, "multi-head-attention": 5,
              "layer-normalization": 7, "positional-encoding": 6, "softmax": 3, "self-attention": 4}
    assert {t: owner(t) for t in lesson} == lesson


def test_a_term_named_in_a_title_belongs_to_the_first_lesson_so_titled():
    assert owner("dot-product") == 3  # "Scaled dot-product attention"
    assert not search._names("멀티헤드 어텐션", "헤드") and search._names("Multi-head attention", "head")
    assert search._names("왜 어텐션인가", "어텐션") and not search._names("Self-attention", "cross-attention")


def test_prose_leaves_out_code_markers_formulas_and_links():
    md = "# 제목 { #t }\n\n소프트맥스 $\\operatorname{softmax}(x)$ [[value:a.b|.2f]] [링크](x.md#q)\n\n```python\nquery = 1\n```\n`key`"
    text = search.prose(md)
    assert "소프트맥스" in text and "링크" in text
    for gone in ("softmax", "value:", "x.md", "query", "key", "#t"):
        assert gone not in text


def test_notebook_text_for_the_index_keeps_markdown_cells_and_drops_code_cells():
    html = ('<div class="jp-Cell jp-MarkdownCell"><h2 id="a">Heads</h2><p>prose</p></div>'
            '<div class="jp-Cell jp-CodeCell jp-Notebook-cell"><div class="in"><pre>import torch</pre></div>'
            '<div class="out"><pre>tensor([1.])</pre></div></div>'
            '<div class="jp-Cell jp-MarkdownCell"><p>after</p></div>')
    out = search.notebook_text_for_index(html)
    assert "Heads" in out and "prose" in out and "after" in out
    assert "import torch" not in out and "tensor" not in out
    assert out.count("<div") == out.count("</div>")


@pytest.mark.parametrize("lang", LANGS)
def test_notebooks_are_indexed_without_code_or_outputs(indexes, lang):
    notebooks = [d for d in indexes[lang]["docs"] if d["location"].startswith("notebooks/")]
    assert len({search.page_of(d["location"]) for d in notebooks}) == len(LESSONS)
    for doc in notebooks:
        assert not re.search(r"In&nbsp;\[|In \[\d+\]|Copied!|import torch|<pre>", doc["text"]), doc["location"]
    # the pages themselves keep their code (only the index leaves it out)


def test_notebook_pages_still_show_their_code(built_site):
    for lang in LANGS:
        page = built_site / ("" if lang == "ko" else "en") / "notebooks" / LESSONS[4].notebook / "index.html"
        assert "jp-CodeCell" in page.read_text(encoding="utf-8") and "import torch" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_each_kind_of_page_has_its_boost(indexes, lang):
    boosts = {}
    for doc in indexes[lang]["docs"]:
        boosts.setdefault(search.page_of(doc["location"]), set()).add(doc.get("boost"))
    for page, found in boosts.items():
        assert found == {search.page_boost(page.rstrip("/") + ".md" if page else "index.md")}, page
    lesson, notebook = boosts[f"lessons/{LESSONS[0].slug}/"], boosts[f"notebooks/{LESSONS[0].notebook}/"]
    assert min(lesson) > max(boosts[ANSWER_KEY]) and min(lesson) > max(notebook)
    assert min(lesson) > max(boosts["teaching/instructor-guide/"])


@pytest.mark.parametrize("lang", LANGS)
def test_each_lesson_carries_its_key_terms_in_both_languages(indexes, lang):
    index = indexes[lang]
    assert index["config"]["fields"][search.KEYWORDS_FIELD]["boost"] > index["config"]["fields"]["title"]["boost"]
    with_keywords = {d["location"]: d[search.KEYWORDS_FIELD] for d in index["docs"] if search.KEYWORDS_FIELD in d}
    assert set(with_keywords) == {search.lesson_location(lesson) for lesson in LESSONS}
    for lesson in LESSONS:
        words = with_keywords[search.lesson_location(lesson)]
        for term in search.introduced_terms()[lesson.number]:
            assert term.ko in words and term.en in words, (lesson.slug, term.id)


def test_refining_twice_changes_nothing(indexes):
    once = indexes["ko"]
    assert search.refine_index(once) == once


def answers(lang):
    """Each worked answer as its plain runs of text (15+ characters, no markup or formulas)."""
    out = []
    for lesson in questions.load().values():
        for q in lesson["questions"]:
            runs = re.split(r"\[\[.*?\]\]|\$[^$]*\$|[*`_<>&\"|\[\]()\n#\\]", q["answer"][lang])
            pieces = [r.strip() for r in runs if len(r.strip()) >= 15]
            if pieces:
                out.append((q["id"], pieces))
    return out


def held(index, lang):
    """The answers an index holds: most of their text (a lesson may state one fact of an answer)."""
    text = " ".join(re.sub(r"\s+", " ", d["text"]) for d in index["docs"])
    return [qid for qid, pieces in answers(lang) if sum(p in text for p in pieces) > len(pieces) / 2]


@pytest.mark.parametrize("lang", LANGS)
def test_without_the_answer_key_the_index_holds_no_answer(indexes, lang):
    index = indexes[lang]
    assert len(held(index, lang)) > len(answers(lang)) / 2, "the answer key's answers are not found: the check cannot fail"
    student = search.without_pages(index, [ANSWER_KEY])
    assert not any(search.page_of(d["location"]) == ANSWER_KEY for d in student["docs"])
    assert held(student, lang) == []


def test_filter_index_drops_and_rewrites_entries():
    index = {"config": {"fields": {}}, "docs": [{"location": "a/", "title": "A", "text": "x secret"},
                                                {"location": "b/#c", "title": "B", "text": "y"}]}
    out = search.filter_index(index, drop=lambda d: d["location"].startswith("b/"),
                              text=lambda d: d["text"].replace("secret", ""))
    assert out["docs"] == [{"location": "a/", "title": "A", "text": "x "}]
    assert index["docs"][0]["text"] == "x secret"  # the input is left as it was


def test_rewrite_index_file_is_atomic_and_leaves_nothing_behind(tmp_path):
    path = tmp_path / "search_index.json"
    path.write_text(json.dumps({"config": {}, "docs": [{"location": "a/", "title": "t", "text": "x"}]}))
    with pytest.raises(RuntimeError):
        search.rewrite_index_file(path, lambda index: (_ for _ in ()).throw(RuntimeError("bad")))
    assert json.loads(path.read_text())["docs"][0]["location"] == "a/"
    search.rewrite_index_file(path, lambda index: search.without_pages(index, ["a/"]))
    assert json.loads(path.read_text())["docs"] == []
    assert [p.name for p in tmp_path.iterdir()] == ["search_index.json"]
