"""The words a player says at the table, and the legal ranges the engine offers.

Amount units follow DESIGN.md: ``APRO``, ``PUNTO``, ``BUIO`` and ``CONTROBUIO`` name the chips put
in; ``RILANCIO`` names the raise over the call ("vedo e rilancio di 20").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine._frozen import fast_init
from engine.cards import Card

__all__ = ["Action", "ActionKind", "BetSizes", "LegalAction"]


class ActionKind(StrEnum):
    APRO = "apro"
    PASSO = "passo"
    VEDO = "vedo"
    RILANCIO = "rilancio"
    PAROL = "parol"
    PUNTO = "punto"
    SERVITO = "servito"
    CAMBIO = "cambio"
    BUIO = "buio"
    CONTROBUIO = "controbuio"

    @property
    def word(self) -> str:
        """The word as players say it and type it (/paròl): the value without its accent is the
        machine name, kept for custom ids, stored histories and the command-line tools."""
        return "paròl" if self is ActionKind.PAROL else self.value


@fast_init
@dataclass(frozen=True, slots=True)
class Action:
    """One decision: ``cards`` are the discards of ``CAMBIO``; ``amount`` as in the module doc."""

    player: int
    kind: ActionKind
    amount: int | None = None
    cards: tuple[Card, ...] = ()


@fast_init
@dataclass(frozen=True, slots=True)
class LegalAction:
    """What the player to act may say. ``min``/``max`` are amounts for bets and raises, the
    number of cards for ``CAMBIO``, and 0 for words without an amount."""

    kind: ActionKind
    min: int = 0
    max: int = 0


@dataclass(frozen=True, slots=True)
class BetSizes:
    """The amounts players name instead of a number, for one bet or raise, in the unit of its kind:
    ``minimum`` (*cip*), ``pot`` (*piatto*: the pot after his call, kept inside the legal range) and
    ``all_in`` (*tutto*: his whole stack, which the engine still refuses above a pot limit)."""

    minimum: int
    pot: int
    all_in: int
