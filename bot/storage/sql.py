"""The one interface the storage logic talks to: a connection inside an open transaction.

`ledger.py` and `tables.py` are written once against `Conn`, in the SQL both databases accept (`?`
placeholders, ``RETURNING``, ``ON CONFLICT``, ``CAST(? AS ...)`` where PostgreSQL must know a
parameter's type). Each backend (`sqlite.py`, `postgres.py`) supplies a `Conn` that runs it: the
PostgreSQL one rewrites the placeholders to ``$1, $2...`` and locks the rows a SELECT ending in
`Conn.for_update` reads; on SQLite the whole database is already locked by ``BEGIN IMMEDIATE``, so
`for_update` is empty.

Every statement costs the bot's process a round trip (a hop to aiosqlite's thread, or a message to
PostgreSQL parsed by asyncpg), so the chip logic writes several rows in one statement: `Conn.rows`
turns them into a table to select from (a VALUES list on SQLite, ``unnest`` of one array per column on
PostgreSQL, whose text stays the same whatever the number of rows, so asyncpg's cache of prepared
statements keeps it); `Conn.batch` sends independent writes together (one statement on PostgreSQL).
`Backend.run` runs a whole transaction; on SQLite in one hop.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

__all__ = ["Backend", "Body", "Conn", "Row", "Statement", "placeholders"]

Row = tuple[Any, ...]
Statement = tuple[str, Sequence[object]]
"""One statement and its arguments, for `Conn.batch`."""
T = TypeVar("T")


def placeholders(count: int) -> str:
    """``?, ?, ?`` for an ``IN (...)`` list of `count` values (at least one)."""
    return ", ".join("?" * max(1, count))


class Conn(ABC):
    """A connection inside a transaction opened by `Storage`; nothing here commits."""

    dialect: str
    """'sqlite' or 'postgresql'."""

    for_update = ""
    """Appended to a SELECT of one row to lock it against other writers until the commit (for a
    table's row, read and locked in one statement; also the house account's, `ledger.fund_house`):
    `` FOR UPDATE`` on PostgreSQL, nothing on SQLite (its write transaction holds the whole file)."""

    @abstractmethod
    async def fetch(self, sql: str, args: Sequence[object] = ()) -> list[Row]:
        """Every row of a query, integers as `int` (never `Decimal`)."""

    @abstractmethod
    async def execute(self, sql: str, args: Sequence[object] = ()) -> int:
        """Run one statement; return the number of rows it changed."""

    async def fetchone(self, sql: str, args: Sequence[object] = ()) -> Row | None:
        rows = await self.fetch(sql, args)
        return rows[0] if rows else None

    async def batch(self, statements: Sequence[Statement]) -> list[int]:
        """Run writes that do not depend on one another; return the row count of each.

        None may read what another one writes (PostgreSQL runs them as one statement, all on one
        snapshot) nor have its own RETURNING or WITH. This one is SQLite's: one after the other.
        """
        return [await self.execute(sql, args) for sql, args in statements]

    def rows(
        self, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[object]]
    ) -> tuple[str, list[object]]:
        """`rows` as a derived table for a FROM clause, ``(SELECT ...)`` with the columns named and
        typed by `columns` ((name, SQL type) each): its SQL text and its arguments, in text order.

        This one is SQLite's: a VALUES list of at least one row, whose text grows with the rows.
        """
        if not rows:
            raise ValueError("a VALUES list needs at least one row")
        names = ", ".join(f"column{i} AS {name}" for i, (name, _) in enumerate(columns, start=1))
        one = f"({placeholders(len(columns))})"
        return f"(SELECT {names} FROM (VALUES {', '.join([one] * len(rows))}))", [v for r in rows for v in r]


Body = Callable[[Conn], Awaitable[T]]
"""A transaction's work: called with the connection, awaiting nothing but its methods."""


class Backend(ABC):
    """One database: hands out transactions and knows how its processes share tables."""

    dialect: str
    schema_version: int

    @abstractmethod
    def transaction(self, *, write: bool) -> AbstractAsyncContextManager[Conn]:
        """One transaction; committed when the block ends, rolled back if it raises.

        A write transaction sees every change committed before it and is never interleaved with
        another write to the same table (SQLite: ``BEGIN IMMEDIATE`` under one lock; PostgreSQL:
        the table's row lock, `Conn.for_update`). A read-only one sees one consistent snapshot.
        """

    async def hold_shards(self, shard_ids: Collection[int], shard_count: int) -> None:  # noqa: B027
        """Keep other processes from claiming these shards while this one runs (PostgreSQL only).

        A single SQLite file is meant for one process: there is nothing to hold.
        """

    async def hold_database(self) -> None:  # noqa: B027
        """Keep every other bot process off this database while this one runs (SQLite only: on
        PostgreSQL processes share the database and `hold_shards` splits it)."""

    async def shards_held(self) -> bool:
        """Whether the shards held are still this process's, asked of the database itself (not of
        the connection holding them, which a network may cut silently); sets `shards_lost` if not.
        True where nothing is held."""
        return True

    shards_lost: asyncio.Event | None = None
    """Set when the shards held stopped being held while the process runs (PostgreSQL: the
    connection holding their locks ended); None where nothing is held across processes."""

    async def run(self, body: Body[T], *, write: bool) -> T:
        """`body` as one transaction (`transaction`); what it returns.

        `body` may await only its connection's methods: the SQLite backend runs it, BEGIN to COMMIT,
        in one hop to its connection's thread.
        """
        async with self.transaction(write=write) as conn:
            return await body(conn)

    async def read_once(self, body: Body[T]) -> T:
        """`body`, a read of one single statement: on PostgreSQL it runs outside any transaction (a
        statement always sees one snapshot), which spares BEGIN and COMMIT; here as `run`."""
        return await self.run(body, write=False)

    @abstractmethod
    async def close(self) -> None: ...
