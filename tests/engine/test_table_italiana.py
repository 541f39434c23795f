"""Poker tradizionale (rules §2), rule by rule, with stacked decks.

Four players unless said otherwise: player 1 deals the first hand, so the deal, the buio question
and the opening go 2, 3, 4, 1. With four players the deck has 32 cards (7 to A).
"""

from __future__ import annotations

import json

import pytest

from engine.cards import parse_cards
from engine.errors import EngineError
from engine.events import (
    BetReturned,
    CardBurnt,
    CardsDealt,
    CardsDrawn,
    ChipsPosted,
    DiscardsReshuffled,
    HandMucked,
    HandShown,
    HandSkipped,
    HandStarted,
    HandVoid,
    OpeningShown,
    PostKind,
    PotAwarded,
    PotCarried,
    Street,
)
from engine.table import Table
from tests.engine.table_helpers import K, act, kinds, make_table, of_type, snapshot, stacked

# Four hands in deal order (players 2, 3, 4, 1) and nothing special in them.
P2_TENS = "Th Ts 7c 8d 9s"
P3_JACKS = "Jh Js 7d 8c Ac"
P4_JUNK = "Qh 7h 8h 9c Kd"
P1_JUNK = "Ad Kc Qc 8s 7s"
PLAIN = [P2_TENS, P3_JACKS, P4_JUNK, P1_JUNK]


def decline_buio(table: Table) -> None:
    assert table.street is Street.BUIO
    act(table, table.to_act or 0, K.PASSO)


def opened_by_3(table: Table, amount: int = 10) -> None:
    """Hand dealt from PLAIN; player 3 opens after player 2 passes."""
    decline_buio(table)
    act(table, 2, K.PASSO)
    act(table, 3, K.APRO, amount)


def test_dealer_posts_the_invito() -> None:
    table = make_table(invito=15)
    events = table.start_hand(deck=stacked(PLAIN))
    posts = of_type(events, ChipsPosted)
    assert [(p.player, p.kind, p.amount) for p in posts] == [(1, PostKind.INVITO, 15)]
    assert table.public_view().pot == 15


def test_invito_tutti_makes_every_player_ante() -> None:
    table = make_table(invito=5, invito_tutti=True)
    events = table.start_hand(deck=stacked(PLAIN))
    assert sorted(p.player for p in of_type(events, ChipsPosted)) == [1, 2, 3, 4]
    assert table.public_view().pot == 20


def test_deck_size_follows_the_eleven_minus_players_formula() -> None:
    for players, size in [(2, 24), (3, 28), (4, 32), (5, 36), (6, 40)]:
        table = make_table(players=players)
        started = of_type(table.start_hand(), HandStarted)[0]
        assert started.deck_size == size


def test_mazzo_americano_plays_52_cards() -> None:
    table = make_table(mazzo="americano")
    started = of_type(table.start_hand(), HandStarted)[0]
    assert started.deck_size == 52


def test_deal_is_private_five_cards_each() -> None:
    table = make_table()
    events = table.start_hand(deck=stacked(PLAIN))
    assert not of_type(events, CardsDealt)  # the buio question comes before the deal
    events += act(table, 2, K.PASSO)
    dealt = of_type(events, CardsDealt)
    assert [(e.player, e.private_to) for e in dealt] == [(2, 2), (3, 3), (4, 4), (1, 1)]
    assert table.cards_of(3) == parse_cards(P3_JACKS)


def test_opening_requires_pair_of_current_level() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    decline_buio(table)
    before = snapshot(table)
    with pytest.raises(EngineError, match="Non puoi aprire: serve almeno una coppia di jack"):
        act(table, 2, K.APRO, 10)
    assert snapshot(table) == before
    act(table, 2, K.PASSO)
    act(table, 3, K.APRO, 10)
    assert table.street is Street.PRIMO_GIRO


def test_opening_with_a_better_hand_than_the_level() -> None:
    table = make_table()
    table.start_hand(deck=stacked(["9h 9d Tc Td Ks", P3_JACKS, P4_JUNK, P1_JUNK]))
    decline_buio(table)
    act(table, 2, K.APRO, 10)  # doppia coppia of low cards opens
    assert table.street is Street.PRIMO_GIRO


