"""The channel tells the truth under real Discord: what players saw go wrong, each replayed end to end.

The table message converges to the engine's state after 429s, 5xx and deletions; buttons are bound to
their table and hand; every chip movement and the texas board are on the result; the DM after a draw
shows the whole hand; nasty amounts and cards are refused in one private sentence (the fixture fails
any test in which the bot logs an ERROR).
"""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import pytest

from bot.errors import UserError
from bot.reading import not_a_number
from bot.session import STALE
from engine.cards import format_cards, hand_order, parse_cards
from engine.events import StreetStarted
from engine.history import replay
from tests.discord.gioco_support import HEADS_UP, Game, heads_up, seats, stacked, total

EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")


def fast_retries(harness: Any) -> None:
    """Retry failed edits after 20 ms instead of half a second (the backoff still doubles)."""
    harness.bot.sessions.retry_first = 0.02
    harness.bot.sessions.retry_max = 0.2


async def converged(harness: Any, game: Game) -> None:
    """Wait until the renderer says the channel shows the latest state, then check that it does."""
    session = game.session
    await harness.fake.wait_for(lambda: session.up_to_date, "the table message to converge", timeout=20)
    await harness.settle()
    shown = game.message
    latest = session.render()
    assert shown.content == (latest["content"] or ""), "the table message shows the latest log and turn"
    assert shown.embeds[0]["fields"] == latest["embed"].to_dict()["fields"]
    ids = sorted(c["custom_id"] for c in shown.components)
    assert ids == sorted(str(item["custom_id"]) for item in latest["view"].children)


async def stale_click(harness: Any, user: Any, message: Any, custom_id: str) -> Any:
    """A click from a client that still shows a component the bot has since taken off (or never sent):
    Discord delivers it with the message as it is now. The fake's `click` only presses what is on the
    message, so this builds the same interaction through its internals (a knob the fake lacks)."""
    fake = harness.fake
    record = fake._component_interaction(user, message, {"custom_id": custom_id, "component_type": 2})
    return await fake._send(record, f"{user.name} pressing a stale {custom_id!r}")


# 1. The board of texas, uncalled chips, the DM after a draw that ends the hand ------------------------


async def test_a_texas_all_in_run_out_shows_the_whole_board_on_the_result(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], limite="nolimit")
    await game.start(alice)
    first = game.table.to_act
    first_user = alice if first == alice.id else bob
    other_user = bob if first_user is alice else alice
    await game.say(first_user, "rilancio", importo="tutto")
    await game.say(other_user, "vedo")
    assert not game.table.hand_running, "both all-in: the board is run out and the hand ends"
    _, events = replay(game.table.hand_record())
    board = [card for e in events if isinstance(e, StreetStarted) for card in e.board]
    assert len(board) == 5
    text = game.message.text()
    assert f"Carte in tavola: {format_cards(board)}." in text, text
    await converged(harness, game)
    game.finish()


async def test_the_board_is_on_the_table_message_while_the_hand_runs(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob])
    await game.start(alice)
    first = alice if game.table.to_act == alice.id else bob
    second = bob if first is alice else alice
    await game.say(first, "vedo")
    await game.say(second, "paròl")
    assert len(game.table.board) == 3
    assert f"Carte in tavola: {format_cards(game.table.board)}" in game.message.text()
    game.finish()


