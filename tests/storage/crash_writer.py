"""A writer for the crash test: plays random chip movements on a database until it is killed.

Run as ``python -m tests.storage.crash_writer DB_PATH_OR_URL SEED`` from the repository root.
After each committed grant of one chip to the bank account it prints ``ack N hand|idle`` (the
bank's balance, and whether a hand is running), so the test knows which transactions were
committed before the SIGKILL and can check they survived, and can aim some kills inside a hand.
Inside a hand it sometimes gives a player his remaining stack back at once (a player leaving
mid-hand), so some kills land after such a release.
"""

from __future__ import annotations

import asyncio
import random
import sys
from datetime import UTC, datetime, timedelta

from bot.storage import Storage, StorageError

GUILD = 77
BANK = 999
PLAYERS = (1, 2, 3, 4, 5)


async def play(target: str, seed: int) -> None:
    rng = random.Random(seed)
    when = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=seed)
    store = await Storage.open(target, starting_chips=100, daily_bonus=25)
    await store.recover()  # as the bot does at start-up
    tables = [t for t in await store.open_tables() if t.guild_id == GUILD]
    table = tables[0].id if tables else await store.create_table(GUILD, 1, BANK, "texas", {}, {})
    print("ready", flush=True)
    while True:
        row = await store.table(table)
        bank = await store.grant(GUILD, BANK, 1, BANK)
        print(f"ack {bank} {'hand' if row.running_hand_id is not None else 'idle'}", flush=True)
        op = rng.random()
        try:
            if row.running_hand_id is not None and op < 0.3:
                # A player leaves mid-hand: his remaining stack goes back to his balance at once.
                player = rng.choice(sorted(row.seats))
                amount = rng.randint(0, row.seats[player])
                await store.release_mid_hand(table, row.running_hand_id, player, amount)
            elif row.running_hand_id is not None:
                await finish(store, rng, table, row.running_hand_id, row.seats, row.pot)
            elif op < 0.3:
                player = rng.choice(PLAYERS)
                have = await store.balance(GUILD, player)
                if have == 0:
                    await store.grant(GUILD, player, 50, BANK)
                    have = 50
                await store.buy_in(table, player, rng.randint(1, have), {"seats": len(row.seats) + 1})
            elif op < 0.45 and row.seats:
                await store.cash_out(table, rng.choice(sorted(row.seats)), {})
            elif op < 0.8 and len(row.seats) >= 2:
                await store.begin_hand(table, row.seats, row.pot, {"pot": row.pot})
            elif op < 0.9:
                when += timedelta(hours=rng.choice((1, 25)))
                await store.claim_bonus(GUILD, rng.choice(PLAYERS), now=when)
            elif op < 0.95:
                payouts = dict(row.seats)
                if row.pot:
                    payouts[BANK] = payouts.get(BANK, 0) + row.pot
                await store.close_table(table, payouts)
                table = await store.create_table(GUILD, 1, BANK, "texas", {}, {})
        except StorageError:
            pass  # a refusal (bonus not ready, already seated...) is part of the game


async def finish(
    store: Storage, rng: random.Random, table: int, hand: int, seats: dict[int, int], pot: int
) -> None:
    """A random but chip-conserving result: one player loses to another, some chips may stay in the pot."""
    stacks = dict(seats)
    loser, winner = rng.sample(sorted(stacks), 2)
    lost = rng.randint(0, stacks[loser])
    stacks[loser] -= lost
    kept_in_pot = rng.randint(0, lost) if rng.random() < 0.3 else 0
    stacks[winner] += pot + lost - kept_in_pot
    await store.finish_hand(table, hand, stacks, kept_in_pot, {"pot": kept_in_pot}, {"loser": loser})


if __name__ == "__main__":
    asyncio.run(play(sys.argv[1], int(sys.argv[2])))
