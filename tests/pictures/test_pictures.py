"""Card pictures: valid PNGs of the expected size, the right cards in the right colours, names
that show, and faces drawn once."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from bot.pictures import (
    ResultRow,
    ShowdownRow,
    StandingRow,
    board_png,
    faces,
    hand_png,
    results_chart_png,
    showdown_png,
    standings_png,
)
from bot.pictures._canvas import BLACK_SUIT, FELT, GREEN_BAR, PAPER, RED_BAR, RED_SUIT, TEXT, font
from bot.pictures.charts import CHART_ROW_HEIGHT, STANDINGS_ROW_HEIGHT, chart_geometry
from bot.pictures.faces import LARGE, SMALL, CardSize, card_face, pip_center, placeholder_face
from bot.pictures.hands import CARD_GAP, MARGIN, SHOWDOWN_ROW_HEIGHT, card_x, showdown_layout
from bot.pictures.palette import CARD_COLORS, COLORS, PNG_LEVEL
from engine.cards import Card, parse_cards

RGB = tuple[int, int, int]


def _open(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def _pixel(image: Image.Image, x: int, y: int) -> RGB:
    value = image.getpixel((x, y))
    assert isinstance(value, tuple)
    return (int(value[0]), int(value[1]), int(value[2]))


def _near(rgb: RGB, expected: RGB, tolerance: int = 12) -> bool:
    """Colours within a few levels: the PNG is a palette (fixed for the cards, 64 colours for the
    charts), exact for the dominant colours (felt, bars) and close for the small areas (badges,
    text)."""
    return all(abs(a - b) <= tolerance for a, b in zip(rgb, expected, strict=True))


def _is_paper(rgb: RGB) -> bool:
    return min(rgb) > 235


def _is_red(rgb: RGB) -> bool:
    return rgb[0] > 150 and rgb[1] < 80 and rgb[2] < 80


def _is_black(rgb: RGB) -> bool:
    return max(rgb) < 80


def _runs(image: Image.Image, y: int, test: Callable[[RGB], bool], left: int = 0) -> list[tuple[int, int]]:
    """The horizontal runs of pixels passing ``test`` on row ``y``: (start, length)."""
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for x in range(left, image.width + 1):
        inside = x < image.width and test(_pixel(image, x, y))
        if inside and start is None:
            start = x
        elif not inside and start is not None:
            runs.append((start, x - start))
            start = None
    return runs


def _cards_on_row(image: Image.Image, top: int, size: CardSize, left: int = 0) -> list[tuple[int, int]]:
    """Card rectangles found by sampling a row near the bottom of the cards (below every pip)."""
    runs = _runs(image, top + size.height - 5, _is_paper, left)
    return [run for run in runs if run[1] >= size.width - 6]


def _pip(
    image: Image.Image,
    index: int,
    size: CardSize = LARGE,
    left: int = MARGIN,
    top: int = MARGIN,
    gap: int = CARD_GAP,
) -> RGB:
    cx, cy = pip_center(size)
    return _pixel(image, card_x(index, size, gap, left) + cx, top + cy)


def test_a_five_card_hand_is_a_small_png_with_five_cards() -> None:
    data = hand_png(parse_cards("A♥ K♠ Q♦ J♣ 10♥"))
    image = _open(data)
    assert (
        image.size == (2 * MARGIN + 5 * LARGE.width + 4 * CARD_GAP, LARGE.height + 2 * MARGIN) == (412, 120)
    )
    cards = _cards_on_row(image, MARGIN, LARGE)
    assert len(cards) == 5
    for (start, _), i in zip(cards, range(5), strict=True):
        assert card_x(i) <= start <= card_x(i) + 4
    assert len(data) < 6_000  # a palette PNG: the same pixels in RGB take about 9 KB


def _card_at(image: Image.Image, index: int) -> Image.Image:
    left = card_x(index)
    return image.crop((left, MARGIN, left + LARGE.width, MARGIN + LARGE.height))


def test_each_card_of_a_hand_is_the_face_of_that_card_in_the_order_given() -> None:
    hand = parse_cards("10♦ Q♠ 3♣ A♥ 10♠")
    image = _open(hand_png(hand))
    others = parse_cards("10♥ K♠ 3♠ A♦ J♠")  # one rank or one suit away from each card
    for i, (card, other) in enumerate(zip(hand, others, strict=True)):
        shown = _card_at(image, i).tobytes()
        assert shown == card_face(card).convert("RGB").tobytes(), card
        assert shown != card_face(other).convert("RGB").tobytes(), other


def test_the_board_shows_its_cards_then_empty_slots_face_by_face() -> None:
    board = parse_cards("K♥ 9♥ 4♣")
    image = _open(board_png(board))
    for i, card in enumerate(board):
        assert _card_at(image, i).tobytes() == card_face(card).convert("RGB").tobytes(), card
    for i in (3, 4):
        assert _card_at(image, i).tobytes() == placeholder_face().convert("RGB").tobytes()


def test_a_hand_looks_like_its_full_colour_drawing() -> None:
    """The fixed palette stays within a few levels of the RGB drawing everywhere (the 64-colour
    octree it replaced was up to 12 levels off, 1 on average), and exact on felt, paper and suits."""
    hand = parse_cards("A♥ K♠ Q♦ J♣ 10♥")
    drawing = Image.new("RGB", (2 * MARGIN + 5 * LARGE.width + 4 * CARD_GAP, LARGE.height + 2 * MARGIN), FELT)
    for i, card in enumerate(hand):
        drawing.paste(faces._draw_face(card.code, LARGE), (card_x(i), MARGIN))
    image = _open(hand_png(hand))
    assert image.size == drawing.size
    # every channel of every pixel
    differences = [abs(a - b) for a, b in zip(image.tobytes(), drawing.tobytes(), strict=True)]
    assert max(differences) <= 12
    assert sum(differences) / len(differences) < 1.0
    assert {PAPER, FELT, RED_SUIT, BLACK_SUIT} <= set(CARD_COLORS)
    assert _pixel(image, 2, 2) == FELT
    assert _pixel(image, card_x(0) + LARGE.width // 2, MARGIN + LARGE.height - 8) == PAPER
    assert _pip(image, 0) == RED_SUIT and _pip(image, 3) == BLACK_SUIT  # the heart, the club


def _palette_entries(data: bytes) -> int:
    """The number of colours in a PNG's PLTE chunk."""
    start = data.index(b"PLTE") - 4
    return int.from_bytes(data[start : start + 4], "big") // 3


