"""The sharded bot in this process against a fake of two shards: `ShardedPokerBot` runs one gateway
connection per shard and serves the tables of its shards' servers only; an interaction that reaches it
for a server of another shard (a shard that moved) is refused privately and changes nothing."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import PokerBot, ShardedPokerBot, create_bot
from bot.config import Settings
from bot.tree import SERVED_ELSEWHERE
from fakediscord import FakeDiscord, RunningClient, point_discord_py_at, start_client
from fakediscord.harness import DEFAULT_SETTINGS


def sharded_settings(fake: FakeDiscord, tmp_path: Path, shard_ids: tuple[int, ...]) -> Settings:
    # Global commands (no DEV_GUILD_ID): both servers must see them.
    values = DEFAULT_SETTINGS | {
        "database_path": tmp_path / "poker.sqlite3",
        "api_base": fake.api_base,
        "gateway_url": fake.gateway_url,
        "shard_count": 2,
        "shard_ids": shard_ids,
    }
    return Settings(**values)


async def run_bot(fake: FakeDiscord, settings: Settings) -> RunningClient:
    point_discord_py_at(fake.api_base, fake.gateway_url)
    bot = create_bot(settings, guild_ready_timeout=0.05)

    async def at_once(shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s between two IDENTIFYs (Discord's rate limit); the fake has none."""

    bot.before_identify_hook = at_once  # type: ignore[method-assign]
    return await start_client(fake, bot, token=settings.token)


def test_create_bot_shards_only_when_asked(tmp_path: Path) -> None:
    plain = Settings(token="t", database_path=tmp_path / "p.sqlite3")
    assert type(create_bot(plain)) is PokerBot
    sharded = Settings(token="t", database_path=tmp_path / "p.sqlite3", shard_count=4, shard_ids=(1, 3))
    bot = create_bot(sharded)
    assert isinstance(bot, ShardedPokerBot) and isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 4 and bot.shard_ids == [1, 3]
    on = {shard: ((1000 + shard) << 22) | 12345 for shard in range(4)}  # Discord's (id >> 22) % count
    assert [bot.serves_guild(on[shard]) for shard in range(4)] == [False, True, False, True]
    assert all(create_bot(plain).serves_guild(g) for g in on.values())


async def test_one_process_serves_the_tables_of_both_shards(two_shards: FakeDiscord, tmp_path: Path) -> None:
    fake = two_shards
    running = await run_bot(fake, sharded_settings(fake, tmp_path, (0, 1)))
    try:
        bot: Any = running.client
        assert sorted(tuple(i["shard"]) for i in fake.identifies) == [(0, 2), (1, 2)]
        alice, bob = fake.user("alice"), fake.user("bob")
        for channel in ("poker", "altro"):
            opened = await fake.slash(alice, "tavolo nuovo", channel=channel, variante="texas")
            assert not opened.ephemeral, opened.content
            for user in (alice, bob):
                await fake.slash(user, "tavolo siedi", channel=channel, buyin=200)
            started = await fake.slash(bob, "tavolo inizia", channel=channel)
            assert "Mano n. 1" in started.content
        rows = await bot.storage.open_tables()
        assert {fake.shard_of(row.guild_id) for row in rows} == {0, 1}
        assert [row.last_hand_status for row in rows] == ["running", "running"]
        assert await bot.storage.check() == []
    finally:
        await running.close()


async def test_an_interaction_for_another_shards_server_is_refused_privately(
    two_shards: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = two_shards
    mine = fake.shard_of(fake.guild_id)
    running = await run_bot(fake, sharded_settings(fake, tmp_path, (mine,)))
    try:
        bot: Any = running.client
        assert [tuple(i["shard"]) for i in fake.identifies] == [(mine, 2)]
        alice = fake.user("alice")
        served = await fake.slash(alice, "tavolo nuovo", channel="poker", variante="texas")
        assert not served.ephemeral, served.content
        # The shard of "altro" moved here: its events arrive on this process's only connection.
        dispatch = fake.dispatch

        async def misrouted(event: str, data: Any, *, guild_id: Any = "auto") -> float:
            return await dispatch(event, data, guild_id=fake.guild_id)

        monkeypatch.setattr(fake, "dispatch", misrouted)
        refused = await fake.slash(alice, "tavolo nuovo", channel="altro", variante="texas")
        assert refused.ephemeral and refused.content == SERVED_ELSEWHERE
        balance = await fake.slash(alice, "saldo", channel="altro")
        assert balance.ephemeral and balance.content == SERVED_ELSEWHERE
        here = await fake.slash(alice, "saldo", channel="poker")
        assert here.ephemeral and here.content != SERVED_ELSEWHERE
        rows = await bot.storage.open_tables()
        assert [row.channel_id for row in rows] == [fake.channel("poker").id]

        # This process's own shard moves away while a hand runs: a click on its table is refused too.
        bob = fake.user("bob")
        for user in (alice, bob):
            await fake.slash(user, "tavolo siedi", channel="poker", buyin=200)
        started = await fake.slash(bob, "tavolo inizia", channel="poker")
        live = bot.tables.get(fake.channel("poker").id)
        before = live.view()
        bot.settings = dataclasses.replace(bot.settings, shard_ids=(1 - mine,))
        to_act = {alice.id: alice, bob.id: bob}[before.to_act]
        clicked = await fake.click(to_act, started, label="Passo")
        assert clicked.ephemeral and clicked.content == SERVED_ELSEWHERE
        assert live.view() == before and live.table.hand_running
    finally:
        await running.close()


async def test_one_shard_of_one_connects_like_discord_says(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """IDENTIFY with shard [0, 1] gets a READY naming that shard, as Discord's does (discord.py's
    sharded client reads it), and the bot then serves its only server."""
    settings = dataclasses.replace(sharded_settings(fake_discord, tmp_path, (0,)), shard_count=1)
    running = await run_bot(fake_discord, settings)
    try:
        assert [i["shard"] for i in fake_discord.identifies] == [[0, 1]]
        reply = await fake_discord.slash(fake_discord.user("alice"), "saldo", channel="poker")
        assert (
            reply.ephemeral and reply.content != SERVED_ELSEWHERE and "1000" in reply.content.replace(".", "")
        )
    finally:
        await running.close()


async def test_a_process_restores_only_the_tournaments_of_its_shards(
    two_shards: FakeDiscord, tmp_path: Path
) -> None:
    """Announced tournaments in both servers; the next start on one shard takes back its own only."""
    fake = two_shards
    running = await run_bot(fake, sharded_settings(fake, tmp_path, (0, 1)))
    try:
        for channel in ("poker", "altro"):
            announced = await fake.slash(
                fake.user("alice"), "torneo nuovo", channel=channel, variante="texas"
            )
            assert not announced.ephemeral, announced.content
    finally:
        await running.close()
    mine = fake.shard_of(fake.guild_id)
    running = await run_bot(fake, sharded_settings(fake, tmp_path, (mine,)))
    try:
        bot: Any = running.client
        assert bot.tournaments.get(fake.channel("poker").id) is not None
        assert bot.tournaments.get(fake.channel("altro").id) is None
    finally:
        await running.close()