def test_opening_with_bilateral_four_card_straight_flush() -> None:
    table = make_table()
    table.start_hand(deck=stacked(["7h 8h 9h Th Ks", P3_JACKS, "Qs Qd 9c Kd Kh", P1_JUNK]))
    decline_buio(table)
    act(table, 2, K.APRO, 10)  # 7-8-9-10: the ace below or the jack above completes it
    assert table.street is Street.PRIMO_GIRO


@pytest.mark.parametrize("hand", ["Ah 7h 8h 9h Kc", "Jc Qc Kc Ac 8s"])
def test_one_sided_four_card_straight_flush_does_not_open(hand: str) -> None:
    table = make_table()
    table.start_hand(deck=stacked([hand, "Jh Js 7d 8c Ad", "Qh Qd Kd 9c Ks", "Th Ts 7c 8d 9s"]))
    decline_buio(table)
    with pytest.raises(EngineError, match="scala reale bilaterale"):
        act(table, 2, K.APRO, 10)


def test_passing_the_opening_does_not_fold() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    opened_by_3(table)
    act(table, 4, K.PASSO)  # folds: a bet faces him
    act(table, 1, K.VEDO)
    assert table.to_act == 2  # passed the opening, still holds cards
    assert kinds(table) == {K.PASSO, K.VEDO, K.RILANCIO}
    act(table, 2, K.VEDO)
    assert table.street is Street.CAMBIO


def test_opening_bet_is_between_one_cip_and_the_pot() -> None:
    table = make_table(cip=10, invito=40)
    table.start_hand(deck=stacked(PLAIN))
    decline_buio(table)
    act(table, 2, K.PASSO)
    legal = {la.kind: la for la in table.legal_actions()}
    assert (legal[K.APRO].min, legal[K.APRO].max) == (10, 40)
    before = snapshot(table)
    with pytest.raises(EngineError, match="al massimo puoi mettere 40 fiche"):
        act(table, 3, K.APRO, 41)
    with pytest.raises(EngineError, match="la puntata minima è di 10 fiche"):
        act(table, 3, K.APRO, 9)
    assert snapshot(table) == before


def test_raise_is_pot_limit_over_the_call() -> None:
    table = make_table(cip=10, invito=40)
    table.start_hand(deck=stacked(PLAIN))
    opened_by_3(table, 40)  # pot 80
    legal = {la.kind: la for la in table.legal_actions()}
    # Call 40, then the pot after the call is 120: at most 120 over the call.
    assert (legal[K.RILANCIO].min, legal[K.RILANCIO].max) == (40, 120)
    events = act(table, 4, K.RILANCIO, 120)
    assert table.public_view().pot == 80 + 160
    assert table.public_view().current_bet == 160
    assert events


def test_nobody_opens_voids_the_hand_and_carries_the_pot() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    decline_buio(table)
    events = []
    for player in (2, 3, 4, 1):
        events += act(table, player, K.PASSO)
    void = of_type(events, HandVoid)
    assert void and void[0].carried == 10 and void[0].next_level == 12
    assert not table.hand_running
    assert table.public_view().carried == 10
    assert table.total_chips() == 4000


def _void_hand(table: Table) -> None:
    table.start_hand()
    if table.street is Street.BUIO:
        decline_buio(table)
    while table.hand_running:
        act(table, table.to_act or 0, K.PASSO)


def test_opening_level_rises_j_q_k_and_resets() -> None:
    table = make_table()
    levels = []
    for _ in range(3):
        levels.append(table.public_view().opening_level)
        _void_hand(table)
    levels.append(table.public_view().opening_level)
    assert levels == [11, 12, 13, 13]
    assert table.public_view().carried == 30  # three dealers posted an invito
    # Fourth hand, dealer player 4: order 1, 2, 3, 4. A pair of queens no longer opens.
    table.start_hand(deck=stacked(["Qh Qs 7c 8d 9s", "Kh Ks 7d 8c Ac", "Jd 7h 8h 9c Kd", "Ad Kc Qc 8s 7s"]))
    assert table.street is Street.APERTURA  # no buio above J
    with pytest.raises(EngineError, match="coppia di re"):
        act(table, 1, K.APRO, 10)
    act(table, 1, K.PASSO)
    act(table, 2, K.APRO, 10)
    for player in (3, 4, 1):
        act(table, player, K.PASSO)
    assert not table.hand_running
    assert table.public_view().opening_level == 11
    assert table.public_view().carried == 0
    # Player 2 dealt hand 2 (one invito of his in the pot) and wins the 40 of four invitos.
    assert table.seats()[2] == 1000 - 10 + 40
    assert table.total_chips() == 4000


