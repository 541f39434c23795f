"""Buttons, modals and select menus of the game, each bound to its table and hand.

Every custom id reads ``tv:<table id>:<hand number>:<what>``; discord.py's `DynamicItem` parses it
back (`TableButton`, `DiscardMenu`; registered with ``bot.add_dynamic_items``), so clicks keep
working after a restart and no view is kept in memory per message (views are stopped before they
are sent). The session (bot/session.py) refuses a click bound to another table, hand or message.
Modals are not dynamic items in discord.py: the game cog's listener parses `MODAL_ID` itself, and
answers any other ``tv:`` id (an old format, an unknown word) with the same clean refusal.
The legal actions come from the engine; nothing here decides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot import render
from engine.actions import ActionKind, LegalAction
from engine.cards import Card, hand_order
from engine.table import TableView

__all__ = [
    "AMOUNT_FIELD",
    "AMOUNT_KINDS",
    "BUTTON_ID",
    "MENU_ID",
    "MODAL_ID",
    "PREFIX",
    "DiscardMenu",
    "TableButton",
    "Target",
    "action_custom_id",
    "amount_modal",
    "custom_id",
    "discard_view",
    "known_custom_id",
    "modal_value",
    "parse_target",
    "table_view",
]

PREFIX = "tv:"
AMOUNT_FIELD = "importo"
_BOUND = r"tv:(?P<table>[0-9]{1,19}):(?P<hand>[0-9]{1,9}):"
BUTTON_ID = _BOUND + r"(?P<what>a:[a-z]{1,12}|carte|rientra|inizia)"
MENU_ID = _BOUND + r"(?P<what>scarta)"
MODAL_ID = _BOUND + r"(?P<what>m:[a-z]{1,12})"

AMOUNT_KINDS = frozenset({ActionKind.APRO, ActionKind.PUNTO, ActionKind.RILANCIO})
"""Words said with an amount chosen by the player: their buttons open a modal."""


@dataclass(frozen=True, slots=True)
class Target:
    """What a component's custom id is bound to: its table, its hand, and what it does."""

    table_id: int
    hand: int
    what: str  # "a:<word>", "m:<word>", "carte", "rientra", "inizia", "scarta"

    @property
    def kind(self) -> ActionKind | None:
        """The word of an action button or amount modal (None for anything else or an unknown word)."""
        if self.what[:2] not in ("a:", "m:"):
            return ActionKind.CAMBIO if self.what == "scarta" else None
        try:
            return ActionKind(self.what[2:])
        except ValueError:
            return None


def custom_id(table_id: int, hand: int, what: str) -> str:
    return f"{PREFIX}{table_id}:{hand}:{what}"


def action_custom_id(kind: ActionKind, *, table_id: int, hand: int) -> str:
    return custom_id(table_id, hand, f"a:{kind.value}")


def parse_target(template: str, text: str) -> Target | None:
    """The table, hand and purpose a custom id is bound to (None when it does not fit ``template``)."""
    match = re.fullmatch(template, text)
    if match is None:
        return None
    return Target(int(match["table"]), int(match["hand"]), match["what"])


def known_custom_id(text: str) -> bool:
    """Whether a dynamic item of this module answers ``text`` (the listener refuses the others)."""
    return any(re.fullmatch(template, text) for template in (BUTTON_ID, MENU_ID))


class ComponentHandler(Protocol):
    async def component(self, interaction: discord.Interaction, target: Target, data: Any = None) -> None: ...


class _HasSessions(Protocol):
    sessions: ComponentHandler


async def _dispatch(interaction: discord.Interaction, target: Target) -> None:
    """Route to the sessions; a refusal or a failure goes through the one error funnel."""
    from bot.tree import report_error, require_guild

    try:
        require_guild(interaction)
        handler = cast(_HasSessions, interaction.client).sessions
        await handler.component(interaction, target, dict(interaction.data or {}))
    except Exception as exc:  # the one funnel, as for slash commands
        await report_error(interaction, exc)


class TableButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=BUTTON_ID):
    """A button of a table message: a word, the player's cards, the way back, the next hand."""

    def __init__(self, button: discord.ui.Button[discord.ui.View], target: Target) -> None:
        super().__init__(button)
        self.target = target

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        target = parse_target(BUTTON_ID, match.group(0))
        assert target is not None and isinstance(item, discord.ui.Button)
        return cls(cast("discord.ui.Button[discord.ui.View]", item), target)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.target)


