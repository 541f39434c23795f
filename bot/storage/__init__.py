"""The storage layer: the only place with SQL. Plain values in and out, never Discord objects.

Balances per server, an append-only double-entry ledger, tables with their seats and hands, and the
recovery of hands interrupted by a crash, on SQLite (the default) or PostgreSQL (``DATABASE_URL``).
See bot/storage/README.md.
"""

from __future__ import annotations

from bot.storage.errors import (
    AlreadySeated,
    BonusDisabled,
    BonusNotReady,
    DatabaseBusy,
    DatabaseUnreachable,
    HandInProgress,
    HandNotRunning,
    InsufficientChips,
    InvalidAmount,
    LedgerMismatch,
    NotSeated,
    SchemaTooNew,
    ShardBusy,
    StorageError,
    TableAlreadyOpen,
    TableNotFound,
    TableNotOwned,
    UnknownPlayer,
)
from bot.storage.models import (
    Account,
    HandPlayer,
    HandSummary,
    LeaderRow,
    LedgerEntry,
    PlayerHistory,
    SessionPlayer,
    StoredHand,
    TableRow,
    TableSessionSummary,
    TournamentHand,
    TournamentStats,
    VariantStats,
)
from bot.storage.storage import DATABASE_ERRORS, DATABASE_FAILURES, MAX_CHIPS, STORAGE_FAILURES, Storage

__all__ = [
    "DATABASE_ERRORS",
    "DATABASE_FAILURES",
    "MAX_CHIPS",
    "STORAGE_FAILURES",
    "Account",
    "AlreadySeated",
    "BonusDisabled",
    "BonusNotReady",
    "DatabaseBusy",
    "DatabaseUnreachable",
    "HandInProgress",
    "HandNotRunning",
    "HandPlayer",
    "HandSummary",
    "InsufficientChips",
    "InvalidAmount",
    "LeaderRow",
    "LedgerEntry",
    "LedgerMismatch",
    "NotSeated",
    "PlayerHistory",
    "SchemaTooNew",
    "SessionPlayer",
    "ShardBusy",
    "Storage",
    "StorageError",
    "StoredHand",
    "TableAlreadyOpen",
    "TableNotFound",
    "TableNotOwned",
    "TableRow",
    "TableSessionSummary",
    "TournamentHand",
    "TournamentStats",
    "UnknownPlayer",
    "VariantStats",
]
