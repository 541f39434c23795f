"""The SQLite backend: one aiosqlite connection, every transaction ``BEGIN IMMEDIATE`` under a lock.

Reads take the lock too: on a shared connection a read between another task's BEGIN and COMMIT would
see chips that may still be rolled back. ``BEGIN IMMEDIATE`` takes SQLite's write lock at once, so
a second process on the same file waits (busy timeout) instead of interleaving.

Each call into aiosqlite is a hop to its thread (a queue, a future, an event-loop turn: CPU in both
threads). `SqliteBackend.run` therefore runs a whole transaction in one hop: on that thread, BEGIN,
the body against `ThreadConn` (the same connection, called directly) and COMMIT. The body is the
same coroutine the PostgreSQL backend awaits; it awaits only its connection, whose methods here never
suspend, so it is driven to its end synchronously (`_to_the_end`).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO, TypeVar

import aiosqlite

from bot.storage.db import connect, migrate
from bot.storage.errors import ShardBusy
from bot.storage.sql import Backend, Body, Conn, Row

__all__ = ["SqliteBackend", "SqliteConn", "ThreadConn"]

T = TypeVar("T")


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


class ThreadConn(Conn):
    """The connection as seen from aiosqlite's own thread, inside `SqliteBackend.run`: every call
    runs the statement at once and returns without suspending."""

    dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection, *, one_read: bool = False) -> None:
        self._conn = conn
        self._one_read = one_read  # `read_once`: a single SELECT, its own implicit transaction
        self._used = False

    async def fetch(self, sql: str, args: Sequence[object] = ()) -> list[Row]:
        if self._one_read:
            if self._used:
                raise RuntimeError("read_once runs one statement: a second one would see another snapshot")
            self._used = True
        return [tuple(row) for row in self._conn.execute(sql, args).fetchall()]

    async def execute(self, sql: str, args: Sequence[object] = ()) -> int:
        if self._one_read:
            raise RuntimeError("read_once only reads")
        return self._conn.execute(sql, args).rowcount


def _to_the_end(work: Awaitable[T]) -> T:
    """Run an awaitable that never suspends (it awaits only a `ThreadConn`) and return its result."""
    steps = work.__await__()
    try:
        waited = steps.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    steps.close()
    raise RuntimeError(f"a SQLite transaction awaited {waited!r}: it may await only its connection")


def _lock(path: Path) -> IO[bytes]:
    """An exclusive lock on ``<file>.lock``, held while the returned file stays open: a second bot
    process on the same file would cancel the first one's running hands at its start-up (`recover`)
    and then play the same tables. The operating system drops the lock with the process, kill -9
    included, so a crashed bot never keeps its successor out. `ShardBusy` if another process has it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    held = open(path.with_name(path.name + ".lock"), "ab")  # noqa: SIM115 (kept open)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        held.close()
        raise ShardBusy(
            f"Un altro processo del bot usa già il file {path.name}: "
            "con SQLite il bot gira in un processo solo."
        ) from None
    return held


class SqliteBackend(Backend):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, schema_version: int, path: Path | None = None) -> None:
        self.conn = conn
        self.schema_version = schema_version
        self.path = path
        self._lock = asyncio.Lock()
        self._wrapped = SqliteConn(conn)
        self._held: IO[bytes] | None = None

    @classmethod
    async def open(cls, path: Path | str, *, hold: bool = False) -> SqliteBackend:
        """Connect (creating the parent folder), switch to WAL and apply pending migrations.

        ``hold``: take the file's lock (`hold_database`) before anything else, migrations included,
        so that a process refused because a bot runs on the file has not upgraded its schema under
        that bot (whose next start would find a database newer than itself)."""
        file = None if str(path) == ":memory:" else Path(path)
        held = _lock(file) if hold and file is not None else None
        try:
            conn = await connect(path)
            try:
                backend = cls(conn, await migrate(conn), file)
            except BaseException:
                await conn.close()
                raise
        except BaseException:
            if held is not None:
                held.close()
            raise
        backend._held = held
        return backend

    async def hold_database(self) -> None:
        """An exclusive lock on ``<file>.lock`` for the life of this backend (`_lock`)."""
        if self.path is None or self._held is not None:
            return
        self._held = _lock(self.path)

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

    async def run(self, body: Body[T], *, write: bool) -> T:
        """The whole transaction in one hop to the connection's thread (see the module doc).

        If the caller is cancelled meanwhile, the transaction is rolled back unless it has already
        reached its COMMIT: the same outcome as a transaction run statement by statement.
        """
        abandoned = threading.Event()
        async with self._lock:
            try:
                # aiosqlite's one entry into its thread (its public methods each wrap one statement).
                result: T = await self.conn._execute(  # type: ignore[no-untyped-call]
                    self._in_thread, body, write, abandoned
                )
            except asyncio.CancelledError:
                abandoned.set()
                raise
        return result

    async def read_once(self, body: Body[T]) -> T:
        """One read statement, as PostgreSQL's: in one hop, without BEGIN and COMMIT (a statement
        outside a transaction is its own)."""
        async with self._lock:
            result: T = await self.conn._execute(  # type: ignore[no-untyped-call]
                lambda: _to_the_end(body(ThreadConn(self.conn._conn, one_read=True)))
            )
        return result

    def _in_thread(self, body: Body[T], write: bool, abandoned: threading.Event) -> T | None:
        """On aiosqlite's thread: BEGIN, the body, COMMIT (ROLLBACK if it raised or was abandoned)."""
        conn = self.conn._conn
        conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            result = _to_the_end(body(ThreadConn(conn)))
            if abandoned.is_set():
                conn.execute("ROLLBACK")
                return None
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # also when COMMIT itself failed
                conn.execute("ROLLBACK")
            raise
        return result

    async def close(self) -> None:
        async with self._lock:
            await self.conn.close()
        held, self._held = self._held, None
        if held is not None:
            held.close()  # and with it the lock
