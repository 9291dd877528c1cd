"""The study time under a lesson's title counts every widget the built page shows.

The study rule (coursebuild/plan.py) adds minutes for each widget of the lesson; a widget reaches
a page either by its marker (``[[widget:…]]``) or written as HTML (lesson 8's decoder, which the
trainer feeds). Both must be counted, so the rule's count equals the widgets in the built page.
"""

from __future__ import annotations

import pytest

from coursebuild.pages import plan
from coursebuild.course import LESSONS

WIDGET = '<div class="widget"'


def miscounted(pages: dict[str, str], lang: str) -> list[str]:
    """Lessons whose built page shows a different number of widgets than the study rule counts."""
    return [f"{lang}/{slug}: the page shows {html.count(WIDGET)} widgets, the study time counts "
            f"{plan.study(slug, lang).widgets}" for slug, html in pages.items()
            if html.count(WIDGET) != plan.study(slug, lang).widgets]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_study_time_counts_every_widget_on_the_page(built_site, lang):
    root = built_site if lang == "ko" else built_site / "en"
    pages = {l.slug: (root / "lessons" / l.slug / "index.html").read_text(encoding="utf-8") for l in LESSONS}
    assert sum(html.count(WIDGET) for html in pages.values()) >= len(LESSONS)
    assert not miscounted(pages, lang)


def test_the_count_catches_a_widget_the_rule_missed():
    slug = LESSONS[0].slug
    counted = plan.study(slug, "en").widgets
    assert miscounted({slug: WIDGET * (counted + 1)}, "en")
    assert not miscounted({slug: WIDGET * counted}, "en")


def test_a_widget_written_as_html_is_counted():
    assert len(plan._WIDGET.findall('Text\n\n[[widget:a.b]]\n\n<div class="widget" data-widget="x"></div>\n')) == 2
