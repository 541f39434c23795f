"""The opening levels of poker tradizionale and the one set of names players see for them.

The opening goes up from a pair of jacks to queens and kings and back (rules §2); the engine's
refusals and the table message both name the level with these words.
"""

from __future__ import annotations

__all__ = ["LEVEL_NAMES", "level_name"]

LEVEL_NAMES: dict[int, str] = {11: "jack", 12: "donne", 13: "re"}


def level_name(level: int | None) -> str:
    """The plural Italian name of an opening level ("jack", "donne", "re"), or "-" for none."""
    if level is None:
        return "-"
    return LEVEL_NAMES.get(level, "-")
