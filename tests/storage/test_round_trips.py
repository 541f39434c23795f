"""Round trips to aiosqlite's thread per ledger operation: each waits for an event-loop turn under
the storage lock, so the hand-boundary writes must stay few (the Discord benchmark's tail latency).

The counter wraps the connection's one entry point into its thread; if aiosqlite renames it, the
fixture fails loudly instead of counting nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Storage
from bot.storage.sqlite import SqliteBackend
from tests.storage.conftest import ALICE, BOB, CARLA, CHANNEL, DINO, GUILD, state_of


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    """SQLite only: the round trips counted here are those to aiosqlite's thread."""
    async with await Storage.open(tmp_path / "poker.sqlite3") as store:
        yield store


class Trips:
    def __init__(self, storage: Storage) -> None:
        assert isinstance(storage._backend, SqliteBackend)
        conn = storage._backend.conn
        inner: Callable[..., Awaitable[Any]] | None = getattr(conn, "_execute", None)
        if inner is None:
            pytest.fail("aiosqlite.Connection._execute is gone: the round-trip counter cannot count")
        self.count = 0

        async def counted(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            assert inner is not None
            return await inner(fn, *args, **kwargs)

        conn._execute = counted  # type: ignore[method-assign]

    def take(self) -> int:
        count, self.count = self.count, 0
        return count


async def _table_with_four(storage: Storage) -> int:
    table_id = await storage.create_table(GUILD, CHANNEL, ALICE, "tradizionale", {}, state_of({}))
    for user in (ALICE, BOB, CARLA, DINO):
        await storage.buy_in(table_id, user, 100, state_of({}))
    return table_id


async def test_buy_in_round_trips(storage: Storage) -> None:
    table_id = await storage.create_table(GUILD, CHANNEL, ALICE, "tradizionale", {}, state_of({}))
    await storage.balance(GUILD, BOB)  # BOB's account exists, ALICE's is opened by the buy-in
    trips = Trips(storage)
    await storage.buy_in(table_id, ALICE, 100, state_of({ALICE: 100}))
    assert trips.take() <= 11  # was 13
    await storage.buy_in(table_id, BOB, 100, state_of({ALICE: 100, BOB: 100}))
    assert trips.take() <= 9  # no starting-chips movement
    assert await storage.check() == []


async def test_hand_boundary_round_trips_do_not_grow_with_players(storage: Storage) -> None:
    table_id = await _table_with_four(storage)
    stacks = {ALICE: 100, BOB: 100, CARLA: 100, DINO: 100}
    trips = Trips(storage)
    hand_id = await storage.begin_hand(table_id, stacks, 0, state_of(stacks))
    assert trips.take() <= 7  # was 17
    after = {ALICE: 160, BOB: 80, CARLA: 80, DINO: 80}
    await storage.finish_hand(table_id, hand_id, after, 0, state_of(after), {"mano": 1})
    assert trips.take() <= 10  # was 26 with four changed stacks
    assert await storage.check() == []
    row = await storage.table(table_id)
    assert row.seats == after and row.running_hand_id is None and row.state == state_of(after)


async def test_finish_hand_moving_the_pot_is_still_one_update_of_the_table(storage: Storage) -> None:
    table_id = await _table_with_four(storage)
    stacks = {ALICE: 100, BOB: 100, CARLA: 100, DINO: 100}
    hand_id = await storage.begin_hand(table_id, stacks, 0, state_of(stacks))
    trips = Trips(storage)
    after = {ALICE: 90, BOB: 90, CARLA: 90, DINO: 90}  # a carried pot of 40
    await storage.finish_hand(table_id, hand_id, after, 40, state_of(after, pot=40), {"mano": 1})
    assert trips.take() <= 10
    row = await storage.table(table_id)
    assert row.pot == 40 and row.seats == after and row.state == state_of(after, pot=40)
    assert await storage.check() == []
