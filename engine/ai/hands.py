"""Reading one's own five cards in the draw games: the opening requirement and the usual draw.

Both are pure functions of card codes (``Card.code``: ``rank * 4 + suit``) so that the opponent
model of ``engine.ai.equity`` can run them over thousands of dealt hands once per deck.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ranking import Category, Ranking, category_of, fast_evaluator

__all__ = ["discards", "four_flush", "open_ended_four", "qualifies_to_open"]

_MADE = frozenset({Category.SCALA, Category.COLORE, Category.FULL, Category.SCALA_REALE})


def _rank_counts(codes: Sequence[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for code in codes:
        counts[code >> 2] = counts.get(code >> 2, 0) + 1
    return counts


def _bilateral_straight_flush_four(codes: Sequence[int], lowest_rank: int) -> tuple[int, ...] | None:
    """Four consecutive cards of one suit that a card of the deck completes at either end
    (rules §2.4): the run starts at the deck's lowest rank or above (the ace completes below it)
    and ends by the king (so that a card above exists)."""
    for suit in range(4):
        ranks = {code >> 2 for code in codes if code & 3 == suit}
        if len(ranks) < 4:
            continue
        for low in range(lowest_rank, 11):
            if all(r in ranks for r in range(low, low + 4)):
                return tuple(r * 4 + suit for r in range(low, low + 4))
    return None


def qualifies_to_open(codes: Sequence[int], level: int, ranking: Ranking, lowest_rank: int) -> bool:
    """Whether five cards may open at ``level`` (rules §2.4): a pair of the level or higher, any
    better hand, or four cards of a bilateral straight flush. The engine refuses any other
    opening; a computer player checks it before saying ``apro``."""
    strength = fast_evaluator(ranking, lowest_rank).strength(list(codes))
    category = category_of(strength, ranking)
    if category is Category.COPPIA:
        pair = max(rank for rank, count in _rank_counts(codes).items() if count == 2)
        if pair >= level:
            return True
    elif category is not Category.CARTA_ALTA:
        return True
    return _bilateral_straight_flush_four(codes, lowest_rank) is not None


def four_flush(codes: Sequence[int]) -> tuple[int, ...] | None:
    """Four cards of one suit, if any."""
    for suit in range(4):
        same = tuple(code for code in codes if code & 3 == suit)
        if len(same) == 4:
            return same
    return None


def open_ended_four(codes: Sequence[int], lowest_rank: int) -> tuple[int, ...] | None:
    """Four consecutive ranks that a card completes at either end (the ace plays low below the
    deck's lowest rank, so a run from the lowest rank is open-ended; J-Q-K-A is not)."""
    by_rank: dict[int, int] = {}
    for code in codes:
        by_rank.setdefault(code >> 2, code)
    for low in range(lowest_rank, 11):
        run = [by_rank.get(r) for r in range(low, low + 4)]
        if all(c is not None for c in run):
            return tuple(c for c in run if c is not None)
    return None


def discards(codes: Sequence[int], ranking: Ranking, lowest_rank: int, max_draw: int) -> tuple[int, ...]:
    """The usual draw (rules §2.6, §3): the codes to change, ``()`` to stand pat.

    Made hands (scala, colore, full, scala reale) stand pat; poker, tris and doppia coppia keep
    their groups; four to a bilateral straight flush, to a flush or to an open-ended straight draw
    one unless a pair of jacks or better is worth more; a pair keeps the pair; nothing keeps its
    highest card (or two, when the table allows only fewer changes)."""
    strength = fast_evaluator(ranking, lowest_rank).strength(list(codes))
    category = category_of(strength, ranking)
    if category in _MADE:
        return ()
    counts = _rank_counts(codes)
    if category in (Category.POKER, Category.TRIS, Category.DOPPIA_COPPIA):
        return tuple(code for code in codes if counts[code >> 2] == 1)
    sf = _bilateral_straight_flush_four(codes, lowest_rank)
    if sf is not None:
        return tuple(code for code in codes if code not in sf)
    pair = max((rank for rank, count in counts.items() if count == 2), default=0)
    if pair < 11:
        flush = four_flush(codes)
        if flush is not None:
            return tuple(code for code in codes if code not in flush)
        if pair < 10:
            run = open_ended_four(codes, lowest_rank)
            if run is not None:
                return tuple(code for code in codes if code not in run)
    if pair:
        return tuple(code for code in codes if code >> 2 != pair)
    ordered = sorted(codes, reverse=True)
    keep = max(1, 5 - max_draw)
    return tuple(ordered[keep:])