def test_a_row_of_cards_carries_only_the_card_colours_and_a_showdown_the_text_colours_too() -> None:
    assert len(CARD_COLORS) < len(COLORS) <= 256
    hand = hand_png(parse_cards("A♥ K♠ Q♦ J♣ 10♥"))
    assert _palette_entries(hand) <= len(CARD_COLORS)
    assert _palette_entries(board_png(parse_cards("A♥"))) <= len(CARD_COLORS)
    showdown = showdown_png([ShowdownRow("Anna", parse_cards("A♥ K♠"), "coppia", winner=True)])
    assert len(CARD_COLORS) < _palette_entries(showdown) <= len(COLORS)
    assert 1 <= PNG_LEVEL <= 9


@pytest.mark.parametrize("count", [2, 5, 7])
def test_the_hand_width_follows_the_number_of_cards(count: int) -> None:
    cards = parse_cards("2h 3d 4c 5s 6h 7d 8c")[:count]
    image = _open(hand_png(cards))
    assert image.width == 2 * MARGIN + count * LARGE.width + (count - 1) * CARD_GAP
    assert len(_cards_on_row(image, MARGIN, LARGE)) == count


def test_hearts_and_diamonds_are_red_clubs_and_spades_black_in_the_order_given() -> None:
    image = _open(hand_png(parse_cards("K♣ 7♥ A♠ 10♦ 2♣")))
    colours = [_pip(image, i) for i in range(5)]
    assert [_is_red(c) for c in colours] == [False, True, False, True, False]
    assert [_is_black(c) for c in colours] == [True, False, True, False, True]