def test_dealer_button_moves_after_void_hands_too() -> None:
    table = make_table()
    dealers = []
    for _ in range(5):
        _void_hand(table)
        dealers.append(table.public_view().dealer)
    assert dealers == [1, 2, 3, 4, 1]


def test_single_player_left_wins_without_showing() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    opened_by_3(table, 10)
    events = []
    for player in (4, 1, 2):
        events += act(table, player, K.PASSO)
    award = of_type(events, PotAwarded)
    assert [(a.winners, a.amount, a.shown) for a in award] == [((3,), 10, False)]
    assert not of_type(events, HandShown)
    assert table.seats()[3] == 1010
    assert of_type(events, OpeningShown)[0].cards == parse_cards("Jh Js")


def test_buio_requires_three_players() -> None:
    table = make_table(players=2)
    table.start_hand()
    assert table.street is Street.APERTURA
    table3 = make_table(players=3)
    table3.start_hand()
    assert table3.street is Street.BUIO
    assert table3.to_act == 2


def test_buio_costs_twice_the_pot_before_the_deal() -> None:
    table = make_table(invito=10)
    table.start_hand(deck=stacked(PLAIN))
    legal = {la.kind: la for la in table.legal_actions()}
    assert legal[K.BUIO].min == legal[K.BUIO].max == 20
    assert table.cards_of(2) == ()  # not dealt yet
    act(table, 2, K.BUIO)
    assert table.seats()[2] == 980


def test_buio_multiplo_option_changes_the_price() -> None:
    table = make_table(invito=10, buio_multiplo=3)
    table.start_hand(deck=stacked(PLAIN))
    assert {la.kind: la.min for la in table.legal_actions()}[K.BUIO] == 30


def test_controbuio_requires_four_players() -> None:
    table = make_table(players=3)
    table.start_hand()
    act(table, 2, K.BUIO)
    assert table.street is Street.PRIMO_GIRO  # dealt: no controbuio with three
    table4 = make_table(players=4)
    table4.start_hand(deck=stacked(PLAIN))
    act(table4, 2, K.BUIO)
    assert table4.to_act == 3
    assert {la.kind: la.min for la in table4.legal_actions()}[K.CONTROBUIO] == 40


def test_after_buio_others_may_only_call_or_fold() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    act(table, 2, K.BUIO)
    act(table, 3, K.PASSO)  # declines the controbuio: the deal follows
    assert table.street is Street.PRIMO_GIRO
    assert table.to_act == 3
    assert kinds(table) == {K.PASSO, K.VEDO}
    before = snapshot(table)
    with pytest.raises(EngineError, match="Adesso non puoi dire «rilancio»"):
        act(table, 3, K.RILANCIO, 20)
    assert snapshot(table) == before


def test_buio_wins_when_nobody_calls() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    act(table, 2, K.BUIO)
    act(table, 3, K.PASSO)
    events = []
    for player in (3, 4, 1):
        events += act(table, player, K.PASSO)
    # His uncalled buio comes back; the invito is his win.
    assert [(r.player, r.amount) for r in of_type(events, BetReturned)] == [(2, 20)]
    assert [(a.winners, a.amount) for a in of_type(events, PotAwarded)] == [((2,), 10)]
    assert not of_type(events, OpeningShown)
    assert table.seats()[2] == 1010


def test_buio_opener_may_raise_after_a_call_then_betting_is_open() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    act(table, 2, K.BUIO)
    act(table, 3, K.PASSO)
    act(table, 3, K.VEDO)
    act(table, 4, K.PASSO)
    act(table, 1, K.VEDO)
    assert table.to_act == 2
    assert kinds(table) == {K.PAROL, K.RILANCIO}
    act(table, 2, K.RILANCIO, 20)
    assert table.to_act == 3
    assert K.RILANCIO in kinds(table)  # after a raise, as usual


