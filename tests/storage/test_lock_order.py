"""Row locks on accounts: transactions that credit several balances, and computers buying in from one
house at once, never deadlock nor refuse one another on PostgreSQL (and stay right on SQLite).

The PostgreSQL tests are made deterministic by a hook that holds the first transaction open, after
its first write, until the second one is in the race: it has read what it needs, or it waits for a
row lock held by the first. Hooks run on PostgreSQL only: a SQLite transaction runs in one hop to its
thread and may await nothing but its connection (and takes the whole file anyway).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from typing import Any

import pytest

from bot.storage import DatabaseBusy, Storage, ledger, tables, tournaments
from bot.storage.ledger import HOUSE
from tests.storage.conftest import ALICE, BOB, GUILD, STARTING, Database, FakeClock
from tests.storage.test_tournament_pool import BUY_IN, announced, register, state


async def _waiting(db: Database) -> bool:
    """Whether a session of the test's database waits for a lock held by another transaction."""
    [(count,)] = await db.query(
        "SELECT COUNT(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    return int(count) > 0


async def until(condition: Callable[[], Awaitable[bool]]) -> None:
    for _ in range(1000):
        if await condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the other transaction never came")


@pytest.fixture
async def store(pg: Database, clock: FakeClock) -> AsyncIterator[Storage]:
    opened = await Storage.open(pg.target, starting_chips=STARTING, clock=clock)
    try:
        yield opened
    finally:
        await opened.close()


async def test_a_table_closing_and_a_tournament_paying_the_same_players_both_commit(
    store: Storage, pg: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table pays Alice then Bob; the prizes name Bob first. Each credit locks the account's row
    until the commit, so in opposite orders each transaction would wait for the other (PostgreSQL
    aborts one as a deadlock). In the one order of `ledger.credit_all` the second waits and goes on."""
    table = await store.create_table(GUILD, 7, ALICE, "texas", {}, {})
    await store.buy_in(table, ALICE, 100)
    await store.buy_in(table, BOB, 100)
    tid, t = await announced(store)
    await register(store, tid, t, ALICE, BOB)
    await store.start_tournament(tid, state(t))

    real = ledger.credit
    holding = asyncio.Event()
    closing: asyncio.Task[None] | None = None

    async def credit(conn: Any, guild_id: int, user_id: int, amount: int) -> None:
        await real(conn, guild_id, user_id, amount)
        if asyncio.current_task() is closing and not holding.is_set():
            holding.set()  # the table holds its first account: let the tournament run into it
            await until(lambda: _waiting(pg))

    for module in (ledger, tables, tournaments):  # where the credits are called from, before and now
        monkeypatch.setattr(module, "credit", credit, raising=False)
    closing = asyncio.create_task(store.close_table(table, {ALICE: 100, BOB: 100}))
    await holding.wait()
    paying = asyncio.create_task(store.finish_tournament(tid, {BOB: 150, ALICE: 50}, state(t)))
    assert await asyncio.gather(closing, paying, return_exceptions=True) == [None, True]
    assert await store.balance(GUILD, ALICE) == STARTING - BUY_IN + 50
    assert await store.balance(GUILD, BOB) == STARTING - BUY_IN + 150
    assert await store.check() == []


async def test_a_deadlock_comes_out_as_a_refusal_to_retry(store: Storage, pg: Database) -> None:
    """Two transactions made to lock two accounts in opposite orders: PostgreSQL aborts one, which
    the storage reports as `DatabaseBusy` (a `StorageError`, retried by the tournament's payout
    loop), and the other commits."""
    await store.balance(GUILD, ALICE)
    await store.balance(GUILD, BOB)
    backend = store._backend
    holding = asyncio.Event()

    async def credit_both(first: int, second: int, hold: bool) -> None:
        async with backend.transaction(write=True) as conn:
            await ledger.credit(conn, GUILD, first, 1)
            if hold:
                holding.set()
                await until(lambda: _waiting(pg))
            await ledger.credit(conn, GUILD, second, 1)

    one = asyncio.create_task(credit_both(ALICE, BOB, True))
    await holding.wait()
    other = asyncio.create_task(credit_both(BOB, ALICE, False))
    results = await asyncio.gather(one, other, return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["DatabaseBusy", "NoneType"], results
    assert all(r is None or isinstance(r, DatabaseBusy) for r in results)
    # Only the committed transaction's chips moved (no ledger entry: this test bypasses it).
    assert await store.balance(GUILD, ALICE) == await store.balance(GUILD, BOB) == STARTING + 1


async def test_computers_buying_in_at_once_each_get_the_house_they_need(
    storage: Storage, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The house holds 1000; two computers sit down with 800 each at two tables at once. The second
    must see the 200 the first left and be topped up by 600, not read 1000 beside the first and then
    find the house short."""
    first, second = [await storage.create_table(GUILD, 100 + i, BOB, "texas", {}, {}) for i in range(2)]
    await storage.buy_in(first, -9, 10, level="facile")  # the house is opened with the starting chips
    await storage.cash_out(first, -9)
    assert await storage.house_balance(GUILD) == STARTING
    if db.dialect == "postgresql":
        real = tables.fund_house
        leader: asyncio.Task[Any] | None = None
        other_read = asyncio.Event()

        async def fund_house(conn: Any, guild_id: int, amount: int, **kwargs: Any) -> None:
            nonlocal leader
            await real(conn, guild_id, amount, **kwargs)
            if leader is None:
                leader = asyncio.current_task()

                async def other_in_the_race() -> bool:
                    return other_read.is_set() or await _waiting(db)

                await until(other_in_the_race)  # it read the house beside us, or waits for our lock
            else:
                other_read.set()

        monkeypatch.setattr(tables, "fund_house", fund_house)
    results = await asyncio.gather(
        storage.buy_in(first, -1, 800, level="facile"),
        storage.buy_in(second, -2, 800, level="esperto"),
        return_exceptions=True,
    )
    assert results == [None, None]
    assert await storage.house_balance(GUILD) == 0
    [(topped_up,)] = await db.query(
        "SELECT SUM(e.amount) FROM entries AS e JOIN movements AS m ON m.id = e.movement_id"
        " WHERE m.reason = 'bonus' AND e.user_id = ?",
        HOUSE,
    )
    assert topped_up == 600
    assert await storage.check() == []


@pytest.mark.parametrize("users", [(ALICE, BOB), (BOB, ALICE)])
async def test_a_table_pays_each_account_once_in_ascending_order(
    storage: Storage, users: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`credit_all` credits each account once, in ascending order, whatever the order it is given."""
    credited: list[tuple[int, int]] = []
    real = ledger.credit

    async def credit(conn: Any, guild_id: int, user_id: int, amount: int) -> None:
        credited.append((user_id, amount))
        await real(conn, guild_id, user_id, amount)

    for module in (ledger, tables):
        monkeypatch.setattr(module, "credit", credit, raising=False)
    table = await storage.create_table(GUILD, 7, ALICE, "texas", {}, {})
    await storage.buy_in(table, -1, 100, level="facile")
    await storage.buy_in(table, -2, 100, level="facile")
    await storage.buy_in(table, users[0], 100)
    await storage.buy_in(table, users[1], 100)
    credited.clear()
    await storage.close_table(table, {users[1]: 100, -2: 100, users[0]: 100, -1: 100})
    assert credited == [(HOUSE, 200), (ALICE, 100), (BOB, 100)]
    assert await storage.check() == []


async def test_a_transaction_aborted_as_a_deadlock_is_run_again(store: Storage, pg: Database) -> None:
    """PostgreSQL aborted the transaction and nothing was written: `run` tries it again (a body is
    the storage's own function of its connection), and gives up with `DatabaseBusy` after three."""
    import asyncpg

    from bot.storage.postgres import BUSY_ATTEMPTS

    await store.balance(GUILD, ALICE)
    backend = store._backend
    tries: list[int] = []

    async def credit_once_after(failures: int, conn: Any) -> None:
        tries.append(1)
        await ledger.credit(conn, GUILD, ALICE, 1)
        if len(tries) <= failures:
            raise asyncpg.DeadlockDetectedError("deadlock detected")

    await backend.run(partial(credit_once_after, BUSY_ATTEMPTS - 1), write=True)
    assert len(tries) == BUSY_ATTEMPTS
    assert await store.balance(GUILD, ALICE) == STARTING + 1  # the aborted tries wrote nothing
    tries.clear()
    with pytest.raises(DatabaseBusy):
        await backend.run(partial(credit_once_after, BUSY_ATTEMPTS), write=True)
    assert len(tries) == BUSY_ATTEMPTS
    assert await store.balance(GUILD, ALICE) == STARTING + 1


async def test_two_payouts_of_one_tournament_at_once_pay_once_and_neither_fails(
    store: Storage, pg: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restart that replays the payout while the first one is still committing: the second waits for
    the pool table's lock, then finds the tournament finished and returns False (no refusal to retry)."""
    tid, t = await announced(store)
    await register(store, tid, t, ALICE, BOB)
    await store.start_tournament(tid, state(t))

    real = ledger.credit_all
    holding = asyncio.Event()
    first: asyncio.Task[bool] | None = None

    async def credit_all(conn: Any, guild_id: int, amounts: Any) -> None:
        await real(conn, guild_id, amounts)
        if asyncio.current_task() is first and not holding.is_set():
            holding.set()  # the first payout holds the pool table: let the second one run into it
            await until(lambda: _waiting(pg))

    monkeypatch.setattr(tournaments, "credit_all", credit_all)
    prizes = {ALICE: 2 * BUY_IN, BOB: 0}
    first = asyncio.create_task(store.finish_tournament(tid, prizes, state(t)))
    await holding.wait()
    second = asyncio.create_task(store.finish_tournament(tid, prizes, state(t)))
    assert await asyncio.gather(first, second, return_exceptions=True) == [True, False]
    assert await store.balance(GUILD, ALICE) == STARTING + BUY_IN
    assert await store.check() == []
