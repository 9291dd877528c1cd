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

from tutorial_code.sitebuild import code

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
CAPTURE_CLIPBOARD = """
window.copied = [];
Object.defineProperty(navigator, "clipboard", {configurable: true, value: {
  writeText: (text) => { window.copied.push(text); return Promise.resolve(); },
}});
"""
# a plain-http site has no navigator.clipboard: the fallback copies from a selected textarea
NO_CLIPBOARD_API = """
window.copied = [];
Object.defineProperty(navigator, "clipboard", {configurable: true, value: undefined});
document.execCommand = (command) => {
  const area = document.activeElement;
  if (command !== "copy" || !area || area.tagName !== "TEXTAREA") return false;
  window.copied.push(area.value.slice(area.selectionStart, area.selectionEnd));
  return true;
};
"""
PICKS = {"ko": ("attention.scaled_dot_product_attention", 0), "en": ("position.sinusoidal_table", 1)}


def open_cards(page, site_url, lang, init_script=CAPTURE_CLIPBOARD):
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.add_init_script(init_script)
    assert page.goto(site_url + ROOTS[lang] + CARDS, wait_until="networkidle").ok
    page.wait_for_selector(".prompt-card .prompt-card__copy")
    return errors


def copy(page, card, value):
    card.locator("select").select_option(value)
    before = page.evaluate("window.copied.length")
    card.locator("button").click()
    page.wait_for_function(f"window.copied.length > {before}")
    return page.evaluate("window.copied[window.copied.length - 1]")


@pytest.mark.browser
@pytest.mark.parametrize("lang", ROOTS)
def test_every_card_gets_a_picker_and_a_copy_button_in_the_pages_language(site_page, site_url, lang):
    errors = open_cards(site_page, site_url, lang)
    cards = site_page.locator(".prompt-card")
    n_blocks = site_page.locator(".prompt-code[data-code-id]").count()
    assert cards.count() >= 5
    for i in range(cards.count()):
        card = cards.nth(i)
        assert card.locator("select").count() == 1 and card.locator("button").count() == 1
        options = card.locator("select option")
        assert options.count() == n_blocks + 1 and options.first.get_attribute("value") == ""
        assert card.locator(".prompt-slot").count() >= 1  # the 〔placeholders〕 stand out
    first = cards.first
    labels = [first.locator(sel).first.evaluate("el => el.textContent") for sel in ("label", "option", "button")]
    assert all(bool(HANGUL.search(t)) == (lang == "ko") for t in labels), labels
    assert errors == []


@pytest.mark.browser
@pytest.mark.parametrize("lang", ROOTS)
def test_copy_gives_the_prompt_and_the_chosen_code(site_page, site_url, lang):
    open_cards(site_page, site_url, lang)
    target, index = PICKS[lang]
    card = site_page.locator(".prompt-card").nth(index)
    prompt = card.locator(".prompt-text").evaluate("el => el.textContent.trim()")
    source = code.source_of(*code.resolve(target))

    copied = copy(site_page, card, target)
    assert copied == f"{prompt}\n\n```python\n{source}\n```"
    assert SLOT.search(copied) and f"def {target.rsplit('.', 1)[1]}(" in copied
    status = card.locator(".prompt-card__status").inner_text()
    assert status and bool(HANGUL.search(status)) == (lang == "ko")

    copied = copy(site_page, card, "")  # "no code": the prompt alone
    assert copied == prompt and SLOT.search(copied) and "```" not in copied


@pytest.mark.browser
def test_copy_works_without_the_clipboard_api(site_page, site_url):
    errors = open_cards(site_page, site_url, "ko", NO_CLIPBOARD_API)
    card = site_page.locator(".prompt-card").nth(1)
    copied = copy(site_page, card, "multihead.MultiHeadAttention")
    assert "\n\n```python\nclass MultiHeadAttention(nn.Module):" in copied and SLOT.search(copied)
    assert site_page.locator("textarea").count() == 0  # the helper textarea is gone again
    assert errors == []


@pytest.mark.browser
def test_pages_without_cards_are_left_alone(site_page, site_url):
    errors = []
    site_page.on("pageerror", lambda err: errors.append(str(err)))
    assert site_page.goto(site_url + ANALOGIES, wait_until="networkidle").ok
    assert site_page.locator(".prompt-card__controls, .prompt-card__picker").count() == 0
    assert errors == []