async def test_uncalled_chips_and_the_dm_after_a_draw_that_ends_the_hand(harness: Any) -> None:
    """Bob (30 chips) opens and calls alice's raise all-in for less: 10 chips go back to alice in the
    first betting round, long before the draw ends the hand, and the result still names them. Alice's
    DM after her draw shows her whole hand and what it makes, though the hand is already over."""
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice])
    await harness.slash(bob, "tavolo siedi", buyin=30)
    before = await total(harness, alice, bob)
    # Deal order bob, alice: bob holds the jacks; alice 9♥ 9♦ Q♣ K♦ A♠; then Q♥ K♠ for bob, K♥ for alice.
    await game.start(alice, HEADS_UP)
    await game.say(bob, "apro", importo="10")
    await game.say(alice, "rilancio", importo="30")  # the pot limit: bet 40
    await game.say(bob, "vedo")  # 20 left of his 30: all-in for less than 40
    assert game.table.hand_running
    await game.say(bob, "cambio", carte="4 5")
    await game.say(alice, "cambio", carte="3")  # her Q♣ goes; the draw ends the hand (bob is all-in)
    assert not game.table.hand_running
    result = game.message.text()
    assert f"10 fiches non chiamate tornano a <@{alice.id}>." in result, result
    assert "vince il piatto" in result
    last = harness.dms(alice)[-1].content
    held = hand_order(parse_cards("As Kd 9h 9d Kh"))
    assert f"Dopo il cambio, le tue carte: **{format_cards(held)}** (doppia coppia)" in last, last
    assert await total(harness, alice, bob) == before, "no chip created or lost"
    game.finish()


# 2. The table message converges after 429s, 5xx and a deletion ------------------------------------


async def test_a_burst_of_server_errors_then_the_table_message_converges(harness: Any) -> None:
    fast_retries(harness)
    game, alice, bob = await heads_up(harness)
    harness.fake.fail_next(503, times=3, method="PATCH", route=EDIT[1])
    await game.say(bob, "passo")  # no opening: the pot goes round
    assert not game.table.hand_running or game.table.to_act == alice.id
    await converged(harness, game)
    assert f"<@{bob.id}> passa." in game.message.content
    game.finish()


async def test_rate_limits_past_discord_py_retries_do_not_leave_the_message_stale(harness: Any) -> None:
    fast_retries(harness)
    game, alice, bob = await heads_up(harness)
    # discord.py retries a 429 itself a few times, then raises: the renderer must keep trying.
    harness.fake.fail_next(429, times=12, method="PATCH", route=EDIT[1], retry_after=0.01)
    await game.say(bob, "apro", importo="10")
    await converged(harness, game)
    assert f"Tocca a <@{alice.id}>" in game.message.content, "the turn moved on the message"
    assert "Vedo 10 fiches" in {c.get("label") for c in game.message.components}
    game.finish()


async def test_buttons_of_an_older_message_come_off_even_after_errors(harness: Any) -> None:
    fast_retries(harness)
    game, alice, bob = await heads_up(harness)
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    first = game.message
    harness.fake.fail_next(503, times=2, method="PATCH", route=EDIT[1])
    await game.start(alice, HEADS_UP, message=first)
    await harness.fake.wait_for(lambda: not first.components, "the old message's buttons to come off")
    await converged(harness, game)
    game.finish()


