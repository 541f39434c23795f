"""Sit-and-go tournaments for the three variants: levels, payouts and the tournament state.

Pure standard library, like the rest of the engine. ``Tournament`` is the state machine;
``seating`` connects it to a ``Table``; ``simulation`` plays whole tournaments at random
(``python -m engine.simulate --torneo``).
"""

from __future__ import annotations

from engine.tournament.events import LevelUp, PlayerEliminated, Standing, TournamentEvent, TournamentFinished
from engine.tournament.payouts import PayoutStructure, default_structure, place_prizes, share_evenly
from engine.tournament.seating import (
    close_hand,
    come_back,
    deal,
    release_carried_pot,
    restake,
    seat_entrants,
    step_away,
)
from engine.tournament.state import Phase, Tournament, TournamentConfig, TournamentDict
from engine.tournament.structure import (
    DEFAULT_STACK_CIPS,
    Level,
    Ritmo,
    RitmoUnit,
    Schedule,
    ScheduleKind,
    default_ritmo,
    default_schedule,
    default_stack,
)

__all__ = [
    "DEFAULT_STACK_CIPS",
    "Level",
    "LevelUp",
    "PayoutStructure",
    "Phase",
    "PlayerEliminated",
    "Ritmo",
    "RitmoUnit",
    "Schedule",
    "ScheduleKind",
    "Standing",
    "Tournament",
    "TournamentConfig",
    "TournamentDict",
    "TournamentEvent",
    "TournamentFinished",
    "close_hand",
    "come_back",
    "deal",
    "default_ritmo",
    "default_schedule",
    "default_stack",
    "default_structure",
    "place_prizes",
    "release_carried_pot",
    "restake",
    "seat_entrants",
    "share_evenly",
    "step_away",
]
