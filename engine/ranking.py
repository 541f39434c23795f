"""The one hand ranking of the project: Italian (rules §1.1) and international (rules §1.2).

A hand's value is an integer ``strength`` (a total order inside one ranking) plus its category
and best five cards. The integer cannot express the *scala reale* cycle of the Italian ranking
(minima > massima > media > minima), so hands are never compared with ``<`` directly: ``compare``
and ``winners`` resolve the cycle on top of the integer order, and ``winners`` returns several
indices when the pot splits.

Strength layout (an ``int`` below 2**26)::

    category position (4 bits) | five rank digits (4 bits each) | deciding suit (2 bits)

The rank digits are the comparison ranks of rules §1.1 from the most significant; for an Italian
scala reale the first digit is its level (0 minima, 1 media, 2 massima) and the second its top
card, so the integer order of straight flushes is minima < media < massima and only the pair
minima/massima is reversed by the cycle. The deciding suit is the best suit of the first group
of the display order (the top card, the top card of a minima, the higher pair...); it is 0 in the
international ranking, where suits never count. ``strength >> 2`` is the value without suits.

Fast paths (precomputed tables, built lazily per deck) live in ``engine._rank_tables``; this module
is the public seam and the readable reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from engine import _rank_tables
from engine._frozen import fast_init
from engine._rank_core import (
    CATEGORY_SHIFT,
    RANK_SHIFT,
    SF_MASSIMA,
    SF_MEDIA,
    SF_MINIMA,
    SF_POSITION,
    Category,
    Ranking,
    category_of,
    default_lowest_rank,
    five_card_value,
    sf_level_of,
    shown_order,
    strength_of,
)
from engine.cards import Card, CardError

__all__ = [
    "CATEGORY_SHIFT",
    "SF_MASSIMA",
    "SF_MEDIA",
    "SF_MINIMA",
    "Category",
    "HandValue",
    "Ranking",
    "beats",
    "category_of",
    "compare",
    "evaluate",
    "fast_evaluator",
    "five_card_value",
    "showdown",
    "strength_of",
    "value_of_five",
    "winners",
    "winners_from_strengths",
]


# A module constant: reading an enum member off its class goes through ``EnumType.__getattr__``'s
# slow attribute hook, and the showdown functions below run for every pot.
_ITALIANA = Ranking.ITALIANA


@fast_init
@dataclass(frozen=True, slots=True)
class HandValue:
    """The value of one hand: what to show (category, best five) and what to compare (strength).

    Not orderable on purpose: use ``compare``/``winners``, which know the scala reale cycle.
    """

    category: Category
    cards: tuple[Card, ...]
    """The best five, in display order (the deciding group first; a minima ends with its ace)."""
    ranking: Ranking = field(repr=False)
    strength: int = field(repr=False)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The comparison ranks from the most significant (for a coppia: the pair, then kickers).

        What the table needs for the opening requirement: ``category is COPPIA and ranks[0] >= 11``.
        """
        digits = [(self.strength >> (RANK_SHIFT + 4 * i)) & 15 for i in range(4, -1, -1)]
        if self.ranking is Ranking.ITALIANA and self.category is Category.SCALA_REALE:
            digits = digits[1:]
        return tuple(d for d in digits if d)

    @property
    def sf_level(self) -> int | None:
        """``SF_MINIMA``/``SF_MEDIA``/``SF_MASSIMA`` for an Italian scala reale, else None."""
        return sf_level_of(self.strength, self.ranking)


# --------------------------------------------------------------------------------------------
# Public API


def _check_cards(cards: Sequence[Card], lowest_rank: int) -> None:
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise CardError(f"La carta {card} compare due volte.")
            seen.add(card)
    for card in cards:
        if card.rank < lowest_rank:
            raise CardError(f"La carta {card} non fa parte del mazzo in uso (si parte dal {lowest_rank}).")


def _check_lowest_rank(lowest_rank: int) -> None:
    if not 2 <= lowest_rank <= 9:
        raise CardError(f"Un mazzo che parte dal {lowest_rank} non esiste: si parte da 2 a 9.")


