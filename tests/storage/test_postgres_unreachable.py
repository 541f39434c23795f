"""A PostgreSQL server that goes away (a restart, a crash, the network) fails the storage's calls
with a database failure (`DATABASE_FAILURES`), never with a bare `OSError`: the bot names the
database to the player, background writes log a warning and carry on, and nothing is taken for a
failure of Discord's network. The server is reached through a loopback proxy the test can cut."""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

import pytest

from bot.errors import discord_failed
from bot.storage import DATABASE_FAILURES, STORAGE_FAILURES, DatabaseUnreachable, Storage
from tests.storage.conftest import ALICE, GUILD, Database, state_of

GUILD_ON_0 = (8 << 22) | 12345


class Proxy:
    """A TCP relay from a loopback port to the server; `cut` closes the port and every relayed
    connection, as a server that went down looks to its clients (connections reset, then refused)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        self.writers += [writer, up_writer]

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()
        for writer in self.writers:
            writer.transport.abort()


async def test_a_server_gone_fails_every_call_as_a_database_failure(pg: Database) -> None:
    where = urlsplit(pg.target)
    assert where.hostname is not None and where.port is not None
    proxy = Proxy(where.hostname, where.port)
    port = await proxy.start()
    store = await Storage.open(pg.target.replace(f":{where.port}/", f":{port}/"))
    try:
        assert await store.balance(GUILD, ALICE) > 0
        await proxy.cut()
        failures: list[BaseException] = []
        for _ in range(3):  # the pooled connection is reset first; then no new one can be made
            with pytest.raises(STORAGE_FAILURES) as caught:
                await store.balance(GUILD, ALICE)
            failures.append(caught.value)
            with pytest.raises(STORAGE_FAILURES) as caught:
                await store.note_turn_call(1, 2, 3)
            failures.append(caught.value)
        assert all(isinstance(f, DATABASE_FAILURES) for f in failures), failures
        assert any(isinstance(f, DatabaseUnreachable) for f in failures), failures
    finally:
        store._backend.pool.terminate()  # type: ignore[attr-defined]


async def test_creating_a_table_with_the_database_unreachable_is_a_database_failure(db: Database) -> None:
    """Before creating a table, the shards are checked through a new pooled connection: a server that
    refuses it is `DatabaseUnreachable` (a database failure), not an OSError the bot would take for
    Discord's network failing."""
    if db.dialect != "postgresql":
        pytest.skip("shard locks exist on PostgreSQL only")
    store = await Storage.open(db.target)
    try:
        await store.claim_tables([0], 2)
        pool = store._backend.pool  # type: ignore[attr-defined]
        # New connections now fail at the socket (connection refused); the shard locks' own
        # connection is alive and untouched, so nobody has noticed anything yet.
        pool.set_connect_args(dsn="postgresql://nobody@127.0.0.1:1/none")
        await pool.expire_connections()
        with pytest.raises(DATABASE_FAILURES):  # the storage's own reads say so, as documented
            await store.balance(GUILD_ON_0, ALICE)
        with pytest.raises(Exception) as caught:
            await store.create_table(GUILD_ON_0, 7, ALICE, "texas", {}, state_of({}))
        error = caught.value
        assert isinstance(error, STORAGE_FAILURES), (
            f"/tavolo nuovo with the database unreachable raised {error!r}, no storage failure; "
            f"the bot reads it as Discord failing: discord_failed={discord_failed(error)}"
        )
    finally:
        store._backend.shards_lost.set()  # type: ignore[attr-defined]  # close without the dead pool
        await store.close()
