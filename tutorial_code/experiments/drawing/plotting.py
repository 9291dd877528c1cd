"""Shared figure conventions: size, dpi, colours, one figure per language.

Pattern for an experiment's ``figures(results, lang, outdir)``::

    LABELS = {"ko": {"title": "점수의 퍼짐"}, "en": {"title": "Spread of scores"}}

    def figures(results, lang, outdir):
        t = plotting.labels(LABELS, lang)
        with plotting.style(lang):
            fig, ax = plotting.subplots(1, 1)
            ax.plot(...); ax.set_title(t["title"])
            return [plotting.save(fig, outdir, "spread")]

Korean text uses NanumGothic, which koreanize-matplotlib ships inside its wheel (no system font
needed); English uses matplotlib's default DejaVu Sans. Math in labels: use mathtext (``$\\sqrt{d_k}$``).
"""

from __future__ import annotations

import contextlib
import io
import math
import warnings
from pathlib import Path

LANGS = ("ko", "en")  # every figure is drawn in Korean and in English

# matplotlib is imported on first use, so a run served from the cache never pays for it

DPI = 130  # the most; a figure wider than the column gets fewer dots per inch (save())
PANEL_SIZE = (4.2, 3.4)  # inches per panel; a 1x3 figure is 12.6 x 3.4
# Figures are drawn for the width they are shown at: Material's content column is about
# 690 CSS px at a 1280 px desktop. save() gives a wider figure the dpi that makes its PNG at
# most COLUMN_PX / MIN_SHOWN pixels wide (so the page shows it at >= 70 % of its pixels),
# shrinks a figure wider than MAX_WIDTH_IN inches, and raises any text that would come out
# under MIN_TEXT_PX CSS px there (tests/test_figure_legibility_browser.py measures it).
COLUMN_PX = 660  # the content column at 1280 px (690) less a folded ??? block's padding and border
MIN_SHOWN = 0.72  # 0.70 is the goal; the margin absorbs a column a few pixels narrower
MIN_TEXT_PX = 9.2  # 9 is the goal
MAX_WIDTH_IN = 10.0
COLORS = {  # colour-blind safe (Okabe-Ito); use the role names so figures agree across pages
    "raw": "#D55E00",       # unscaled / baseline
    "scaled": "#0072B2",    # scaled / ours
    "reference": "#7F7F7F", # theory lines, 1/L, sqrt(d_k)
    "train": "#0072B2",
    "valid": "#E69F00",
    "accent": "#009E73",
    "other": "#CC79A7",
}
# what the prose calls each colour, in both languages, next to the colour itself: a page writes
# [[colour:raw]] ("주홍색" / "red-orange") so the words follow an edit of COLORS. Okabe-Ito's own
# names are vermillion, blue, grey, blue, orange, bluish green and reddish purple; these are the
# everyday words a reader would use, kept apart where two colours could be confused in one figure
COLOR_NAMES = {
    "raw": {"ko": "주홍색", "en": "red-orange"},
    "scaled": {"ko": "파란색", "en": "blue"},
    "reference": {"ko": "회색", "en": "grey"},
    "train": {"ko": "파란색", "en": "blue"},
    "valid": {"ko": "주황색", "en": "orange"},
    "accent": {"ko": "초록색", "en": "green"},
    "other": {"ko": "분홍색", "en": "pink"},
}
# a list of families, so matplotlib falls back glyph by glyph: English figures that show
# Korean words get NanumGothic for the Hangul, Korean figures get DejaVu for rare symbols
_FONTS = {"ko": ["NanumGothic", "DejaVu Sans"], "en": ["DejaVu Sans", "NanumGothic"]}
_korean_ready = False


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # no display; must precede pyplot
    import matplotlib.pyplot as plt

    return plt


def labels(table: dict[str, dict[str, str]], lang: str) -> dict[str, str]:
    """Pick one language from a ``{"ko": {...}, "en": {...}}`` table of figure strings."""
    if lang not in table:
        raise KeyError(f"no figure labels for language {lang!r}; have {sorted(table)}")
    return table[lang]


def _ensure_korean_font() -> None:
    global _korean_ready
    if not _korean_ready:
        with warnings.catch_warnings():  # it still uses distutils' LooseVersion
            warnings.simplefilter("ignore", DeprecationWarning)
            import koreanize_matplotlib  # noqa: F401  registers NanumGothic with matplotlib
        _korean_ready = True


