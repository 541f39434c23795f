"""rules §2.6 and its house rule: which cards a reshuffle of the stock is made of.

Seats as in ``table_helpers``: player 1 deals the first hand, the deal starts at player 2.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, deck, parse_cards
from engine.events import CardBurnt, CardsDrawn, DiscardsReshuffled, Event
from tests.engine.table_helpers import K, act, five_at_the_draw, of_type

# Five players, 32 cards: 7 left in the stock. Players 2 and 3 open and call, player 4 calls with
# a hand to change; players 5 and 1 fold.
HANDS = ["Jh Js 7c 8d 9s", "Th Ts 7d 8c 9c", "Qh 7h 8h 9d Kd", "Ad Kc Qc 8s 7s", "Ac Ks Qs Qd Td"]
FOLDED = set(parse_cards(HANDS[3])) | set(parse_cards(HANDS[4]))
STOCK = [c for c in deck(32) if not any(c in parse_cards(hand) for hand in HANDS)]


def _drawn(events: Sequence[Event]) -> dict[int, CardsDrawn]:
    return {e.player: e for e in of_type(events, CardsDrawn)}


def test_rule_2_6_discards_of_a_player_still_owed_cards_wait_for_him_to_be_served() -> None:
    # Players 2 and 3 change 4 (3 each first: 1 card left), player 4 changes 3: his first card is
    # the last of the stock, then the stock runs out. Players 2 and 3 are still owed their fourth
    # card, so their discards are not the new stock (it could deal them back their own cards):
    # the folded hands are. Everything after the stock is dealt from them, for every seed.
    for seed in range(25):
        table = five_at_the_draw(HANDS, seed)
        act(table, 2, K.CAMBIO, cards="7c 8d 9s Jh")
        act(table, 3, K.CAMBIO, cards="7d 8c 9c Th")
        events = act(table, 4, K.CAMBIO, cards="7h 8h 9d")
        assert [e.count for e in of_type(events, DiscardsReshuffled)] == [len(FOLDED)]
        assert not of_type(events, CardBurnt)  # two players asked for more than 3
        drawn = _drawn(events)
        assert drawn[2].received[:3] == tuple(STOCK[:3])
        assert drawn[3].received[:3] == tuple(STOCK[3:6])
        assert drawn[4].received[0] == STOCK[6]
        later: list[Card] = [*drawn[4].received[1:], drawn[2].received[3], drawn[3].received[3]]
        assert set(later) <= FOLDED and len(set(later)) == 4, seed
        for player, draw in drawn.items():
            assert not set(draw.discarded) & set(draw.received), (seed, player)


def test_rule_2_6_discards_of_a_served_player_come_before_the_folded_hands() -> None:
    # Player 2 changes 3 and is served at once; player 3 changes 4 (3 first: 1 left), player 4
    # changes 2: the stock runs out on his second card, and the new stock is player 2's discards,
    # the only player who has drawn all his cards. Player 3's fourth card comes from them too.
    for seed in range(25):
        table = five_at_the_draw(HANDS, seed)
        act(table, 2, K.CAMBIO, cards="7c 8d 9s")
        act(table, 3, K.CAMBIO, cards="7d 8c 9c Th")
        events = act(table, 4, K.CAMBIO, cards="7h 8h")
        assert [e.count for e in of_type(events, DiscardsReshuffled)] == [3]
        drawn = _drawn(events)
        later = {drawn[4].received[1], drawn[3].received[3]}
        assert later <= set(parse_cards("7c 8d 9s")), seed
        for player, draw in drawn.items():
            assert not set(draw.discarded) & set(draw.received), (seed, player)
