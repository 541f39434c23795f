"""What the table tells the channel, one frozen value per thing that happened.

Every event carries ``private_to``: ``None`` for the whole table, or the one player allowed to see
it (his cards). A player's cards only leave the engine in a private event until showdown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine._frozen import fast_init
from engine.actions import ActionKind
from engine.cards import Card

__all__ = [
    "ActionTaken",
    "BetReturned",
    "CardBurnt",
    "CardsDealt",
    "CardsDrawn",
    "ChipsPosted",
    "DiscardsReshuffled",
    "Event",
    "HandEnded",
    "HandMucked",
    "HandShown",
    "HandSkipped",
    "HandStarted",
    "HandVoid",
    "OpeningShown",
    "PlayerCameBack",
    "PlayerLeft",
    "PlayerSat",
    "PlayerSatOut",
    "PlayerTimedOut",
    "PostKind",
    "PotAwarded",
    "PotCarried",
    "PotUpdated",
    "StackReleased",
    "Street",
    "StreetStarted",
]


class PostKind(StrEnum):
    INVITO = "invito"
    PICCOLO_BUIO = "piccolo buio"
    GRANDE_BUIO = "grande buio"
    OVER = "over"
    DEBITO = "debito paròl"


class Street(StrEnum):
    """Phases of a hand, as shown to the players."""

    BUIO = "buio"
    APERTURA = "apertura"
    PRIMO_GIRO = "primo giro"
    CAMBIO = "cambio"
    SECONDO_GIRO = "secondo giro"
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"


@fast_init
@dataclass(frozen=True, slots=True)
class Event:
    private_to: int | None = field(default=None, kw_only=True)


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerSat(Event):
    player: int
    seat: int
    stack: int
    waits: bool  # sat during a hand: plays from the next one


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    player: int
    seat: int
    busted: bool  # removed because he has no chips left


@fast_init
@dataclass(frozen=True, slots=True)
class StackReleased(Event):
    """Chips that leave the table for the player's balance now."""

    player: int
    amount: int


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerSatOut(Event):
    player: int
    timeouts: bool  # sat out by rules §5.5, not by his own request


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerCameBack(Event):
    player: int


@fast_init
@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    hand_number: int
    dealer: int
    players: tuple[int, ...]  # dealt in, clockwise from the dealer's left
    deck_size: int
    opening_level: int | None  # 11, 12, 13 in italiana; None elsewhere
    carried: int  # pot carried from the previous hand


@fast_init
@dataclass(frozen=True, slots=True)
class HandSkipped(Event):
    """A seated player not dealt in because he cannot pay his paròl debt or forced bet."""

    player: int
    debt: int


@fast_init
@dataclass(frozen=True, slots=True)
class ChipsPosted(Event):
    player: int
    kind: PostKind
    amount: int


@fast_init
@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    player: int
    cards: tuple[Card, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class StreetStarted(Event):
    street: Street
    board: tuple[Card, ...] = ()  # the new board cards (texas)


@fast_init
@dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    """``amount`` is the number given with the word (bet, raise over the call, number of cards
    changed: the public side of the draw); ``put_in`` the chips that moved; ``all_in`` whether the
    player has nothing left."""

    player: int
    kind: ActionKind
    amount: int
    put_in: int
    bet: int  # his total bet in this round after the action
    all_in: bool


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerTimedOut(Event):
    player: int
    kind: ActionKind  # what the engine said for him


@fast_init
@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    player: int
    discarded: tuple[Card, ...]
    received: tuple[Card, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class CardBurnt(Event):
    pass


@fast_init
@dataclass(frozen=True, slots=True)
class DiscardsReshuffled(Event):
    count: int


@fast_init
@dataclass(frozen=True, slots=True)
class BetReturned(Event):
    """The uncalled part of a bet goes back to its owner (rules §5.3)."""

    player: int
    amount: int


@fast_init
@dataclass(frozen=True, slots=True)
class PotUpdated(Event):
    total: int
    pots: tuple[int, ...]  # main pot first, then side pots


@fast_init
@dataclass(frozen=True, slots=True)
class HandShown(Event):
    player: int
    cards: tuple[Card, ...]
    hand: str  # category name, Italian
    best: tuple[Card, ...]  # the five cards that make it


@fast_init
@dataclass(frozen=True, slots=True)
class HandMucked(Event):
    player: int


@fast_init
@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    pot: int  # 0 = main pot
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    shown: bool  # False when won because everyone else folded


@fast_init
@dataclass(frozen=True, slots=True)
class OpeningShown(Event):
    player: int
    cards: tuple[Card, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class HandVoid(Event):
    """Nobody opened: the pot stays for the next hand at a higher level."""

    carried: int
    next_level: int


@fast_init
@dataclass(frozen=True, slots=True)
class PotCarried(Event):
    """All paròl: the pot is carried; ``debts`` is what each seated player must add to play."""

    carried: int
    debts: tuple[tuple[int, int], ...]


@fast_init
@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    hand_number: int
    stacks: tuple[tuple[int, int], ...]
