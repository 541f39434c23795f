"""One table class per game, each a small layer over the shared ones (``engine.table``)."""

from __future__ import annotations

from engine.options import TableOptions, Variant
from engine.ranking import Ranking
from engine.table import Table
from engine.variants.italiana import ItalianaTable
from engine.variants.texas import TexasTable
from engine.variants.trentadue import TrentadueTable

__all__ = ["ItalianaTable", "TexasTable", "TrentadueTable", "deck_for", "table_class"]

_CLASSES: dict[Variant, type[Table]] = {
    Variant.ITALIANA: ItalianaTable,
    Variant.TRENTADUE: TrentadueTable,
    Variant.TEXAS: TexasTable,
}


def table_class(variant: Variant) -> type[Table]:
    """The table class that plays ``variant``."""
    return _CLASSES[variant]


def deck_for(options: TableOptions, players: int) -> tuple[int, Ranking]:
    """Deck size and ranking of a hand of ``options`` dealt to ``players`` (rules §2, §3, §4): the
    game's own rule, asked of an empty table of that game."""
    return table_class(options.variant)(options).deck_for(players)
