"""Several bot processes on one database: each owns the tables of its gateway shards.

A process claims its shards (`Storage.claim_tables`); the tables carry its token and every write
checks it in the same transaction, so a process that lost its shard can neither finish a hand nor
pay out a table, and no hand is ever applied twice. On PostgreSQL the shards are also held by
advisory locks for as long as the process lives. Two `Storage` objects stand for two processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.storage import HandNotRunning, ShardBusy, Storage, TableNotOwned
from bot.storage import db as sqlite_db
from engine.tournament import Tournament
from tests.storage.conftest import ALICE, BOB, CARLA, STARTING, Database, state_of
from tests.storage.pg_server import end_sessions_holding
from tests.storage.test_tournament_pool import BUY_IN, config, state

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
        with pytest.raises(TableNotOwned):
            await first.save_state(created, {"note": "another process's state"})
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


def _postgres_only(db: Database) -> None:
    if db.dialect != "postgresql":
        pytest.skip("SQLite runs in one process: no shard locks")


async def test_every_connection_is_probed_so_a_vanished_machine_frees_its_shards(db: Database) -> None:
    # A machine that vanishes without closing its connections keeps their locks until PostgreSQL
    # notices: the bot asks the server to probe each of its connections' sockets.
    _postgres_only(db)
    from bot.storage.postgres import SESSION_SETTINGS, PostgresBackend

    async with await Storage.open(db.target) as store:
        await store.claim_tables([0], 2)
        backend = store._backend
        assert isinstance(backend, PostgresBackend) and backend._shard_conn is not None
        async with backend.pool.acquire() as other:
            for conn in (backend._shard_conn, other):
                for name in ("tcp_keepalives_idle", "tcp_keepalives_interval", "tcp_keepalives_count"):
                    assert await conn.fetchval(f"SHOW {name}") == SESSION_SETTINGS[name]
                assert await conn.fetchval("SHOW idle_in_transaction_session_timeout") == "1min"


async def test_a_connection_stalled_inside_a_transaction_is_ended_and_frees_its_row_lock(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The process that takes over a vanished process's shards must not wait on a row lock that a
    # dead transaction holds: PostgreSQL ends a session idle inside a transaction (a minute in the
    # bot; a fifth of a second here).
    _postgres_only(db)
    import asyncpg

    from bot.storage import postgres

    monkeypatch.setitem(postgres.SESSION_SETTINGS, "idle_in_transaction_session_timeout", "200")
    async with await Storage.open(db.target) as first, await Storage.open(db.target) as second:
        table = await _table(first, GUILD_ON_0, 1, seated=False)
        # A connection with the sessions settings of the bot's pool (the test above: every one).
        stalled = await asyncpg.connect(db.target, server_settings=postgres.SESSION_SETTINGS)
        try:
            await stalled.transaction().start()
            await stalled.execute("SELECT id FROM poker_tables WHERE id = $1 FOR UPDATE", table)
            # The row is locked; the session now does nothing, as a machine that vanished would.
            assert await asyncio.wait_for(second.claim_tables([0], 2), 10) == [table]
            for _ in range(500):  # the server ended it: the client sees its connection closed
                if stalled.is_closed():
                    break
                await asyncio.sleep(0.01)
            assert stalled.is_closed()
        finally:
            stalled.terminate()


async def test_a_process_with_another_shard_count_is_refused(db: Database) -> None:
    # A shard's lock names it by number, which names the same servers only under the same count:
    # shard 0 of 1 (an unsharded bot) is every server, shard 1 of 2 half of them.
    _postgres_only(db)
    async with await Storage.open(db.target) as sharded:
        await sharded.claim_tables([1], 2)
        async with await Storage.open(db.target) as plain:
            with pytest.raises(ShardBusy, match="SHARD_COUNT=2, non 1"):
                await plain.claim_tables([0], 1)
            # Refused with nothing taken: the same count still works for the other shard.
            async with await Storage.open(db.target) as other_half:
                await other_half.claim_tables([0], 2)
    async with await Storage.open(db.target) as plain:
        await plain.claim_tables([0], 1)  # the sharded processes are gone: another count is fine


async def test_processes_starting_together_with_two_counts_never_both_pass(db: Database) -> None:
    _postgres_only(db)
    for _ in range(5):
        stores = [await Storage.open(db.target) for _ in range(2)]
        try:
            outcomes = await asyncio.gather(
                stores[0].claim_tables([0], 1), stores[1].claim_tables([1], 2), return_exceptions=True
            )
            refused = [o for o in outcomes if isinstance(o, ShardBusy)]
            assert len(refused) == 1, outcomes
        finally:
            for store in stores:
                await store.close()


async def test_a_process_is_told_when_the_connection_holding_its_shards_ends(db: Database) -> None:
    _postgres_only(db)
    async with await Storage.open(db.target) as store:
        await store.claim_tables([0], 2)
        lost = store.shards_lost
        assert lost is not None and not lost.is_set()
        from bot.storage.postgres import SHARD_LOCK

        assert await end_sessions_holding(db.target, SHARD_LOCK) == 1
        await asyncio.wait_for(lost.wait(), 10)


async def test_a_process_that_lost_its_shards_creates_no_table_nobody_could_own(db: Database) -> None:
    # Between losing its shard locks and stopping, a process may still get a command; a table it made
    # would carry its token after the shard's new owner claimed its tables, so nobody could play it.
    _postgres_only(db)
    from bot.storage.postgres import SHARD_LOCK

    first, second = await Storage.open(db.target), await Storage.open(db.target)
    try:
        await first.claim_tables([0], 1)
        lost = first.shards_lost
        assert lost is not None
        assert await end_sessions_holding(db.target, SHARD_LOCK) == 1
        await asyncio.wait_for(lost.wait(), 10)
        assert await second.claim_tables([0], 1) == []
        with pytest.raises(TableNotOwned):
            await first.create_table(GUILD_ON_0, 7, ALICE, "texas", {}, state_of({}))
        with pytest.raises(TableNotOwned):
            await first.create_tournament(GUILD_ON_0, 7, ALICE, "texas", {}, {})
        table = await second.create_table(GUILD_ON_0, 7, BOB, "texas", {}, state_of({}))
        await second.buy_in(table, BOB, 10)  # the channel is free for the shard's owner
    finally:
        await first.close()
        await second.close()


async def _cut_silently(store: Storage, db: Database) -> Any:
    """The network drops the connection holding ``store``'s shard locks: the server ends the session
    (its probes go unanswered, or an operator's pg_terminate_backend), and its goodbye never reaches
    the bot, so asyncpg's termination listener never fires. Returns the connection to resume."""
    from bot.storage.postgres import SHARD_LOCK

    raw = store._backend._shard_conn._con  # type: ignore[attr-defined]
    raw._transport.pause_reading()
    assert await end_sessions_holding(db.target, SHARD_LOCK) == 1
    return raw


async def test_a_process_whose_lock_connection_was_cut_silently_creates_no_table(db: Database) -> None:
    _postgres_only(db)
    first, second = await Storage.open(db.target), await Storage.open(db.target)
    raw = None
    try:
        await first.claim_tables([0], 2)
        raw = await _cut_silently(first, db)
        for _ in range(200):  # the server has ended the session: the shard is free
            with contextlib.suppress(ShardBusy):
                assert await second.claim_tables([0], 2) == []
                break
            await asyncio.sleep(0.05)
        lost = first.shards_lost
        assert lost is not None and not lost.is_set(), "the listener heard nothing"
        with pytest.raises(TableNotOwned):  # asked of the database, not of the cut connection
            await first.create_table(GUILD_ON_0, 7, ALICE, "texas", {}, state_of({}))
        assert lost.is_set(), "the process is told, and stops"
        table = await second.create_table(GUILD_ON_0, 7, BOB, "texas", {}, state_of({}))
        await second.buy_in(table, BOB, 10)
    finally:
        if raw is not None:
            raw._transport.resume_reading()
        await asyncio.wait_for(first.close(), 10)
        await second.close()


async def test_a_heartbeat_notices_a_lock_connection_cut_silently(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    _postgres_only(db)
    from bot.storage import postgres

    monkeypatch.setattr(postgres, "HEARTBEAT", 0.1)
    store = await Storage.open(db.target)
    raw = None
    try:
        await store.claim_tables([0], 2)
        lost = store.shards_lost
        assert lost is not None
        raw = await _cut_silently(store, db)
        await asyncio.wait_for(lost.wait(), 10)
    finally:
        if raw is not None:
            raw._transport.resume_reading()
        await asyncio.wait_for(store.close(), 10)


async def test_closing_a_process_does_not_report_its_shards_lost(db: Database) -> None:
    _postgres_only(db)
    store = await Storage.open(db.target)
    await store.claim_tables([0], 2)
    lost = store.shards_lost
    await store.close()
    assert lost is not None and not lost.is_set()


async def test_sqlite_holds_no_shards_and_never_loses_them(db: Database) -> None:
    if db.dialect != "sqlite":
        pytest.skip("PostgreSQL holds shard locks")
    async with await Storage.open(db.target) as store:
        assert store.shards_lost is None


async def test_a_sqlite_file_serves_one_bot_process_at_a_time(db: Database) -> None:
    # A second bot on the file would cancel the first one's running hands at its start-up and then
    # play the same tables; readers beside the bot (a backup, the ledger's proof) are not bots.
    if db.dialect != "sqlite":
        pytest.skip("on PostgreSQL processes share the database by shards")
    async with await Storage.open(db.target) as first:
        await first.hold_database()
        await first.hold_database()  # holding it again is harmless
        async with await Storage.open(db.target) as second:
            with pytest.raises(ShardBusy, match="con SQLite il bot gira in un processo solo"):
                await second.hold_database()
            assert await second.check() == []
    async with await Storage.open(db.target) as after:
        await after.hold_database()  # the first one closed: the file is free


async def test_a_bot_refused_on_a_held_file_has_not_migrated_it(db: Database, tmp_path: Path) -> None:
    # A newer bot started beside a running older one is refused before its migrations: the running
    # bot's schema stays its own, so it can still start again.
    if db.dialect != "sqlite":
        pytest.skip("on PostgreSQL processes share the database by shards")
    path = tmp_path / "older.sqlite3"
    conn = await sqlite_db.connect(path)
    try:
        older = sqlite_db.load_migrations("sqlite")[:-1]
        await sqlite_db.migrate(conn, older)
    finally:
        await conn.close()
    with open(path.with_name(path.name + ".lock"), "ab") as running:  # the older bot's lock
        fcntl.flock(running, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(ShardBusy):
            await Storage.open(path, hold=True)
    with contextlib.closing(sqlite3.connect(path)) as after:
        assert after.execute("PRAGMA user_version").fetchone() == (len(older),)
    async with await Storage.open(path, hold=True) as newer:  # free now: held, then migrated
        assert await newer.check() == []


async def test_a_process_without_the_shard_cannot_write_a_tournaments_message_or_announcement(
    db: Database,
) -> None:
    # The tournament's table message and its "standings posted" flag belong to the process playing
    # it: another one overwriting the message id would make the owner edit a message nobody sees, and
    # marking it announced would leave its standings unposted for good.
    first = await Storage.open(db.target)
    second = await Storage.open(db.target)
    try:
        assert await second.claim_tables([0], 1) == []
        row = await second.create_tournament(GUILD_ON_0, 7, ALICE, "texas", {}, {})
        await second.set_tournament_message(row.id, 70)
        with pytest.raises(TableNotOwned):
            await first.set_tournament_message(row.id, 71)
        with pytest.raises(TableNotOwned):
            await first.tournament_announced(row.id)
        [live] = await second.live_tournaments()
        assert (live.message_id, live.announced) == (70, False)
    finally:
        await first.close()
        await second.close()


async def test_a_restarted_process_can_note_the_standings_of_a_tournament_finished_before(
    db: Database,
) -> None:
    """The bot finishes a tournament (prizes paid, pool closed) and stops before posting the
    standings; the restarted process (new token, same shard) posts them and must be able to note
    them posted, or every restart posts them again."""
    first = await Storage.open(db.target)
    try:
        await first.claim_tables([0], 1)
        t = Tournament(config())
        row = await first.create_tournament(GUILD_ON_0, 7, ALICE, "texas", dict(config().to_dict()), state(t))
        for user in (ALICE, BOB, CARLA):
            t.register(user)
            await first.register_tournament(row.id, user, BUY_IN, state(t))
        t.start()
        await first.start_tournament(row.id, state(t))
        assert await first.finish_tournament(row.id, {ALICE: 3 * BUY_IN, BOB: 0, CARLA: 0}, state(t))
    finally:
        await first.close()
    second = await Storage.open(db.target)  # the restart
    try:
        await second.claim_tables([0], 1)
        [live] = await second.live_tournaments()
        assert (live.status, live.announced) == ("finito", False)
        await second.tournament_announced(row.id)  # the closed pool keeps the old process's token
        assert await second.live_tournaments() == []
    finally:
        await second.close()
