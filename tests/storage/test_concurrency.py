"""Concurrent tasks on one player: the lock and the conditional updates keep every chip in place."""

from __future__ import annotations

import asyncio
import contextlib
import random

from bot.storage import InsufficientChips, NotSeated, Storage
from tests.storage.conftest import ALICE, BOB, GUILD, STARTING, Database


async def test_50_concurrent_buy_ins_and_cash_outs_end_exactly(storage: Storage, db: Database) -> None:
    tables = [await storage.create_table(GUILD, 100 + i, BOB, "texas", {}, {}) for i in range(50)]
    rng = random.Random(4)
    amounts = [rng.randint(1, 19) for _ in tables]  # sum stays below the balance: none is refused

    async def sit_and_leave(table: int, amount: int) -> int:
        await asyncio.sleep(0)
        await storage.buy_in(table, ALICE, amount)
        await asyncio.sleep(0)
        return await storage.cash_out(table, ALICE)

    workers = [sit_and_leave(t, a) for t, a in zip(tables, amounts, strict=True)]
    rng.shuffle(workers)
    assert sorted(await asyncio.gather(*workers)) == sorted(amounts)
    assert await storage.balance(GUILD, ALICE) == STARTING
    reasons = await db.query(
        "SELECT m.reason, COUNT(*), SUM(e.amount) FROM movements AS m JOIN entries AS e"
        " ON e.movement_id = m.id WHERE e.user_id = ? AND e.account = 'balance' GROUP BY m.reason",
        ALICE,
    )
    assert sorted(reasons) == [
        ("buy_in", 50, -sum(amounts)),
        ("cash_out", 50, sum(amounts)),
        ("start", 1, STARTING),
    ]
    assert await storage.check() == []


async def test_concurrent_buy_ins_never_spend_the_same_chips_twice(storage: Storage) -> None:
    tables = [await storage.create_table(GUILD, 100 + i, BOB, "texas", {}, {}) for i in range(50)]
    await storage.balance(GUILD, ALICE)

    async def sit(table: int) -> bool:
        try:
            await storage.buy_in(table, ALICE, 30)
        except InsufficientChips:
            return False
        return True

    results = await asyncio.gather(*(sit(t) for t in tables))
    assert results.count(True) == STARTING // 30  # 33 seats, 990 chips
    assert await storage.balance(GUILD, ALICE) == STARTING % 30
    seated = [row for row in await storage.open_tables() if row.seats]
    assert sum(row.seats[ALICE] for row in seated) == 30 * (STARTING // 30)
    assert await storage.check() == []


async def test_a_refusal_in_one_task_does_not_undo_another(storage: Storage) -> None:
    table = await storage.create_table(GUILD, 7, BOB, "texas", {}, {})
    other = await storage.create_table(GUILD, 8, BOB, "texas", {}, {})

    results = await asyncio.gather(
        storage.buy_in(table, ALICE, 600),
        storage.buy_in(other, ALICE, 600),
        storage.grant(GUILD, BOB, 5, ALICE),
        return_exceptions=True,
    )
    assert sum(isinstance(r, InsufficientChips) for r in results) == 1
    assert await storage.balance(GUILD, ALICE) == STARTING - 600
    assert await storage.balance(GUILD, BOB) == STARTING + 5
    assert await storage.check() == []


async def test_a_task_cancelled_at_any_step_of_its_transaction_leaves_the_database_usable(
    storage: Storage,
) -> None:
    """Cancelled while its BEGIN, a statement or its COMMIT is on the way (a turn call whose turn
    passed, a bot stopping): the transaction is rolled back and the next one runs."""
    table = await storage.create_table(GUILD, 7, BOB, "texas", {}, {})
    await storage.balance(GUILD, ALICE)
    for steps in range(6):  # cancel after 0, 1, 2... turns of the event loop
        task = asyncio.create_task(storage.buy_in(table, ALICE, 10))
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        # The buy-in was committed (10 come back) or rolled back (not seated): either way, the next
        # transactions run.
        with contextlib.suppress(NotSeated):
            assert await storage.cash_out(table, ALICE) == 10
    assert await storage.balance(GUILD, ALICE) == STARTING
    assert await storage.check() == []
