"""Card faces, drawn once per card and size and kept in a module-level cache.

A face is the French card players know: the rank in the top-left corner (``10`` in two
characters), a small suit under it and a large suit in the middle; ♥ ♦ red, ♣ ♠ black. Suits are
vector shapes (circles and polygons), drawn four times larger and scaled down so their edges are
smooth, so no symbol font is needed. Faces are composited on the table's green once and reduced
to the fixed palette of ``bot.pictures.palette`` once, so a picture only pastes opaque rectangles of
palette indices and never quantizes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.pictures._canvas import (
    BLACK_SUIT,
    CARD_EDGE,
    FELT,
    PAPER,
    RED_SUIT,
    SLOT_EDGE,
    SLOT_FILL,
    Color,
    font,
)
from bot.pictures.palette import to_palette
from engine.cards import Card, Suit

__all__ = [
    "LARGE",
    "SMALL",
    "CardSize",
    "card_face",
    "clear_cache",
    "pip_center",
    "placeholder_face",
    "suit_color",
]

_SCALE: Final = 4  # supersampling factor of the drawing


@dataclass(frozen=True, slots=True, order=True)
class CardSize:
    """The pixel size of a card face."""

    width: int
    height: int


LARGE: Final = CardSize(72, 100)
"""Hands and the board: five cards make a 412 × 120 picture."""
SMALL: Final = CardSize(54, 76)
"""The rows of a showdown."""

_RANK_TEXT: Final = {**{r: str(r) for r in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}

_FACES: dict[tuple[int, CardSize], Image.Image] = {}


def suit_color(suit: Suit) -> Color:
    """♥ ♦ red, ♣ ♠ black."""
    return RED_SUIT if suit in (Suit.CUORI, Suit.QUADRI) else BLACK_SUIT


def pip_center(size: CardSize) -> tuple[int, int]:
    """Where the large suit is centred on a face (its colour there tells red from black)."""
    return round(size.width * 0.55), round(size.height * 0.64)


def _pip_side(size: CardSize) -> int:
    return round(size.width * 0.56)


def _suit_mask(suit: Suit, side: int) -> Image.Image:
    """The suit as an anti-aliased mask of ``side`` × ``side`` pixels."""
    big = side * _SCALE
    mask = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(mask)

    def circle(cx: float, cy: float, r: float) -> None:
        draw.ellipse(((cx - r) * big, (cy - r) * big, (cx + r) * big, (cy + r) * big), fill=255)

    def polygon(*points: tuple[float, float]) -> None:
        draw.polygon([(x * big, y * big) for x, y in points], fill=255)

    if suit is Suit.QUADRI:
        polygon((0.5, 0.0), (0.88, 0.5), (0.5, 1.0), (0.12, 0.5))
    elif suit is Suit.CUORI:
        circle(0.28, 0.3, 0.24)
        circle(0.72, 0.3, 0.24)
        polygon((0.05, 0.38), (0.95, 0.38), (0.5, 0.96))
    elif suit is Suit.PICCHE:
        circle(0.28, 0.56, 0.22)
        circle(0.72, 0.56, 0.22)
        polygon((0.07, 0.5), (0.93, 0.5), (0.5, 0.0))
        polygon((0.5, 0.55), (0.32, 1.0), (0.68, 1.0))
    else:  # FIORI
        circle(0.5, 0.25, 0.22)
        circle(0.25, 0.58, 0.22)
        circle(0.75, 0.58, 0.22)
        circle(0.5, 0.5, 0.13)
        polygon((0.5, 0.5), (0.32, 1.0), (0.68, 1.0))
    return mask.resize((side, side), Image.Resampling.LANCZOS)


def _blank(size: CardSize, fill: Color, edge: Color) -> Image.Image:
    """A rounded card on the felt, drawn large and scaled down for smooth corners."""
    w, h = size.width * _SCALE, size.height * _SCALE
    image = Image.new("RGB", (w, h), FELT)
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=6 * _SCALE, fill=fill, outline=edge, width=_SCALE
    )
    return image.resize((size.width, size.height), Image.Resampling.LANCZOS)


def _draw_face(code: int, size: CardSize) -> Image.Image:
    """Draw one face from scratch in RGB; ``card_face`` calls it once per card and size."""
    card = Card.from_code(code)
    color = suit_color(card.suit)
    face = _blank(size, PAPER, CARD_EDGE)
    draw = ImageDraw.Draw(face)
    rank_size = round(size.height * 0.25)
    draw.text(
        (round(size.width * 0.08), round(size.height * 0.04)),
        _RANK_TEXT[card.rank],
        fill=color,
        font=font(rank_size),
    )
    small = round(size.height * 0.14)
    small_mask = _suit_mask(card.suit, small)
    face.paste(color, (round(size.width * 0.1), round(size.height * 0.33)), small_mask)
    side = _pip_side(size)
    cx, cy = pip_center(size)
    face.paste(color, (cx - side // 2, cy - side // 2), _suit_mask(card.suit, side))
    return face


def card_face(card: Card, size: CardSize = LARGE) -> Image.Image:
    """The face of ``card`` at ``size`` in the fixed palette ("P" mode), drawn on first use and
    then shared (do not modify it)."""
    key = (card.code, size)
    face = _FACES.get(key)
    if face is None:
        face = _FACES[key] = to_palette(_draw_face(card.code, size), cards_only=True)
    return face


def placeholder_face(size: CardSize = LARGE) -> Image.Image:
    """An empty slot in the fixed palette: a board card not dealt yet."""
    key = (-1, size)
    face = _FACES.get(key)
    if face is None:
        face = _FACES[key] = to_palette(_blank(size, SLOT_FILL, SLOT_EDGE), cards_only=True)
    return face


def clear_cache() -> None:
    """Forget every drawn face (tests; a long-running bot never needs it: 52 × 2 faces at most)."""
    _FACES.clear()
