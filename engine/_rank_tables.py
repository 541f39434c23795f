"""Precomputed tables behind the fast evaluation of ``engine.ranking``.

Two techniques, both built lazily (per ranking and lowest rank) on first use and cached:

* **Italian five-card hands: a perfect-hash array.** Every five-card hand of the deck has a colex
  index computed from its card codes in descending order (``K1[a] + K2[b] + ... + K5[e]``, with
  ``x = 59 - code`` so that every short deck is a prefix of the 52-card one). ``array('I')`` maps
  the index to the full strength, suit tie-break included. The build walks rank multisets (a few
  hundred) and only fills in suit combinations, so it costs tens of milliseconds for 32 cards.
  Memory: 4 bytes per hand (0.8 MB for 32 cards, 2.6 MB for 40, 10 MB for 52).
* **International hands of 5 to 7 cards: rank-multiset sums.** Each card adds ``5**(rank-2)``
  above bit 16 and 1 to a 4-bit counter of its suit. The sum is one integer: its high part is a
  key of the rank multiset (a dict of about 49,000 entries for seven cards, holding the best
  non-flush hand), its low part tells in one ``&`` whether five cards share a suit. Flushes
  (about 3 % of 7-card hands) take a slower path over the flush suit's rank bits. In seven cards a
  flush excludes poker and full, so the flush path never needs the multiset table.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb

from engine._rank_core import RANK_SHIFT, Category, Ranking, five_card_value, strength_of

__all__ = ["Evaluator", "evaluator"]

# Colex weights: K[j][code] = C(59 - code, j). Position j = 1 is the highest code of the hand.
_K: list[list[int]] = [[comb(59 - code, j) for code in range(60)] for j in range(6)]

# International sums: rank digit in base 5 above bit 16, a 4-bit counter per suit below.
_SUM_SHIFT = 16
_SUIT_OFFSET = 0x3333  # 3 in each suit counter: a count of 5 or more sets that counter's bit 3
_FLUSH_BITS = 0x8888
_CARD_SUM: list[int] = [
    ((5 ** ((code >> 2) - 2)) << _SUM_SHIFT) | (1 << (4 * (code & 3))) if code >= 8 else 0
    for code in range(60)
]
# The first card of a hand also brings the suit offset, which saves one addition per hand.
_FIRST_CARD_SUM: list[int] = [value + _SUIT_OFFSET for value in _CARD_SUM]


def _starts(groups: Sequence[tuple[int, int]]) -> list[int]:
    """The colex position (1 = highest card) of the first card of each (rank, count) group."""
    starts, position = [], 1
    for _, count in groups:
        starts.append(position)
        position += count
    return starts


@cache
def _group_choices(rank: int, count: int, position: int) -> list[tuple[int, int]]:
    """Each way to pick the suits of ``count`` cards of ``rank``: its colex part and its best suit."""
    choices = []
    for suits in combinations(range(3, -1, -1), count):  # each choice in descending order
        part = sum(_K[position + t][4 * rank + suit] for t, suit in enumerate(suits))
        choices.append((part, suits[0]))
    return choices


def _italian_table(lowest_rank: int) -> array[int]:
    """The strength of every five-card hand of the deck from ``lowest_rank`` to the aces, by colex index.

    Works through rank multisets: the strength of a multiset without its suit is computed once by
    the reference evaluator; each suit choice of the deciding group adds its best suit, and the
    four one-suit choices of five distinct ranks are overwritten with the colore/scala reale.
    """
    ranking = Ranking.ITALIANA
    size = 4 * (15 - lowest_rank)
    table = array("I", bytes(4 * comb(size, 5)))
    for multiset in combinations_with_replacement(range(14, lowest_rank - 1, -1), 5):
        counts = Counter(multiset)
        if max(counts.values()) > 4:
            continue
        groups = list(counts.items())  # descending ranks, as the multiset is
        representative = [4 * rank + suit for rank, count in groups for suit in range(count)]
        if len(groups) == 5:
            representative[0] += 1  # not a flush
        base, order = five_card_value(representative, ranking, lowest_rank)
        base &= ~3
        deciding_rank = order[0] >> 2

        starts = _starts(groups)
        choices = [
            _group_choices(rank, count, start) for (rank, count), start in zip(groups, starts, strict=True)
        ]
        deciding = next(i for i, (rank, _) in enumerate(groups) if rank == deciding_rank)
        others = [0]
        for i, group in enumerate(choices):
            if i != deciding:
                others = [other + part for other in others for part, _ in group]
        for part, suit in choices[deciding]:
            value = base | suit
            for other in others:
                table[part + other] = value

        if len(groups) == 5:
            flush_base = five_card_value([4 * rank for rank, _ in groups], ranking, lowest_rank)[0]
            for suit in range(4):
                index = sum(_K[t + 1][4 * rank + suit] for t, (rank, _) in enumerate(groups))
                table[index] = flush_base | suit
    return table


def _nonflush_international(ranks: Sequence[int], lowest_rank: int) -> int:
    """The best five of 5..7 ranks (a multiset) when no five cards share a suit.

    The readable reference; the evaluator fills its table with ``_nonflush_fast`` (checked
    against this one on every multiset by the tests).
    """
    counts = Counter(ranks)
    distinct = sorted(counts, reverse=True)
    present = set(distinct)
    top = next((t for t in distinct if all(t - i in present for i in range(1, 5))), None)
    if top is None and 14 in present and all(lowest_rank + i in present for i in range(4)):
        top = lowest_rank + 3
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    first, first_count = groups[0]
    rest = [r for r in distinct if r != first]
    if first_count == 4:
        return strength_of(Ranking.INTERNAZIONALE, Category.POKER, [first, rest[0]])
    if first_count == 3 and groups[1][1] >= 2:
        pair = max(r for r, c in groups[1:] if c >= 2)
        return strength_of(Ranking.INTERNAZIONALE, Category.FULL, [first, pair])
    if top is not None:
        return strength_of(Ranking.INTERNAZIONALE, Category.SCALA, [top])
    if first_count == 3:
        return strength_of(Ranking.INTERNAZIONALE, Category.TRIS, [first, *rest[:2]])
    if first_count == 2 and groups[1][1] == 2:
        second = groups[1][0]
        kicker = max(r for r in distinct if r not in (first, second))
        return strength_of(Ranking.INTERNAZIONALE, Category.DOPPIA_COPPIA, [first, second, kicker])
    if first_count == 2:
        return strength_of(Ranking.INTERNAZIONALE, Category.COPPIA, [first, *rest[:3]])
    return strength_of(Ranking.INTERNAZIONALE, Category.CARTA_ALTA, distinct[:5])


_POKER = strength_of(Ranking.INTERNAZIONALE, Category.POKER, [])
_FULL = strength_of(Ranking.INTERNAZIONALE, Category.FULL, [])
_SCALA = strength_of(Ranking.INTERNAZIONALE, Category.SCALA, [])
_TRIS = strength_of(Ranking.INTERNAZIONALE, Category.TRIS, [])
_DOPPIA = strength_of(Ranking.INTERNAZIONALE, Category.DOPPIA_COPPIA, [])
_COPPIA = strength_of(Ranking.INTERNAZIONALE, Category.COPPIA, [])
_ALTA = strength_of(Ranking.INTERNAZIONALE, Category.CARTA_ALTA, [])


def _digits(ranks: Sequence[int]) -> int:
    """Up to five rank digits, most significant first, at their place in a strength."""
    value = 0
    for i, rank in enumerate(ranks[:5]):
        value |= rank << (RANK_SHIFT + 16 - 4 * i)
    return value


def _nonflush_fast(codes: Sequence[int], lowest_rank: int) -> int:
    """``_nonflush_international`` from card codes, without ``Counter`` and sorting: it runs on
    every first sight of a rank multiset, which a fresh process meets thousands of times."""
    counts = [0] * 15
    for code in codes:
        counts[code >> 2] += 1
    singles: list[int] = []
    pairs: list[int] = []
    trips: list[int] = []
    quads: list[int] = []
    groups = (singles, singles, pairs, trips, quads)
    distinct: list[int] = []
    for rank in range(14, 1, -1):
        count = counts[rank]
        if count:
            groups[count].append(rank)
            distinct.append(rank)
    if quads:
        first = quads[0]
        return _POKER | _digits([first, next(r for r in distinct if r != first)])
    if trips and (len(trips) > 1 or pairs):
        return _FULL | _digits([trips[0], max(trips[1:] + pairs)])
    if len(distinct) >= 5:
        run = 0
        previous = 0
        for rank in distinct:
            run = run + 1 if rank == previous - 1 else 1
            previous = rank
            if run == 5:
                return _SCALA | _digits([rank + 4])
        if counts[14] and all(counts[lowest_rank + i] for i in range(4)):
            return _SCALA | _digits([lowest_rank + 3])
    if trips:
        first = trips[0]
        return _TRIS | _digits([first, *[r for r in distinct if r != first][:2]])
    if len(pairs) >= 2:
        first, second = pairs[0], pairs[1]
        kicker = next(r for r in distinct if r != first and r != second)
        return _DOPPIA | _digits([first, second, kicker])
    if pairs:
        first = pairs[0]
        return _COPPIA | _digits([first, *[r for r in distinct if r != first][:3]])
    return _ALTA | _digits(distinct)


def _ranks_of_key(key: int) -> list[int]:
    """The rank multiset of a sum key (base-5 digits, rank 2 first)."""
    ranks = []
    rank = 2
    while key:
        key, count = divmod(key, 5)
        ranks.extend([rank] * count)
        rank += 1
    return ranks


def _flush_international(rank_bits: int, lowest_rank: int) -> int:
    """The best five of 5..7 cards of one suit, given as bits ``1 << rank``."""
    ranks = [r for r in range(14, 1, -1) if rank_bits >> r & 1]
    present = set(ranks)
    top = next((t for t in ranks if all(t - i in present for i in range(1, 5))), None)
    if top is None and 14 in present and all(lowest_rank + i in present for i in range(4)):
        top = lowest_rank + 3
    if top is not None:
        return strength_of(Ranking.INTERNAZIONALE, Category.SCALA_REALE, [top])
    return strength_of(Ranking.INTERNAZIONALE, Category.COLORE, ranks[:5])


class Evaluator:
    """Fast strengths for one ranking and one deck (its lowest rank).

    The fastest entry points take card codes (``Card.code``); bind them once
    (``five = evaluator(...).five_desc``) and call them in a loop.

    * ``five_desc(a, b, c, d, e)``: Italian only; five codes in **descending** order.
    * ``seven(a, b, c, d, e, f, g)`` and ``five(a, b, c, d, e)``: international only; codes in
      any order.
    * ``strength(codes)``: any order, any supported count (Italian 5; international 5..7).
    * ``strengths(hands)``: the same for several hands at once (what ``showdown`` uses).
    """

    def __init__(self, ranking: Ranking, lowest_rank: int) -> None:
        self.ranking = ranking
        self.lowest_rank = lowest_rank
        if ranking is Ranking.ITALIANA:
            self._init_italian()
        else:
            self._init_international()

    def _init_italian(self) -> None:
        table = _italian_table(self.lowest_rank)
        k1, k2, k3, k4, k5 = _K[1:6]
        # The colex weights of the first two and of the next two cards, summed in advance: two
        # list look-ups replace two look-ups and an addition (which allocates a new int), about
        # 15 % of a call. Nested lists, 3,600 entries each: small enough to stay in cache.
        k12 = [[k1[x] + k2[y] for y in range(60)] for x in range(60)]
        k34 = [[k3[x] + k4[y] for y in range(60)] for x in range(60)]

        def five_desc(
            a: int, b: int, c: int, d: int, e: int, t: array[int] = table, k12: list[list[int]] = k12,
            k34: list[list[int]] = k34, k5: list[int] = k5,
        ) -> int:  # fmt: skip
            return t[k12[a][b] + k34[c][d] + k5[e]]

        def strength(codes: Sequence[int]) -> int:
            if len(codes) != 5:
                raise ValueError("The Italian ranking values exactly five cards.")
            a, b, c, d, e = sorted(codes)  # ascending: the weights are applied the other way round
            return table[k12[e][d] + k34[c][b] + k5[a]]

        def strengths(hands: Sequence[Sequence[int]]) -> list[int]:
            return [table[k12[e][d] + k34[c][b] + k5[a]] for a, b, c, d, e in map(sorted, hands)]

        self.five_desc: Callable[[int, int, int, int, int], int] = five_desc
        self.strength: Callable[[Sequence[int]], int] = strength
        self.strengths: Callable[[Sequence[Sequence[int]]], list[int]] = strengths

    def _init_international(self) -> None:
        low = self.lowest_rank
        sums, first = _CARD_SUM, _FIRST_CARD_SUM
        # Filled on demand (a miss costs a few microseconds): building all 50,000 seven-card
        # multisets up front would cost the first Hold'em hand close to a second.
        nonflush: dict[int, int] = {}
        flushes: dict[int, int] = {}

        def nonflush_value(key: int, codes: Sequence[int]) -> int:
            value = nonflush[key] = _nonflush_fast(codes, low)
            return value

        def flush_value(codes: Sequence[int], total: int) -> int:
            """The slow path, for a ``total`` (suit offset included) with five cards of one suit."""
            suit = next(s for s in range(4) if total >> (4 * s) & 8)
            bits = 0
            for code in codes:
                if code & 3 == suit:
                    bits |= 1 << (code >> 2)
            value = flushes.get(bits)
            if value is None:
                value = flushes[bits] = _flush_international(bits, low)
            return value

        # Literals rather than the module constants: a constant load is cheaper than a global one.
        assert _FLUSH_BITS == 0x8888 and _SUM_SHIFT == 16

        def seven(
            a: int, b: int, c: int, d: int, e: int, f: int, g: int, v0: list[int] = first,
            v: list[int] = sums, nf: dict[int, int] = nonflush,
        ) -> int:  # fmt: skip
            total = v0[a] + v[b] + v[c] + v[d] + v[e] + v[f] + v[g]
            if total & 0x8888:
                return flush_value((a, b, c, d, e, f, g), total)
            try:
                return nf[total >> 16]
            except KeyError:
                return nonflush_value(total >> 16, (a, b, c, d, e, f, g))

        def five(
            a: int, b: int, c: int, d: int, e: int, v0: list[int] = first, v: list[int] = sums,
            nf: dict[int, int] = nonflush,
        ) -> int:  # fmt: skip
            total = v0[a] + v[b] + v[c] + v[d] + v[e]
            if total & 0x8888:
                return flush_value((a, b, c, d, e), total)
            try:
                return nf[total >> 16]
            except KeyError:
                return nonflush_value(total >> 16, (a, b, c, d, e))

        def strength(codes: Sequence[int]) -> int:
            if not 5 <= len(codes) <= 7:
                raise ValueError("The international ranking values five to seven cards.")
            total = sum(sums[code] for code in codes) + _SUIT_OFFSET
            if total & _FLUSH_BITS:
                return flush_value(codes, total)
            value = nonflush.get(total >> _SUM_SHIFT)
            return nonflush_value(total >> _SUM_SHIFT, codes) if value is None else value

        def strengths(hands: Sequence[Sequence[int]]) -> list[int]:
            return [strength(codes) for codes in hands]

        self.seven: Callable[[int, int, int, int, int, int, int], int] = seven
        self.five: Callable[[int, int, int, int, int], int] = five
        self.strength = strength
        self.strengths = strengths


@cache
def evaluator(ranking: Ranking, lowest_rank: int) -> Evaluator:
    """The cached evaluator of one ranking and deck; its tables are built on the first call."""
    return Evaluator(Ranking(ranking), lowest_rank)
