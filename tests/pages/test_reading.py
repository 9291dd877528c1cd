"""Reading time (coursebuild.reading) and the shape of a lesson: time under the title, recap, next.

The counting rules run on small strings (each can fail on its own); every lesson's core reading
must stay within the budget (the failure names the lessons over it, with their minutes); the built
pages show the same minutes under their titles, end with a three-line recap and link to the next
lesson in course.py's order, the last one to the closing page.
"""

import re

import pytest

from coursebuild.content import ui
from coursebuild.pages import reading
from coursebuild.course import LESSONS, SLUGS
from coursebuild.pages.kinds import context, render
from coursebuild.pages.markers import MarkerError

EN, KO = reading.EN_WORDS_PER_MINUTE, reading.KO_SYLLABLES_PER_MINUTE


def en(text):
    return reading.measure(text, "en")


def ko(text):
    return reading.measure(text, "ko")


# ---------------------------------------------------------------- counting rules

def test_english_counts_words_and_korean_counts_hangul_syllables():
    assert en("One two three, four.").units == 4
    assert ko("어텐션은 섞습니다. softmax 3개").units == 9  # Latin words and digits add no syllables
    assert en("어텐션은 섞습니다").units == 2


def test_code_front_matter_math_and_markup_are_not_read():
    text = "---\ntitle: x\n---\n# Title { #t }\n\n```python\nprint('a b c d')\n```\n\n$$\na + b = c\n$$\n\nword [link](http://x/y) <b>bold</b>\n{: .run-this }\n"
    assert en(text).units == 4  # "Title", "word", "link", "bold"


def test_collapsed_blocks_are_left_out_and_open_ones_count():
    folded = 'Before.\n\n??? note "Aside"\n\n    one two three\n\n    four five\n\nAfter.\n'
    assert en(folded).units == 2
    opened = 'Before.\n\n???+ note "Aside"\n\n    one two three\n\nAfter.\n'
    assert en(opened).units == 2 + 1 + 3  # the "???+ note" line's title word counts too
    admonition = '!!! note "Look"\n\n    one two\n'
    assert en(admonition).units == 1 + 2


def test_figures_and_tables_add_a_minute_each_and_their_text_is_not_counted():
    r = en("[[fig:cost.kv_cache|alt text of many words here]]\n\n[[table:cost.n2]]\n\n"
           "| a | b |\n|---|---|\n| c d e | f |\n\ntext\n")
    assert (r.figures, r.tables, r.units) == (1, 2, 1)
    assert r.minutes_exact == pytest.approx(1 / EN + 3)
    folded = en('??? note "Table"\n\n    [[table:cost.n2]]\n')
    assert (folded.figures, folded.tables) == (0, 0)


def test_value_markers_read_as_one_word_and_exercises_are_not_read():
    assert en("It took [[value:reversal.train_seconds|.0f]] seconds.").units == 4
    assert ko("[[value:reversal.train_seconds|.0f]]초").units == 1
    assert en("[[questions:3]]\n\n[[code:attention.scaled_dot_product_attention]]\n\n"
              "[[widget:worked_examples.library]]\n").units == 0


