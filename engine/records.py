"""The shapes of what the engine saves: a table between hands and the record of one hand.

Both are plain JSON-compatible dicts (the storage layer writes them as JSON); these TypedDicts
name their keys and types so a reader of a saved table or a hand record need not guess.
``Table.to_dict`` gives a ``TableState``, ``Table.hand_record`` a ``HandRecord``;
``Table.from_dict`` and ``engine.history.replay`` read them back.
"""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = ["STATE_VERSION", "HandRecord", "Op", "SeatState", "TableState"]

STATE_VERSION = 1


class SeatState(TypedDict):
    seat: int
    player: int
    stack: int
    sitting_out: bool
    timeouts: int


class TableState(TypedDict):
    """A table between hands (during a hand: the state at its start)."""

    version: int
    options: dict[str, Any]  # ``TableOptions.to_dict``
    seats: list[SeatState]
    dealer: int | None  # seat
    hand_number: int
    level: int  # italiana's opening level: 11 J, 12 Q, 13 K
    carried: int  # pot carried to the next hand
    carried_by: list[list[int]]  # [player, chips he put into the carried pot], by player
    parol_target: int  # what everyone must have put in a paròl pot to be dealt in
    parol_paid: list[list[int]]  # [player, chips he has put towards it], by player
    no_invito: bool  # the next hand is the one right after a paròl pot: no invito


# One request the table received during the hand, in order:
#   ["act", player, word, amount, [discard codes]], ["timeout"], ["leave", player],
#   ["sit_out", player], ["come_back", player], ["sit", player, stack].
Op = list[Any]


class HandRecord(TypedDict):
    """One hand: replaying ``ops`` on a table restored from ``start`` with this deck reproduces it."""

    version: int
    start: TableState
    deck: list[int]  # card codes, top first
    reshuffles: list[list[int]]  # each reshuffle of the draw's discards, as card codes
    ops: list[Op]
    end: TableState | None  # None while the hand is running
