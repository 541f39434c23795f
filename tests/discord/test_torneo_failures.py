"""A tournament goes on through what its machine, Discord and its players do to it: a database driver
error while the prizes are stored or the standings noted, a connection Discord drops while the
tournament posts to its channel, a wall clock stepped back between two hand boundaries, a second
/torneo inizia once it runs. Each used to stop the tournament until the next restart."""

from __future__ import annotations

import sqlite3
import time
import types
from typing import Any

import pytest

from bot import tournaments as bot_tournaments
from tests.discord.torneo_support import STARTING, Torneo, accepted

BUY_IN = 50
MESSAGES = "/channels/{channel_id}/messages"


@pytest.fixture
async def h(harness_factory: Any) -> Any:
    return await harness_factory(tournament_pause=0)


async def balances(h: Any, users: list[Any]) -> list[int]:
    return sorted([await h.bot.storage.balance(h.guild_id, u.id) for u in users])


async def test_the_payout_is_retried_after_a_database_driver_error(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot_tournaments, "PAYOUT_RETRY", 0.05)
    alice, bob = h.user("alice"), h.user("bob")
    real = h.bot.storage.finish_tournament
    attempts = 0

    async def locked_once(*args: Any, **kwargs: Any) -> Any:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise sqlite3.OperationalError("database is locked")  # a driver error, not a refusal
        return await real(*args, **kwargs)

    monkeypatch.setattr(h.bot.storage, "finish_tournament", locked_once)
    game = Torneo(h)
    # 10 chips against a big blind of 20: everyone is all-in at every deal, the tournament plays out.
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2, cip=20, fiches=10)
    await game.join([alice, bob])
    await h.fake.wait_for(lambda: game.run is None, "the tournament paid and its channel free")
    assert attempts == 2
    assert await balances(h, [alice, bob]) == [STARTING - BUY_IN, STARTING + BUY_IN]
    assert any("Classifica finale" in text for text in h.public_texts())
    assert await h.bot.storage.check() == []


async def test_a_driver_error_noting_the_standings_still_frees_the_channel(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = h.user("alice"), h.user("bob")

    async def locked(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(h.bot.storage, "tournament_announced", locked)
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2, cip=20, fiches=10)
    await game.join([alice, bob])
    await h.fake.wait_for(lambda: any("Classifica finale" in t for t in h.public_texts()), "the standings")
    await h.fake.wait_for(lambda: game.run is None, "the channel free")
    again = await h.slash(alice, "torneo nuovo", variante="texas")
    assert accepted(again), again.content


async def test_a_dropped_connection_on_the_all_in_text_does_not_stop_the_tournament(h: Any) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2, cip=20, fiches=10)
    await game.join([alice])
    # The first channel post after the start is the all-in text of hand 1, sent under the table's lock.
    fault = h.fake.fail_next("drop", method="POST", route=MESSAGES, channel="poker")
    await game.join([bob])
    await h.fake.wait_for(lambda: fault.hits, "the dropped post")
    await h.fake.wait_for(lambda: game.run is None, "the end of the tournament")
    assert await balances(h, [alice, bob]) == [STARTING - BUY_IN, STARTING + BUY_IN]


async def test_a_dropped_connection_on_a_level_announcement_does_not_stop_the_tournament(h: Any) -> None:
    users = [h.user(n) for n in ("alice", "bob")]
    game = Torneo(h)
    await game.announce(users[0], "texas", buyin=BUY_IN, posti=2, cip=20, fiches=2000, ritmo=1)
    await game.join(users)
    await h.fake.wait_for(
        lambda: game.live is not None and game.live.message_id in h.fake.store, "hand 1's message"
    )
    await h.settle()
    # A level every hand: the end of hand 1 posts the new level, then hand 2 is dealt.
    fault = h.fake.fail_next("drop", method="POST", route=MESSAGES, channel="poker")
    live = game.live
    reply = await h.slash(game.users[live.table.to_act], "passo")
    assert accepted(reply), reply.content
    await h.fake.wait_for(lambda: fault.hits, "the dropped level announcement")
    await h.fake.wait_for(lambda: live.table.hand_number == 2 and live.table.hand_running, "hand 2 dealt")


async def test_a_wall_clock_stepped_back_does_not_stop_a_timed_tournament(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = [h.user(n) for n in ("alice", "bob")]
    game = Torneo(h)
    await game.announce(
        users[0], "texas", buyin=BUY_IN, posti=2, cip=20, fiches=2000, ritmo=5, unita="minuti"
    )
    await game.join(users)
    await h.fake.wait_for(lambda: game.live is not None and game.live.table.hand_running, "hand 1")
    # NTP steps the wall clock 30 s back; the monotonic clock never steps.
    stepped = types.SimpleNamespace(time=lambda: time.time() - 30.0, monotonic=time.monotonic)
    monkeypatch.setattr(bot_tournaments, "time", stepped)
    live = game.live
    reply = await h.slash(game.users[live.table.to_act], "passo")
    assert accepted(reply), reply.content
    await h.fake.wait_for(lambda: live.table.hand_number == 2 and live.table.hand_running, "hand 2 dealt")


async def test_a_second_start_is_refused_and_the_tournament_deals_on(h: Any) -> None:
    users = [h.user(n) for n in ("alice", "bob")]
    game = Torneo(h)
    await game.announce(users[0], "texas", buyin=BUY_IN, posti=2, cip=20, fiches=2000)
    await game.join(users)  # full: it starts by itself
    await h.fake.wait_for(lambda: game.live is not None and game.live.table.hand_running, "hand 1")
    live = game.live
    again = await h.slash(users[0], "torneo inizia")
    assert again.ephemeral and again.content == "Il torneo è già iniziato."
    assert game.live is live, "the running tournament keeps its table"
    reply = await h.slash(game.users[live.table.to_act], "passo")
    assert accepted(reply), reply.content
    await h.fake.wait_for(lambda: live.table.hand_number == 2 and live.table.hand_running, "hand 2 dealt")
