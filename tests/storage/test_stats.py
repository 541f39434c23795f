"""Hand summaries (migration 0005) and what is read from them, on both backends: a player's
statistics per server and variant, a table's night, stored hands for replays."""

from __future__ import annotations

import pytest

from bot.storage import HandPlayer, LedgerMismatch, Storage
from tests.storage.conftest import (
    ALICE,
    BOB,
    CARLA,
    CHANNEL,
    GUILD,
    OTHER_GUILD,
    Database,
    state_of,
)

OPTIONS = {"variant": "texas", "limite": "nolimit", "cip": 10}
COMPUTER = -1


def player(
    user: int, net: int, pot: int = 0, *, showdown: int = 0, uncontested: int = 0, **shown: object
) -> HandPlayer:
    return HandPlayer(
        user_id=user,
        net=net,
        won=pot > 0,
        pots_showdown=showdown,
        pots_uncontested=uncontested,
        pot_won=pot,
        shown_strength=shown.get("strength"),  # type: ignore[arg-type]
        shown_category=shown.get("category"),  # type: ignore[arg-type]
        shown_text=shown.get("text"),  # type: ignore[arg-type]
    )


async def play(
    storage: Storage,
    table: int,
    stacks: dict[int, int],
    new: dict[int, int],
    players: list[HandPlayer],
    pot: int = 0,
) -> int:
    hand = await storage.begin_hand(table, stacks, pot, state_of(stacks, pot))
    await storage.finish_hand(table, hand, new, pot, state_of(new, pot), {"hand": hand}, players)
    return hand


async def test_finish_hand_writes_one_row_per_player_with_the_ledger_net(
    storage: Storage, db: Database
) -> None:
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", OPTIONS, state_of({}))
    await storage.buy_in(table, ALICE, 300)
    await storage.buy_in(table, BOB, 300)
    # The summary says +999, the ledger says +50: the stored net is the ledger's.
    hand = await play(
        storage,
        table,
        {ALICE: 300, BOB: 300},
        {ALICE: 350, BOB: 250},
        [
            player(ALICE, 999, 100, showdown=1, strength=77, category=1, text="coppia: A♥ A♠"),
            player(BOB, -50),
        ],
    )
    rows = await db.query(
        "SELECT hand_id, guild_id, table_id, variant, user_id, net, won, pots_showdown, pot_won, shown_text"
        " FROM hand_players ORDER BY user_id"
    )
    assert rows == [
        (hand, GUILD, table, "texas", ALICE, 50, 1, 1, 100, "coppia: A♥ A♠"),
        (hand, GUILD, table, "texas", BOB, -50, 0, 0, 0, None),
    ]
    assert await storage.check() == []


async def test_a_summary_naming_a_player_not_in_the_hand_refuses_the_whole_hand(
    storage: Storage, db: Database
) -> None:
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", OPTIONS, state_of({}))
    await storage.buy_in(table, ALICE, 300)
    await storage.buy_in(table, BOB, 300)
    hand = await storage.begin_hand(table, {ALICE: 300, BOB: 300}, 0, state_of({ALICE: 300, BOB: 300}))
    before = await db.dump()
    with pytest.raises(LedgerMismatch):
        await storage.finish_hand(
            table, hand, {ALICE: 310, BOB: 290}, 0, state_of({}), {}, [player(CARLA, 10)]
        )
    assert await db.dump() == before, "no chip moved, no row written"


