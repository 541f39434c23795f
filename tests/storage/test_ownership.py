"""Several bot processes on one database: each owns the tables of its gateway shards.

A process claims its shards (`Storage.claim_tables`); the tables carry its token and every write
checks it in the same transaction, so a process that lost its shard can neither finish a hand nor
pay out a table, and no hand is ever applied twice. On PostgreSQL the shards are also held by
advisory locks for as long as the process lives. Two `Storage` objects stand for two processes.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import HandNotRunning, ShardBusy, Storage, TableNotOwned
from tests.storage.conftest import ALICE, BOB, STARTING, Database, state_of

# Discord puts a guild on shard (guild_id >> 22) % shard_count.
# Named by the shard they land on with two shards.
GUILD_ON_0 = (8 << 22) | 12345
GUILD_ON_1 = (9 << 22) | 777
GUILD_ON_0_TOO = (10 << 22) | 1


async def _table(store: Storage, guild: int, channel: int, *, seated: bool = True) -> int:
    table = await store.create_table(guild, channel, ALICE, "texas", {}, state_of({}))
    if seated:
        await store.buy_in(table, ALICE, 100)
        await store.buy_in(table, BOB, 100)
    return table


async def test_open_tables_and_recover_filter_by_shard(db: Database) -> None:
    async with await Storage.open(db.target) as store:
        on_0 = await _table(store, GUILD_ON_0, 1)
        on_1 = await _table(store, GUILD_ON_1, 2)
        on_0_too = await _table(store, GUILD_ON_0_TOO, 3)
        for table in (on_0, on_1):
            await store.begin_hand(table, {ALICE: 100, BOB: 100}, 0, {})
        assert [t.id for t in await store.open_tables(shard_ids=[0], shard_count=2)] == [on_0, on_0_too]
        assert [t.id for t in await store.open_tables(shard_ids=[1], shard_count=2)] == [on_1]
        assert len(await store.open_tables(shard_ids=[0, 1], shard_count=2)) == 3
        assert await store.recover(shard_ids=[1], shard_count=2) == [on_1]
        assert (await store.table(on_0)).running_hand_id is not None  # another shard's hand: untouched
        assert await store.recover(shard_ids=[0], shard_count=2) == [on_0]
        assert await store.check() == []
        with pytest.raises(ValueError, match="shard ids"):
            await store.open_tables(shard_ids=[2], shard_count=2)
        with pytest.raises(ValueError, match="go together"):
            await store.open_tables(shard_ids=[0])


async def test_a_process_that_lost_its_shard_cannot_apply_a_hand(db: Database) -> None:
    first = await Storage.open(db.target, starting_chips=STARTING)
    second = await Storage.open(db.target, starting_chips=STARTING)
    try:
        table = await _table(first, GUILD_ON_0, 1)
        other = await _table(first, GUILD_ON_1, 2)
        assert await first.claim_tables([0], 2) == [table]
        hand = await first.begin_hand(table, {ALICE: 100, BOB: 100}, 0, {})
        # A process without the shard can neither play nor pay out the table...
        with pytest.raises(TableNotOwned, match="un altro processo"):
            await second.finish_hand(table, hand, {ALICE: 200, BOB: 0}, 0, {}, {})
        with pytest.raises(TableNotOwned):
            await second.buy_in(table, 55, 10)
        # ...but may still write the tables nobody claimed.
        await second.cash_out(other, BOB)
        if db.dialect == "postgresql":
            # The first process is alive and holds shard 0: a second claim is refused.
            with pytest.raises(ShardBusy, match="già gestito"):
                await second.claim_tables([0, 1], 2)
            # Its connection to the server dies (the process lives on, cut off): the lock is gone.
            pid = first._backend._shard_conn.get_server_pid()  # type: ignore[attr-defined]
            await db.execute("SELECT pg_terminate_backend(?)", pid)
            while await db.query("SELECT 1 FROM pg_stat_activity WHERE pid = ?", pid):
                await asyncio.sleep(0.01)  # the locks go when the backend has exited
        assert await second.claim_tables([0], 2) == [table]
        # The first process, unaware, tries to finish its hand: refused, nothing applied; nor
        # does its recovery touch a table it no longer owns.
        with pytest.raises(TableNotOwned):
            await first.finish_hand(table, hand, {ALICE: 200, BOB: 0}, 0, {}, {})
        assert await first.recover() == []
        assert (await first.table(table)).running_hand_id == hand
        # The new owner cancels the interrupted hand exactly once.
        assert await second.recover(shard_ids=[0], shard_count=2) == [table]
        with pytest.raises(HandNotRunning):
            await second.finish_hand(table, hand, {ALICE: 200, BOB: 0}, 0, {}, {})
        assert (await second.table(table)).seats == {ALICE: 100, BOB: 100}
        # Tables it creates from now on are its own.
        created = await second.create_table(GUILD_ON_0_TOO, 9, BOB, "texas", {}, {})
        with pytest.raises(TableNotOwned):
            await first.set_table_message(created, 1)
        assert await second.check() == []
    finally:
        for store in (first, second):
            await store.close()


async def test_a_closed_process_releases_its_shards(db: Database) -> None:
    async with await Storage.open(db.target) as first:
        table = await _table(first, GUILD_ON_1, 1, seated=False)
        assert await first.claim_tables([1], 2) == [table]
        assert await first.claim_tables([1], 2) == [table]  # claiming again is harmless
    async with await Storage.open(db.target) as second:
        assert await second.claim_tables([0, 1], 2) == [table]
        await second.buy_in(table, ALICE, 10)
        assert await second.check() == []


async def test_the_shard_locks_connection_is_probed_so_a_vanished_machine_frees_them(db: Database) -> None:
    # PostgreSQL only: there a machine that vanishes without closing its connection keeps its shard
    # locks until the server notices; the bot asks the server to probe that connection's socket.
    if db.dialect != "postgresql":
        pytest.skip("SQLite runs in one process: no shard locks")
    from bot.storage.postgres import SHARD_KEEPALIVE, PostgresBackend

    async with await Storage.open(db.target) as store:
        await store.claim_tables([0], 2)
        backend = store._backend
        assert isinstance(backend, PostgresBackend) and backend._shard_conn is not None
        for name, seconds in SHARD_KEEPALIVE.items():
            shown = await backend._shard_conn.fetchval(f"SHOW {name}")
            assert shown == str(seconds), (name, shown)
        # The pool's other connections keep the server's defaults.
        async with backend.pool.acquire() as other:
            assert await other.fetchval("SHOW tcp_keepalives_idle") != "30"
