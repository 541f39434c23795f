"""How Italian text writes chips: one home for the engine's messages and the bot's.

A player reads «1.500 fiches» on the table message and in every refusal alike (the dot groups the
thousands, as Italian writes them), and «1 fiche» in the singular.
"""

from __future__ import annotations

__all__ = ["chips", "chips_return", "grouped"]


def grouped(amount: int) -> str:
    """``1500`` → ``1.500``."""
    return f"{amount:,}".replace(",", ".")


def chips(amount: int) -> str:
    """``1.250 fiches``; ``1 fiche``."""
    return f"{grouped(amount)} {'fiche' if amount == 1 else 'fiches'}"


def chips_return(amount: int) -> str:
    """``1 fiche torna``, ``2 fiches tornano``: the verb most chip movements are told with."""
    return f"{chips(amount)} {'torna' if amount == 1 else 'tornano'}"