class DiscardMenu(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=MENU_ID):
    """The private menu of the player's own cards for the draw."""

    def __init__(self, select: discord.ui.Select[discord.ui.View], target: Target) -> None:
        super().__init__(select)
        self.target = target

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> DiscardMenu:
        target = parse_target(MENU_ID, match.group(0))
        assert target is not None and isinstance(item, discord.ui.Select)
        return cls(cast("discord.ui.Select[discord.ui.View]", item), target)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.target)


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
_STYLES = {
    ActionKind.PASSO: discord.ButtonStyle.danger,
    ActionKind.APRO: discord.ButtonStyle.success,
    ActionKind.PUNTO: discord.ButtonStyle.success,
    ActionKind.RILANCIO: discord.ButtonStyle.success,
    ActionKind.BUIO: discord.ButtonStyle.success,
    ActionKind.CONTROBUIO: discord.ButtonStyle.success,
}


def _label(legal: LegalAction) -> str:
    word = LABELS[legal.kind]
    if legal.kind in (ActionKind.VEDO, ActionKind.BUIO, ActionKind.CONTROBUIO) and legal.min:
        return f"{word} {render.chips(legal.min)}"
    if legal.kind in AMOUNT_KINDS or legal.kind is ActionKind.CAMBIO:
        return f"{word}…"
    return word


def _frozen(view: discord.ui.View) -> discord.ui.View:
    """Stop the view so that discord.py does not store it: the cog's listener routes its clicks."""
    view.stop()
    return view


def _button(
    table_id: int, hand: int, what: str, label: str, style: discord.ButtonStyle, row: int
) -> TableButton:
    target = Target(table_id, hand, what)
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        label=label, custom_id=custom_id(table_id, hand, what), style=style, row=row
    )
    return TableButton(button, target)


def table_view(
    view: TableView, legal: Sequence[LegalAction], *, table_id: int, can_deal: bool = True
) -> discord.ui.View:
    """The buttons under the table message: the legal words of the player to act, his cards, the
    way back for who sits out, and the next hand between hands; all bound to this table and hand."""
    out = discord.ui.View(timeout=None)
    hand = view.hand_number
    if view.hand_running:
        for action in legal:
            style = _STYLES.get(action.kind, discord.ButtonStyle.primary)
            out.add_item(_button(table_id, hand, f"a:{action.kind.value}", _label(action), style, 0))
        out.add_item(_button(table_id, hand, "carte", "Le mie carte", discord.ButtonStyle.secondary, 1))
    elif view.can_start and can_deal:
        out.add_item(_button(table_id, hand, "inizia", "Prossima mano", discord.ButtonStyle.success, 1))
    if any(seat.sitting_out for seat in view.seats):
        out.add_item(_button(table_id, hand, "rientra", "Rientro", discord.ButtonStyle.secondary, 1))
    return _frozen(out)


def amount_modal(legal: LegalAction, *, table_id: int, hand: int) -> discord.ui.Modal:
    """Ask for an amount, with the legal range in the field's label."""
    word = LABELS[legal.kind]
    modal = discord.ui.Modal(
        title=f"{word}: quante fiches?",
        custom_id=custom_id(table_id, hand, f"m:{legal.kind.value}"),
        timeout=None,
    )
    if legal.min == legal.max:
        label = f"Solo {render.chips(legal.min)}"
    else:
        label = f"Da {render.chips(legal.min)} a {render.chips(legal.max)}"
    if legal.kind is ActionKind.RILANCIO:
        label = f"Rilancio sopra la chiamata: {label[0].lower()}{label[1:]}"
    if len(label) > 45:
        label = f"Da {legal.min} a {legal.max} fiches"
    modal.add_item(
        discord.ui.TextInput(
            label=label[:45],
            custom_id=AMOUNT_FIELD,
            placeholder="un numero, oppure cip, piatto o tutto",
            default=str(legal.min),
            required=True,
            max_length=20,
        )
    )
    modal.stop()
    return modal


def discard_view(cards: Iterable[Card], max_draw: int, *, table_id: int, hand: int) -> discord.ui.View:
    """The private select menu of the player's own cards, for the draw."""
    shown = hand_order(cards)
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=custom_id(table_id, hand, "scarta"),
        placeholder="Scegli le carte da cambiare",
        min_values=1,
        max_values=min(max_draw, len(shown)),
        options=[
            discord.SelectOption(label=str(card), value=str(card.code), description=f"carta n. {i}")
            for i, card in enumerate(shown, start=1)
        ],
    )
    out = discord.ui.View(timeout=None)
    out.add_item(DiscardMenu(select, Target(table_id, hand, "scarta")))
    return _frozen(out)


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
