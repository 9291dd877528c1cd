"""The references page: every citation of the lessons is listed, with an arXiv id, a DOI or an
address; every figure of the built site has a note on where its idea comes from."""

import re

import pytest

from coursebuild.content import references
from coursebuild.course import LESSONS
from coursebuild.paths import DOCS

CITATION, NOT_AUTHORS, citations = references.CITATION, references.NOT_AUTHORS, references.citations


def listed() -> set[tuple[str, int]]:
    return references.listed(references.load()["works"])


def lesson_texts():
    for lang in ("ko", "en"):
        for lesson in LESSONS:
            yield f"{lang}/{lesson.page}", (DOCS / lang / lesson.page).read_text(encoding="utf-8")


def test_the_citation_pattern_finds_the_forms_the_pages_use():
    text = ("Vaswani et al. (2017); (Voita et al., 2019); Bahdanau, Cho, Bengio (2015); "
            "Reimers and Gurevych (2019); Shazeer (2019); Reimers·Gurevych (2019); Su et al.이 2021년; "
            "Liu et al., 2020; Shleifer et al. (2021, NormFormer); The 2017 paper")
    assert citations(text) == {("Vaswani", 2017), ("Voita", 2019), ("Bahdanau", 2015), ("Reimers", 2019),
                               ("Shazeer", 2019), ("Liu", 2020), ("Shleifer", 2021)}


def test_every_citation_of_the_lessons_is_on_the_references_page():
    known = listed()
    missing = {}
    for where, text in lesson_texts():
        for cite in sorted(citations(text) - known):
            missing.setdefault(f"{cite[0]} ({cite[1]})", []).append(where)
    assert not missing, f"cited but not in docs/references.yml: {missing}"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_citation_of_every_page_is_listed_and_every_listed_work_is_cited(lang):
    """What the build checks when it draws the references page: every page, the guide and the
    home page included, not only the lessons; and no work shows "this page" unless it is."""
    works = references.load()["works"]
    assert references.unlisted(lang, works) == {}
    own = (DOCS / lang / "references.md").read_text(encoding="utf-8")
    uncited = [k for k, w in works.items()
               if not references.cited_in(w, lang) and not any(c in own for c in w["cite"])]
    assert uncited == []
    assert references.unlisted(lang, {}) != {}  # the check can fail


def test_a_work_cited_on_the_home_page_shows_it():
    works = references.load()["works"]
    for lang in ("ko", "en"):
        assert "index.md" in dict((p, l) for l, p in references.cited_in(works["ho2020"], lang))


def test_the_check_can_fail():
    assert citations("as Nobody et al. (2031) showed") - listed() == {("Nobody", 2031)}


def test_every_work_has_an_arxiv_id_a_doi_or_an_address():
    bad = {key: w["id"] for key, w in references.load()["works"].items()
           if not re.fullmatch(r"arXiv:\d{4}\.\d{4,5}|doi:10\.\d{4,9}/\S+|https://\S+", str(w["id"]))}
    assert not bad, bad
    assert references.link("arXiv:1706.03762") == "[arXiv:1706.03762](https://arxiv.org/abs/1706.03762)"
    assert references.link("doi:10.1038/nrn3136") == "[doi:10.1038/nrn3136](https://doi.org/10.1038/nrn3136)"


def test_cited_in_is_computed_from_the_pages():
    works = references.load()["works"]
    cited = dict(references.cited_in(works["su2021"], "en"))
    assert "Lesson 6" in cited and cited["Lesson 6"] == "lessons/position.md"
    assert references.cited_in({"cite": ["no page says this"]}, "ko") == []


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_built_references_page_lists_every_work_and_every_figure(built_site, lang):
    root = built_site if lang == "ko" else built_site / "en"
    html = (root / "references" / "index.html").read_text(encoding="utf-8")
    for key, work in references.load()["works"].items():
        target = references.link(work["id"]).split("](", 1)[1].rstrip(")")
        assert f'href="{target}"' in html, f"{lang}: {key} ({work['id']}) not on the references page"
    figures = sorted(f"{p.parent.name}.{p.stem}" for p in (built_site / "assets" / "generated" / lang).glob("*/*.png"))
    assert figures, "no generated figures found"
    missing = [f for f in figures if f"<code>{f}</code>" not in html]
    assert not missing, f"{lang}: figures without an origin on the references page: {missing}"
