"""Prize pools: every structure for every number of players, odd pools, the default structure."""

from __future__ import annotations

import pytest

from engine.errors import EngineError
from engine.tournament import PayoutStructure, default_structure, place_prizes, share_evenly

ALL = list(PayoutStructure)


@pytest.mark.parametrize("structure", ALL)
@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("pool", [0, 1, 2, 7, 99, 100, 101, 1003, 12_347])
def test_prizes_sum_to_the_pool_and_never_rise_down_the_places(
    structure: PayoutStructure, players: int, pool: int
) -> None:
    if structure.places > players:
        with pytest.raises(EngineError):
            place_prizes(pool, structure, players)
        return
    prizes = place_prizes(pool, structure, players)
    assert len(prizes) == players
    assert sum(prizes) == pool
    assert list(prizes) == sorted(prizes, reverse=True)
    assert all(p == 0 for p in prizes[structure.places :])
    exact = [pool * pct / 100 for pct in structure.percentages]
    assert all(abs(got - want) < 1 + 1e-9 for got, want in zip(prizes, exact, strict=False))


def test_odd_chips_go_to_the_better_places() -> None:
    assert place_prizes(101, PayoutStructure.SESSANTACINQUE, 5) == (66, 35, 0, 0, 0)  # 65.65 + 35.35
    assert place_prizes(7, PayoutStructure.CINQUANTA, 8)[:3] == (4, 2, 1)  # 3.5 + 2.1 + 1.4
    assert place_prizes(99, PayoutStructure.CINQUANTA, 9)[:3] == (
        50,
        30,
        19,
    )  # floors 49 + 29 + 19, two odd chips: 1st, 2nd
    assert place_prizes(1, PayoutStructure.CINQUANTA, 3) == (1, 0, 0)
    assert place_prizes(11, PayoutStructure.VINCITORE, 2) == (11, 0)


def test_default_structure_by_number_of_players() -> None:
    assert [default_structure(n) for n in range(2, 11)] == [
        PayoutStructure.VINCITORE,  # 2
        PayoutStructure.VINCITORE,
        PayoutStructure.VINCITORE,  # 4
        PayoutStructure.SESSANTACINQUE,  # 5
        PayoutStructure.SESSANTACINQUE,
        PayoutStructure.SESSANTACINQUE,  # 7
        PayoutStructure.CINQUANTA,  # 8
        PayoutStructure.CINQUANTA,
        PayoutStructure.CINQUANTA,
    ]


def test_structures_by_their_italian_names() -> None:
    assert PayoutStructure("vincitore").percentages == (100,)
    assert PayoutStructure("65-35").percentages == (65, 35)
    assert PayoutStructure("50-30-20").percentages == (50, 30, 20)


def test_share_evenly_gives_odd_chips_from_the_first_listed() -> None:
    assert share_evenly(85, [7, 3]) == {7: 43, 3: 42}
    assert share_evenly(100, [4, 5, 6]) == {4: 34, 5: 33, 6: 33}
    assert share_evenly(0, [1, 2]) == {1: 0, 2: 0}
