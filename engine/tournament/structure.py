"""The stakes of a tournament, level by level, and how fast the levels go by.

A tournament raises the forced bets at fixed points so that it ends: the *invito* and the *cip* in
poker tradizionale (rules §2), the blinds in 32carte and texas (rules §3, §4; the cip is the big
blind, the small blind is half of it). A ``Schedule`` gives the stakes of any level number, so a
tournament never runs out of levels; a ``Ritmo`` says when the next level starts: after a number of
hands or after a number of minutes (the new stakes always apply from the next hand on).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from engine.errors import EngineError
from engine.italian import grouped
from engine.options import Variant

__all__ = [
    "DEFAULT_STACK_CIPS",
    "SCALA_STEPS",
    "Level",
    "Ritmo",
    "RitmoUnit",
    "Schedule",
    "ScheduleKind",
    "blinds_variant",
    "default_ritmo",
    "default_schedule",
    "default_stack",
]

# The standard tournament ladder inside one decade: 1, 1.5, 2, 3, 4, 6, 8, then 10, 15, 20, ...
SCALA_STEPS: tuple[Fraction, ...] = tuple(Fraction(n, 10) for n in (10, 15, 20, 30, 40, 60, 80))


def blinds_variant(variant: Variant) -> bool:
    """Whether the variant plays blinds (32carte, texas) rather than an invito (italiana)."""
    return variant is not Variant.ITALIANA


@dataclass(frozen=True, slots=True)
class Level:
    """The stakes of one level. ``invito`` is 0 in the blind variants (TableOptions ignores it)."""

    number: int
    cip: int
    invito: int

    @property
    def piccolo_buio(self) -> int:
        """The small blind of 32carte and texas: half the cip."""
        return self.cip // 2

    def describe(self, variant: Variant) -> str:
        """One Italian line for the table message: "livello 3: cip 20, invito 20"."""
        if blinds_variant(variant):
            return f"livello {self.number}: bui {grouped(self.piccolo_buio)}/{grouped(self.cip)}"
        return f"livello {self.number}: cip {grouped(self.cip)}, invito {grouped(self.invito)}"


class ScheduleKind(StrEnum):
    RADDOPPIO = "raddoppio"  # the stakes double at every level
    SCALA = "scala"  # the standard ladder 1-1.5-2-3-4-6-8-10-15-20-...


def _round_chips(value: Fraction, even: bool) -> int:
    """Whole chips, half rounded up; in the blind variants up to an even number so that the small
    blind is exactly half the big one."""
    chips = int(value + Fraction(1, 2))
    if even and chips % 2:
        chips += 1
    return max(chips, 2 if even else 1)


@dataclass(frozen=True, slots=True)
class Schedule:
    """The stakes of every level: level 1 plays ``cip`` and ``invito``, later levels scale both.

    ``raddoppio`` multiplies them by 2 at each level; ``scala`` follows the ladder of
    ``SCALA_STEPS`` (×10 every seven levels), rounded to whole chips (to even chips for blinds),
    each level's cip at least one chip (two with blinds) above the last.
    """

    variant: Variant
    kind: ScheduleKind = ScheduleKind.SCALA
    cip: int = 10
    invito: int = 10

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "variant", Variant(self.variant))
        except ValueError:
            raise EngineError(
                f"La variante «{self.variant}» non esiste: scegli italiana, 32carte o texas."
            ) from None
        try:
            object.__setattr__(self, "kind", ScheduleKind(self.kind))
        except ValueError:
            raise EngineError(f"La struttura «{self.kind}» non esiste: scegli raddoppio o scala.") from None
        for name in ("cip", "invito"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise EngineError(f"L'opzione {name} deve essere un numero intero.")
        if blinds_variant(self.variant):
            if self.cip < 2 or self.cip % 2:
                raise EngineError("Il grande buio deve essere un numero pari di almeno 2 fiches.")
            object.__setattr__(self, "invito", 0)
        elif self.cip < 1 or self.invito < 1:
            raise EngineError("Il cip e l'invito devono essere almeno 1 fiche.")

    def _factor(self, number: int) -> Fraction:
        if self.kind is ScheduleKind.RADDOPPIO:
            return Fraction(2) ** (number - 1)
        decade, step = divmod(number - 1, len(SCALA_STEPS))
        return SCALA_STEPS[step] * Fraction(10) ** decade

    def level(self, number: int) -> Level:
        """The stakes of level ``number`` (1 is the first)."""
        if number < 1:
            raise ValueError(f"level numbers start at 1, not {number}")
        even = blinds_variant(self.variant)
        cip = 0
        # Small first stakes round two steps to the same chips (1.5 × 2 is 3, up to an even 4, as 2 × 2):
        # each level is at least one chip (two with blinds) above the last, so a new level always raises.
        for n in range(1, number + 1):
            cip = max(_round_chips(self.cip * self._factor(n), even), cip + (2 if even else 1))
        invito = 0 if even else _round_chips(self.invito * self._factor(number), False)
        return Level(number, cip, invito)

    def levels(self, count: int) -> tuple[Level, ...]:
        """The first ``count`` levels (for the announcement of a new tournament)."""
        return tuple(self.level(n) for n in range(1, count + 1))


class RitmoUnit(StrEnum):
    MANI = "mani"
    MINUTI = "minuti"


@dataclass(frozen=True, slots=True)
class Ritmo:
    """A new level every ``every`` hands or every ``every`` minutes of play."""

    every: int
    unit: RitmoUnit = RitmoUnit.MANI

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "unit", RitmoUnit(self.unit))
        except ValueError:
            raise EngineError(f"Il ritmo «{self.unit}» non esiste: scegli mani o minuti.") from None
        if not isinstance(self.every, int) or isinstance(self.every, bool) or self.every < 1:
            raise EngineError("Il ritmo deve essere un numero intero di almeno 1.")

    @property
    def by_time(self) -> bool:
        return self.unit is RitmoUnit.MINUTI

    @property
    def seconds(self) -> int:
        """The length of a level in seconds (time-based ritmo only)."""
        return self.every * 60


# Defaults: 100 times the first cip each (100 big blinds in 32carte and texas), the ladder, a new
# level every 10 hands. Hands rather than minutes by default: hands on Discord take from seconds to
# minutes, and a hand count keeps the stakes tied to the play itself (and needs no clock across
# restarts).
DEFAULT_STACK_CIPS = 100
"""Without a chosen stack, every entrant starts with this many times the first level's cip."""
_DEFAULT_STAKES: dict[Variant, tuple[int, int]] = {  # cip, invito
    Variant.ITALIANA: (10, 10),
    Variant.TRENTADUE: (20, 0),
    Variant.TEXAS: (20, 0),
}


def default_schedule(variant: Variant) -> Schedule:
    cip, invito = _DEFAULT_STAKES[Variant(variant)]
    return Schedule(Variant(variant), ScheduleKind.SCALA, cip, invito)


def default_stack(variant: Variant, cip: int | None = None) -> int:
    """The starting stack for a first cip (the variant's default cip when None)."""
    return DEFAULT_STACK_CIPS * (_DEFAULT_STAKES[Variant(variant)][0] if cip is None else cip)


def default_ritmo() -> Ritmo:
    return Ritmo(10, RitmoUnit.MANI)
