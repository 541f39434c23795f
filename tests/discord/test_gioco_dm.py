"""Hole cards by DM: each player's DM channel is opened once, however many hands he plays; a DM Discord
fails is sent again in the background, and the table does not call it undelivered meanwhile."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.session import DM
from tests.discord.gioco_support import Game, bob_declares_three

OPEN_DM = ("POST", "/users/@me/channels")


async def test_a_players_dm_channel_is_opened_once_for_many_hands(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    users = {alice.id: alice, bob.id: bob}
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], cip=10)
    before = len(harness.rest_calls)
    state = harness.bot._connection
    for _ in range(3):
        # What discord.py does to all but its 128 most recent DM channels on a busy bot.
        state._private_channels.clear()
        state._private_channels_by_user.clear()
        start = await game.start(alice, message=None if game.hands == [] else game.message)
        assert not start.ephemeral
        await game.say(users[game.table.to_act], "passo")
        assert not game.table.hand_running
    calls = harness.rest_calls[before:]
    assert calls.count(OPEN_DM) == 2, "one DM channel per player, not one per hand"
    assert len(harness.dms(alice)) == len(harness.dms(bob)) == 3, "each hand still deals by DM"
    game.finish()


async def test_a_dm_of_an_earlier_hand_that_fails_is_not_blamed_on_the_hand_now(harness: Any) -> None:
    """DMs go out after the table's lock, and discord.py may wait out rate limits for seconds: a DM of
    the last hand that fails once the next hand is dealt says nothing of the cards of this one."""
    alice, bob = harness.user("alice"), harness.user("bob")
    users = {alice.id: alice, bob.id: bob}
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], cip=10)
    await game.start(alice)
    first = DM(bob.id, "Le tue carte della mano 1", None, hand=1)
    await game.say(users[game.table.to_act], "passo")
    await game.start(alice, message=game.message)
    harness.close_dms(bob)
    await harness.bot.sessions.deliver(game.live.channel_id, [first])
    assert not game.session.dm_failed, "his cards of this hand did reach him"
    current = DM(bob.id, "Le tue carte della mano 2", None, hand=2)
    await harness.bot.sessions.deliver(game.live.channel_id, [current])
    assert game.session.dm_failed == {bob.id}, "a DM of this hand that fails is on the table message"
    game.finish()


async def one_texas_hand_played(harness: Any) -> tuple[Game, Any, Any, dict[int, Any]]:
    """Alice and Bob at a texas table after one hand (over at the first word): each got his cards by
    DM once, so his DM channel is open. The game, alice, bob, and the users by id."""
    alice, bob = harness.user("alice"), harness.user("bob")
    users = {alice.id: alice, bob.id: bob}
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], cip=10)
    await game.start(alice)
    await game.say(users[game.table.to_act], "passo")
    assert len(harness.dms(bob)) == 1
    return game, alice, bob, users


async def test_a_dm_that_meets_one_503_is_sent_again(harness: Any) -> None:
    """discord.py retries a 500, 502 or 504 but not a 503 (nor a connection reset on Linux): the bot
    sends a DM Discord failed again, with the renderer's backoff, and the table message never tells
    the channel that his cards were not delivered."""
    game, alice, bob, _ = await one_texas_hand_played(harness)
    harness.fake.fail_next(503, method="POST", channel=harness.fake.dm_channels[bob.id])
    await game.start(alice, message=game.message)
    await harness.fake.wait_for(lambda: len(harness.dms(bob)) == 2, "his cards of hand 2, sent again")
    await harness.settle()
    assert "Carte non consegnate" not in game.message.text(), game.message.text()
    game.finish()


async def test_a_retried_dm_of_a_finished_hand_is_dropped_not_sent_after_the_next_hands_cards(
    harness: Any,
) -> None:
    """A DM Discord failed (one 503) is sent again in the background; if its hand ends and the next
    is dealt first, it is news no more: it is dropped, and the player's latest DM is his cards of the
    hand now, never those of a hand already over."""
    game, alice, bob, users = await one_texas_hand_played(harness)
    harness.bot.sessions.retry_first = 0.3
    harness.fake.fail_next(503, method="POST", channel=harness.fake.dm_channels[bob.id])
    await game.start(alice, message=game.message)  # hand 2: bob's DM meets the 503
    await game.say(users[game.table.to_act], "passo")  # hand 2 over at once
    await game.start(alice, message=game.message)  # hand 3: bob's DM goes at once
    await asyncio.sleep(0.8)  # past the retry
    await harness.settle()
    hands = [m.content.split("mano n. ")[1].split(".")[0] for m in harness.dms(bob)]
    assert hands == ["1", "3"], hands
    assert "Carte non consegnate" not in game.message.text()


async def test_a_retried_deal_dm_is_dropped_once_the_same_hands_draw_dm_went(harness: Any) -> None:
    """Poker tradizionale: the deal's DM meets one 503 and is to be sent again; the draw's DM of the
    same hand (the whole new hand) goes first: the old one is dropped, so the player's DMs never end
    on the five cards he no longer holds, with positions for a /cambio already made."""
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    harness.bot.sessions.retry_first = 0.3
    harness.fake.fail_next(503, method="POST", channel=harness.fake.dm_channel(bob))
    await bob_declares_three(game, alice, bob)
    await game.say(alice, "servito")
    await asyncio.sleep(0.8)  # past the retry
    await harness.settle()
    texts = [m.content for m in harness.dms(bob)]
    assert texts and "Dopo il cambio" in texts[-1], texts
    game.finish()
