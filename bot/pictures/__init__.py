"""Card pictures (Pillow): pure functions from cards and rows to PNG bytes.

Faces are drawn once per card and size and cached; every picture only composes them. Pillow
lives in ``bot/`` only: the engine stays standard-library Python.
"""

from __future__ import annotations

from bot.pictures.charts import ResultRow, StandingRow, results_chart_png, standings_png
from bot.pictures.hands import ShowdownRow, board_png, hand_png, showdown_png

__all__ = [
    "ResultRow",
    "ShowdownRow",
    "StandingRow",
    "board_png",
    "hand_png",
    "results_chart_png",
    "showdown_png",
    "standings_png",
]
