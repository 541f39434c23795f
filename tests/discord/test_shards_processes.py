"""Two bot processes (`python -m bot`), each running one gateway shard of two, on one PostgreSQL
database, against one fake Discord in its own process (`python -m fakediscord --shards 2 --guilds 2`)
driven over its control API.

The tables of both servers play at once; a kill -9 of one process leaves the other's table playing;
the restarted process takes its shard back, cancels its own interrupted hand (stacks back to the
hand's start) and touches nothing of the other's; the ledger's proof holds over the whole database.
Every wait is on a condition with a deadline; nothing sleeps a fixed time. Also: a plain (unsharded)
bot on PostgreSQL owns every table and refuses a twin; a SHARD_IDS subset on SQLite is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.__main__ import INVALID_SHARD, SHARDING_REQUIRED, SHARDS_LOST
from bot.client import PokerBot
from bot.config import Settings
from bot.errors import StartupError
from bot.storage import Storage, TableRow
from bot.storage.postgres import SHARD_LOCK
from fakediscord import ControlClient, FakeDiscord, point_discord_py_at, start_client
from tests.storage.pg_server import PostgresServer, end_sessions_holding

REPO = Path(__file__).resolve().parents[2]
START = 1000
TOKEN = "fake-token"
PLAYERS = ("alice", "bob")

_databases = itertools.count(1)


@pytest.fixture
async def database_url(pg_server: PostgresServer) -> str:
    return await pg_server.create_database(f"shards_{next(_databases)}")


async def eventually(check: Callable[[], Awaitable[Any]], what: str, timeout: float = 15.0) -> Any:
    """Poll `check` until it returns something truthy; fail with `what` after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = await check()
        if result:
            return result
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(0.05)


class BotProcess:
    """One `python -m bot` running some shards; its log (stderr) is collected line by line."""

    def __init__(self, shard: int, env: dict[str, str], cwd: Path) -> None:
        self.shard = shard
        self.env = {**env, "SHARD_COUNT": "2", "SHARD_IDS": str(shard)}
        self.cwd = cwd  # no .env there: nothing from a developer's machine reaches the bot
        self.cwd.mkdir(parents=True, exist_ok=True)
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> BotProcess:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=self.cwd,
            env=self.env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            self.lines.append(line.decode())

    @property
    def log(self) -> str:
        return "".join(self.lines)

    async def wait_log(self, text: str, timeout: float = 20.0) -> None:
        async def seen() -> bool:
            assert self.proc is not None
            if self.proc.returncode is not None and self._reader is not None and self._reader.done():
                raise AssertionError(f"shard {self.shard}'s bot exited ({self.proc.returncode}):\n{self.log}")
            return text in self.log

        await eventually(seen, f"«{text}» in the log of shard {self.shard}'s bot", timeout)

    async def exit_code(self, timeout: float = 20.0) -> int:
        assert self.proc is not None
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        if self._reader is not None:
            await asyncio.wait_for(self._reader, timeout)
        return code

    async def kill(self) -> None:
        """kill -9: no shutdown code runs, the hand in progress stays running in the database."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        assert await self.exit_code() == -signal.SIGKILL

    async def stop(self) -> int:
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        return await self.exit_code()

    def errors(self) -> list[str]:
        return [line for line in self.lines if " ERROR " in line or "Traceback" in line]


def in_process_fake_env(fake: FakeDiscord, **database: str) -> dict[str, str]:
    """A bot process's environment against the test's own fake Discord, with its database setting."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(REPO),
        "DISCORD_TOKEN": TOKEN,
        "DEV_GUILD_ID": str(fake.guild_id),
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        **database,
    }


@contextlib.asynccontextmanager
async def bots(*processes: BotProcess) -> AsyncIterator[None]:
    """Make sure no bot outlives the test, whatever happens in it."""
    try:
        yield
    finally:
        for bot in processes:
            if bot.proc is not None and bot.proc.returncode is None:
                bot.proc.kill()
                await bot.proc.wait()


