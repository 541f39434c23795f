"""Balances, the daily bonus, grants, the leaderboard and the history."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.storage import (
    BonusDisabled,
    BonusNotReady,
    InvalidAmount,
    Storage,
    UnknownPlayer,
)
from tests.storage.conftest import (
    ADMIN,
    ALICE,
    BOB,
    BONUS,
    CARLA,
    GUILD,
    OTHER_GUILD,
    STARTING,
    Database,
    FakeClock,
    state_of,
)


async def test_first_balance_opens_the_account_with_the_starting_chips(storage: Storage) -> None:
    assert await storage.balance(GUILD, ALICE) == STARTING
    assert await storage.balance(GUILD, ALICE) == STARTING  # the second call issues nothing
    history = await storage.history(GUILD, ALICE)
    assert [(e.reason, e.account, e.amount) for e in history.entries] == [("start", "balance", STARTING)]
    assert await storage.check() == []


async def test_balances_are_per_server(storage: Storage) -> None:
    await storage.grant(GUILD, ALICE, 50, ADMIN)
    assert await storage.balance(GUILD, ALICE) == STARTING + 50
    assert await storage.balance(OTHER_GUILD, ALICE) == STARTING


async def test_daily_bonus_once_per_24_hours(storage: Storage, clock: FakeClock, db: Database) -> None:
    assert await storage.claim_bonus(GUILD, ALICE) == STARTING + BONUS
    clock.advance(timedelta(hours=23, minutes=59))
    before = await db.dump()
    with pytest.raises(BonusNotReady) as refused:
        await storage.claim_bonus(GUILD, ALICE)
    assert await db.dump() == before
    assert refused.value.retry_after == timedelta(minutes=1)
    assert str(refused.value) == (
        "Hai già ritirato il bonus giornaliero: potrai ritirarlo di nuovo tra 1 minuto."
    )
    clock.advance(timedelta(minutes=1))
    assert await storage.claim_bonus(GUILD, ALICE) == STARTING + 2 * BONUS
    assert await storage.check() == []


async def test_bonus_refusal_says_hours_and_minutes(storage: Storage, clock: FakeClock) -> None:
    await storage.claim_bonus(GUILD, ALICE)
    with pytest.raises(BonusNotReady, match=r"tra 24 ore\.$"):
        await storage.claim_bonus(GUILD, ALICE)
    clock.advance(timedelta(hours=20, minutes=30))
    with pytest.raises(BonusNotReady, match=r"tra 3 ore e 30 minuti\.$"):
        await storage.claim_bonus(GUILD, ALICE)


async def test_bonus_takes_an_explicit_time(storage: Storage, clock: FakeClock) -> None:
    await storage.claim_bonus(GUILD, ALICE, now=clock.now)
    with pytest.raises(BonusNotReady):
        await storage.claim_bonus(GUILD, ALICE, now=clock.now + timedelta(hours=1))
    assert await storage.claim_bonus(GUILD, ALICE, now=clock.now + timedelta(days=1)) == STARTING + 2 * BONUS


async def test_bonus_is_per_server(storage: Storage) -> None:
    await storage.claim_bonus(GUILD, ALICE)
    assert await storage.claim_bonus(OTHER_GUILD, ALICE) == STARTING + BONUS


async def test_zero_bonus_is_disabled(db: Database, clock: FakeClock) -> None:
    async with await Storage.open(db.target, starting_chips=STARTING, daily_bonus=0, clock=clock) as store:
        before = await db.dump()
        with pytest.raises(BonusDisabled, match="non è attivo"):
            await store.claim_bonus(GUILD, ALICE)
        assert await db.dump() == before


async def test_grant_records_the_admin(storage: Storage) -> None:
    assert await storage.grant(GUILD, BOB, 300, ADMIN) == STARTING + 300
    history = await storage.history(GUILD, BOB)
    assert [(e.reason, e.amount, e.by_user_id) for e in history.entries] == [
        ("grant", 300, ADMIN),
        ("start", STARTING, None),
    ]
    assert await storage.check() == []


@pytest.mark.parametrize("amount", [0, -5, True, 1.5, "10", 10**13])
async def test_grant_refuses_a_bad_amount_and_changes_nothing(
    storage: Storage, db: Database, amount: object
) -> None:
    await storage.balance(GUILD, BOB)
    before = await db.dump()
    with pytest.raises(InvalidAmount) as refused:
        await storage.grant(GUILD, BOB, amount, ADMIN)  # type: ignore[arg-type]
    assert str(refused.value).startswith("L'importo ")
    assert await db.dump() == before


async def test_leaderboard_counts_chips_at_tables(storage: Storage) -> None:
    await storage.grant(GUILD, ALICE, 100, ADMIN)  # 1100
    await storage.grant(GUILD, BOB, 50, ADMIN)  # 1050
    await storage.balance(GUILD, CARLA)  # 1000
    await storage.balance(OTHER_GUILD, CARLA)
    table = await storage.create_table(GUILD, 7, ALICE, "texas", {}, state_of({}))
    await storage.buy_in(table, CARLA, 600, state_of({CARLA: 600}))
    hand = await storage.begin_hand(table, {CARLA: 600}, 0, state_of({CARLA: 600}))
    # Chips moved into the table's pot still belong to nobody's total.
    await storage.finish_hand(table, hand, {CARLA: 400}, 200, state_of({CARLA: 400}, 200), {})
    rows = await storage.leaderboard(GUILD)
    assert [(r.rank, r.user_id, r.balance, r.at_tables, r.total) for r in rows] == [
        (1, ALICE, 1100, 0, 1100),
        (2, BOB, 1050, 0, 1050),
        (3, CARLA, 400, 400, 800),
    ]
    assert [r.user_id for r in await storage.leaderboard(GUILD, limit=2)] == [ALICE, BOB]
    assert [r.user_id for r in await storage.leaderboard(OTHER_GUILD)] == [CARLA]
    assert await storage.leaderboard(12345) == []


async def test_leaderboard_breaks_ties_by_user_id(storage: Storage) -> None:
    for user in (CARLA, ALICE, BOB):
        await storage.balance(GUILD, user)
    assert [r.user_id for r in await storage.leaderboard(GUILD)] == [ALICE, BOB, CARLA]


async def test_history_of_an_unknown_player_is_refused(storage: Storage, db: Database) -> None:
    before = await db.dump()
    with pytest.raises(UnknownPlayer, match="non ha ancora un conto"):
        await storage.history(GUILD, ALICE)
    assert await db.dump() == before


async def test_history_lists_entries_and_hands_newest_first(storage: Storage) -> None:
    table = await storage.create_table(GUILD, 7, ALICE, "texas", {}, state_of({}))
    await storage.buy_in(table, ALICE, 500)
    await storage.buy_in(table, BOB, 500)
    for number in range(1, 4):
        hand = await storage.begin_hand(table, (await storage.table(table)).seats, 0, state_of({}))
        seats = (await storage.table(table)).seats
        record = {"hand": number}
        await storage.finish_hand(
            table, hand, {ALICE: seats[ALICE] + 10, BOB: seats[BOB] - 10}, 0, state_of({}), record
        )
    history = await storage.history(GUILD, ALICE, limit=2)
    assert [(h.number, h.start_stack, h.end_stack, h.result, h.record) for h in history.hands] == [
        (3, 520, 530, 10, {"hand": 3}),
        (2, 510, 520, 10, {"hand": 2}),
    ]
    assert [(e.reason, e.account, e.amount) for e in history.entries] == [
        ("hand", "seat", 10),
        ("hand", "seat", 10),
    ]
    full = await storage.history(GUILD, ALICE, limit=100)
    assert [(e.reason, e.account, e.amount) for e in full.entries][-3:] == [
        ("buy_in", "seat", 500),
        ("buy_in", "balance", -500),
        ("start", "balance", STARTING),
    ]
