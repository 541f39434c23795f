"""Each player's summary of one finished hand, from the engine's events: what the statistics count.

The summary is computed once, when the hand ends, and stored beside the hand's chips (one
``hand_players`` row per player dealt in), so that `/statistiche` and the night's summary are
aggregate queries and never replay or parse a stored record. It uses only the public events: the
hands shown at the showdown (``HandShown``; a mucked or folded hand is never counted as shown) and
every chip that moved. A player's ``net`` is therefore exactly the change of his stack in the hand
(what he won, minus what he put in), which the tests check against the engine's stacks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.storage.models import HandPlayer
from engine.cards import format_cards, lowest_rank_for_deck
from engine.events import (
    ActionTaken,
    BetReturned,
    ChipsPosted,
    Event,
    HandShown,
    HandStarted,
    PotAwarded,
)
from engine.history import replay
from engine.options import TableOptions
from engine.ranking import category_of, fast_evaluator
from engine.variants import deck_for

__all__ = ["PlayerSummary", "summarize", "summarize_record"]


PlayerSummary = HandPlayer
"""One player's hand, as stored (`bot.storage.HandPlayer`)."""


def summarize(events: Iterable[Event], options: TableOptions) -> tuple[PlayerSummary, ...]:
    """One summary per player dealt into the hand whose events these are, in deal order.

    ``events`` are the hand's events (private ones are ignored); the first ``HandStarted`` opens
    the hand. A hand without one (nothing was dealt) has no players.
    """
    public = [e for e in events if e.private_to is None]
    started = next((e for e in public if isinstance(e, HandStarted)), None)
    if started is None:
        return ()
    players = started.players
    net = dict.fromkeys(players, 0)
    pot_won = dict.fromkeys(players, 0)
    showdown = dict.fromkeys(players, 0)
    uncontested = dict.fromkeys(players, 0)
    shown: dict[int, HandShown] = {}
    for event in public:
        if isinstance(event, ChipsPosted) and event.player in net:
            net[event.player] -= event.amount
        elif isinstance(event, ActionTaken) and event.player in net:
            net[event.player] -= event.put_in
        elif isinstance(event, BetReturned) and event.player in net:
            net[event.player] += event.amount
        elif isinstance(event, PotAwarded):
            for winner, share in zip(event.winners, event.shares, strict=True):
                if winner not in net:
                    continue
                net[winner] += share
                pot_won[winner] += share
                if share:
                    (showdown if event.shown else uncontested)[winner] += 1
        elif isinstance(event, HandShown) and event.player in net:
            shown[event.player] = event
    _, ranking = deck_for(options, len(players))
    evaluator = fast_evaluator(ranking, lowest_rank_for_deck(started.deck_size))
    summaries = []
    for player in players:
        strength = category = text = None
        if player in shown:
            event = shown[player]
            strength = evaluator.strength([card.code for card in event.best])
            category = int(category_of(strength, ranking))
            text = f"{event.hand}: {format_cards(event.best)}"
        summaries.append(
            PlayerSummary(
                user_id=player,
                net=net[player],
                won=pot_won[player] > 0,
                pots_showdown=showdown[player],
                pots_uncontested=uncontested[player],
                pot_won=pot_won[player],
                shown_strength=strength,
                shown_category=category,
                shown_text=text,
            )
        )
    return tuple(summaries)


def summarize_record(record: dict[str, Any]) -> tuple[PlayerSummary, ...]:
    """The summary of a stored hand record, by replaying it (for records written before 0005)."""
    table, events = replay(record)
    return summarize(events, table.options)
