"""Fixtures for end-to-end tests: the real discord.py client against the loopback fake Discord.

Contract (DESIGN.md, tests/): `harness` is a running PokerBot on a fresh fake and a fresh database;
`fake_discord` + `run_client` run any client. Additions to the contract, not changes:
- `harness_factory(**settings_overrides)` builds a harness with other Settings values;
- `r.components` is the flattened list of interactive component dicts; `r.component(label=...)` finds one;
  `r.followups`, `r.posted` (other messages created meanwhile), `r.data` (the raw callback data);
- `harness.slash` raises `CommandHidden` when Discord would not offer the command (not synced, missing
  `default_member_permissions`, guild command in DMs) and TypeError/ValueError for options Discord's
  own client refuses (unknown, missing required, outside choices or min/max);
- `channel="dm"` runs a command in the user's DM with the bot; the default channel is "poker";
- a test fails at teardown when the bot called a REST route the fake does not implement
  (`fake.unhandled`), or broke one of Discord's strict rules (`fake.violations`: a late or second
  initial response, an oversized payload or autocomplete answer, commands Discord would not register, a
  private follow-up on a public defer, a token used after 15 minutes; see fakediscord/rules.py); clear
  the list in the test if that is what it wants;
- `fake.rules` switches those rules and the rate limits per test; `fake.fail_next(...)` and
  `fake.throttle(channel, seconds)` inject 429s, 5xx and dropped connections;
- `harness.rest_calls` holds (method, route template) with discord.py's own placeholder names, e.g.
  ("POST", "/channels/{channel_id}/messages"), ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/
  {message_id}"); `fake.rest_log` has the concrete paths and statuses;
- `harness.fake` is the FakeDiscord: `wait_for(predicate, what)` waits on bot state (bounded, fails fast
  on a bot ERROR), `settle()` waits until the bot is quiet, `drop_gateway(code)` cuts the connection;
- `harness.messages(channel, include_ephemeral=True)` also lists ephemeral messages; ephemeral messages
  and DMs never appear in `public_texts()`.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from fakediscord import ErrorWatch, FakeDiscord, RunningClient, start_client
from fakediscord.harness import Harness
from tests.storage.conftest import BACKENDS, new_database

RunClient = Callable[..., Awaitable[RunningClient]]


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A fresh fake on 127.0.0.1; ERROR logs from discord/bot/cogs and unimplemented routes fail the test."""
    async for fake in _watched(monkeypatch, FakeDiscord()):
        yield fake


@pytest.fixture
async def two_shards(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A fake of two shards: "poker" in the first guild, "altro" in a guild on the other shard; the
    same checks as `fake_discord`."""
    fake = FakeDiscord(shards=2)
    fake.add_guild("Altro circolo", channels=("altro",), shard=1 - fake.shard_of(fake.guild_id))
    async for started in _watched(monkeypatch, fake):
        yield started


async def _watched(monkeypatch: pytest.MonkeyPatch, fake: FakeDiscord) -> AsyncIterator[FakeDiscord]:
    # Whoever points discord.py elsewhere during the test, the two class attributes are restored after it.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", gateway.DEFAULT_GATEWAY)
    await fake.start()
    watch = ErrorWatch(fake)
    watch.install()
    try:
        yield fake
    finally:
        watch.remove()
        await fake.stop()
    problems = []
    late = watch.check()
    if late:
        problems.append(late)
    if fake.unhandled:
        problems.append(f"the bot called routes the fake does not implement: {fake.unhandled}")
    if fake.violations:
        problems.append("the bot broke Discord's rules:\n" + "\n".join(fake.violations))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture
async def run_client(fake_discord: FakeDiscord) -> AsyncIterator[RunClient]:
    """`await run_client(client)`: log any discord.py client in to the fake and wait until it is ready."""
    from fakediscord import point_discord_py_at

    started: list[RunningClient] = []

    async def run(client: discord.Client, *, token: str = "fake-token") -> RunningClient:
        point_discord_py_at(fake_discord.api_base, fake_discord.gateway_url)
        running = await start_client(fake_discord, client, token=token)
        started.append(running)
        return running

    yield run
    for running in reversed(started):
        if not running.closing:
            await running.close()


@pytest.fixture
async def harness_factory(
    fake_discord: FakeDiscord, tmp_path: Path
) -> AsyncIterator[Callable[..., Awaitable[Harness]]]:
    """`await harness_factory(starting_chips=500)`: a running PokerBot with other Settings values."""
    made: list[Harness] = []

    async def make(**settings: Any) -> Harness:
        harness = Harness(fake_discord, tmp_path / f"poker{len(made) or ''}.sqlite3", **settings)
        made.append(harness)
        await harness.start()
        return harness

    yield make
    for harness in reversed(made):
        await harness.close()


@pytest.fixture
async def harness(harness_factory: Callable[..., Awaitable[Harness]]) -> Harness:
    """A fresh fake, a fresh database file, a running PokerBot."""
    return await harness_factory()


@pytest.fixture(params=BACKENDS)
async def backend_factory(
    request: pytest.FixtureRequest, harness_factory: Callable[..., Awaitable[Harness]], tmp_path: Path
) -> Callable[..., Awaitable[Harness]]:
    """`harness_factory` on each backend: the SQLite file, and a fresh PostgreSQL database, where the
    bot claims its shard and owns its tables by a token each start renews."""
    if request.param == "sqlite":
        return harness_factory
    return await _on_postgres(request, harness_factory, tmp_path)


async def _on_postgres(
    request: pytest.FixtureRequest, harness_factory: Callable[..., Awaitable[Harness]], tmp_path: Path
) -> Callable[..., Awaitable[Harness]]:
    db = await new_database(request, "postgresql", tmp_path)

    async def make(**settings: Any) -> Harness:
        return await harness_factory(database_url=db.target, **settings)

    return make


@pytest.fixture
async def postgres_harness(
    request: pytest.FixtureRequest, harness_factory: Callable[..., Awaitable[Harness]], tmp_path: Path
) -> Harness:
    """`harness` with the chips in a fresh PostgreSQL database only."""
    return await (await _on_postgres(request, harness_factory, tmp_path))()


@pytest.fixture
async def backend_harness(backend_factory: Callable[..., Awaitable[Harness]]) -> Harness:
    """`harness` on each backend (`backend_factory`)."""
    return await backend_factory()


@pytest.fixture
def standalone_fake() -> Iterator[str]:
    """`python -m fakediscord` in a child process, two shards and a guild on each: its base URL,
    from the first line it prints. It must stop cleanly on SIGTERM."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "fakediscord", "--port", "0", "--shards", "2", "--guilds", "2"],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), f"the fake printed {url!r}"
        yield url
    finally:
        proc.terminate()
        try:
            assert proc.wait(timeout=10) == 0, "the fake did not stop cleanly on SIGTERM"
        finally:
            if proc.poll() is None:
                proc.kill()
