"""Computer players of Texas Hold'em (rules §4): the shared betting rule on a Monte Carlo equity.

Pre-flop the equity of the starting hand's class (ranks, suited or not) against the players
still in is cached; after the flop it is sampled for the actual board, each aggressor holding the
best of two or three random hands (``engine.ai.equity``).
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.ai.betting import Style, bet_or_check, rivals, thresholds, tries_for
from engine.ai.equity import holdem_equity, preflop_equity
from engine.ai.view import PlayerView
from engine.events import Street

__all__ = ["decide_holdem"]


def decide_holdem(view: PlayerView, rng: random.Random, style: Style) -> Action:
    others = rivals(view)
    limits = thresholds(view, style, others)
    callers = style.read_ranges and bool(others) and all(r.sticky for r in others)
    tries = tuple(sorted(tries_for(r, style) for r in others))
    street = view.table.street
    hole = [c.code for c in view.cards]
    if street is Street.PREFLOP or not view.table.board:
        a, b = sorted(view.cards, key=lambda c: c.rank, reverse=True)
        equity = preflop_equity(a.rank, b.rank, a.suit == b.suit, tries)
    else:
        board = [c.code for c in view.table.board]
        equity = holdem_equity(
            hole, board, tries, rng,
            thresholds=limits.all(), min_samples=style.min_samples, max_samples=style.max_samples,
        )  # fmt: skip
    return bet_or_check(view, equity, limits, style, rng, last_round=street is Street.RIVER, callers=callers)
