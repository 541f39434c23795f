"""The engine test helpers themselves: a stacked deck deals as written, seats in order."""

from __future__ import annotations

from tests.engine.table_helpers import make_table, stacked


def test_stacked_deals_one_card_at_a_time() -> None:
    deck = stacked(["Ah Kh", "Ad Kd"], "7c")
    assert [c.ascii for c in deck] == ["Ah", "Ad", "Kh", "Kd", "7c"]


def test_make_table_seats_players_in_order() -> None:
    table = make_table(players=3)
    assert [s.player for s in table.public_view().seats] == [1, 2, 3]
