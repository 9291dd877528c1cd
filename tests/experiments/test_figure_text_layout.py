"""No text of any figure overlaps another text or is cut by the figure's edge.

Every figure of every experiment is drawn again from this build's cached results, in both
languages; just before each is saved (after it has been sized for the page's column, as the
site shows it), every visible text's window extent (titles, axis labels, tick labels, legend
entries, annotations) is measured. Two texts whose boxes overlap by more than a pixel each way,
or a text whose box leaves the figure, fail the test, naming the figure and the two strings.
"""

import importlib
import os
from itertools import combinations
from pathlib import Path

import pytest

from coursebuild.paths import DEFAULT_OUT
from coursebuild.pipeline.runner import load_report
from tutorial_code.experiments.drawing import plotting

pytestmark = pytest.mark.slow
SLACK = 1.0  # px: anti-aliasing of touching boxes is not an overlap
GAP = 4.0  # px: two long texts side by side closer than this read as one


def text_problems(fig) -> list[str]:
    from matplotlib.text import Text

    fig.canvas.draw()  # lay out as saved
    renderer = fig.canvas.get_renderer()
    W, H = fig.bbox.width, fig.bbox.height
    # tick labels: only those of the ticks the axis draws (inside its view limits)
    drawn, ticks = set(), set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                ticks.update((id(tick.label1), id(tick.label2)))
            if ax.get_visible() and ax.axison and axis.get_visible():
                for tick in axis._update_ticks():
                    drawn.update((id(tick.label1), id(tick.label2)))
    boxes = []
    for t in fig.findobj(Text):
        if not t.get_visible() or not t.get_text().strip() or (t.axes is not None and not t.axes.get_visible()):
            continue
        if id(t) in ticks and id(t) not in drawn:
            continue
        if t.get_figure(root=True) is not fig:
            continue
        b = t.get_window_extent(renderer)
        if b.width <= 0 or b.height <= 0:
            continue
        boxes.append((t.get_text().replace("\n", " "), b, t))
    # panels that hide what lies under them: a text of one panel (or of the figure) drawn where
    # another panel is, such as a title running under a colour bar, is cut there
    panels = [ax for ax in fig.axes if ax.get_visible() and ax.axison]
    out = []
    for text, b, t in boxes:
        if b.x0 < -SLACK or b.y0 < -SLACK or b.x1 > W + SLACK or b.y1 > H + SLACK:
            out.append(f"cut by the edge: «{text}» at ({b.x0:.0f}, {b.y0:.0f})–({b.x1:.0f}, {b.y1:.0f}) in {W:.0f} × {H:.0f}")
        for ax in panels:
            if ax is t.axes:
                continue
            p = ax.get_window_extent(renderer)
            dx = min(p.x1, b.x1) - max(p.x0, b.x0)
            dy = min(p.y1, b.y1) - max(p.y0, b.y0)
            if dx > SLACK and dy > SLACK:
                out.append(f"under another panel: «{text}» ({dx:.0f} × {dy:.0f} px)")
    for (ta, a, _), (tb, b, _) in combinations(boxes, 2):
        dx = min(a.x1, b.x1) - max(a.x0, b.x0)
        dy = min(a.y1, b.y1) - max(a.y0, b.y0)
        if dx > SLACK and dy > SLACK:
            out.append(f"overlap: «{ta}» and «{tb}» ({dx:.0f} × {dy:.0f} px)")
        elif dy > 0.5 * min(a.height, b.height) and -GAP < dx <= SLACK and a.width > 3 * a.height and b.width > 3 * b.height:
            # two long texts on one line with no space between them read as one ("…0.76헤드 2 ·…")
            out.append(f"run together: «{ta}» and «{tb}» ({-dx:.0f} px apart)")
    return out


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


def log_y_labels(fig, ax) -> list[str]:
    fig.canvas.draw()
    y0, y1 = ax.get_ylim()
    return [t.get_text() for t in ax.yaxis.get_majorticklabels() + ax.yaxis.get_minorticklabels()
            if t.get_text() and t.get_visible() and y0 <= t.get_position()[1] <= y1]


@pytest.fixture(scope="module")
def report():
    out = Path(os.environ.get("TUTORIAL_EXPERIMENTS_OUT") or DEFAULT_OUT)
    return load_report(out)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_no_figure_text_overlaps_or_is_cut(report, tmp_path, monkeypatch, lang):
    problems, seen, state = [], [], {}
    real_save = plotting.save

    def checked_save(fig, outdir, name):
        plotting.fit_to_column(fig)
        seen.append(name)
        problems.extend(f"{state['name']}.{name} ({lang}): {p}" for p in text_problems(fig))
        for ax in fig.axes:  # a log axis reads only with more than two labelled ticks
            # (a panel sharing its neighbour's y axis shows no labels of its own)
            if ax.get_visible() and ax.axison and ax.get_yscale() == "log" and 0 < len(log_y_labels(fig, ax)) < 3:
                problems.append(f"{state['name']}.{name} ({lang}): log axis labelled only {log_y_labels(fig, ax)}")
        return real_save(fig, outdir, name)

    monkeypatch.setattr(plotting, "save", checked_save)
    for entry in report.outcomes:
        current = state["name"] = entry.name
        drawing = importlib.import_module(f"tutorial_code.experiments.drawing.{current}")
        outdir = tmp_path / current / lang
        outdir.mkdir(parents=True)
        drawing.figures(entry.record["results"], lang, outdir)
    assert len(seen) > 20, seen
    assert not problems, "\n".join(problems)
