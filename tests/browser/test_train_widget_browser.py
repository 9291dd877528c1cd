"""Lesson 8's trainer widget: trains in a Web Worker, pauses and resumes, stops on NaN, survives
a failed worker (the decode widget still works), and with the default settings learns."""

import pytest

pytestmark = pytest.mark.browser

LESSON = "lessons/encoder-decoder/"
PAGES = {"ko": LESSON, "en": "en/" + LESSON}
WIDGET = '.widget[data-widget="train"]'
NAN = {"ko": "손실이 NaN이 되어", "en": "The loss became NaN at step"}


def open_widget(page, site_url, lang):
    page.goto(site_url + PAGES[lang])
    page.locator(WIDGET).scroll_into_view_if_needed()
    page.wait_for_selector(f'{WIDGET}[data-state="ready"]', timeout=20_000)
    return page.locator(WIDGET)


def step(page):
    return int(page.locator(WIDGET).get_attribute("data-step") or 0)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_train_pause_resume_reset_by_keyboard(site_page, site_url, lang):
    widget = open_widget(site_page, site_url, lang)
    train = widget.locator("button").nth(0)
    train.focus()
    site_page.keyboard.press("Enter")
    site_page.wait_for_function(f"() => Number(document.querySelector('{WIDGET}').dataset.step) >= 2", timeout=60_000)
    site_page.keyboard.press("Tab")  # to Pause
    site_page.keyboard.press("Enter")
    assert widget.get_attribute("data-state") == "paused"
    site_page.wait_for_timeout(500)
    held = step(site_page)
    site_page.wait_for_timeout(1500)
    assert step(site_page) <= held + 1  # at most the slice that was running
    site_page.keyboard.press("Enter")  # Resume
    site_page.wait_for_function(f"() => Number(document.querySelector('{WIDGET}').dataset.step) > {held + 1}", timeout=60_000)
    assert widget.locator("table.widget-heatmap").count() == 1
    widget.locator("button").nth(2).click()  # Reset
    assert widget.get_attribute("data-state") == "ready"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_diverging_learning_rate_stops_with_nan_and_keeps_the_weights(site_page, site_url, lang):
    widget = open_widget(site_page, site_url, lang)
    widget.locator("select").nth(4).select_option("off")      # no warm-up
    widget.locator("select").nth(5).select_option("10000")    # a learning rate that diverges
    widget.locator("button").nth(0).click()
    site_page.wait_for_selector(f'{WIDGET}[data-state="nan"]', timeout=120_000)
    status = widget.locator(".widget-status").inner_text()
    assert NAN[lang] in status
    assert widget.get_attribute("data-weights") == "finite"  # the weights of the last good step


def test_a_failed_worker_leaves_the_page_and_the_decode_widget_working(site_page, site_url):
    widget = open_widget(site_page, site_url, "en")
    site_page.evaluate(f"() => {{ document.querySelector('{WIDGET}').dataset.worker = 'no-such-worker.js'; }}")
    widget.locator("button").nth(0).click()
    site_page.wait_for_selector(f'{WIDGET}[data-state="failed"]', timeout=20_000)
    assert "could not run" in widget.locator(".widget-status").inner_text()
    decode = site_page.locator('.widget[data-widget="reversal"]')
    decode.scroll_into_view_if_needed()
    site_page.wait_for_selector('.widget[data-widget="reversal"][data-state="ready"]', timeout=30_000)
    assert widget.locator("button").nth(0).is_enabled()


@pytest.mark.slow
def test_the_default_settings_learn_the_held_out_set(site_page, site_url):
    widget = open_widget(site_page, site_url, "en")
    widget.locator("button").nth(0).click()
    site_page.wait_for_selector(f'{WIDGET}[data-state="done"]', timeout=1_200_000)
    assert float(widget.locator('output[data-key="exact"]').get_attribute("data-value")) >= 0.99
