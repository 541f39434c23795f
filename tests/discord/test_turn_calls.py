"""Turn calls (bot/turn_calls.py): the player to act, and only he, is pinged by a new message after the
table's grace period, once per turn; the call goes away when the turn does; /avvisi turns it off."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from bot import computers
from bot.turn_calls import BAD_PING, TurnCalls
from fakediscord.model import FakeMessage
from tests.discord.gioco_support import HEADS_UP_TEXAS, Game, stacked, texas_heads_up
from tests.discord.test_computers import live_of, open_with_computers, quick


def calls(harness: Any, channel: str = "poker") -> list[FakeMessage]:
    """The turn calls in the channel now (deleted ones are gone)."""
    return [m for m in harness.messages(channel) if "tocca a te (mano n." in m.content]


def every_call(harness: Any) -> list[FakeMessage]:
    """Every turn call ever posted, deleted ones included."""
    return [m for m in harness.fake.store.values() if "tocca a te (mano n." in m.content]


async def called(harness: Any, user: Any) -> FakeMessage:
    await harness.fake.wait_for(
        lambda: any(m.notified == [user.id] for m in calls(harness)), f"the turn call of {user.name}"
    )
    await harness.settle()
    [call] = calls(harness)
    return call


def assert_only_pings(call: FakeMessage, user: Any) -> None:
    assert call.notified == [user.id]
    assert call.mentioned == [user.id]
    [allowed] = call.allowed_mentions
    assert allowed is not None
    assert [int(u) for u in allowed["users"]] == [user.id]
    assert allowed.get("parse") == [], "no @everyone, no role"
    assert not allowed.get("replied_user")


async def test_the_player_to_act_is_called_after_the_grace_period_not_before(harness: Any) -> None:
    game, first, _ = await texas_heads_up(harness, "15")
    game.clock.advance(14)
    await harness.settle()
    assert calls(harness) == [], "no call before the grace period"
    game.clock.advance(1)
    call = await called(harness, first)
    assert_only_pings(call, first)
    assert call.content == f"<@{first.id}>, tocca a te (mano n. 1)."
    # Nothing else the bot sent pinged anyone.
    others = [m for m in harness.fake.store.values() if m.notified and m is not call]
    assert others == []
    game.clock.advance(20)
    await harness.settle()
    assert len(every_call(harness)) == 1, "at most one call per turn"
    await game.say(first, "vedo")
    await harness.fake.wait_for(lambda: call.deleted, "the call to go when he acts")
    assert calls(harness) == []
    game.finish()


@pytest.mark.parametrize(
    ("variant", "deck"),
    [
        ("italiana", stacked(["Jh Js 9c Td Ah", "9h 9d Qc Kd As"], "Th Jd Qh Kh Ac")),
        ("32carte", stacked(["7s 8d 9c Qs Jd", "7d 8h 9h Js Kc"], "As Ah Ad")),
        ("texas", HEADS_UP_TEXAS),
    ],
)
async def test_avviso_zero_calls_at_once_and_the_call_follows_the_turn(
    harness: Any, variant: str, deck: list[Any]
) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    users = {alice.id: alice, bob.id: bob}
    game = Game(harness)
    await game.open(alice, variant, [alice, bob], avviso="0")
    await game.start(alice, deck)
    first = users[game.table.to_act]
    call = await called(harness, first)
    assert_only_pings(call, first)
    assert call.id > game.message.id, "the call comes after the hand's table message"
    await game.say(first, "passo")  # italiana: he does not open; the others: he folds
    await harness.fake.wait_for(lambda: call.deleted, "the first call to go")
    if game.table.hand_running:
        second = users[game.table.to_act]
        assert second is not first
        assert_only_pings(await called(harness, second), second)
        await game.say(second, "passo")
    await harness.settle()
    assert not game.table.hand_running
    assert calls(harness) == [], "the hand is over: no call stays"
    game.finish()


async def test_a_timeout_and_the_end_of_the_hand_take_the_call_away(harness: Any) -> None:
    game, first, _ = await texas_heads_up(harness, "0")
    call = await called(harness, first)
    await game.expire()  # he does not answer in time (rules §5.5): folded, the hand ends heads-up
    await harness.fake.wait_for(lambda: call.deleted, "the call to go at the timeout")
    assert not game.table.hand_running and calls(harness) == []
    game.finish()


async def test_avviso_off_never_calls(harness: Any) -> None:
    game, _, _ = await texas_heads_up(harness, "off")
    game.clock.advance(59)
    await harness.settle()
    assert every_call(harness) == []
    game.finish()


async def test_a_bad_avviso_is_refused_privately(harness: Any) -> None:
    reply = await harness.slash(harness.user("alice"), "tavolo nuovo", variante="texas", avviso="presto")
    assert reply.ephemeral and reply.content == BAD_PING
    assert harness.bot.tables.get(harness.channel("poker").id) is None


async def test_avvisi_turns_a_players_calls_off_and_on(harness: Any) -> None:
    game, first, second = await texas_heads_up(harness, "0")
    call = await called(harness, first)
    off = await harness.slash(first, "avvisi", stato="off")
    assert off.ephemeral and "Avvisi spenti" in off.content and off.message.notified == []
    await harness.fake.wait_for(lambda: call.deleted, "his call to go when he turns calls off")
    await game.say(first, "vedo")
    assert_only_pings(await called(harness, second), second)  # the others are still called
    await game.say(second, "paròl")  # the flop: heads-up, the big blind speaks first
    assert_only_pings(await called(harness, second), second)
    await game.say(second, "paròl")
    assert game.table.to_act == first.id  # his turn again, and no call for him
    await harness.settle()
    assert calls(harness) == []
    assert await harness.bot.storage.turn_calls(harness.guild_id, first.id) is False
    on = await harness.slash(first, "avvisi")  # without a choice: switch
    assert on.ephemeral and "Avvisi attivi" in on.content
    await game.say(first, "paròl")
    await game.say(second, "paròl")  # the turn: his turn again, now called
    assert_only_pings(await called(harness, first), first)
    game.finish()


async def test_a_refusal_out_of_turn_pings_nobody(harness: Any) -> None:
    game, _, waiting = await texas_heads_up(harness, "off")
    refused = await harness.slash(waiting, "vedo")
    assert refused.ephemeral and f"<@{game.table.to_act}>" in refused.content
    assert refused.message.notified == []
    game.finish()


async def test_a_restart_takes_the_call_away(harness: Any) -> None:
    game, first, _ = await texas_heads_up(harness, "0")
    call = await called(harness, first)
    await harness.restart()
    assert call.deleted and call.deleted_by == "bot"
    game.finish()


async def test_a_call_left_by_a_crash_is_taken_away_by_the_next_start(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that dies without a clean stop cannot delete its call; the next start does, from the
    note it kept in the database (bot/storage/shown_calls.py)."""
    game, first, _ = await texas_heads_up(harness, "0")
    call = await called(harness, first)
    assert await harness.bot.storage.turn_calls_left() == [(call.channel_id, call.id)]

    async def died(self: TurnCalls, channel_id: int, message_id: int) -> None:
        return None  # the process is gone before it can delete anything

    with monkeypatch.context() as crash:
        crash.setattr(TurnCalls, "_delete", died)
        await harness.close()
    assert not call.deleted, "the call is still in the channel"
    await harness.start()
    game.use_clock()
    await harness.fake.wait_for(lambda: call.deleted, "the call left behind to be taken away")
    assert call.deleted_by == "bot"
    await harness.fake.wait_for(
        lambda: not harness.bot.sessions.calls._tasks, "the sweep to forget the call it deleted"
    )
    assert await harness.bot.storage.turn_calls_left() == []
    game.finish()


