"""The PostgreSQL backend: an asyncpg pool, row locks, a schema_version table and shard locks.

Several bot processes may share one PostgreSQL database. What keeps them from spending the same
chips twice:

* balances change only by conditional UPDATEs (``balance >= ?``), which PostgreSQL re-checks on the
  newest row version, so two processes can never both spend the same chips;
* every write to a table first locks the table's row (``SELECT ... FOR UPDATE``, `Conn.for_update`),
  then reads seats and hands: a write transaction runs at READ COMMITTED, so after the lock every
  statement sees all that the previous holder committed;
* reads (`check`, the leaderboard, the history...) run READ ONLY at REPEATABLE READ: one snapshot;
* a process that shards the tables holds a session advisory lock per shard (`hold_shards`), and one
  on its shard count, for as long as it lives, and stamps its token on the tables it claims;
  PostgreSQL drops the advisory locks of a dead process with its connection, so its shards can be
  claimed again (the server probes every connection, `SESSION_SETTINGS`, so a machine that vanished
  loses them within a minute); a process whose lock connection ends is told (`shards_lost`).

A transaction costs the bot's process one round trip per statement plus BEGIN and COMMIT; the pool's
default reset of a connection on release (one more query) is not run: no transaction here changes
the session (no SET, LISTEN, cursor or session lock; the shard locks live on a connection kept apart,
unlocked before it goes back, `close`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from decimal import Decimal
from functools import lru_cache
from typing import Literal, TypeVar

import asyncpg

from bot.storage.db import Migration, load_migrations, pending
from bot.storage.errors import DatabaseBusy, DatabaseUnreachable, ShardBusy
from bot.storage.sql import Backend, Body, Conn, Row, Statement

log = logging.getLogger(__name__)

__all__ = [
    "MIGRATION_LOCK",
    "SHARD_COUNT_LOCK",
    "SHARD_LOCK",
    "PostgresBackend",
    "PostgresConn",
    "migrate",
    "to_dollar",
]

# Advisory lock keys, fixed for this application: one for migrations (a transaction lock, so two
# processes starting together never apply a migration twice), one namespace for shards, one for the
# shard count every process runs with (shared), and one that makes taking them one step at a time.
MIGRATION_LOCK = 7_486_001
SHARD_LOCK = 7_486_002
SHARD_COUNT_LOCK = 7_486_003
SHARD_START_LOCK = 7_486_004
POOL_MIN = 1
POOL_MAX = 8
HEARTBEAT = 20.0
"""Seconds between two checks that the shard locks are still this process's (`shards_held`)."""
SESSION_SETTINGS: dict[str, str] = {
    "tcp_keepalives_idle": "30",
    "tcp_keepalives_interval": "10",
    "tcp_keepalives_count": "3",
    "idle_in_transaction_session_timeout": "60000",
}
"""Every connection's session settings, for a bot machine that vanishes without closing them.
PostgreSQL probes each connection after 30 s of silence, every 10 s, and drops it after 3 probes
unanswered: the shard locks of a vanished process are free in about a minute instead of after the
system's keepalive (two hours by default). A connection that stops inside a transaction for a minute
is ended, so the row locks it held (a table's, `Conn.for_update`) never stall the process that takes
its shards over; no transaction of the bot waits on anything but the database. Over a Unix socket
PostgreSQL ignores the keepalives: that connection ends with its machine anyway."""

T = TypeVar("T")
PgConnection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy
_QUOTED_OR_MARK = re.compile(r"'(?:[^']|'')*'|\?")


