"""The canonical side-pot vectors A-D and the Italian vectors E-H (rules §5.3), played
through the public Table API with explicit decks, with exact final stacks.

Vectors A-D were checked on PokerKit 0.7.7 (NL hold'em, blinds 1/2, PokerKit
seat 0 = small blind). Here player ``i`` sits at seat ``i - 1`` and player 1 deals the first hand,
so the small blind is player 2, the big blind player 3 and so on: PokerKit seat ``k`` is the
``k``-th player from the dealer's left.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.events import ChipsPosted, Event, HandShown, PlayerLeft, PostKind, PotAwarded, PotCarried, Street
from engine.options import TableOptions
from engine.table import Table
from tests.engine.table_helpers import K, act, kinds, of_type, stacked

# A board that helps nobody in A-D: no straight, no flush, no pair with the hole cards used.
DRY_BOARD = "6c 2c 8d 9s 6d 4h 6h Td"  # burn, flop, burn, turn, burn, river


def seated(variant: str, stacks: list[int], **options: object) -> Table:
    table = Table(TableOptions(variant=variant, **options), rng=random.Random(1))  # type: ignore[arg-type]
    for player, stack in enumerate(stacks, start=1):
        table.sit(player, stack)
    return table


def pots_awarded(events: Sequence[Event]) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    return [(p.amount, p.winners, p.shares) for p in of_type(events, PotAwarded)]


# ------------------------------------------------------------------ A-D: texas no-limit, blinds 1/2


def test_vector_a_three_all_ins_build_a_side_pot_and_return_the_excess() -> None:
    # SB (player 2) 50 AA, BB (player 3) 100 KK, button (player 1) 200 QQ; all-in preflop.
    table = seated("texas", [200, 50, 100], cip=2, limite="nolimit")
    table.start_hand(deck=stacked(["As Ah", "Ks Kh", "Qs Qh"], DRY_BOARD))
    act(table, 1, K.RILANCIO, 198)
    act(table, 2, K.VEDO)
    events = act(table, 3, K.VEDO)
    assert pots_awarded(events) == [(150, (2,), (150,)), (100, (3,), (100,))]
    assert table.seats() == {1: 100, 2: 150, 3: 100}
    assert table.total_chips() == 350


def test_vector_b_dead_small_blind_and_odd_chip_to_the_first_left_of_the_button() -> None:
    table = seated("texas", [100, 100, 100], cip=2, limite="nolimit")
    table.start_hand(deck=stacked(["7c 2d", "8c 3d", "9c 4d"], "5h Ts Js Qs 5d Ks 5c As"))
    act(table, 1, K.VEDO)  # the button limps
    act(table, 2, K.PASSO)  # the small blind folds: 1 dead chip
    act(table, 3, K.PAROL)
    events = []
    for _ in range(3):  # flop, turn, river: the big blind speaks first
        act(table, 3, K.PAROL)
        events = act(table, 1, K.PAROL)
    assert pots_awarded(events) == [(5, (3, 1), (3, 2))]
    assert table.seats() == {1: 100, 2: 99, 3: 101}


def test_vector_c_tie_splits_the_main_pot_and_the_side_pot_goes_to_its_only_contender() -> None:
    # SB 50 AK, BB 100 QQ, button 100 AK: a king on the river, the two AK tie.
    table = seated("texas", [100, 50, 100], cip=2, limite="nolimit")
    table.start_hand(deck=stacked(["Ac Kd", "Qc Qd", "Ah Ks"], "5h 2c 3d 7h 5d 8s 5c Kc"))
    act(table, 1, K.RILANCIO, 98)
    act(table, 2, K.VEDO)
    events = act(table, 3, K.VEDO)
    assert pots_awarded(events) == [(150, (2, 1), (75, 75)), (100, (1,), (100,))]
    assert [(e.player, e.busted) for e in of_type(events, PlayerLeft)] == [(3, True)]
    assert table.seats() == {1: 175, 2: 75}  # player 3 lost everything and left the table
    assert table.total_chips() == 250


def test_vector_d_short_all_in_with_a_folded_big_blind_as_dead_money() -> None:
    # SB (player 2) 5 AA, BB (player 3) folds, UTG (player 4) KK raises to 10, button QQ calls.
    table = seated("texas", [100, 5, 100, 100], cip=2, limite="nolimit")
    table.start_hand(deck=stacked(["Ah Ad", "7c 2d", "Kh Kd", "Qh Qd"], DRY_BOARD))
    act(table, 4, K.RILANCIO, 8)
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)  # all-in for 5
    act(table, 3, K.PASSO)
    events = []
    for _ in range(3):
        act(table, 4, K.PAROL)
        events = act(table, 1, K.PAROL)
    assert pots_awarded(events) == [(17, (2,), (17,)), (10, (4,), (10,))]
    assert table.seats() == {1: 90, 2: 17, 3: 98, 4: 100}


# ------------------------------------------------------------------ E-H: italiana

# Three players: 28 cards (8 to A). Player 1 deals; the deal starts at player 2.
MINIMA = "As 8s 9s Ts Js"
MEDIA = "9d Td Jd Qd Kd"
MASSIMA = "Th Jh Qh Kh Ah"
JUNK = "8c 9h Jc Qc Kc"


def _decline_buio(table: Table) -> None:
    assert table.street is Street.BUIO
    act(table, 2, K.PASSO)


def test_vector_e_scala_reale_cycle_splits_three_ways_with_the_odd_chip_left_of_the_dealer() -> None:
    table = seated("italiana", [1000, 1000, 1000])
    table.start_hand(deck=stacked([MINIMA, MEDIA, MASSIMA]))
    _decline_buio(table)
    act(table, 2, K.APRO, 10)
    act(table, 3, K.VEDO)
    act(table, 1, K.VEDO)
    for player in (2, 3, 1):
        act(table, player, K.SERVITO)
    act(table, 2, K.PUNTO, 10)
    act(table, 3, K.VEDO)
    events = act(table, 1, K.VEDO)
    # 10 invito + 3 × 20 = 70: 24 / 23 / 23, the odd chip to player 2 (first left of the dealer).
    assert pots_awarded(events) == [(70, (2, 3, 1), (24, 23, 23))]
    assert table.seats() == {1: 993, 2: 1004, 3: 1003}


def test_vector_e_two_levels_the_minima_beats_the_massima_and_takes_all() -> None:
    table = seated("italiana", [1000, 1000, 1000])
    table.start_hand(deck=stacked([MASSIMA, MINIMA, JUNK]))
    _decline_buio(table)
    act(table, 2, K.APRO, 10)
    act(table, 3, K.VEDO)
    act(table, 1, K.PASSO)
    act(table, 2, K.SERVITO)
    act(table, 3, K.SERVITO)
    act(table, 2, K.PUNTO, 10)
    events = act(table, 3, K.VEDO)
    assert pots_awarded(events) == [(50, (3,), (50,))]
    assert table.seats() == {1: 990, 2: 980, 3: 1030}


def test_vector_f_equal_flushes_the_heart_flush_wins_everything() -> None:
    table = seated("italiana", [1000, 1000, 1000])
    table.start_hand(deck=stacked(["8s Ts Qs Ks As", "8h Th Qh Kh Ah", "9c 9d Jc Jd 8c"]))
    _decline_buio(table)
    act(table, 2, K.APRO, 10)
    act(table, 3, K.VEDO)
    act(table, 1, K.PASSO)
    act(table, 2, K.SERVITO)
    act(table, 3, K.SERVITO)
    act(table, 2, K.PUNTO, 10)
    events = act(table, 3, K.VEDO)
    assert pots_awarded(events) == [(50, (3,), (50,))]
    assert table.seats() == {1: 990, 2: 980, 3: 1030}


def test_vector_f_equal_pairs_the_better_suit_inside_the_pair_wins() -> None:
    table = seated("italiana", [1000, 1000, 1000])
    table.start_hand(deck=stacked(["Ad As Kc Qc 9c", "Ah Ac Ks Qs 9s", "8c 8d Jc Jd Th"]))
    _decline_buio(table)
    act(table, 2, K.APRO, 10)
    act(table, 3, K.VEDO)
    act(table, 1, K.PASSO)
    act(table, 2, K.SERVITO)
    act(table, 3, K.SERVITO)
    act(table, 2, K.PUNTO, 10)
    events = act(table, 3, K.VEDO)
    assert pots_awarded(events) == [(50, (3,), (50,))]  # A♥ in player 3's pair beats A♦
    assert table.seats() == {1: 990, 2: 980, 3: 1030}


def test_vector_g_all_parol_carries_the_pot_and_a_joiner_pays_the_difference() -> None:
    table = seated("italiana", [1000, 1000, 1000])
    table.start_hand(deck=stacked([JUNK, "9c 9d Td Tc 8d", "Qd Qs Kd Ks Ad"]))
    _decline_buio(table)
    act(table, 2, K.PASSO)  # passes the opening
    act(table, 3, K.PASSO)
    act(table, 1, K.APRO, 10)  # kings
    act(table, 2, K.PASSO)  # folds
    act(table, 3, K.VEDO)
    act(table, 3, K.SERVITO)
    act(table, 1, K.SERVITO)
    act(table, 1, K.PAROL)
    events = act(table, 3, K.PAROL)
    carried = of_type(events, PotCarried)
    assert [(c.carried, dict(c.debts)) for c in carried] == [(30, {2: 10})]
    assert not of_type(events, HandShown) and not of_type(events, PotAwarded)
    assert table.seats() == {1: 980, 2: 1000, 3: 990}
    assert table.total_chips() == 3000
    table.sit(4, 500)  # joins while the pot is carried: owes the whole 10
    assert {s.player: s.debt for s in table.public_view().seats} == {1: 0, 2: 10, 3: 0, 4: 10}

    # Hand 2: player 2 deals, four players (32 cards), no invito, level K, debts paid.
    events = table.start_hand(
        deck=stacked(["7c 8c 9d Jc Qc", "7d 8d 9c Jd Qd", "Kh Ks 7h 8h 9h", "Ts Td 7s As Qs"])
    )
    posted = sorted((p.player, p.kind, p.amount) for p in of_type(events, ChipsPosted))
    assert posted == [(2, PostKind.DEBITO, 10), (4, PostKind.DEBITO, 10)]
    assert table.public_view().opening_level == 13 and table.public_view().pot == 50
    act(table, 3, K.PASSO)
    act(table, 4, K.PASSO)
    act(table, 1, K.APRO, 10)  # a pair of kings opens at K
    act(table, 2, K.PASSO)
    act(table, 3, K.PASSO)
    events = act(table, 4, K.PASSO)
    assert pots_awarded(events) == [(50, (1,), (50,))]
    assert table.seats() == {1: 1030, 2: 990, 3: 990, 4: 490}
    assert table.total_chips() == 3500
    assert table.public_view().opening_level == 11


def test_vector_h_short_all_in_does_not_reopen_raising_to_who_already_acted() -> None:
    # invito_tutti: 30 in the pot. Player 3 has 25 chips: 15 after his ante.
    table = seated("italiana", [1000, 1000, 25], invito_tutti=True)
    table.start_hand(deck=stacked(["Jh Jd 8c 9c Qs", "Kh Kd Kc 8d 9h", "8h 9d Ts Qd Ac"]))
    _decline_buio(table)
    act(table, 2, K.APRO, 10)
    assert kinds(table) == {K.PASSO, K.VEDO, K.RILANCIO}
    act(table, 3, K.RILANCIO, 5)  # all-in: 5 over the call, less than the 10 of a full raise
    assert K.RILANCIO in kinds(table)  # player 1 has not acted yet: he may raise
    act(table, 1, K.VEDO)
    assert table.to_act == 2
    assert kinds(table) == {K.PASSO, K.VEDO}  # the opener already acted: no reopening
    act(table, 2, K.VEDO)
    for player in (2, 3, 1):
        act(table, player, K.SERVITO)
    act(table, 2, K.PUNTO, 10)  # player 3 is all-in: a side pot between 2 and 1
    events = act(table, 1, K.VEDO)
    # Main pot 30 antes + 3 × 15 = 75 to the kings; side pot 20: jacks beat ace high.
    assert pots_awarded(events) == [(75, (3,), (75,)), (20, (2,), (20,))]
    assert table.seats() == {1: 965, 2: 985, 3: 75}
    assert table.total_chips() == 2025
