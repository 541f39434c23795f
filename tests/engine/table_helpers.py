"""Shared helpers of the table tests: stacked decks, short action calls, state snapshots.

Seats are taken in order, so with ``players=n`` player ``i`` sits at seat ``i - 1`` and the first
dealer is player 1; the deal starts at player 2 and goes round to player 1.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

from engine.actions import Action, ActionKind
from engine.cards import Card, parse_cards
from engine.events import Event
from engine.options import TableOptions
from engine.table import Table

K = ActionKind


def make_table(variant: str = "italiana", players: int = 4, stack: int = 1000, **options: Any) -> Table:
    table = Table(TableOptions(variant=variant, **options), rng=random.Random(7))  # type: ignore[arg-type]
    for player in range(1, players + 1):
        table.sit(player, stack)
    return table


def stacked(hands: Sequence[str], rest: str = "") -> list[Card]:
    """A deck dealing ``hands`` (in deal order, from the dealer's left) one card at a time,
    followed by ``rest`` (the stock, top first)."""
    parsed = [parse_cards(hand) for hand in hands]
    size = len(parsed[0])
    deck = [parsed[p][i] for i in range(size) for p in range(len(parsed))]
    return deck + list(parse_cards(rest)) if rest else deck


def act(
    table: Table, player: int, kind: ActionKind, amount: int | None = None, cards: str = ""
) -> list[Event]:
    return table.act(Action(player, kind, amount, parse_cards(cards) if cards else ()))


def to_parol(table: Table) -> list[Event]:
    """Four players of poker tradizionale, the hand just dealt: 2 declines the buio and passes,
    3 opens for the minimum (10), 4 and 1 pass, 2 calls, both stand pat and both say paròl: the
    pot is carried to the next hand (rules §2.7). The events of the last paròl."""
    act(table, 2, K.PASSO)  # declines the buio
    act(table, 2, K.PASSO)
    act(table, 3, K.APRO, 10)
    act(table, 4, K.PASSO)
    act(table, 1, K.PASSO)
    act(table, 2, K.VEDO)
    act(table, 2, K.SERVITO)
    act(table, 3, K.SERVITO)
    act(table, 3, K.PAROL)
    return act(table, 2, K.PAROL)


def five_at_the_draw(hands: Sequence[str], seed: int) -> Table:
    """Five players of poker tradizionale on 32 cards (7 left in the stock), dealt ``hands``: 2
    declines the buio and opens for 10, 3 and 4 call, 5 and 1 fold; 2 is to change his cards.
    ``seed`` drives the table's generator (the order of a reshuffled stock)."""
    table = Table(TableOptions(mazzo="32"), rng=random.Random(seed))  # type: ignore[arg-type]
    for player in range(1, 6):
        table.sit(player, 1000)
    table.start_hand(deck=stacked(hands))
    act(table, 2, K.PASSO)  # no buio
    act(table, 2, K.APRO, 10)
    act(table, 3, K.VEDO)
    act(table, 4, K.VEDO)
    act(table, 5, K.PASSO)
    act(table, 1, K.PASSO)
    return table


def of_type(events: Sequence[Event], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def snapshot(table: Table) -> dict[str, Any]:
    """Everything inside the table but its random generator and its legal-actions cache."""
    return copy.deepcopy({k: v for k, v in vars(table).items() if k not in ("_rng", "_legal_cache")})


def kinds(table: Table) -> set[ActionKind]:
    return {la.kind for la in table.legal_actions()}
