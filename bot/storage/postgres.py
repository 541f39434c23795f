"""The PostgreSQL backend: an asyncpg pool, row locks, a schema_version table and shard locks.

Several bot processes may share one PostgreSQL database. What keeps them from spending the same
chips twice:

* balances change only by conditional UPDATEs (``balance >= ?``), which PostgreSQL re-checks on the
  newest row version, so two processes can never both spend the same chips;
* every write to a table first locks the table's row (``SELECT ... FOR UPDATE``, `Conn.lock_table`),
  then reads seats and hands: a write transaction runs at READ COMMITTED, so after the lock every
  statement sees all that the previous holder committed;
* reads (`check`, the leaderboard, the history...) run READ ONLY at REPEATABLE READ: one snapshot;
* a process that shards the tables holds a session advisory lock per shard (`hold_shards`) for as
  long as it lives, and stamps its token on the tables it claims; PostgreSQL drops the advisory
  locks of a dead process with its connection, so its shards can be claimed again (the server
  probes that connection, `SHARD_KEEPALIVE`, so a machine that vanished loses them within a minute).

A transaction costs the bot's process one round trip per statement plus BEGIN and COMMIT; the pool's
default reset of a connection on release (one more query) is not run: no transaction here changes
the session (no SET, LISTEN, cursor or session lock; the shard locks and their keepalive settings
live on a connection kept apart, unlocked and reset before it goes back, `close`).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from decimal import Decimal
from functools import lru_cache
from typing import Literal, TypeVar

import asyncpg

from bot.storage.db import Migration, load_migrations, pending
from bot.storage.errors import DatabaseBusy, ShardBusy
from bot.storage.sql import Backend, Body, Conn, Row, Statement

__all__ = ["MIGRATION_LOCK", "SHARD_LOCK", "PostgresBackend", "PostgresConn", "migrate", "to_dollar"]

# Advisory lock keys, fixed for this application: one for migrations (a transaction lock, so two
# processes starting together never apply a migration twice), one namespace for shards.
MIGRATION_LOCK = 7_486_001
SHARD_LOCK = 7_486_002
POOL_MIN = 1
POOL_MAX = 8
SHARD_KEEPALIVE: dict[str, int] = {
    "tcp_keepalives_idle": 30,
    "tcp_keepalives_interval": 10,
    "tcp_keepalives_count": 3,
}
"""How PostgreSQL probes the connection holding the shard locks: after 30 s of silence, every 10 s,
dropped (with its locks) after 3 probes unanswered. A machine that vanishes without closing it frees
its shards in about a minute instead of after the system's keepalive (two hours by default). Over a
Unix socket PostgreSQL ignores them: that connection ends with its machine anyway."""

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

    async def lock_table(self, table_id: int) -> None:
        await self._conn.execute("SELECT 1 FROM poker_tables WHERE id = $1 FOR UPDATE", table_id)

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


class PostgresBackend(Backend):
    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool, schema_version: int) -> None:
        self.pool = pool
        self.schema_version = schema_version
        self._shard_conn: asyncpg.pool.PoolConnectionProxy | None = None

    @classmethod
    async def open(cls, url: str) -> PostgresBackend:
        """Create the pool and apply pending migrations."""
        pool = await asyncpg.create_pool(url, min_size=POOL_MIN, max_size=POOL_MAX, reset=_keep_session)
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
            async with self.pool.acquire() as conn, conn.transaction(isolation=isolation, readonly=not write):
                yield PostgresConn(conn)
        except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as exc:
            raise DatabaseBusy(_BUSY) from exc

    async def read_once(self, body: Body[T]) -> T:
        async with self.pool.acquire() as conn:
            return await body(_OneRead(conn))

    async def hold_shards(self, shard_ids: Collection[int], shard_count: int) -> None:
        """Take one advisory lock per shard on a connection kept for the life of this process.

        Refused (`ShardBusy`, nothing taken) when another live process holds one of them. Every
        process must use the same `shard_count`: the lock names a shard by its number alone.
        """
        if self._shard_conn is None:
            conn = await self.pool.acquire()
            for name, seconds in SHARD_KEEPALIVE.items():
                # Session settings of this connection only (set_config: no SQL built from text).
                await conn.execute("SELECT set_config($1, $2, false)", name, str(seconds))
            self._shard_conn = conn
        conn = self._shard_conn
        taken: list[int] = []
        for shard in sorted(set(shard_ids)):
            if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCK, shard):
                for got in taken:
                    await conn.execute("SELECT pg_advisory_unlock($1, $2)", SHARD_LOCK, got)
                raise ShardBusy(
                    f"Lo shard {shard} di {shard_count} è già gestito da un altro processo del bot."
                )
            taken.append(shard)

    async def close(self) -> None:
        conn, self._shard_conn = self._shard_conn, None
        if conn is not None:
            try:
                # Back to the pool without its shard locks nor settings (the pool's reset sends nothing).
                await conn.execute("SELECT pg_advisory_unlock_all(); RESET ALL")
                await self.pool.release(conn)
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                # The connection died already, and its locks with it; do not wait for it.
                self.pool.terminate()
                return
        await self.pool.close()
