"""The pot splitter (rules §5): layers, dead money, uncalled excess, odd chips."""

from __future__ import annotations

import pytest

from engine.pots import Pot, build_pots, split, uncalled_excess


def test_equal_contributions_make_one_pot() -> None:
    assert build_pots([50, 50, 50], [True, True, True]) == [Pot(150, (0, 1, 2))]


def test_side_pots_by_layers() -> None:
    pots = build_pots([50, 100, 200, 200], [True, True, True, True])
    assert pots == [Pot(200, (0, 1, 2, 3)), Pot(150, (1, 2, 3)), Pot(200, (2, 3))]


def test_folded_chips_are_dead_money_in_the_layers_they_reached() -> None:
    pots = build_pots([30, 100, 100, 60], [False, True, True, False])
    assert pots == [Pot(290, (1, 2))]


def test_dead_money_goes_to_the_main_pot_contested_by_everyone_live() -> None:
    pots = build_pots([0, 40, 40], [True, True, True], dead=25)
    assert pots == [Pot(25, (0, 1, 2)), Pot(80, (1, 2))]
    assert build_pots([40, 40], [True, True], dead=10) == [Pot(90, (0, 1))]


def test_chips_above_every_live_player_join_the_layer_below() -> None:
    # Player 0 bet 100 then left (folded); the live all-in reached only 50.
    pots = build_pots([100, 50, 50], [False, True, True])
    assert pots == [Pot(200, (1, 2))]


def test_pots_never_create_or_lose_chips() -> None:
    contributions = [17, 0, 93, 93, 5, 250]
    live = [True, False, True, False, True, True]
    assert sum(p.amount for p in build_pots(contributions, live, dead=11)) == sum(contributions) + 11


def test_uncalled_excess_goes_back_to_a_live_bettor() -> None:
    assert uncalled_excess([300, 100, 0], [True, True, True]) == (0, 200)
    assert uncalled_excess([100, 100], [True, True]) is None
    assert uncalled_excess([300, 100], [False, True]) is None


def test_odd_chips_go_to_the_first_winners_clockwise_from_the_dealers_left() -> None:
    # Clockwise from the dealer's left: seats 2, 0, 1.
    assert split(10, [0, 1, 2], order=[2, 0, 1]) == [3, 3, 4]
    assert split(11, [0, 1, 2], order=[2, 0, 1]) == [4, 3, 4]
    assert split(9, [1], order=[0, 1]) == [9]


def test_split_needs_a_winner() -> None:
    with pytest.raises(ValueError):
        split(10, [], order=[0, 1])
