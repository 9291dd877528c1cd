"""The build's one Markdown scanner (coursebuild/text/markdown.py), on small hand-written pages.

Each expected value (kinds, line spans, ids, titles, formulas, section texts) is written here
by hand from the page in the test, by the rules the scanner's docstring states.
"""

import pytest

from coursebuild.text import markdown


def spans(text: str) -> list[tuple[str, int, int]]:
    return [(b.kind, b.start, b.end) for b in markdown.blocks(text)]


def test_a_backtick_fence_closes_at_its_own_mark_and_holds_what_looks_like_other_blocks():
    text = "Intro\n```python\n## not a heading\n$$\n```\nAfter"
    assert spans(text) == [("paragraph", 0, 1), ("fence", 1, 5), ("paragraph", 5, 6)]
    fence = markdown.blocks(text)[1]
    assert (fence.name, fence.info) == ("```", "python")


def test_a_tilde_fence_is_not_closed_by_backticks():
    text = "~~~\nx\n```\n~~~\n"
    assert spans(text) == [("fence", 0, 4), ("blank", 4, 5)]


def test_a_longer_closing_mark_closes_a_fence_and_a_shorter_one_does_not():
    assert spans("```\ncode\n`````\nafter") == [("fence", 0, 3), ("paragraph", 3, 4)]
    assert spans("````\n```\nstill code\n````\nafter") == [("fence", 0, 4), ("paragraph", 4, 5)]


def test_a_mark_with_a_word_after_it_does_not_close_a_fence():
    assert spans("```\na\n```python\nb\n```\nc") == [("fence", 0, 5), ("paragraph", 5, 6)]


def test_an_unclosed_fence_runs_to_the_end():
    assert spans("a\n\n```\nb\n\nc") == [("paragraph", 0, 1), ("blank", 1, 2), ("fence", 2, 6)]


def test_a_fence_indented_in_a_list_item():
    text = "- step one:\n\n    ```text\n    $ run\n    ```\n\n- step two"
    assert spans(text) == [("item", 0, 1), ("blank", 1, 2), ("fence", 2, 5), ("blank", 5, 6),
                           ("item", 6, 7)]
    assert markdown.blocks(text)[2].info == "text"


def test_a_folded_box_ends_at_the_first_line_indented_no_deeper():
    text = ('??? note "Why"\n    First line.\n\n    $$\n    a = 1\n    $$\n\n'
            "Back in the page.\n")
    assert spans(text) == [("folded", 0, 6), ("blank", 6, 7), ("paragraph", 7, 8), ("blank", 8, 9)]
    box = markdown.blocks(text)[0]
    assert (box.name, box.title) == ("note", "Why")
    assert [(b.kind, b.start, b.end) for b in box.body] == [("paragraph", 1, 2), ("blank", 2, 3),
                                                             ("math", 3, 6)]


def test_a_folded_box_inside_an_open_box_ends_at_its_own_dedent():
    text = '!!! warning "Careful"\n    Shown.\n    ??? note "More"\n        Hidden.\n    Shown again.'
    assert spans(text) == [("open", 0, 1), ("paragraph", 1, 2), ("folded", 2, 4), ("paragraph", 4, 5)]


def test_an_open_box_with_a_plus_is_not_folded():
    text = '???+ note "Open"\n    Read this.\n'
    assert spans(text) == [("open", 0, 1), ("paragraph", 1, 2), ("blank", 2, 3)]
    box = markdown.blocks(text)[0]
    assert (box.name, box.title) == ("note", "Open")


def test_display_math_on_one_line_and_on_several():
    text = "$$ x = 1 $$\n\n$$\na = b \\\\\nc = d\n$$\nafter"
    assert spans(text) == [("math", 0, 1), ("blank", 1, 2), ("math", 2, 6), ("paragraph", 6, 7)]
    one, _, several, _ = markdown.blocks(text)
    assert one.formula == " x = 1 "
    assert several.formula == "\na = b \\\\\nc = d\n"