async def test_player_stats_per_server_and_variant(storage: Storage) -> None:
    texas = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", OPTIONS, state_of({}))
    await storage.buy_in(texas, ALICE, 500)
    await storage.buy_in(texas, BOB, 500)
    stacks = {ALICE: 500, BOB: 500}
    await play(
        storage,
        texas,
        stacks,
        {ALICE: 600, BOB: 400},
        [
            player(ALICE, 100, 200, showdown=1, strength=500, text="tris: 9♠ 9♦ 9♥ A♥ K♥"),
            player(BOB, -100, strength=100, text="coppia"),
        ],
    )
    await play(
        storage,
        texas,
        {ALICE: 600, BOB: 400},
        {ALICE: 570, BOB: 430},
        [player(ALICE, -30), player(BOB, 30, 60, uncontested=1)],
    )
    await play(
        storage,
        texas,
        {ALICE: 570, BOB: 430},
        {ALICE: 820, BOB: 180},
        [player(ALICE, 250, 500, showdown=1, strength=300, text="doppia coppia"), player(BOB, -250)],
    )
    italiana = await storage.create_table(
        GUILD, CHANNEL + 1, BOB, "italiana", {"variant": "italiana"}, state_of({})
    )
    await storage.buy_in(italiana, ALICE, 100)
    await storage.buy_in(italiana, BOB, 100)
    await play(
        storage,
        italiana,
        {ALICE: 100, BOB: 100},
        {ALICE: 80, BOB: 120},
        [player(ALICE, -20), player(BOB, 20, 40, uncontested=1)],
    )
    # Another server: never mixed in.
    elsewhere = await storage.create_table(OTHER_GUILD, CHANNEL + 2, ALICE, "texas", OPTIONS, state_of({}))
    await storage.buy_in(elsewhere, ALICE, 100)
    await storage.buy_in(elsewhere, BOB, 100)
    await play(
        storage,
        elsewhere,
        {ALICE: 100, BOB: 100},
        {ALICE: 0, BOB: 200},
        [player(ALICE, -100), player(BOB, 100, 200, showdown=1, strength=900, text="poker")],
    )

    stats = {s.variant: s for s in await storage.player_stats(GUILD, ALICE)}
    assert set(stats) == {"italiana", "texas"}
    t = stats["texas"]
    assert (t.hands, t.won, t.pots_showdown, t.pots_uncontested, t.net, t.biggest_pot) == (
        3,
        2,
        2,
        0,
        320,
        500,
    )
    assert t.best_hand == "tris: 9♠ 9♦ 9♥ A♥ K♥", "the highest strength, not the biggest pot"
    i = stats["italiana"]
    assert (i.hands, i.won, i.net, i.biggest_pot, i.best_hand) == (1, 0, -20, 0, None)
    bob = {s.variant: s for s in await storage.player_stats(GUILD, BOB)}
    assert (bob["texas"].net, bob["texas"].pots_uncontested, bob["texas"].best_hand) == (-320, 1, "coppia")
    assert await storage.player_stats(GUILD, CARLA) == []
    assert [s.net for s in await storage.player_stats(OTHER_GUILD, ALICE)] == [-100]


@pytest.mark.parametrize("written", [[BOB, CARLA, ALICE], [ALICE, CARLA, BOB]])
async def test_a_split_pot_names_the_same_player_whatever_the_order_rows_were_written(
    storage: Storage, written: list[int]
) -> None:
    # Alice and Bob split the biggest pot with the same hand: the summary names the lower id, on
    # both backends, not whichever row the database happens to read first.
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", OPTIONS, state_of({}))
    for user in (ALICE, BOB, CARLA):
        await storage.buy_in(table, user, 100)
    rows = {
        ALICE: player(ALICE, 50, 150, showdown=1, strength=70, text="scala"),
        BOB: player(BOB, 50, 150, showdown=1, strength=70, text="scala"),
        CARLA: player(CARLA, -100, strength=20, text="coppia"),
    }
    start = {ALICE: 100, BOB: 100, CARLA: 100}
    await play(storage, table, start, {ALICE: 150, BOB: 150, CARLA: 0}, [rows[u] for u in written])
    night = await storage.table_summary(table)
    assert (night.biggest_pot, night.best_hand) == ((150, ALICE, 1), ("scala", ALICE, 1))


async def test_table_summary_counts_the_night_from_the_ledger(storage: Storage) -> None:
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", OPTIONS, state_of({}))
    await storage.buy_in(table, ALICE, 300)
    await storage.buy_in(table, BOB, 200)
    await play(
        storage,
        table,
        {ALICE: 300, BOB: 200},
        {ALICE: 450, BOB: 50},
        [
            player(ALICE, 150, 300, showdown=1, strength=40, text="coppia"),
            player(BOB, -150, strength=20, text="carta alta"),
        ],
    )
    await storage.cash_out(table, BOB)  # bob leaves with 50...
    await storage.buy_in(table, BOB, 100)  # ...and buys in again
    await storage.buy_in(table, CARLA, 100)
    await play(
        storage,
        table,
        {ALICE: 450, BOB: 100, CARLA: 100},
        {ALICE: 420, BOB: 160, CARLA: 70},
        [player(ALICE, -30), player(BOB, 60, 90, uncontested=1), player(CARLA, -30)],
    )
    # A hand the restart cancels: counted apart, its chips back.
    await storage.begin_hand(table, {ALICE: 420, BOB: 160, CARLA: 70}, 0, state_of({}))
    await storage.recover()

    night = await storage.table_summary(table)
    assert (night.variant, night.hands, night.cancelled) == ("texas", 2, 1)
    by = {p.user_id: p for p in night.players}
    assert (by[ALICE].bought_in, by[ALICE].taken_out, by[ALICE].at_table, by[ALICE].net) == (300, 0, 420, 120)
    assert (by[BOB].bought_in, by[BOB].taken_out, by[BOB].at_table, by[BOB].net) == (300, 50, 160, -90)
    assert by[CARLA].net == -30
    assert sum(p.net for p in night.players) == 0, "a table without a carried pot creates no chips"
    assert [p.user_id for p in night.players] == [ALICE, CARLA, BOB], "best result first"
    assert night.biggest_pot == (300, ALICE, 1)
    assert night.best_hand == ("coppia", ALICE, 1)

    await storage.close_table(table, {ALICE: 420, BOB: 160, CARLA: 70})
    closed = await storage.table_summary(table)
    assert {p.user_id: (p.net, p.at_table) for p in closed.players} == {
        ALICE: (120, 0),
        BOB: (-90, 0),
        CARLA: (-30, 0),
    }, "after closing, the same nets: the chips moved from the seats to the balances"


