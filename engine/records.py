"""The shapes of what the engine saves: a table between hands and the record of one hand.

Both are plain JSON-compatible dicts (the storage layer writes them as JSON); these TypedDicts
name their keys and types so a reader of a saved table or a hand record need not guess.
``Table.to_dict`` gives a ``TableState``, ``Table.hand_record`` a ``HandRecord``;
``Table.from_dict`` and ``engine.history.replay`` read them back.
"""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = ["STATE_VERSION", "HandRecord", "Op", "SeatState", "Snapshot", "TableState", "state_of"]

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


# What ``TableState`` holds, copied from the table in a few C-level list copies
# (``Table._snapshot``): player, stack, sitting-out flag and timeouts by seat, then dealer, hand
# number, level, carried pot, carried_by, paròl target, parol_paid, no_invito. Every hand takes
# two (its start and its end) and most are never turned into a dict.
Snapshot = tuple[
    list[int | None],
    list[int],
    list[bool],
    list[int],
    int | None,
    int,
    int,
    int,
    dict[int, int],
    int,
    dict[int, int],
    bool,
]


def state_of(snap: Snapshot, options: dict[str, Any]) -> TableState:
    """The ``TableState`` of a snapshot; ``options`` is ``TableOptions.to_dict()`` (copied)."""
    pids, stacks, sitting_out, timeouts = snap[0], snap[1], snap[2], snap[3]
    carried_by, parol_paid = snap[8], snap[10]
    seats: list[SeatState] = [
        {
            "seat": s,
            "player": pid,
            "stack": stacks[s],
            "sitting_out": sitting_out[s],
            "timeouts": timeouts[s],
        }
        for s, pid in enumerate(pids)
        if pid is not None
    ]
    return {
        "version": STATE_VERSION,
        "options": dict(options),
        "seats": seats,
        "dealer": snap[4],
        "hand_number": snap[5],
        "level": snap[6],
        "carried": snap[7],
        "carried_by": sorted([pid, amount] for pid, amount in carried_by.items()),
        "parol_target": snap[9],
        "parol_paid": sorted([pid, amount] for pid, amount in parol_paid.items()),
        "no_invito": snap[11],
    }