class Tables:
    """What the database says, read through a Storage of the test's own (it never claims a table)."""

    def __init__(self, storage: Storage, url: str) -> None:
        self.storage = storage
        self.url = url

    async def row(self, guild_id: int) -> TableRow:
        [row] = [r for r in await self.storage.open_tables() if r.guild_id == guild_id]
        return row

    async def owner(self, guild_id: int) -> str | None:
        conn = await asyncpg.connect(self.url)
        try:
            owner: str | None = await conn.fetchval(
                "SELECT owner FROM poker_tables WHERE guild_id = $1 AND status = 'open'", guild_id
            )
        finally:
            await conn.close()
        return owner

    async def shard_held(self, shard: int) -> bool:
        conn = await asyncpg.connect(self.url)
        try:
            held: int = await conn.fetchval(
                "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2",
                SHARD_LOCK,
                shard,
            )
        finally:
            await conn.close()
        return held > 0

    async def status(self, guild_id: int, wanted: str) -> bool:
        return (await self.row(guild_id)).last_hand_status == wanted


async def fold_hand(control: ControlClient, tables: Tables, channel: str, guild_id: int) -> None:
    """Heads-up texas: the player to act folds (the other's /passo is refused privately); the hand ends."""
    for user in PLAYERS:
        reply = await control.slash(user, "passo", channel=channel)
        if not reply["ephemeral"]:
            break
    else:
        raise AssertionError(f"nobody could fold in {channel}")
    await eventually(lambda: tables.status(guild_id, "finished"), f"the hand in {channel} to finish")


async def start_hand(control: ControlClient, tables: Tables, channel: str, guild_id: int) -> None:
    started = await control.slash("bob", "tavolo inizia", channel=channel)
    assert not started["ephemeral"] and "Mano n." in started["content"], started["content"]
    await eventually(lambda: tables.status(guild_id, "running"), f"a hand running in {channel}")