async def test_stored_hand_finds_the_channels_latest_table_and_hand(storage: Storage) -> None:
    assert await storage.stored_hand(CHANNEL) is None
    table = await storage.create_table(GUILD, CHANNEL, ALICE, "texas", OPTIONS, state_of({}))
    empty = await storage.stored_hand(CHANNEL)
    assert empty is not None and (empty.status, empty.number, empty.last_number) == ("missing", 0, 0)
    await storage.buy_in(table, ALICE, 300)
    await storage.buy_in(table, BOB, 300)
    first = await play(
        storage, table, {ALICE: 300, BOB: 300}, {ALICE: 310, BOB: 290}, [player(ALICE, 10), player(BOB, -10)]
    )
    await storage.begin_hand(table, {ALICE: 310, BOB: 290}, 0, state_of({}))
    latest_over = await storage.stored_hand(CHANNEL)
    assert latest_over is not None, "without a number: the latest hand that is over, not the running one"
    assert (latest_over.number, latest_over.status, latest_over.record) == (1, "finished", {"hand": first})
    second = await storage.stored_hand(CHANNEL, 2)
    assert second is not None and (second.status, second.record, second.last_number) == ("running", None, 2)
    await storage.recover()
    latest = await storage.stored_hand(CHANNEL)
    assert latest is not None and (latest.number, latest.status) == (2, "cancelled")
    missing = await storage.stored_hand(CHANNEL, 3)
    assert missing is not None and (missing.status, missing.number, missing.last_number) == ("missing", 3, 2)
    await storage.close_table(table, {ALICE: 310, BOB: 290})
    closed = await storage.stored_hand(CHANNEL, 1)
    assert closed is not None and closed.table_id == table and closed.status == "finished"
    # A new table in the channel: its hands, not the old one's.
    await storage.create_table(GUILD, CHANNEL, BOB, "texas", OPTIONS, state_of({}))
    fresh = await storage.stored_hand(CHANNEL, 1)
    assert fresh is not None and fresh.table_id != table and fresh.status == "missing"


async def test_a_computers_share_of_a_carried_pot_at_closing_counts_in_the_night(storage: Storage) -> None:
    """A void hand leaves 20 chips in the pot (a piatto di paròl); the table closes and each of the two
    players gets his stack plus half of it. The person's net is 0 in the night's summary; the
    computer's must be 0 too: his 10 chips went back to the house like the person's went to his
    balance, through his seat, where the summary reads a computer's flows."""
    table = await storage.create_table(
        GUILD, CHANNEL, ALICE, "italiana", {"variant": "italiana", "cip": 10}, state_of({})
    )
    await storage.buy_in(table, ALICE, 300)
    await storage.buy_in(table, COMPUTER, 300, level="facile")
    hand = await storage.begin_hand(
        table, {ALICE: 300, COMPUTER: 300}, 0, state_of({ALICE: 300, COMPUTER: 300})
    )
    await storage.finish_hand(
        table,
        hand,
        {ALICE: 290, COMPUTER: 290},
        20,
        state_of({ALICE: 290, COMPUTER: 290}, 20),
        {"hand": hand},
    )
    await storage.close_table(table, {ALICE: 300, COMPUTER: 300})
    assert await storage.check() == []

    night = await storage.table_summary(table)
    assert night is not None
    nets = {p.user_id: (p.bought_in, p.taken_out, p.at_table, p.net) for p in night.players}
    assert nets[ALICE] == (300, 300, 0, 0)
    assert nets[COMPUTER] == (300, 300, 0, 0), f"the computer got 300 back to the house: {nets[COMPUTER]}"
    assert sum(p.net for p in night.players) == 0, "every chip went back: the nets add up to zero"
