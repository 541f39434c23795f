"""Start-up refusals a host can cause, each one sentence naming the setting and exit status 2 (README
"Settings"): a DEV_GUILD_ID of a server the bot is not in, a DATABASE_URL whose port is no number."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from fakediscord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]
SECRET = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.secret-token-value-for-tests"


@pytest.fixture
async def guildless_proxy(fake_discord: FakeDiscord) -> AsyncIterator[str]:
    """A REST base in front of the fake that answers a guild command sync with 403 Missing Access,
    as Discord does when DEV_GUILD_ID names a server the bot was never invited to."""
    upstream = fake_discord.api_base.rsplit("/api/", 1)[0]
    session = aiohttp.ClientSession()

    async def forward(request: web.Request) -> web.Response:
        path = request.rel_url.path
        if request.method == "PUT" and "/guilds/" in path and path.endswith("/commands"):
            return web.json_response({"message": "Missing Access", "code": 50001}, status=403)
        headers = {k: v for k, v in request.headers.items() if k.lower() not in {"host", "content-length"}}
        async with session.request(
            request.method, upstream + str(request.rel_url), headers=headers, data=await request.read()
        ) as answer:
            body = await answer.read()
            keep = {k: v for k, v in answer.headers.items() if k.lower().startswith(("content-type", "x-"))}
            return web.Response(status=answer.status, body=body, headers=keep)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", forward)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}/api/v10"
    finally:
        await runner.cleanup()
        await session.close()


async def test_a_dev_guild_the_bot_is_not_in_gets_one_sentence_and_exit_2(
    tmp_path: Path, fake_discord: FakeDiscord, guildless_proxy: str
) -> None:
    # Discord refuses the guild command sync (403 Missing Access): a setting to fix, not a crash.
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(REPO),
        "DISCORD_TOKEN": SECRET,
        "DEV_GUILD_ID": "123456789012345678",
        "DATABASE_PATH": str(tmp_path / "poker.sqlite3"),
        "DISCORD_API_BASE": guildless_proxy,
        "DISCORD_GATEWAY_URL": fake_discord.gateway_url,
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    _, err = await asyncio.wait_for(process.communicate(), timeout=60)
    output = err.decode()
    assert "Traceback" not in output, output
    assert process.returncode == 2
    assert "DEV_GUILD_ID" in output


async def test_a_database_url_with_a_bad_port_gets_one_sentence_and_exit_2(
    tmp_path: Path, fake_discord: FakeDiscord
) -> None:
    # Read from the settings, never quoted back (the address holds the password).
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(REPO),
        "DISCORD_TOKEN": SECRET,
        "DATABASE_URL": "postgresql://tavolo:secretpw@localhost:porta/tavolo_verde",
        "DISCORD_API_BASE": fake_discord.api_base,
        "DISCORD_GATEWAY_URL": fake_discord.gateway_url,
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    _, err = await asyncio.wait_for(process.communicate(), timeout=60)
    output = err.decode()
    assert "Traceback" not in output, output
    assert process.returncode == 2
    assert "DATABASE_URL" in output and "secretpw" not in output
