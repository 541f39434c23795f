"""Tables, seats and hands: every chip movement, and every refusal leaving the database unchanged."""

from __future__ import annotations

import pytest

from bot.storage import (
    AlreadySeated,
    HandInProgress,
    HandNotRunning,
    InsufficientChips,
    InvalidAmount,
    LedgerMismatch,
    NotSeated,
    Storage,
    TableAlreadyOpen,
    TableNotFound,
    UnknownPlayer,
)
from tests.storage.conftest import ALICE, BOB, CARLA, CHANNEL, DINO, GUILD, STARTING, Database, state_of

OPTIONS = {"variant": "texas", "limite": "nolimit", "buio": 10}


async def new_table(storage: Storage, *buy_ins: tuple[int, int]) -> int:
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", OPTIONS, state_of({}))
    for user, amount in buy_ins:
        await storage.buy_in(table, user, amount)
    return table


async def test_create_table_stores_options_and_state(storage: Storage) -> None:
    table = await storage.create_table(
        GUILD, CHANNEL, ALICE, "texas", OPTIONS, {"dealer": 0, "nome": "Verde"}
    )
    [row] = await storage.open_tables()
    assert (row.id, row.guild_id, row.channel_id, row.creator_id, row.variant) == (
        table,
        GUILD,
        CHANNEL,
        ALICE,
        "texas",
    )
    assert row.options == OPTIONS
    assert row.state == {"dealer": 0, "nome": "Verde"}
    assert (row.status, row.pot, row.seats, row.running_hand_id) == ("open", 0, {}, None)


async def test_one_open_table_per_channel(storage: Storage, db: Database) -> None:
    table = await new_table(storage)
    before = await db.dump()
    with pytest.raises(TableAlreadyOpen, match="c'è già un tavolo aperto"):
        await storage.create_table(GUILD, CHANNEL, BOB, "32carte", {}, {})
    assert await db.dump() == before
    await storage.close_table(table, {})
    assert await storage.create_table(GUILD, CHANNEL, BOB, "32carte", {}, {}) != table


async def test_buy_in_moves_balance_to_seat_and_saves_state(storage: Storage) -> None:
    table = await new_table(storage)
    await storage.buy_in(table, BOB, 400, state_of({BOB: 400}))
    assert await storage.balance(GUILD, BOB) == STARTING - 400
    row = await storage.table(table)
    assert row.seats == {BOB: 400}
    assert row.state == state_of({BOB: 400})
    history = await storage.history(GUILD, BOB)
    assert {(e.reason, e.account, e.amount, e.table_id) for e in history.entries[:2]} == {
        ("buy_in", "balance", -400, None),
        ("buy_in", "seat", 400, table),
    }
    assert await storage.check() == []
    balance_only = await storage.history(GUILD, BOB, account="balance")
    assert [(e.reason, e.amount) for e in balance_only.entries] == [("buy_in", -400), ("start", STARTING)]


async def test_buy_in_larger_than_the_balance_is_refused(storage: Storage, db: Database) -> None:
    table = await new_table(storage)
    await storage.balance(GUILD, BOB)
    before = await db.dump()
    with pytest.raises(InsufficientChips) as refused:
        await storage.buy_in(table, BOB, STARTING + 1, state_of({BOB: STARTING + 1}))
    assert (
        str(refused.value)
        == "Non hai abbastanza fiches: ne servono 1.001 fiches e il tuo saldo è di 1.000 fiches."
    )
    assert (refused.value.balance, refused.value.needed) == (STARTING, STARTING + 1)
    assert await db.dump() == before


async def test_buy_in_of_the_whole_balance_is_allowed(storage: Storage) -> None:
    table = await new_table(storage, (BOB, STARTING))
    assert await storage.balance(GUILD, BOB) == 0
    assert (await storage.table(table)).seats == {BOB: STARTING}


async def test_sitting_twice_is_refused(storage: Storage, db: Database) -> None:
    table = await new_table(storage, (BOB, 100))
    before = await db.dump()
    with pytest.raises(AlreadySeated, match="Sei già seduto"):
        await storage.buy_in(table, BOB, 100, state_of({BOB: 200}))
    assert await db.dump() == before


