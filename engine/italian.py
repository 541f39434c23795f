"""How Italian text writes amounts: one home for the engine's messages and the bot's.

A player reads «1.500 fiches» on the table message and in every refusal alike (the dot groups the
thousands, as Italian writes them), and «1 fiche torna» in the singular, verb and adjectives too.
"""

from __future__ import annotations

__all__ = ["chips", "chips_return", "grouped", "plural"]


def grouped(amount: int) -> str:
    """``1500`` → ``1.500``."""
    return f"{amount:,}".replace(",", ".")


def plural(amount: int, one: str, many: str) -> str:
    """``one`` for an amount of 1, ``many`` otherwise: the words that agree with a number."""
    return one if amount == 1 else many


def chips(amount: int) -> str:
    """``1.250 fiches``; ``1 fiche``."""
    return f"{grouped(amount)} {plural(amount, 'fiche', 'fiches')}"


def chips_return(amount: int) -> str:
    """``1 fiche torna``, ``2 fiches tornano``: the verb most chip movements are told with."""
    return f"{chips(amount)} {plural(amount, 'torna', 'tornano')}"
