"""What the computer players of every variant share: the two levels, what the history says about
each opponent, and the betting rule.

Each opponent still in is read from the hand's public history (has he bet or raised, did he pass
the opening, how many cards did he change) and from his habits over the hands seen (does he bet
all the time, does he ever fold). The betting rule, once a variant module (``engine.ai.draw_games``,
``engine.ai.holdem``) has an equity (``engine.ai.equity``): call when the equity beats the pot
odds, bet or raise for value when it clearly beats a fair share of the pot, otherwise check or
fold, and bluff now and then where a bluff is cheap.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.actions import Action, ActionKind, LegalAction
from engine.ai.view import PlayerView
from engine.events import ActionTaken, HandStarted, Street, StreetStarted

__all__ = ["STYLES", "Level", "Rival", "Style", "Thresholds", "bet_or_check", "rivals", "thresholds"]

_AGGRESSIVE = frozenset({ActionKind.PUNTO, ActionKind.RILANCIO})
_HABIT_SAMPLE = 30  # actions seen before a habit is trusted
_LOOSE = 0.3  # share of bets and raises above which aggression means little
_STICKY = 0.05  # share of folds below which a player is taken to call everything
_LOOSE_DISCOUNT = 0.06  # less margin over the pot odds when a loose player is betting


class Level(StrEnum):
    FACILE = "facile"
    ESPERTO = "esperto"


@dataclass(frozen=True, slots=True)
class Style:
    """What sets the levels apart.

    ``esperto`` samples more, reads the opponents' ranges (the opening requirement, passes,
    aggression, habits), demands a margin over the pot odds, bets for value by the number of
    players still in, and bluffs rarely. ``facile`` estimates roughly against random hands, calls too
    much, bets only strong hands, sizes its bets at random, draws a kicker to a pair."""

    min_samples: int
    max_samples: int
    read_ranges: bool
    call_margin: float  # required equity over the pot odds to call
    bet_edge: float  # over a fair share 1/(players) to bet
    raise_edge: float
    bluff: float  # chance to bet a weak hand when checked to, heads-up, in the last round
    pat_bluff: float  # draw games: chance to stand pat on nothing heads-up
    buio: float  # italiana: chance to open blind when offered
    controbuio: float
    match_controbuio: float
    careful_draw: bool  # the usual draw (straights, no kicker) rather than a rough one
    early_pass: bool  # italiana: pass a marginal opener when three or more players are still to speak


STYLES: dict[Level, Style] = {
    Level.FACILE: Style(
        min_samples=24,
        max_samples=40,
        read_ranges=False,
        call_margin=-0.05,
        bet_edge=0.25,
        raise_edge=0.35,
        bluff=0.0,
        pat_bluff=0.0,
        buio=0.06,
        controbuio=0.03,
        match_controbuio=0.5,
        careful_draw=False,
        early_pass=False,
    ),
    Level.ESPERTO: Style(
        min_samples=40,
        max_samples=160,
        read_ranges=True,
        call_margin=0.03,
        bet_edge=0.12,
        raise_edge=0.24,
        bluff=0.12,
        pat_bluff=0.04,
        buio=0.02,
        controbuio=0.01,
        match_controbuio=0.3,
        careful_draw=True,
        early_pass=True,
    ),
}


@dataclass(frozen=True, slots=True)
class Rival:
    """One opponent still in the hand, as the history shows him."""

    player: int
    drawn: int | None  # cards changed (None before his draw)
    aggression: int  # bets and raises this hand
    opened: bool | None  # italiana: True the opener, False passed the opening, None otherwise
    loose: bool  # bets and raises so often that his aggression says little about his cards
    sticky: bool  # hardly ever folds


def rivals(view: PlayerView) -> list[Rival]:
    """The opponents still holding cards."""
    aggression: dict[int, int] = {}
    passed_opening: set[int] = set()
    opening = False
    for event in view.history:
        if isinstance(event, StreetStarted):
            opening = event.street is Street.APERTURA
        elif isinstance(event, ActionTaken):
            if event.kind in _AGGRESSIVE:
                aggression[event.player] = aggression.get(event.player, 0) + 1
            elif opening and event.kind is ActionKind.PASSO:
                passed_opening.add(event.player)
    opener = view.table.opener
    out = []
    for seat in view.table.seats:
        if seat.player == view.player or not seat.in_hand:
            continue
        opened: bool | None = None
        if opener is not None:
            opened = True if seat.player == opener else (False if seat.player in passed_opening else None)
        elif seat.player in passed_opening:
            opened = False
        habit = view.habit_of(seat.player)
        known = habit is not None and habit.actions >= _HABIT_SAMPLE
        loose = known and habit is not None and habit.aggressive > _LOOSE * habit.actions
        sticky = known and habit is not None and habit.folds < _STICKY * habit.actions
        out.append(
            Rival(seat.player, seat.cards_drawn, aggression.get(seat.player, 0), opened, loose, sticky)
        )
    return out


def tries_for(rival: Rival, style: Style) -> int:
    """The opponent's hand is sampled as the best of this many: an aggressor's range is
    narrower, unless he is aggressive all the time."""
    if not style.read_ranges or rival.loose:
        return 1
    return 1 + min(rival.aggression, 2)


def in_position(view: PlayerView) -> bool:
    """Whether he speaks last among the players still in (the round goes clockwise from the
    dealer's left, so the last one in that order acts last after the first round)."""
    started = next((e for e in view.history if isinstance(e, HandStarted)), None)
    if started is None:
        return False
    active = {s.player for s in view.table.seats if s.in_hand}
    order = [p for p in started.players if p in active]
    return bool(order) and order[-1] == view.player


def facing(view: PlayerView) -> int:
    vedo = view.legal_of(ActionKind.VEDO)
    return vedo.min if vedo is not None else 0


@dataclass(frozen=True, slots=True)
class Thresholds:
    call: float
    bet: float
    raise_: float

    def all(self) -> tuple[float, ...]:
        return (self.call, self.bet, self.raise_)


def thresholds(view: PlayerView, style: Style, others: Sequence[Rival]) -> Thresholds:
    """Call above the pot odds plus a margin (``esperto``: a smaller one when a loose player has
    bet); bet and raise above a fair share of the pot plus an edge, a thinner one (``esperto``)
    when every opponent calls everything."""
    to_call = facing(view)
    pot = view.table.pot
    odds = to_call / (pot + to_call) if to_call else 0.0
    fair = 1.0 / (len(others) + 1)
    thin = 0.5 if style.read_ranges and others and all(r.sticky for r in others) else 1.0
    margin = style.call_margin
    if style.read_ranges and any(r.loose and r.aggression for r in others):
        margin -= _LOOSE_DISCOUNT  # a habitual bettor's bet is often a bluff
    # The margin guards a close estimate; it stops at even money, so that a hand that cannot lose (a
    # certain split heads-up is equity 0.5, and the pot odds are never above it) is never folded.
    call = min(odds + margin, max(odds, 0.5))
    return Thresholds(call, fair + thin * style.bet_edge, fair + thin * style.raise_edge)


def sized(view: PlayerView, legal: LegalAction, fraction: float, rng: random.Random, style: Style) -> Action:
    """A bet or raise of about ``fraction`` of the pot, inside the legal range."""
    if legal.min >= legal.max:
        return Action(view.player, legal.kind, legal.min)
    if not style.read_ranges:
        amount = legal.min if rng.random() < 0.5 else legal.max
        sizes = view.sizes_of(legal.kind)
        if sizes is not None and amount == legal.max:
            amount = sizes.pot
        return Action(view.player, legal.kind, max(legal.min, min(legal.max, amount)))
    sizes = view.sizes_of(legal.kind)
    pot = sizes.pot if sizes is not None else legal.max
    amount = round(pot * fraction)
    return Action(view.player, legal.kind, max(legal.min, min(legal.max, amount)))


def bet_or_check(
    view: PlayerView,
    equity: float,
    limits: Thresholds,
    style: Style,
    rng: random.Random,
    *,
    last_round: bool,
    bluffing: bool = False,
    callers: bool = False,
) -> Action:
    """The betting rule shared by every variant (module doc); no bluff against ``callers``."""
    player = view.player
    raise_ = view.legal_of(ActionKind.RILANCIO)
    if facing(view):
        if raise_ is not None and equity >= limits.raise_:
            return sized(view, raise_, 1.0 if equity > 0.85 else 0.7, rng, style)
        if equity >= limits.call:
            return Action(player, ActionKind.VEDO)
        return Action(player, ActionKind.PASSO)
    bet = view.legal_of(ActionKind.PUNTO) or raise_
    if bet is not None:
        if equity >= limits.bet:
            return sized(view, bet, 1.0 if equity > 0.85 else 0.6, rng, style)
        heads_up = sum(1 for s in view.table.seats if s.in_hand) == 2
        if (bluffing and not callers) or (
            not callers
            and last_round
            and heads_up
            and equity < 0.3
            and in_position(view)
            and rng.random() < style.bluff
        ):
            return sized(view, bet, 0.6, rng, style)
    return Action(player, ActionKind.PAROL)