@pytest.mark.parametrize("amount", [0, -100, 2.5, None])
async def test_buy_in_of_a_bad_amount_is_refused(storage: Storage, db: Database, amount: object) -> None:
    table = await new_table(storage)
    await storage.balance(GUILD, BOB)
    before = await db.dump()
    with pytest.raises(
        InvalidAmount, match=r"^L.importo deve essere un numero intero di fiches maggiore di zero\.$"
    ):
        await storage.buy_in(table, BOB, amount)  # type: ignore[arg-type]
    assert await db.dump() == before


async def test_unknown_or_closed_table_is_refused(storage: Storage, db: Database) -> None:
    table = await new_table(storage)
    await storage.close_table(table, {})
    await storage.balance(GUILD, BOB)
    before = await db.dump()
    for missing in (table, 424242):
        with pytest.raises(TableNotFound, match="non esiste o è già stato chiuso"):
            await storage.buy_in(missing, BOB, 10)
        with pytest.raises(TableNotFound):
            await storage.cash_out(missing, BOB)
        with pytest.raises(TableNotFound):
            await storage.begin_hand(missing, {}, 0, {})
        with pytest.raises(TableNotFound):
            await storage.close_table(missing, {})
        with pytest.raises(TableNotFound):
            await storage.table(missing)
    assert await db.dump() == before


async def test_cash_out_returns_the_stack(storage: Storage) -> None:
    table = await new_table(storage, (BOB, 300))
    assert await storage.cash_out(table, BOB, state_of({})) == 300
    assert await storage.balance(GUILD, BOB) == STARTING
    assert (await storage.table(table)).seats == {}
    assert await storage.check() == []


async def test_cash_out_when_not_seated_is_refused(storage: Storage, db: Database) -> None:
    table = await new_table(storage, (BOB, 300))
    before = await db.dump()
    with pytest.raises(NotSeated, match="Non sei seduto"):
        await storage.cash_out(table, CARLA)
    assert await db.dump() == before


async def test_cash_out_of_an_empty_stack_frees_the_seat_without_a_movement(storage: Storage) -> None:
    table = await new_table(storage, (ALICE, 100), (BOB, 100))
    hand = await storage.begin_hand(table, {ALICE: 100, BOB: 100}, 0, {})
    await storage.finish_hand(table, hand, {ALICE: 200, BOB: 0}, 0, {}, {})
    assert await storage.cash_out(table, BOB) == 0
    assert (await storage.table(table)).seats == {ALICE: 200}
    assert await storage.balance(GUILD, BOB) == STARTING - 100
    assert await storage.check() == []


async def test_a_hand_moves_chips_between_seats_and_the_pot(storage: Storage) -> None:
    table = await new_table(storage, (ALICE, 500), (BOB, 500), (CARLA, 500))
    start = {ALICE: 500, BOB: 500, CARLA: 500}
    hand = await storage.begin_hand(table, start, 0, state_of(start))
    assert (await storage.table(table)).running_hand_id == hand
    end = {ALICE: 800, BOB: 300, CARLA: 370}  # 30 carried to the next hand (pot not won)
    record = {"variant": "texas", "actions": [["bob", "punto", 200]]}
    await storage.finish_hand(table, hand, end, 30, state_of(end, 30), record)
    row = await storage.table(table)
    assert (row.seats, row.pot, row.state, row.running_hand_id) == (end, 30, state_of(end, 30), None)
    history = await storage.history(GUILD, ALICE)
    [summary] = history.hands
    assert (summary.status, summary.start_stack, summary.end_stack, summary.record) == (
        "finished",
        500,
        800,
        record,
    )
    assert history.entries[0].reason == "hand" and history.entries[0].hand_id == hand
    assert await storage.check() == []
    # The carried pot goes to the next hand's winner.
    hand2 = await storage.begin_hand(table, end, 30, state_of(end, 30))
    await storage.finish_hand(table, hand2, {ALICE: 830, BOB: 300, CARLA: 370}, 0, {}, {})
    assert (await storage.table(table)).pot == 0
    assert await storage.check() == []