def test_minutes_round_half_up_and_are_at_least_one():
    assert en("word").minutes == 1
    assert reading.Reading(units=EN * 2 + EN // 2, figures=0, tables=0, lang="en").minutes == 3
    assert reading.Reading(units=KO * 4, figures=1, tables=1, lang="ko").minutes == 6
    with pytest.raises(ValueError, match="no reading rate"):
        reading.measure("x", "fr")


# ---------------------------------------------------------------- the lessons

@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_lesson_reads_within_the_budget(lang):
    over = {slug: r.minutes for _, slug, r in reading.report(lang) if r.minutes > reading.BUDGET_MINUTES}
    assert not over, (f"{lang}: core reading over {reading.BUDGET_MINUTES} min: {over}; fold asides, "
                      "derivations or second examples into ??? note blocks")


def test_the_budget_check_can_fail(monkeypatch):
    long = "word " * (EN * (reading.BUDGET_MINUTES + 1))
    monkeypatch.setattr(reading, "lesson_reading", lambda slug, lang: reading.measure(long, lang))
    assert all(r.minutes > reading.BUDGET_MINUTES for *_, r in reading.report("en"))


def test_the_two_rates_still_match_the_mirrored_pages():
    # the Korean rate is the English one times the pages' syllables per word (see reading.py)
    assert 1.6 <= reading.ratio() <= 2.1, reading.ratio()


def ctx(lang="ko", page="docs/ko/teaching/instructor-guide.md"):
    return context(lang=lang, page=page, src_uri="teaching/instructor-guide.md")


def test_reading_time_marker_gives_lesson_minutes_totals_and_sections():
    assert render("[[reading-time:position]]", ctx()) == str(reading.lesson_reading("position", "ko").minutes)
    total = sum(reading.lesson_reading(s, "en").minutes for s in SLUGS)
    assert render("[[reading-time:total]]", ctx("en", "docs/en/teaching/instructor-guide.md")) == str(total)
    part = int(render("[[reading-time:total|motivation,worked-example,where-it-breaks]]", ctx()))
    assert 0 < part < int(render("[[reading-time:total]]", ctx()))
    with pytest.raises(MarkerError, match="Did you mean 'position'"):
        render("[[reading-time:positon]]", ctx())
    with pytest.raises(MarkerError, match="no section #nowhere"):
        render("[[reading-time:position|nowhere]]", ctx())


def test_reading_time_marker_gives_the_rates_the_times_use():
    """The references page states the rates; they must be the ones the minutes are computed with."""
    assert render("[[reading-time:rate-en]]", ctx("en")) == str(reading.EN_WORDS_PER_MINUTE)
    assert render("[[reading-time:rate-ko]]", ctx()) == str(reading.KO_SYLLABLES_PER_MINUTE)
    en = reading.measure(" ".join(["word"] * 10 * reading.EN_WORDS_PER_MINUTE), "en").minutes
    assert en == 10  # ten minutes' worth of words at the stated rate
    with pytest.raises(MarkerError, match="takes no sections"):
        render("[[reading-time:rate-ko|motivation]]", ctx())


def test_next_lesson_marker_follows_course_order_and_ends_at_the_closing_page():
    first = render("[[next-lesson]]", context(lang="en", page=f"docs/en/{LESSONS[0].page}"))
    assert f"]({LESSONS[1].slug}.md)" in first and "Lesson 2." in first
    last = render("[[next-lesson]]", context(lang="ko", page=f"docs/ko/{LESSONS[-1].page}"))
    assert "](../closing.md)" in last
    with pytest.raises(MarkerError, match="belongs on a lesson page"):
        render("[[next-lesson]]", context(lang="ko", page="docs/ko/index.md"))


# ---------------------------------------------------------------- the built pages

def lesson_html(site, lang, slug):
    root = site if lang == "ko" else site / "en"
    return (root / "lessons" / slug / "index.html").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_built_lessons_show_their_time_end_with_a_recap_and_link_the_next(built_site, lang):
    for i, lesson in enumerate(LESSONS):
        html = lesson_html(built_site, lang, lesson.slug)
        minutes = reading.lesson_reading(lesson.slug, lang).minutes
        # right under the title
        shown = ui.text(lang, "reading.shown", n=minutes)
        assert re.search(r"</h1>\s*<p><span class=\"reading-time\">" + re.escape(shown), html), \
            f"{lang}/{lesson.slug}: no '{shown}' under the title"
        recap = re.search(r'<h2 id="recap">.*?<ul>(.*?)</ul>', html, re.S)
        assert recap and recap[1].count("<li>") == 3, f"{lang}/{lesson.slug}: recap is not three lines"
        # nothing but the pointer after the recap
        after = html[recap.end():html.index("</article>")]
        assert "<h2" not in after, f"{lang}/{lesson.slug}: the recap is not the lesson's end"
        nxt = re.search(r'<p class="next-lesson">.*?href="([^"]+)"', after, re.S)
        target = f"../{LESSONS[i + 1].slug}/" if i + 1 < len(LESSONS) else "../../closing/"
        assert nxt and nxt[1] == target, f"{lang}/{lesson.slug}: next link {nxt and nxt[1]!r}, want {target!r}"