def test_buiante_matching_controbuio_keeps_right_to_raise() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    act(table, 2, K.BUIO)  # 20
    act(table, 3, K.CONTROBUIO)  # 40
    assert table.to_act == 2 and kinds(table) == {K.VEDO, K.PASSO}
    act(table, 2, K.VEDO)  # pays 20 more
    assert table.street is Street.PRIMO_GIRO
    assert table.to_act == 4  # left of the last blind opener
    act(table, 4, K.VEDO)
    act(table, 1, K.PASSO)
    assert table.to_act == 2
    assert kinds(table) == {K.PAROL, K.RILANCIO}


def test_buiante_who_does_not_match_may_only_call_or_fold() -> None:
    table = make_table(players=5)
    table.start_hand()
    act(table, 2, K.BUIO)
    act(table, 3, K.CONTROBUIO)
    act(table, 2, K.PASSO)  # declines to match: the phase ends, cards are dealt
    assert table.street is Street.PRIMO_GIRO
    for player in (4, 5, 1):
        act(table, player, K.VEDO)
    assert table.to_act == 2
    assert kinds(table) == {K.PASSO, K.VEDO}


def test_contro_controbuio_is_off_by_default_and_needs_five_players() -> None:
    table = make_table(players=5)
    table.start_hand()
    act(table, 2, K.BUIO)
    act(table, 3, K.CONTROBUIO)
    act(table, 2, K.VEDO)
    assert table.street is Street.PRIMO_GIRO
    four = make_table(players=4, controcontrobuio=True)
    four.start_hand(deck=stacked(PLAIN))
    act(four, 2, K.BUIO)
    act(four, 3, K.CONTROBUIO)
    act(four, 2, K.VEDO)
    assert four.street is Street.PRIMO_GIRO
    five = make_table(players=5, controcontrobuio=True)
    five.start_hand()
    act(five, 2, K.BUIO)  # 20
    act(five, 3, K.CONTROBUIO)  # 40
    act(five, 2, K.VEDO)
    assert five.to_act == 4
    assert {la.kind: la.min for la in five.legal_actions()}[K.CONTROBUIO] == 80
    act(five, 4, K.CONTROBUIO)
    assert five.to_act == 3  # the controbuiante may match first
    act(five, 3, K.VEDO)
    assert five.to_act == 2  # then the buiante, since the controbuiante matched
    act(five, 2, K.VEDO)
    assert five.street is Street.PRIMO_GIRO
    assert five.to_act == 5
    assert five.public_view().pot == 10 + 80 * 3


def test_blind_opener_speaks_last_in_second_round() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    act(table, 2, K.BUIO)
    act(table, 3, K.PASSO)
    act(table, 3, K.VEDO)
    act(table, 4, K.VEDO)
    act(table, 1, K.VEDO)
    act(table, 2, K.PAROL)
    for player in (2, 3, 4, 1):
        act(table, player, K.SERVITO)
    assert table.street is Street.SECONDO_GIRO
    assert table.to_act == 3


def test_no_buio_when_level_is_above_j() -> None:
    table = make_table()
    _void_hand(table)
    table.start_hand()
    assert table.street is Street.APERTURA


def test_second_round_opened_by_the_opener_or_the_next_still_in() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    opened_by_3(table)
    act(table, 4, K.VEDO)
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)
    for player in (2, 3, 4, 1):
        act(table, player, K.SERVITO)
    assert table.to_act == 3
    assert kinds(table) == {K.PAROL, K.PUNTO}
    # The opener folded: the first player still in after him speaks.
    other = make_table()
    other.start_hand(deck=stacked(PLAIN))
    opened_by_3(other)
    act(other, 4, K.RILANCIO, 10)
    act(other, 1, K.VEDO)
    act(other, 2, K.VEDO)
    act(other, 3, K.PASSO)
    for player in (2, 4, 1):
        act(other, player, K.SERVITO)
    assert other.to_act == 4


