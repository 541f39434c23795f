"""Two OS processes writing the same tables and balances at once: no chip created or lost, no hand
applied twice. On PostgreSQL the row locks and conditional updates keep them apart; on SQLite
``BEGIN IMMEDIATE`` and the busy timeout do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.storage import Storage
from tests.storage.conftest import Database
from tests.storage.race_writer import GUILD

ROOT = Path(__file__).resolve().parents[2]
OPS = 250


async def test_two_processes_racing_on_the_same_tables_keep_every_chip(db: Database) -> None:
    async with await Storage.open(db.target, starting_chips=500) as store:
        for channel in (1, 2, 3):
            await store.create_table(GUILD, channel, 999, "texas", {}, {})
    writers = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.storage.race_writer", db.target, str(seed), str(OPS)],
            cwd=ROOT,  # the repository's own packages come first on sys.path
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for seed in (1, 2)
    ]
    try:
        for writer in writers:
            assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
        for writer in writers:
            assert writer.stdin is not None
            writer.stdin.write("go\n")
            writer.stdin.flush()
        reports = [writer.communicate(timeout=120)[0].split() for writer in writers]
    finally:
        for writer in writers:
            writer.kill()
    assert [writer.returncode for writer in writers] == [0, 0]
    granted = sum(int(report[1]) for report in reports)
    finished = sum(int(report[2]) for report in reports)
    assert finished > 20 and granted > 0  # both really played
    [(in_ledger,)] = await db.query(
        "SELECT COALESCE(SUM(e.amount), 0) FROM entries AS e JOIN movements AS m ON m.id = e.movement_id"
        " WHERE m.reason = 'grant'"
    )
    assert in_ledger == granted
    # Each hand one process reported finished is finished once in the database, and no other.
    assert await db.query("SELECT COUNT(*) FROM hands WHERE status = 'finished'") == [(finished,)]
    [(hand_movements,)] = await db.query("SELECT COUNT(*) FROM movements WHERE reason = 'hand'")
    assert hand_movements <= finished  # a hand that moved no chip writes no movement
    async with await Storage.open(db.target) as store:
        assert await store.check() == []
