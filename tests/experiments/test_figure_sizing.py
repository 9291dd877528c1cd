"""plotting.save() sizes every figure for the page's content column (no browser needed; the
browser test, test_figure_legibility_browser.py, measures the figures as the site shows them)."""

import pytest
from PIL import Image

from tutorial_code.experiments.drawing import plotting


def shown_text_px(path):
    with Image.open(path) as png:
        shown = min(1.0, plotting.COLUMN_PX / png.width)
        return png.width, shown, float(png.text["min-text-px"]) * shown


@pytest.mark.parametrize("ncols,small_pt", [(1, 10), (2, 7.5), (3, 6), (3, 10)])
def test_saved_figures_are_shown_at_70_percent_or_more_with_text_of_9_px(tmp_path, ncols, small_pt):
    with plotting.style("ko"):
        fig, axes = plotting.subplots(1, ncols, squeeze=False)
        for ax in axes[0]:
            ax.plot([1, 2, 3], label="곡선")
            ax.set_title("제목")
            ax.text(1, 2, "작은 글자", fontsize=small_pt)
        path = plotting.save(fig, tmp_path, f"fig{ncols}")
    width, shown, text_px = shown_text_px(path)
    assert shown >= 0.70, (width, shown)
    assert text_px >= 9.0, text_px


def test_a_narrow_figure_keeps_its_resolution(tmp_path):
    with plotting.style("en"):
        fig, ax = plotting.subplots(1, 1)
        ax.plot([1, 2])
        path = plotting.save(fig, tmp_path, "one")
    with Image.open(path) as png:
        assert png.width == round(plotting.PANEL_SIZE[0] * plotting.DPI)  # 546 px, shown 1:1
