"""Schema migrations: applied once, in order, atomically; re-running them changes nothing."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.db import Migration, connect, load_migrations, migrate, split_statements
from tests.storage.conftest import ALICE, GUILD, dump

# An applied migration is never edited: a change to the schema is a new numbered file. Pinning the
# hashes makes an edit fail here instead of silently diverging from databases already migrated.
APPLIED = {
    "0001_init.sql": "b6d1fda05d902317144340c9db3aa28863d58f7396501612abc19fa055ada3af",
}


def test_applied_migrations_are_never_edited() -> None:
    found = {m.name: hashlib.sha256(m.sql.encode()).hexdigest() for m in load_migrations()}
    assert {name: found[name] for name in APPLIED} == APPLIED


def test_migrations_are_numbered_without_gaps() -> None:
    assert [m.version for m in load_migrations()] == list(range(1, len(load_migrations()) + 1))


def test_split_statements_keeps_triggers_whole() -> None:
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x INTEGER);\n"
        "CREATE TRIGGER t_ro BEFORE DELETE ON t\nBEGIN\n    SELECT RAISE(ABORT, 'no; never');\nEND;\n"
        "-- trailing comment\n"
    )
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


@pytest.mark.parametrize("exists", [False, True], ids=["no file", "zero-byte file"])
async def test_an_empty_file_is_migrated_to_the_latest_version(db_path: Path, exists: bool) -> None:
    if exists:
        db_path.parent.mkdir()
        db_path.touch()
    else:
        assert not db_path.parent.exists()  # the data folder is created on demand
    async with await Storage.open(db_path) as store:
        assert store.schema_version == len(load_migrations())
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone() == (len(load_migrations()),)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"accounts", "poker_tables", "seats", "hands", "hand_seats", "movements", "entries"} <= tables
    finally:
        conn.close()


async def test_reopening_and_remigrating_are_no_ops(db_path: Path) -> None:
    async with await Storage.open(db_path) as store:
        await store.balance(GUILD, ALICE)
    before = dump(db_path)
    schema = _schema(db_path)
    for _ in range(2):
        async with await Storage.open(db_path) as store:
            assert store.schema_version == len(load_migrations())
    conn = await connect(db_path)
    try:
        assert await migrate(conn) == len(load_migrations())
    finally:
        await conn.close()
    assert dump(db_path) == before
    assert _schema(db_path) == schema


async def test_connection_settings(storage: Storage) -> None:
    conn = storage._conn
    for pragma, expected in [("foreign_keys", 1), ("busy_timeout", 5000), ("synchronous", 2)]:
        async with conn.execute(f"PRAGMA {pragma}") as cursor:
            assert await cursor.fetchone() == (expected,), pragma


async def test_a_failing_migration_leaves_the_database_untouched(db_path: Path) -> None:
    good = load_migrations()
    async with await Storage.open(db_path) as store:
        await store.balance(GUILD, ALICE)
    before, schema = dump(db_path), _schema(db_path)
    broken = Migration(
        len(good) + 1,
        "9999_broken.sql",
        "CREATE TABLE extra (x INTEGER);\n"
        "ALTER TABLE accounts ADD COLUMN y INTEGER;\n"
        "SELECT nope FROM nowhere;\n",
    )
    conn = await connect(db_path)
    try:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(conn, [*good, broken])
        assert await migrate(conn) == len(good)  # still usable afterwards
    finally:
        await conn.close()
    assert dump(db_path) == before
    assert _schema(db_path) == schema


async def test_several_pending_migrations_apply_in_order_in_one_go(tmp_path: Path) -> None:
    steps = [
        Migration(1, "0001_a.sql", "CREATE TABLE a (x INTEGER);\n"),
        Migration(2, "0002_b.sql", "INSERT INTO a VALUES (1);\nCREATE TABLE b (y INTEGER);\n"),
        Migration(3, "0003_c.sql", "INSERT INTO b SELECT x + 1 FROM a;\n"),
    ]
    conn = await connect(tmp_path / "x.sqlite3")
    try:
        assert await migrate(conn, steps[:1]) == 1
        assert await migrate(conn, steps) == 3
        assert await migrate(conn, steps) == 3
        async with conn.execute("SELECT y FROM b") as cursor:
            assert await cursor.fetchall() == [(2,)]
    finally:
        await conn.close()


async def test_a_database_newer_than_the_bot_is_refused(db_path: Path) -> None:
    async with await Storage.open(db_path):
        pass
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(RuntimeError, match="schema version 99"):
        await Storage.open(db_path)


def _schema(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    finally:
        conn.close()
