"""Texas Hold'em (rules §4) and the money rules (rules §5) on it.

Player 1 deals the first hand; with three or more players 2 posts the small blind and 3 the big.
"""

from __future__ import annotations

import random

import pytest

from engine.cards import parse_cards
from engine.errors import EngineError
from engine.events import (
    BetReturned,
    CardsDealt,
    ChipsPosted,
    HandShown,
    PlayerLeft,
    PostKind,
    PotAwarded,
    Street,
    StreetStarted,
)
from engine.options import TableOptions
from engine.table import Table
from tests.engine.table_helpers import K, act, kinds, make_table, of_type, snapshot, stacked


def legal(table: Table) -> dict[K, tuple[int, int]]:
    return {la.kind: (la.min, la.max) for la in table.legal_actions()}


def custom_table(stacks: list[int], limite: str = "nolimit", cip: int = 10) -> Table:
    table = Table(TableOptions(variant="texas", limite=limite, cip=cip), rng=random.Random(3))  # type: ignore[arg-type]
    for player, stack in enumerate(stacks, start=1):
        table.sit(player, stack)
    return table


def test_texas_blinds_and_first_to_act_left_of_the_big_blind() -> None:
    table = make_table("texas", players=6, cip=10)
    events = table.start_hand()
    posts = [(p.player, p.kind, p.amount) for p in of_type(events, ChipsPosted)]
    assert posts == [(2, PostKind.PICCOLO_BUIO, 5), (3, PostKind.GRANDE_BUIO, 10)]
    assert table.to_act == 4
    dealt = of_type(events, CardsDealt)
    assert all(len(d.cards) == 2 and d.private_to == d.player for d in dealt)


def test_texas_heads_up_button_posts_small_blind() -> None:
    table = make_table("texas", players=2, cip=10)
    events = table.start_hand(deck=stacked(["2c 3d", "Ah Kh"], "4s 9s 9d Tc 5h 6h 7h 8h"))
    posts = [(p.player, p.kind) for p in of_type(events, ChipsPosted)]
    assert posts == [(1, PostKind.PICCOLO_BUIO), (2, PostKind.GRANDE_BUIO)]
    assert table.public_view().dealer == 1
    assert table.to_act == 1  # the button acts first before the flop
    act(table, 1, K.VEDO)
    act(table, 2, K.PAROL)
    assert table.street is Street.FLOP
    assert table.to_act == 2  # and last after it


def test_texas_burns_before_flop_turn_and_river() -> None:
    table = make_table("texas", players=3)
    deck = stacked(["Ah Kh", "2c 3d", "7s 8s"], "2h Qs Qd 4c 3h 5d 4h 9c")
    events = table.start_hand(deck=deck)
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)
    events += act(table, 3, K.PAROL)
    for _ in range(3):
        for player in (2, 3, 1):
            events += act(table, player, K.PAROL)
    streets = [(e.street, e.board) for e in of_type(events, StreetStarted) if e.board]
    assert streets == [
        (Street.FLOP, parse_cards("Qs Qd 4c")),
        (Street.TURN, parse_cards("5d")),
        (Street.RIVER, parse_cards("9c")),
    ]


def test_texas_postflop_action_starts_left_of_the_button() -> None:
    table = make_table("texas", players=4)
    table.start_hand()
    for player in (4, 1, 2):
        act(table, player, K.VEDO)
    act(table, 3, K.PAROL)
    assert table.street is Street.FLOP
    assert table.to_act == 2