@contextlib.contextmanager
def style(lang: str):
    """rc settings for one language's figures (font, sizes, grid)."""
    if lang not in LANGS:
        raise ValueError(f"language must be one of {LANGS}, not {lang!r}")
    _ensure_korean_font()
    rc = {
        "font.family": _FONTS[lang],
        "axes.unicode_minus": False,  # NanumGothic lacks U+2212; use '-'
        "font.size": 10,
        "axes.titlesize": 11,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "legend.frameon": False,
        "figure.dpi": DPI,
        "savefig.dpi": DPI,
        "mathtext.fontset": "dejavusans",
    }
    with _pyplot().rc_context(rc):
        yield


def subplots(nrows: int = 1, ncols: int = 1, **kwargs):
    """``plt.subplots`` with the house panel size and a constrained layout."""
    w, h = PANEL_SIZE
    kwargs.setdefault("figsize", (w * ncols, h * nrows))
    kwargs.setdefault("layout", "constrained")
    return _pyplot().subplots(nrows, ncols, **kwargs)


def fit_to_column(fig) -> tuple[float, float]:
    """Size ``fig`` for the content column; return (dpi, smallest text in the PNG's pixels).

    The size of text on screen depends only on its size in points and the figure's width in
    inches (a PNG wider than the column is scaled down to it), so a wide figure is shrunk to
    MAX_WIDTH_IN and text that would still be under MIN_TEXT_PX CSS px is raised to it.
    """
    from matplotlib.text import Text

    w, h = fig.get_size_inches()
    if w > MAX_WIDTH_IN:  # same shape, smaller: its text grows relative to it
        fig.set_size_inches(MAX_WIDTH_IN, h * MAX_WIDTH_IN / w)
        w = MAX_WIDTH_IN
    dpi = min(DPI, COLUMN_PX / MIN_SHOWN / w)
    css_px_per_pt = dpi / 72 * min(1.0, COLUMN_PX / (w * dpi))  # as shown on the page
    for ax in fig.axes:  # makes the tick labels (counted too) without laying the figure out
        for axis in (ax.xaxis, ax.yaxis):
            axis.get_majorticklabels()
            axis.get_minorticklabels()
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    floor = MIN_TEXT_PX / css_px_per_pt
    for t in texts:
        if t.get_fontsize() < floor:
            t.set_fontsize(floor)
    smallest = min((t.get_fontsize() for t in texts), default=floor)
    return dpi, smallest * dpi / 72


def save(fig, outdir: Path, name: str) -> Path:
    """Save ``fig`` as ``outdir/name.png`` atomically (bytes are reproducible), close it.

    The figure is first sized for the page's content column (:func:`fit_to_column`); the PNG
    records its smallest text, in its own pixels, as ``min-text-px``, and keeps 256 colours.
    """
    from PIL import Image, PngImagePlugin

    dpi, text_px = fit_to_column(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    _pyplot().close(fig)
    # 256 colours without dithering look the same for these flat plots and take about a third
    # of the bytes (a lesson page stays under 1.5 MB); no Software/date metadata, so identical
    # figures give identical bytes
    info = PngImagePlugin.PngInfo()
    info.add_text("min-text-px", f"{text_px:.2f}")
    with Image.open(buf) as png:
        small = png.convert("RGB").quantize(256, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True, pnginfo=info)
    path = Path(outdir) / f"{name}.png"
    path.write_bytes(out.getvalue())  # into a staging folder that the pipeline promotes by rename
    return path


def log_y(ax) -> None:
    """Log scale with plain tick labels (0.02, not 2×10⁻²: mathtext's minus has no glyph).

    Call after plotting: over a range of under 3.5 decades the 2× and 5× minor ticks are
    labelled too, so the axis never ends up with only one or two labels (0.01 and 0.1).
    """
    from matplotlib import ticker

    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    lo, hi = ax.get_ylim()
    if math.log10(hi / lo) < 3.5:
        def minor(v, _):
            mantissa = round(v / 10 ** math.floor(math.log10(v)), 6)
            return f"{v:g}" if mantissa in (2, 5) else ""
        ax.yaxis.set_minor_formatter(ticker.FuncFormatter(minor))
    else:
        ax.yaxis.set_minor_formatter(ticker.NullFormatter())
