"""Refusals of the storage layer.

Each message is one Italian sentence that the error funnel shows to the player verbatim, so a cog
never has to translate a database condition into words. A refusal always leaves the database as
it was: it is raised inside the transaction, which is then rolled back.
"""

from __future__ import annotations

from datetime import timedelta

__all__ = [
    "NOT_OWNED",
    "AlreadySeated",
    "BonusDisabled",
    "BonusNotReady",
    "DatabaseBusy",
    "HandInProgress",
    "HandNotRunning",
    "InsufficientChips",
    "InvalidAmount",
    "LedgerMismatch",
    "NotSeated",
    "SchemaTooNew",
    "ShardBusy",
    "StorageError",
    "TableAlreadyOpen",
    "TableNotFound",
    "TableNotOwned",
    "UnknownPlayer",
]


class StorageError(Exception):
    """A refused storage operation; the message is one Italian sentence for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidAmount(StorageError):
    """Amounts are positive whole numbers of chips, so a typo cannot move chips the wrong way."""


class InsufficientChips(StorageError):
    """The balance does not cover the request; `balance` and `needed` let a cog say more."""

    def __init__(self, message: str, *, balance: int, needed: int) -> None:
        super().__init__(message)
        self.balance = balance
        self.needed = needed


class BonusNotReady(StorageError):
    """The daily bonus was already claimed; `retry_after` is the time left."""

    def __init__(self, message: str, *, retry_after: timedelta) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class BonusDisabled(StorageError):
    """The host configured a daily bonus of zero."""


class UnknownPlayer(StorageError):
    """The player has no account on this server yet."""


class TableNotFound(StorageError):
    """No open table with that id: it never existed or it was closed."""


class TableAlreadyOpen(StorageError):
    """A channel holds at most one open table."""


class AlreadySeated(StorageError):
    """A player has one seat per table."""


class NotSeated(StorageError):
    """The player has no seat at this table."""


class HandInProgress(StorageError):
    """The request must wait for the end of the hand being played."""


class HandNotRunning(StorageError):
    """The hand was already finished or cancelled (for instance by a restart)."""


class LedgerMismatch(StorageError):
    """The chips the caller reports do not match the ledger: refused so that no chip is created or lost."""


NOT_OWNED = "Questo tavolo è gestito da un altro processo del bot: riprova tra poco."


class TableNotOwned(StorageError):
    """Another bot process owns this table (several processes share the database): refused so that
    two processes never play, finish or pay out the same table."""


class DatabaseBusy(StorageError):
    """PostgreSQL aborted the transaction to break a lock cycle or a serialization conflict with
    another one: nothing was written, and the same request may simply be tried again."""


class ShardBusy(StorageError):
    """Another live bot process already holds one of the shards this process asked for."""


class DatabaseUnreachable(Exception):
    """PostgreSQL could not be reached for a new connection (refused, timed out: the server is down or
    restarting). Not a refusal of the ledger, so no `StorageError`: one of the drivers' run-time
    failures (`DATABASE_FAILURES`), which the pool recovers from once the server is back."""


class SchemaTooNew(Exception):
    """The database was written by a newer bot (the host went back to an older version): this one
    must not touch tables it does not know. Not a `StorageError`: it stops the start-up."""

    def __init__(self, version: int, latest: int) -> None:
        super().__init__(f"the database has schema version {version} but this bot knows only up to {latest}")
        self.version = version
        self.latest = latest
