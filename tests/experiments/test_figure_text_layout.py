"""The drawing stage's check that no text of a figure overlaps another or is cut.

The build checks every figure as it draws it (coursebuild/pipeline/figure_layout.py, called
by the draw stage in pipeline/runner.py): a figure whose text overlaps, runs together, is cut
by the edge or by another panel, or whose log axis has fewer than three labels, fails the
build, naming the experiment, the figure and the strings. Here: the check sees each of those,
the draw stage fails on them, and a checked figure's PNG is byte for byte the one drawn
without the check.
"""

import pytest

from coursebuild.pipeline import figure_layout, runner
from coursebuild.pipeline.figure_layout import log_y_labels, text_problems
from tutorial_code.experiments.drawing import plotting


def test_the_check_sees_an_overlap_and_a_cut(tmp_path):
    with plotting.style("ko"):
        fig, ax = plotting.subplots(1, 1)
        ax.set_title("제목")
        ax.text(0.5, 0.5, "하나", transform=ax.transAxes)
        ax.text(0.5, 0.5, "둘", transform=ax.transAxes)
        ax.text(1.5, 0.5, "밖으로 나간 글자", transform=ax.transAxes)
        ax.text(0.5, 0.2, "첫째 긴 제목 0.76", transform=ax.transAxes, ha="right")
        ax.text(0.5, 0.2, "둘째 긴 제목 0.14", transform=ax.transAxes, ha="left")
        other = fig.add_axes((0.7, 0.1, 0.25, 0.8))  # like a colour bar over a title's end
        other.set(xticks=[], yticks=[])
        fig.text(0.5, 0.5, "끝이 다른 패널 밑으로 들어간 제목")
        plotting.fit_to_column(fig)
        found = text_problems(fig)
    assert any(p.startswith("overlap: «하나» and «둘»") for p in found), found
    assert any("밖으로 나간 글자" in p and p.startswith("cut") for p in found), found
    assert any(p.startswith("run together: «첫째 긴 제목 0.76» and «둘째 긴 제목 0.14»") for p in found), found
    assert any(p.startswith("under another panel: «끝이 다른 패널 밑으로") for p in found), found
    assert other.axison


@pytest.mark.parametrize("lo, hi", [(0.004, 0.6), (0.0015, 0.3), (0.002, 1.5), (0.3, 2.0)])
def test_a_log_axis_has_more_than_two_labels(lo, hi):
    with plotting.style("en"):
        fig, ax = plotting.subplots(1, 1)
        ax.plot([1, 2], [lo, hi])
        plotting.log_y(ax)
        shown = log_y_labels(fig, ax)
        plotting._pyplot().close(fig)
    assert len(shown) >= 3, shown


def bad_figure():
    fig, ax = plotting.subplots(1, 1)
    ax.set_title("제목")
    ax.text(0.5, 0.5, "하나", transform=ax.transAxes)
    ax.text(0.5, 0.5, "둘", transform=ax.transAxes)
    return fig


class _Drawing:
    """A drawing module whose first figure reads cleanly and whose second does not."""

    LABELS = {"ko": {"title": "t"}, "en": {"title": "t"}}

    @staticmethod
    def figures(results, lang, outdir):
        with plotting.style(lang):
            fig, ax = plotting.subplots(1, 1)
            ax.plot([0, 1], [0, 1])
            good = plotting.save(fig, outdir, "fine")
            return [good, plotting.save(bad_figure(), outdir, "crowded")]


def test_the_draw_stage_fails_on_a_crowded_figure_and_names_it(tmp_path):
    save = plotting.save
    with pytest.raises(figure_layout.FigureLayoutError) as failed:
        runner._draw("demo", _Drawing, {}, "k", tmp_path, {"ko": "a", "en": "b"})
    message = str(failed.value)
    assert "demo.crowded (ko): overlap: «하나» and «둘»" in message, message
    assert "demo.fine" not in message and "tutorial_code/experiments/drawing/demo.py" in message
    assert plotting.save is save  # put back after the drawing


def test_the_check_changes_no_byte_of_the_figure(tmp_path):
    def draw(outdir):
        with plotting.style("en"):
            fig, ax = plotting.subplots(1, 1)
            ax.plot([1, 2], [0.004, 0.6])
            plotting.log_y(ax)
            ax.set_title("a title")
            return plotting.save(fig, outdir, "f").read_bytes()

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = draw(tmp_path / "a")
    with figure_layout.checking("demo", "en"):
        checked = draw(tmp_path / "b")
    assert checked == plain


def test_a_log_axis_with_two_labels_is_a_problem():
    from matplotlib import ticker

    with plotting.style("en"):
        fig, ax = plotting.subplots(1, 1)
        ax.plot([1, 2], [0.02, 0.5])
        ax.set_yscale("log")
        ax.yaxis.set_minor_formatter(ticker.NullFormatter())  # only 0.1 is labelled
        found = figure_layout.problems(fig)
        plotting._pyplot().close(fig)
    assert any(p.startswith("log axis labelled only") for p in found), found


def test_a_tiny_run_draws_without_the_check(tmp_path):
    """--tiny figures are never published (as only TINY_GATES are checked, so is no layout)."""
    drawn = runner._draw("demo", _Drawing, {}, "k", tmp_path, {"ko": "a", "en": "b"}, check_layout=False)
    assert drawn["figures"]["ko"] == ["crowded.png", "fine.png"]
