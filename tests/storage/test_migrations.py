"""Schema migrations: applied once, in order, atomically; re-running them changes nothing."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.storage import SchemaTooNew, Storage
from bot.storage.db import Dialect, Migration, connect, load_migrations, migrate, split_statements
from bot.storage.postgres import migrate as migrate_postgres
from tests.storage.conftest import ALICE, BOB, GUILD, Database

SNOWFLAKE = 1456074444232458300  # a real-sized message id

# An applied migration is never edited: a change to the schema is a new numbered file. Pinning the
# hashes makes an edit fail here instead of silently diverging from databases already migrated.
APPLIED: dict[Dialect, dict[str, str]] = {
    "sqlite": {
        "0001_init.sql": "b6d1fda05d902317144340c9db3aa28863d58f7396501612abc19fa055ada3af",
        "0002_release_and_message.sql": "bf544dc3a96f0b8570cfafefc09e68940cf9e26e89634b503e526e1ce3318483",
        "0003_table_owner.sql": "4c0637fd1b273cebe648afc6d1d8ef2abff8bb7516f800f7766d56e475acb287",
        "0004_turn_calls.sql": "f88515a2ca8565e7eb5dd054963f2e3af7709df2d6754da1a3cf971e420dfa00",
        "0005_hand_players.sql": "e8a372f89764c2a00270687e27ad6d8773ada332b81a8f1bbee2b65ee526b125",
        "0006_computers.sql": "2f566b0b4a21a96b9d8822e8b11dcdbfe1dd61ede8fc508be771dd80a93da9d9",
        "0007_tournaments.sql": "2db1b4177b21c43ea567fc768553267debd3ab6e233c03f45ef499cf7a8237d5",
        "0008_player_settings_again.sql": "581740c9caa54defbb3a273deaf0f5f5caaa3fa40d8dc0ac22e647828b31b5da",
        "0009_tournament_hands.sql": "35f76f1def866fe386c7804b92f2460ca0034bc63a271abf58986adaeb1c5a52",
        "0010_turn_calls_shown.sql": "241d84e053319c76d0d237930f9b3474408b6586b09a726a28fa39c815dbe6b7",
        "0011_tournament_places.sql": "44ef351f426c62569b5857ebd63eb1b80b76920e270882d9816c547694f83de6",
        "0012_ledger_no_replace.sql": "0b12050cfe563a4159fc4a1d2ba5ccb5b21056b96da5da13702cedc838fbce0d",
        "0013_stale_table_messages.sql": "fada073b213246e8554bebe258027468f6765c73e72b41a43307a137c188794f",
    },
    "postgresql": {
        "0001_init.sql": "103ad401af73569418f5de73459ea4ff3bc3e3059eed334d98130ca6f61b45d1",
        "0002_release_and_message.sql": "e83a7abdad6579e2e7250a7301fe9043485afda10e3d3cc9b6cb6cd0e30ecbb0",
        "0003_table_owner.sql": "7e7cfc4c49006031ce056a728325a0a744777865b4cc5d2c55e7c68a2f4bb11c",
        "0004_turn_calls.sql": "c68ff98aa9e396c9b09e2537e1d5326cf36b8188147bd032e4b3cf97d6c40ecc",
        "0005_hand_players.sql": "47dd9046f4b9fe2697a704e05dd9020475215cfbb15b7e6b2f9934ee844f5953",
        "0006_computers.sql": "c05661f66377d7f700d3678629625724f51a6cff1e6876dc647e9db3e9029b75",
        "0007_tournaments.sql": "da5bbf2730ab4ee2af30c9a57b55db3136be1618e4756d7dd3155ea285aa0001",
        "0008_player_settings_again.sql": "9e9ab6b41e81a7c6bd4996c04e75fe7634822ebfc2549512f3589c32a72c5bfc",
        "0009_tournament_hands.sql": "5e095e93c1c36283bd5b4fd96871cb700fa08afcc7d566535da8c5e4df1a7b85",
        "0010_turn_calls_shown.sql": "c9ea4ab4eb9d8f21f7e9c734e660a9c707211378efdc13f7316eeb6fca82d98b",
        "0011_tournament_places.sql": "390b3d094970600078dcea57460cd3a054031204fc862e39fff813a434943e18",
        "0012_ledger_no_replace.sql": "47935deeda64c0af84709dd25cbf7aec790afb78754ebb2baf042be55b7309e1",
        "0013_stale_table_messages.sql": "04b979897400262a20193014996c1369e85ae1349cf00f5fe8f72b2cc013d53e",
    },
}
TABLES = {"accounts", "poker_tables", "seats", "hands", "hand_seats", "movements", "entries"}


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_applied_migrations_are_never_edited(dialect: Dialect) -> None:
    found = {m.name: hashlib.sha256(m.sql.encode()).hexdigest() for m in load_migrations(dialect)}
    assert {name: found[name] for name in APPLIED[dialect]} == APPLIED[dialect]


def test_both_dialects_have_the_same_numbered_migrations() -> None:
    sqlite, postgres = load_migrations("sqlite"), load_migrations("postgresql")
    assert [m.version for m in sqlite] == list(range(1, len(sqlite) + 1))
    assert [m.name for m in postgres] == [m.name for m in sqlite]


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
async def test_an_empty_file_is_migrated_to_the_latest_version(tmp_path: Path, exists: bool) -> None:
    db_path = tmp_path / "data" / "poker.sqlite3"
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
        assert tables >= TABLES
    finally:
        conn.close()


async def test_an_empty_postgres_database_is_migrated_to_the_latest_version(pg: Database) -> None:
    db = pg
    async with await Storage.open(db.target) as store:
        assert (store.dialect, store.schema_version) == ("postgresql", len(load_migrations("postgresql")))
    assert [
        (v, n) for v, n in await db.query("SELECT version, name FROM schema_version ORDER BY version")
    ] == [(m.version, m.name) for m in load_migrations("postgresql")]
    assert set(await db.tables()) >= TABLES


async def test_reopening_and_remigrating_are_no_ops(db: Database) -> None:
    async with await Storage.open(db.target) as store:
        await store.balance(GUILD, ALICE)
    before, schema = await db.dump(), await db.schema()
    for _ in range(2):
        async with await Storage.open(db.target) as store:
            assert store.schema_version == len(load_migrations())
    assert await _migrate_again(db) == len(load_migrations())
    assert await db.dump() == before
    assert await db.schema() == schema


async def _migrate_again(db: Database, migrations: list[Migration] | None = None) -> int:
    if db.dialect == "sqlite":
        conn = await connect(db.target)
        try:
            return await migrate(conn, migrations)
        finally:
            await conn.close()
    pg = await asyncpg.connect(db.target)
    try:
        return await migrate_postgres(pg, migrations)
    finally:
        await pg.close()


async def test_connection_settings(tmp_path: Path) -> None:
    async with await Storage.open(tmp_path / "poker.sqlite3") as storage:
        conn = storage._backend.conn  # type: ignore[attr-defined]
        for pragma, expected in [("foreign_keys", 1), ("busy_timeout", 5000), ("synchronous", 2)]:
            async with conn.execute(f"PRAGMA {pragma}") as cursor:
                assert await cursor.fetchone() == (expected,), pragma


async def test_a_failing_migration_leaves_the_database_untouched(db: Database) -> None:
    good = load_migrations("sqlite" if db.dialect == "sqlite" else "postgresql")
    async with await Storage.open(db.target) as store:
        await store.balance(GUILD, ALICE)
    before, schema = await db.dump(), await db.schema()
    broken = Migration(
        len(good) + 1,
        "9999_broken.sql",
        "CREATE TABLE extra (x INTEGER);\n"
        "ALTER TABLE accounts ADD COLUMN y INTEGER;\n"
        "SELECT nope FROM nowhere;\n",
    )
    with pytest.raises((sqlite3.OperationalError, asyncpg.PostgresError)):
        await _migrate_again(db, [*good, broken])
    assert await _migrate_again(db) == len(good)  # still usable afterwards
    assert await db.dump() == before
    assert await db.schema() == schema


async def test_several_pending_migrations_apply_in_order_in_one_go(db: Database) -> None:
    steps = [
        Migration(1, "0001_a.sql", "CREATE TABLE a (x INTEGER);\n"),
        Migration(2, "0002_b.sql", "INSERT INTO a VALUES (1);\nCREATE TABLE b (y INTEGER);\n"),
        Migration(3, "0003_c.sql", "INSERT INTO b SELECT x + 1 FROM a;\n"),
    ]
    assert await _migrate_again(db, steps[:1]) == 1
    assert await _migrate_again(db, steps) == 3
    assert await _migrate_again(db, steps) == 3
    assert await db.query("SELECT y FROM b") == [(2,)]


async def test_a_database_migrated_while_0004_was_a_placeholder_gets_player_settings(db: Database) -> None:
    # Until the turn calls landed, 0004 was a placeholder (SELECT 1): a bot of then left its database
    # at version 6 without player_settings, and later versions only apply what is above.
    dialect: Dialect = "sqlite" if db.dialect == "sqlite" else "postgresql"
    placeholder = Migration(4, "0004_reserved.sql", "SELECT 1;\n")
    then = [placeholder if m.version == 4 else m for m in load_migrations(dialect) if m.version <= 6]
    assert await _migrate_again(db, then) == 6
    async with await Storage.open(db.target) as store:
        assert await store.turn_calls(GUILD, ALICE) is True  # the default: no row
        await store.set_turn_calls(GUILD, ALICE, False)
        assert await store.turn_calls(GUILD, ALICE) is False


async def test_a_database_newer_than_the_bot_is_refused(db: Database) -> None:
    async with await Storage.open(db.target):
        pass
    if db.dialect == "sqlite":
        await db.execute("PRAGMA user_version = 99")
    else:
        await db.execute("INSERT INTO schema_version (version, name) VALUES (99, '0099_future.sql')")
    with pytest.raises(SchemaTooNew, match="schema version 99") as refused:
        await Storage.open(db.target)
    assert refused.value.version == 99


async def test_a_database_at_0012_with_data_upgrades_to_0013_and_keeps_it(db: Database) -> None:
    """A database written by yesterday's bot (schema 0012: balances, a table, a hand played)
    is brought to 0013 at start-up with every row kept, and the new notes work on it."""
    async with await Storage.open(db.target) as store:
        table = await store.create_table(GUILD, 7, ALICE, "texas", {}, {})
        await store.buy_in(table, ALICE, 300)
        await store.buy_in(table, BOB, 300)
        hand = await store.begin_hand(table, {ALICE: 300, BOB: 300}, 0, {})
        await store.finish_hand(table, hand, {ALICE: 320, BOB: 280}, 0, {}, {"n": 1})
    # Back to what yesterday's bot left: no table of 0013, schema version 12.
    await db.execute("DROP TABLE stale_table_messages")
    if db.dialect == "sqlite":
        await db.execute("PRAGMA user_version = 12")
    else:
        await db.execute("DELETE FROM schema_version WHERE version = 13")
    before = await db.dump()
    async with await Storage.open(db.target) as store:
        assert store._backend.schema_version == 13
        assert await store.stale_messages_left() == []
        await store.note_stale_message(7, GUILD, SNOWFLAKE, 1)
        assert await store.stale_messages_left() == [(7, SNOWFLAKE, 1)]
        assert await store.check() == []
    after = await db.dump()
    after.pop("stale_table_messages", None)
    assert after.pop("version") == [(13,)] and before.pop("version") == [(12,)]
    if "schema_version" in after:
        after["schema_version"] = [r for r in after["schema_version"] if r[0] != 13]
    assert after == before
