"""Hole cards by DM: each player's DM channel is opened once, however many hands he plays."""

from __future__ import annotations

from typing import Any

from tests.discord.gioco_support import Game

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
