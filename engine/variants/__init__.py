"""One table class per game, each a small layer over the shared ones (``engine.table``)."""

from __future__ import annotations

from engine.options import Variant
from engine.table import Table
from engine.variants.italiana import ItalianaTable
from engine.variants.texas import TexasTable
from engine.variants.trentadue import TrentadueTable

__all__ = ["ItalianaTable", "TexasTable", "TrentadueTable", "table_class"]

_CLASSES: dict[Variant, type[Table]] = {
    Variant.ITALIANA: ItalianaTable,
    Variant.TRENTADUE: TrentadueTable,
    Variant.TEXAS: TexasTable,
}


def table_class(variant: Variant) -> type[Table]:
    """The table class that plays ``variant``."""
    return _CLASSES[variant]
