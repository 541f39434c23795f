"""How the prize pool (the buy-ins) is shared among the best places.

Three structures: ``vincitore`` (the winner takes all), ``65-35`` and ``50-30-20``. The default
depends on the number of entrants, so that about one player in three is paid: up to 4 players the
winner takes all, 5 to 7 pay two places, 8 or more pay three.

Chips are whole (rules §5.1): each place gets the floor of its percentage of the pool and the odd
chips left over go one each to the better places, from the first; the prizes always add up to the
pool exactly. Players who tie for places share the sum of those places' prizes evenly; the odd
chips of that share go one each in registration order (the earlier entrant first), an order
fixed before the first hand that every player can see.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from engine.errors import EngineError

__all__ = ["PayoutStructure", "default_structure", "place_prizes", "share_evenly"]


class PayoutStructure(StrEnum):
    VINCITORE = "vincitore"
    SESSANTACINQUE = "65-35"
    CINQUANTA = "50-30-20"

    @property
    def percentages(self) -> tuple[int, ...]:
        return _PERCENTAGES[self]

    @property
    def places(self) -> int:
        """How many places are paid."""
        return len(_PERCENTAGES[self])


_PERCENTAGES: dict[PayoutStructure, tuple[int, ...]] = {
    PayoutStructure.VINCITORE: (100,),
    PayoutStructure.SESSANTACINQUE: (65, 35),
    PayoutStructure.CINQUANTA: (50, 30, 20),
}


def default_structure(players: int) -> PayoutStructure:
    """≤ 4 entrants: winner takes all; 5-7: 65-35; ≥ 8: 50-30-20."""
    if players <= 4:
        return PayoutStructure.VINCITORE
    if players <= 7:
        return PayoutStructure.SESSANTACINQUE
    return PayoutStructure.CINQUANTA


def place_prizes(pool: int, structure: PayoutStructure, players: int) -> tuple[int, ...]:
    """The prize of every place, 1st to last (0 for the unpaid ones); the sum is ``pool``."""
    if pool < 0:
        raise ValueError(f"negative prize pool {pool}")
    structure = PayoutStructure(structure)
    if structure.places > players:
        raise EngineError(
            f"La ripartizione {structure} paga {structure.places} posti: servono almeno "
            f"{structure.places} giocatori."
        )
    paid = [pool * pct // 100 for pct in structure.percentages]
    for i in range(pool - sum(paid)):  # fewer odd chips than paid places: each pct floors by < 1
        paid[i % len(paid)] += 1
    return tuple(paid) + (0,) * (players - len(paid))


def share_evenly(total: int, players: Sequence[int]) -> dict[int, int]:
    """``total`` split evenly among ``players``; the odd chips one each from the first listed."""
    base, odd = divmod(total, len(players))
    return {player: base + (1 if i < odd else 0) for i, player in enumerate(players)}