async def test_two_processes_each_serve_their_shard_and_survive_a_kill(
    standalone_fake: str, database_url: str, tmp_path: Path
) -> None:
    async with ControlClient(standalone_fake) as control:
        state = await control.state()
        by_shard = {g["shard"]: (int(g["id"]), g["channels"][0]) for g in state["guilds"]}
        assert sorted(by_shard) == [0, 1]
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONPATH": str(REPO),
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_URL": database_url,
            "DISCORD_API_BASE": state["api_base"],
            "DISCORD_GATEWAY_URL": state["gateway_url"],
            "STARTING_CHIPS": str(START),
            "LOG_LEVEL": "INFO",
        }
        first, second = (BotProcess(shard, env, tmp_path / f"bot-{shard}") for shard in (0, 1))
        restarted = BotProcess(0, env, tmp_path / "bot-0-again")
        intruder = BotProcess(1, env, tmp_path / "bot-1-again")
        async with bots(first, second, restarted, intruder), await Storage.open(database_url) as storage:
            tables = Tables(storage, database_url)
            await asyncio.gather(first.start(), second.start())
            await asyncio.gather(first.wait_log("Connected as"), second.wait_log("Connected as"))
            assert sorted((await control.state())["connected"]) == [[0, 2], [1, 2]]

            # A second process for a shard that is taken is refused at start-up, in one sentence.
            await intruder.start()
            assert await intruder.exit_code() == 2
            assert "Lo shard 1 di 2 è già gestito da un altro processo del bot" in intruder.log
            assert "Traceback" not in intruder.log

            # One table on each shard's server; both hands run at once.
            for _, channel in by_shard.values():
                opened = await control.slash(
                    "alice", "tavolo nuovo", channel=channel, options={"variante": "texas"}
                )
                assert not opened["ephemeral"], opened["content"]
                for user, buyin in zip(PLAYERS, (300, 200), strict=True):
                    seated = await control.slash(
                        user, "tavolo siedi", channel=channel, options={"buyin": buyin}
                    )
                    assert not seated["ephemeral"], seated["content"]
            for guild_id, channel in by_shard.values():
                await start_hand(control, tables, channel, guild_id)
            assert [r.last_hand_status for r in await storage.open_tables()] == ["running", "running"]
            owners = {shard: await tables.owner(guild_id) for shard, (guild_id, _) in by_shard.items()}
            assert None not in owners.values() and owners[0] != owners[1], "each process owns its table"
            for guild_id, channel in by_shard.values():
                await fold_hand(control, tables, channel, guild_id)

            # Hand 2 on both tables; then the process of shard 0 dies in the middle of its hand.
            (dead_guild, dead_channel), (live_guild, live_channel) = by_shard[0], by_shard[1]
            at_hand_start = (await tables.row(dead_guild)).seats
            for guild_id, channel in by_shard.values():
                await start_hand(control, tables, channel, guild_id)
            await first.kill()
            await eventually(
                lambda: _not_connected(control, 0), "the fake to see shard 0's connection go", timeout=10
            )

            # The other process plays on: it finishes its hand and plays a whole new one.
            await fold_hand(control, tables, live_channel, live_guild)
            await start_hand(control, tables, live_channel, live_guild)
            await fold_hand(control, tables, live_channel, live_guild)
            assert (await tables.row(dead_guild)).last_hand_status == "running", "nobody touched it"
            assert await tables.owner(dead_guild) == owners[0]
            # A hand is running on the live table while the dead process comes back.
            await start_hand(control, tables, live_channel, live_guild)
            live_before = await tables.row(live_guild)

            # The dead process's database connection is gone with it, and its shard lock too.
            await eventually(lambda: _free(tables, 0), "PostgreSQL to drop the dead process's shard lock")
            await restarted.start()
            await restarted.wait_log("Connected as")
            assert "Claimed shard(s) [0] of 2: 1 open table(s)" in restarted.log
            assert "Cancelled the interrupted hands of 1 table(s)" in restarted.log
            assert "Restored 1 open table(s)" in restarted.log
            dead_after = await tables.row(dead_guild)
            assert dead_after.last_hand_status == "cancelled"
            assert dead_after.seats == at_hand_start and dead_after.pot == 0, (
                "stacks back to the hand's start"
            )
            assert await tables.owner(dead_guild) not in (None, owners[0]), "the new process owns it now"
            assert await tables.row(live_guild) == live_before, "the other process's hand runs on, untouched"
            assert await tables.owner(live_guild) == owners[1]

            # Both tables play on.
            await fold_hand(control, tables, live_channel, live_guild)
            await start_hand(control, tables, dead_channel, dead_guild)
            await fold_hand(control, tables, dead_channel, dead_guild)

            # A clean stop (SIGTERM) of one process cancels its own running hand, not the other's.
            for guild_id, channel in by_shard.values():
                await start_hand(control, tables, channel, guild_id)
            assert await second.stop() == 0, second.log
            assert (await tables.row(live_guild)).last_hand_status == "cancelled"
            assert (await tables.row(dead_guild)).last_hand_status == "running"
            await fold_hand(control, tables, dead_channel, dead_guild)

            assert await storage.check() == []
            for guild_id, _ in by_shard.values():
                rows = await storage.leaderboard(guild_id, limit=10)
                assert sum(row.total for row in rows) == len(PLAYERS) * START, "no chip created or lost"
            assert (await control.state())["violations"] == []
            assert await restarted.stop() == 0, restarted.log
        for bot in (first, second, restarted):
            assert bot.errors() == [], bot.log


async def _not_connected(control: ControlClient, shard: int) -> bool:
    return [shard, 2] not in (await control.state())["connected"]


async def _free(tables: Tables, shard: int) -> bool:
    return not await tables.shard_held(shard)


async def test_several_processes_on_one_sqlite_file_are_refused_at_start_up(tmp_path: Path) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(REPO),
        "DISCORD_TOKEN": TOKEN,
        "DATABASE_PATH": str(tmp_path / "poker.sqlite3"),
    }
    bot = BotProcess(1, env, tmp_path / "bot")
    async with bots(bot):
        await bot.start()
        assert await bot.exit_code() == 2
    lines = bot.log.strip().splitlines()
    assert len(lines) == 1 and "SQLite" in lines[0] and "DATABASE_URL" in lines[0], bot.log
    assert not (tmp_path / "poker.sqlite3").exists(), "refused before opening anything"


