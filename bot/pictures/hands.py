"""Pictures of cards: a private hand, the texas board and the hands shown at a showdown.

Each function composes cached faces (``bot.pictures.faces``) on the felt and returns PNG bytes,
ready for ``discord.File(io.BytesIO(data), "mano.png")``. A row of cards (a hand, the board) is
composed directly in the fixed palette of ``bot.pictures.palette``: the private hand is drawn for
every player at every deal and draw, so it must cost little more than its PNG encoding. A showdown
has anti-aliased text, which Pillow draws only in RGB: it is composed in RGB and reduced to the same
palette once (a nearest-colour lookup, far cheaper than building a palette per picture).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.pictures._canvas import FELT, MUTED, TEXT, WINNER_BAND, fit_text, font, text_width
from bot.pictures.faces import LARGE, SMALL, CardSize, card_face, placeholder_face
from bot.pictures.palette import CARD_COLORS, index_of, png_bytes, to_palette
from engine.cards import Card

__all__ = [
    "BOARD_SLOTS",
    "CARD_GAP",
    "MARGIN",
    "SHOWDOWN_ROW_HEIGHT",
    "ShowdownRow",
    "board_png",
    "card_x",
    "hand_png",
    "showdown_layout",
    "showdown_png",
]

MARGIN: Final = 10
CARD_GAP: Final = 8
BOARD_SLOTS: Final = 5

SHOWDOWN_ROW_HEIGHT: Final = SMALL.height + 14
_SHOWDOWN_GAP: Final = 6
_NAME_SIZE: Final = 17
_CATEGORY_SIZE: Final = 14
_TEXT_MIN: Final = 140
_TEXT_MAX: Final = 320
_BOARD_LABEL: Final = "Carte comuni"


@dataclass(frozen=True, slots=True)
class ShowdownRow:
    """One player's hand as shown: his display name, his cards and the category in Italian
    (``"doppia coppia"``); ``winner`` highlights the row."""

    name: str
    cards: tuple[Card, ...]
    category: str = ""
    winner: bool = False


def card_x(index: int, size: CardSize = LARGE, gap: int = CARD_GAP, left: int = MARGIN) -> int:
    """The left edge of the ``index``-th card of a row."""
    return left + index * (size.width + gap)


def _row_width(count: int, size: CardSize, gap: int) -> int:
    return count * size.width + max(count - 1, 0) * gap


_FELT_INDEX: Final = index_of(FELT)


def _card_row(faces: Sequence[Image.Image]) -> bytes:
    """Palette faces pasted on a palette canvas: index copies, no conversion, no quantize."""
    image = Image.new(
        "P", (2 * MARGIN + _row_width(len(faces), LARGE, CARD_GAP), LARGE.height + 2 * MARGIN), _FELT_INDEX
    )
    for i, face in enumerate(faces):
        image.paste(face, (card_x(i), MARGIN))
    return png_bytes(image, CARD_COLORS)


def hand_png(cards: Sequence[Card]) -> bytes:
    """A private hand in the order given (the caller decides it: ``engine.cards.hand_order``)."""
    if not cards:
        raise ValueError("a hand picture needs at least one card")
    return _card_row([card_face(card) for card in cards])


def board_png(cards: Sequence[Card]) -> bytes:
    """The texas board: the cards dealt so far, then empty slots up to five."""
    if len(cards) > BOARD_SLOTS:
        raise ValueError("the board holds at most five cards")
    faces = [card_face(card) for card in cards]
    faces += [placeholder_face()] * (BOARD_SLOTS - len(cards))
    return _card_row(faces)


@dataclass(frozen=True, slots=True)
class _Layout:
    text_width: int
    width: int
    height: int
    cards_left: int
    first_row_top: int


def showdown_layout(rows: Sequence[ShowdownRow], board: Sequence[Card] | None = None) -> _Layout:
    """Where everything goes: the text column is as wide as the longest name or category
    (within bounds), the cards follow it; with a board, the board is the first row."""
    labels = [text_width(row.name, _NAME_SIZE) for row in rows]
    labels += [text_width(row.category, _CATEGORY_SIZE) for row in rows]
    if board is not None:
        labels.append(text_width(_BOARD_LABEL, _NAME_SIZE))
    column = min(max([_TEXT_MIN, *labels]), _TEXT_MAX)
    most = max([len(row.cards) for row in rows] + [BOARD_SLOTS if board is not None else 0] + [1])
    cards_left = MARGIN + column + 2 * MARGIN
    width = cards_left + _row_width(most, SMALL, _SHOWDOWN_GAP) + MARGIN
    count = len(rows) + (1 if board is not None else 0)
    height = 2 * MARGIN + count * SHOWDOWN_ROW_HEIGHT
    return _Layout(
        column, width, height, cards_left, MARGIN + (SHOWDOWN_ROW_HEIGHT if board is not None else 0)
    )


def showdown_png(rows: Sequence[ShowdownRow], board: Sequence[Card] | None = None) -> bytes:
    """The hands shown at a showdown, one row per player (name, category, cards), with the
    texas board as the first row when ``board`` is given."""
    if not rows:
        raise ValueError("a showdown picture needs at least one hand")
    layout = showdown_layout(rows, board)
    image = Image.new("RGB", (layout.width, layout.height), FELT)
    draw = ImageDraw.Draw(image)
    card_top = (SHOWDOWN_ROW_HEIGHT - SMALL.height) // 2

    def cards_at(top: int, faces: Sequence[Image.Image]) -> None:
        for i, face in enumerate(faces):
            image.paste(face, (card_x(i, SMALL, _SHOWDOWN_GAP, layout.cards_left), top + card_top))

    if board is not None:
        draw.text(
            (MARGIN, MARGIN + SHOWDOWN_ROW_HEIGHT // 2),
            _BOARD_LABEL,
            fill=MUTED,
            font=font(_NAME_SIZE),
            anchor="lm",
        )
        faces = [card_face(card, SMALL) for card in board[:BOARD_SLOTS]]
        cards_at(MARGIN, faces + [placeholder_face(SMALL)] * (BOARD_SLOTS - len(faces)))
    for i, row in enumerate(rows):
        top = layout.first_row_top + i * SHOWDOWN_ROW_HEIGHT
        if row.winner:
            draw.rounded_rectangle(
                (MARGIN // 2, top + 2, layout.width - MARGIN // 2, top + SHOWDOWN_ROW_HEIGHT - 2),
                radius=8,
                fill=WINNER_BAND,
            )
        middle = top + SHOWDOWN_ROW_HEIGHT // 2
        name = fit_text(row.name, _NAME_SIZE, layout.text_width)
        draw.text((MARGIN, middle - 2), name, fill=TEXT, font=font(_NAME_SIZE), anchor="ld")
        if row.category:
            category = fit_text(row.category, _CATEGORY_SIZE, layout.text_width)
            draw.text((MARGIN, middle + 4), category, fill=MUTED, font=font(_CATEGORY_SIZE), anchor="la")
        cards_at(top, [card_face(card, SMALL) for card in row.cards])
    return png_bytes(to_palette(image))
