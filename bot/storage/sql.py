"""The one interface the storage logic talks to: a connection inside an open transaction.

`ledger.py` and `tables.py` are written once against `Conn`, in the SQL both databases accept (`?`
placeholders, ``RETURNING``, ``ON CONFLICT``, ``CAST(? AS ...)`` where PostgreSQL must know a
parameter's type). Each backend (`sqlite.py`, `postgres.py`) supplies a `Conn` that runs it: the
PostgreSQL one rewrites the placeholders to ``$1, $2...`` and locks a table's row when asked; on
SQLite the whole database is already locked by ``BEGIN IMMEDIATE``, so `lock_table` does nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

__all__ = ["Backend", "Conn", "Row", "placeholders"]

Row = tuple[Any, ...]


def placeholders(count: int) -> str:
    """``?, ?, ?`` for an ``IN (...)`` list of `count` values (at least one)."""
    return ", ".join("?" * max(1, count))


class Conn(ABC):
    """A connection inside a transaction opened by `Storage`; nothing here commits."""

    dialect: str
    """'sqlite' or 'postgresql'."""

    @abstractmethod
    async def fetch(self, sql: str, args: Sequence[object] = ()) -> list[Row]:
        """Every row of a query, integers as `int` (never `Decimal`)."""

    @abstractmethod
    async def execute(self, sql: str, args: Sequence[object] = ()) -> int:
        """Run one statement; return the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> int:
        """Run one statement per row; return the total number of rows changed."""

    @abstractmethod
    async def lock_table(self, table_id: int) -> None:
        """Hold the table's row until the end of the transaction, against writers in other processes."""

    async def fetchone(self, sql: str, args: Sequence[object] = ()) -> Row | None:
        rows = await self.fetch(sql, args)
        return rows[0] if rows else None


class Backend(ABC):
    """One database: hands out transactions and knows how its processes share tables."""

    dialect: str
    schema_version: int

    @abstractmethod
    def transaction(self, *, write: bool) -> AbstractAsyncContextManager[Conn]:
        """One transaction; committed when the block ends, rolled back if it raises.

        A write transaction sees every change committed before it and is never interleaved with
        another write to the same table (SQLite: ``BEGIN IMMEDIATE`` under one lock; PostgreSQL:
        the table's row lock, `Conn.lock_table`). A read-only one sees one consistent snapshot.
        """

    async def hold_shards(self, shard_ids: Collection[int], shard_count: int) -> None:  # noqa: B027
        """Keep other processes from claiming these shards while this one runs (PostgreSQL only).

        A single SQLite file is meant for one process: there is nothing to hold.
        """

    @abstractmethod
    async def close(self) -> None: ...
