"""Start-up and shutdown of `python -m bot`: settings, token handling, command sync, clean stop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from aiohttp import web

from bot.client import DISCORD_API_BASE, DISCORD_GATEWAY, apply_endpoints
from bot.config import DEFAULT_DATABASE_PATH, NO_TOKEN, ConfigError, Settings
from bot.i18n import ENGLISH
from bot.logging_setup import REDACTED, TokenRedactor
from bot.storage import Storage
from fakediscord import FakeDiscord

SECRET = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.secret-token-value-for-tests"


REPO = Path(__file__).resolve().parents[2]


def _env(**values: str) -> dict[str, str]:
    """An environment with nothing from the developer's machine in it, plus `values`; the bot is
    imported from this checkout (not from wherever the virtualenv's editable install points)."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(REPO), **values}


async def _run_bot(cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode is not None
    return process.returncode, out.decode() + err.decode()


# Settings --------------------------------------------------------------------------------------------


async def test_without_a_token_the_bot_says_so_and_exits_2(tmp_path: Path) -> None:
    code, output = await _run_bot(tmp_path, _env())
    assert code == 2
    assert output.strip() == NO_TOKEN
    assert "Traceback" not in output


async def test_a_token_in_dotenv_is_read(tmp_path: Path) -> None:
    # python-dotenv reads .env from the working directory: an invalid setting next to the token
    # proves the file was read (the token check passed) without ever reaching Discord.
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={SECRET}\nDEV_GUILD_ID=nope\n", encoding="utf-8")
    code, output = await _run_bot(tmp_path, _env())
    assert code == 2
    assert "DEV_GUILD_ID" in output and "«nope»" in output
    assert SECRET not in output


@pytest.mark.parametrize(("name", "value"), [("DEV_GUILD_ID", "my-server"), ("STARTING_CHIPS", "-100")])
async def test_an_invalid_setting_gets_one_sentence_and_exit_2(tmp_path: Path, name: str, value: str) -> None:
    code, output = await _run_bot(tmp_path, _env(DISCORD_TOKEN=SECRET, **{name: value}))
    assert code == 2
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert name in lines[0] and f"«{value}»" in lines[0]
    assert "Traceback" not in output
    assert SECRET not in output


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEV_GUILD_ID", "-5"),
        ("DEV_GUILD_ID", "0"),
        ("STARTING_CHIPS", "0"),
        ("STARTING_CHIPS", "mille"),
        ("STARTING_CHIPS", str(10**13)),
        ("DAILY_BONUS", "-1"),
        ("LOG_LEVEL", "chatty"),
        ("DISCORD_API_BASE", "discord.example/api"),
        ("DISCORD_GATEWAY_URL", "http://127.0.0.1:1/gateway"),
        ("DISCORD_REST_CLIENT", "curl"),
    ],
)
def test_every_invalid_setting_is_named_in_one_sentence(name: str, value: str) -> None:
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({"DISCORD_TOKEN": SECRET, name: value})
    message = str(refused.value)
    assert name in message and f"«{value}»" in message
    assert "\n" not in message and message.endswith(".")
    assert SECRET not in message


def test_settings_from_env_reads_every_setting() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": f"  {SECRET} ",
            "DEV_GUILD_ID": "123456789012345678",
            "DATABASE_PATH": "/tmp/x/poker.sqlite3",
            "STARTING_CHIPS": "500",
            "DAILY_BONUS": "0",
            "LOG_LEVEL": "debug",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gateway",
            "DISCORD_REST_CLIENT": "AIOHTTP",
        }
    )
    assert settings == Settings(
        token=SECRET,
        dev_guild_id=123456789012345678,
        database_path=Path("/tmp/x/poker.sqlite3"),
        starting_chips=500,
        daily_bonus=0,
        log_level="DEBUG",
        api_base="http://127.0.0.1:9/api/v10",
        gateway_url="ws://127.0.0.1:9/gateway",
        rest_client="aiohttp",
    )


