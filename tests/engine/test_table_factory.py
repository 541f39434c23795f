"""``Table(options)`` is a factory: each game is its own class, every one of them a ``Table``."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from engine.options import TableOptions, Variant
from engine.table import Table
from engine.variants import ItalianaTable, TexasTable, TrentadueTable, table_class

GAMES = [(Variant.ITALIANA, ItalianaTable), (Variant.TRENTADUE, TrentadueTable), (Variant.TEXAS, TexasTable)]


@pytest.mark.parametrize(("variant", "cls"), GAMES)
def test_table_returns_the_games_class(variant: Variant, cls: type[Table]) -> None:
    table = Table(TableOptions(variant=variant), rng=random.Random(1))
    assert type(table) is cls and isinstance(table, Table)
    assert table_class(variant) is cls


@pytest.mark.parametrize(("variant", "cls"), GAMES)
def test_a_saved_table_comes_back_as_its_games_class(variant: Variant, cls: type[Table]) -> None:
    table = Table(TableOptions(variant=variant))
    table.sit(1, 100)
    assert type(Table.from_dict(table.to_dict())) is cls
    assert type(cls.from_dict(table.to_dict())) is cls


def test_copies_and_pickles_keep_the_class_and_the_hand() -> None:
    table = Table(TableOptions(variant=Variant.TEXAS), rng=random.Random(3))
    for player in (1, 2, 3):
        table.sit(player, 200)
    table.start_hand()
    for other in (copy.deepcopy(table), pickle.loads(pickle.dumps(table))):
        assert type(other) is TexasTable
        assert other.legal_actions() == table.legal_actions()
        assert other.hand_record() == table.hand_record()


def test_table_without_options_is_refused() -> None:
    with pytest.raises(TypeError):
        Table()  # type: ignore[call-arg]
