"""The plain values the storage layer returns: no Discord object and no database row leaks out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

__all__ = ["Account", "HandSummary", "LeaderRow", "LedgerEntry", "PlayerHistory", "TableRow"]

Account = Literal["balance", "seat", "pot"]


@dataclass(frozen=True)
class LeaderRow:
    """One line of the leaderboard: chips in the balance plus chips in front of the player at tables."""

    rank: int
    user_id: int
    balance: int
    at_tables: int

    @property
    def total(self) -> int:
        return self.balance + self.at_tables


@dataclass(frozen=True)
class LedgerEntry:
    """One change to one of the player's accounts (his balance, or his seat at a table)."""

    movement_id: int
    at: datetime
    reason: str
    account: Account
    amount: int
    table_id: int | None
    hand_id: int | None
    by_user_id: int | None
    tournament_id: int | None = None
    """The tournament of a buy-in, refund or prize (None outside tournaments)."""


@dataclass(frozen=True)
class HandSummary:
    """A hand the player was dealt into; `end_stack` and `record` are None unless it finished."""

    hand_id: int
    table_id: int
    number: int
    status: str
    started_at: datetime
    finished_at: datetime | None
    start_stack: int
    end_stack: int | None
    record: dict[str, Any] | None

    @property
    def result(self) -> int | None:
        return None if self.end_stack is None else self.end_stack - self.start_stack


@dataclass(frozen=True)
class PlayerHistory:
    entries: tuple[LedgerEntry, ...]
    hands: tuple[HandSummary, ...]


@dataclass(frozen=True)
class TableRow:
    """An open table as stored: enough to rebuild the engine `Table` with `Table.from_dict(state)`."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    variant: str
    options: dict[str, Any]
    state: dict[str, Any]
    status: str
    pot: int
    seats: dict[int, int]
    running_hand_id: int | None
    message_id: int | None = None
    """The public message of the table's current (or last) hand, if one was posted."""
    last_hand_status: str | None = None
    """'running', 'finished' or 'cancelled' for the table's latest hand; None before the first."""

    @property
    def total_chips(self) -> int:
        return sum(self.seats.values()) + self.pot