async def test_a_hand_that_creates_or_destroys_chips_is_refused(storage: Storage, db: Database) -> None:
    table = await new_table(storage, (ALICE, 500), (BOB, 500))
    hand = await storage.begin_hand(table, {ALICE: 500, BOB: 500}, 0, {})
    before = await db.dump()
    bad_results = [
        ({ALICE: 600, BOB: 500}, 0),  # created
        ({ALICE: 400, BOB: 500}, 0),  # destroyed
        ({ALICE: 500, BOB: 400}, 50),  # half lost
        ({ALICE: 1000}, 0),  # Bob's seat is missing
        ({ALICE: 500, BOB: 400, CARLA: 100}, 0),  # Carla has no seat
        ({ALICE: -100, BOB: 1100}, 0),  # negative stack
        ({ALICE: 500, BOB: 500}, -1),  # negative pot
    ]
    for stacks, pot in bad_results:
        with pytest.raises(LedgerMismatch, match="fiches"):
            await storage.finish_hand(table, hand, stacks, pot, {}, {})
        assert await db.dump() == before
    with pytest.raises(HandNotRunning, match="non è più in corso"):
        await storage.finish_hand(table, hand + 1, {ALICE: 500, BOB: 500}, 0, {}, {})
    assert await db.dump() == before


async def test_a_hand_is_finished_only_once(storage: Storage, db: Database) -> None:
    table = await new_table(storage, (ALICE, 500), (BOB, 500))
    hand = await storage.begin_hand(table, {ALICE: 500, BOB: 500}, 0, {})
    await storage.finish_hand(table, hand, {ALICE: 600, BOB: 400}, 0, {}, {})
    before = await db.dump()
    with pytest.raises(HandNotRunning):
        await storage.finish_hand(table, hand, {ALICE: 700, BOB: 300}, 0, {}, {})
    assert await db.dump() == before


async def test_begin_hand_refuses_stacks_that_disagree_with_the_ledger(
    storage: Storage, db: Database
) -> None:
    table = await new_table(storage, (ALICE, 500), (BOB, 500))
    before = await db.dump()
    for stacks, pot in [
        ({ALICE: 500, BOB: 499}, 0),
        ({ALICE: 500}, 0),
        ({ALICE: 500, BOB: 500, CARLA: 0}, 0),
        ({ALICE: 500, BOB: 500}, 10),
    ]:
        with pytest.raises(LedgerMismatch):
            await storage.begin_hand(table, stacks, pot, {})
    assert await db.dump() == before


async def test_one_hand_at_a_time(storage: Storage, db: Database) -> None:
    table = await new_table(storage, (ALICE, 500), (BOB, 500))
    await storage.begin_hand(table, {ALICE: 500, BOB: 500}, 0, {})
    before = await db.dump()
    with pytest.raises(HandInProgress, match="già una mano in corso"):
        await storage.begin_hand(table, {ALICE: 500, BOB: 500}, 0, {})
    assert await db.dump() == before


async def test_a_player_in_the_hand_cannot_cash_out_until_it_ends(storage: Storage, db: Database) -> None:
    table = await new_table(storage, (ALICE, 500), (BOB, 500))
    hand = await storage.begin_hand(table, {ALICE: 500, BOB: 500}, 0, {})
    before = await db.dump()
    with pytest.raises(HandInProgress, match="durante la mano"):
        await storage.cash_out(table, BOB)
    assert await db.dump() == before
    # Bob left the engine's table mid-hand: his released stack is in the hand's result, then he is paid.
    await storage.finish_hand(table, hand, {ALICE: 620, BOB: 380}, 0, state_of({ALICE: 620}), {})
    assert await storage.cash_out(table, BOB, state_of({ALICE: 620})) == 380
    assert await storage.balance(GUILD, BOB) == STARTING - 500 + 380
    assert await storage.check() == []