async def test_a_call_whose_note_fails_still_goes_with_the_turn(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The note of a call is for a start after a crash only: a database that refuses it (here a raw
    driver error, not a StorageError) changes nothing at the table, and the call still goes."""

    async def broken(*args: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(harness.bot.storage, "note_turn_call", broken)
    game, first, _ = await texas_heads_up(harness, "0")
    call = await called(harness, first)
    await game.expire()
    await harness.fake.wait_for(lambda: call.deleted, "the call to go at the timeout")
    assert not game.table.hand_running and calls(harness) == []
    game.finish()


async def test_a_computer_player_is_never_called(harness: Any) -> None:
    alice = harness.user("alice")
    await open_with_computers(harness, alice, "texas", ("esperto",), avviso="0")
    quick(harness, pause=30.0)  # the computer thinks for a long time: a call would have its chance
    clock = harness.bot.sessions.timers.clock
    await harness.slash(alice, "tavolo inizia", channel="poker")
    live = live_of(harness)
    if live.table.to_act == alice.id:
        assert_only_pings(await called(harness, alice), alice)
        await harness.slash(alice, "vedo", channel="poker")
    await harness.fake.wait_for(lambda: computers.is_computer(live.table.to_act or 0), "the computer's turn")
    clock.advance(10)
    await harness.settle()
    assert calls(harness) == [], "nobody is called while a computer thinks"
    assert all(m.notified in ([], [alice.id]) for m in harness.fake.store.values())


async def test_a_table_message_deleted_during_a_turn_is_back_with_the_call(harness: Any) -> None:
    """A moderator deletes the table message while the player to act is thinking: nothing changes at
    the table, so nothing would edit it before his time runs out. His call (after the grace period)
    checks it, and the renderer posts it again with his buttons, well before the timeout."""
    game, first, _ = await texas_heads_up(harness, "15")
    old = game.message
    await harness.fake.delete_message(old)
    game.clock.advance(15)
    await called(harness, first)
    await harness.fake.wait_for(lambda: game.live.message_id != old.id, "the table message posted again")
    await harness.settle()
    assert game.table.to_act == first.id, "his turn is still running"
    assert "Passo" in {c.get("label") for c in game.message.components}, "his buttons are back"
    game.finish()
