"""The showdown's order and mucking by name (rules §2.8, §3, §6), with explicit decks: after an all-in
the last aggressor of the last round that was played shows first, and a hand that only ties the best
hand shown so far, winning nothing, is not revealed. Seats as in ``table_helpers``: player 1 deals
the first hand, the deal starts at player 2."""

from __future__ import annotations

from engine.events import HandMucked, HandShown, PotAwarded, Street
from tests.engine.table_helpers import K, act, make_table, of_type, stacked


def _show_order(events: list[object]) -> list[tuple[int, bool]]:
    """(player, shown?) in the order the showdown reveals or mucks the hands."""
    return [(e.player, isinstance(e, HandShown)) for e in events if isinstance(e, (HandShown, HandMucked))]


def test_texas_after_an_all_in_before_the_flop_the_aggressor_shows_first() -> None:
    """Rules §6 "Who shows first (§2.8, §3)": "The last player who bet or raised (... 32carte and
    texas: in the last betting round)"; §2.8: "a hand that does not beat the best hand shown so far
    is not revealed". Heads-up, the button (player 1) moves all-in before the flop and is called:
    the pre-flop round is the last betting round, so player 1 shows first and must be revealed;
    player 2 beats him and shows. The flop, turn and river, dealt with nobody able to bet, are no
    betting rounds: they do not forget the aggressor."""
    table = make_table("texas", players=2, cip=10, limite="nolimit")
    # Player 2 (big blind) is dealt first: A♥ A♦; player 1 (button): K♥ K♦.
    table.start_hand(deck=stacked(["Ah Ad", "Kh Kd"], "2c 3c 7d 9s 4h Jc 5s Qd"))
    act(table, 1, K.RILANCIO, 990)  # all-in: 5 to call + 990
    events = act(table, 2, K.VEDO)
    assert table.street is None
    assert of_type(events, PotAwarded)[0].winners == (2,)
    assert _show_order(list(events)) == [(1, True), (2, True)]


def test_32carte_after_an_all_in_in_the_first_round_the_aggressor_shows_first() -> None:
    """Rules §3: "Showdown order: the last aggressor shows first; if everyone checked, the first
    player still in left of the dealer"; §6: "32carte and texas: in the last betting round".
    Three players: player 1 (dealer) raises all-in in the first round, 2 folds, 3 calls all-in;
    the second round has nobody able to bet, so the first round is the last betting round and
    player 1 shows first (he loses, so he is revealed and 3 then shows his winning hand)."""
    table = make_table("32carte", players=3, cip=10)
    # Deal order: player 2, 3, 1.
    table.start_hand(deck=stacked(["7c 8d 9s Jc Qd", "Ah Ad 8h 9h Tc", "Kh Kd 8c 9c Jd"]))
    assert table.to_act == 1
    act(table, 1, K.RILANCIO, 990)  # all-in over the big blind's 10
    act(table, 2, K.PASSO)
    act(table, 3, K.VEDO)
    assert table.street is Street.CAMBIO
    act(table, 3, K.SERVITO)
    events = act(table, 1, K.SERVITO)
    assert table.street is None
    assert of_type(events, PotAwarded)[0].winners == (3,)
    assert _show_order(list(events)) == [(1, True), (3, True)]


def test_a_hand_that_only_ties_the_best_shown_and_wins_nothing_is_mucked() -> None:
    """Rules §2.8 (applied to every variant by §3 and §6): "a hand that does not beat the best hand
    shown so far is not revealed (mucked)"; §6: "A hand that wins part of a pot is always shown."
    Player 2 bets the river and shows K-K-A-8-5; player 3 holds exactly the same five (a tie, which
    does not beat it) and wins nothing because player 1's full house beats both: player 3 must
    muck."""
    table = make_table("texas", players=3, cip=10, limite="nolimit")
    # Deal order: player 2 (small blind), 3 (big blind), 1 (button).
    # Stock: burn, flop Kc Kd 8h, burn, turn 5s, burn, river 2c.
    table.start_hand(deck=stacked(["Ah 3d", "As 4d", "8c 8d"], "7s Kc Kd 8h 6s 5s 7h 2c"))
    act(table, 1, K.VEDO)
    act(table, 2, K.VEDO)
    act(table, 3, K.PAROL)
    for _ in range(2):  # flop and turn checked through
        for player in (2, 3, 1):
            act(table, player, K.PAROL)
    assert table.street is Street.RIVER
    act(table, 2, K.PUNTO, 10)
    act(table, 3, K.VEDO)
    events = act(table, 1, K.VEDO)
    assert of_type(events, PotAwarded)[0].winners == (1,)
    assert _show_order(list(events)) == [(2, True), (3, False), (1, True)]
