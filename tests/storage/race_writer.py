"""One of two writer processes racing on the same tables and players (the multi-process test).

Run as ``python -m tests.storage.race_writer TARGET SEED OPS`` from the repository root. It prints
``ready``, waits for a line on stdin so both processes start together, plays OPS random chip
movements on the three shared tables, and prints ``done GRANTED FINISHED``: the chips it granted
and the hands it finished, which the test compares with what the database holds. Refusals caused
by the other process (the seats changed, the hand is already finished...) are part of the race.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.storage import Storage, StorageError

GUILD = 4242
BANK = 999
PLAYERS = (1, 2, 3, 4, 5, 6)


async def race(target: str, seed: int, ops: int) -> None:
    rng = random.Random(seed)
    store = await Storage.open(target, starting_chips=500)
    try:
        tables = sorted(t.id for t in await store.open_tables() if t.guild_id == GUILD)
        print("ready", flush=True)
        sys.stdin.readline()
        granted = finished = 0
        for _ in range(ops):
            table = rng.choice(tables)
            row = await store.table(table)
            op = rng.random()
            try:
                if row.running_hand_id is not None:
                    stacks = dict(row.seats)
                    loser, winner = rng.sample(sorted(stacks), 2)
                    lost = rng.randint(0, stacks[loser])
                    stacks[loser] -= lost
                    stacks[winner] += lost + row.pot
                    await store.finish_hand(table, row.running_hand_id, stacks, 0, {}, {})
                    finished += 1
                elif op < 0.35:
                    await store.buy_in(table, rng.choice(PLAYERS), rng.randint(1, 60))
                elif op < 0.55 and row.seats:
                    await store.cash_out(table, rng.choice(sorted(row.seats)))
                elif op < 0.85 and len(row.seats) >= 2:
                    await store.begin_hand(table, row.seats, row.pot, {})
                else:
                    await store.grant(GUILD, rng.choice(PLAYERS), 7, BANK)
                    granted += 7
            except StorageError:
                pass
        print(f"done {granted} {finished}", flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(race(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
