"""The house account: computer players buy in from it and give their stacks back to it, on both
backends; it is funded by the same issuing rules as a player and never appears on the leaderboard."""

from __future__ import annotations

import pytest

from bot.storage import Storage
from bot.storage.ledger import HOUSE
from tests.storage.conftest import ALICE, BOB, CHANNEL, GUILD, STARTING, Database, state_of

GINO, PINA = -1, -2  # computer players' ids (bot/computers.py)


async def issued(db: Database, reason: str, user_id: int) -> list[int]:
    rows = await db.query(
        "SELECT e.amount FROM entries AS e JOIN movements AS m ON m.id = e.movement_id"
        " WHERE m.reason = ? AND e.user_id = ? AND e.account = 'balance' ORDER BY e.id",
        reason,
        user_id,
    )
    return [int(r[0]) for r in rows]


async def test_a_computer_buys_in_from_the_house_which_opens_with_the_starting_chips(
    storage: Storage, db: Database
) -> None:
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "italiana", {}, state_of({}))
    await storage.buy_in(table, ALICE, 300)
    await storage.buy_in(table, GINO, 300, level="esperto")
    assert await storage.house_balance(GUILD) == STARTING - 300
    assert await issued(db, "start", HOUSE) == [STARTING], "opened like a player, once"
    assert await storage.computer_levels(table) == {GINO: "esperto"}
    assert (await storage.table(table)).seats == {ALICE: 300, GINO: 300}
    # The computer has no account of his own; the house has no seat.
    assert await db.query("SELECT user_id FROM accounts WHERE user_id < 0") == []
    assert await storage.check() == []


async def test_the_house_is_topped_up_by_exactly_what_a_buy_in_lacks(storage: Storage, db: Database) -> None:
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "italiana", {}, state_of({}))
    await storage.buy_in(table, GINO, 800, level="facile")
    await storage.buy_in(table, PINA, 700, level="esperto")  # the house holds 200: 500 are missing
    assert await issued(db, "bonus", HOUSE) == [500]
    assert await storage.house_balance(GUILD) == 0
    await storage.buy_in(table, ALICE, 100)
    assert await issued(db, "bonus", HOUSE) == [500], "a player's buy-in never funds the house"
    assert await storage.check() == []


async def test_stacks_go_back_to_the_house_after_a_hand_and_at_close(storage: Storage, db: Database) -> None:
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "italiana", {}, state_of({}))
    await storage.buy_in(table, ALICE, 300)
    await storage.buy_in(table, GINO, 300, level="facile")
    await storage.buy_in(table, PINA, 300, level="esperto")
    start = {ALICE: 300, GINO: 300, PINA: 300}
    hand = await storage.begin_hand(table, start, 0, state_of(start))
    # Gino wins 50 from Alice.
    end = {ALICE: 250, GINO: 350, PINA: 300}
    await storage.finish_hand(table, hand, end, 0, state_of(end), {"n": 1})
    assert await storage.cash_out(table, GINO, state_of({ALICE: 250, PINA: 300})) == 350
    assert await storage.house_balance(GUILD) == STARTING - 600 + 350
    await storage.close_table(table, {ALICE: 250, PINA: 300})
    assert await storage.house_balance(GUILD) == STARTING - 300 + 350 - 300 + 300
    assert await storage.balance(GUILD, ALICE) == STARTING - 50
    # Every chip is where the ledger says: Alice's 50 moved to the house, nothing was created.
    assert await storage.house_balance(GUILD) + await storage.balance(GUILD, ALICE) == 2 * STARTING
    assert await storage.check() == []


async def test_a_computer_leaving_mid_hand_and_a_cancelled_hand_pay_the_house(storage: Storage) -> None:
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "italiana", {}, state_of({}))
    await storage.buy_in(table, ALICE, 300)
    await storage.buy_in(table, GINO, 300, level="facile")
    await storage.buy_in(table, PINA, 300, level="esperto")
    start = {ALICE: 300, GINO: 300, PINA: 300}
    hand = await storage.begin_hand(table, start, 0, state_of(start))
    await storage.release_mid_hand(table, hand, GINO, 290)  # dismissed after putting 10 in
    assert await storage.house_balance(GUILD) == STARTING - 600 + 290
    # A crash cancels the hand: Gino's other 10 go back to the house; he is not seated again.
    assert await storage.recover() == [table]
    assert (await storage.table(table)).seats == {ALICE: 300, PINA: 300}
    assert await storage.house_balance(GUILD) == STARTING - 300
    assert await storage.computer_levels(table) == {PINA: "esperto"}
    assert await storage.check() == []