def _to_second_round(table: Table) -> None:
    table.start_hand(deck=stacked(PLAIN))
    opened_by_3(table, 10)
    act(table, 4, K.PASSO)
    act(table, 1, K.PASSO)
    act(table, 2, K.VEDO)
    act(table, 2, K.SERVITO)
    act(table, 3, K.SERVITO)


def test_all_parol_carries_pot_with_debts() -> None:
    table = make_table()
    _to_second_round(table)
    act(table, 3, K.PAROL)
    events = act(table, 2, K.PAROL)
    carried = of_type(events, PotCarried)
    assert carried and carried[0].carried == 30
    assert dict(carried[0].debts) == {4: 10, 1: 10}
    assert not of_type(events, HandShown) and not of_type(events, PotAwarded)
    assert of_type(events, OpeningShown)  # the hand had an opening
    view = table.public_view()
    assert view.opening_level == 13 and view.carried == 30
    assert {s.player: s.debt for s in view.seats} == {1: 10, 2: 0, 3: 0, 4: 10}
    # Next hand: no invito, no buio, debts paid automatically.
    events = table.start_hand()
    posts = [(p.player, p.kind, p.amount) for p in of_type(events, ChipsPosted)]
    assert sorted(posts) == [(1, PostKind.DEBITO, 10), (4, PostKind.DEBITO, 10)]
    assert table.street is Street.APERTURA
    assert table.public_view().pot == 50
    assert table.total_chips() == 4000


def test_player_who_cannot_pay_parol_debt_sits_the_hand_out() -> None:
    table = make_table()
    _to_second_round(table)
    table.sit(5, 5)  # waits for the next hand, then owes the whole paròl level (10) with 5 chips
    act(table, 3, K.PAROL)
    act(table, 2, K.PAROL)
    events = table.start_hand()
    assert [(s.player, s.debt) for s in of_type(events, HandSkipped)] == [(5, 10)]
    assert 5 not in of_type(events, HandStarted)[0].players


def test_player_joining_during_parol_owes_the_full_amount() -> None:
    table = make_table()
    _to_second_round(table)
    act(table, 3, K.PAROL)
    act(table, 2, K.PAROL)
    table.sit(9, 500)
    assert {s.player: s.debt for s in table.public_view().seats}[9] == 10


def test_all_parol_with_an_all_in_player_goes_to_showdown() -> None:
    table = make_table(stack=1000)
    table.leave(4)
    table.sit(4, 10)  # the same seat again, with 10 chips
    table.start_hand(deck=stacked(PLAIN))
    opened_by_3(table, 10)
    act(table, 4, K.VEDO)  # all-in
    act(table, 1, K.VEDO)
    act(table, 2, K.PASSO)
    for player in (3, 4, 1):
        act(table, player, K.SERVITO)
    act(table, 3, K.PAROL)
    events = act(table, 1, K.PAROL)
    assert of_type(events, HandShown) and not of_type(events, PotCarried)
    assert of_type(events, PotAwarded)
    assert table.public_view().opening_level == 11


def test_draw_is_public_count_private_cards() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN, "Kh Ks 9h 9d"))
    opened_by_3(table)
    act(table, 4, K.PASSO)
    act(table, 1, K.PASSO)
    act(table, 2, K.VEDO)
    act(table, 2, K.CAMBIO, cards="7c 8d")
    events = act(table, 3, K.CAMBIO, cards="7d 8c")
    drawn = of_type(events, CardsDrawn)
    assert [(d.player, d.private_to, d.received) for d in drawn] == [
        (2, 2, parse_cards("Kh Ks")),
        (3, 3, parse_cards("9h 9d")),
    ]
    assert {s.player: s.cards_drawn for s in table.public_view().seats if s.in_hand} == {2: 2, 3: 2}
    assert sorted(table.cards_of(2)) == sorted(parse_cards("Th Ts 9s Kh Ks"))


