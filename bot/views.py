"""Buttons, modals and select menus of the game, each bound to its table and hand.

Every custom id reads ``tv:<table id>:<hand number>:<what>``; the game cog's listener parses it back
(`parse_component`) for buttons, the draw menu and the amount modals alike, so clicks keep working
after a restart and nothing is kept in memory per message. The components that say a word (action
buttons, amount modals, the draw menu) are also bound to the turn they were drawn for,
``tv:<table>:<hand>.<decisions>:<what>``, the decisions taken in the hand so far: a button a message
still showed after the game moved on (a "Vedo 10" when the call is now 30, an edit held back by rate
limits) or a modal opened a street ago acts on nothing. The session (bot/session.py) refuses a
click bound to another table, hand, turn or message; any other ``tv:`` id (an old format, an unknown
word) gets the same clean refusal.

Components are built as Discord's own JSON (`Components`), not as discord.py `View`s: a view's
items, rows and futures cost more than the rest of a table message, they would only be serialized
again, and nothing here needs discord.py to route their clicks. `Components` offers the few methods
discord.py's message senders call. The legal actions come from the engine; nothing here decides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot import render
from engine.actions import ActionKind, LegalAction
from engine.cards import Card, hand_order
from engine.italian import grouped
from engine.table import TableView

__all__ = [
    "AMOUNT_FIELD",
    "AMOUNT_KINDS",
    "BUTTON_ID",
    "MENU_ID",
    "MODAL_ID",
    "PREFIX",
    "Components",
    "Target",
    "amount_modal",
    "custom_id",
    "discard_view",
    "modal_value",
    "parse_component",
    "parse_target",
    "table_view",
]

PREFIX = "tv:"
AMOUNT_FIELD = "importo"
_BOUND = r"tv:(?P<table>[0-9]{1,19}):(?P<hand>[0-9]{1,9})(?:\.(?P<turn>[0-9]{1,9}))?:"
BUTTON_ID = _BOUND + r"(?P<what>a:[a-z]{1,12}|carte|rientra|inizia)"
MENU_ID = _BOUND + r"(?P<what>scarta)"
MODAL_ID = _BOUND + r"(?P<what>m:[a-z]{1,12})"

AMOUNT_KINDS = frozenset({ActionKind.APRO, ActionKind.PUNTO, ActionKind.RILANCIO})
"""Words said with an amount chosen by the player: their buttons open a modal."""


@dataclass(frozen=True, slots=True)
class Target:
    """What a component's custom id is bound to: its table, its hand, what it does, and for a word
    (``a:``, ``m:``, ``scarta``) the turn: the decisions taken in the hand when it was drawn."""

    table_id: int
    hand: int
    what: str  # "a:<word>", "m:<word>", "carte", "rientra", "inizia", "scarta"
    turn: int | None = None

    @property
    def says_a_word(self) -> bool:
        """An action button, an amount modal or the draw menu: bound to its turn."""
        return self.what.startswith(("a:", "m:")) or self.what == "scarta"

    @property
    def kind(self) -> ActionKind | None:
        """The word of an action button or amount modal (None for anything else or an unknown word)."""
        if self.what[:2] not in ("a:", "m:"):
            return None
        try:
            return ActionKind(self.what[2:])
        except ValueError:
            return None


def custom_id(table_id: int, hand: int, what: str, turn: int | None = None) -> str:
    bound = hand if turn is None else f"{hand}.{turn}"
    return f"{PREFIX}{table_id}:{bound}:{what}"


def parse_target(template: str, text: str) -> Target | None:
    """The table, hand and purpose a custom id is bound to (None when it does not fit ``template``)."""
    match = re.fullmatch(template, text)
    if match is None:
        return None
    turn = match["turn"]
    return Target(int(match["table"]), int(match["hand"]), match["what"], None if turn is None else int(turn))


_SHAPES = {
    (discord.InteractionType.component.value, discord.ComponentType.button.value): BUTTON_ID,
    (discord.InteractionType.component.value, discord.ComponentType.string_select.value): MENU_ID,
    (discord.InteractionType.modal_submit.value, None): MODAL_ID,
}


def parse_component(interaction_type: int, data: dict[str, Any]) -> Target | None:
    """The target of a clicked component or submitted modal (its interaction data), when its custom id
    has the shape of its kind: a button's, the draw menu's or an amount modal's."""
    component = data.get("component_type")
    if interaction_type == discord.InteractionType.modal_submit.value or not isinstance(component, int):
        component = None
    template = _SHAPES.get((interaction_type, component))
    return None if template is None else parse_target(template, str(data.get("custom_id") or ""))


@dataclass(frozen=True, slots=True)
class Components:
    """Rows of components as Discord's JSON, standing in for a stopped discord.py `View`.

    discord.py's senders call `to_components` and `has_components_v2`, and store a view for routing
    only when it is not finished: these are always finished, as the game routes its own clicks.
    """

    rows: tuple[dict[str, Any], ...]

    __discord_ui_view__ = True

    def to_components(self) -> list[dict[str, Any]]:
        return list(self.rows)

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    @property
    def children(self) -> list[dict[str, Any]]:
        """Every component of every row, in order."""
        return [item for row in self.rows for item in row["components"]]


def _rows(items: Sequence[dict[str, Any]], per_row: int = 5) -> tuple[dict[str, Any], ...]:
    return tuple(
        {"type": 1, "components": list(items[i : i + per_row])} for i in range(0, len(items), per_row)
    )


