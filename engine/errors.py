"""The one error type of the engine.

Its message is shown verbatim to the player, so it is always one Italian sentence; the Discord
layer never rewrites it.
"""

from __future__ import annotations

__all__ = ["EngineError"]


class EngineError(ValueError):
    """A refused request; the table is left exactly as it was."""
