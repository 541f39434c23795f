"""The SQLite backend: one aiosqlite connection, every transaction ``BEGIN IMMEDIATE`` under a lock.

Reads take the lock too: on a shared connection a read between another task's BEGIN and COMMIT would
see chips that may still be rolled back. ``BEGIN IMMEDIATE`` takes SQLite's write lock at once, so
a second process on the same file waits (busy timeout) instead of interleaving.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.storage.db import connect, migrate
from bot.storage.sql import Backend, Conn, Row

__all__ = ["SqliteBackend", "SqliteConn"]


class SqliteConn(Conn):
    """Runs the shared SQL as it is: SQLite takes ``?`` placeholders natively.

    Every call is one round trip to aiosqlite's thread (``execute_fetchall`` rather than execute,
    fetch and close), and each waits for an event-loop turn under the storage lock.
    """

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, args: Sequence[object] = ()) -> list[Row]:
        return [tuple(row) for row in await self._conn.execute_fetchall(sql, args)]

    async def execute(self, sql: str, args: Sequence[object] = ()) -> int:
        cursor = await self._conn.execute(sql, args)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> int:
        cursor = await self._conn.executemany(sql, rows)
        return cursor.rowcount

    async def lock_table(self, table_id: int) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already holds the whole database."""


class SqliteBackend(Backend):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, schema_version: int) -> None:
        self.conn = conn
        self.schema_version = schema_version
        self._lock = asyncio.Lock()
        self._wrapped = SqliteConn(conn)

    @classmethod
    async def open(cls, path: Path | str) -> SqliteBackend:
        """Connect (creating the parent folder), switch to WAL and apply pending migrations."""
        conn = await connect(path)
        try:
            return cls(conn, await migrate(conn))
        except BaseException:
            await conn.close()
            raise

    @asynccontextmanager
    async def transaction(self, *, write: bool) -> AsyncIterator[Conn]:
        """A read-only transaction is deferred, so other processes can still write meanwhile."""
        async with self._lock:
            try:
                # Inside the try: a task cancelled while BEGIN is on its way still gets its ROLLBACK.
                await self.conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield self._wrapped
                await self.conn.execute("COMMIT")
            except BaseException:
                await asyncio.shield(self._rollback())  # also when COMMIT itself failed
                raise

    async def _rollback(self) -> None:
        """End whatever this connection began. aiosqlite runs its statements one by one in order, so
        a ROLLBACK queued after a BEGIN that a cancelled task never saw finish still ends it."""
        with contextlib.suppress(sqlite3.OperationalError):  # nothing had begun after all
            await self.conn.execute("ROLLBACK")

    async def close(self) -> None:
        async with self._lock:
            await self.conn.close()
