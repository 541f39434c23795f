"""Pure rule helpers of the table: the opening requirement, the five cards shown, the decks."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine._rank_core import RANK_SHIFT
from engine.cards import Card, deck, lowest_rank_for_deck
from engine.ranking import Category, Ranking, category_of, evaluate, fast_evaluator, value_of_five

__all__ = ["best_five", "full_deck", "lowest_rank", "opening_cards"]


def _bilateral_four(cards: Sequence[Card], lowest_rank: int) -> tuple[Card, ...] | None:
    """Four consecutive cards of one suit a card of the deck completes at either end.

    Below the lowest rank the ace completes (A-7-8-9-10 is the minima), so the run may start at
    the lowest rank; it must end by the king so that a card above exists too.
    """
    per_suit = [0, 0, 0, 0]
    for card in cards:
        per_suit[card.suit] += 1
    if max(per_suit) < 4:
        return None
    by_suit: dict[int, dict[int, Card]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, {})[card.rank] = card
    for ranks in by_suit.values():
        if len(ranks) < 4:
            continue
        for low in range(lowest_rank, 11):
            run = [ranks.get(r) for r in range(low, low + 4)]
            if all(run):
                return tuple(c for c in run if c is not None)
    return None


def opening_cards(
    cards: Sequence[Card], level: int, ranking: Ranking, lowest_rank: int
) -> tuple[Card, ...] | None:
    """The cards that justify an opening at ``level`` (rules §2.4), or None when it is refused.

    A pair of the level or higher shows the pair; a better hand shows its five cards; a
    bilateral four-card straight flush shows the four. Counting ranks settles most hands without
    the evaluator; the others take the fast strength (a table lookup), which tells a scala or a
    colore from a carta alta, and only a hand that qualifies by its category (doppia coppia and
    up) has its five cards put in display order.

    Exactly one pair, the commonest hand, is told by its ranks alone: one rank fewer than cards,
    and the sum of the ranks exceeds the sum of the distinct ranks by the pair's rank.
    """
    ranks = [card.rank for card in cards]
    distinct = set(ranks)
    if len(distinct) == len(ranks) - 1:
        pair = sum(ranks) - sum(distinct)
        if pair >= level:
            return tuple([card for card in cards if card.rank == pair])
        return _bilateral_four(cards, lowest_rank)
    if len(cards) == 5:
        codes = [card.code for card in cards]
        strength = fast_evaluator(ranking, lowest_rank).strength(codes)
        if category_of(strength, ranking) is Category.CARTA_ALTA:
            return _bilateral_four(cards, lowest_rank)
        return value_of_five(codes, strength, ranking, lowest_rank).cards
    value = evaluate(cards, ranking=ranking, lowest_rank=lowest_rank)
    if value.category is not Category.CARTA_ALTA:
        return value.cards
    return _bilateral_four(cards, lowest_rank)


def best_five(codes: Sequence[int], strength: int, lowest_rank: int) -> list[int]:
    """The five of 6 or 7 card codes that make their international ``strength`` (their best), as
    ``evaluate`` picks them: the first of ``combinations(codes, 5)`` valued ``strength``.

    Instead of valuing up to 21 combinations, the ranks are read off the strength (its rank
    digits, layout in ``engine.ranking``). Five cards valued as a non-flush hand are made by
    exactly one rank multiset, which the category and digits name; a colore or scala reale by
    those ranks in the one suit that holds five of the cards (two suits cannot, in seven cards),
    and no other five can match it. The first combination with the wanted ranks takes, for each
    of them, its first cards in ``codes`` order: a single pass.
    """
    category = category_of(strength, Ranking.INTERNAZIONALE)
    d = [(strength >> (RANK_SHIFT + 16 - 4 * i)) & 15 for i in range(5)]
    if category is Category.SCALA or category is Category.SCALA_REALE:
        top = d[0]
        # The only straight topped by the fourth rank of the deck is the one with the ace low.
        ranks = [14, *range(lowest_rank, top + 1)] if top == lowest_rank + 3 else [*range(top - 4, top + 1)]
    elif category is Category.POKER:
        ranks = [d[0]] * 4 + [d[1]]
    elif category is Category.FULL:
        ranks = [d[0]] * 3 + [d[1]] * 2
    elif category is Category.TRIS:
        ranks = [d[0]] * 3 + [d[1], d[2]]
    elif category is Category.DOPPIA_COPPIA:
        ranks = [d[0], d[0], d[1], d[1], d[2]]
    elif category is Category.COPPIA:
        ranks = [d[0], d[0], d[1], d[2], d[3]]
    else:  # carta alta, colore: five different ranks
        ranks = d
    need = [0] * 15
    for rank in ranks:
        need[rank] += 1
    suit = -1  # any
    if category is Category.COLORE or category is Category.SCALA_REALE:
        per_suit = [0, 0, 0, 0]
        for code in codes:
            per_suit[code & 3] += 1
        suit = per_suit.index(max(per_suit))
    five: list[int] = []
    for code in codes:
        rank = code >> 2
        if need[rank] and (suit < 0 or code & 3 == suit):
            need[rank] -= 1
            five.append(code)
    return five


def lowest_rank(size: int) -> int:
    return lowest_rank_for_deck(size)


@cache
def full_deck(size: int) -> tuple[Card, ...]:
    return tuple(deck(size))
