"""The AI prompt cards in a browser: a picker and a copy button in the page's language on every
card, and copying puts the prompt (plus the chosen code in a ```python fence) on the clipboard,
also without the clipboard API."""

import re

import pytest

from coursebuild.pages import code

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOTS = {"ko": "", "en": "en/"}
ANALOGIES = "teaching/analogies/"
CARDS = "teaching/prompt-cards/"
SLOT = re.compile(r"〔[^〔〕]+〕")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


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


def test_copy_works_without_the_clipboard_api(site_page, site_url):
    errors = open_cards(site_page, site_url, "ko", NO_CLIPBOARD_API)
    card = site_page.locator(".prompt-card").nth(1)
    copied = copy(site_page, card, "multihead.MultiHeadAttention")
    assert "\n\n```python\nclass MultiHeadAttention(nn.Module):" in copied and SLOT.search(copied)
    assert site_page.locator("textarea").count() == 0  # the helper textarea is gone again
    assert errors == []


def test_pages_without_cards_are_left_alone(site_page, site_url):
    errors = []
    site_page.on("pageerror", lambda err: errors.append(str(err)))
    assert site_page.goto(site_url + ANALOGIES, wait_until="networkidle").ok
    assert site_page.locator(".prompt-card__controls, .prompt-card__picker").count() == 0
    assert errors == []
