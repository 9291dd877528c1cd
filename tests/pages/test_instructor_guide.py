"""The instructor guide on the built site, in both languages.

Both timed plans exist and their blocks add up (50 and 90 minutes, in the order the course spec
gives), every lesson 1-9 has a stop question and a demonstration tip that link to that lesson,
the misconceptions table has at least five rows that each link to a lesson section, the guide
links to the other teaching pages, and the Korean and English pages carry the same ids.
"""

import re
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup
from coursebuild.course import SLUGS

pytestmark = pytest.mark.slow

GUIDE = {"ko": "teaching/instructor-guide/index.html", "en": "en/teaching/instructor-guide/index.html"}
LESSONS = SLUGS  # the lesson pages, in course order
# block lengths in minutes, in order, from the course spec's "Instructor guide" section
PLANS = {"plan-50": [5, 15, 10, 10, 5, 5], "plan-90": [15, 20, 15, 25, 15]}
MINUTES = re.compile(r"^\s*(\d+)\s*[–-]\s*(\d+)\s*$")
# the five misconceptions the spec names, by the lesson section that corrects each
REQUIRED_MISCONCEPTION_LINKS = [
    "lessons/library-qkv/#query-both",           # attention picks one word
    "lessons/self-attention/#shuffle",           # a Transformer knows word order by itself
    "lessons/multi-head/#learned-heads",         # people assign the heads' roles
    "lessons/cost-and-impact/#not-always-better",  # Transformers beat RNNs at everything
    "#where-it-breaks",                          # an attention map is the reason for a decision
]
LANGS = sorted(GUIDE)


@pytest.fixture(scope="module")
def guide(built_site) -> dict:
    """The guide's <article>, parsed, per language."""
    pages = {}
    for lang, rel in GUIDE.items():
        path = built_site / rel
        assert path.is_file(), f"{rel} was not built"
        article = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").find("article")
        assert article is not None, f"{rel}: no <article>"
        pages[lang] = article
    return pages


def table_after(article, heading_id: str):
    """The first table of the section opened by the h2 with this id (fails if there is none)."""
    heading = article.find("h2", id=heading_id)
    assert heading is not None, f"no section #{heading_id}"
    table = heading.find_next("table")
    assert table is not None and table.find_previous("h2") is heading, f"#{heading_id}: no table"
    return table


def body_rows(table) -> list[list]:
    rows = [tr.find_all(["td", "th"]) for tr in table.find_all("tr")]
    return [cells for cells in rows if cells and cells[0].name == "td"]


def internal_links(tag) -> list[str]:
    return [a["href"] for a in tag.find_all("a", href=True)
            if not urlsplit(a["href"]).scheme and "headerlink" not in (a.get("class") or [])]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("plan", sorted(PLANS))
def test_plans_are_timed_tables_that_add_up(guide, lang, plan):
    rows = body_rows(table_after(guide[lang], plan))
    spans = []
    for cells in rows:
        assert len(cells) <= 5, f"{lang} #{plan}: {len(cells)} columns do not fit an A4 page"
        match = MINUTES.match(cells[0].get_text())
        assert match, f"{lang} #{plan}: first cell {cells[0].get_text()!r} is not 'start–end'"
        spans.append((int(match[1]), int(match[2])))
        assert internal_links(cells[-1]), f"{lang} #{plan}: row {cells[0].get_text()} links no section"
    total = sum(PLANS[plan])
    assert spans[0][0] == 0 and spans[-1][1] == total, f"{lang} #{plan}: {spans} is not 0–{total}"
    for (_, end), (start, _) in zip(spans, spans[1:]):
        assert start == end, f"{lang} #{plan}: gap or overlap in {spans}"
    durations = [end - start for start, end in spans]
    assert sum(durations) == total
    assert durations == PLANS[plan], f"{lang} #{plan}: blocks {durations}, the spec has {PLANS[plan]}"


@pytest.mark.parametrize("lang", LANGS)
def test_workplace_plan_ends_with_the_prompt_cards(guide, lang):
    last = body_rows(table_after(guide[lang], "plan-90"))[-1]
    assert any("teaching/prompt-cards/" in href or href.startswith("../prompt-cards/")
               for href in internal_links(last[-1])), f"{lang}: last OJT block does not link the prompt cards"


@pytest.mark.parametrize("lang", LANGS)
def test_every_lesson_has_a_stop_question_and_a_demo_tip(guide, lang):
    article = guide[lang]
    for n, slug in enumerate(LESSONS, start=1):
        heading = article.find("h3", id=f"lesson-{n}")
        assert heading is not None, f"{lang}: no #lesson-{n}"
        assert heading.find_previous("h2")["id"] == "per-lesson", f"{lang}: #lesson-{n} outside #per-lesson"
        for part in ("stop", "demo"):
            term = article.find("dt", id=f"lesson-{n}-{part}")
            assert term is not None, f"{lang}: no #lesson-{n}-{part}"
            assert term.find_previous(["h2", "h3"]) is heading, f"{lang}: #lesson-{n}-{part} is misplaced"
            text = term.find_next_sibling("dd")
            assert text is not None and len(text.get_text(strip=True)) >= 40, f"{lang}: #lesson-{n}-{part} is empty"
        demo = article.find("dt", id=f"lesson-{n}-demo").find_next_sibling("dd")
        links = internal_links(demo)
        assert any(f"lessons/{slug}/" in href for href in links), \
            f"{lang}: lesson {n}'s demonstration tip links no section of lessons/{slug}"


@pytest.mark.parametrize("lang", LANGS)
def test_misconceptions_table_links_every_row(guide, lang):
    rows = body_rows(table_after(guide[lang], "misconceptions"))
    assert len(rows) >= 5, f"{lang}: {len(rows)} misconceptions, want at least 5"
    links = []
    for cells in rows:
        assert len(cells) == 3, f"{lang}: misconception row with {len(cells)} cells"
        row_links = [h for h in internal_links(cells[-1]) if "lessons/" in h and "#" in h]
        assert row_links, f"{lang}: misconception {cells[0].get_text()!r} links no lesson section"
        links += row_links
    for needed in REQUIRED_MISCONCEPTION_LINKS:
        assert any(needed in href for href in links), f"{lang}: no misconception corrected by {needed}"


@pytest.mark.parametrize("lang", LANGS)
def test_guide_links_the_other_teaching_pages(guide, lang):
    section = guide[lang].find("h2", id="teaching-materials")
    assert section is not None, f"{lang}: no #teaching-materials"
    links = []
    for element in section.find_next_siblings():
        if element.name == "h2":
            break
        links += internal_links(element)
    for page in ("exercises", "answer-key", "analogies", "prompt-cards"):
        assert any(href.split("#")[0].rstrip("/").endswith(page) for href in links), \
            f"{lang}: #teaching-materials does not link {page}"


def test_korean_and_english_guides_have_the_same_ids(guide):
    def ids(article):
        return [tag["id"] for tag in article.find_all(["h1", "h2", "h3", "h4", "dt"], id=True)]

    assert ids(guide["ko"]) == ids(guide["en"])
    assert len(ids(guide["ko"])) > 20
