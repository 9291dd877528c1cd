"""tutorial_code/writing/corpus.py: the course's own prose as the tokenizer's (and later the
model's) text.

* at least 100 KB of UTF-8 text per language (the issue's "about 100 KB"), in both parts;
* training and validation are whole document groups, the same groups in both languages, fixed
  by the groups' names (the same split twice, and from a copy of the sources in another folder);
* no validation document's text is in training: no validation paragraph equals a training one,
  and no validation sentence of 40 characters or more occurs anywhere in the training text
  (the corpus drops from validation the sentences training repeats word for word);
* the instructor pages are not in it, and neither are the check questions' worked answers;
* markup is taken off (no placeholder, formula, fence, table, HTML or attribute list is left),
  and :func:`prose` does to a page written here what its docstring says;
* the tokens-per-character table has its four numbers, from validation text.
"""

from __future__ import annotations

import re
import shutil

import pytest

from tutorial_code.writing import corpus

MIN_BYTES = 100_000


@pytest.fixture(scope="module")
def splits():
    return {lang: corpus.split(lang) for lang in corpus.LANGS}


@pytest.mark.parametrize("lang", corpus.LANGS)
def test_each_language_has_at_least_100_kb(lang, splits):
    train, validation = splits[lang]
    total = sum(len(d.text.encode("utf-8")) for d in train + validation)
    assert total >= MIN_BYTES, f"{lang}: {total} bytes"
    assert len(corpus.text(lang, "validation").encode("utf-8")) >= 0.1 * total


def test_the_split_is_by_document_group_and_the_same_in_both_languages(splits):
    held = set(corpus.validation_groups())
    assert held, "no validation group"
    for lang, (train, validation) in splits.items():
        assert {d.group for d in validation} == held, lang
        assert not {d.group for d in train} & held, lang
        assert {d.source for d in train}.isdisjoint(d.source for d in validation)
    # a lesson's page and its notebook are one group, on the same side
    groups = {}
    for d in splits["ko"][0] + splits["ko"][1]:
        groups.setdefault(d.group, set()).add(d.source.split("/")[0])
    assert any(kinds == {"docs", "tutorial_code"} for kinds in groups.values())


def test_the_split_does_not_depend_on_the_machine_or_the_folder(tmp_path, splits):
    copy = tmp_path / "repo"
    shutil.copytree(corpus.ROOT / "docs", copy / "docs", ignore=shutil.ignore_patterns("notebooks", "assets"))
    shutil.copytree(corpus.ROOT / "tutorial_code" / "notebooks", copy / "tutorial_code" / "notebooks")
    assert corpus.validation_groups(copy) == corpus.validation_groups()
    for lang in corpus.LANGS:
        assert corpus.split(lang, copy) == splits[lang]


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n", text) if len(s) >= 40]


@pytest.mark.parametrize("lang", corpus.LANGS)
def test_no_validation_text_is_in_training(lang, splits):
    train, validation = splits[lang]
    training_text = "\n".join(d.text for d in train)
    training_lines = set(training_text.split("\n"))
    lines = [line for d in validation for line in d.text.split("\n")]
    assert lines
    assert [line for line in lines if line in training_lines] == []
    assert [s for d in validation for s in sentences(d.text) if s in training_text] == []


def test_the_validation_check_finds_a_leaked_page(splits):
    """The check above fails when a validation page is in training too."""
    train, validation = splits["en"]
    training_text = "\n".join(d.text for d in train + validation[:1])
    assert [s for s in sentences(validation[0].text) if s in training_text]


def test_the_instructor_pages_and_the_worked_answers_are_left_out(splits):
    for lang, (train, validation) in splits.items():
        sources = {d.source for d in train + validation}
        assert not any(s.endswith(corpus.LEFT_OUT) for s in sources), lang
        assert f"docs/{lang}/lessons/position.md" in sources
        assert not any("questions" in s for s in sources)


@pytest.mark.parametrize("lang", corpus.LANGS)
def test_no_markup_is_left(lang, splits):
    text = "\n".join(d.text for d in splits[lang][0] + splits[lang][1])
    for mark in ("[[", "]]", "$", "```", "{ #", "{:", "|---", "<div", "</", "!!!", "???", "**"):
        assert mark not in text, f"{lang}: {mark!r} left in the prose"
    assert not re.search(r"^#{1,6} ", text, re.M)
    assert not re.search(r"\]\([^)]*\)", text)


PAGE = """---
title: x
---
# A title { #top }

[[reading-time]]

The loss fell to [[value:reversal.loss|.2f]]. It kept falling.
Then it stopped, as $x^2$ says. A **bold** word and a [link](other.md).

```python
print("code")
```

| a | b |
|---|---|
| 1 | 2 |

!!! note "A box title"
    Inside the box, `code words` stay.

$$
y = x
$$

- an item
  continued here.

[[edition:open]]
Only in the open edition.
[[edition:end]]
<div class="x"></div>
*[HTML]: Hypertext
"""


def test_prose_does_what_its_docstring_says():
    assert corpus.prose(PAGE).split("\n") == [
        "A title",
        "It kept falling. A bold word and a link.",
        "A box title",
        "Inside the box, code words stay.",
        "an item continued here.",
    ]


def test_a_notebooks_text_cells_in_one_language():
    source = '# %% [markdown] lang="ko"\n# # 제목\n#\n# 한국어 문장.\n\n# %% [markdown] lang="en"\n# # Title\n\n# %%\nx = 1\n'
    assert corpus.prose(corpus.notebook_markdown(source, "ko")) == "제목\n한국어 문장."
    assert corpus.prose(corpus.notebook_markdown(source, "en")) == "Title"


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="lang"):
        corpus.documents("fr")
    with pytest.raises(ValueError, match="part"):
        corpus.text("ko", "test")


def test_the_tokens_per_character_table_has_four_numbers():
    table = corpus.tokens_per_character_table(512)
    assert sorted(table) == ["en", "ko+en"]
    assert all(sorted(row) == ["en", "ko"] and all(0 < v < 4 for v in row.values()) for row in table.values())
