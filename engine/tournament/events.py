"""What a tournament tells the channel at a hand boundary, one frozen value per thing."""

from __future__ import annotations

from dataclasses import dataclass

from engine.tournament.structure import Level

__all__ = ["LevelUp", "PlayerEliminated", "Standing", "TournamentEvent", "TournamentFinished"]


@dataclass(frozen=True, slots=True)
class TournamentEvent:
    """Base of the tournament's events."""


@dataclass(frozen=True, slots=True)
class LevelUp(TournamentEvent):
    """The stakes rise: ``level`` applies from the next hand (``previous`` was the level number
    before; more than one level may pass at once when a time-based level ran out long ago)."""

    level: Level
    previous: int


@dataclass(frozen=True, slots=True)
class PlayerEliminated(TournamentEvent):
    """A player lost his last chip. ``tied_with`` lists the players busted in the same hand with
    the same starting stack, who share ``place`` and the prizes of their places."""

    player: int
    place: int
    prize: int
    tied_with: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings: ``place`` is ``None`` while the player is still in the game."""

    player: int
    place: int | None
    prize: int
    stack: int


@dataclass(frozen=True, slots=True)
class TournamentFinished(TournamentEvent):
    """The last hand is over: every entrant's place and prize, best first, and the prize of each
    place (``prizes[0]`` is the first's)."""

    standings: tuple[Standing, ...]
    prizes: tuple[int, ...]