async def test_the_house_never_appears_on_the_leaderboard(storage: Storage) -> None:
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "italiana", {}, state_of({}))
    await storage.buy_in(table, GINO, 300, level="facile")
    await storage.balance(GUILD, BOB)
    board = await storage.leaderboard(GUILD)
    assert [row.user_id for row in board] == [BOB]


async def test_a_computer_without_a_level_or_a_player_with_one_is_refused(
    storage: Storage, db: Database
) -> None:
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "italiana", {}, state_of({}))
    before = await db.dump()
    with pytest.raises(ValueError):
        await storage.buy_in(table, GINO, 300)
    with pytest.raises(ValueError):
        await storage.buy_in(table, ALICE, 300, level="facile")
    with pytest.raises(db.integrity_error):
        await storage.buy_in(table, GINO, 300, level="fortissimo")
    assert await db.dump() == before


async def test_the_nights_summary_reads_a_computers_result_from_his_seat(storage: Storage) -> None:
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "italiana", {}, state_of({}))
    await storage.buy_in(table, ALICE, 300)
    await storage.buy_in(table, GINO, 300, level="facile")
    await storage.buy_in(table, PINA, 200, level="esperto")
    start = {ALICE: 300, GINO: 300, PINA: 200}
    hand = await storage.begin_hand(table, start, 0, state_of(start))
    end = {ALICE: 250, GINO: 380, PINA: 170}
    await storage.finish_hand(table, hand, end, 0, state_of(end), {"n": 1})
    assert await storage.cash_out(table, PINA, state_of({ALICE: 250, GINO: 380})) == 170
    night = await storage.table_summary(table)
    nets = {p.user_id: p.net for p in night.players}
    assert nets == {ALICE: -50, GINO: 80, PINA: -30}, "the house is nobody's result"


async def test_computers_come_back_from_a_restart_in_the_order_they_sat(storage: Storage) -> None:
    """`/tavolo congeda` without a name dismisses the last one seated, after a restart too."""
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "italiana", {}, state_of({}))
    await storage.buy_in(table, PINA, 300, level="facile")
    await storage.buy_in(table, GINO, 300, level="esperto")
    assert list(await storage.computer_levels(table)) == [PINA, GINO]
    await storage.cash_out(table, PINA)
    await storage.buy_in(table, PINA, 300, level="esperto")  # seated again: now the last one
    assert list((await storage.computer_levels(table)).items()) == [(GINO, "esperto"), (PINA, "esperto")]
    assert await storage.check() == []


async def test_a_carried_pot_closed_after_everyone_left_pays_a_computers_share_to_the_house(
    storage: Storage, db: Database
) -> None:
    # Everyone left while the pot was carried (engine: it goes back to who put it in): a computer
    # who put chips in has no seat any more, so his share goes straight to the house's balance.
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "italiana", {}, state_of({}))
    await storage.buy_in(table, ALICE, 300)
    await storage.buy_in(table, GINO, 300, level="facile")
    start = {ALICE: 300, GINO: 300}
    hand = await storage.begin_hand(table, start, 0, state_of(start))
    end = {ALICE: 290, GINO: 290}  # both said paròl: 20 carried
    await storage.finish_hand(table, hand, end, 20, state_of(end), {"n": 1})
    assert await storage.cash_out(table, GINO, state_of({ALICE: 290})) == 290
    assert await storage.cash_out(table, ALICE, state_of({})) == 290
    await storage.close_table(table, {ALICE: 10, GINO: 10})
    assert await storage.balance(GUILD, ALICE) == STARTING
    assert await storage.house_balance(GUILD) == STARTING
    assert await storage.check() == []
