"""Which client carries the bot's REST calls: bot/transport.py by default, discord.py's own on request.

Every other Discord test runs on the default, so the whole game is played through the transport;
these say so, and that ``DISCORD_REST_CLIENT=aiohttp`` (the way back for an operator) plays the same.
"""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from bot import transport
from tests.discord.gioco_support import heads_up

SYNC = "/applications/{application_id}/guilds/{guild_id}/commands"


async def play_a_hand(harness: Any) -> None:
    """A heads-up hand: the deal (the table message, cards DMs with pictures), a command, a click."""
    game, alice, bob = await heads_up(harness)
    assert all(harness.dms(user) for user in (alice, bob)), "each player has his cards"
    await game.say(bob, "apro", importo="cip")
    await game.click(alice, "Passo")
    assert not game.table.hand_running
    assert f"<@{alice.id}> passa." in game.message.content
    game.finish()


async def test_by_default_the_calls_go_through_the_transport(harness: Any) -> None:
    session = harness.bot.http._HTTPClient__session
    assert isinstance(session, transport.Session)
    await play_a_hand(harness)
    assert session._origins and all(not c.closed for o in session._origins.values() for c in o.idle)


async def test_with_aiohttp_the_calls_are_discord_pys_own(harness_factory: Any) -> None:
    harness = await harness_factory(rest_client="aiohttp")
    assert type(harness.bot.http._HTTPClient__session) is aiohttp.ClientSession
    await play_a_hand(harness)


@pytest.mark.parametrize("rest_client", ["lean", "aiohttp"])
async def test_one_dropped_connection_on_the_command_sync_does_not_stop_the_start(
    fake_discord: Any, harness_factory: Any, rest_client: str
) -> None:
    # The first request after login is the PUT that registers the commands, on a new connection:
    # dropped unanswered, it is sent once more (an idempotent request), and the bot starts.
    fake_discord.fail_next("drop", method="PUT", route=SYNC)
    harness = await harness_factory(rest_client=rest_client)
    assert harness.bot.is_ready()
    assert [call for call in fake_discord.rest_calls if call == ("PUT", SYNC)] == [("PUT", SYNC)] * 2
