"""Properties of the ranking, checked against a slow direct implementation written here.

The slow implementation reads rules §1.1/§1.2 literally (tuples of ranks, explicit straight rank
sets, best of the 21 five-card choices) and shares no code with ``engine.ranking``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, pairwise

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.cards import Card, Suit, deck, lowest_rank_for_deck
from engine.ranking import Ranking, compare, evaluate, fast_evaluator, five_card_value, showdown, winners

ITALIAN_ORDER = [
    "carta alta",
    "coppia",
    "doppia coppia",
    "tris",
    "scala",
    "full",
    "colore",
    "poker",
    "scala reale",
]
INTERNATIONAL_ORDER = [
    "carta alta",
    "coppia",
    "doppia coppia",
    "tris",
    "scala",
    "colore",
    "full",
    "poker",
    "scala reale",
]

SlowKey = tuple[int, tuple[int, ...], int, str]  # category index, ranks, deciding suit, level


def slow_key(cards: Sequence[Card], low: int, italian: bool) -> SlowKey:
    """The value of five cards, straight from the rules."""
    ranks = [card.rank for card in cards]
    counts = Counter(ranks)
    flush = len({card.suit for card in cards}) == 1
    straights = {frozenset(range(top - 4, top + 1)): top for top in range(low + 4, 15)}
    straights[frozenset({14, low, low + 1, low + 2, low + 3})] = low + 3
    top = straights.get(frozenset(ranks)) if len(counts) == 5 else None
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    pattern = sorted(counts.values(), reverse=True)
    if top is not None and flush:
        name = "scala reale"
    elif pattern == [4, 1]:
        name = "poker"
    elif pattern == [3, 2]:
        name = "full"
    elif flush:
        name = "colore"
    elif top is not None:
        name = "scala"
    elif pattern == [3, 1, 1]:
        name = "tris"
    elif pattern == [2, 2, 1]:
        name = "doppia coppia"
    elif pattern == [2, 1, 1, 1]:
        name = "coppia"
    else:
        name = "carta alta"
    compared = (top,) if top is not None else tuple(groups)
    deciding = top if top is not None else groups[0]
    suit = max(card.suit for card in cards if card.rank == deciding) if italian else 0
    level = ""
    if name == "scala reale" and italian:
        level = "minima" if top == low + 3 else "massima" if top == 14 else "media"
    order = ITALIAN_ORDER if italian else INTERNATIONAL_ORDER
    return order.index(name), compared, suit, level


BEATS = {("minima", "massima"), ("massima", "media"), ("media", "minima")}


def slow_compare(a: SlowKey, b: SlowKey, suits: bool = True) -> int:
    if a[3] and b[3] and a[3] != b[3]:
        return 1 if (a[3], b[3]) in BEATS else -1
    ka, kb = (a[:3], b[:3]) if suits else (a[:2], b[:2])
    return (ka > kb) - (ka < kb)


def slow_best_of_seven(cards: Sequence[Card]) -> SlowKey:
    return max(slow_key(five, 2, italian=False) for five in combinations(cards, 5))


def slow_winners(keys: list[SlowKey], suits: bool) -> list[int]:
    unbeaten = [i for i, a in enumerate(keys) if all(slow_compare(b, a, suits) <= 0 for b in keys)]
    if unbeaten:
        return unbeaten
    best: dict[str, SlowKey] = {}
    for key in keys:
        if key[3] and (key[3] not in best or slow_compare(key, best[key[3]], suits) > 0):
            best[key[3]] = key
    return [i for i, key in enumerate(keys) if key[3] and slow_compare(key, best[key[3]], suits) == 0]


Deal = tuple[int, list[list[Card]]]  # lowest rank of the deck, hands
DECK_SIZES = st.sampled_from(range(24, 53, 4))


@st.composite
def italian_deal(draw: st.DrawFn, min_hands: int = 2, max_hands: int = 4) -> Deal:
    size = draw(DECK_SIZES)
    players = draw(st.integers(min_hands, min(max_hands, size // 5)))
    cards = draw(st.permutations(deck(size)))
    return lowest_rank_for_deck(size), [list(cards[5 * i : 5 * i + 5]) for i in range(players)]


@settings(max_examples=250, deadline=None)
@given(italian_deal(), st.booleans())
def test_italian_evaluation_agrees_with_the_slow_rules(deal: Deal, suits: bool) -> None:
    low, hands = deal
    values = [evaluate(hand, ranking=Ranking.ITALIANA, lowest_rank=low) for hand in hands]
    keys = [slow_key(hand, low, italian=True) for hand in hands]
    for hand, value, key in zip(hands, values, keys, strict=True):
        assert value.category.nome == ITALIAN_ORDER[key[0]]
        # The readable reference evaluation that builds the tables gives the same strength.
        assert five_card_value([card.code for card in hand], Ranking.ITALIANA, low)[0] == value.strength
    a, b = values[0], values[1]
    assert (compare(a, b, suits=suits) > 0) - (compare(a, b, suits=suits) < 0) == slow_compare(
        keys[0], keys[1], suits
    )
    assert winners(values, suits=suits) == slow_winners(keys, suits)


@settings(max_examples=200, deadline=None)
@given(italian_deal(max_hands=7))
def test_exactly_one_italian_winner_unless_the_cycle(deal: Deal) -> None:
    low, hands = deal
    won = showdown(hands, ranking=Ranking.ITALIANA, lowest_rank=low)
    if len(won) > 1:
        values = [evaluate(hands[i], ranking=Ranking.ITALIANA, lowest_rank=low) for i in won]
        assert sorted(value.sf_level for value in values if value.sf_level is not None) == [0, 1, 2]
        assert len(won) == 3


@settings(max_examples=200, deadline=None)
@given(italian_deal(min_hands=2, max_hands=2), st.booleans(), st.booleans())
def test_compare_is_antisymmetric(deal: Deal, suits: bool, italian: bool) -> None:
    low, (first, second) = deal
    ranking = Ranking.ITALIANA if italian else Ranking.INTERNAZIONALE
    a = evaluate(first, ranking=ranking, lowest_rank=low)
    b = evaluate(second, ranking=ranking, lowest_rank=low)
    assert compare(a, b, suits=suits) == -compare(b, a, suits=suits)
    assert compare(a, a, suits=suits) == 0
    if italian and suits:
        assert compare(a, b) != 0  # two hands from one deck never tie


@st.composite
def holdem_deal(draw: st.DrawFn) -> tuple[list[Card], list[list[Card]]]:
    cards = draw(st.permutations(deck(52)))
    players = draw(st.integers(2, 6))
    return list(cards[:5]), [list(cards[5 + 2 * i : 7 + 2 * i]) for i in range(players)]


@settings(max_examples=200, deadline=None)
@given(holdem_deal())
def test_seven_cards_agree_with_the_best_of_21(deal: tuple[list[Card], list[list[Card]]]) -> None:
    board, hands = deal
    keys = [slow_best_of_seven(hand + board) for hand in hands]
    values = [evaluate(hand + board, ranking=Ranking.INTERNAZIONALE) for hand in hands]
    for value, key in zip(values, keys, strict=True):
        assert value.category.nome == INTERNATIONAL_ORDER[key[0]]
        assert slow_key(value.cards, 2, italian=False) == key  # the best five shown are the best five
    assert showdown(hands, ranking=Ranking.INTERNAZIONALE, board=board) == slow_winners(keys, suits=False)


def test_seven_cards_agree_with_treys_ordering() -> None:
    treys = pytest.importorskip("treys")
    import random

    rng = random.Random(20261122)
    judge = treys.Evaluator()
    fast = fast_evaluator(Ranking.INTERNAZIONALE, 2).seven
    full_deck = deck(52)
    for _ in range(3000):
        cards = rng.sample(full_deck, 9)
        board, first, second = cards[:5], cards[5:7], cards[7:9]
        to_treys = [treys.Card.new(card.ascii) for card in cards]
        t_first = judge.evaluate(to_treys[5:7], to_treys[:5])  # lower is better in treys
        t_second = judge.evaluate(to_treys[7:9], to_treys[:5])
        ours = fast(*(c.code for c in first + board)) - fast(*(c.code for c in second + board))
        assert (ours > 0) - (ours < 0) == (t_first < t_second) - (t_first > t_second)


def test_every_32_card_hand_orders_as_the_slow_rules() -> None:
    """Exhaustive: the fast strengths sort the 201,376 hands exactly as the slow keys do."""
    low = 7
    evaluator = fast_evaluator(Ranking.ITALIANA, low)
    by_strength: dict[int, SlowKey] = {}
    for hand in combinations(deck(32), 5):
        key = slow_key(hand, low, italian=True)
        strength = evaluator.strength([card.code for card in hand])
        assert by_strength.setdefault(strength, key) == key
    ordered = [by_strength[s] for s in sorted(by_strength)]
    assert all(a[:3] < b[:3] for a, b in pairwise(ordered))


@st.composite
def straight_flush_deal(draw: st.DrawFn) -> Deal:
    """One optional straight flush per suit (so the hands are disjoint): the cycle's playground."""
    size = draw(DECK_SIZES)
    low = lowest_rank_for_deck(size)
    tops = [low + 3, *range(low + 4, 15)]
    hands = []
    for suit in Suit:
        top = draw(st.sampled_from([None, *tops]))
        if top is not None:
            ranks = [14, low, low + 1, low + 2, low + 3] if top == low + 3 else list(range(top - 4, top + 1))
            hands.append([Card(rank, suit) for rank in ranks])
    assume(len(hands) >= 2)
    return low, hands


@settings(max_examples=200, deadline=None)
@given(straight_flush_deal(), st.booleans())
def test_straight_flush_showdowns_follow_the_cycle(deal: Deal, suits: bool) -> None:
    low, hands = deal
    keys = [slow_key(hand, low, italian=True) for hand in hands]
    assert showdown(hands, ranking=Ranking.ITALIANA, lowest_rank=low, suits=suits) == slow_winners(
        keys, suits
    )
