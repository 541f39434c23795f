"""The engine's fast paths give exactly what the readable rules give.

Each fast path (cheap event constructors, the international miss path, the display order, the
opening check, the two-hand comparison, the lazy state snapshots) is checked against the plain
definition it replaces, exhaustively where the space is small and on seeded samples otherwise.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from engine._frozen import fast_init
from engine._rank_core import five_card_value, shown_order
from engine._rank_tables import _nonflush_fast, _nonflush_international
from engine._table_rules import _bilateral_four, opening_cards
from engine.actions import Action, ActionKind, LegalAction
from engine.cards import Card, Suit, deck, parse_cards
from engine.events import ActionTaken, CardBurnt, CardsDealt, Street, StreetStarted
from engine.ranking import (
    Category,
    Ranking,
    beats,
    evaluate,
    fast_evaluator,
    value_of_five,
    winners_from_strengths,
)
from tests.engine.table_helpers import K, act, make_table, stacked

# ------------------------------------------------------------------------------------ events


def test_fast_init_keeps_the_dataclass_signature_and_frozenness() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Plain:
        a: int
        b: tuple[int, ...] = ()
        c: int | None = dataclasses.field(default=None, kw_only=True)

    @fast_init
    @dataclasses.dataclass(frozen=True, slots=True)
    class Fast:
        a: int
        b: tuple[int, ...] = ()
        c: int | None = dataclasses.field(default=None, kw_only=True)

    assert str(inspect.signature(Fast)) == str(inspect.signature(Plain))
    value = Fast(1, (2,), c=3)
    assert (value.a, value.b, value.c) == (1, (2,), 3)
    assert Fast(1) == Fast(1, ()) and hash(Fast(1)) == hash(Fast(1, ()))
    assert repr(Fast(1)).endswith("(a=1, b=(), c=None)")
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Fast()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Fast(1, (), 3)  # type: ignore[call-arg]


def test_fast_init_refuses_what_it_cannot_reproduce() -> None:
    with pytest.raises(TypeError):

        @fast_init
        @dataclasses.dataclass(frozen=True, slots=True)
        class WithFactory:
            items: list[int] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError):

        @fast_init
        @dataclasses.dataclass(frozen=True, slots=True)
        class WithPostInit:
            a: int

            def __post_init__(self) -> None:
                pass


def test_engine_values_build_like_plain_frozen_dataclasses() -> None:
    taken = ActionTaken(7, ActionKind.VEDO, 10, 10, 20, False)
    assert (taken.player, taken.kind, taken.put_in, taken.private_to) == (7, ActionKind.VEDO, 10, None)
    assert StreetStarted(Street.FLOP).board == ()
    assert CardsDealt(3, (), private_to=3).private_to == 3
    assert CardBurnt() == CardBurnt()
    assert Action(1, ActionKind.PASSO) == Action(1, ActionKind.PASSO, None, ())
    assert LegalAction(ActionKind.PAROL) == LegalAction(ActionKind.PAROL, 0, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        taken.amount = 5  # type: ignore[misc]
    assert dataclasses.replace(taken, player=8).player == 8


# ------------------------------------------------------------------------------------ ranking


@pytest.mark.parametrize("size", [5, 6, 7])
def test_nonflush_fast_path_agrees_with_the_reference_on_every_rank_multiset(size: int) -> None:
    multisets = [
        ranks
        for ranks in itertools.combinations_with_replacement(range(2, 15), size)
        if max(Counter(ranks).values()) <= 4
    ]
    if size == 7:  # 49,000 multisets: a seeded fifth keeps the suite fast
        multisets = random.Random(size).sample(multisets, len(multisets) // 5)
    for lowest in (2, 6):
        for ranks in multisets:
            if ranks[0] < lowest:
                continue
            codes = [4 * rank + i % 4 for i, rank in enumerate(ranks)]
            assert _nonflush_fast(codes, lowest) == _nonflush_international(ranks, lowest), ranks


def _reference_order(codes: Sequence[int], lowest: int) -> list[int]:
    """The display order as first written: a straight from its top (the minima's ace last),
    otherwise groups bigger first, then by code."""
    counts = Counter(code >> 2 for code in codes)
    distinct = sorted(counts, reverse=True)
    minima = distinct == [14, lowest + 3, lowest + 2, lowest + 1, lowest]
    if len(distinct) == 5 and (distinct[0] - distinct[4] == 4 or minima):
        return sorted(codes, key=lambda c: (c >> 2 != 14 or not minima, c), reverse=True)
    return sorted(codes, key=lambda c: (counts[c >> 2], c), reverse=True)


def test_display_order_agrees_with_the_reference_on_every_24_card_hand() -> None:
    for five in itertools.combinations(range(36, 60), 5):
        assert shown_order(five, 9) == _reference_order(five, 9)
        assert list(five_card_value(five, Ranking.ITALIANA, 9)[1]) == _reference_order(five, 9)


def test_display_order_puts_the_minima_ace_last() -> None:
    hand = parse_cards("Ah 7h 8h 9h Th")
    assert [str(c) for c in map(Card.from_code, shown_order([c.code for c in hand], 7))] == [
        str(c) for c in parse_cards("Th 9h 8h 7h Ah")
    ]


@pytest.mark.parametrize(("size", "ranking"), [(36, Ranking.ITALIANA), (52, Ranking.INTERNAZIONALE)])
def test_value_of_five_is_evaluate_without_the_checks(size: int, ranking: Ranking) -> None:
    lowest = 15 - size // 4
    strength = fast_evaluator(ranking, lowest).strength
    rng = random.Random(size)
    cards = deck(size)
    for _ in range(3000):
        hand = rng.sample(cards, 5)
        codes = [c.code for c in hand]
        assert value_of_five(codes, strength(codes), ranking, lowest) == evaluate(
            hand, ranking=ranking, lowest_rank=lowest
        )


def test_beats_is_the_two_hand_showdown_including_the_cycle() -> None:
    minima = evaluate(parse_cards("Ah 7h 8h 9h Th")).strength
    media = evaluate(parse_cards("8d 9d Td Jd Qd")).strength
    massima = evaluate(parse_cards("Ts Js Qs Ks As")).strength
    rng = random.Random(3)
    cards = deck(32)
    plain = [evaluate(rng.sample(cards, 5)).strength for _ in range(60)]
    for a, b in itertools.product([minima, media, massima, *plain], repeat=2):
        for suits in (True, False):
            expected = winners_from_strengths([a, b], Ranking.ITALIANA, suits=suits) == [0]
            assert beats(a, b, Ranking.ITALIANA, suits=suits) is expected
    assert beats(minima, massima, Ranking.ITALIANA) and beats(massima, media, Ranking.ITALIANA)


# ------------------------------------------------------------------------------------ opening


def _reference_opening(
    cards: Sequence[Card], level: int, ranking: Ranking, lowest: int
) -> tuple[Card, ...] | None:
    """rules §2.4 as first written: a pair of the level shows the pair, a better hand its five
    cards, otherwise a bilateral four-card straight flush."""
    value = evaluate(cards, ranking=ranking, lowest_rank=lowest)
    if value.category is Category.COPPIA:
        if value.ranks[0] >= level:
            return value.cards[:2]
        return _bilateral_four(cards, lowest)
    if value.category is Category.CARTA_ALTA:
        return _bilateral_four(cards, lowest)
    return value.cards


@pytest.mark.parametrize(
    ("size", "ranking"), [(32, Ranking.ITALIANA), (36, Ranking.ITALIANA), (52, Ranking.INTERNAZIONALE)]
)
def test_opening_check_agrees_with_the_full_evaluation(size: int, ranking: Ranking) -> None:
    lowest = 15 - size // 4
    rng = random.Random(size)
    cards = deck(size)
    hands = [rng.sample(cards, 5) for _ in range(1500)]
    for _ in range(300):  # four to a straight flush, often bilateral
        suit = Suit(rng.randrange(4))
        low = rng.randint(lowest, 11)
        run = [Card(rank, suit) for rank in range(low, low + 4)]
        hands.append([*run, rng.choice([c for c in cards if c not in run])])
    for hand in hands:
        for level in (11, 12, 13):
            found = opening_cards(hand, level, ranking, lowest)
            expected = _reference_opening(hand, level, ranking, lowest)
            assert (found is None) == (expected is None), hand
            if found is not None and expected is not None:
                assert sorted(found) == sorted(expected), hand


# ------------------------------------------------------------------------------------ table state


def test_to_dict_in_a_hand_is_one_dict_and_the_record_keeps_the_end_state() -> None:
    table = make_table(players=4)
    before = table.to_dict()
    table.start_hand(deck=stacked(["Jh Jd 7c 8c 9s", "7d 8d 9c Ts Qc", "7h 8h 9d Tc Kc", "7s 8s 9h Td Ac"]))
    during = table.to_dict()
    assert during == before and table.to_dict() is during
    assert table.hand_record()["start"] is during
    for player in (2, 2, 3, 4, 1):
        act(table, player, K.PASSO)  # no buio, then nobody opens: a void hand
    assert not table.hand_running
    end = table.to_dict()
    table.sit(5, 500)  # after the hand: not part of its record
    record = table.hand_record()
    assert record["end"] == end and record["start"] == before
    assert table.to_dict() != end
