"""Every five-card hand of a deck, counted by category against combinatorics done by hand.

A deck of k ranks and four suits has k - 3 straight rank sets: the k - 4 runs of five consecutive
ranks and the minima (the ace just below the lowest rank). The formulas below are the textbook
counts generalised to k ranks; they do not come from the evaluator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations, starmap
from math import comb

import pytest

from engine.cards import deck, lowest_rank_for_deck
from engine.ranking import CATEGORY_SHIFT, Category, Ranking, category_of, fast_evaluator


def expected_counts(ranks: int) -> dict[Category, int]:
    k = ranks
    straight_sets = k - 3
    suit_patterns = 4**5 - 4  # five distinct ranks, not all of one suit
    return {
        Category.SCALA_REALE: 4 * straight_sets,
        Category.POKER: k * (k - 1) * 4,
        Category.COLORE: 4 * (comb(k, 5) - straight_sets),
        Category.FULL: k * comb(4, 3) * (k - 1) * comb(4, 2),
        Category.SCALA: straight_sets * suit_patterns,
        Category.TRIS: k * comb(4, 3) * comb(k - 1, 2) * 4**2,
        Category.DOPPIA_COPPIA: comb(k, 2) * comb(4, 2) ** 2 * (k - 2) * 4,
        Category.COPPIA: k * comb(4, 2) * comb(k - 1, 3) * 4**3,
        Category.CARTA_ALTA: (comb(k, 5) - straight_sets) * suit_patterns,
    }


def counts_by_category(strengths: Iterable[int], ranking: Ranking) -> dict[Category, int]:
    counted = Counter(strength >> CATEGORY_SHIFT for strength in strengths)
    return {category_of(position << CATEGORY_SHIFT, ranking): n for position, n in counted.items()}


@pytest.mark.parametrize("size", [32, 36, 40])
def test_italian_category_counts_over_every_hand(size: int) -> None:
    low = lowest_rank_for_deck(size)
    expected = expected_counts(15 - low)
    assert sum(expected.values()) == comb(size, 5)
    evaluator = fast_evaluator(Ranking.ITALIANA, low)
    codes = sorted((card.code for card in deck(size)), reverse=True)  # combinations stay descending
    strengths = list(starmap(evaluator.five_desc, combinations(codes, 5)))
    counted = Counter(strength >> CATEGORY_SHIFT for strength in strengths)
    assert {
        category_of(position << CATEGORY_SHIFT, Ranking.ITALIANA): n for position, n in counted.items()
    } == expected
    # Why the Italian order puts the colore above the full: in a short deck it is the rarer hand.
    assert expected[Category.COLORE] < expected[Category.FULL]


def test_international_category_counts_over_all_2598960_hands() -> None:
    expected = expected_counts(13)
    assert expected[Category.CARTA_ALTA] == 1_302_540  # the textbook figures, as a check on the formulas
    assert expected[Category.COPPIA] == 1_098_240
    assert expected[Category.SCALA_REALE] == 40
    evaluator = fast_evaluator(Ranking.INTERNAZIONALE, 2)
    codes = [card.code for card in deck(52)]
    counted = Counter(
        strength >> CATEGORY_SHIFT for strength in starmap(evaluator.five, combinations(codes, 5))
    )
    by_category = {
        category_of(position << CATEGORY_SHIFT, Ranking.INTERNAZIONALE): n for position, n in counted.items()
    }
    assert by_category == expected
    assert sum(by_category.values()) == 2_598_960
