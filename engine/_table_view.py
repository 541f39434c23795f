"""The public snapshot of a table: everything a channel may see, nothing private."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.events import Street
from engine.options import Limit, Variant

__all__ = ["SeatView", "TableView"]


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    player: int
    stack: int
    bet: int  # chips in front of him in this betting round
    in_hand: bool  # dealt in this hand and not folded
    folded: bool
    all_in: bool
    sitting_out: bool
    leaving: bool  # left during the hand: his seat frees when it ends
    cards_drawn: int | None  # public count of the draw (None before he declares)
    debt: int  # what he must add to a carried paròl pot to be dealt in


@dataclass(frozen=True, slots=True)
class TableView:
    variant: Variant
    cip: int
    invito: int
    limite: Limit
    hand_number: int
    hand_running: bool
    street: Street | None
    dealer: int | None  # player id
    seats: tuple[SeatView, ...]
    board: tuple[Card, ...]
    pot: int  # everything in the middle, bets of this round included
    pots: tuple[int, ...]  # main pot then side pots, gathered at the end of the betting rounds
    current_bet: int
    opening_level: int | None  # italiana: 11 J, 12 Q, 13 K
    carried: int  # carried pot waiting for the next hand (between hands)
    to_act: int | None  # player id
    opener: int | None
    can_start: bool
