"""The plain values the storage layer returns: no Discord object and no database row leaks out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

__all__ = [
    "Account",
    "HandPlayer",
    "HandSummary",
    "LeaderRow",
    "LedgerEntry",
    "PlayerHistory",
    "SessionPlayer",
    "StoredHand",
    "TableRow",
    "TableSessionSummary",
    "TournamentHand",
    "TournamentStats",
    "VariantStats",
]

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
    last_hand_number: int | None = None
    """The number the ledger gave the table's latest hand (cancelled ones count); None before the first."""

    @property
    def total_chips(self) -> int:
        return sum(self.seats.values()) + self.pot


@dataclass(frozen=True)
class HandPlayer:
    """One player's summary of one finished hand (bot/hand_summary.py computes it from the events).

    ``net`` is the change of his stack in the hand; ``pot_won`` every chip he received from the
    pots; ``pots_showdown`` / ``pots_uncontested`` how many pots he won at the showdown or because
    everyone else folded. ``shown_strength`` is the engine's strength of the hand he showed at the
    showdown (a total order inside the hand's ranking, rules §1), None when he showed nothing;
    ``shown_category`` its `engine.ranking.Category` and ``shown_text`` what the table read.
    """

    user_id: int
    net: int
    won: bool
    pots_showdown: int
    pots_uncontested: int
    pot_won: int
    shown_strength: int | None = None
    shown_category: int | None = None
    shown_text: str | None = None


@dataclass(frozen=True)
class VariantStats:
    """A player's statistics for one variant on one server (`Storage.player_stats`)."""

    variant: str
    hands: int
    won: int
    pots_showdown: int
    pots_uncontested: int
    net: int
    biggest_pot: int
    best_hand: str | None


@dataclass(frozen=True)
class SessionPlayer:
    """A player's result over a table's life: chips he brought, chips he took or holds, the net."""

    user_id: int
    bought_in: int
    taken_out: int
    at_table: int

    @property
    def net(self) -> int:
        return self.taken_out + self.at_table - self.bought_in


@dataclass(frozen=True)
class TableSessionSummary:
    """A table's night (`Storage.table_summary`): from its opening to now (or to its closing)."""

    table_id: int
    variant: str
    hands: int
    cancelled: int
    players: tuple[SessionPlayer, ...]
    biggest_pot: tuple[int, int, int] | None
    """(chips, user id, hand number) of the biggest pot one player won in one hand."""
    best_hand: tuple[str, int, int] | None
    """(what the table read, user id, hand number) of the best hand shown at a showdown."""


@dataclass(frozen=True)
class StoredHand:
    """One hand of a table as stored, for replays: `record` is None unless it finished.

    `status` is 'running', 'finished', 'cancelled', or 'missing' when the table has no such hand.
    """

    table_id: int
    number: int
    status: str
    variant: str
    record: dict[str, Any] | None
    last_number: int
    """The number of the table's latest hand (the replay names the range of hands that exist)."""


@dataclass(frozen=True)
class TournamentHand:
    """A tournament hand noted together with the tournament's state, for `/mano` at its table:
    dealt when `record` is None, over when it is the engine's record (with the fair deck's reveal)."""

    number: int
    record: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class TournamentStats:
    """A player's finished tournaments on one server (`Storage.tournament_stats`)."""

    played: int
    won: int
    """Finished first."""
    in_the_money: int
    """Finished with a prize."""
    best_place: int
    net: int
    """Prizes minus buy-ins, in server chips, from the ledger."""
