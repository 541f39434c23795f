"""Settings of a table that belong to the bot, not to the rules of the game.

`engine.options.TableOptions` holds what the rules need (stakes, limits, deck, time to act). What only
the Discord side uses (when to call a player whose turn it is, how computer players behave) lives
here, so the engine never sees it. Both are stored together in the table row's options JSON: the
engine's options at the top level and these under the key ``"bot"``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from bot.errors import UserError

__all__ = ["BOT_KEY", "TableSettings", "split_stored_options"]

BOT_KEY = "bot"
"""The key of these settings inside the stored options JSON."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The bot's own settings of one table (all optional, with the defaults a host expects)."""

    ping_after: int | None = 15
    """Seconds a player may stay silent on his turn before he is called by a mention; 0 = at
    once, None = never (the table option ``avviso``)."""
    computer_pause_min: float = 1.0
    computer_pause_max: float = 3.0
    """A computer player's human-like pause before he acts, in seconds (0 and 0 in tests)."""
    max_computers: int | None = None
    """How many computer players may sit; None = every seat but one human."""

    def __post_init__(self) -> None:
        if self.ping_after is not None and not 0 <= self.ping_after <= 3600:
            raise UserError("L'avviso va da 0 a 3600 secondi.")
        if not 0 <= self.computer_pause_min <= self.computer_pause_max <= 60:
            raise UserError("La pausa dei computer va da 0 a 60 secondi, la minima non oltre la massima.")
        if self.max_computers is not None and not 0 <= self.max_computers <= 10:
            raise UserError("I computer al tavolo vanno da 0 a 10.")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TableSettings:
        """Settings from their stored form; keys this version does not know are ignored, so a
        newer bot's row still opens in an older one."""
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})


def split_stored_options(stored: dict[str, Any]) -> tuple[dict[str, Any], TableSettings]:
    """The engine's options and the bot's settings from a table row's options JSON."""
    engine_part = {key: value for key, value in stored.items() if key != BOT_KEY}
    return engine_part, TableSettings.from_dict(stored.get(BOT_KEY))