async def test_a_player_joining_mid_hand_waits_and_keeps_his_stack(storage: Storage, db: Database) -> None:
    table = await new_table(storage, (ALICE, 500), (BOB, 500))
    hand = await storage.begin_hand(table, {ALICE: 500, BOB: 500}, 0, state_of({ALICE: 500, BOB: 500}))
    await storage.buy_in(table, CARLA, 300)  # no state: the engine serialises only between hands
    assert (await storage.table(table)).state == state_of({ALICE: 500, BOB: 500})
    before = await db.dump()
    with pytest.raises(LedgerMismatch, match="chi non giocava"):
        await storage.finish_hand(table, hand, {ALICE: 450, BOB: 500, CARLA: 350}, 0, {}, {})
    assert await db.dump() == before
    await storage.finish_hand(table, hand, {ALICE: 450, BOB: 550, CARLA: 300}, 0, {}, {})
    assert (await storage.table(table)).seats == {ALICE: 450, BOB: 550, CARLA: 300}
    assert (await storage.history(GUILD, CARLA)).hands == ()  # she was not dealt in
    assert await storage.check() == []


async def test_a_busted_seat_may_be_left_out_of_the_stacks(storage: Storage) -> None:
    table = await new_table(storage, (ALICE, 100), (BOB, 100), (CARLA, 100))
    hand = await storage.begin_hand(table, {ALICE: 100, BOB: 100, CARLA: 100}, 0, {})
    await storage.finish_hand(table, hand, {ALICE: 200, BOB: 0, CARLA: 100}, 0, {}, {})
    hand = await storage.begin_hand(table, {ALICE: 200, CARLA: 100}, 0, {})
    await storage.finish_hand(table, hand, {ALICE: 250, CARLA: 50}, 0, {}, {})
    assert (await storage.table(table)).seats == {ALICE: 250, BOB: 0, CARLA: 50}
    assert await storage.check() == []


async def test_close_table_pays_everyone(storage: Storage) -> None:
    table = await new_table(storage, (ALICE, 500), (BOB, 500))
    hand = await storage.begin_hand(table, {ALICE: 500, BOB: 500}, 0, {})
    await storage.finish_hand(table, hand, {ALICE: 690, BOB: 300}, 10, {}, {})
    await storage.close_table(table, {ALICE: 695, BOB: 305})
    assert await storage.open_tables() == []
    assert await storage.balance(GUILD, ALICE) == STARTING + 195
    assert await storage.balance(GUILD, BOB) == STARTING - 195
    assert await storage.check() == []


async def test_close_table_may_pay_a_player_who_already_left(storage: Storage) -> None:
    table = await new_table(storage, (ALICE, 500), (BOB, 500))
    hand = await storage.begin_hand(table, {ALICE: 500, BOB: 500}, 0, {})
    await storage.finish_hand(table, hand, {ALICE: 495, BOB: 495}, 10, {}, {})
    await storage.cash_out(table, BOB)
    await storage.close_table(table, {ALICE: 500, BOB: 5})
    assert await storage.balance(GUILD, BOB) == STARTING
    assert await storage.check() == []


async def test_close_table_refusals_change_nothing(storage: Storage, db: Database) -> None:
    table = await new_table(storage, (ALICE, 500), (BOB, 500))
    await storage.balance(GUILD, CARLA)
    before = await db.dump()
    with pytest.raises(LedgerMismatch, match="esattamente"):
        await storage.close_table(table, {ALICE: 500, BOB: 499})
    with pytest.raises(LedgerMismatch, match="esattamente"):
        await storage.close_table(table, {ALICE: 500, BOB: 501})
    with pytest.raises(LedgerMismatch):
        await storage.close_table(table, {ALICE: 1100, BOB: -100})
    with pytest.raises(UnknownPlayer):
        await storage.close_table(table, {ALICE: 500, BOB: 400, DINO: 100})
    assert await db.dump() == before
    await storage.begin_hand(table, {ALICE: 500, BOB: 500}, 0, {})
    before = await db.dump()
    with pytest.raises(HandInProgress, match="fine della mano"):
        await storage.close_table(table, {ALICE: 500, BOB: 500})
    assert await db.dump() == before