def test_draw_refuses_cards_not_in_hand_and_too_many() -> None:
    table = make_table(max_cambio=4)
    table.start_hand(deck=stacked(PLAIN))
    opened_by_3(table)
    act(table, 4, K.PASSO)
    act(table, 1, K.PASSO)
    act(table, 2, K.VEDO)
    before = snapshot(table)
    with pytest.raises(EngineError, match="Non hai il A♥ in mano"):
        act(table, 2, K.CAMBIO, cards="Ah")
    with pytest.raises(EngineError, match="al massimo 4 carte"):
        act(table, 2, K.CAMBIO, cards="Th Ts 7c 8d 9s")
    with pytest.raises(EngineError, match="Indica le carte"):
        act(table, 2, K.CAMBIO)
    assert snapshot(table) == before


def test_max_cambio_five_allows_five_cards() -> None:
    table = make_table(max_cambio=5)
    table.start_hand(deck=stacked(PLAIN))
    opened_by_3(table)
    act(table, 4, K.PASSO)
    act(table, 1, K.PASSO)
    act(table, 2, K.VEDO)
    act(table, 2, K.CAMBIO, cards="Th Ts 7c 8d 9s")
    assert len(table.cards_of(2)) == 5


STOCK = "Kh Ks Qs Qd Tc Td 9h 9d Jc Jd As Ah"  # the 12 cards PLAIN leaves


def _draw_setup(rest: str, max_cambio: int = 4) -> Table:
    table = make_table(max_cambio=max_cambio)
    table.start_hand(deck=stacked(PLAIN, rest))
    opened_by_3(table)
    for player in (4, 1, 2):
        act(table, player, K.VEDO)
    return table


def test_draw_deals_at_most_three_each_then_the_rest() -> None:
    # Stock: 12 cards. Player 2 asks 4, player 3 asks 2, 4 and 1 stand pat.
    table = _draw_setup(STOCK)
    act(table, 2, K.CAMBIO, cards="7c 8d 9s Th")
    events = act(table, 3, K.CAMBIO, cards="7d 8c")
    events += act(table, 4, K.SERVITO)
    events += act(table, 1, K.SERVITO)
    drawn = {d.player: d.received for d in of_type(events, CardsDrawn)}
    assert drawn[2] == parse_cards("Kh Ks Qs Td")  # three, then his fourth after player 3
    assert drawn[3] == parse_cards("Qd Tc")
    assert not of_type(events, CardBurnt)


def test_draw_burns_when_only_last_player_draws_more_than_3() -> None:
    table = _draw_setup(STOCK)
    act(table, 2, K.SERVITO)
    act(table, 3, K.CAMBIO, cards="7d")
    act(table, 4, K.SERVITO)
    events = act(table, 1, K.CAMBIO, cards="Ad Kc Qc 8s")
    assert len(of_type(events, CardBurnt)) == 1
    drawn = {d.player: d.received for d in of_type(events, CardsDrawn)}
    assert drawn[3] == parse_cards("Kh")
    assert drawn[1] == parse_cards("Ks Qs Qd Td")  # Tc burnt before his fourth card


def test_draw_does_not_burn_when_another_player_also_draws_more_than_3() -> None:
    table = _draw_setup(STOCK)
    act(table, 2, K.CAMBIO, cards="7c 8d 9s Th")
    act(table, 3, K.SERVITO)
    act(table, 4, K.SERVITO)
    events = act(table, 1, K.CAMBIO, cards="Ad Kc Qc 8s")
    assert not of_type(events, CardBurnt)
    drawn = {d.player: d.received for d in of_type(events, CardsDrawn)}
    assert drawn[2] == parse_cards("Kh Ks Qs 9h")
    assert drawn[1] == parse_cards("Qd Tc Td 9d")


def test_draw_reshuffles_only_discards_of_players_who_already_drew() -> None:
    # 12 cards of stock: 3 + 3 + 3 to players 2, 3, 4, then 3 to player 1 empty it; his fourth
    # card (after the burn) comes from the discards of 2, 3 and 4 only.
    table = _draw_setup(STOCK)
    act(table, 2, K.CAMBIO, cards="7c 8d 9s")
    act(table, 3, K.CAMBIO, cards="7d 8c Ac")
    act(table, 4, K.CAMBIO, cards="7h 8h 9c")
    events = act(table, 1, K.CAMBIO, cards="Ad Kc Qc 8s")
    reshuffle = of_type(events, DiscardsReshuffled)
    assert [r.count for r in reshuffle] == [9]
    assert len(of_type(events, CardBurnt)) == 1
    fourth = {d.player: d.received for d in of_type(events, CardsDrawn)}[1][3]
    assert fourth in parse_cards("7c 8d 9s 7d 8c Ac 7h 8h 9c")
    hands = [set(table.cards_of(p)) for p in (1, 2, 3, 4)]
    assert sum(len(h) for h in hands) == 20 and len(set().union(*hands)) == 20