@lru_cache(maxsize=256)
def to_dollar(sql: str) -> str:
    """Rewrite the shared SQL's ``?`` placeholders as ``$1, $2...``, leaving quoted text alone."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _QUOTED_OR_MARK.sub(number, sql)


def _plain(value: object) -> object:
    # SUM() over BIGINT is NUMERIC in PostgreSQL; every chip amount is a whole number.
    return int(value) if isinstance(value, Decimal) else value


class PostgresConn(Conn):
    dialect = "postgresql"
    for_update = " FOR UPDATE"

    def __init__(self, conn: PgConnection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, args: Sequence[object] = ()) -> list[Row]:
        rows = await self._conn.fetch(to_dollar(sql), *args)
        return [tuple(_plain(value) for value in row) for row in rows]

    async def execute(self, sql: str, args: Sequence[object] = ()) -> int:
        status = await self._conn.execute(to_dollar(sql), *args)
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def batch(self, statements: Sequence[Statement]) -> list[int]:
        """Several writes as one statement: each a data-modifying WITH query that returns a row per
        row it changed, counted by the main SELECT (PostgreSQL runs every one of them to the end)."""
        if len(statements) < 2:
            return await super().batch(statements)
        queries = ", ".join(f"w{i} AS ({sql} RETURNING 1)" for i, (sql, _) in enumerate(statements))
        counts = ", ".join(f"(SELECT COUNT(*) FROM w{i})" for i in range(len(statements)))
        [row] = await self.fetch(
            f"WITH {queries} SELECT {counts}", [a for _, args in statements for a in args]
        )
        return [int(count) for count in row]

    def rows(
        self, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[object]]
    ) -> tuple[str, list[object]]:
        """One array per column, ``unnest`` side by side: the same text for any number of rows."""
        arrays = ", ".join(f"CAST(? AS {sql_type}[])" for _, sql_type in columns)
        names = ", ".join(name for name, _ in columns)
        return (
            f"(SELECT * FROM unnest({arrays}) AS v ({names}))",
            [[row[i] for row in rows] for i in range(len(columns))],
        )


class _OneRead(PostgresConn):
    """A connection outside any transaction, for `PostgresBackend.read_once`: one statement only."""

    def __init__(self, conn: PgConnection) -> None:
        super().__init__(conn)
        self._used = False

    async def fetch(self, sql: str, args: Sequence[object] = ()) -> list[Row]:
        if self._used:
            raise RuntimeError("read_once runs one statement: a second one would see another snapshot")
        self._used = True
        return await super().fetch(sql, args)

    async def execute(self, sql: str, args: Sequence[object] = ()) -> int:
        raise RuntimeError("read_once only reads")


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset on release: nothing to send (see the module doc); asyncpg itself still rolls
    back a transaction left open."""


async def migrate(conn: PgConnection, migrations: list[Migration] | None = None) -> int:
    """Apply the pending migrations in one transaction, serialised across processes; return the version."""
    migrations = load_migrations("postgresql") if migrations is None else migrations
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        version = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
        todo = pending(version, migrations)
        for migration in todo:
            await conn.execute(migration.sql)  # no arguments: the whole file in one simple query
            await conn.execute(
                "INSERT INTO schema_version (version, name) VALUES ($1, $2)",
                migration.version,
                migration.name,
            )
    return todo[-1].version if todo else version


_BUSY = "Il database era occupato da un'altra operazione: non è cambiato nulla, riprova."
BUSY_ATTEMPTS = 3
"""How many times `run` tries a transaction PostgreSQL aborted as a deadlock or a serialization
failure before the caller gets `DatabaseBusy`."""


