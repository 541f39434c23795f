"""Schema migrations for both databases, and the SQLite connection.

Migrations are the numbered files in ``migrations/<dialect>/`` (``NNNN_name.sql``); both dialects
carry the same numbers, so a schema version means the same tables on SQLite and on PostgreSQL. At
start-up every file above the database's version is applied, all of them in one transaction
together with the new version number, so a crash during an upgrade leaves the old schema intact.
SQLite keeps its version in ``PRAGMA user_version``; PostgreSQL in the ``schema_version`` table
(see `bot.storage.postgres`).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal

import aiosqlite

from bot.storage.errors import SchemaTooNew

__all__ = [
    "BUSY_TIMEOUT_MS",
    "Dialect",
    "Migration",
    "connect",
    "load_migrations",
    "migrate",
    "pending",
    "split_statements",
]

BUSY_TIMEOUT_MS = 5000
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

Dialect = Literal["sqlite", "postgresql"]


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(dialect: Dialect = "sqlite") -> list[Migration]:
    """Read the packaged migration files; numbering must be 1, 2, 3... with no gap or duplicate."""
    folder = resources.files("bot.storage") / "migrations" / dialect
    found: list[Migration] = []
    for item in folder.iterdir():
        match = _MIGRATION_NAME.match(item.name)
        if match:
            found.append(Migration(int(match.group(1)), item.name, item.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    expected = list(range(1, len(found) + 1))
    if [m.version for m in found] != expected:
        raise RuntimeError(f"migration files must be numbered 0001, 0002, ... without gaps: {found}")
    return found


def pending(version: int, migrations: list[Migration]) -> list[Migration]:
    """The migrations above `version`, refusing a database newer than this bot."""
    latest = migrations[-1].version if migrations else 0
    if version > latest:
        raise SchemaTooNew(version, latest)
    return [m for m in migrations if m.version > version]


def split_statements(sql: str) -> list[str]:
    """Split a script into complete statements (triggers included) using SQLite's own parser rule.

    ``executescript`` would commit the surrounding transaction first, which would defeat applying
    every migration atomically; executing statement by statement keeps them in one transaction.
    """
    statements: list[str] = []
    buffered = ""
    for line in sql.splitlines(keepends=True):
        buffered += line
        if sqlite3.complete_statement(buffered):
            if _has_code(buffered):
                statements.append(buffered.strip())
            buffered = ""
    if _has_code(buffered):
        raise ValueError(f"incomplete SQL statement at the end of a migration: {buffered.strip()[:80]}")
    return statements


def _has_code(sql: str) -> bool:
    return any(line.strip() and not line.strip().startswith("--") for line in sql.splitlines())


async def connect(path: Path | str) -> aiosqlite.Connection:
    """Open the database in autocommit mode so that every transaction is an explicit BEGIN IMMEDIATE."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA journal_mode = WAL")
        # FULL: a committed chip movement survives a power cut, not only a crash of the process.
        await conn.execute("PRAGMA synchronous = FULL")
        await conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        await conn.close()
        raise
    return conn


async def migrate(conn: aiosqlite.Connection, migrations: list[Migration] | None = None) -> int:
    """Apply the pending SQLite migrations in one transaction; return the schema version afterwards."""
    migrations = load_migrations("sqlite") if migrations is None else migrations
    await conn.execute("BEGIN IMMEDIATE")
    try:
        version = await _user_version(conn)
        todo = pending(version, migrations)
        for migration in todo:
            for statement in split_statements(migration.sql):
                await conn.execute(statement)
        if todo:
            await conn.execute(f"PRAGMA user_version = {todo[-1].version:d}")
        await conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        raise
    return todo[-1].version if todo else version


async def _user_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])