def test_showdown_last_bettor_shows_first_and_losers_muck() -> None:
    table = make_table()
    hands = ["Th Ts 7c 8d 9s", "Jh Js 7d 8c Ac", "Qh Qs Kh 9c Kd", "Ad Kc Qc 8s 7s"]
    table.start_hand(deck=stacked(hands))
    opened_by_3(table)
    act(table, 4, K.VEDO)
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)
    for player in (2, 3, 4, 1):
        act(table, player, K.SERVITO)
    act(table, 3, K.PAROL)
    act(table, 4, K.PUNTO, 10)  # player 4 bets last
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)
    events = act(table, 3, K.VEDO)
    shown = [e.player for e in of_type(events, HandShown)]
    mucked = [e.player for e in of_type(events, HandMucked)]
    assert shown == [4]  # doppia coppia: nobody after him beats it
    assert mucked == [1, 2, 3]
    assert of_type(events, PotAwarded)[0].winners == (4,)
    assert of_type(events, OpeningShown)[0].player == 3


def test_straight_flush_three_way_split() -> None:
    # Minima A-7-8-9-10 (hearts), media 8-9-10-J-Q (diamonds), massima 10-J-Q-K-A (clubs).
    hands = ["Ah 7h 8h 9h Th", "8d 9d Td Jd Qd", "Tc Jc Qc Kc Ac", "7s 8s 9s Js Ks"]
    table = make_table(invito=11)
    table.start_hand(deck=stacked(hands))
    decline_buio(table)
    act(table, 2, K.APRO, 10)
    act(table, 3, K.VEDO)
    act(table, 4, K.VEDO)
    act(table, 1, K.PASSO)
    for player in (2, 3, 4):
        act(table, player, K.SERVITO)
    act(table, 2, K.PUNTO, 10)
    act(table, 3, K.VEDO)
    events = act(table, 4, K.VEDO)
    award = of_type(events, PotAwarded)
    assert len(award) == 1
    assert award[0].amount == 71
    assert award[0].winners == (2, 3, 4)
    assert award[0].shares == (24, 24, 23)  # odd chips clockwise from the dealer's left
    assert table.total_chips() == 4000


def test_parol_debt_paid_in_a_void_hand_is_not_owed_again() -> None:
    table = make_table()
    _to_second_round(table)
    act(table, 3, K.PAROL)
    act(table, 2, K.PAROL)
    table.start_hand()  # players 1 and 4 pay their 10; level K, nobody opens
    while table.hand_running:
        act(table, table.to_act or 0, K.PASSO)
    assert {s.player: s.debt for s in table.public_view().seats} == {1: 0, 2: 0, 3: 0, 4: 0}
    events = table.start_hand()
    assert not [p for p in of_type(events, ChipsPosted) if p.kind is PostKind.DEBITO]
    # After a void hand the dealer antes again.
    assert [p.kind for p in of_type(events, ChipsPosted)] == [PostKind.INVITO]
    assert table.total_chips() == 4000


def test_carried_parol_pot_and_debts_survive_serialisation() -> None:
    table = make_table()
    _to_second_round(table)
    act(table, 3, K.PAROL)
    act(table, 2, K.PAROL)
    data = json.loads(json.dumps(table.to_dict()))
    restored = Table.from_dict(data)
    assert restored.public_view() == table.public_view()
    events = restored.start_hand()
    assert sorted((p.player, p.amount) for p in of_type(events, ChipsPosted)) == [(1, 10), (4, 10)]
    assert restored.street is Street.APERTURA


def test_mazzo_32_seats_at_most_six_players() -> None:
    table = make_table(players=6, mazzo="32")
    with pytest.raises(EngineError, match="pieno"):
        table.sit(7, 100)
    started = of_type(table.start_hand(), HandStarted)[0]
    assert started.deck_size == 32
