"""The night's pictures: a bar chart of net results and a tournament's final standings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.pictures._canvas import FELT, GREEN_BAR, MUTED, RED_BAR, TEXT, fit_text, font, text_width, to_png

__all__ = [
    "CHART_ROW_HEIGHT",
    "STANDINGS_ROW_HEIGHT",
    "ResultRow",
    "StandingRow",
    "chart_geometry",
    "format_net",
    "results_chart_png",
    "standings_png",
]

MARGIN: Final = 12
CHART_ROW_HEIGHT: Final = 30
STANDINGS_ROW_HEIGHT: Final = 36
_BAR_HEIGHT: Final = 18
_BAR_AREA: Final = 320
_NAME_SIZE: Final = 16
_TITLE_SIZE: Final = 18
_NAME_MIN: Final = 90
_NAME_MAX: Final = 240
_MEDALS: Final = {1: (212, 175, 55), 2: (192, 192, 192), 3: (205, 127, 50)}
_PLAIN_BADGE: Final = (60, 120, 80)


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A player's net result for the night, in chips (negative: he lost)."""

    name: str
    net: int


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A tournament's final place, the player's display name and his prize in chips."""

    place: int
    name: str
    prize: int


def format_net(net: int) -> str:
    """``+120``, ``−80`` (a true minus sign), ``0``."""
    if net > 0:
        return f"+{net}"
    if net < 0:
        return f"−{-net}"
    return "0"


@dataclass(frozen=True, slots=True)
class _ChartGeometry:
    name_width: int
    area_left: int
    zero_x: int
    scale: float  # pixels per chip
    width: int
    height: int
    rows_top: int


def chart_geometry(rows: Sequence[ResultRow], title: str | None = None) -> _ChartGeometry:
    """The zero line splits the bar area in proportion to the largest loss and the largest win,
    so that both sides use one scale."""
    name_width = min(max([_NAME_MIN, *(text_width(row.name, _NAME_SIZE) for row in rows)]), _NAME_MAX)
    label_width = max([text_width(format_net(row.net), _NAME_SIZE) for row in rows] + [40])
    area_left = MARGIN + name_width + MARGIN + label_width + 6
    most_lost = max([-row.net for row in rows] + [0])
    most_won = max([row.net for row in rows] + [0])
    span = most_lost + most_won
    zero_x = area_left + (round(_BAR_AREA * most_lost / span) if span else _BAR_AREA // 2)
    scale = _BAR_AREA / span if span else 0.0
    width = area_left + _BAR_AREA + label_width + 6 + MARGIN
    rows_top = MARGIN + (CHART_ROW_HEIGHT if title else 0)
    height = rows_top + len(rows) * CHART_ROW_HEIGHT + MARGIN
    return _ChartGeometry(name_width, area_left, zero_x, scale, width, height, rows_top)


def results_chart_png(rows: Sequence[ResultRow], title: str | None = None) -> bytes:
    """One bar per player in the order given: green to the right of the zero line for a win, red
    to the left for a loss, the net figure at the bar's end."""
    if not rows:
        raise ValueError("a results chart needs at least one row")
    g = chart_geometry(rows, title)
    image = Image.new("RGB", (g.width, g.height), FELT)
    draw = ImageDraw.Draw(image)
    name_font = font(_NAME_SIZE)
    if title:
        draw.text(
            (MARGIN, MARGIN + CHART_ROW_HEIGHT // 2), title, fill=TEXT, font=font(_TITLE_SIZE), anchor="lm"
        )
    for i, row in enumerate(rows):
        middle = g.rows_top + i * CHART_ROW_HEIGHT + CHART_ROW_HEIGHT // 2
        draw.text(
            (MARGIN, middle),
            fit_text(row.name, _NAME_SIZE, g.name_width),
            fill=TEXT,
            font=name_font,
            anchor="lm",
        )
        length = max(round(abs(row.net) * g.scale), 1 if row.net else 0)
        top, bottom = middle - _BAR_HEIGHT // 2, middle + _BAR_HEIGHT // 2
        label = format_net(row.net)
        if row.net > 0:
            draw.rectangle((g.zero_x + 1, top, g.zero_x + length, bottom), fill=GREEN_BAR)
            draw.text((g.zero_x + length + 5, middle), label, fill=TEXT, font=name_font, anchor="lm")
        elif row.net < 0:
            draw.rectangle((g.zero_x - length, top, g.zero_x - 1, bottom), fill=RED_BAR)
            draw.text((g.zero_x - length - 5, middle), label, fill=TEXT, font=name_font, anchor="rm")
        else:
            draw.text((g.zero_x + 5, middle), label, fill=MUTED, font=name_font, anchor="lm")
    draw.line((g.zero_x, g.rows_top, g.zero_x, g.rows_top + len(rows) * CHART_ROW_HEIGHT), fill=TEXT, width=1)
    return to_png(image)


def standings_png(rows: Sequence[StandingRow], title: str | None = None) -> bytes:
    """A tournament's final standings: a medal-coloured place badge for the first three, the
    name, the prize right-aligned (``500 fiches``; nothing for a place without a prize)."""
    if not rows:
        raise ValueError("a standings picture needs at least one row")
    name_font = font(_NAME_SIZE)
    name_width = min(max([_NAME_MIN, *(text_width(row.name, _NAME_SIZE) for row in rows)]), _NAME_MAX)
    prizes = [f"{row.prize} fiches" if row.prize else "" for row in rows]
    prize_width = max([text_width(p, _NAME_SIZE) for p in prizes] + [60])
    badge = STANDINGS_ROW_HEIGHT - 8
    width = MARGIN + badge + MARGIN + name_width + 3 * MARGIN + prize_width + MARGIN
    rows_top = MARGIN + (STANDINGS_ROW_HEIGHT if title else 0)
    image = Image.new("RGB", (width, rows_top + len(rows) * STANDINGS_ROW_HEIGHT + MARGIN), FELT)
    draw = ImageDraw.Draw(image)
    if title:
        draw.text(
            (MARGIN, MARGIN + STANDINGS_ROW_HEIGHT // 2),
            title,
            fill=TEXT,
            font=font(_TITLE_SIZE),
            anchor="lm",
        )
    for i, (row, prize) in enumerate(zip(rows, prizes, strict=True)):
        top = rows_top + i * STANDINGS_ROW_HEIGHT
        middle = top + STANDINGS_ROW_HEIGHT // 2
        draw.ellipse(
            (MARGIN, top + 4, MARGIN + badge, top + 4 + badge), fill=_MEDALS.get(row.place, _PLAIN_BADGE)
        )
        draw.text(
            (MARGIN + badge // 2, middle),
            str(row.place),
            fill=(20, 20, 20) if row.place in _MEDALS else TEXT,
            font=font(15),
            anchor="mm",
        )
        draw.text(
            (MARGIN + badge + MARGIN, middle),
            fit_text(row.name, _NAME_SIZE, name_width),
            fill=TEXT,
            font=name_font,
            anchor="lm",
        )
        if prize:
            draw.text((width - MARGIN, middle), prize, fill=TEXT, font=name_font, anchor="rm")
    return to_png(image)