def test_texas_fixed_limit_bet_and_three_raises_then_big_bet_on_turn() -> None:
    table = make_table("texas", players=3, limite="fisso", cip=10, stack=10000)
    table.start_hand()
    assert legal(table)[K.RILANCIO] == (10, 10)
    act(table, 1, K.RILANCIO, 10)  # 20
    act(table, 2, K.RILANCIO, 10)  # 30
    act(table, 3, K.RILANCIO, 10)  # 40: the big blind and three raises
    assert kinds(table) == {K.PASSO, K.VEDO}
    before = snapshot(table)
    with pytest.raises(EngineError, match="non puoi dire «rilancio»"):
        act(table, 1, K.RILANCIO, 10)
    assert snapshot(table) == before
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)
    assert table.street is Street.FLOP
    assert legal(table)[K.PUNTO] == (10, 10)
    for player in (2, 3, 1):
        act(table, player, K.PAROL)
    assert table.street is Street.TURN
    assert legal(table)[K.PUNTO] == (20, 20)
    with pytest.raises(EngineError, match="A limite fisso l'importo è 20 fiche"):
        act(table, 2, K.PUNTO, 40)


def test_texas_potlimit_bet_is_at_most_the_pot() -> None:
    table = make_table("texas", players=3, limite="potlimit", cip=10)
    table.start_hand()
    # Call 10, pot after the call 25: at most 25 over the call.
    assert legal(table)[K.RILANCIO] == (10, 25)


def test_named_amounts_cip_piatto_tutto_for_a_pot_limit_raise() -> None:
    table = make_table("texas", players=3, limite="potlimit", cip=10)
    table.start_hand()
    # Player 1 faces the big blind (10): cip is the minimum raise, piatto the pot after his call
    # (25), tutto his stack less the call (refused by the engine above the pot limit, not here).
    sizes = table.bet_sizes(K.RILANCIO)
    assert sizes is not None and (sizes.minimum, sizes.pot, sizes.all_in) == (10, 25, 1000 - 10)
    assert table.bet_sizes(K.PUNTO) is None, "no bet to make when facing one"
    assert table.bet_sizes(K.VEDO) is None, "a call has no named amounts"
    act(table, 1, K.RILANCIO, sizes.pot)
    # Player 2 (small blind, 5 in) faces 35: the call is 30, the pot after it 50 + 30 = 80.
    after = table.bet_sizes(K.RILANCIO)
    assert after is not None and after.pot == 80 and after.minimum == 25
    with pytest.raises(EngineError, match="al massimo puoi mettere 80"):
        act(table, 2, K.RILANCIO, after.all_in)


def test_named_pot_amount_stays_inside_the_legal_range() -> None:
    table = custom_table([1000, 1000, 25], limite="nolimit")
    table.start_hand()  # 1 deals, 2 small blind, 3 big blind; 1 acts first
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)
    sizes = table.bet_sizes(K.RILANCIO)  # the big blind: pot 30, but only 15 behind
    assert sizes is not None and sizes.pot == 15 and sizes.all_in == 15 and sizes.minimum == 10


def test_texas_nolimit_min_raise_is_the_last_raise() -> None:
    table = make_table("texas", players=3, cip=10, limite="nolimit")
    table.start_hand()
    act(table, 1, K.RILANCIO, 30)  # to 40
    assert legal(table)[K.RILANCIO] == (30, 1000 - 5 - 35)


def test_texas_split_pot_odd_chip_to_first_winner_left_of_dealer() -> None:
    table = make_table("texas", players=3, cip=10)
    table.start_hand(deck=stacked(["2c 3d", "4c 5d", "2d 3c"], "7h As Ks Qs 8h Js 9h Ts"))
    act(table, 1, K.VEDO)
    act(table, 2, K.PASSO)  # 5 dead chips: the pot is 25
    act(table, 3, K.PAROL)
    events: list = []
    for _ in range(3):
        events += act(table, 3, K.PAROL)
        events += act(table, 1, K.PAROL)
    award = of_type(events, PotAwarded)[0]
    assert award.amount == 25
    assert award.winners == (3, 1)
    assert award.shares == (13, 12)  # player 3 is first clockwise from the dealer's left
    assert table.total_chips() == 3000


