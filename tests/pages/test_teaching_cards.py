"""The analogy table and the AI prompt cards, in both languages.

On the built site: the table has the seven concepts, a strength column holding only the three
words of its legend, and a lesson link in every "where it breaks" cell; every prompt card has a
〔placeholder〕, and the code blocks the cards offer are the package's own source. In a browser:
every card gets a picker and a copy button in the page's language, and copying puts the prompt
(plus the chosen code in a ```python fence) on the clipboard, also without the clipboard API.
"""

import html
import re
from html.parser import HTMLParser

import pytest

from coursebuild.pages import code

pytestmark = pytest.mark.slow

ROOTS = {"ko": "", "en": "en/"}
ANALOGIES = "teaching/analogies/"
CARDS = "teaching/prompt-cards/"
CONCEPTS = {
    "ko": ["어텐션", "쿼리, 키, 밸류", "소프트맥스 가중치", "멀티헤드 어텐션", "위치 인코딩", "잔차 연결",
           "인과 마스크"],
    "en": ["attention", "query, key, value", "softmax weights", "multi-head attention",
           "positional encoding", "residual connection", "causal mask"],
}
STRENGTHS = {"ko": ("직접", "부분", "없음"), "en": ("direct", "partial", "none")}
STRENGTH_HEADER = {"ko": "강도", "en": "strength"}
BREAKS_HEADER = {"ko": "비유가 틀리는 곳", "en": "where the analogy breaks"}
SLOT = re.compile(r"〔[^〔〕]+〕")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
CARD = re.compile(
    r'<div class="prompt-card" data-default-code="(?P<default>[^"]*)">\s*'
    r'<div class="prompt-text">(?P<text>.*?)</div>\s*</div>', re.S)
CODE_BLOCK = re.compile(
    r'<div class="prompt-code" data-code-id="(?P<id>[^"]+)" data-code-title="(?P<title>[^"]+)">'
    r'(?P<body>.*?)</code></pre></div>\s*</div>', re.S)


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


class Tables(HTMLParser):
    """Every table of the article: a list of rows, each a list of (cell text, hrefs in it)."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.tables, self._cell, self._in_article = [], None, False
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self._in_article = True
        elif self._in_article and tag == "table":
            self.tables.append([])
        elif self._in_article and tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif self._in_article and tag in ("td", "th") and self.tables:
            self._cell = ["", []]
        elif tag == "a" and self._cell is not None:
            self._cell[1].append(dict(attrs).get("href", ""))

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append((" ".join(self._cell[0].split()), self._cell[1]))
            self._cell = None
        elif tag == "article":
            self._in_article = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[0] += data


def read(built_site, lang, path) -> str:
    return (built_site / ROOTS[lang] / path / "index.html").read_text(encoding="utf-8")


def analogy_table(built_site, lang):
    tables = [t for t in Tables(read(built_site, lang, ANALOGIES)).tables
              if t and STRENGTH_HEADER[lang] in [c.lower() for c, _ in t[0]]]
    assert len(tables) == 1, f"{lang}: expected one table with a '{STRENGTH_HEADER[lang]}' column"
    header = [c.lower() for c, _ in tables[0][0]]
    return header, tables[0][1:]


@pytest.mark.parametrize("lang", ROOTS)
def test_analogy_table_has_the_seven_concepts_and_only_the_legend_strengths(built_site, lang):
    header, rows = analogy_table(built_site, lang)
    strength, breaks = header.index(STRENGTH_HEADER[lang]), header.index(BREAKS_HEADER[lang])
    assert [row[0][0] for row in rows] == CONCEPTS[lang]
    assert {row[strength][0] for row in rows} <= set(STRENGTHS[lang])
    for row in rows:
        assert all(text for text, _ in row), f"{lang}: empty cell in the row of {row[0][0]}"
        # every "where it breaks" cell points to the lesson section that shows it
        assert any(re.search(r"lessons/[\w-]+/#[\w-]+$", href) for href in row[breaks][1]), row[0][0]
    # the legend defines exactly the three words the column uses
    legend = re.findall(r"<dt>(.*?)</dt>", read(built_site, lang, ANALOGIES))
    assert tuple(text_of(t).strip() for t in legend) == STRENGTHS[lang]


def test_both_languages_rate_every_concept_alike(built_site):
    rated = {}
    for lang in ROOTS:
        header, rows = analogy_table(built_site, lang)
        column = header.index(STRENGTH_HEADER[lang])
        rated[lang] = [STRENGTHS[lang].index(row[column][0]) for row in rows]
    assert rated["ko"] == rated["en"]
    # honest ratings: no brain analogy here is a direct one, and some have none at all
    assert 0 not in rated["ko"] and 2 in rated["ko"]


def cards_and_blocks(built_site, lang):
    page = read(built_site, lang, CARDS)
    return page, list(CARD.finditer(page)), list(CODE_BLOCK.finditer(page))


@pytest.mark.parametrize("lang", ROOTS)
def test_every_card_has_a_placeholder_and_the_rules_are_stated(built_site, lang):
    page, cards, blocks = cards_and_blocks(built_site, lang)
    assert 5 <= len(cards) <= 7 and page.count('class="prompt-card"') == len(cards)
    ids = {b["id"] for b in blocks}
    for card in cards:
        assert SLOT.search(text_of(card["text"])), text_of(card["text"])[:80]
        assert card["default"] in ids | {""}
    rules = re.search(r'<div class="admonition warning">(.*?)</div>', page, re.S)
    assert rules and "1706.03762" in rules[1] and "pytorch.org/docs" in rules[1]
    other = "en" if lang == "ko" else "ko"
    assert [c["default"] for c in cards] == [c["default"] for c in cards_and_blocks(built_site, other)[1]]


@pytest.mark.parametrize("lang", ROOTS)
def test_the_cards_offer_the_packages_own_code(built_site, lang):
    _, _, blocks = cards_and_blocks(built_site, lang)
    assert len(blocks) >= 5
    for block in blocks:
        source = code.source_of(*code.resolve(block["id"]))
        shown = text_of(block["body"].split("<code>", 1)[1])
        assert shown.strip() == source.strip(), block["id"]
        assert block["id"].rsplit(".", 1)[1] in block["title"]


# ------------------------------------------------------------------ in a browser

# window.copied collects what the page hands to the clipboard
