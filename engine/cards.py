"""Cards, suits, ranks and decks.

A card is a small frozen value with an integer ``code`` (``rank * 4 + suit``) so that the
evaluators and the table can index arrays with it instead of hashing objects. Suits are ordered
as the Italian games rank them (♥ > ♦ > ♣ > ♠, "Come Quando Fuori Piove"), so ``suit`` compares
directly for the suit tie-break.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

__all__ = [
    "RANKS",
    "Card",
    "CardError",
    "Suit",
    "deck",
    "deck_size_for_players",
    "format_cards",
    "hand_order",
    "lowest_rank_for_deck",
    "parse_card",
    "parse_cards",
]


class CardError(ValueError):
    """A card or a list of cards that cannot be read; the message is an Italian sentence."""


class Suit(IntEnum):
    """Suits from lowest to highest in the Italian order."""

    PICCHE = 0
    FIORI = 1
    QUADRI = 2
    CUORI = 3

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        return _SUIT_LETTERS[self]


_SUIT_SYMBOLS = {Suit.PICCHE: "♠", Suit.FIORI: "♣", Suit.QUADRI: "♦", Suit.CUORI: "♥"}
_SUIT_LETTERS = {Suit.PICCHE: "s", Suit.FIORI: "c", Suit.QUADRI: "d", Suit.CUORI: "h"}
_SUIT_BY_TOKEN: dict[str, Suit] = {
    **{symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()},
    **{letter: suit for suit, letter in _SUIT_LETTERS.items()},
    # The text-presentation variants of the symbols some keyboards produce.
    "♤": Suit.PICCHE,
    "♧": Suit.FIORI,
    "♢": Suit.QUADRI,
    "♡": Suit.CUORI,
}

RANKS: tuple[int, ...] = tuple(range(2, 15))
"""Ranks 2..14, where 11 = J, 12 = Q, 13 = K, 14 = A."""

_RANK_NAMES = {**{r: str(r) for r in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_LETTERS = {**{r: str(r) for r in range(2, 10)}, 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_BY_TOKEN: dict[str, int] = {
    **{str(r): r for r in range(2, 11)},
    "t": 10,
    "j": 11,
    "q": 12,
    "k": 13,
    "a": 14,
}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card. Ordered by rank, then Italian suit order."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if self.rank not in _RANK_NAMES:
            raise CardError(f"Il valore {self.rank} non esiste.")

    @property
    def code(self) -> int:
        """A dense integer in 8..59: ``rank * 4 + suit``."""
        return self.rank * 4 + self.suit

    @classmethod
    def from_code(cls, code: int) -> Card:
        return _CARDS_BY_CODE[code]

    def __str__(self) -> str:
        return f"{_RANK_NAMES[self.rank]}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card({self.ascii})"

    @property
    def ascii(self) -> str:
        """The two-letter notation: ``Ah``, ``Td``, ``7c``."""
        return f"{_RANK_LETTERS[self.rank]}{self.suit.letter}"


_CARDS_BY_CODE: dict[int, Card] = {r * 4 + s: Card(r, Suit(s)) for r in RANKS for s in range(4)}

_CARD_RE = re.compile(r"^(10|[2-9tjqka])([shdc♠♣♦♥♤♧♢♡])$", re.IGNORECASE)


def parse_card(text: str) -> Card:
    """Read one card in either notation: ``A♥``, ``10♦``, ``Ah``, ``Td``, ``10d``, ``tD``."""
    match = _CARD_RE.match(text.strip())
    if match is None:
        raise CardError(f"Non riconosco la carta «{text.strip()}»: scrivila come A♥, 10♦, Ah o Td.")
    rank_token, suit_token = match.groups()
    return _CARDS_BY_CODE[_RANK_BY_TOKEN[rank_token.lower()] * 4 + _SUIT_BY_TOKEN[suit_token.lower()]]


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas; a duplicate card is refused."""
    tokens = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    cards = tuple(parse_card(token) for token in tokens if token)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"La carta {card} compare due volte.")
        seen.add(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards with suit symbols, separated by spaces: ``A♥ 10♦ 7♣``."""
    return " ".join(str(card) for card in cards)


def lowest_rank_for_deck(size: int) -> int:
    """The lowest rank of a short deck of ``size`` cards (24..52 in steps of 4)."""
    if size % 4 or not 24 <= size <= 52:
        raise CardError(f"Un mazzo di {size} carte non esiste: va da 24 a 52, di 4 in 4.")
    return 15 - size // 4


def deck_size_for_players(players: int) -> int:
    """The Italian formula: lowest rank = 11 − players, for 2 to 9 players."""
    if not 2 <= players <= 9:
        raise CardError("Il poker tradizionale si gioca da 2 a 9 giocatori.")
    return (15 - (11 - players)) * 4


def deck(size: int = 52) -> list[Card]:
    """A fresh ordered deck of ``size`` cards, from its lowest rank up to the aces."""
    low = lowest_rank_for_deck(size)
    return [_CARDS_BY_CODE[r * 4 + s] for r in range(low, 15) for s in range(4)]


def cards_in_deck(cards: Sequence[Card], size: int) -> bool:
    """Whether every card belongs to the deck of ``size`` cards."""
    low = lowest_rank_for_deck(size)
    return all(card.rank >= low for card in cards)


def hand_order(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Highest first (rank, then suit), as a player holds his cards: the positions 1..5 of a draw
    by position (``/cambio 1 3``) and every private view of a hand use this one order."""
    return tuple(sorted(cards, key=lambda card: (card.rank, card.suit), reverse=True))
