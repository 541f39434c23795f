"""Hand records (``engine.records.HandRecord``), and their exact replay.

A record holds the table state at the start of the hand, the deck order, every reshuffle of the
draw, and every request the table received during the hand (actions, timeouts, seating). Replaying
it on a fresh table rebuilt from the start state reproduces the hand chip for chip.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from engine.actions import Action, ActionKind
from engine.cards import Card
from engine.errors import BadSavedState
from engine.events import Event
from engine.records import HandRecord
from engine.table import Table

__all__ = ["replay", "replay_steps"]


def replay(record: HandRecord | Mapping[str, Any]) -> tuple[Table, list[Event]]:
    """Play a recorded hand again; returns the table at its end and every event produced.

    A record that is not one (a key missing, an unknown request) is a ``BadSavedState``."""
    events: list[Event] = []
    table: Table | None = None
    for table, step in replay_steps(record):  # noqa: B007 - the table after the last step is the answer
        events += step
    assert table is not None  # the deal is always the first step
    return table, events


def replay_steps(record: HandRecord | Mapping[str, Any]) -> Iterator[tuple[Table, list[Event]]]:
    """The replay one request at a time: the table after each step (the deal first, then every
    recorded request) and the events that step produced. ``replay`` is all of them at once."""
    try:
        table = Table.from_dict(record["start"])
        table._replay_shuffles = [list(r) for r in record["reshuffles"]]
        deck = [Card.from_code(c) for c in record["deck"]]
        ops = list(record["ops"])
    except (KeyError, TypeError, ValueError):
        raise BadSavedState("La registrazione della mano non si legge.") from None
    yield table, table.start_hand(deck=deck)
    for op in ops:
        name = op[0]
        if name == "act":
            _, player, kind, amount, codes = op
            cards = tuple(Card.from_code(c) for c in codes)
            yield table, table.act(Action(int(player), ActionKind(kind), int(amount), cards))
        elif name == "timeout":
            yield table, table.timeout()
        elif name == "leave":
            yield table, table.leave(int(op[1]))
        elif name == "sit_out":
            yield table, table.sit_out(int(op[1]))
        elif name == "come_back":
            yield table, table.come_back(int(op[1]))
        elif name == "sit":
            yield table, table.sit(int(op[1]), int(op[2]))
        else:
            raise BadSavedState(f"La registrazione della mano contiene una richiesta sconosciuta: {name!r}.")
