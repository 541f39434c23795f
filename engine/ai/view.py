"""What a computer player may know: exactly what a human sitting in his seat sees.

A ``PlayerView`` is built by the engine package from the table's public API (``public_view``,
``legal_actions``, ``bet_sizes``, ``cards_of`` for his own seat only) and from the events of the
current hand that were addressed to everybody or to him. It holds plain values and frozen value
objects only (ints, strings, enums, cards, tuples, the engine's frozen views and events), so no
reference to the table, its deck, its random generator or another player's cards is reachable from
it: a strategy cannot cheat even by accident.

A human also remembers how each opponent has played so far; ``habits`` is that memory, counted
from the public actions of every hand the view's events cover: for each player, his bets and
raises, his calls and checks, and his folds in the betting rounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.actions import ActionKind, BetSizes, LegalAction
from engine.cards import Card, deck_size_for_players, lowest_rank_for_deck
from engine.events import ActionTaken, Event, HandStarted, Street, StreetStarted
from engine.options import Limit, Mazzo, Variant
from engine.ranking import Ranking
from engine.table import Table, TableView

__all__ = ["Habit", "HandLog", "PlayerView", "view_for"]

_SIZED = (ActionKind.APRO, ActionKind.PUNTO, ActionKind.RILANCIO)
_BETTING = frozenset(
    {Street.PRIMO_GIRO, Street.SECONDO_GIRO, Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER}
)
_AGGRESSIVE = frozenset({ActionKind.PUNTO, ActionKind.RILANCIO})
_PASSIVE = frozenset({ActionKind.VEDO, ActionKind.PAROL})


@dataclass(frozen=True, slots=True)
class Habit:
    """How one player has acted in the betting rounds of the hands seen so far."""

    player: int
    aggressive: int  # bets and raises
    passive: int  # calls and checks
    folds: int

    @property
    def actions(self) -> int:
        return self.aggressive + self.passive + self.folds


class _HabitCounter:
    """Counts ``Habit``s from public events, following the street to skip the buio, the
    opening and the draw (their words are not bets)."""

    def __init__(self) -> None:
        self.counts: dict[int, list[int]] = {}
        self.betting = False

    def feed(self, events: Iterable[Event]) -> None:
        for event in events:
            if isinstance(event, StreetStarted):
                self.betting = event.street in _BETTING
            elif isinstance(event, ActionTaken) and self.betting and event.private_to is None:
                kind = event.kind
                slot = (
                    0
                    if kind in _AGGRESSIVE
                    else 1
                    if kind in _PASSIVE
                    else 2
                    if kind is ActionKind.PASSO
                    else -1
                )
                if slot >= 0:
                    self.counts.setdefault(event.player, [0, 0, 0])[slot] += 1

    def habits(self) -> tuple[Habit, ...]:
        return tuple(Habit(p, a, c, f) for p, (a, c, f) in sorted(self.counts.items()))


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player's knowledge at his turn (or at any moment of the hand)."""

    player: int
    variant: Variant
    limit: Limit
    ranking: Ranking  # the ranking of this hand (international for texas and the 52-card americano)
    deck_size: int
    lowest_rank: int
    max_draw: int
    cip: int
    invito: int
    cards: tuple[Card, ...]  # his own cards, nobody else's
    table: TableView  # the public table: stacks, bets, pot, board, dealer, street, level, draws
    legal: tuple[LegalAction, ...]  # empty when it is not his turn
    bet_sizes: tuple[tuple[ActionKind, BetSizes], ...]  # the named amounts of his sized words
    history: tuple[Event, ...]  # this hand's events he was shown, in order
    habits: tuple[Habit, ...]  # every player's betting habits over the hands seen (module doc)

    @property
    def my_turn(self) -> bool:
        return self.table.to_act == self.player

    def legal_of(self, kind: ActionKind) -> LegalAction | None:
        for legal in self.legal:
            if legal.kind is kind:
                return legal
        return None

    def sizes_of(self, kind: ActionKind) -> BetSizes | None:
        for sized, sizes in self.bet_sizes:
            if sized is kind:
                return sizes
        return None

    def habit_of(self, player: int) -> Habit | None:
        for habit in self.habits:
            if habit.player == player:
                return habit
        return None


def visible_to(events: Iterable[Event], player: int) -> tuple[Event, ...]:
    """The events a player is shown: public ones and those addressed to him."""
    return tuple(e for e in events if e.private_to is None or e.private_to == player)


def _current_hand(events: tuple[Event, ...]) -> tuple[Event, ...]:
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], HandStarted):
            return events[i:]
    return events


def view_for(
    table: Table, player: int, public_events: Iterable[Event], habits: tuple[Habit, ...] | None = None
) -> PlayerView:
    """The view of ``player``. ``public_events`` may hold anything the table emitted (private
    events of other players included): only what he was shown enters the view, the current hand
    (from the last ``HandStarted``) as its history and every hand's public actions as ``habits``
    (unless ``habits`` already counted them, as ``HandLog`` does)."""
    seen = visible_to(public_events, player)
    history = _current_hand(seen)
    if habits is None:
        counter = _HabitCounter()
        counter.feed(seen)
        habits = counter.habits()
    public = table.public_view()
    options = table.options
    variant = options.variant
    mine = public.to_act == player
    legal = table.legal_actions() if mine else ()
    sizes: list[tuple[ActionKind, BetSizes]] = []
    for la in legal:
        if la.kind in _SIZED:
            found = table.bet_sizes(la.kind)
            if found is not None:
                sizes.append((la.kind, found))
    started = next((e for e in history if isinstance(e, HandStarted)), None)
    if started is not None:
        size = started.deck_size
    elif variant is Variant.TEXAS or options.mazzo is Mazzo.AMERICANO:
        size = 52
    elif variant is Variant.TRENTADUE or options.mazzo is Mazzo.TRENTADUE:
        size = 32
    else:
        dealt = sum(1 for s in public.seats if s.in_hand or s.folded)
        size = deck_size_for_players(max(2, min(9, dealt)))
    international = variant is Variant.TEXAS or (
        variant is Variant.ITALIANA and options.mazzo is Mazzo.AMERICANO
    )
    return PlayerView(
        player=player,
        variant=variant,
        limit=options.limit,
        ranking=Ranking.INTERNAZIONALE if international else Ranking.ITALIANA,
        deck_size=size,
        lowest_rank=lowest_rank_for_deck(size),
        max_draw=options.max_draw,
        cip=options.cip,
        invito=options.invito,
        cards=table.cards_of(player),
        table=public,
        legal=legal,
        bet_sizes=tuple(sizes),
        history=history,
        habits=habits,
    )


class HandLog:
    """Collects a table's events as they come (a channel's transcript): the current hand's
    events (the previous hand's are dropped when a new one starts) and the players' habits over
    every hand fed; ``view`` filters them for one player."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._habits = _HabitCounter()

    def feed(self, events: Iterable[Event]) -> None:
        events = list(events)
        for event in events:
            if isinstance(event, HandStarted):
                self.events = []
            self.events.append(event)
        self._habits.feed(events)

    def view(self, table: Table, player: int) -> PlayerView:
        return view_for(table, player, self.events, self._habits.habits())
