"""Hand records (``engine.records.HandRecord``), and their exact replay.

A record holds the table state at the start of the hand, the deck order, every reshuffle of the
draw, and every request the table received during the hand (actions, timeouts, seating). Replaying
it on a fresh table rebuilt from the start state reproduces the hand chip for chip.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import Action, ActionKind
from engine.cards import Card
from engine.errors import BadSavedState
from engine.events import Event
from engine.records import HandRecord
from engine.table import Table

__all__ = ["replay"]


def replay(record: HandRecord | Mapping[str, Any]) -> tuple[Table, list[Event]]:
    """Play a recorded hand again; returns the table at its end and every event produced.

    A record that is not one (a key missing, an unknown request) is a ``BadSavedState``."""
    try:
        table = Table.from_dict(record["start"])
        table._replay_shuffles = [list(r) for r in record["reshuffles"]]
        deck = [Card.from_code(c) for c in record["deck"]]
        ops = list(record["ops"])
    except (KeyError, TypeError, ValueError):
        raise BadSavedState("La registrazione della mano non si legge.") from None
    events = table.start_hand(deck=deck)
    for op in ops:
        name = op[0]
        if name == "act":
            _, player, kind, amount, codes = op
            cards = tuple(Card.from_code(c) for c in codes)
            events += table.act(Action(int(player), ActionKind(kind), int(amount), cards))
        elif name == "timeout":
            events += table.timeout()
        elif name == "leave":
            events += table.leave(int(op[1]))
        elif name == "sit_out":
            events += table.sit_out(int(op[1]))
        elif name == "come_back":
            events += table.come_back(int(op[1]))
        elif name == "sit":
            events += table.sit(int(op[1]), int(op[2]))
        else:
            raise BadSavedState(f"La registrazione della mano contiene una richiesta sconosciuta: {name!r}.")
    return table, events
