"""Recovery: a hand interrupted by a crash is cancelled and every chip goes back where it was."""

from __future__ import annotations

import logging
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.db import load_migrations
from tests.storage.conftest import ALICE, BOB, CARLA, CHANNEL, GUILD, STARTING, Database, FakeClock, state_of

ROOT = Path(__file__).resolve().parents[2]


async def test_an_unfinished_hand_is_restored_to_its_start(db: Database, clock: FakeClock) -> None:
    store = await Storage.open(db.target, starting_chips=STARTING, clock=clock)
    table = await store.create_table(GUILD, CHANNEL, ALICE, "texas", {"buio": 10}, state_of({}))
    await store.buy_in(table, ALICE, 500)
    await store.buy_in(table, BOB, 400)
    first = await store.begin_hand(table, {ALICE: 500, BOB: 400}, 0, state_of({ALICE: 500, BOB: 400}))
    await store.finish_hand(
        table, first, {ALICE: 550, BOB: 340}, 10, state_of({ALICE: 550, BOB: 340}, 10), {}
    )
    start_state = state_of({ALICE: 550, BOB: 340}, 10, dealer=1)
    hand = await store.begin_hand(table, {ALICE: 550, BOB: 340}, 10, start_state)
    await store.buy_in(table, CARLA, 250)  # sat down during the hand: waits for the next one
    await store.close()  # the bot dies here: the hand never finishes

    store = await Storage.open(db.target, starting_chips=STARTING, clock=clock)
    try:
        [before] = await store.open_tables()
        assert before.running_hand_id == hand
        assert await store.recover() == [table]
        [row] = await store.open_tables()
        assert (row.seats, row.pot, row.state, row.running_hand_id) == (
            {ALICE: 550, BOB: 340},
            10,
            start_state,
            None,
        )
        assert await store.balance(GUILD, CARLA) == STARTING  # her buy-in is refunded
        [summary] = (await store.history(GUILD, ALICE)).hands[:1]
        assert (summary.hand_id, summary.status, summary.end_stack) == (hand, "cancelled", None)
        assert (await store.history(GUILD, CARLA)).entries[0].reason == "refund"
        assert await store.check() == []
        snapshot = await db.dump()
        assert await store.recover() == []  # nothing left to recover, nothing changes
        assert await db.dump() == snapshot
        # The table plays on: the next hand is numbered after the cancelled one.
        nxt = await store.begin_hand(table, {ALICE: 550, BOB: 340}, 10, start_state)
        await store.finish_hand(table, nxt, {ALICE: 900, BOB: 0}, 0, {}, {})
        assert [h.number for h in (await store.history(GUILD, ALICE)).hands[:3]] == [3, 2, 1]
        # Or it is closed and every chip goes back to the balances.
        await store.close_table(table, {ALICE: 900, BOB: 0})
        assert await store.balance(GUILD, ALICE) + await store.balance(GUILD, BOB) == 2 * STARTING
        assert await store.check() == []
    finally:
        await store.close()


async def test_recover_handles_every_table(db: Database) -> None:
    async with await Storage.open(db.target) as store:
        ids = []
        for channel in (1, 2, 3):
            table = await store.create_table(GUILD, channel, ALICE, "32carte", {}, {})
            await store.buy_in(table, ALICE, 100)
            await store.buy_in(table, BOB, 100)
            ids.append(table)
        await store.begin_hand(ids[0], {ALICE: 100, BOB: 100}, 0, {})
        await store.begin_hand(ids[2], {ALICE: 100, BOB: 100}, 0, {})
    async with await Storage.open(db.target) as store:
        assert await store.recover() == [ids[0], ids[2]]
        assert all(row.running_hand_id is None for row in await store.open_tables())
        assert await store.check() == []