def test_settings_defaults() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": SECRET, "DEV_GUILD_ID": "", "LOG_LEVEL": ""})
    assert (settings.dev_guild_id, settings.database_path, settings.starting_chips, settings.daily_bonus) == (
        None,
        DEFAULT_DATABASE_PATH,
        1000,
        200,
    )
    assert (settings.log_level, settings.api_base, settings.gateway_url) == ("INFO", None, None)
    assert settings.rest_client == "lean"


def test_settings_never_show_the_token() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": SECRET})
    assert SECRET not in repr(settings)
    assert SECRET not in str(settings)
    assert SECRET not in f"{settings}"


def test_a_token_with_spaces_is_refused() -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        Settings.from_env({"DISCORD_TOKEN": "two words"})


def test_log_lines_never_carry_the_token(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("bot.test_redaction")
    redactor = TokenRedactor(SECRET)
    caplog.handler.addFilter(redactor)
    try:
        logger.warning("connecting with %s", SECRET)
        try:
            raise RuntimeError(f"bad header Authorization: Bot {SECRET}")
        except RuntimeError:
            logger.exception("request failed")
    finally:
        caplog.handler.removeFilter(redactor)
    assert SECRET not in caplog.text
    assert caplog.text.count(REDACTED) == 2


# The redirection points -------------------------------------------------------------------------------


@pytest.fixture
def restore_endpoints() -> Iterator[None]:
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    yield
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


@pytest.mark.usefixtures("restore_endpoints")
def test_apply_endpoints_points_rest_and_gateway_elsewhere_and_back() -> None:
    apply_endpoints("http://127.0.0.1:5/api/v10", "ws://127.0.0.1:5/gateway")
    assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:5/api/v10/users/@me"
    assert yarl.URL("ws://127.0.0.1:5/gateway") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    apply_endpoints(None, None)
    assert discord.http.Route("GET", "/users/@me").url == f"{DISCORD_API_BASE}/users/@me"
    assert discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY == DISCORD_GATEWAY


# Against a Discord that refuses the token ----------------------------------------------------------


@contextlib.asynccontextmanager
async def _serving(app: web.Application) -> AsyncIterator[str]:
    """``app`` on a loopback port for the test's length; its REST base (``…/api/v10``)."""
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}/api/v10"
    finally:
        await runner.cleanup()


@pytest.fixture
async def refusing_discord() -> AsyncIterator[tuple[str, list[str]]]:
    """A loopback REST base whose /users/@me answers 401, as Discord does for a bad token."""
    seen: list[str] = []

    async def me(request: web.Request) -> web.Response:
        seen.append(request.headers.get("Authorization", ""))
        return web.Response(
            status=401, body=b'{"message": "401: Unauthorized", "code": 0}', content_type="application/json"
        )

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    async with _serving(app) as api_base:
        yield api_base, seen


@pytest.fixture
async def guildless_discord(fake_discord: FakeDiscord) -> AsyncIterator[str]:
    """A REST base in front of the fake that answers a guild command sync with 403 Missing Access,
    as Discord does when DEV_GUILD_ID names a server the bot was never invited to."""
    upstream = fake_discord.api_base.rsplit("/api/", 1)[0]
    async with aiohttp.ClientSession() as session:

        async def forward(request: web.Request) -> web.Response:
            path = request.rel_url.path
            if request.method == "PUT" and "/guilds/" in path and path.endswith("/commands"):
                return web.json_response({"message": "Missing Access", "code": 50001}, status=403)
            headers = {
                k: v for k, v in request.headers.items() if k.lower() not in {"host", "content-length"}
            }
            async with session.request(
                request.method, upstream + str(request.rel_url), headers=headers, data=await request.read()
            ) as answer:
                body = await answer.read()
                keep = {
                    k: v for k, v in answer.headers.items() if k.lower().startswith(("content-type", "x-"))
                }
                return web.Response(status=answer.status, body=body, headers=keep)

        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", forward)
        async with _serving(app) as api_base:
            yield api_base


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("DEV_GUILD_ID", "123456789012345678"),  # Discord refuses the sync there: 403 Missing Access
        ("DATABASE_URL", "postgresql://tavolo:secretpw@localhost:porta/tavolo_verde"),
    ],
)
async def test_a_setting_discord_or_the_driver_refuses_is_one_sentence_and_exit_2(
    tmp_path: Path, fake_discord: FakeDiscord, guildless_discord: str, setting: str, value: str
) -> None:
    env = _env(
        DISCORD_TOKEN=SECRET,
        DATABASE_PATH=str(tmp_path / "poker.sqlite3"),
        DISCORD_API_BASE=guildless_discord,
        DISCORD_GATEWAY_URL=fake_discord.gateway_url,
        **{setting: value},
    )
    code, output = await _run_bot(tmp_path, env)
    assert "Traceback" not in output, output
    assert code == 2 and setting in output
    assert "secretpw" not in output, "a database address is never quoted back"


