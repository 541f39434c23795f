"""What every picture shares: the colours, the one bundled font, text fitting and PNG encoding.

The font is DejaVu Sans Bold, shipped in ``fonts/`` with its license: Pillow's built-in font has
no accented letters, and Italian names need them (Niccolò, Lucìa). Nothing is downloaded.
"""

from __future__ import annotations

import io
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "BLACK_SUIT",
    "CARD_EDGE",
    "FELT",
    "GREEN_BAR",
    "MUTED",
    "PAPER",
    "RED_BAR",
    "RED_SUIT",
    "SLOT_EDGE",
    "SLOT_FILL",
    "TEXT",
    "WINNER_BAND",
    "Color",
    "fit_text",
    "font",
    "one_line",
    "text_width",
    "to_png",
]

Color = tuple[int, int, int]

FELT: Color = (14, 92, 48)
"""The table's green: the background of every picture."""
TEXT: Color = (245, 245, 240)
MUTED: Color = (190, 215, 195)
RED_SUIT: Color = (204, 24, 36)
BLACK_SUIT: Color = (24, 24, 24)
GREEN_BAR: Color = (64, 190, 90)
RED_BAR: Color = (220, 60, 60)
PAPER: Color = (252, 252, 248)
"""A card face."""
CARD_EDGE: Color = (150, 150, 150)
SLOT_FILL: Color = (22, 110, 60)
"""An empty board slot, edged with ``SLOT_EDGE``."""
SLOT_EDGE: Color = (95, 165, 115)
WINNER_BAND: Color = (28, 118, 66)
"""The band behind a showdown winner's row."""

FONT_PATH = Path(__file__).resolve().parent / "fonts" / "DejaVuSans-Bold.ttf"

PALETTE_COLORS = 64

_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` pixels, loaded once per size."""
    return ImageFont.truetype(str(FONT_PATH), size)


@lru_cache(maxsize=2048)
def text_width(text: str, size: int) -> int:
    """The advance width of ``text`` in pixels, remembered: the same names and categories are
    measured at every showdown of a table, twice each (the layout, then the fitting)."""
    return int(_MEASURE.textlength(one_line(text), font=font(size)) + 0.999)


def one_line(text: str) -> str:
    """``text`` with every run of white space (line breaks and tabs too) made one space: a name is
    drawn on one line, and Pillow refuses to measure a text of several. Characters the font cannot
    draw (an emoji in a display name, a computer's 🤖) are left out: drawn, each would be an empty
    box; a name made of nothing else is drawn as "?"."""
    if not text.isascii():
        kept = "".join(ch for ch in text if _drawable(ch))
        text = kept if kept.strip() or not text.strip() else "?"
    return " ".join(text.split())


def _glyph(ch: str) -> tuple[tuple[int, int], bytes]:
    mask = font(16).getmask(ch)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def _drawable(ch: str) -> bool:
    """Whether the font has a glyph for ``ch``: Pillow draws a missing one as the font's "missing
    glyph" box, the same box as for a private-use code point, which no font here covers."""
    return ch.isspace() or _glyph(ch) != _glyph("\U0010fffd")


def fit_text(text: str, size: int, max_width: int) -> str:
    """``text`` on one line, cut with an ellipsis so that it fits in ``max_width`` pixels: a very long
    display name must not push the cards off a picture."""
    text = one_line(text)
    if text_width(text, size) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits together with the ellipsis
        mid = (low + high + 1) // 2
        if text_width(text[:mid] + "…", size) <= max_width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def to_png(image: Image.Image) -> bytes:
    """PNG bytes of a 64-colour palette image at zlib level 6 (the charts; the card pictures use
    the fixed palette of ``bot.pictures.palette`` instead).

    These pictures are flat: the felt, the paper, two suit colours, the text and their
    anti-aliased edges. A fast octree palette keeps the dominant colours exact and makes the PNG
    about three times smaller than RGB, and quantizing plus encoding the palette costs less than
    encoding the RGB pixels (bench/bench_render.py).
    """
    palette = image.quantize(PALETTE_COLORS, method=Image.Quantize.FASTOCTREE)
    buffer = io.BytesIO()
    palette.save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()
