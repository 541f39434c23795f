"""`python -m bot.storage.migrate_to_postgres`: a SQLite file with hands played moves to PostgreSQL
whole (ids, ledger order, balances, tables, the running hand) and the bot carries on there."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage import HandPlayer, Storage, TournamentHand
from bot.storage import db as sqlite_db
from bot.storage.migrate_to_postgres import TABLES, main
from bot.storage.sqlite import SqliteBackend
from engine.tournament import Tournament, TournamentConfig
from tests.storage.conftest import (
    ADMIN,
    ALICE,
    BOB,
    CARLA,
    GUILD,
    OTHER_GUILD,
    Database,
    FakeClock,
)
from tests.storage.test_migrations import SNOWFLAKE
from tests.storage.test_release import three_at_a_hand

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.storage.migrate_to_postgres", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


async def played(path: Path, clock: FakeClock) -> None:
    """A few evenings: bonuses, a grant, a closed table, a table with a carried pot, a tournament
    playing, a hand running."""
    async with await Storage.open(path, clock=clock) as store:
        await store.claim_bonus(GUILD, ALICE)
        await store.grant(OTHER_GUILD, BOB, 300, ADMIN)
        old = await store.create_table(GUILD, 1, ALICE, "texas", {"buio": 10}, {})
        await store.buy_in(old, ALICE, 300)
        await store.buy_in(old, BOB, 300)
        for _ in range(3):
            hand = await store.begin_hand(old, (await store.table(old)).seats, 0, {})
            seats = (await store.table(old)).seats
            summary = [  # the hand summaries (migration 0005) move too
                HandPlayer(ALICE, 20, True, 1, 0, 40, 4_000_000, 1, "coppia: A♥ A♠ K♦ 9♣ 7♠"),
                HandPlayer(BOB, -20, False, 0, 0, 0),
            ]
            await store.finish_hand(
                old, hand, {ALICE: seats[ALICE] + 20, BOB: seats[BOB] - 20}, 0, {}, {"n": 1}, summary
            )
        await store.close_table(old, {ALICE: 360, BOB: 240})
        carried = await store.create_table(GUILD, 2, BOB, "32carte", {}, {"nome": "Verde"})
        await store.buy_in(carried, ALICE, 100)
        await store.buy_in(carried, CARLA, 100)
        hand = await store.begin_hand(carried, {ALICE: 100, CARLA: 100}, 0, {})
        await store.finish_hand(carried, hand, {ALICE: 90, CARLA: 80}, 30, {"pot": 30}, {})
        await store.set_table_message(carried, 4242)
        t = Tournament(TournamentConfig.default("texas", buy_in=100, max_players=3))
        row = await store.create_tournament(GUILD, 5, BOB, "texas", dict(t.config.to_dict()), _state(t))
        for user in (ALICE, BOB):
            t.register(user)
            await store.register_tournament(row.id, user, 100, _state(t))
        await store.start_tournament(row.id, _state(t))
        await store.save_tournament(row.id, _state(t), [TournamentHand(1)])  # its hands move too
        await store.save_tournament(row.id, _state(t), [TournamentHand(1, {"n": 1})])
        await store.save_tournament(row.id, _state(t), [TournamentHand(2)])
        done = await store.create_tournament(GUILD, 6, ALICE, "italiana", dict(t.config.to_dict()), _state(t))
        for user in (ALICE, CARLA):
            await store.register_tournament(done.id, user, 100, _state(t))
        await store.start_tournament(done.id, _state(t))
        await store.finish_tournament(
            done.id, {CARLA: 200}, _state(t), [TournamentHand(1, {"n": 1})], {CARLA: 1, ALICE: 2}
        )
        table, hand = await three_at_a_hand(store)
        await store.release_mid_hand(table, hand, CARLA, 280)  # and the bot stops mid-hand


async def snapshot(store: Storage) -> object:
    players = [(GUILD, ALICE), (GUILD, BOB), (GUILD, CARLA), (OTHER_GUILD, BOB)]
    histories = [await store.history(g, u, 100) for g, u in players]
    return (
        await store.open_tables(),
        [await store.leaderboard(g, 100) for g in (GUILD, OTHER_GUILD)],
        histories,
    )


async def test_a_played_sqlite_file_moves_whole(tmp_path: Path, pg: Database, clock: FakeClock) -> None:
    source = tmp_path / "poker.sqlite3"
    await played(source, clock)
    async with await Storage.open(source, clock=clock) as store:
        before = await snapshot(store)
    sqlite = Database("sqlite", str(source))
    rows = {
        table: await sqlite.query(f"SELECT * FROM {table} ORDER BY {order}")
        for table, order in TABLES.items()
    }

    done = run("--sqlite", str(source), "--postgres", pg.target)
    assert done.returncode == 0, done.stderr
    assert "Both ledgers prove themselves" in done.stdout
    for table, order in TABLES.items():
        assert await pg.query(f"SELECT * FROM {table} ORDER BY {order}") == rows[table], table
    async with await Storage.open(pg.target, clock=clock) as store:
        assert await snapshot(store) == before
        assert await store.check() == []
        # The bot carries on: the interrupted hand is cancelled, new ids follow the copied ones.
        [table] = [t.id for t in await store.open_tables() if t.running_hand_id is not None]
        assert await store.recover() == [table]
        fresh = await store.create_table(GUILD, 77, ALICE, "texas", {}, {})
        assert fresh == max(r[0] for r in rows["poker_tables"]) + 1
        assert await store.grant(GUILD, CARLA, 5, ADMIN) > 0
        [(movement,)] = await pg.query("SELECT MAX(id) FROM movements")
        assert movement > max(r[0] for r in rows["movements"])
        assert await store.check() == []

    again = run("--sqlite", str(source), "--postgres", pg.target)
    assert again.returncode == 1
    assert "not empty" in again.stderr
    assert await pg.query("SELECT COUNT(*) FROM poker_tables") == [(len(rows["poker_tables"]) + 1,)]


async def test_a_missing_file_or_a_wrong_target_is_refused(tmp_path: Path, pg: Database) -> None:
    missing = run("--sqlite", str(tmp_path / "nope.sqlite3"), "--postgres", pg.target)
    assert missing.returncode == 1 and "no SQLite database" in missing.stderr
    assert not (tmp_path / "nope.sqlite3").exists()
    wrong = run("--sqlite", str(tmp_path / "nope.sqlite3"), "--postgres", str(tmp_path / "x.sqlite3"))
    assert wrong.returncode == 1 and "postgresql://" in wrong.stderr


async def test_a_postgresql_that_cannot_be_reached_is_one_refusal(tmp_path: Path) -> None:
    database = tmp_path / "poker.sqlite3"
    await (await Storage.open(database)).close()
    down = run("--sqlite", str(database), "--postgres", "postgresql://tavolo:pw-secret@127.0.0.1:1/tavolo")
    assert down.returncode == 1 and "Traceback" not in down.stderr, down.stderr
    assert down.stderr.startswith("Refused, nothing copied: PostgreSQL cannot be reached")
    assert "pw-secret" not in down.stderr


async def test_a_file_a_bot_is_running_on_is_not_copied(
    tmp_path: Path, pg: Database, clock: FakeClock
) -> None:
    # What the bot wrote after the copy would stay behind in the file: it must be stopped first.
    source = tmp_path / "poker.sqlite3"
    await played(source, clock)
    async with await Storage.open(source, clock=clock) as bot:
        await bot.hold_database()  # what a running bot holds (bot/client.py)
        done = run("--sqlite", str(source), "--postgres", pg.target)
    assert done.returncode == 1 and "a bot is running on" in done.stderr, done.stderr
    # Refused before the target was touched; once the bot stopped the copy goes through (on an
    # empty target only: nothing had been written).
    later = run("--sqlite", str(source), "--postgres", pg.target)
    assert later.returncode == 0, later.stderr


async def test_a_postgresql_a_bot_is_running_on_is_not_copied_into(
    tmp_path: Path, pg: Database, clock: FakeClock
) -> None:
    # A bot already started on the (still empty) target holds its shards: the copied tables would have
    # no owner it serves until its restart, and it may write between the check and the copy.
    source = tmp_path / "poker.sqlite3"
    await played(source, clock)
    async with await Storage.open(pg.target) as bot:
        await bot.claim_tables((0,), 1)  # what a bot running on PostgreSQL holds (bot/client.py)
        done = run("--sqlite", str(source), "--postgres", pg.target)
        assert done.returncode == 1 and "a bot is running on the PostgreSQL database" in done.stderr, (
            done.stderr
        )
        assert await bot.open_tables() == []  # nothing copied
    later = run("--sqlite", str(source), "--postgres", pg.target)
    assert later.returncode == 0, later.stderr


async def test_a_refused_copy_leaves_a_running_bots_schema_as_it_was(tmp_path: Path, pg: Database) -> None:
    # A bot one version behind runs on the file: the refused tool must not have upgraded its schema
    # first (that bot's next start would find a database newer than itself and stop).
    source = tmp_path / "poker.sqlite3"
    conn = await sqlite_db.connect(source)
    try:
        older = sqlite_db.load_migrations("sqlite")[:-1]
        assert await sqlite_db.migrate(conn, older) == len(older)
    finally:
        await conn.close()
    with _held(source):
        done = run("--sqlite", str(source), "--postgres", pg.target)
        assert done.returncode == 1 and "a bot is running on" in done.stderr, done.stderr
        with contextlib.closing(sqlite3.connect(source)) as after:
            assert after.execute("PRAGMA user_version").fetchone() == (len(older),)


@contextlib.contextmanager
def _held(path: Path) -> Iterator[None]:
    """The lock a bot running on `path` holds (bot/storage/sqlite.py), taken here by hand."""
    with open(path.with_name(path.name + ".lock"), "ab") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield


async def test_a_ledger_that_does_not_prove_itself_is_not_copied(
    tmp_path: Path, pg: Database, clock: FakeClock
) -> None:
    source = tmp_path / "poker.sqlite3"
    await played(source, clock)
    await Database("sqlite", str(source)).execute(
        "UPDATE accounts SET balance = balance + 1 WHERE user_id = ?", BOB
    )
    done = run("--sqlite", str(source), "--postgres", pg.target)
    assert done.returncode == 1 and "does not prove itself" in done.stderr
    async with await Storage.open(pg.target) as store:
        assert await store.open_tables() == []
    assert await pg.query("SELECT COUNT(*) FROM movements") == [(0,)]


async def test_tournament_data_changed_after_the_proof_is_not_copied(
    tmp_path: Path,
    pg: Database,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The source is proven in the very snapshot that is copied, by the tournaments' check as well as
    the ledger's: a write that slips in before the copy (a bot still running) and leaves a pool that
    no longer matches its entrants is refused, with the reason, and nothing reaches PostgreSQL."""
    source = tmp_path / "poker.sqlite3"
    t = Tournament(TournamentConfig.default("texas", buy_in=100, max_players=3))
    async with await Storage.open(source, clock=clock) as store:
        row = await store.create_tournament(GUILD, 9, ALICE, "texas", dict(t.config.to_dict()), _state(t))
        for user in (ALICE, BOB):
            t.register(user)
            await store.register_tournament(row.id, user, 100, _state(t))
        assert await store.check() == []
    emptied = json.dumps(_state(Tournament(t.config)))  # the state lists no entrant: the pool holds 200
    real = SqliteBackend.transaction

    def transaction(self: SqliteBackend, *, write: bool) -> Any:
        if not write:  # the snapshot is about to be read: another writer gets there first
            with contextlib.closing(sqlite3.connect(source)) as other, other:
                other.execute("UPDATE tournaments SET state = ? WHERE id = ?", (emptied, row.id))
        return real(self, write=write)

    monkeypatch.setattr(SqliteBackend, "transaction", transaction)
    code = await asyncio.to_thread(main, ["--sqlite", str(source), "--postgres", pg.target])
    assert code == 1
    err = capsys.readouterr().err
    assert "does not prove itself" in err and f"tournament {row.id}: pool 200" in err, err
    assert await pg.query("SELECT COUNT(*) FROM tournaments") == [(0,)]
    assert await pg.query("SELECT COUNT(*) FROM movements") == [(0,)]


