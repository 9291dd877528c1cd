"""The drawing stage's check of every figure's text: none overlaps another or is cut.

While the draw stage (:func:`.runner._draw`) runs ``drawing/<name>.figures(results, lang, …)``,
:func:`checking` wraps ``plotting.save``: once each figure is saved (sized for the page's
column, as the site shows it; the check after the save changes no byte of the PNG), every
visible text's window extent (titles,
axis labels, tick labels, legend entries, annotations) is measured. Two texts whose boxes overlap
by more than a pixel each way, two long texts run together on one line, a text cut by the
figure's edge or drawn under another panel, and a log axis with fewer than three labels fail the
build with :class:`FigureLayoutError`, which names the experiment, the figure, the language and
the strings. Figures taken from the cache were checked when they were drawn; a --tiny run's
figures (never published) are not checked, as only its TINY_GATES are.
"""

from __future__ import annotations

from contextlib import contextmanager
from itertools import combinations

from .errors import ExperimentError

SLACK = 1.0  # px: anti-aliasing of touching boxes is not an overlap
GAP = 4.0  # px: two long texts side by side closer than this read as one


class FigureLayoutError(ExperimentError):
    """A figure's text overlaps, runs together or is cut; the message names each figure."""


def text_problems(fig) -> list[str]:
    """What is wrong with the text of ``fig`` as laid out for saving; [] when nothing is."""
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


def log_y_labels(fig, ax) -> list[str]:
    """The labels a log y axis shows inside its view limits."""
    fig.canvas.draw()
    y0, y1 = ax.get_ylim()
    return [t.get_text() for t in ax.yaxis.get_majorticklabels() + ax.yaxis.get_minorticklabels()
            if t.get_text() and t.get_visible() and y0 <= t.get_position()[1] <= y1]


def problems(fig) -> list[str]:
    """:func:`text_problems`, and a log axis labelled at fewer than three ticks (a panel that
    shares its neighbour's y axis and shows no labels of its own is fine)."""
    if not hasattr(fig.canvas, "get_renderer"):  # closed by plotting.save: lay it out again off screen
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    out = text_problems(fig)
    for ax in fig.axes:
        if ax.get_visible() and ax.axison and ax.get_yscale() == "log":
            shown = log_y_labels(fig, ax)
            if 0 < len(shown) < 3:
                out.append(f"log axis labelled only {shown}")
    return out


@contextmanager
def checking(name: str, lang: str, enabled: bool = True):
    """Check every figure ``plotting.save`` saves inside the block (experiment ``name``,
    language ``lang``); at its end, a :class:`FigureLayoutError` lists every problem found.
    ``enabled=False`` (a --tiny run, whose figures are never published) checks nothing."""
    from tutorial_code.experiments.drawing import plotting

    if not enabled:
        yield
        return

    found: list[str] = []
    real_save = plotting.save

    def checked_save(fig, outdir, figure):
        # saved first, then checked as save() sized and laid it out: the check changes no byte
        path = real_save(fig, outdir, figure)
        found.extend(f"{name}.{figure} ({lang}): {p}" for p in problems(fig))
        return path

    plotting.save = checked_save
    try:
        yield
    finally:
        plotting.save = real_save
    if found:
        raise FigureLayoutError(
            f"figure text of drawing/{name}.py does not read cleanly ({len(found)} problems):\n  "
            + "\n  ".join(found) + f"\nfix the layout in tutorial_code/experiments/drawing/{name}.py")
