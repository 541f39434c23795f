"""The fake's rate limits speak Discord's headers well enough for discord.py to pace and retry by itself,
and its injected faults (429, 5xx, dropped connections, a throttled channel) reach the client as on Discord.

Windows are shrunk to fractions of a second through `fake.rules`; the limiter's clock is injectable
(`fake.limiter.clock`) where a test needs exact control.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from fakediscord import FakeDiscord
from fakediscord.ratelimit import Outcome

MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def http(fake_discord: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(base_url=f"http://127.0.0.1:{fake_discord.port}/") as session:
        yield session


@pytest.fixture
async def channel(fake_discord: FakeDiscord, run_client: Any) -> discord.TextChannel:
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    await run_client(client)
    found = client.get_channel(fake_discord.channel("poker").id)
    assert isinstance(found, discord.TextChannel)
    return found


def statuses(fake: FakeDiscord, method: str, path_part: str) -> list[int]:
    return [status for m, path, status in fake.rest_log if m == method and path.endswith(path_part)]


async def test_a_channel_bucket_answers_429_with_discords_headers_and_body(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    clock = Clock()
    fake_discord.limiter.clock = clock
    fake_discord.rules.rate_limits = True
    fake_discord.rules.channel_bucket = (5, 5.0)  # Discord's numbers: the clock is ours
    poker, sala = fake_discord.channel("poker").id, fake_discord.channel("sala-vip").id
    seen = []
    for n in range(5):
        async with http.post(f"api/v10/channels/{poker}/messages", json={"content": str(n)}) as response:
            assert response.status == 200
            seen.append(response.headers["X-RateLimit-Remaining"])
            assert response.headers["X-RateLimit-Limit"] == "5"
            assert float(response.headers["X-RateLimit-Reset-After"]) == 5.0
            assert float(response.headers["X-RateLimit-Reset"]) > 0
            bucket = response.headers["X-RateLimit-Bucket"]
    assert seen == ["4", "3", "2", "1", "0"]
    clock.now += 1.5
    async with http.post(f"api/v10/channels/{poker}/messages", json={"content": "6"}) as response:
        assert response.status == 429
        body = await response.json()
        assert body["message"] == "You are being rate limited."
        assert body["retry_after"] == pytest.approx(3.5) and body["global"] is False
        assert response.headers["Retry-After"] == "4"
        assert response.headers["X-RateLimit-Scope"] == "user"
        assert response.headers["X-RateLimit-Bucket"] == bucket
        assert response.headers["X-RateLimit-Remaining"] == "0"
    # Another channel has a bucket of its own; edits have theirs.
    async with http.post(f"api/v10/channels/{sala}/messages", json={"content": "x"}) as response:
        assert response.status == 200
    first = fake_discord.messages("poker")[0]
    async with http.patch(f"api/v10/channels/{poker}/messages/{first.id}", json={"content": "e"}) as response:
        assert response.status == 200 and response.headers["X-RateLimit-Bucket"] != bucket
    clock.now += 3.5
    async with http.post(f"api/v10/channels/{poker}/messages", json={"content": "6"}) as response:
        assert response.status == 200
    assert len(fake_discord.messages("poker")) == 6


async def test_the_global_limit_spares_interaction_responses(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    clock = Clock()
    fake_discord.limiter.clock = clock
    fake_discord.rules.rate_limits = True
    fake_discord.rules.global_bucket = (50, 1.0)
    for _ in range(50):
        async with http.get("api/v10/users/@me") as response:
            assert response.status == 200
    async with http.get("api/v10/users/@me") as response:
        assert response.status == 429
        body = await response.json()
        assert body["global"] is True and body["retry_after"] == pytest.approx(1.0)
        assert response.headers["X-RateLimit-Global"] == "true"
        assert response.headers["X-RateLimit-Scope"] == "global"
    rec = fake_discord.open_interaction(fake_discord.user("alice"), "poker")
    path = f"api/v10/interactions/{rec.id}/{rec.token}/callback?with_response=1"
    async with http.post(path, json={"type": 4, "data": {"content": "ok"}}) as response:
        assert response.status == 200
    clock.now += 1.0
    async with http.get("api/v10/users/@me") as response:
        assert response.status == 200


async def test_rate_limits_are_off_by_default(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:
    assert fake_discord.rules.rate_limits is False
    poker = fake_discord.channel("poker").id
    for n in range(8):
        async with http.post(f"api/v10/channels/{poker}/messages", json={"content": str(n)}) as response:
            # Never a 429; the bucket headers are there, as Discord always sends them, for a bucket
            # far larger than anything a test sends.
            assert response.status == 200
            assert int(response.headers["X-RateLimit-Remaining"]) >= 1000


async def test_discord_py_paces_itself_on_the_bucket_headers(
    fake_discord: FakeDiscord, channel: discord.TextChannel
) -> None:
    fake_discord.rules.rate_limits = True
    fake_discord.rules.channel_bucket = (2, 0.2)
    for n in range(5):
        await channel.send(str(n))
    assert [m.content for m in fake_discord.messages("poker")] == ["0", "1", "2", "3", "4"]
    # discord.py read Remaining: 0 and waited for the reset: the fake never had to refuse.
    assert statuses(fake_discord, "POST", "/messages") == [200] * 5


async def test_discord_py_retries_after_429s_and_succeeds(
    fake_discord: FakeDiscord, channel: discord.TextChannel
) -> None:
    fake_discord.fail_next(429, times=2, method="POST", route=MESSAGES, channel="poker", retry_after=0.05)
    message = await channel.send("dopo due 429")
    assert statuses(fake_discord, "POST", "/messages") == [429, 429, 200]
    assert [m.id for m in fake_discord.messages("poker")] == [message.id]


async def test_a_throttled_channel_answers_429_until_the_time_is_up(
    fake_discord: FakeDiscord, channel: discord.TextChannel
) -> None:
    fake_discord.throttle("poker", 0.2)
    await channel.send("rallentato")
    assert statuses(fake_discord, "POST", "/messages") == [429, 200]
    other = channel.guild.get_channel(fake_discord.channel("generale").id)
    assert isinstance(other, discord.TextChannel)
    fake_discord.throttle("poker", 5)
    await other.send("libero")  # only the throttled channel waits
    assert [m.content for m in fake_discord.messages("generale")] == ["libero"]


async def test_a_global_429_holds_every_request_then_they_succeed(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, channel: discord.TextChannel
) -> None:
    fake_discord.rules.rate_limits = True
    fake_discord.rules.global_bucket = (1, 0.2)
    fake_discord.limiter.global_bucket = None
    await channel.send("uno")
    await channel.send("due")  # the second in the window: global 429, discord.py waits and retries
    assert statuses(fake_discord, "POST", "/messages")[-2:] == [429, 200]
    assert [m.content for m in fake_discord.messages("poker")] == ["uno", "due"]


@pytest.mark.parametrize("status", [500, 502])
async def test_a_500_or_502_is_retried_by_discord_py(
    fake_discord: FakeDiscord, channel: discord.TextChannel, status: Outcome
) -> None:
    fake_discord.fail_next(status, method="POST", route=MESSAGES, channel="poker")
    await channel.send("dopo un errore del server")
    assert statuses(fake_discord, "POST", "/messages") == [status, 200]
    assert len(fake_discord.messages("poker")) == 1


async def test_a_503_reaches_the_caller_as_a_server_error(
    fake_discord: FakeDiscord, channel: discord.TextChannel
) -> None:
    fake_discord.fail_next(503, method="POST", route=MESSAGES, channel="poker")
    with pytest.raises(discord.DiscordServerError) as failed:
        await channel.send("mai")
    assert failed.value.status == 503
    assert fake_discord.messages("poker") == []


async def test_a_dropped_connection_reaches_the_caller(
    fake_discord: FakeDiscord, channel: discord.TextChannel
) -> None:
    message = await channel.send("tavolo")
    fake_discord.fail_next("drop", method="PATCH", route=MESSAGE, channel="poker")
    with pytest.raises(aiohttp.ClientError):
        await message.edit(content="perso")
    assert fake_discord.messages("poker")[0].content == "tavolo"
    await message.edit(content="riuscito")  # the next request goes through
    assert fake_discord.messages("poker")[0].content == "riuscito"
