"""Tournament prize pools in the ledger, on both backends: buy-ins in, refunds and prizes out, once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.storage import InsufficientChips, LedgerMismatch, Storage, TableAlreadyOpen, TournamentHand
from bot.storage.ledger import HOUSE
from bot.storage.tournaments import TournamentGone
from engine.tournament import Tournament, TournamentConfig
from tests.storage.conftest import (
    ALICE,
    BOB,
    CARLA,
    CHANNEL,
    GUILD,
    OTHER_GUILD,
    STARTING,
    Database,
    FakeClock,
)
from tests.storage.test_migrate_to_postgres import run

BUY_IN = 100


def config() -> TournamentConfig:
    return TournamentConfig.default("texas", buy_in=BUY_IN, max_players=3)


def state(tournament: Tournament) -> dict[str, Any]:
    return {"tournament": dict(tournament.to_dict()), "table": None}


async def balances(storage: Storage, *users: int) -> list[int]:
    return [await storage.balance(GUILD, u) for u in users]


async def announced(storage: Storage) -> tuple[int, Tournament]:
    t = Tournament(config())
    row = await storage.create_tournament(GUILD, CHANNEL, ALICE, "texas", dict(config().to_dict()), state(t))
    return row.id, t


async def register(storage: Storage, tid: int, t: Tournament, *users: int) -> None:
    for user in users:
        t.register(user)
        await storage.register_tournament(tid, user, BUY_IN, state(t))


async def test_buy_ins_go_into_the_pool_and_check_proves_it(storage: Storage) -> None:
    tid, t = await announced(storage)
    await register(storage, tid, t, ALICE, BOB, CARLA)
    [row] = await storage.live_tournaments()
    assert (row.id, row.status, row.pool) == (tid, "iscrizioni", 3 * BUY_IN)
    assert row.state["tournament"]["players"] == [ALICE, BOB, CARLA]
    assert await balances(storage, ALICE, BOB, CARLA) == [STARTING - BUY_IN] * 3
    assert await storage.check() == []
    assert await storage.open_tables() == [], "the pool is no table to play"
    history = await storage.history(GUILD, ALICE)
    first = history.entries[0]
    assert (first.reason, first.amount, first.tournament_id) == ("buy_in", -BUY_IN, tid)


async def test_a_cash_table_and_a_tournament_never_share_a_channel(storage: Storage) -> None:
    await announced(storage)
    with pytest.raises(TableAlreadyOpen):
        await storage.create_table(GUILD, CHANNEL, BOB, "texas", {"variant": "texas"}, {})
    with pytest.raises(TableAlreadyOpen):
        await announced(storage)


async def test_a_buy_in_beyond_the_balance_changes_nothing(storage: Storage) -> None:
    tid, _ = await announced(storage)
    t2 = Tournament(config())
    t2.register(ALICE)
    with pytest.raises(InsufficientChips):
        await storage.register_tournament(tid, ALICE, STARTING + 1, state(t2))
    [row] = await storage.live_tournaments()
    assert row.pool == 0 and row.state["tournament"]["players"] == []
    assert await storage.check() == []


async def test_withdrawal_and_cancel_refund_every_buy_in(storage: Storage) -> None:
    tid, t = await announced(storage)
    await register(storage, tid, t, ALICE, BOB, CARLA)
    t.unregister(BOB)
    await storage.unregister_tournament(tid, BOB, BUY_IN, state(t))
    assert await balances(storage, BOB) == [STARTING]
    assert await storage.check() == []
    t.cancel()
    await storage.cancel_tournament(tid, {ALICE: BUY_IN, CARLA: BUY_IN}, state(t))
    assert await balances(storage, ALICE, BOB, CARLA) == [STARTING] * 3
    assert await storage.live_tournaments() == []
    assert await storage.check() == []
    with pytest.raises(TournamentGone):
        await storage.register_tournament(tid, BOB, BUY_IN, state(t))
    # The channel is free again.
    await storage.create_table(GUILD, CHANNEL, BOB, "texas", {"variant": "texas"}, {})


async def test_a_cancel_that_does_not_empty_the_pool_is_refused(storage: Storage) -> None:
    tid, t = await announced(storage)
    await register(storage, tid, t, ALICE, BOB)
    with pytest.raises(LedgerMismatch):
        await storage.cancel_tournament(tid, {ALICE: BUY_IN}, state(t))
    assert (await storage.live_tournaments())[0].pool == 2 * BUY_IN


async def test_the_prizes_are_paid_once_and_empty_the_pool(storage: Storage) -> None:
    tid, t = await announced(storage)
    await register(storage, tid, t, ALICE, BOB, CARLA)
    t.start()
    await storage.start_tournament(tid, state(t))
    with pytest.raises(TournamentGone):
        await storage.unregister_tournament(tid, BOB, BUY_IN, state(t))
    await storage.save_tournament(tid, state(t))
    assert await storage.check() == []
    with pytest.raises(LedgerMismatch):  # prizes must add up to the pool exactly
        await storage.finish_tournament(tid, {ALICE: 200, BOB: 99}, state(t))
    prizes = {ALICE: 300, BOB: 0, CARLA: 0}
    assert await storage.finish_tournament(tid, prizes, state(t)) is True
    assert await balances(storage, ALICE, BOB, CARLA) == [STARTING + 200, STARTING - 100, STARTING - 100]
    assert await storage.check() == []
    # A re-run (a restart that replays the payout) pays nothing twice.
    assert await storage.finish_tournament(tid, prizes, state(t)) is False
    assert await balances(storage, ALICE, BOB, CARLA) == [STARTING + 200, STARTING - 100, STARTING - 100]
    [row] = await storage.live_tournaments()  # finished, standings not posted yet
    assert (row.status, row.pool, row.announced) == ("finito", 0, False)
    await storage.tournament_announced(tid)
    assert await storage.live_tournaments() == []
    history = await storage.history(GUILD, ALICE)
    assert (history.entries[0].reason, history.entries[0].amount) == ("close", 300)
    assert await storage.check() == []


async def test_check_notices_a_pool_that_disagrees_with_the_entrants(storage: Storage, db: Database) -> None:
    tid, t = await announced(storage)
    await register(storage, tid, t, ALICE, BOB)
    t.register(CARLA)  # in the state, but never paid
    await db.execute("UPDATE tournaments SET state = ? WHERE id = ?", json.dumps(state(t)), tid)
    assert any(f"tournament {tid}" in p for p in await storage.check())


async def test_tournaments_move_to_postgresql_whole(tmp_path: Path, pg: Database, clock: FakeClock) -> None:
    source = tmp_path / "poker.sqlite3"
    async with await Storage.open(source, clock=clock) as store:
        tid, t = await announced(store)
        await register(store, tid, t, ALICE, BOB)
        t.start()
        await store.start_tournament(tid, state(t))
        await store.finish_tournament(tid, {ALICE: 2 * BUY_IN, BOB: 0}, state(t))
        await store.tournament_announced(tid)
        later = Tournament(config())
        row = await store.create_tournament(
            GUILD, CHANNEL, BOB, "texas", dict(config().to_dict()), state(later)
        )
        await register(store, row.id, later, CARLA)
        before = (await store.live_tournaments(), await store.history(GUILD, ALICE, 100))
    done = run("--sqlite", str(source), "--postgres", pg.target)
    assert done.returncode == 0, done.stderr
    async with await Storage.open(pg.target, clock=clock) as store:
        assert (await store.live_tournaments(), await store.history(GUILD, ALICE, 100)) == before
        assert await store.check() == []
        fresh = await store.create_tournament(GUILD, CHANNEL + 1, BOB, "texas", dict(config().to_dict()), {})
        assert fresh.id == row.id + 1


async def test_a_tournament_for_glory_moves_no_chip(storage: Storage) -> None:
    free = TournamentConfig.default("italiana", buy_in=0, max_players=2)
    t = Tournament(free)
    row = await storage.create_tournament(GUILD, CHANNEL, ALICE, "italiana", dict(free.to_dict()), state(t))
    for user in (ALICE, BOB):
        t.register(user)
        await storage.register_tournament(row.id, user, 0, state(t))
    t.start()
    await storage.start_tournament(row.id, state(t))
    assert await storage.finish_tournament(row.id, {ALICE: 0, BOB: 0}, state(t)) is True
    assert await balances(storage, ALICE, BOB) == [STARTING, STARTING]
    assert [e.reason for e in (await storage.history(GUILD, ALICE)).entries] == ["start"]
    assert await storage.check() == []


async def test_a_sharded_process_restores_only_the_tournaments_of_its_shards(storage: Storage) -> None:
    tid, _ = await announced(storage)
    shard = (GUILD >> 22) % 2
    assert [r.id for r in await storage.live_tournaments(shard_ids=[shard], shard_count=2)] == [tid]
    assert await storage.live_tournaments(shard_ids=[1 - shard], shard_count=2) == []


GINO, PINA = -1, -2  # computer players (bot/computers.py): their chips are the house's


async def test_a_computer_enters_with_the_house_chips_topped_up_as_at_a_cash_table(
    storage: Storage, db: Database
) -> None:
    tid, t = await announced(storage)
    await register(storage, tid, t, ALICE, GINO)
    [row] = await storage.live_tournaments()
    assert row.pool == 2 * BUY_IN and row.state["tournament"]["players"] == [ALICE, GINO]
    assert await balances(storage, ALICE) == [STARTING - BUY_IN]
    assert await storage.house_balance(GUILD) == STARTING - BUY_IN, "the house opens with the starting chips"
    first = (await storage.history(GUILD, HOUSE)).entries[0]
    assert (first.reason, first.amount, first.tournament_id) == ("buy_in", -BUY_IN, tid)
    assert await db.query("SELECT user_id FROM accounts WHERE user_id < 0") == [], "no account of his own"
    assert await storage.check() == []
    # A buy-in beyond what the house holds: exactly the shortfall is issued to it, once.
    dear = TournamentConfig.default("texas", buy_in=STARTING, max_players=3)
    big = Tournament(dear)
    other = await storage.create_tournament(
        GUILD, CHANNEL + 1, ALICE, "texas", dict(dear.to_dict()), state(big)
    )
    big.register(PINA)
    await storage.register_tournament(other.id, PINA, STARTING, state(big))
    assert await storage.house_balance(GUILD) == 0
    assert await issued(db, HOUSE) == [BUY_IN]
    assert await storage.check() == []


async def test_a_cancel_gives_the_computers_buy_ins_back_to_the_house(storage: Storage) -> None:
    tid, t = await announced(storage)
    await register(storage, tid, t, ALICE, GINO, PINA)
    assert await storage.house_balance(GUILD) == STARTING - 2 * BUY_IN
    t.cancel()
    await storage.cancel_tournament(tid, dict.fromkeys((ALICE, GINO, PINA), BUY_IN), state(t))
    assert await balances(storage, ALICE) == [STARTING]
    assert await storage.house_balance(GUILD) == STARTING
    assert await storage.live_tournaments() == []
    assert await storage.check() == []


async def test_a_computers_prize_goes_to_the_house_once(storage: Storage) -> None:
    tid, t = await announced(storage)
    await register(storage, tid, t, ALICE, GINO, PINA)
    t.start()
    await storage.start_tournament(tid, state(t))
    prizes = {GINO: 3 * BUY_IN, ALICE: 0, PINA: 0}
    assert await storage.finish_tournament(tid, prizes, state(t)) is True
    assert await storage.house_balance(GUILD) == STARTING - 2 * BUY_IN + 3 * BUY_IN
    assert await balances(storage, ALICE) == [STARTING - BUY_IN]
    assert await storage.check() == []
    assert await storage.finish_tournament(tid, prizes, state(t)) is False
    assert await storage.house_balance(GUILD) == STARTING + BUY_IN
    close = (await storage.history(GUILD, HOUSE)).entries[0]
    assert (close.reason, close.amount, close.tournament_id) == ("close", 3 * BUY_IN, tid)
    assert await storage.check() == []


async def issued(db: Database, user: int) -> list[int]:
    """The top-ups issued to ``user`` (reason 'bonus'), oldest first."""
    rows = await db.query(
        "SELECT e.amount FROM entries AS e JOIN movements AS m ON m.id = e.movement_id"
        " WHERE m.reason = 'bonus' AND e.user_id = ? ORDER BY e.id",
        user,
    )
    return [int(r[0]) for r in rows]


async def test_a_tournaments_hands_are_stored_for_replays(storage: Storage) -> None:
    """`/mano` at a tournament's table: each hand noted with the state, dealt then over, a hand a
    restart interrupted cancelled by the next deal, the last one noted with the prizes."""
    tid, t = await announced(storage)
    await register(storage, tid, t, ALICE, BOB)
    t.start()
    await storage.start_tournament(tid, state(t))
    none_yet = await storage.stored_hand(CHANNEL)
    assert none_yet is not None and (none_yet.status, none_yet.last_number) == ("missing", 0)
    await storage.save_tournament(tid, state(t), [TournamentHand(1)])
    running = await storage.stored_hand(CHANNEL, 1)
    assert running is not None and (running.status, running.record, running.variant) == (
        "running",
        None,
        "texas",
    )
    await storage.save_tournament(tid, state(t), [TournamentHand(1, {"hand": 1})])
    await storage.save_tournament(tid, state(t), [TournamentHand(2)])  # the bot dies during hand 2
    latest = await storage.stored_hand(CHANNEL)
    assert latest is not None and (latest.number, latest.record, latest.last_number) == (1, {"hand": 1}, 2)
    await storage.save_tournament(tid, state(t), [TournamentHand(3)])  # restarted: hand 3 is dealt
    cancelled = await storage.stored_hand(CHANNEL, 2)
    assert cancelled is not None and (cancelled.status, cancelled.record) == ("cancelled", None)
    # Hand 3 ends the tournament: noted in the payout's transaction, once.
    prizes = {ALICE: 2 * BUY_IN, BOB: 0}
    assert await storage.finish_tournament(tid, prizes, state(t), [TournamentHand(3, {"hand": 3})]) is True
    assert await storage.finish_tournament(tid, prizes, state(t), [TournamentHand(3, {"hand": 9})]) is False
    last = await storage.stored_hand(CHANNEL)
    assert last is not None and (last.number, last.status, last.record) == (3, "finished", {"hand": 3})
    missing = await storage.stored_hand(CHANNEL, 4)
    assert missing is not None and (missing.status, missing.last_number) == ("missing", 3)
    assert await storage.check() == []
    # A cash table opened in the channel afterwards: its own hands, none of the tournament's.
    await storage.create_table(GUILD, CHANNEL, BOB, "italiana", {}, {})
    fresh = await storage.stored_hand(CHANNEL, 1)
    assert fresh is not None and (fresh.status, fresh.variant, fresh.last_number) == (
        "missing",
        "italiana",
        0,
    )


async def test_a_hand_over_whose_deal_was_not_noted_is_still_stored(storage: Storage) -> None:
    tid, t = await announced(storage)
    await register(storage, tid, t, ALICE, BOB)
    t.start()
    await storage.start_tournament(tid, state(t))
    await storage.save_tournament(tid, state(t), [TournamentHand(1, {"hand": 1})])
    stored = await storage.stored_hand(CHANNEL, 1)
    assert stored is not None and (stored.status, stored.record) == ("finished", {"hand": 1})


async def test_tournament_stats_count_places_and_the_net_from_the_ledger(storage: Storage) -> None:
    """/statistiche's tournaments: the places stored with the prizes, the net read from the ledger
    (buy-ins and prizes), only finished tournaments, per server; a re-run payout stores nothing twice."""
    assert await storage.tournament_stats(GUILD, ALICE) is None
    first, t = await announced(storage)
    await register(storage, first, t, ALICE, BOB, CARLA)
    t.start()
    await storage.start_tournament(first, state(t))
    assert await storage.tournament_stats(GUILD, ALICE) is None, "a tournament still running counts nothing"
    prizes, places = {ALICE: 200, BOB: 100, CARLA: 0}, {ALICE: 1, BOB: 2, CARLA: 3}
    assert await storage.finish_tournament(first, prizes, state(t), places=places) is True
    assert await storage.finish_tournament(first, prizes, state(t), places=places) is False
    await storage.tournament_announced(first)
    second, t2 = await announced(storage)
    await register(storage, second, t2, ALICE, BOB)
    t2.start()
    await storage.start_tournament(second, state(t2))
    assert await storage.finish_tournament(second, {BOB: 200}, state(t2), places={BOB: 1, ALICE: 2}) is True

    alice = await storage.tournament_stats(GUILD, ALICE)
    assert alice is not None
    assert (alice.played, alice.won, alice.in_the_money, alice.best_place) == (2, 1, 1, 1)
    assert alice.net == (200 - BUY_IN) + (0 - BUY_IN) == await storage.balance(GUILD, ALICE) - STARTING
    bob = await storage.tournament_stats(GUILD, BOB)
    assert bob is not None and (bob.played, bob.won, bob.in_the_money, bob.best_place, bob.net) == (
        2,
        1,
        2,
        1,
        (100 - BUY_IN) + (200 - BUY_IN),
    )
    carla = await storage.tournament_stats(GUILD, CARLA)
    assert carla is not None and (carla.played, carla.won, carla.in_the_money, carla.best_place) == (
        1,
        0,
        0,
        3,
    )
    assert carla.net == -BUY_IN
    assert await storage.tournament_stats(OTHER_GUILD, ALICE) is None, "per server"
    assert await storage.check() == []
