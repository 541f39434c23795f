"""The choices offered by more than one slash command, defined once with their Italian names.

`/tavolo nuovo` and `/torneo nuovo` offer the same games, limits and decks, and `/tavolo computer`
and `/torneo computer` the same levels; the English names come from bot/i18n.py like every other.
"""

from __future__ import annotations

from discord.app_commands import Choice

from bot.i18n import T

__all__ = ["LEVELS", "LIMITS", "MAZZI", "VARIANTS"]

VARIANTS: list[Choice[str]] = [
    Choice(name=T("Poker tradizionale (italiana)"), value="italiana"),
    Choice(name=T("32 Card Draw (32carte)"), value="32carte"),
    Choice(name=T("Texas Hold'em"), value="texas"),
]
LIMITS: list[Choice[str]] = [
    Choice(name=T("Limite fisso"), value="fisso"),
    Choice(name=T("Pot limit"), value="potlimit"),
    Choice(name=T("No limit"), value="nolimit"),
]
MAZZI: list[Choice[str]] = [
    Choice(name=T("Automatico (11 meno i giocatori)"), value="auto"),
    Choice(name=T("Sempre 32 carte"), value="32"),
    Choice(name=T("Americano (52 carte, punteggi internazionali)"), value="americano"),
]
LEVELS: list[Choice[str]] = [
    Choice(name=T("Facile"), value="facile"),
    Choice(name=T("Esperto"), value="esperto"),
]
