"""Reading what a player typed: amounts of chips and the cards of a draw.

Every input gets either a value or one private Italian sentence (a `UserError`); nothing a player
types can raise anything else. Amounts are whole numbers of chips written with ASCII digits,
optionally grouped in thousands as Italians write them ("1.000", "1 000"), or the table words
*cip*, *piatto*, *tutto*. Decimals ("1.1", "5.0"), signs, other digits ("²", "⑤") and absurd
lengths are refused, never guessed at.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

from bot.errors import UserError
from engine.actions import ActionKind, BetSizes
from engine.cards import Card, CardError, hand_order, parse_cards
from engine.events import Street

__all__ = ["MAX_TYPED", "before_draw", "parse_amount", "parse_discards"]

MAX_TYPED = 12
"""The most digits worth reading: a trillion chips is already far beyond any stack."""
_MAX_GROUPED = MAX_TYPED + (MAX_TYPED - 1) // 3
"""The same digits grouped in thousands (``999.999.999.999``)."""

UNREADABLE_CARDS = "Non riconosco le carte «{}»: scrivile come 1 3 5 oppure 7♠ 9♦."
NEED_AMOUNT = "Devi dire quante fiches: un numero, oppure cip, piatto o tutto."
_PLAIN = re.compile(r"[0-9]+")
_GROUPED = re.compile(r"[0-9]{1,3}(?:\.[0-9]{3})+|[0-9]{1,3}(?:[ \u00a0\u202f][0-9]{3})+")
_POSITION = re.compile(r"[0-9]{1,2}")
_BEFORE_DRAW = frozenset({Street.BUIO, Street.APERTURA, Street.PRIMO_GIRO, Street.CAMBIO})


def _quoted(text: str, limit: int = 20) -> str:
    """What the player typed, short and inert (no markdown, no mention), for a refusal."""
    short = text if len(text) <= limit else text[:limit] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(short))


def not_a_number(text: str) -> str:
    return f"Scrivi un numero intero di fiches: {_quoted(text)} non lo è."


def parse_amount(text: str | None, kind: ActionKind, minimum: int, sizes: BetSizes | None) -> int:
    """A number of chips, or the table words: ``cip`` (the minimum), ``piatto`` (pot-size) or ``tutto``
    (all-in), in the unit the engine uses for ``kind`` (a raise names the chips over the call).
    Whether the number is legal is the engine's call. Without an amount, an opening is one cip."""
    word = (text or "").strip().lower()
    if not word:
        if kind is ActionKind.APRO:
            return minimum
        raise UserError(NEED_AMOUNT)
    if len(word) > _MAX_GROUPED or (len(word) > MAX_TYPED and not _GROUPED.fullmatch(word)):
        raise UserError(not_a_number(word))
    if _PLAIN.fullmatch(word) or _GROUPED.fullmatch(word):
        return int(re.sub(r"[^0-9]", "", word))
    named = {"cip": sizes.minimum, "piatto": sizes.pot, "tutto": sizes.all_in} if sizes else {}
    if word in named:
        return named[word]
    raise UserError(not_a_number(word))


def before_draw(street: Street | None) -> bool:
    """Positions for /cambio are worth showing only until the draw is over."""
    return street in _BEFORE_DRAW


def parse_discards(text: str, held: Sequence[Card]) -> tuple[Card, ...]:
    """``1 3 5`` (positions in the order the player holds his cards: `hand_order`) or ``7♠ 9♦``."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not tokens:
        raise UserError("Indica le carte da cambiare: per posizione (1 3 5) o per carta (7♠ 9♦).")
    if len(tokens) > 10 or any(len(t) > 4 for t in tokens):
        raise UserError(UNREADABLE_CARDS.format(_quoted(text)))
    if all(_POSITION.fullmatch(t) for t in tokens):
        shown = hand_order(held)
        if not shown:
            raise UserError("Non hai carte da cambiare.")
        positions = [int(t) for t in tokens]
        if any(not 1 <= p <= len(shown) for p in positions):
            raise UserError(f"Le posizioni vanno da 1 a {len(shown)}.")
        if len(set(positions)) != len(positions):
            raise UserError("Hai indicato due volte la stessa posizione.")
        return tuple(shown[p - 1] for p in positions)
    try:
        return parse_cards(tokens)
    except CardError as exc:
        raise UserError(str(exc)) from None
    except (ValueError, KeyError, IndexError):
        raise UserError(UNREADABLE_CARDS.format(_quoted(text))) from None
