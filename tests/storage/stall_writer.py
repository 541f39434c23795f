"""A writer that stops inside a transaction, for the kill-mid-transaction test.

Run as ``python -m tests.storage.stall_writer TARGET TABLE_ID OPERATION`` from the repository root,
OPERATION being ``buy_in`` (stops after the balance was debited, before the ledger entry) or
``finish`` (stops after the seats were changed, before the hand is marked finished; on PostgreSQL,
where those writes are one statement, after it, before the COMMIT). At that point
it prints ``stalled`` and sleeps until it is killed, its transaction still open.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Sequence

from bot.storage import Storage
from bot.storage.postgres import PostgresConn
from bot.storage.sqlite import SqliteConn, ThreadConn

STALL_AFTER = {
    "buy_in": "UPDATE accounts SET balance = balance - ?",
    "finish": "UPDATE poker_tables SET pot = ?, state = ?",
}


def stall_after(marker: str) -> None:
    """Make every backend's `execute` and `fetch` stop for good right after running a statement that
    contains `marker` (PostgreSQL sends finish_hand's writes as one statement, through `fetch`).

    A SQLite transaction run in one hop (`ThreadConn`, on aiosqlite's thread) must not suspend: it
    stops by blocking that thread, its transaction open just the same.
    """
    for conn_class in (SqliteConn, PostgresConn, ThreadConn):
        for name in ("execute", "fetch"):
            original = getattr(conn_class, name)

            async def run(  # type: ignore[no-untyped-def]
                self: SqliteConn,
                sql: str,
                args: Sequence[object] = (),
                *,
                _run=original,
                _blocking=conn_class is ThreadConn,
            ):
                result = await _run(self, sql, args)
                if marker in sql:
                    print("stalled", flush=True)
                    if _blocking:
                        time.sleep(3600)
                    else:
                        await asyncio.sleep(3600)
                return result

            setattr(conn_class, name, run)


async def main(target: str, table: int, operation: str) -> None:
    stall_after(STALL_AFTER[operation])
    store = await Storage.open(target)
    row = await store.table(table)
    if operation == "buy_in":
        await store.buy_in(table, 77, 40)
    else:
        assert row.running_hand_id is not None
        players = sorted(row.seats)
        stacks = {players[0]: row.seats[players[0]] + row.seats[players[1]], players[1]: 0}
        await store.finish_hand(table, row.running_hand_id, stacks, row.pot, {}, {})
    print("not stalled", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