async def test_one_plain_process_on_postgresql_owns_every_table_and_refuses_a_twin(
    fake_discord: FakeDiscord, database_url: str, tmp_path: Path
) -> None:
    """Without SHARD_COUNT a bot on PostgreSQL claims every table (one shard of one): a second bot
    started by mistake on the same database stops at start-up instead of playing the same tables."""
    settings = Settings(
        token=TOKEN,
        dev_guild_id=fake_discord.guild_id,
        database_url=database_url,
        api_base=fake_discord.api_base,
        gateway_url=fake_discord.gateway_url,
    )
    point_discord_py_at(fake_discord.api_base, fake_discord.gateway_url)
    running = await start_client(fake_discord, PokerBot(settings, guild_ready_timeout=0.05), token=TOKEN)
    twin = PokerBot(settings)
    try:
        bot: Any = running.client
        opened = await fake_discord.slash(fake_discord.user("alice"), "tavolo nuovo", variante="texas")
        assert not opened.ephemeral, opened.content
        assert await Tables(bot.storage, database_url).owner(fake_discord.guild_id) == bot.storage.owner_token
        with pytest.raises(StartupError, match="Lo shard 0 di 1 è già gestito da un altro processo del bot"):
            await twin.login(TOKEN)
    finally:
        await twin.close()
        await running.close()


@pytest.mark.parametrize(
    ("code", "shards", "sentence"),
    [(4011, {}, SHARDING_REQUIRED), (4010, {"SHARD_COUNT": "1"}, INVALID_SHARD)],
)
async def test_discord_refusing_the_shards_stops_the_bot_with_one_sentence(
    fake_discord: FakeDiscord, tmp_path: Path, code: int, shards: dict[str, str], sentence: str
) -> None:
    """4011 "sharding required" (too many servers for the shards) and 4010 "invalid shard": no
    reconnection helps, the host must change SHARD_COUNT / SHARD_IDS."""
    env = in_process_fake_env(fake_discord, DATABASE_PATH=str(tmp_path / "poker.sqlite3"))
    bot = BotProcess(0, env, tmp_path / "bot")
    if not shards:
        del bot.env["SHARD_COUNT"], bot.env["SHARD_IDS"]
    else:
        bot.env.update(shards)
        del bot.env["SHARD_IDS"]
    async with bots(bot):
        await bot.start()
        await bot.wait_log("Connected as")
        await fake_discord.drop_gateway(code, shard=0)
        assert await bot.exit_code() == 2, bot.log
    assert sentence in bot.log
    assert bot.errors() == [], bot.log


async def test_a_bot_whose_shard_locks_connection_ends_stops_so_a_restart_claims_them_again(
    fake_discord: FakeDiscord, database_url: str, tmp_path: Path
) -> None:
    """PostgreSQL restarted or the network dropped the connection holding the shard locks: another
    process may take the shards now, so the bot stops with a failure status (a supervisor restarts it)
    instead of serving tables it no longer holds."""
    env = in_process_fake_env(fake_discord, DATABASE_URL=database_url)
    bot = BotProcess(0, env, tmp_path / "bot")
    bot.env["SHARD_COUNT"] = "1"
    async with bots(bot):
        await bot.start()
        await bot.wait_log("Connected as")
        assert await end_sessions_holding(database_url, SHARD_LOCK) == 1
        assert await bot.exit_code() == 1, bot.log
    assert SHARDS_LOST in bot.log


async def test_a_second_bot_on_a_sqlite_file_is_refused_and_a_kill_frees_the_file(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    env = in_process_fake_env(fake_discord, DATABASE_PATH=str(tmp_path / "poker.sqlite3"))
    first, second, third = (BotProcess(0, env, tmp_path / f"bot-{n}") for n in (1, 2, 3))
    for bot in (first, second, third):
        del bot.env["SHARD_COUNT"], bot.env["SHARD_IDS"]
    async with bots(first, second, third):
        await first.start()
        await first.wait_log("Connected as")
        await second.start()
        assert await second.exit_code() == 2, second.log
        assert "Un altro processo del bot usa già il file poker.sqlite3" in second.log
        assert "Traceback" not in second.log
        await first.kill()  # kill -9: the operating system drops the lock with the process
        await third.start()
        await third.wait_log("Connected as")
        assert await third.stop() == 0
