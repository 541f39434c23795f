"""Sharding as Discord does it: GET /gateway/bot names the shard count, each connection identifies as one
shard and hears only its guilds' events; the fake also runs as its own process, driven over HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from fakediscord import ControlClient, FakeDiscord, RunningClient, point_discord_py_at, start_client

REPO = Path(__file__).resolve().parents[2]


class ShardClient(discord.AutoShardedClient):
    """A client holding some shards of two; it records the interactions it hears and answers /ping."""

    def __init__(self, shard_ids: list[int], *, with_tree: bool = False) -> None:
        super().__init__(
            intents=discord.Intents.default(), shard_ids=shard_ids, shard_count=2, guild_ready_timeout=0.05
        )
        self.heard: list[int] = []
        self.tree: app_commands.CommandTree[ShardClient] | None = None
        if with_tree:
            self.tree = app_commands.CommandTree(self)

            @self.tree.command(name="ping", description="Which shard answers")
            async def ping(interaction: discord.Interaction) -> None:
                shard = interaction.guild.shard_id if interaction.guild else 0
                await interaction.response.send_message(f"pong dallo shard {shard}")

    async def setup_hook(self) -> None:
        if self.tree is not None:
            await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.heard.append(interaction.id)


@pytest.fixture
def sharded(two_shards: FakeDiscord) -> FakeDiscord:
    """The two-shard fake (conftest), with discord.py pointed at it for the bare clients here."""
    point_discord_py_at(two_shards.api_base, two_shards.gateway_url)
    return two_shards


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, *clients: discord.Client) -> AsyncIterator[list[RunningClient]]:
    started: list[RunningClient] = []
    try:
        for client in clients:
            started.append(await start_client(fake, client))
        yield started
    finally:
        for run in reversed(started):
            await run.close()


async def test_gateway_bot_tells_the_configured_shard_count(sharded: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http, http.get(sharded.api_base + "/gateway/bot") as response:
        body = await response.json()
    assert body["shards"] == 2
    assert body["url"].startswith("ws://127.0.0.1:")
    assert body["session_start_limit"]["max_concurrency"] == 1


async def test_each_shard_hears_only_its_guilds(sharded: FakeDiscord) -> None:
    first, second = ShardClient([0]), ShardClient([1])
    async with running(sharded, first, second):
        assert sorted(tuple(i["shard"]) for i in sharded.identifies) == [(0, 2), (1, 2)]
        by_shard = {0: first, 1: second}
        altro = sharded.channel("altro").guild_id
        assert altro is not None
        for guild_id in (sharded.guild_id, altro):
            owner = by_shard[(guild_id >> 22) % 2]
            assert [g.id for g in owner.guilds] == [guild_id]
        alice = sharded.user("alice")
        here = sharded.open_interaction(alice, "poker")
        there = sharded.open_interaction(alice, "altro")
        dm = sharded.open_interaction(alice, "dm")
        for rec in (here, there, dm):
            await sharded.dispatch("INTERACTION_CREATE", rec.payload)
        await sharded.wait_for(lambda: len(first.heard) + len(second.heard) == 3, "three interactions")
        assert by_shard[sharded.shard_of(sharded.guild_id)].heard.count(here.id) == 1
        assert by_shard[sharded.shard_of(altro)].heard.count(there.id) == 1
        assert dm.id in first.heard  # direct messages arrive on shard 0
        assert sorted(first.heard + second.heard) == sorted([here.id, there.id, dm.id])


async def test_a_resumed_shard_keeps_its_guilds(sharded: FakeDiscord) -> None:
    first, second = ShardClient([0]), ShardClient([1])
    async with running(sharded, first, second):
        await sharded.drop_gateway(4000, shard=1)
        await sharded.wait_for(lambda: sharded.resumes, "shard 1 to resume")
        on_shard_1 = next(c for c in ("poker", "altro") if sharded.shard_of(sharded.channel(c).guild_id) == 1)
        rec = sharded.open_interaction(sharded.user("bob"), on_shard_1)
        await sharded.dispatch("INTERACTION_CREATE", rec.payload)
        await sharded.wait_for(lambda: rec.id in second.heard, "the interaction on the resumed shard")
        assert len(sharded.identifies) == 2


# ---------------------------------------------------------------------- the fake as its own process


async def test_a_standalone_fake_serves_clients_of_every_shard_and_is_driven_over_http(
    standalone_fake: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", gateway.DEFAULT_GATEWAY)
    async with ControlClient(standalone_fake) as control:
        state = await control.state()
        assert sorted(g["shard"] for g in state["guilds"]) == [0, 1]
        point_discord_py_at(state["api_base"], state["gateway_url"])
        clients = [ShardClient([0], with_tree=True), ShardClient([1], with_tree=True)]
        tasks: list[asyncio.Task[None]] = []
        try:
            for client in clients:
                await client.login("fake-token")
                tasks.append(asyncio.get_running_loop().create_task(client.connect()))
            for _ in range(200):
                if all(c.is_ready() for c in clients):
                    break
                await asyncio.sleep(0.02)
            assert all(c.is_ready() for c in clients)
            assert sorted((await control.state())["connected"]) == [[0, 2], [1, 2]]
            answers = {}
            for guild in state["guilds"]:
                reply: dict[str, Any] = await control.slash("alice", "ping", channel=guild["channels"][0])
                answers[guild["shard"]] = reply["content"]
            assert answers == {0: "pong dallo shard 0", 1: "pong dallo shard 1"}
            [posted] = await control.messages(state["guilds"][0]["channels"][0])
            assert posted["content"].startswith("pong")
            with pytest.raises(AssertionError, match="not synced"):
                await control.slash("alice", "nessuno")
            assert (await control.state())["violations"] == []
        finally:
            for client in clients:
                await client.close()
            await asyncio.gather(*tasks, return_exceptions=True)