def evaluate(
    cards: Sequence[Card], *, ranking: Ranking = Ranking.ITALIANA, lowest_rank: int | None = None
) -> HandValue:
    """The value of a hand: exactly five cards in the Italian ranking, five to seven (best five)
    in the international one.

    ``lowest_rank`` is the lowest rank of the deck in use (it fixes the minima straight); it
    defaults to 7 for the Italian ranking (32 cards) and to 2 for the international one.
    Raises ``CardError`` (an Italian sentence) for a duplicate card, a card outside the deck or
    a wrong number of cards.
    """
    ranking = Ranking(ranking)
    low = default_lowest_rank(ranking) if lowest_rank is None else lowest_rank
    _check_lowest_rank(low)
    cards = tuple(cards)
    if ranking is Ranking.ITALIANA and len(cards) != 5:
        raise CardError(f"Una mano di poker all'italiana ha 5 carte, non {len(cards)}.")
    if not 5 <= len(cards) <= 7:
        raise CardError(f"Servono da 5 a 7 carte per valutare una mano, non {len(cards)}.")
    _check_cards(cards, low)
    codes = [card.code for card in cards]
    strength = fast_evaluator(ranking, low).strength(codes)
    best = codes
    if len(codes) > 5:
        # Which five make the value (several choices may tie: any of them shows the same hand).
        best = next(
            list(five)
            for five in combinations(codes, 5)
            if five_card_value(five, ranking, low)[0] == strength
        )
    _, order = five_card_value(best, ranking, low)
    return HandValue(
        category=category_of(strength, ranking),
        cards=tuple(Card.from_code(code) for code in order),
        ranking=ranking,
        strength=strength,
    )


def value_of_five(codes: Sequence[int], strength: int, ranking: Ranking, lowest_rank: int) -> HandValue:
    """The value of five valid card codes whose strength is already known (a showdown has it):
    ``evaluate`` without its checks and its table lookup, for callers that hold valid cards."""
    return HandValue(
        category=category_of(strength, ranking),
        cards=tuple(map(Card.from_code, shown_order(codes, lowest_rank))),
        ranking=ranking,
        strength=strength,
    )


def beats(a: int, b: int, ranking: Ranking, *, suits: bool = True) -> bool:
    """Whether strength ``a`` beats strength ``b`` (the scala reale cycle included): the
    two-hand case of ``winners_from_strengths``, without its lists."""
    return _beats(a, b, ranking is _ITALIANA, suits) > 0


def fast_evaluator(ranking: Ranking, lowest_rank: int | None = None) -> _rank_tables.Evaluator:
    """The precomputed evaluator of one ranking and deck, for callers that value many hands.

    Its methods take card codes (``Card.code``) and return strengths, the integers that
    ``winners_from_strengths`` compares; they do not validate their input (``evaluate`` and
    ``showdown`` do). The fastest is ``five_desc(a, b, c, d, e)`` for the Italian ranking (codes
    in descending order) and ``seven(...)`` for the international one; see ``Evaluator``.
    Tables are built on the first call for each deck (tens of milliseconds for 32 cards).
    """
    if ranking.__class__ is not Ranking:
        ranking = Ranking(ranking)
    low = default_lowest_rank(ranking) if lowest_rank is None else lowest_rank
    return _rank_tables.evaluator(ranking, low)


def _beats(a: int, b: int, italian: bool, suits: bool) -> int:
    """Sign of the comparison of two strengths of one ranking, with the scala reale cycle."""
    if not suits:
        a >>= RANK_SHIFT
        b >>= RANK_SHIFT
        shift = CATEGORY_SHIFT - RANK_SHIFT
    else:
        shift = CATEGORY_SHIFT
    if italian and a >> shift == SF_POSITION and b >> shift == SF_POSITION:
        level_shift = shift - 4
        la, lb = (a >> level_shift) & 15, (b >> level_shift) & 15
        if {la, lb} == {SF_MINIMA, SF_MASSIMA}:
            return 1 if la == SF_MINIMA else -1
    return (a > b) - (a < b)


