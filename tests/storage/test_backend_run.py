"""`Backend.run` and `Backend.read_once`: a transaction's body handed over whole.

SQLite runs the body on aiosqlite's thread, BEGIN to COMMIT in one hop, driving the coroutine
synchronously: a body that awaits anything but its connection is refused and rolled back, and a
caller cancelled before the COMMIT leaves nothing behind. `read_once` runs a one-statement read
without BEGIN and COMMIT and refuses a second statement, or a write, on both backends. `Conn.batch`
(one statement on PostgreSQL) returns every statement's own row count.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.sql import Conn
from tests.storage.conftest import ALICE, BOB, CHANNEL, GUILD, state_of


async def _message_of(storage: Storage, table_id: int) -> int | None:
    return (await storage.table(table_id)).message_id


async def test_a_body_that_awaits_something_else_is_refused_and_rolled_back(storage: Storage) -> None:
    table_id = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", {}, state_of({}))

    async def body(conn: Conn) -> None:
        await conn.execute("UPDATE poker_tables SET message_id = 7 WHERE id = ?", (table_id,))
        await asyncio.sleep(0)  # allowed by PostgreSQL's backend, never by SQLite's thread

    if storage.dialect == "sqlite":
        with pytest.raises(RuntimeError, match="may await only its connection"):
            await storage._backend.run(body, write=True)
        assert await _message_of(storage, table_id) is None
    else:
        await storage._backend.run(body, write=True)
        assert await _message_of(storage, table_id) == 7


async def test_an_error_in_the_body_rolls_everything_back(storage: Storage) -> None:
    table_id = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", {}, state_of({}))

    async def body(conn: Conn) -> None:
        await conn.execute("UPDATE poker_tables SET message_id = 7 WHERE id = ?", (table_id,))
        raise LookupError("refused after a write")

    with pytest.raises(LookupError):
        await storage._backend.run(body, write=True)
    assert await _message_of(storage, table_id) is None


async def test_sqlite_caller_cancelled_before_the_commit_leaves_nothing(tmp_path: Path) -> None:
    async with await Storage.open(tmp_path / "poker.sqlite3") as storage:
        table_id = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", {}, state_of({}))
        inside, go_on = threading.Event(), threading.Event()

        async def body(conn: Conn) -> None:
            await conn.execute("UPDATE poker_tables SET message_id = 7 WHERE id = ?", (table_id,))
            inside.set()
            go_on.wait(10)  # on aiosqlite's thread: the caller is cancelled meanwhile

        task = asyncio.create_task(storage._backend.run(body, write=True))
        assert await asyncio.to_thread(inside.wait, 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        go_on.set()
        # The next transaction queues behind the abandoned one on the same thread.
        assert await _message_of(storage, table_id) is None
        await storage.set_table_message(table_id, 9)
        assert await _message_of(storage, table_id) == 9


async def test_read_once_runs_one_read_only(storage: Storage) -> None:
    table_id = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", {}, state_of({}))

    async def two(conn: Conn) -> None:
        await conn.fetch("SELECT id FROM poker_tables WHERE id = ?", (table_id,))
        await conn.fetch("SELECT id FROM poker_tables WHERE id = ?", (table_id,))

    async def write(conn: Conn) -> None:
        await conn.execute("UPDATE poker_tables SET message_id = 7 WHERE id = ?", (table_id,))

    with pytest.raises(RuntimeError, match="one statement"):
        await storage._backend.read_once(two)
    with pytest.raises(RuntimeError, match="only reads"):
        await storage._backend.read_once(write)
    assert (await storage.table(table_id)).message_id is None


async def test_batch_returns_each_statement_row_count(storage: Storage) -> None:
    table_id = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", {}, state_of({}))
    for user in (ALICE, BOB):
        await storage.buy_in(table_id, user, 100)
    counts: list[int] = []

    async def body(conn: Conn) -> None:
        source, args = conn.rows((("user_id", "BIGINT"), ("stack", "BIGINT")), [(ALICE, 100), (BOB, 100)])
        counts.extend(
            await conn.batch(
                [
                    (
                        f"UPDATE seats SET stack = v.stack - 10 FROM {source} AS v"
                        " WHERE seats.table_id = ? AND seats.user_id = v.user_id AND seats.stack = v.stack",
                        [*args, table_id],
                    ),
                    ("UPDATE poker_tables SET pot = 20 WHERE id = ? AND pot = 5", (table_id,)),
                    ("UPDATE poker_tables SET message_id = 3 WHERE id = ?", (table_id,)),
                ]
            )
        )
        raise LookupError("refused after the batch: none of its writes may stay")

    with pytest.raises(LookupError):
        await storage._backend.run(body, write=True)
    assert counts == [2, 0, 1]
    row = await storage.table(table_id)
    assert row.seats == {ALICE: 100, BOB: 100} and row.message_id is None


async def test_sqlite_transaction_cancelled_at_any_step_is_rolled_back(tmp_path: Path) -> None:
    """The statement-by-statement `transaction()` (the move to PostgreSQL reads through it): a task
    cancelled while its BEGIN, its UPDATE or its COMMIT is on the way leaves no transaction open."""
    async with await Storage.open(tmp_path / "poker.sqlite3") as storage:
        table_id = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", {}, state_of({}))
        backend = storage._backend

        async def write() -> None:
            async with backend.transaction(write=True) as conn:
                await conn.execute("UPDATE poker_tables SET message_id = 7 WHERE id = ?", (table_id,))

        for steps in range(8):  # cancel after 0, 1, 2... turns of the event loop
            task = asyncio.create_task(write())
            for _ in range(steps):
                await asyncio.sleep(0)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await storage.set_table_message(table_id, steps)  # the next transaction runs
            assert await _message_of(storage, table_id) == steps
        assert await storage.check() == []
