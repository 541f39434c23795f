"""Card pictures in play (bot/card_pictures.py): the private hand comes with a PNG of its cards, the
table message shows the texas board and, after a showdown, the hands shown with names; the text of
the cards stays beside every picture, and no public picture ever shows a hole card (the game watch,
tests/discord/gioco_support.py, checks every public attachment of every test that uses it)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from bot import card_pictures
from bot.card_pictures import BOARD_FILE, HAND_FILE, SHOWDOWN_FILE, showdown_rows
from bot.pictures import board_png, hand_png, showdown_png
from bot.pictures.faces import LARGE, SMALL
from bot.pictures.hands import MARGIN, SHOWDOWN_ROW_HEIGHT, showdown_layout
from engine.cards import format_cards, hand_order, parse_cards
from engine.events import HandShown
from engine.history import replay
from fakediscord.model import FakeMessage
from tests.discord.gioco_support import Game, bob_declares_three, stacked, texas_heads_up
from tests.pictures.test_pictures import _cards_on_row, _open

BOARD = parse_cards("7h 2s 9c 4d Kc")


def cards_in(data: bytes, size: Any = LARGE, top: int = MARGIN, left: int = 0) -> int:
    """How many cards a row of a picture shows, by sampling its pixels (Pillow parses the PNG)."""
    return len(_cards_on_row(_open(data), top, size, left))


def picture_of(message: FakeMessage, filename: str) -> bytes:
    [attachment] = [a for a in message.attachments if a.filename == filename]
    return attachment.data


def uploads(message: FakeMessage) -> list[int]:
    """The attachment ids the message held over its versions, each once, in order."""
    seen: list[int] = []
    for version in message.history:
        for attachment in version.get("attachments") or []:
            if int(attachment["id"]) not in seen:
                seen.append(int(attachment["id"]))
    return seen


async def test_the_private_hand_comes_with_a_picture_of_its_cards(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await game.start(alice, stacked(["Jh Js 9c Td Ah", "9h 9d Qc Kd As"], "Th Jd Qh Kh Ac"))
    for user in (alice, bob):
        [dm] = harness.dms(user)
        held = hand_order(game.table.cards_of(user.id))
        assert format_cards(held) in dm.content, "the text of the cards stays beside the picture"
        data = picture_of(dm, HAND_FILE)
        assert cards_in(data) == 5
        assert data == hand_png(held), "the cards in the holding order, nobody else's"
    # /carte and the «Le mie carte» button: the same picture, privately.
    typed = await harness.slash(bob, "carte")
    clicked = await harness.click(alice, game.message, label="Le mie carte")
    for reply, user in ((typed, bob), (clicked, alice)):
        assert reply.ephemeral
        data = picture_of(reply.message, HAND_FILE)
        assert data == hand_png(hand_order(game.table.cards_of(user.id))) and cards_in(data) == 5
    game.finish()


async def test_after_the_draw_the_dm_shows_the_new_hand(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    # bob (dealer's left) opens with the jacks and draws three; alice stands pat.
    await bob_declares_three(game, alice, bob)
    await game.say(alice, "servito")
    after = harness.dms(bob)[-1]
    assert "Dopo il cambio" in after.content
    held = hand_order(game.table.cards_of(bob.id))
    assert picture_of(after, HAND_FILE) == hand_png(held) and cards_in(picture_of(after, HAND_FILE)) == 5
    assert len(harness.dms(alice)) == 1, "who stands pat gets no new DM"
    game.finish()


async def test_the_texas_board_is_a_picture_uploaded_only_when_it_changes(harness: Any) -> None:
    game, first, second = await texas_heads_up(harness, avviso="off")
    [hole] = [picture_of(dm, HAND_FILE) for dm in harness.dms(harness.user("bob"))]
    assert cards_in(hole) == 2
    message = game.message
    assert message.attachments == [] and "image" not in message.embeds[0], "no board before the flop"
    await game.say(first, "vedo")
    assert game.table.to_act == second.id
    await game.say(second, "paròl")
    for dealt in (3, 4, 5):
        await harness.settle()
        assert message.embeds[0]["image"]["url"] == f"attachment://{BOARD_FILE}"
        data = picture_of(message, BOARD_FILE)
        assert data == board_png(BOARD[:dealt]) and cards_in(data) == dealt
        assert f"Carte in tavola: {format_cards(BOARD[:dealt])}" in message.text(), "the text stays"
        assert len(uploads(message)) == dealt - 2, "one upload per board, none for the other edits"
        if dealt < 5:
            await game.say(second, "paròl")
            await game.say(first, "paròl")
    game.finish()


async def checked_down_to_the_showdown(harness: Any) -> tuple[Game, dict[int, Any]]:
    """A texas hand called and checked down to the showdown: the game and its players by id."""
    game, first, second = await texas_heads_up(harness, avviso="off")
    users = {first.id: first, second.id: second}
    await game.say(first, "vedo")
    for word in ("paròl",) * 7:
        await game.say(users[game.table.to_act], word)
    assert not game.table.hand_running
    return game, users


async def test_the_showdown_shows_the_hands_with_names(harness: Any) -> None:
    game, users = await checked_down_to_the_showdown(harness)
    await harness.fake.wait_for(
        lambda: any(a.filename == SHOWDOWN_FILE for a in game.message.attachments), "the showdown picture"
    )
    message = game.message
    assert message.embeds[0]["image"]["url"] == f"attachment://{SHOWDOWN_FILE}"
    data = picture_of(message, SHOWDOWN_FILE)
    _, events = replay(game.table.hand_record())
    rows = showdown_rows(events, harness.bot.sessions.name_of)
    shown = [e.player for e in events if isinstance(e, HandShown)]
    # The name Discord shows (the fake's users have a capitalised global name).
    assert [row.name for row in rows] == [users[p].name.capitalize() for p in shown] and rows
    assert data == showdown_png(rows, BOARD)
    layout = showdown_layout(rows, BOARD)
    card_top = (SHOWDOWN_ROW_HEIGHT - SMALL.height) // 2
    counts = [
        cards_in(data, SMALL, MARGIN + i * SHOWDOWN_ROW_HEIGHT + card_top, layout.cards_left - 2)
        for i in range(1 + len(rows))
    ]
    assert counts == [5] + [2] * len(rows), "the board, then two cards per hand shown"
    assert "mostra" in message.text(), "the result's text stays beside the picture"
    game.finish()


async def test_the_showdown_picture_is_drawn_as_one_of_the_tasks_shutdown_cancels(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawn in a thread after the hand: while it runs it is one of the sessions' tasks, so that
    `Sessions.close` cancels it rather than let it touch the table after the shutdown."""
    drawing, release = threading.Event(), threading.Event()

    def slow(*args: Any) -> bytes:
        drawing.set()
        release.wait(10)
        return showdown_png(*args)

    monkeypatch.setattr(card_pictures, "showdown_png", slow)
    game, _users = await checked_down_to_the_showdown(harness)
    tasks = harness.bot.sessions.tasks
    try:
        await harness.fake.wait_for(drawing.is_set, "the drawing")
        assert [t for t in tasks if t.get_name() == "showdown-picture"], "a task shutdown knows of"
    finally:
        release.set()
    await harness.fake.wait_for(
        lambda: any(a.filename == SHOWDOWN_FILE for a in game.message.attachments), "the showdown picture"
    )
    assert not [t for t in tasks if t.get_name() == "showdown-picture"], "and forgotten once drawn"
    game.finish()


async def test_a_restart_takes_the_cancelled_hands_board_off_the_message(harness: Any) -> None:
    game, first, second = await texas_heads_up(harness, avviso="off")
    await game.say(first, "vedo")
    await game.say(second, "paròl")
    await harness.settle()
    message = game.message
    assert picture_of(message, BOARD_FILE) == board_png(BOARD[:3])
    await harness.restart()
    game.use_clock()
    await harness.fake.wait_for(lambda: "Mano annullata" in message.text(), "the cancelled hand's message")
    await harness.settle()
    assert message.attachments == [] and "image" not in message.embeds[0]
    game.finish()
