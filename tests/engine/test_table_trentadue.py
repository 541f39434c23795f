"""32 Card Draw (rules §3): blinds, Over, limits, draw of up to 4, who speaks, showdown order.

Four players: player 1 deals, player 2 posts the small blind, player 3 the big blind, player 4
the Over when the option is on.
"""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.errors import EngineError
from engine.events import ChipsPosted, HandMucked, HandShown, PostKind, PotAwarded, Street
from engine.table import Table
from tests.engine.table_helpers import K, act, kinds, make_table, of_type, snapshot, stacked

HANDS = ["Th Ts 7c 8d 9s", "Jh Js 7d 8c Ac", "Qh 7h 8h 9c Kd", "Ad Kc Qc 8s 7s"]


def legal(table: Table) -> dict[K, tuple[int, int]]:
    return {la.kind: (la.min, la.max) for la in table.legal_actions()}


def test_32carte_blinds_are_half_cip_and_cip_left_of_the_dealer() -> None:
    table = make_table("32carte", cip=10)
    events = table.start_hand(deck=stacked(HANDS))
    posts = [(p.player, p.kind, p.amount) for p in of_type(events, ChipsPosted)]
    assert posts == [(2, PostKind.PICCOLO_BUIO, 5), (3, PostKind.GRANDE_BUIO, 10)]
    assert table.to_act == 4  # after the last blind
    assert table.street is Street.PRIMO_GIRO


def test_32carte_over_posts_twice_cip_with_more_than_three_players() -> None:
    table = make_table("32carte", cip=10, over=True)
    events = table.start_hand(deck=stacked(HANDS))
    posts = [(p.player, p.kind, p.amount) for p in of_type(events, ChipsPosted)]
    assert posts[-1] == (4, PostKind.OVER, 20)
    assert table.to_act == 1
    three = make_table("32carte", players=3, cip=10, over=True)
    events = three.start_hand()
    assert [p.kind for p in of_type(events, ChipsPosted)] == [PostKind.PICCOLO_BUIO, PostKind.GRANDE_BUIO]


def test_32carte_uses_32_cards_and_no_opening_requirement() -> None:
    table = make_table("32carte")
    table.start_hand(deck=stacked(HANDS))
    assert table.cards_of(2) == parse_cards(HANDS[0])
    act(table, 4, K.RILANCIO, 10)  # junk hand, no requirement
    assert table.public_view().current_bet == 20


def test_32carte_big_blind_may_check_his_option() -> None:
    table = make_table("32carte")
    table.start_hand(deck=stacked(HANDS))
    act(table, 4, K.VEDO)
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)
    assert table.to_act == 3
    assert kinds(table) == {K.PAROL, K.RILANCIO}
    act(table, 3, K.PAROL)
    assert table.street is Street.CAMBIO
    assert table.to_act == 2  # the draw starts left of the dealer


def test_32carte_nolimit_raise_goes_up_to_the_stack() -> None:
    table = make_table("32carte", stack=500)
    table.start_hand(deck=stacked(HANDS))
    assert legal(table)[K.RILANCIO] == (10, 490)


def test_32carte_potlimit_raise_is_call_plus_pot() -> None:
    table = make_table("32carte", limite="potlimit")
    table.start_hand(deck=stacked(HANDS))
    # Pot 15, call 10: at most 25 over the call.
    assert legal(table)[K.RILANCIO] == (10, 25)


def test_32carte_no_cap_on_raises() -> None:
    table = make_table("32carte", stack=100000)
    table.start_hand(deck=stacked(HANDS))
    for _ in range(3):
        for player in (4, 1, 2, 3):
            act(table, player, K.RILANCIO, 10)
    assert K.RILANCIO in kinds(table)


def test_32carte_draw_is_at_most_four_cards() -> None:
    table = make_table("32carte", max_cambio=5)  # the italiana option does not apply
    table.start_hand(deck=stacked(HANDS))
    for player in (4, 1, 2):
        act(table, player, K.VEDO)
    act(table, 3, K.PAROL)
    before = snapshot(table)
    with pytest.raises(EngineError, match="al massimo 4 carte"):
        act(table, 2, K.CAMBIO, cards=HANDS[0])
    assert snapshot(table) == before
    act(table, 2, K.CAMBIO, cards="Th Ts 7c 8d")


def _to_second_round(table: Table) -> None:
    table.start_hand(deck=stacked(HANDS))
    act(table, 4, K.VEDO)
    act(table, 1, K.VEDO)
    act(table, 2, K.PASSO)
    act(table, 3, K.PAROL)
    for player in (3, 4, 1):
        act(table, player, K.SERVITO)


def test_32carte_second_round_starts_with_first_still_in_after_the_last_blind() -> None:
    table = make_table("32carte")
    _to_second_round(table)
    assert table.street is Street.SECONDO_GIRO
    assert table.to_act == 4
    assert kinds(table) == {K.PAROL, K.PUNTO}


def test_32carte_showdown_when_everyone_checked_starts_left_of_dealer() -> None:
    table = make_table("32carte")
    _to_second_round(table)
    act(table, 4, K.PAROL)
    act(table, 1, K.PAROL)
    events = act(table, 3, K.PAROL)
    first = [e.player for e in events if isinstance(e, (HandShown, HandMucked))]
    assert first[0] == 3  # first still in left of the dealer (player 2 folded)
    # All checked in 32carte: no piatto di paròl, the pot is awarded.
    assert of_type(events, PotAwarded)


def test_32carte_showdown_last_aggressor_shows_first() -> None:
    table = make_table("32carte")
    _to_second_round(table)
    act(table, 4, K.PAROL)
    act(table, 1, K.PUNTO, 10)
    act(table, 3, K.VEDO)
    events = act(table, 4, K.VEDO)
    order = [e.player for e in events if isinstance(e, (HandShown, HandMucked))]
    assert order == [1, 3, 4]


def test_32carte_semi_off_splits_equal_ranks() -> None:
    hands = ["Ah Kh Qh Jh 9s", "Ad Kd Qd Jd 9c", "7c 8c 9h Ts Qs", "7s 8s 9d Tc Qc"]
    for semi, winners in [(True, (2,)), (False, (2, 3))]:  # A♥ beats A♦ with suits
        table = make_table("32carte", players=4, semi=semi)
        table.start_hand(deck=stacked(hands))
        act(table, 4, K.PASSO)
        act(table, 1, K.PASSO)
        act(table, 2, K.VEDO)
        act(table, 3, K.PAROL)
        act(table, 2, K.SERVITO)
        act(table, 3, K.SERVITO)
        act(table, 2, K.PAROL)
        events = act(table, 3, K.PAROL)
        assert of_type(events, PotAwarded)[0].winners == winners
        assert table.total_chips() == 4000


def test_32carte_heads_up_small_blind_is_left_of_the_dealer() -> None:
    table = make_table("32carte", players=2)
    events = table.start_hand()
    posts = [(p.player, p.kind) for p in of_type(events, ChipsPosted)]
    assert posts == [(2, PostKind.PICCOLO_BUIO), (1, PostKind.GRANDE_BUIO)]
    assert table.to_act == 2


def test_32carte_semi_option_is_refused_elsewhere() -> None:
    with pytest.raises(EngineError, match="semi"):
        make_table("italiana", semi=False)
