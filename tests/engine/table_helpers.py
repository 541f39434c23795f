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


def of_type(events: Sequence[Event], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def snapshot(table: Table) -> dict[str, Any]:
    """Everything inside the table but its random generator and its legal-actions cache."""
    return copy.deepcopy({k: v for k, v in vars(table).items() if k not in ("_rng", "_legal_cache")})


def kinds(table: Table) -> set[ActionKind]:
    return {la.kind for la in table.legal_actions()}
