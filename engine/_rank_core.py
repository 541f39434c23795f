"""The core of the hand ranking: rankings, categories, the strength layout and the reference
five-card evaluation. Private: ``engine.ranking`` is the public seam and re-exports what callers need;
``engine._rank_tables`` builds its fast tables from the reference evaluation here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum, StrEnum


class Ranking(StrEnum):
    """Which ranking decides: the Italian one (short decks, suits) or the international one."""

    ITALIANA = "italiana"
    INTERNAZIONALE = "internazionale"


class Category(IntEnum):
    """Hand categories, numbered in the Italian order (colore above full).

    Do not compare categories across rankings with ``<``: in the international ranking the full
    beats the colore. Use ``compare`` or ``winners`` for hands.
    """

    CARTA_ALTA = 0
    COPPIA = 1
    DOPPIA_COPPIA = 2
    TRIS = 3
    SCALA = 4
    FULL = 5
    COLORE = 6
    POKER = 7
    SCALA_REALE = 8

    @property
    def nome(self) -> str:
        """The Italian name players use at the table."""
        return _NOMI[self]


_NOMI = {
    Category.CARTA_ALTA: "carta alta",
    Category.COPPIA: "coppia",
    Category.DOPPIA_COPPIA: "doppia coppia",
    Category.TRIS: "tris",
    Category.SCALA: "scala",
    Category.FULL: "full",
    Category.COLORE: "colore",
    Category.POKER: "poker",
    Category.SCALA_REALE: "scala reale",
}

# Category position inside each ranking's order (the top 4 bits of a strength).
_POSITION: dict[Ranking, dict[Category, int]] = {
    Ranking.ITALIANA: {category: int(category) for category in Category},
    Ranking.INTERNAZIONALE: {
        **{category: int(category) for category in Category},
        Category.FULL: int(Category.COLORE),
        Category.COLORE: int(Category.FULL),
    },
}
_CATEGORY_AT: dict[Ranking, dict[int, Category]] = {
    ranking: {position: category for category, position in positions.items()}
    for ranking, positions in _POSITION.items()
}

SF_MINIMA, SF_MEDIA, SF_MASSIMA = 0, 1, 2
"""Levels of an Italian scala reale, as stored in its first rank digit."""

RANK_SHIFT = 2
CATEGORY_SHIFT = 22  # 2 suit bits + 5 rank digits of 4 bits
SF_POSITION = int(Category.SCALA_REALE)


def default_lowest_rank(ranking: Ranking) -> int:
    """The lowest rank of the usual deck of a ranking: 7 (32 cards) or 2 (52 cards)."""
    return 7 if ranking is Ranking.ITALIANA else 2


def sf_level_of(strength: int, ranking: Ranking) -> int | None:
    """The scala reale level stored in an Italian strength, or None for any other hand."""
    if ranking is not Ranking.ITALIANA or strength >> CATEGORY_SHIFT != SF_POSITION:
        return None
    return (strength >> (RANK_SHIFT + 16)) & 15


# --------------------------------------------------------------------------------------------
# The reference five-card evaluation (also used to build the fast tables).


def five_card_value(codes: Sequence[int], ranking: Ranking, lowest_rank: int) -> tuple[int, tuple[int, ...]]:
    """Strength and display order (as card codes) of exactly five distinct card codes.

    Written for clarity: the fast tables are built from it, and it is the spec in code.
    """
    italian = ranking is Ranking.ITALIANA
    ranks = [code >> 2 for code in codes]
    counts = Counter(ranks)
    flush = len({code & 3 for code in codes}) == 1
    distinct = sorted(counts, reverse=True)

    top: int | None = None  # the top card of a straight, None when there is no straight
    minima = False
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top = distinct[0]
        elif distinct == [14, lowest_rank + 3, lowest_rank + 2, lowest_rank + 1, lowest_rank]:
            top, minima = lowest_rank + 3, True

    if top is not None:
        category = Category.SCALA_REALE if flush else Category.SCALA
        if italian and flush:
            level = SF_MINIMA if minima else SF_MASSIMA if top == 14 else SF_MEDIA
            digits: list[int] = [level, top]
        else:
            digits = [top]
        order = shown_order(codes, lowest_rank)
    else:
        order = shown_order(codes, lowest_rank)
        shape = sorted(counts.values(), reverse=True)
        if flush:
            category = Category.COLORE
        elif shape[0] == 4:
            category = Category.POKER
        elif shape == [3, 2]:
            category = Category.FULL
        elif shape[0] == 3:
            category = Category.TRIS
        elif shape == [2, 2, 1]:
            category = Category.DOPPIA_COPPIA
        elif shape[0] == 2:
            category = Category.COPPIA
        else:
            category = Category.CARTA_ALTA
        digits = list(dict.fromkeys(code >> 2 for code in order))

    deciding_rank = order[0] >> 2
    suit = max(code & 3 for code in order if code >> 2 == deciding_rank) if italian else 0
    return strength_of(ranking, category, digits) | suit, tuple(order)


def shown_order(codes: Sequence[int], lowest_rank: int) -> list[int]:
    """Five distinct card codes in the order a hand is shown: groups bigger first, then higher
    rank, inside a group the better suit first; a straight from its top card, the minima
    (A-7-8-9-10 in 32 cards) with its ace last. The same in both rankings."""
    desc = sorted(codes, reverse=True)
    ranks = [code >> 2 for code in desc]
    if len(set(ranks)) == 5:
        if ranks[0] == 14 and ranks[1] == lowest_rank + 3 and ranks[4] == lowest_rank:
            return desc[1:] + desc[:1]  # the minima: the ace plays low
        return desc
    count = ranks.count
    return sorted(desc, key=lambda code: count(code >> 2), reverse=True)  # stable: codes stay descending


def strength_of(ranking: Ranking, category: Category, digits: Sequence[int]) -> int:
    """The strength (suit bits 0) of a category and its comparison digits, most significant first."""
    rank_key = _POSITION[ranking][category]
    for i in range(5):
        rank_key = (rank_key << 4) | (digits[i] if i < len(digits) else 0)
    return rank_key << RANK_SHIFT


def category_of(strength: int, ranking: Ranking) -> Category:
    """The category stored in a strength."""
    return _CATEGORY_AT[ranking][strength >> CATEGORY_SHIFT]
