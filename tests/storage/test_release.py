"""A player leaving during a hand: his remaining stack goes back to his balance at once
(`Storage.release_mid_hand`), and a crash that cancels the hand afterwards pays him the rest of his
start-of-hand stack instead of seating him again. Real SQLite files; the ledger proves itself each time."""

from __future__ import annotations

import pytest

from bot.storage import HandNotRunning, LedgerMismatch, NotSeated, Storage
from tests.storage.conftest import ALICE, BOB, CARLA, CHANNEL, GUILD, STARTING, Database, FakeClock, state_of


async def three_at_a_hand(store: Storage) -> tuple[int, int]:
    """Alice, Bob and Carla with 500, 400 and 300 chips, and a hand started: (table, hand)."""
    table = await store.create_table(GUILD, CHANNEL, ALICE, "italiana", {}, state_of({}))
    for player, stack in ((ALICE, 500), (BOB, 400), (CARLA, 300)):
        await store.buy_in(table, player, stack)
    start = {ALICE: 500, BOB: 400, CARLA: 300}
    hand = await store.begin_hand(table, start, 0, state_of(start))
    return table, hand


async def test_a_leaver_gets_his_remaining_stack_at_once(storage: Storage) -> None:
    table, hand = await three_at_a_hand(storage)
    # Carla put 20 in the pot, then left: 280 are hers now, the 20 stay for the hand's result.
    await storage.release_mid_hand(table, hand, CARLA, 280)
    assert await storage.balance(GUILD, CARLA) == STARTING - 300 + 280
    row = await storage.table(table)
    assert row.seats == {ALICE: 500, BOB: 400, CARLA: 20}
    assert row.running_hand_id == hand
    assert await storage.check() == []
    entry = (await storage.history(GUILD, CARLA, account="balance")).entries[0]
    assert (entry.reason, entry.amount, entry.hand_id) == ("cash_out", 280, hand)


async def test_the_hand_then_finishes_with_the_leaver_at_zero(storage: Storage) -> None:
    table, hand = await three_at_a_hand(storage)
    await storage.release_mid_hand(table, hand, CARLA, 280)
    # Alice wins Bob's 40 and Carla's 20; Carla's stack is 0 (what she kept is already paid).
    await storage.finish_hand(table, hand, {ALICE: 560, BOB: 360, CARLA: 0}, 0, state_of({}), {"n": 1})
    assert await storage.cash_out(table, CARLA, state_of({ALICE: 560, BOB: 360})) == 0
    assert (await storage.table(table)).seats == {ALICE: 560, BOB: 360}
    assert await storage.balance(GUILD, CARLA) == STARTING - 20
    [summary] = (await storage.history(GUILD, CARLA)).hands
    assert (summary.start_stack, summary.end_stack, summary.result) == (300, 280, -20)
    assert await storage.check() == []


async def test_a_finish_that_still_counts_the_released_chips_is_refused(
    storage: Storage, db: Database
) -> None:
    table, hand = await three_at_a_hand(storage)
    await storage.release_mid_hand(table, hand, CARLA, 280)
    before = await db.dump()
    # The old way (her released 280 as her end stack) would pay her twice.
    with pytest.raises(LedgerMismatch, match="creerebbe o distruggerebbe"):
        await storage.finish_hand(table, hand, {ALICE: 520, BOB: 400, CARLA: 280}, 0, {}, {})
    assert await db.dump() == before


async def test_release_refusals_change_nothing(storage: Storage, db: Database) -> None:
    table, hand = await three_at_a_hand(storage)
    await storage.balance(GUILD, 77)
    before = await db.dump()
    with pytest.raises(LedgerMismatch):
        await storage.release_mid_hand(table, hand, CARLA, 301)  # more than her seat
    with pytest.raises(LedgerMismatch):
        await storage.release_mid_hand(table, hand, CARLA, -1)
    with pytest.raises(NotSeated):
        await storage.release_mid_hand(table, hand, 77, 0)  # not dealt in
    with pytest.raises(HandNotRunning):
        await storage.release_mid_hand(table, hand + 1, CARLA, 100)
    assert await db.dump() == before
    await storage.release_mid_hand(table, hand, CARLA, 300)
    before = await db.dump()
    with pytest.raises(LedgerMismatch, match="già state restituite"):
        await storage.release_mid_hand(table, hand, CARLA, 0)  # twice
    assert await db.dump() == before
    await storage.finish_hand(table, hand, {ALICE: 500, BOB: 400, CARLA: 0}, 0, {}, {})
    with pytest.raises(HandNotRunning):
        await storage.release_mid_hand(table, hand, ALICE, 10)  # the hand is over
    assert await storage.check() == []


async def test_a_player_all_in_who_leaves_releases_nothing_and_is_still_noted(db: Database) -> None:
    store = await Storage.open(db.target, starting_chips=STARTING)
    table, hand = await three_at_a_hand(store)
    await store.release_mid_hand(table, hand, CARLA, 0)
    assert await store.balance(GUILD, CARLA) == STARTING - 300
    await store.close()  # the bot dies: the hand is cancelled at the next start
    async with await Storage.open(db.target, starting_chips=STARTING) as store:
        assert await store.recover() == [table]
        assert CARLA not in (await store.table(table)).seats
        assert await store.balance(GUILD, CARLA) == STARTING
        assert await store.check() == []


async def test_a_crash_after_a_release_pays_the_leaver_the_rest_and_does_not_seat_him(
    db: Database, clock: FakeClock
) -> None:
    store = await Storage.open(db.target, starting_chips=STARTING, clock=clock)
    table, hand = await three_at_a_hand(store)
    start_state = state_of({ALICE: 500, BOB: 400, CARLA: 300})
    await store.release_mid_hand(table, hand, CARLA, 280)
    await store.close()  # the bot dies here: the hand never finishes

    store = await Storage.open(db.target, starting_chips=STARTING, clock=clock)
    try:
        assert await store.recover() == [table]
        [row] = await store.open_tables()
        assert row.seats == {ALICE: 500, BOB: 400}, "she said she was leaving: no seat for her"
        assert row.state == start_state, "the engine state is the snapshot; the registry drops her from it"
        assert row.last_hand_status == "cancelled"
        assert await store.balance(GUILD, CARLA) == STARTING, "280 at once, the other 20 by the refund"
        assert (await store.history(GUILD, CARLA, account="balance")).entries[0].reason == "refund"
        assert await store.check() == []
        snapshot = await db.dump()
        assert await store.recover() == []
        assert await db.dump() == snapshot
        # The table plays on without her.
        nxt = await store.begin_hand(table, {ALICE: 500, BOB: 400}, 0, state_of({ALICE: 500, BOB: 400}))
        await store.finish_hand(table, nxt, {ALICE: 450, BOB: 450}, 0, {}, {})
        assert await store.check() == []
    finally:
        await store.close()


async def test_the_table_message_is_kept_with_the_table(storage: Storage, db: Database) -> None:
    table, _ = await three_at_a_hand(storage)
    assert (await storage.table(table)).message_id is None
    await storage.set_table_message(table, 123456789012345678)
    assert (await storage.table(table)).message_id == 123456789012345678
    assert await db.query("SELECT message_id FROM poker_tables") == [(123456789012345678,)]
    assert await storage.check() == []