def compare(a: HandValue, b: HandValue, *, suits: bool = True) -> int:
    """Positive when ``a`` beats ``b``, negative when it loses, 0 when they split.

    Includes the scala reale cycle. ``suits=False`` ignores the suit tie-break (the ``semi``
    off option of 32carte); the international ranking never uses suits.
    """
    if a.ranking is not b.ranking:
        raise ValueError("Cannot compare hands valued with different rankings.")
    return _beats(a.strength, b.strength, a.ranking is Ranking.ITALIANA, suits)


def winners_from_strengths(strengths: Sequence[int], ranking: Ranking, *, suits: bool = True) -> list[int]:
    """Indices of the winning strengths: the fast core of ``winners`` and ``showdown``.

    Normally the best strength wins (several when equal). When the Italian straight flushes form
    a cycle, no hand beats every other one: then the best hand of each level splits (rules §1.1).
    """
    if not strengths:
        raise ValueError("A showdown needs at least one hand.")
    italian = ranking is _ITALIANA
    keys = list(strengths) if suits or not italian else [s >> RANK_SHIFT for s in strengths]
    best = max(keys)
    if not italian or strengths[keys.index(best)] >> CATEGORY_SHIFT != SF_POSITION:
        return [i for i, key in enumerate(keys) if key == best]
    # Some Italian straight flushes: find the hands nobody beats.
    n = len(strengths)
    unbeaten = [
        i for i in range(n) if all(_beats(strengths[j], strengths[i], True, suits) <= 0 for j in range(n))
    ]
    if unbeaten:
        return unbeaten
    levels = [sf_level_of(s, ranking) for s in strengths]
    best_of_level: dict[int | None, int] = {}
    for level, key in zip(levels, keys, strict=True):
        if level is not None and key > best_of_level.get(level, -1):
            best_of_level[level] = key
    return [i for i, key in enumerate(keys) if levels[i] is not None and best_of_level[levels[i]] == key]


def winners(values: Sequence[HandValue], *, suits: bool = True) -> list[int]:
    """Indices of the winners among hands of one ranking: one, or several when the pot splits."""
    if not values:
        raise ValueError("A showdown needs at least one hand.")
    ranking = values[0].ranking
    if any(value.ranking is not ranking for value in values):
        raise ValueError("Cannot compare hands valued with different rankings.")
    return winners_from_strengths([value.strength for value in values], ranking, suits=suits)


def showdown(
    hands: Iterable[Sequence[Card]],
    *,
    ranking: Ranking = Ranking.ITALIANA,
    lowest_rank: int | None = None,
    board: Sequence[Card] = (),
    suits: bool = True,
) -> list[int]:
    """Who wins: indices into ``hands`` (one, or several when the pot splits).

    Each hand plays with the ``board`` (Hold'em: best five of its two cards and the five on the
    board). Raises ``CardError`` when a card appears twice across hands and board, lies outside
    the deck, or a hand has the wrong number of cards.
    """
    ranking = Ranking(ranking)
    low = default_lowest_rank(ranking) if lowest_rank is None else lowest_rank
    _check_lowest_rank(low)
    hand_list = [tuple(hand) for hand in hands]
    board_cards = tuple(board)
    if not hand_list:
        raise CardError("Per uno showdown serve almeno una mano.")
    _check_cards([card for hand in hand_list for card in hand] + list(board_cards), low)
    if ranking is Ranking.ITALIANA and board_cards:
        raise CardError("Il poker all'italiana non ha carte comuni.")
    hand_codes = [[card.code for card in hand + board_cards] for hand in hand_list]
    for codes in hand_codes:
        if ranking is Ranking.ITALIANA and len(codes) != 5:
            raise CardError(f"Una mano di poker all'italiana ha 5 carte, non {len(codes)}.")
        if not 5 <= len(codes) <= 7:
            raise CardError(f"Servono da 5 a 7 carte per valutare una mano, non {len(codes)}.")
    strengths = fast_evaluator(ranking, low).strengths(hand_codes)
    return winners_from_strengths(strengths, ranking, suits=suits)
