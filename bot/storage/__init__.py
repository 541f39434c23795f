"""The storage layer: the only place with SQL. Plain values in and out, never Discord objects.

Balances per server, an append-only double-entry ledger, tables with their seats and hands, and the
recovery of hands interrupted by a crash. See the README, "Storage and recovery".
"""

from __future__ import annotations

from bot.storage.errors import (
    AlreadySeated,
    BonusDisabled,
    BonusNotReady,
    HandInProgress,
    HandNotRunning,
    InsufficientChips,
    InvalidAmount,
    LedgerMismatch,
    NotSeated,
    StorageError,
    TableAlreadyOpen,
    TableNotFound,
    UnknownPlayer,
)
from bot.storage.models import Account, HandSummary, LeaderRow, LedgerEntry, PlayerHistory, TableRow
from bot.storage.storage import MAX_CHIPS, Storage

__all__ = [
    "MAX_CHIPS",
    "Account",
    "AlreadySeated",
    "BonusDisabled",
    "BonusNotReady",
    "HandInProgress",
    "HandNotRunning",
    "HandSummary",
    "InsufficientChips",
    "InvalidAmount",
    "LeaderRow",
    "LedgerEntry",
    "LedgerMismatch",
    "NotSeated",
    "PlayerHistory",
    "Storage",
    "StorageError",
    "TableAlreadyOpen",
    "TableNotFound",
    "TableRow",
    "UnknownPlayer",
]
