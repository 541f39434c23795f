"""One fixed palette for the card pictures, so that no card picture builds a palette of its own.

A card picture holds few colours: the felt, the paper, the card edge, the two suit colours, the
empty slots, the winner's band, the text, and the anti-aliased edges between them. Each edge is a
blend of two known colours, so a palette of the gradients between the pairs that touch covers
every pixel within a few levels (closer than the 64-colour octree palette it replaces). With it a
face is reduced to palette indices once, when it is drawn, and a hand or a board is composed
directly in "P" mode: pasting cached faces, then encoding the PNG, with no per-picture quantize
(which cost half of a hand picture's CPU: bench/bench_render.py).

The card colours come first, so a hand or a board only uses the lowest indices and its PNG carries
only those palette entries (``png_bytes``).
"""

from __future__ import annotations

import io
from typing import Final

from PIL import Image

from bot.pictures._canvas import (
    BLACK_SUIT,
    CARD_EDGE,
    FELT,
    MUTED,
    PAPER,
    RED_SUIT,
    SLOT_EDGE,
    SLOT_FILL,
    TEXT,
    WINNER_BAND,
    Color,
)

__all__ = ["CARD_COLORS", "COLORS", "PNG_LEVEL", "index_of", "png_bytes", "to_palette"]

_GRADIENTS: Final[tuple[tuple[Color, Color, int], ...]] = (
    # Card faces, composited on the felt.
    (PAPER, RED_SUIT, 16),
    (PAPER, BLACK_SUIT, 16),
    (PAPER, CARD_EDGE, 8),
    (CARD_EDGE, FELT, 8),
    (PAPER, FELT, 10),
    # Empty board slots.
    (SLOT_FILL, SLOT_EDGE, 6),
    (SLOT_EDGE, FELT, 6),
    (SLOT_FILL, FELT, 3),
)
"""(one colour, the other, steps including both ends) for the cards: more steps where the
contrast is high, few enough that the anti-aliased edges do not make the PNG much bigger."""
_TEXT_GRADIENTS: Final[tuple[tuple[Color, Color, int], ...]] = (
    # Names and categories of a showdown, on the felt or on the winner's band.
    (FELT, TEXT, 16),
    (FELT, MUTED, 12),
    (WINNER_BAND, TEXT, 16),
    (WINNER_BAND, MUTED, 12),
    (FELT, WINNER_BAND, 3),
)

PNG_LEVEL: Final = 3
"""zlib level of the card pictures, measured on the pictures themselves (``python -m
bench.bench_render --levels``): level 4 encodes 70 % slower for a PNG 6 to 15 % smaller, level 6
three and a half times slower, level 1 or 2 is barely faster for a PNG 5 to 15 % larger, and
``optimize`` costs thirty times more."""


def _gradient(start: Color, end: Color, steps: int) -> list[Color]:
    return [
        (
            round(start[0] + (end[0] - start[0]) * k / (steps - 1)),
            round(start[1] + (end[1] - start[1]) * k / (steps - 1)),
            round(start[2] + (end[2] - start[2]) * k / (steps - 1)),
        )
        for k in range(steps)
    ]


def _colors(gradients: tuple[tuple[Color, Color, int], ...]) -> tuple[Color, ...]:
    colors: dict[Color, None] = {}  # ordered and without repeats
    for start, end, steps in gradients:
        colors.update(dict.fromkeys(_gradient(start, end, steps)))
    return tuple(colors)


def _palette_image(colors: tuple[Color, ...]) -> Image.Image:
    image = Image.new("P", (1, 1))
    image.putpalette(bytes(channel for color in colors for channel in color))
    return image


CARD_COLORS: Final = _colors(_GRADIENTS)
"""The first indices of the palette: all that a face or an empty slot uses."""
COLORS: Final = CARD_COLORS + tuple(c for c in _colors(_TEXT_GRADIENTS) if c not in CARD_COLORS)
"""The palette, in index order (fewer than 256 colours)."""
assert len(COLORS) <= 256

_FLAT: Final = bytes(channel for color in COLORS for channel in color)
_CARD_PALETTE: Final = _palette_image(CARD_COLORS)
_PALETTE: Final = _palette_image(COLORS)


def index_of(color: Color) -> int:
    """The palette index of one of the pictures' colours (a ``ValueError`` for any other)."""
    return COLORS.index(color)


def to_palette(image: Image.Image, *, cards_only: bool = False) -> Image.Image:
    """An RGB image reduced to the fixed palette, each pixel to its nearest colour, no dithering
    (dithering would speckle the flat felt and paper and make the PNG bigger). A face is reduced
    with ``cards_only``, to the card colours only, so that a row of cards never reaches the text
    colours' indices (nor carries them in its PNG)."""
    palette = _CARD_PALETTE if cards_only else _PALETTE
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def png_bytes(image: Image.Image, colors: tuple[Color, ...] = COLORS) -> bytes:
    """PNG bytes of a fresh canvas in this palette's indices ("P" mode), at ``PNG_LEVEL``.

    The palette is attached here, cut to ``colors`` (``CARD_COLORS`` or ``COLORS``): a row of cards
    never uses the text colours, so its PNG does not carry them. Saying so is cheaper than scanning
    the pixels for the highest index (a sixth of a hand picture's time).
    """
    image.putpalette(_FLAT[: 3 * len(colors)])
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=PNG_LEVEL)
    return buffer.getvalue()