def test_an_indented_one_line_formula():
    block = markdown.blocks("    $$x \\mapsto y$$")[0]
    assert (block.kind, block.formula, block.indent) == ("math", "x \\mapsto y", 4)


def test_a_formula_whose_closing_line_is_missing_runs_to_the_end():
    assert spans("$$\na = 1\n\nmore") == [("math", 0, 4)]


def test_front_matter_only_at_the_top_and_only_when_closed():
    assert spans("---\ntitle: A\n---\n# A") == [("front-matter", 0, 3), ("heading", 3, 4)]
    assert spans("---\ntitle: A\n# A") == [("paragraph", 0, 2), ("heading", 2, 3)]
    assert spans("Text\n---\nx: 1\n---")[0] == ("paragraph", 0, 4)


def test_headings_with_and_without_an_id():
    text = "# Title\n\n## Worked example { #worked-example }\n### Step 1 {#step-1 .small}\n#hashtag"
    heads = [(b.level, b.title, b.id) for b in markdown.blocks(text) if b.kind == "heading"]
    assert heads == [(1, "Title", None), (2, "Worked example", "worked-example"), (3, "Step 1", "step-1")]
    assert spans(text)[-1] == ("paragraph", 4, 5)  # no space after the hash: not a heading


def test_tables_markers_html_items_and_paragraphs():
    text = ("| a | b |\n|---|---|\n| 1 | 2 |\n[[fig:attention.heatmap|A map]]\n<div class=\"x\">\n"
            "Some text\nthat goes on\n1. first\n   continued\n* second\n")
    assert spans(text) == [("table", 0, 3), ("marker", 3, 4), ("html", 4, 5), ("paragraph", 5, 7),
                           ("item", 7, 9), ("item", 9, 10), ("blank", 10, 11)]
    found = markdown.blocks(text)
    assert found[1].name == "fig"
    assert (found[4].title, found[5].title) == ("first", "second")


def test_a_marker_with_text_after_it_is_a_paragraph():
    assert spans("[[value:a.b]] is the answer.") == [("paragraph", 0, 1)]


def test_every_line_is_in_exactly_one_block():
    text = "# T\n\n```\nx\n```\n??? note \"n\"\n    y\n\n$$ z $$\n- a\n| t |\n"
    found = markdown.blocks(text)
    assert [b.start for b in found[1:]] == [b.end for b in found[:-1]]
    assert (found[0].start, found[-1].end) == (0, len(text.split("\n")))
    assert "\n".join(line for b in found for line in b.lines) == text


def test_sections_run_from_their_heading_to_the_next_level_two_heading():
    text = ("# Lesson\n\nIntro.\n\n## Motivation { #motivation }\nWhy.\n### Detail\nMore.\n"
            "## Untitled\nSkip.\n## Recap { #recap }\nDone.\n")
    assert markdown.sections(text) == {
        "motivation": "## Motivation { #motivation }\nWhy.\n### Detail\nMore.\n",
        "recap": "## Recap { #recap }\nDone.\n",
    }


def test_a_heading_in_a_fence_neither_starts_nor_ends_a_section():
    text = "## Code { #code }\n```python\n## a comment { #not-a-section }\nx = 1\n```\nAfter.\n"
    assert markdown.sections(text) == {"code": text}


def test_a_heading_in_front_matter_is_no_section():
    assert markdown.sections("---\nx: 1\n---\n## A { #a }\nText") == {"a": "## A { #a }\nText"}


def test_two_sections_with_one_id_are_an_error_that_names_the_lines():
    with pytest.raises(ValueError, match=r"#recap \(lines 1 and 3\)"):
        markdown.sections("## Recap { #recap }\nA\n## Again { #recap }\nB")


def test_only_display_math_has_a_formula():
    with pytest.raises(ValueError, match="only display math"):
        _ = markdown.blocks("Text")[0].formula