def _state(t: Tournament) -> dict[str, Any]:
    return {"tournament": dict(t.to_dict()), "table": None}


async def test_every_table_of_the_schema_is_copied(tmp_path: Path) -> None:
    """A migration that adds a table must add it to the copy, or its rows would stay behind."""
    path = tmp_path / "poker.sqlite3"
    async with await Storage.open(path):
        pass
    assert set(await Database("sqlite", str(path)).tables()) == set(TABLES)


async def test_migrate_to_postgres_carries_the_stale_message_notes_by_shard(
    tmp_path: Path, pg: Database, clock: FakeClock
) -> None:
    """The notes a stopped SQLite bot left (a hand number, and None) move to PostgreSQL and
    each shard's process reads its own there."""
    source = tmp_path / "poker.sqlite3"
    await played(source, clock)
    on_one, on_zero = 1 << 22, 2 << 22
    async with await Storage.open(source, clock=clock) as store:
        await store.note_stale_message(10, on_one, SNOWFLAKE, 3)
        await store.note_stale_message(20, on_zero, SNOWFLAKE + 1, None)
    done = run("--sqlite", str(source), "--postgres", pg.target)
    assert done.returncode == 0, done.stderr
    assert "stale_table_messages 2" in done.stdout
    async with await Storage.open(pg.target, clock=clock) as store:
        assert await store.stale_messages_left(shard_ids=[1], shard_count=2) == [(10, SNOWFLAKE, 3)]
        assert await store.stale_messages_left(shard_ids=[0], shard_count=2) == [(20, SNOWFLAKE + 1, None)]