class PostgresBackend(Backend):
    dialect = "postgresql"
    shards_lost: asyncio.Event

    def __init__(self, pool: asyncpg.Pool, schema_version: int) -> None:
        self.pool = pool
        self.schema_version = schema_version
        self.shards_lost = asyncio.Event()
        self._shard_conn: asyncpg.pool.PoolConnectionProxy | None = None
        self._shard_pid: int | None = None  # the server process holding the locks
        self._held: tuple[int, ...] = ()
        self._heartbeat: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str) -> PostgresBackend:
        """Create the pool and apply pending migrations."""
        pool = await asyncpg.create_pool(
            url, min_size=POOL_MIN, max_size=POOL_MAX, reset=_keep_session, server_settings=SESSION_SETTINGS
        )
        try:
            async with pool.acquire() as conn:
                version = await migrate(conn)
            return cls(pool, version)
        except BaseException:
            await pool.close()
            raise

    @asynccontextmanager
    async def transaction(self, *, write: bool) -> AsyncIterator[Conn]:
        """A deadlock or a serialization failure (the transaction was rolled back, nothing written)
        comes out as `DatabaseBusy`, a `StorageError` the caller may retry like any refusal."""
        isolation: Literal["read_committed", "repeatable_read"] = (
            "read_committed" if write else "repeatable_read"
        )
        try:
            async with self._connection() as conn, conn.transaction(isolation=isolation, readonly=not write):
                yield PostgresConn(conn)
        except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as exc:
            raise DatabaseBusy(_BUSY) from exc

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.pool.PoolConnectionProxy[asyncpg.Record]]:
        """A pooled connection. A server that is down makes the pool's new connection fail with the
        socket's error (refused, timed out): that comes out as `DatabaseUnreachable`, a database
        failure, not as an `OSError` the bot would take for a failure of Discord's network."""
        try:
            conn = await self.pool.acquire()
        except OSError as exc:
            raise DatabaseUnreachable(f"PostgreSQL unreachable: {exc!r}") from exc
        try:
            yield conn
        finally:
            await self.pool.release(conn)

    async def run(self, body: Body[T], *, write: bool) -> T:
        """`body` as one transaction, tried again when PostgreSQL aborted it as a deadlock or a
        serialization failure (nothing was written): every body is the storage's own function of its
        connection and arguments, so running it again is running it once."""
        for attempt in range(1, BUSY_ATTEMPTS + 1):
            try:
                return await super().run(body, write=write)
            except DatabaseBusy:
                if attempt == BUSY_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover - the last attempt returns or raises

    async def read_once(self, body: Body[T]) -> T:
        async with self._connection() as conn:
            return await body(_OneRead(conn))

    async def hold_shards(self, shard_ids: Collection[int], shard_count: int) -> None:
        """Take one advisory lock per shard on a connection kept for the life of this process.

        Refused (`ShardBusy`, nothing taken) when another live process holds one of them, or runs
        with another `shard_count`: a shard's lock names it by its number, which means the same
        servers only under the same count, so every process also holds the count it runs with
        (shared) and a process with another count is refused. The checks and the locks are taken
        under one transaction lock, so two processes starting together cannot both pass them.
        If the connection ends while the process runs (the server restarted, the network dropped
        it), the locks are gone with it: `shards_lost` is set, and the process must stop.
        """
        if self._shard_conn is None:
            self._shard_conn = await self.pool.acquire()
            self._shard_conn.add_termination_listener(self._lost)
            self._shard_pid = self._shard_conn.get_server_pid()
        conn = self._shard_conn
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", SHARD_START_LOCK)
            other = await conn.fetchval(
                "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted"
                " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                " AND classid = $1 AND objsubid = 2 AND objid::bigint <> $2 LIMIT 1",
                SHARD_COUNT_LOCK,
                shard_count,
            )
            if other is not None:
                raise ShardBusy(
                    f"Un altro processo del bot usa questo database con SHARD_COUNT={other}, "
                    f"non {shard_count}."
                )
            # Session locks: kept after this transaction ends, until released or the session ends.
            await conn.execute("SELECT pg_advisory_lock_shared($1, $2)", SHARD_COUNT_LOCK, shard_count)
            taken: list[int] = []
            for shard in sorted(set(shard_ids)):
                if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCK, shard):
                    for got in taken:
                        await conn.execute("SELECT pg_advisory_unlock($1, $2)", SHARD_LOCK, got)
                    await conn.execute(
                        "SELECT pg_advisory_unlock_shared($1, $2)", SHARD_COUNT_LOCK, shard_count
                    )
                    raise ShardBusy(
                        f"Lo shard {shard} di {shard_count} è già gestito da un altro processo del bot."
                    )
                taken.append(shard)
        self._held = tuple(sorted(set(self._held) | set(shard_ids)))
        if self._heartbeat is None:
            self._heartbeat = asyncio.get_running_loop().create_task(self._beat(), name="shard-heartbeat")

    async def shards_held(self) -> bool:
        if self.shards_lost.is_set():
            return False
        if not self._held or self._shard_pid is None:
            return True
        async with self._connection() as conn:  # not the locks' own connection: it may be cut
            held = await conn.fetchval(
                "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = $1"
                " AND classid = $2 AND objsubid = 2 AND objid::bigint = ANY($3::bigint[])",
                self._shard_pid,
                SHARD_LOCK,
                list(self._held),
            )
        if int(held) < len(self._held):
            self.shards_lost.set()
            return False
        return True

    async def _beat(self) -> None:
        """Ask the database every `HEARTBEAT` seconds whether the shards are still held: a session
        the server ended while the network lost its goodbye never reaches the termination listener."""
        while not self.shards_lost.is_set():
            await asyncio.sleep(HEARTBEAT)
            try:
                await self.shards_held()
            except (DatabaseUnreachable, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
                log.warning("Could not check the shard locks: %r", exc)  # the next beat tries again

    def _lost(self, conn: object) -> None:
        """The shard locks' connection ended while it was ours: another process may take the shards."""
        if self._shard_conn is not None:
            self.shards_lost.set()

    async def close(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
        conn, self._shard_conn = self._shard_conn, None
        if conn is not None and self.shards_lost.is_set():
            # The locks are gone and their connection may be cut without a word: nothing to release.
            self.pool.terminate()
            return
        if conn is not None:
            try:
                conn.remove_termination_listener(self._lost)
                # Back to the pool without its shard locks (the pool's reset sends nothing).
                await conn.execute("SELECT pg_advisory_unlock_all()")
                await self.pool.release(conn)
            except (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError):
                # The connection died already, and its locks with it; do not wait for it.
                self.pool.terminate()
                return
        await self.pool.close()
