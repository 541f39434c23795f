"""Computer players: ``decide(view, rng) -> Action`` at two levels, ``facile`` and ``esperto``.

A strategy sees only a ``PlayerView`` (``engine.ai.view``) and draws its randomness from the
injected ``rng``, so a seeded game is reproducible. The betting rule and the levels are shared
(``engine.ai.betting``); each variant family computes its own equity and makes its own
decisions: ``engine.ai.draw_games`` (italiana, 32carte), ``engine.ai.holdem`` (texas).
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.ai.betting import STYLES, Level
from engine.ai.draw_games import decide_draw_game
from engine.ai.holdem import decide_holdem
from engine.ai.view import PlayerView
from engine.options import Variant

__all__ = ["ComputerPlayer", "Level", "decide"]


def decide(view: PlayerView, rng: random.Random, level: Level | str = Level.ESPERTO) -> Action:
    """One legal decision for the player of ``view``, who must be the one to act."""
    if not view.legal:
        raise ValueError("It is not this player's turn: there is nothing to decide.")
    style = STYLES[Level(level)]
    if view.variant is Variant.TEXAS:
        return decide_holdem(view, rng, style)
    return decide_draw_game(view, rng, style)


class ComputerPlayer:
    """A seat's computer player: its level and its own random generator."""

    def __init__(self, level: Level | str, rng: random.Random) -> None:
        self.level = Level(level)
        self.rng = rng

    def decide(self, view: PlayerView) -> Action:
        return decide(view, self.rng, self.level)