def test_short_all_in_does_not_reopen_raising() -> None:
    table = custom_table([1000, 1000, 130])
    table.start_hand()
    act(table, 1, K.RILANCIO, 90)  # to 100
    act(table, 2, K.VEDO)
    assert legal(table)[K.RILANCIO] == (30, 30)  # all-in for less than a full raise
    act(table, 3, K.RILANCIO, 30)  # 130
    assert table.to_act == 1
    assert kinds(table) == {K.PASSO, K.VEDO}
    act(table, 1, K.VEDO)
    assert kinds(table) == {K.PASSO, K.VEDO}


def test_full_raise_reopens_raising() -> None:
    table = custom_table([1000, 1000, 1000])
    table.start_hand()
    act(table, 1, K.RILANCIO, 90)
    act(table, 2, K.VEDO)
    act(table, 3, K.RILANCIO, 90)
    assert K.RILANCIO in kinds(table)


def test_all_in_for_less_builds_side_pots_by_layers() -> None:
    table = custom_table([200, 50, 100, 200])
    table.start_hand(deck=stacked(["Ah Ad", "Kh Kd", "Qh Qd", "5c 4h"], "8c 2c 7d 9h 6s Js 6c 3s"))
    act(table, 4, K.RILANCIO, 190)
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)  # all-in for 50
    events = act(table, 3, K.VEDO)  # all-in for 100
    awards = [(a.pot, a.amount, a.winners) for a in of_type(events, PotAwarded)]
    assert awards == [(0, 200, (2,)), (1, 150, (3,)), (2, 200, (4,))]
    assert table.seats() == {2: 200, 3: 150, 4: 200}
    assert [e.player for e in of_type(events, PlayerLeft)] == [1]  # no chips left
    assert table.total_chips() == 550


def test_uncalled_excess_is_returned() -> None:
    table = custom_table([300, 100])
    table.start_hand()
    act(table, 1, K.RILANCIO, 290)  # all-in 300
    events = act(table, 2, K.VEDO)  # all-in for 100
    assert [(r.player, r.amount) for r in of_type(events, BetReturned)] == [(1, 200)]
    assert sum(a.amount for a in of_type(events, PotAwarded)) == 200
    assert table.total_chips() == 400


def test_all_in_runs_out_the_board_and_shows() -> None:
    table = custom_table([100, 100])
    table.start_hand()
    act(table, 1, K.RILANCIO, 90)
    events = act(table, 2, K.VEDO)
    assert [e.street for e in of_type(events, StreetStarted)][-4:] == [
        Street.FLOP,
        Street.TURN,
        Street.RIVER,
        Street.SHOWDOWN,
    ]
    assert len(of_type(events, HandShown)) >= 1
    assert table.total_chips() == 200


def test_public_view_shows_side_pots_after_an_all_in() -> None:
    table = custom_table([1000, 1000, 1000, 40])
    table.start_hand()
    act(table, 4, K.RILANCIO, 30)  # all-in for 40
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)
    act(table, 3, K.RILANCIO, 60)  # 100: not gathered yet
    view = table.public_view()
    assert view.pots == ()  # bets are gathered into pots at the end of the round
    assert view.pot == 40 * 3 + 100
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)
    view = table.public_view()
    assert view.street is Street.FLOP
    assert view.pots == (160, 180)
    assert [s.all_in for s in view.seats] == [False, False, False, True]


def test_shown_hand_names_the_best_five_of_seven() -> None:
    table = custom_table([100, 100])
    table.start_hand(deck=stacked(["Ah Ad", "7c 2d"], "3h Ac Ks 9d 4s Kh 5c Kd"))
    act(table, 1, K.RILANCIO, 90)
    events = act(table, 2, K.VEDO)
    shown = {e.player: e for e in of_type(events, HandShown)}
    assert shown[2].hand == "full"
    assert sorted(shown[2].best) == sorted(parse_cards("Ah Ad Ac Ks Kh"))