async def test_an_invalid_token_is_refused_at_login_with_exit_2(
    tmp_path: Path, refusing_discord: tuple[str, list[str]]
) -> None:
    api_base, seen = refusing_discord
    env = _env(
        DISCORD_TOKEN=SECRET,
        DATABASE_PATH=str(tmp_path / "poker.sqlite3"),
        DISCORD_API_BASE=api_base,
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9/gateway",
        LOG_LEVEL="DEBUG",
    )
    code, output = await _run_bot(tmp_path, env)
    assert seen == [f"Bot {SECRET}"], "the bot must have asked Discord who it is, with its token"
    assert code == 2
    assert "DISCORD_TOKEN" in output and "non è valido" in output
    assert "Traceback" not in output
    assert SECRET not in output


# Against the fake Discord: sync and clean stop ---------------------------------------------------


def _walk_localized(command: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "command", command
    for option in command.get("options") or []:
        yield from _walk_localized(option)
    for choice in command.get("choices") or []:
        yield "choice", choice


async def test_commands_are_synced_to_the_dev_guild_with_english_names(harness: Any) -> None:
    puts = [route for method, route in harness.rest_calls if method == "PUT"]
    assert len(puts) == 1 and re.fullmatch(r"/applications/\{\w+\}/guilds/\{\w+\}/commands", puts[0]), puts
    names = {command["name"] for command in harness.synced_commands}
    game = {
        "apro": "open",
        "vedo": "call",
        "rilancio": "raise",
        "passo": "fold",
        "paròl": "check",
        "punto": "bet",
        "servito": "stand",
        "cambio": "draw",
        "buio": "blind",
        "controbuio": "counterblind",
        "carte": "cards",
    }
    assert names == {
        "tavolo",
        "torneo",
        "saldo",
        "bonus",
        "classifica",
        "storico",
        "accredita",
        "mano",
        "statistiche",
        "avvisi",
        *game,
    }
    english = {c["name"]: c["name_localizations"]["en-US"] for c in harness.synced_commands}
    assert (
        english
        == {
            "tavolo": "table",
            "torneo": "tournament",
            "saldo": "balance",
            "bonus": "bonus",
            "classifica": "leaderboard",
            "storico": "history",
            "accredita": "grant",
            "mano": "hand",
            "statistiche": "stats",
            "avvisi": "notifications",
        }
        | game
    )
    table = harness.command("tavolo")
    subcommands = {o["name"]: o["name_localizations"]["en-US"] for o in table["options"]}
    assert subcommands == {
        "nuovo": "new",
        "siedi": "sit",
        "alzati": "leave",
        "inizia": "start",
        "stato": "status",
        "regole": "rules",
        "chiudi": "close",
        "rientra": "return",
        "computer": "computer",
        "congeda": "dismiss",
        "riepilogo": "summary",
    }
    tournament = harness.command("torneo")
    assert {o["name"]: o["name_localizations"]["en-US"] for o in tournament["options"]} == {
        "nuovo": "new",
        "iscriviti": "join",
        "computer": "computer",
        "ritirati": "withdraw",
        "inizia": "start",
        "stato": "status",
        "annulla": "cancel",
    }
    for command in harness.synced_commands:
        for kind, item in _walk_localized(command):
            for locale in ("en-US", "en-GB"):
                assert item["name_localizations"][locale] == ENGLISH[item["name"]], (kind, item["name"])
                if kind == "command":
                    assert item["description_localizations"][locale] == ENGLISH[item["description"]]
    assert harness.bot.tree.translator.missing == set()


async def test_without_dev_guild_the_commands_are_synced_globally(harness_factory: Any) -> None:
    harness = await harness_factory(dev_guild_id=None)
    puts = [route for method, route in harness.rest_calls if method == "PUT"]
    assert len(puts) == 1 and re.fullmatch(r"/applications/\{\w+\}/commands", puts[0]), puts
    assert "tavolo" in {c["name"] for c in harness.fake.global_commands.values()}


async def test_every_command_is_for_servers_only(harness: Any) -> None:
    for command in harness.synced_commands:
        assert command["contexts"] == [0], command["name"]
    assert harness.command("accredita")["default_member_permissions"] == str(1 << 5)


async def test_the_bot_asks_for_no_privileged_intent(harness: Any) -> None:
    intents = harness.bot.intents
    assert intents.guilds
    assert not (intents.members or intents.presences or intents.message_content)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_closes_the_bot_cleanly(
    tmp_path: Path, fake_discord: FakeDiscord, stop: signal.Signals
) -> None:
    database = tmp_path / "poker.sqlite3"
    env = _env(
        DISCORD_TOKEN=SECRET,
        DEV_GUILD_ID=str(fake_discord.guild_id),
        DATABASE_PATH=str(database),
        DISCORD_API_BASE=fake_discord.api_base,
        DISCORD_GATEWAY_URL=fake_discord.gateway_url,
        LOG_LEVEL="INFO",
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    assert process.stderr is not None
    log: list[str] = []
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    try:
        while not any("Connected as" in line for line in log):
            line = await asyncio.wait_for(process.stderr.readline(), timeout=15)
            assert line, f"the bot stopped before connecting: {log}"
            log.append(line.decode())
        # A hand is running when the signal arrives.
        await fake_discord.slash(alice, "tavolo nuovo", channel="poker", variante="texas")
        await fake_discord.slash(alice, "tavolo siedi", channel="poker", buyin=300)
        await fake_discord.slash(bob, "tavolo siedi", channel="poker", buyin=200)
        started = await fake_discord.slash(bob, "tavolo inizia", channel="poker")
        assert "Mano n. 1" in started.content
        process.send_signal(stop)
        rest = await asyncio.wait_for(process.stderr.read(), timeout=15)
        code = await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    output = "".join(log) + rest.decode()
    assert code == 0, output
    assert "cancelled the running hand" in output
    assert "Database closed" in output
    assert "Traceback" not in output
    assert SECRET not in output
    # Nothing lost: the hand is cancelled, the stacks are those of its start, the ledger balances.
    async with await Storage.open(database) as storage:
        assert await storage.check() == []
        (table,) = await storage.open_tables()
        assert table.seats == {alice.id: 300, bob.id: 200} and table.pot == 0
        assert [h.status for h in (await storage.history(fake_discord.guild_id, alice.id)).hands] == [
            "cancelled"
        ]
        assert await storage.recover() == [], "nothing left for the next start-up to repair"


async def test_a_database_that_cannot_be_opened_gets_one_sentence_and_exit_2(
    tmp_path: Path, fake_discord: FakeDiscord
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the database folder should be", encoding="utf-8")
    env = _env(
        DISCORD_TOKEN=SECRET,
        DATABASE_PATH=str(blocker / "poker.sqlite3"),
        DISCORD_API_BASE=fake_discord.api_base,
        DISCORD_GATEWAY_URL=fake_discord.gateway_url,
    )
    code, output = await _run_bot(tmp_path, env)
    assert code == 2
    assert "DATABASE_PATH" in output and str(blocker) in output
    assert "Traceback" not in output
    assert SECRET not in output