def _ink_width(image: Image.Image, index: int) -> int:
    """Width of the rank drawn in the corner of the ``index``-th card."""
    left = card_x(index)
    corner = image.crop((left + 2, MARGIN + 3, left + LARGE.width // 2 + 8, MARGIN + 28))
    xs = [
        x
        for x in range(corner.width)
        for y in range(corner.height)
        if not _is_paper(_pixel(corner, x, y)) and _pixel(corner, x, y) != FELT
    ]
    return max(xs) - min(xs) + 1


def test_ten_is_written_with_two_characters() -> None:
    image = _open(hand_png(parse_cards("10♠ 9♠ 10♥ 9♥")))
    assert _ink_width(image, 0) > _ink_width(image, 1) + 8
    assert _ink_width(image, 2) > _ink_width(image, 3) + 8


def test_an_empty_hand_is_refused() -> None:
    with pytest.raises(ValueError):
        hand_png([])


def _is_slot(rgb: RGB) -> bool:
    return _near(rgb, (22, 110, 60))


@pytest.mark.parametrize("dealt", [0, 3, 4, 5])
def test_the_board_shows_the_cards_dealt_and_empty_slots_up_to_five(dealt: int) -> None:
    image = _open(board_png(parse_cards("Ah Kh Qh Jh Th")[:dealt]))
    assert image.size == (412, 120)
    assert len(_cards_on_row(image, MARGIN, LARGE)) == dealt
    slots = [run for run in _runs(image, MARGIN + LARGE.height // 2, _is_slot) if run[1] >= LARGE.width - 6]
    assert len(slots) == 5 - dealt


def test_a_board_of_six_cards_is_refused() -> None:
    with pytest.raises(ValueError):
        board_png(parse_cards("Ah Kh Qh Jh Th 9h"))


def _six_rows(name_length: int = 6) -> list[ShowdownRow]:
    hands = [
        "Ah Ad Kc Ks 7h",
        "Qh Qd Qc 2s 3h",
        "Jh Jd 9c 9s 4h",
        "8h 8d 6c 5s 4s",
        "Th 9d 8c 7s 6s",
        "2d 3d 4d 5d 7d",
    ]
    return [
        ShowdownRow(f"{chr(65 + i)}" * name_length, parse_cards(h), "doppia coppia", winner=i == 0)
        for i, h in enumerate(hands)
    ]


def test_a_showdown_has_one_row_of_cards_per_player() -> None:
    rows = _six_rows()
    layout = showdown_layout(rows)
    image = _open(showdown_png(rows))
    assert image.height == 2 * MARGIN + 6 * SHOWDOWN_ROW_HEIGHT
    card_top = (SHOWDOWN_ROW_HEIGHT - SMALL.height) // 2
    for i, row in enumerate(rows):
        top = MARGIN + i * SHOWDOWN_ROW_HEIGHT + card_top
        assert len(_cards_on_row(image, top, SMALL, layout.cards_left - 2)) == 5
        colours = [_pip(image, j, SMALL, layout.cards_left, top, 6) for j in range(5)]
        assert [_is_red(c) for c in colours] == [c.suit in (2, 3) for c in row.cards]


def test_the_texas_board_is_the_first_row_of_a_showdown() -> None:
    rows = [
        ShowdownRow("Anna", parse_cards("Ah Kd"), "scala"),
        ShowdownRow("Bruno", parse_cards("2c 2s"), "tris"),
    ]
    board = parse_cards("Qh Jh Tc 2h 5d")
    layout = showdown_layout(rows, board)
    image = _open(showdown_png(rows, board=board))
    assert image.height == 2 * MARGIN + 3 * SHOWDOWN_ROW_HEIGHT
    card_top = (SHOWDOWN_ROW_HEIGHT - SMALL.height) // 2
    counts = [
        len(_cards_on_row(image, MARGIN + i * SHOWDOWN_ROW_HEIGHT + card_top, SMALL, layout.cards_left - 2))
        for i in range(3)
    ]
    assert counts == [5, 2, 2]


def test_a_longer_name_widens_the_showdown_and_is_cut_when_too_long() -> None:
    short = _open(showdown_png(_six_rows(4)))
    longer = _open(showdown_png(_six_rows(16)))
    longest = _open(showdown_png(_six_rows(200)))
    assert short.width < longer.width < longest.width
    assert longest.width < 700  # cut with an ellipsis rather than pushing the cards away


def test_a_name_with_a_line_break_is_drawn_on_one_line() -> None:
    # Names come from Discord (or a computer's table): whatever they hold, a picture is drawn, never
    # refused with Pillow's "can't measure length of multiline text".
    cards = parse_cards("Ah Ad Kc Ks 7h")
    odd = "Anna\nBruno\tCarla\r"
    assert _open(showdown_png([ShowdownRow(odd, cards, "doppia\ncoppia")])).width > 0
    assert _open(results_chart_png([ResultRow(odd, 10), ResultRow("Dario", -10)])).width > 0
    assert _open(standings_png([StandingRow(1, odd, 500)], title="Classifica")).width > 0


def test_characters_the_font_cannot_draw_are_left_out_of_a_name() -> None:
    """A computer is named «🤖 Zia Pina» and a display name may hold emoji: the bundled font has no
    such glyphs, and each would be drawn as an empty box. The picture is the name without them."""
    cards = parse_cards("Ah Ad Kc Ks 7h")
    with_robot = showdown_png([ShowdownRow("🤖 Zia Pina", cards, "doppia coppia")])
    assert with_robot == showdown_png([ShowdownRow("Zia Pina", cards, "doppia coppia")])
    standings = standings_png([StandingRow(1, "🤖 Zia Pina", 500), StandingRow(2, "Anna 🎲", 0)], title="C")
    assert standings == standings_png([StandingRow(1, "Zia Pina", 500), StandingRow(2, "Anna", 0)], title="C")
    only_emoji = showdown_png([ShowdownRow("🎲🎲", cards, "doppia coppia")])
    assert only_emoji == showdown_png([ShowdownRow("?", cards, "doppia coppia")])
    assert showdown_png([ShowdownRow("Niccolò ♠", cards, "x")]) != showdown_png(
        [ShowdownRow("Niccolò", cards, "x")]
    )


def _text_area(image: Image.Image, row: int) -> bytes:
    top = MARGIN + row * SHOWDOWN_ROW_HEIGHT
    return image.crop((MARGIN, top, MARGIN + 140, top + SHOWDOWN_ROW_HEIGHT // 2)).tobytes()


def test_names_are_drawn_with_their_accents() -> None:
    cards = parse_cards("Ah Ad Kc Ks 7h")
    with_accent = _open(showdown_png([ShowdownRow("Niccolò", cards, "doppia coppia")]))
    without = _open(showdown_png([ShowdownRow("Niccolo", cards, "doppia coppia")]))
    other = _open(showdown_png([ShowdownRow("Niccolx", cards, "doppia coppia")]))
    assert _text_area(with_accent, 0) != _text_area(without, 0) != _text_area(other, 0)
    notdef = font(17).getmask("\U0010fffd")  # private use: the font's "missing glyph" box
    assert bytes(notdef)  # a box, not an empty mask (a tag character's would be empty)
    for letter in "àèéìòùÀÉÈÌÒÙçñäöüßÆø":  # Latin-1: every letter has its own glyph
        assert bytes(font(17).getmask(letter)) != bytes(notdef), letter
    text_pixels = sum(
        1
        for x in range(MARGIN, MARGIN + 100)
        for y in range(MARGIN + 10, MARGIN + 40)
        if _near(_pixel(with_accent, x, y), TEXT)
    )
    assert text_pixels > 50


def test_the_results_chart_puts_wins_right_of_zero_in_green_and_losses_left_in_red() -> None:
    rows = [ResultRow("Anna", 350), ResultRow("Bruno", -120), ResultRow("Carla", 0), ResultRow("Dario", -230)]
    g = chart_geometry(rows, "Serata")
    image = _open(results_chart_png(rows, title="Serata"))
    assert image.size == (g.width, g.height)
    assert image.height == 2 * 12 + 5 * CHART_ROW_HEIGHT

    def middle(i: int) -> int:
        return g.rows_top + i * CHART_ROW_HEIGHT + CHART_ROW_HEIGHT // 2

    assert _near(_pixel(image, g.zero_x + 5, middle(0)), GREEN_BAR)
    assert _near(_pixel(image, g.zero_x - 5, middle(0)), FELT)
    assert _near(_pixel(image, g.zero_x - 5, middle(1)), RED_BAR)
    assert _near(_pixel(image, g.zero_x + 5, middle(1)), FELT)
    assert _near(_pixel(image, g.zero_x, middle(2)), TEXT)  # the zero line
    assert not any(
        _near(_pixel(image, x, middle(2)), bar) for x in range(image.width) for bar in (GREEN_BAR, RED_BAR)
    )
    # One scale for both sides: Dario's bar is 230/120 times Bruno's.
    bruno = _runs(image, middle(1), lambda c: _near(c, RED_BAR))
    dario = _runs(image, middle(3), lambda c: _near(c, RED_BAR))
    anna = _runs(image, middle(0), lambda c: _near(c, GREEN_BAR))
    assert abs(dario[0][1] / bruno[0][1] - 230 / 120) < 0.05
    assert abs(anna[0][1] / dario[0][1] - 350 / 230) < 0.05


def test_a_chart_of_winners_only_starts_at_the_left() -> None:
    rows = [ResultRow("Anna", 10), ResultRow("Bruno", 0)]
    g = chart_geometry(rows)
    assert g.zero_x == g.area_left
    assert (
        _pixel(_open(results_chart_png(rows)), g.zero_x + 3, g.rows_top + CHART_ROW_HEIGHT // 2) == GREEN_BAR
    )


def test_standings_have_one_row_per_place_and_a_gold_first_place() -> None:
    rows = [StandingRow(1, "Anna", 500), StandingRow(2, "Bruno", 300), StandingRow(3, "Carla", 0)]
    image = _open(standings_png(rows, title="Classifica"))
    assert image.height == 2 * 12 + 4 * STANDINGS_ROW_HEIGHT
    top = 12 + STANDINGS_ROW_HEIGHT
    badge_centre = (12 + (STANDINGS_ROW_HEIGHT - 8) // 2, top + 9)
    assert _near(_pixel(image, *badge_centre), (212, 175, 55))
    assert _near(_pixel(image, badge_centre[0], badge_centre[1] + STANDINGS_ROW_HEIGHT), (192, 192, 192))


def test_each_face_is_drawn_once_per_card_and_size(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, CardSize]] = []
    draw = faces._draw_face

    def counting(code: int, size: CardSize) -> Image.Image:
        calls.append((code, size))
        return draw(code, size)

    monkeypatch.setattr(faces, "_draw_face", counting)
    faces.clear_cache()
    hand = parse_cards("Ah Kh Qh Jh Th")
    first = hand_png(hand)
    assert hand_png(hand) == first
    board_png(hand[:3])
    assert sorted(calls) == sorted((card.code, LARGE) for card in hand)
    showdown_png([ShowdownRow("A", hand, "scala reale"), ShowdownRow("B", hand[:2], "")])
    assert len(calls) == 10
    assert sorted(set(calls)) == sorted(calls)
    assert sorted(code for code, size in calls if size == SMALL) == sorted(c.code for c in hand)
    faces.clear_cache()
    hand_png([Card.from_code(hand[0].code)])
    assert len(calls) == 11