def _kill_writer_at_random(db: Database, rng: random.Random, seed: int, *, mid_hand: bool) -> int:
    """Run the writer, SIGKILL it after a random number of commits; return the last acknowledged one.

    With `mid_hand` the kill follows at once the first acknowledgement made while a hand is running,
    so it almost always lands before that hand is finished.
    """
    writer = subprocess.Popen(
        [sys.executable, "-m", "tests.storage.crash_writer", db.target, str(seed)],  # cwd first on sys.path
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    acked = 0
    try:
        assert writer.stdout is not None
        assert writer.stdout.readline() == "ready\n"
        wanted = rng.randint(1, 60)
        for count in range(1, 2000):
            line = writer.stdout.readline()
            assert line.startswith("ack "), line
            acked, running = int(line.split()[1]), line.split()[2] == "hand"
            if count >= wanted and (running or not mid_hand):
                break
        if not mid_hand:
            time.sleep(rng.random() / 500)  # land anywhere inside the next transactions
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
    assert writer.returncode == -signal.SIGKILL
    return acked


async def test_sigkill_at_random_moments_loses_no_chip(db: Database) -> None:
    """SQLite: the file survives the kill (WAL). PostgreSQL: the server rolls back the killed
    client's open transaction. Either way recover() + check() find every chip."""
    rng = random.Random(20261122)
    latest = len(load_migrations())
    schema: list[tuple[object, ...]] | None = None
    recovered_hands = 0
    released = 0
    for run in range(12 if db.dialect == "sqlite" else 8):
        acked = _kill_writer_at_random(db, rng, seed=run, mid_hand=run % 2 == 0)
        current = await db.schema()
        [(count,)] = await db.query("SELECT COUNT(*) FROM hand_seats WHERE released IS NOT NULL")
        released = max(released, count)
        schema = schema or current
        assert current == schema  # re-opening never re-applies a migration
        async with await Storage.open(db.target, starting_chips=100, daily_bonus=25) as store:
            assert store.schema_version == latest
            recovered_hands += len(await store.recover())
            assert await store.check() == [], f"run {run}"
            # Every transaction acknowledged before the kill survived it.
            assert await store.balance(77, 999) >= acked
            assert all(row.running_hand_id is None for row in await store.open_tables())
    assert recovered_hands > 0  # the kills aimed inside a hand did interrupt some
    assert released > 0  # and players left mid-hand (release_mid_hand) before some of them


async def test_sigkill_inside_a_transaction_applies_none_of_it(db: Database) -> None:
    """The writer is killed with its transaction open: after the buy-in's debit, and after the new
    stacks of a hand's result. Neither is applied; recover() cancels the hand; the ledger proves itself."""
    async with await Storage.open(db.target, starting_chips=STARTING) as store:
        table = await store.create_table(GUILD, CHANNEL, ALICE, "texas", {}, state_of({}))
        await store.buy_in(table, ALICE, 300)
        await store.buy_in(table, BOB, 200)
        await store.balance(GUILD, 77)
        hand = await store.begin_hand(table, {ALICE: 300, BOB: 200}, 0, state_of({ALICE: 300}))
    for operation in ("buy_in", "finish"):
        before = await db.dump()
        writer = subprocess.Popen(
            [sys.executable, "-m", "tests.storage.stall_writer", db.target, str(table), operation],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert writer.stdout is not None and writer.stdout.readline() == "stalled\n", operation
        finally:
            os.kill(writer.pid, signal.SIGKILL)
            writer.wait()
        assert await db.dump() == before, operation  # nothing of the open transaction was kept
    async with await Storage.open(db.target, starting_chips=STARTING) as store:
        assert await store.recover() == [table]
        row = await store.table(table)
        assert (row.seats, row.running_hand_id, row.last_hand_status) == (
            {ALICE: 300, BOB: 200},
            None,
            "cancelled",
        )
        assert await store.balance(GUILD, 77) == STARTING
        assert await store.check() == []
        assert [h.hand_id for h in (await store.history(GUILD, ALICE)).hands] == [hand]


async def test_a_damaged_table_is_logged_and_skipped_and_the_others_recover(
    db: Database, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """One table's seat was changed behind the ledger's back while its hand ran: cancelling that
    hand would create chips, so its recovery is refused (rolled back), logged with the table's id,
    and the next table's interrupted hand is still cancelled."""
    async with await Storage.open(db.target, starting_chips=STARTING, clock=clock) as store:
        tables, hands = [], []
        for channel in (CHANNEL, CHANNEL + 1):
            table = await store.create_table(GUILD, channel, ALICE, "texas", {}, state_of({}))
            await store.buy_in(table, ALICE, 300)
            await store.buy_in(table, BOB, 200)
            hands.append(await store.begin_hand(table, {ALICE: 300, BOB: 200}, 0, state_of({ALICE: 300})))
            tables.append(table)
    damaged, healthy = tables  # the damaged one comes first: it must not stop the other
    await db.execute("UPDATE seats SET stack = stack + 5 WHERE table_id = ? AND user_id = ?", damaged, BOB)
    damaged_before = await db.query("SELECT user_id, stack FROM seats WHERE table_id = ? ORDER BY 1", damaged)

    async with await Storage.open(db.target, starting_chips=STARTING, clock=clock) as store:
        with caplog.at_level(logging.ERROR, logger="bot.storage.storage"):
            assert await store.recover() == [healthy]
        [logged] = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert f"Table {damaged}:" in logged.getMessage() and str(hands[0]) in logged.getMessage()
        rows = {row.id: row for row in await store.open_tables()}
        assert (rows[healthy].running_hand_id, rows[healthy].last_hand_status) == (None, "cancelled")
        assert rows[damaged].running_hand_id == hands[0], "left as it was, for an operator to look at"
        assert (
            await db.query("SELECT user_id, stack FROM seats WHERE table_id = ? ORDER BY 1", damaged)
            == damaged_before
        )
        problems = await store.check()
        assert problems and all(f"table {healthy}" not in p for p in problems)
