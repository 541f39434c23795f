"""The engine's refusals: one family, each carrying the data the Discord layer needs.

Every refusal is an ``EngineError`` (a ``ValueError``) whose message is one Italian sentence shown
verbatim to the player; the subclasses add typed fields so a caller can render the reason (name
whose turn it is, offer the legal range) without asking the table a second time or re-implementing
a rule. A refused request leaves the table exactly as it was.
"""

from __future__ import annotations

__all__ = [
    "AlreadySeated",
    "AmountOutOfRange",
    "AmountRequired",
    "BadDeck",
    "BadSavedState",
    "EngineError",
    "HandInProgress",
    "IllegalAction",
    "InvalidDraw",
    "InvalidOptions",
    "NoHandRunning",
    "NotEnoughPlayers",
    "NotSeated",
    "NotYourTurn",
    "OpeningNotAllowed",
    "TableFull",
    "UnknownWord",
]


class EngineError(ValueError):
    """A refused request; the table is left exactly as it was."""


class NotSeated(EngineError):
    """The player has no seat at this table (or has already left it)."""


class AlreadySeated(EngineError):
    """The player is already seated (or already in the state he asked for)."""


class TableFull(EngineError):
    """Every seat is taken."""

    def __init__(self, message: str, *, seats: int) -> None:
        super().__init__(message)
        self.seats = seats


class NoHandRunning(EngineError):
    """The request needs a hand in progress and there is none."""


class HandInProgress(EngineError):
    """The request is only allowed between hands."""


class NotEnoughPlayers(EngineError):
    """Fewer than two players are in the game."""


class NotYourTurn(EngineError):
    """A seated player spoke out of turn; ``to_act`` is whose turn it is (None: nobody's)."""

    def __init__(self, message: str, *, to_act: int | None) -> None:
        super().__init__(message)
        self.to_act = to_act


class UnknownWord(EngineError):
    """The action names no word of the game."""

    def __init__(self, message: str, *, word: str) -> None:
        super().__init__(message)
        self.word = word


class IllegalAction(EngineError):
    """The word is not legal now; ``legal`` lists the words that are (their string values)."""

    def __init__(self, message: str, *, kind: str, legal: tuple[str, ...]) -> None:
        super().__init__(message)
        self.kind = kind
        self.legal = legal


class AmountRequired(EngineError):
    """The word needs an amount and none was given (or it was not a whole number)."""


class AmountOutOfRange(EngineError):
    """The amount is outside the legal range ``minimum``..``maximum`` (same unit as ``LegalAction``)."""

    def __init__(self, message: str, *, minimum: int, maximum: int) -> None:
        super().__init__(message)
        self.minimum = minimum
        self.maximum = maximum


class OpeningNotAllowed(EngineError):
    """The player's hand does not meet the opening requirement of the current level."""

    def __init__(self, message: str, *, level: int) -> None:
        super().__init__(message)
        self.level = level


class InvalidDraw(EngineError):
    """The cards named for a draw are not a legal discard (duplicates, too many, not in hand)."""


class InvalidOptions(EngineError):
    """A table option is unknown or out of its range (``TableOptions``): the settings form's refusal."""


class BadDeck(EngineError):
    """A stacked deck given to ``start_hand`` is not a valid deck order."""


class BadSavedState(EngineError):
    """A saved table or hand record cannot be read."""