LABELS = {
    ActionKind.APRO: "Apro",
    ActionKind.PASSO: "Passo",
    ActionKind.VEDO: "Vedo",
    ActionKind.RILANCIO: "Rilancio",
    ActionKind.PAROL: "Paròl",
    ActionKind.PUNTO: "Punto",
    ActionKind.SERVITO: "Servito",
    ActionKind.CAMBIO: "Cambio",
    ActionKind.BUIO: "Buio",
    ActionKind.CONTROBUIO: "Controbuio",
}
_PRIMARY, _SECONDARY, _SUCCESS, _DANGER = (
    discord.ButtonStyle.primary.value,
    discord.ButtonStyle.secondary.value,
    discord.ButtonStyle.success.value,
    discord.ButtonStyle.danger.value,
)
_STYLES = {
    ActionKind.PASSO: _DANGER,
    ActionKind.APRO: _SUCCESS,
    ActionKind.PUNTO: _SUCCESS,
    ActionKind.RILANCIO: _SUCCESS,
    ActionKind.BUIO: _SUCCESS,
    ActionKind.CONTROBUIO: _SUCCESS,
}


def _label(legal: LegalAction) -> str:
    word = LABELS[legal.kind]
    if legal.kind in (ActionKind.VEDO, ActionKind.BUIO, ActionKind.CONTROBUIO) and legal.min:
        return f"{word} {render.chips(legal.min)}"
    if legal.kind in AMOUNT_KINDS or legal.kind is ActionKind.CAMBIO:
        return f"{word}…"
    return word


def _button(
    table_id: int, hand: int, what: str, label: str, style: int, turn: int | None = None
) -> dict[str, Any]:
    return {
        "type": 2,
        "style": style,
        "label": label,
        "custom_id": custom_id(table_id, hand, what, turn),
        "disabled": False,
    }


def table_view(
    view: TableView, legal: Sequence[LegalAction], *, table_id: int, turn: int, can_deal: bool = True
) -> Components:
    """The buttons under the table message: the legal words of the player to act (bound to this
    ``turn`` too), his cards, the way back for who sits out, and the next hand between hands; all
    bound to this table and hand."""
    hand = view.hand_number
    words: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    if view.hand_running:
        for action in legal:
            style = _STYLES.get(action.kind, _PRIMARY)
            words.append(_button(table_id, hand, f"a:{action.kind.value}", _label(action), style, turn))
        others.append(_button(table_id, hand, "carte", "Le mie carte", _SECONDARY))
    elif view.can_start and can_deal:
        others.append(_button(table_id, hand, "inizia", "Prossima mano", _SUCCESS))
    if any(seat.sitting_out for seat in view.seats):
        others.append(_button(table_id, hand, "rientra", "Rientro", _SECONDARY))
    return Components(_rows(words) + _rows(others))


LABEL_LIMIT = 45
"""Discord's limit on a text field's label."""


def _amount_label(legal: LegalAction) -> str:
    """The legal range as the field's label: the longest wording that fits, never a cut one. A raise
    is counted above the call (the engine's amount), which the label says while it fits."""
    low, high = grouped(legal.min), grouped(legal.max)
    if legal.min == legal.max:
        wordings = [f"Solo {render.chips(legal.min)}", f"Solo {low}"]
    else:
        span = f"{low}–{high}"
        above = [f"Sopra la chiamata: {span} fiches", f"Sopra la chiamata: {span}"]
        wordings = [*(above if legal.kind is ActionKind.RILANCIO else []), f"Da {low} a {high} fiches"]
        wordings += [f"{span} fiches", span]
    return next(w for w in wordings if len(w) <= LABEL_LIMIT)


def amount_modal(legal: LegalAction, *, table_id: int, hand: int, turn: int) -> discord.ui.Modal:
    """Ask for an amount, with the legal range in the field's label."""
    word = LABELS[legal.kind]
    modal = discord.ui.Modal(
        title=f"{word}: quante fiches?",
        custom_id=custom_id(table_id, hand, f"m:{legal.kind.value}", turn),
        timeout=None,
    )
    modal.add_item(
        discord.ui.TextInput(
            label=_amount_label(legal),
            custom_id=AMOUNT_FIELD,
            placeholder="un numero, oppure cip, piatto o tutto",
            default=str(legal.min),
            required=True,
            max_length=20,
        )
    )
    modal.stop()
    return modal


def discard_view(cards: Iterable[Card], max_draw: int, *, table_id: int, hand: int, turn: int) -> Components:
    """The private select menu of the player's own cards, for the draw."""
    shown = hand_order(cards)
    menu = {
        "type": 3,
        "custom_id": custom_id(table_id, hand, "scarta", turn),
        "placeholder": "Scegli le carte da cambiare",
        "min_values": 1,
        "max_values": min(max_draw, len(shown)),
        "options": [
            {"label": str(card), "value": str(card.code), "description": f"carta n. {i}", "default": False}
            for i, card in enumerate(shown, start=1)
        ],
        "disabled": False,
    }
    return Components(_rows([menu]))


def modal_value(data: Any, field: str = AMOUNT_FIELD) -> str | None:
    """The text typed in a submitted modal field (rows or labels, as Discord nests them)."""
    if isinstance(data, dict):
        if data.get("custom_id") == field and "value" in data:
            return str(data["value"])
        for key in ("components", "component"):
            found = modal_value(data.get(key), field)
            if found is not None:
                return found
    elif isinstance(data, list):
        for item in data:
            found = modal_value(item, field)
            if found is not None:
                return found
    return None
