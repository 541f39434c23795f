"""Round trips per ledger operation: each costs the bot's process CPU (SQLite: a hop to aiosqlite's
thread and an event-loop turn under the storage lock; PostgreSQL: a message parsed by asyncpg), so
the hand-boundary writes must stay few and must not grow with the players (bench/bench_storage.py).

The counter is the storage benchmark's (`bench.bench_storage.counting`): on SQLite it wraps the
connection's one entry point into its thread, on PostgreSQL the two methods of asyncpg's connection
that every query goes through; if either library renames them, it fails loudly instead of counting
nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bench.bench_storage import Counts, counting
from bot.storage import Storage
from bot.storage.models import HandPlayer
from tests.storage.conftest import ALICE, BOB, CARLA, CHANNEL, DINO, GUILD, Database, state_of


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    """SQLite only: the round trips counted here are those to aiosqlite's thread."""
    async with await Storage.open(tmp_path / "poker.sqlite3") as store:
        yield store


def take(counts: Counts) -> int:
    """The round trips counted since the last take (bench/bench_storage.py counts them)."""
    trips, counts.trips = counts.trips, 0
    return trips


async def _table_with(storage: Storage, players: tuple[int, ...]) -> int:
    table_id = await storage.create_table(GUILD, CHANNEL, ALICE, "tradizionale", {}, state_of({}))
    for user in players:
        await storage.buy_in(table_id, user, 100, state_of({}))
    return table_id


async def _table_with_four(storage: Storage) -> int:
    return await _table_with(storage, (ALICE, BOB, CARLA, DINO))


def _summary(user_id: int, net: int) -> HandPlayer:
    return HandPlayer(user_id, net, net > 0, int(net > 0), 0, max(net, 0))


async def test_buy_in_round_trips(storage: Storage) -> None:
    table_id = await storage.create_table(GUILD, CHANNEL, ALICE, "tradizionale", {}, state_of({}))
    await storage.balance(GUILD, BOB)  # BOB's account exists, ALICE's is opened by the buy-in
    async with counting(storage) as counts:
        await storage.buy_in(table_id, ALICE, 100, state_of({ALICE: 100}))
        assert take(counts) <= 11  # was 13
        await storage.buy_in(table_id, BOB, 100, state_of({ALICE: 100, BOB: 100}))
        assert take(counts) <= 9  # no starting-chips movement
    assert await storage.check() == []


async def test_hand_boundary_round_trips_do_not_grow_with_players(storage: Storage) -> None:
    table_id = await _table_with_four(storage)
    stacks = {ALICE: 100, BOB: 100, CARLA: 100, DINO: 100}
    after = {ALICE: 160, BOB: 80, CARLA: 80, DINO: 80}
    async with counting(storage) as counts:
        hand_id = await storage.begin_hand(table_id, stacks, 0, state_of(stacks))
        assert take(counts) == 1  # the whole transaction in one hop (was 17, then 7)
        await storage.finish_hand(table_id, hand_id, after, 0, state_of(after), {"mano": 1})
        assert take(counts) == 1  # was 26 with four changed stacks, then 10
        await storage.table(table_id)
        assert take(counts) == 1
    assert await storage.check() == []
    row = await storage.table(table_id)
    assert row.seats == after and row.running_hand_id is None and row.state == state_of(after)


async def test_finish_hand_moving_the_pot_is_still_one_update_of_the_table(storage: Storage) -> None:
    table_id = await _table_with_four(storage)
    stacks = {ALICE: 100, BOB: 100, CARLA: 100, DINO: 100}
    hand_id = await storage.begin_hand(table_id, stacks, 0, state_of(stacks))
    after = {ALICE: 90, BOB: 90, CARLA: 90, DINO: 90}  # a carried pot of 40
    async with counting(storage) as counts:
        await storage.finish_hand(table_id, hand_id, after, 40, state_of(after, pot=40), {"mano": 1})
        assert take(counts) == 1
    row = await storage.table(table_id)
    assert row.pot == 40 and row.seats == after and row.state == state_of(after, pot=40)
    assert await storage.check() == []


async def _pg_hand_trips(db: Database, players: tuple[int, ...]) -> list[int]:
    """Round trips of begin_hand, table and finish_hand (every stack changed, a summary per player)."""
    async with await Storage.open(db.target) as storage:
        table_id = await _table_with(storage, players)
        stacks = dict.fromkeys(players, 100)
        first = await storage.begin_hand(table_id, stacks, 0, state_of(stacks))  # warms the statement cache
        after = {p: 100 + 10 * (len(players) - 1) if p == players[0] else 90 for p in players}
        summaries = [_summary(p, after[p] - 100) for p in players]
        await storage.finish_hand(table_id, first, after, 0, state_of(after), {"mano": 1}, summaries)
        final = dict.fromkeys(players, 100)
        summaries = [_summary(p, 100 - after[p]) for p in players]
        async with counting(storage) as counts:
            hand_id = await storage.begin_hand(table_id, after, 0, state_of(after))
            trips = [take(counts)]
            await storage.table(table_id)
            trips.append(take(counts))
            await storage.finish_hand(table_id, hand_id, final, 0, state_of(final), {"mano": 2}, summaries)
            trips.append(take(counts))
        assert await storage.check() == []
        return trips


async def test_postgresql_hand_round_trips_do_not_grow_with_players(
    pg: Database,
) -> None:
    four = await _pg_hand_trips(pg, (ALICE, BOB, CARLA, DINO))
    async with await Storage.open(pg.target) as storage:  # closed: the next table opens in its channel
        await storage.close_table(
            (await storage.open_tables())[0].id, dict.fromkeys((ALICE, BOB, CARLA, DINO), 100)
        )
    two = await _pg_hand_trips(pg, (ALICE, BOB))
    assert two == four
    begin, read, finish = four
    # BEGIN and COMMIT included; no reset query when the connection goes back to the pool.
    assert begin <= 5  # was 11 with four players
    assert read == 1  # one statement, no transaction (was 6)
    assert finish <= 6  # was 27 with four players and their summaries