async def test_check_finds_a_tampered_database(storage: Storage, db: Database) -> None:
    table = await new_table(storage, (ALICE, 500), (BOB, 500))
    await storage.balance(GUILD, CARLA)
    assert await storage.check() == []
    await db.execute("UPDATE accounts SET balance = balance + 7 WHERE user_id = ?", CARLA)
    await db.execute("UPDATE seats SET stack = stack - 3 WHERE user_id = ?", BOB)
    await db.execute("UPDATE poker_tables SET pot = 2 WHERE id = ?", table)
    problems = await storage.check()
    assert f"guild {GUILD} user {CARLA}: balance 1007 but ledger says 1000" in problems
    assert f"table {table} user {BOB}: seat holds 497 but ledger says 500" in problems
    assert f"table {table}: pot 2 but ledger says 0" in problems
    assert f"guild {GUILD}: 3006 chips held but 3000 issued" in problems
    assert await storage.check(GUILD + 1) == []


async def test_the_ledger_is_append_only(storage: Storage, db: Database) -> None:
    await storage.balance(GUILD, ALICE)
    statements = ["UPDATE entries SET amount = 5", "DELETE FROM entries", "DELETE FROM movements"]
    if db.dialect == "postgresql":
        statements += [
            "UPDATE movements SET reason = 'grant'",
            "TRUNCATE entries",
            "TRUNCATE movements CASCADE",
        ]
    for sql in statements:
        with pytest.raises(db.integrity_error, match="append-only"):
            await db.execute(sql)
    # Rewriting a row in place by inserting its id again: REPLACE on SQLite (which deletes the old row
    # without its DELETE trigger), an upsert on PostgreSQL.
    [(entry, movement)] = await db.query("SELECT id, movement_id FROM entries")
    columns = "(id, movement_id, guild_id, account, user_id, table_id, amount)"
    values = "VALUES (?, ?, ?, 'balance', ?, NULL, 999999)"
    rewrites = (
        [f"INSERT OR REPLACE INTO entries {columns} {values}", f"REPLACE INTO entries {columns} {values}"]
        if db.dialect == "sqlite"
        else [
            f"INSERT INTO entries {columns} {values} ON CONFLICT (id) DO UPDATE SET amount = excluded.amount"
        ]
    )
    for sql in rewrites:
        with pytest.raises(db.integrity_error, match="append-only"):
            await db.execute(sql, entry, movement, GUILD, ALICE)
    if db.dialect == "sqlite":
        with pytest.raises(db.integrity_error, match="append-only"):
            await db.execute(
                "INSERT OR REPLACE INTO movements (id, guild_id, reason, created_at)"
                " VALUES (?, ?, 'grant', 0)",
                movement,
                GUILD,
            )
    assert [e.reason for e in (await storage.history(GUILD, ALICE)).entries] == ["start"]
    assert [e.amount for e in (await storage.history(GUILD, ALICE)).entries] == [STARTING]


async def test_schema_forbids_a_negative_balance(storage: Storage, db: Database) -> None:
    await storage.balance(GUILD, ALICE)
    with pytest.raises(db.integrity_error, match=r"(?i)check"):
        await db.execute("UPDATE accounts SET balance = -1")
    with pytest.raises(db.integrity_error, match=r"(?i)check"):
        await db.execute(
            "INSERT INTO entries (movement_id, guild_id, account, user_id, table_id, amount)"
            " VALUES (1, 1, 'pot', 5, NULL, 3)"
        )
    assert await storage.balance(GUILD, ALICE) == STARTING


async def test_the_state_alone_is_stored_between_hands_and_refused_during_one(storage: Storage) -> None:
    """A player back in the game between hands: the engine's state is stored, no chip moves."""
    table = await new_table(storage)
    await storage.buy_in(table, ALICE, 300, state_of({ALICE: 300}))
    await storage.buy_in(table, BOB, 300, state_of({ALICE: 300, BOB: 300}))
    back = {**state_of({ALICE: 300, BOB: 300}), "note": "bob back in the game"}
    await storage.save_state(table, back)
    assert (await storage.table(table)).state == back
    hand = await storage.begin_hand(table, {ALICE: 300, BOB: 300}, 0, back)
    with pytest.raises(HandInProgress):
        await storage.save_state(table, state_of({ALICE: 300, BOB: 300}))
    assert (await storage.table(table)).state == back, "the hand's start state is kept"
    await storage.finish_hand(table, hand, {ALICE: 310, BOB: 290}, 0, state_of({ALICE: 310, BOB: 290}), {})
    with pytest.raises(TableNotFound):
        await storage.save_state(table + 1, back)
    assert await storage.check() == []