async def test_a_deleted_table_message_is_posted_again_and_stored(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    old = game.message
    await harness.fake.delete_message(old)
    await game.say(bob, "apro", importo="10")
    await converged(harness, game)
    assert game.live.message_id != old.id
    assert f"Tocca a <@{alice.id}>" in game.message.content
    (row,) = [r for r in await harness.bot.storage.open_tables() if r.id == game.live.id]
    assert row.message_id == game.live.message_id, "the new id is in the ledger for a restart"
    game.finish()


async def test_a_message_id_the_database_cannot_store_changes_nothing_at_the_table(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stored message id only serves a restart: a database failing that write (a raw driver
    error) is a warning, and the re-posted table message goes on as the table's message."""
    game, alice, bob = await heads_up(harness)
    old = game.message

    async def disk_error(*args: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(harness.bot.storage, "set_table_message", disk_error)
    await harness.fake.delete_message(old)
    await game.say(bob, "apro", importo="10")
    await converged(harness, game)
    assert game.live.message_id != old.id
    assert f"Tocca a <@{alice.id}>" in game.message.content
    monkeypatch.undo()
    game.finish()


async def test_a_burst_of_actions_while_the_channel_is_limited_costs_few_edits(harness: Any) -> None:
    """While the channel answers 429 the actions keep being played; the message then needs one edit
    (plus the one that was in flight), not one per action."""
    fast_retries(harness)
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    # Deal order bob, carol, alice: alice holds the jacks.
    await game.start(alice, stacked(["8s 9d Tc Qs Ad", "8d 9c Th Kc Ac", "Jh Js 8c 9h Kd"]))
    message_id = game.live.message_id
    edits_before = _edits(harness, message_id)
    harness.fake.throttle("poker", 0.3)
    await game.say(bob, "passo")  # no buio
    await game.say(bob, "passo")
    await game.say(carol, "passo")
    await game.say(alice, "apro", importo="10")
    await converged(harness, game)
    done = _edits(harness, message_id) - edits_before
    assert 1 <= done < 4, f"{done} successful edits for 4 actions"
    game.finish()


def _edits(harness: Any, message_id: int) -> int:
    path = f"/messages/{message_id}"
    return sum(
        1
        for method, p, status in harness.fake.rest_log
        if method == "PATCH" and p.endswith(path) and status == 200
    )


async def test_fast_play_at_three_tables_under_rate_limits_ends_as_tavolo_stato_says(harness: Any) -> None:
    fast_retries(harness)
    harness.fake.rules.rate_limits = True
    harness.fake.rules.channel_bucket = (2, 0.2)
    channels = ("poker", "generale", "sala-vip")
    games = []
    for i, channel in enumerate(channels):
        a, b = harness.user(f"a{i}"), harness.user(f"b{i}")
        game = Game(harness, channel=channel)
        await game.open(a, "italiana", [a, b])
        games.append((game, a, b))

    said: list[str] = []

    async def play(game: Game, a: Any, b: Any) -> None:
        """Three hands, each player saying the most passive word he may (voids, carried pots, draws)."""
        by_id = {a.id: a, b.id: b}
        for _ in range(3):
            await game.start(a)
            while game.table.hand_running:
                player = by_id[game.table.to_act]
                words = {la.kind.value for la in game.table.legal_actions()}
                word = next(w for w in ("paròl", "parol", "servito", "vedo", "passo") if w in words)
                await game.say(player, "paròl" if word == "parol" else word)
                said.append(word)

    # Discord's headers make discord.py wait before it hits a bucket; forced 429s go past its retries.
    harness.fake.fail_next(429, times=15, method="PATCH", route=EDIT[1], retry_after=0.01)
    await asyncio.gather(*(play(*g) for g in games))
    assert any(status == 429 for _m, _p, status in harness.fake.rest_log), "the limits were reached"
    assert len(said) >= 6
    for game, a, _b in games:
        await converged(harness, game)
        stato = await harness.slash(a, "tavolo stato", channel=game.channel)
        seats_now = [f for f in stato.embeds[0]["fields"] if f["name"].startswith("Giocatori")]
        on_message = [f for f in game.message.embeds[0]["fields"] if f["name"].startswith("Giocatori")]
        assert seats_now == on_message, "the table message and /tavolo stato agree"
        ledger = await seats(harness, game.channel)
        for seat in game.live.view().seats:
            assert ledger[seat.player] == seat.stack
        game.finish()


# 3. Buttons bound to their table and hand ----------------------------------------------------------


async def test_a_button_of_the_last_hand_is_refused_and_changes_nothing(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    first = game.message
    stale = next(c["custom_id"] for c in first.components if c.get("label") == "Passo")
    await game.say(bob, "passo")
    await game.say(alice, "passo")  # nobody opens
    await game.start(alice, HEADS_UP)
    to_act = game.table.to_act
    player = alice if to_act == alice.id else bob
    await harness.settle()
    text_before, table_before = first.text(), game.table.to_dict()
    reply = await stale_click(harness, player, first, stale)  # Passo of hand 1 by who acts in hand 2
    assert reply.ephemeral and reply.content == STALE
    assert first.text() == text_before, "the clicked message keeps its text"
    assert game.table.to_dict() == table_before and game.table.to_act == to_act
    game.finish()


async def test_an_unknown_or_old_format_button_gets_the_same_clean_refusal(harness: Any) -> None:
    game, _alice, bob = await heads_up(harness)
    before = game.table.to_dict()
    for custom_id in (
        "tv:a:allin",
        "tv:a:passo",
        f"tv:{game.live.id}:{game.table.hand_number}:a:allin",
        "tv:",
    ):
        reply = await stale_click(harness, bob, game.message, custom_id)
        assert reply.ephemeral and reply.content == STALE, (custom_id, reply.content)
    assert game.table.to_dict() == before
    game.finish()


async def test_a_button_of_a_closed_table_is_refused_by_the_next_table(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    last = game.message
    start = next(c["custom_id"] for c in last.components if c.get("label") == "Prossima mano")
    game.finish()
    # Nobody can close during a hand; between hands alice closes and opens a new table here.
    closed = await harness.slash(alice, "tavolo chiudi")
    assert not closed.ephemeral, closed.content
    again = Game(harness)
    await again.open(alice, "italiana", [alice, bob])
    reply = await stale_click(harness, bob, last, start)
    assert reply.ephemeral and reply.content == STALE
    assert not again.table.hand_running, "the old table's button dealt nothing at the new one"


async def test_after_a_restart_the_cancelled_hands_buttons_are_refused(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    message = game.message
    passo = next(c["custom_id"] for c in message.components if c.get("label") == "Passo")
    await game.restart()
    assert not game.table.hand_running
    reply = await stale_click(harness, bob, message, passo)
    assert reply.ephemeral and reply.content == STALE
    await game.start(alice, HEADS_UP)
    to_act = game.table.to_act
    player = alice if to_act == alice.id else bob
    reply = await stale_click(harness, player, message, passo)
    assert reply.ephemeral and reply.content == STALE
    assert game.table.to_act == to_act, "the new hand did not take the old Passo"
    game.finish()


# 4. Nasty input: one private sentence, never an ERROR ----------------------------------------------

NASTY_AMOUNTS = ["1.1", "5.0", "-5", "+5", "²", "⑤", "５", "1e3", "0x10", "1,5", "1.00", "10.000.0", "1 00"]


@pytest.mark.parametrize("amount", NASTY_AMOUNTS)
async def test_nasty_amounts_are_refused_in_one_private_sentence(harness: Any, amount: str) -> None:
    game, _alice, bob = await heads_up(harness)
    before = game.table.to_dict()
    reply = await game.say(bob, "apro", importo=amount)
    assert reply.ephemeral and reply.content == not_a_number(amount.strip().lower()), reply.content
    assert game.table.to_dict() == before
    game.finish()


async def test_absurd_amounts_cards_and_menu_values_never_crash(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    huge = "9" * 5000
    reply = await game.say(bob, "apro", importo=huge)
    assert reply.ephemeral and reply.content.startswith("Scrivi un numero intero di fiches:")
    assert len(reply.content) < 100
    for text in ("<@everyone> **x**", "tutto tutto", "piatto!", "\u200b", "1 000 000 000 000"):
        reply = await game.say(bob, "apro", importo=text)
        assert reply.ephemeral, (text, reply.content)
    for text in ("1.1", "²", "-10", "9" * 20):
        modal = await harness.click(bob, game.message, label="Apro…")
        reply = await game.submit(bob, modal, {"importo": text})
        assert reply.ephemeral and reply.content.startswith("Scrivi un numero intero di fiches:"), text
    await game.say(bob, "apro", importo="1.0")  # a thousands group needs three digits: refused
    assert game.table.to_act == bob.id
    await game.say(bob, "apro", importo="10")
    await game.say(alice, "vedo")
    for text in ("²", "⑤ ①", "1" * 5000, "0", "-1", "99", "A♥A♥", "🂡", "1.1", ",,,", "Zz Yy Xx Ww Vv Uu Tt"):
        reply = await game.say(bob, "cambio", carte=text)
        assert reply.ephemeral, (text, reply.content)
    menu = await harness.click(bob, game.message, label="Cambio…")
    for values in (["9999"], ["-1"], ["x"], ["9" * 5000]):  # a forged client sending no card of the deck
        record = harness.fake._component_interaction(
            bob, menu.message, {"custom_id": game.menu_id, "component_type": 3, "values": values}
        )
        reply = await harness.fake._send(record, "a forged draw menu")
        assert reply.ephemeral, values
    assert game.table.to_act == bob.id
    game.finish()


async def test_grouped_thousands_are_read_as_italians_write_them(harness: Any) -> None:
    from bot.reading import parse_amount
    from engine.actions import ActionKind

    assert parse_amount("1.000", ActionKind.PUNTO, 10, None) == 1000
    assert parse_amount("1 000", ActionKind.PUNTO, 10, None) == 1000
    assert parse_amount("12.345.678", ActionKind.PUNTO, 10, None) == 12_345_678
    # Up to twelve digits, grouped or not (longer than twelve characters once grouped).
    assert parse_amount("1.000.000.000", ActionKind.PUNTO, 10, None) == 10**9
    assert parse_amount("1 000 000 000", ActionKind.PUNTO, 10, None) == 10**9
    assert parse_amount("999.999.999.999", ActionKind.PUNTO, 10, None) == 10**12 - 1
    for too_long in ("1.000.000.000.000", "1000000000000", "1.000.000.000.0000"):
        with pytest.raises(UserError):
            parse_amount(too_long, ActionKind.PUNTO, 10, None)
    assert parse_amount(" 20 ", ActionKind.PUNTO, 10, None) == 20
    assert parse_amount(None, ActionKind.APRO, 10, None) == 10


def test_the_result_names_odd_chips_and_a_carried_pot() -> None:
    from bot.render import result_lines
    from engine.events import HandStarted, PotAwarded, PotCarried

    events = [
        HandStarted(hand_number=3, dealer=1, players=(2, 1), deck_size=24, opening_level=12, carried=40),
        PotAwarded(pot=0, amount=45, winners=(2, 1), shares=(23, 22), shown=True),
        PotAwarded(pot=1, amount=30, winners=(1,), shares=(30,), shown=True),
    ]
    lines = result_lines(events)
    assert lines[0] == "Nel piatto c'erano 40 fiches rimaste dalla mano prima."
    assert (
        lines[1]
        == "Il piatto (45 fiches) si divide: <@2> 23 fiches, <@1> 22 fiches. Fiches dispari: 1 fiche a <@2>."
    )
    assert lines[2] == "<@1> vince il piatto laterale 1: 30 fiches."
    carried = result_lines([PotCarried(carried=60, debts=((1, 20), (2, 20)))])
    assert carried == ["Tutti paròl: il piatto di 60 fiches passa alla mano successiva."]


async def test_a_player_sitting_down_between_hands_appears_on_the_table_message(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    carol = harness.user("carol")
    await harness.slash(carol, "tavolo siedi", buyin=200)
    await converged(harness, game)
    assert f"<@{carol.id}>: 200 fiches" in game.message.text()
    game.finish()


async def test_answers_ask_discord_for_their_message_only_when_posting_a_table_message(harness: Any) -> None:
    """Discord sends the answer's message back only when asked: only a new hand's table message asks
    (its id is kept); every other answer costs the bot no message to read."""
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    dealt = await game.start(alice, HEADS_UP)
    typed = await game.say(bob, "passo")
    clicked = await game.click(alice, "Passo")  # nobody opens: the hand ends
    shown = await harness.click(bob, game.message, label="Prossima mano")
    answers = [r.record for r in (dealt, typed, clicked, shown)]
    assert [a.callback_type for a in answers] == [4, 4, 7, 4]
    assert [a.callback_with_response for a in answers] == [True, False, False, True]
    assert game.live.message_id == shown.record.original_id, "the new table message is the dealer's answer"
    game.finish()
