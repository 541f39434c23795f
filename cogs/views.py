"""Buttons, modals and select menus of the game, with stable custom ids.

These views only draw components. They are stopped before they are sent, so discord.py keeps
nothing in memory for them: every click and every modal is routed by its custom id through the
game cog's ``on_interaction`` listener, which is why they keep working after a restart and why no
view accumulates per message. The legal actions come from the engine; nothing here decides.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord

from cogs import render
from engine.actions import ActionKind, LegalAction
from engine.cards import Card
from engine.table import TableView

__all__ = [
    "AMOUNT_FIELD",
    "CARDS_BUTTON",
    "COMEBACK_BUTTON",
    "DISCARD_MENU",
    "PREFIX",
    "START_BUTTON",
    "action_custom_id",
    "amount_modal",
    "discard_view",
    "modal_custom_id",
    "modal_value",
    "table_view",
]

PREFIX = "tv:"
CARDS_BUTTON = "tv:carte"
COMEBACK_BUTTON = "tv:rientra"
START_BUTTON = "tv:inizia"
DISCARD_MENU = "tv:scarta"
AMOUNT_FIELD = "importo"

AMOUNT_KINDS = frozenset({ActionKind.APRO, ActionKind.PUNTO, ActionKind.RILANCIO})
"""Words said with an amount chosen by the player: their buttons open a modal."""

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


def action_custom_id(kind: ActionKind) -> str:
    return f"{PREFIX}a:{kind.value}"


def modal_custom_id(kind: ActionKind) -> str:
    return f"{PREFIX}m:{kind.value}"


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


def table_view(view: TableView, legal: Sequence[LegalAction]) -> discord.ui.View:
    """The buttons under the table message: the legal words of the player to act, his cards, the
    way back for who sits out, and the next hand between hands."""
    out = discord.ui.View(timeout=None)
    if view.hand_running:
        for action in legal:
            out.add_item(
                discord.ui.Button(
                    label=_label(action),
                    custom_id=action_custom_id(action.kind),
                    style=_STYLES.get(action.kind, discord.ButtonStyle.primary),
                    row=0,
                )
            )
        out.add_item(
            discord.ui.Button(
                label="Le mie carte", custom_id=CARDS_BUTTON, style=discord.ButtonStyle.secondary, row=1
            )
        )
    elif view.can_start:
        out.add_item(
            discord.ui.Button(
                label="Prossima mano", custom_id=START_BUTTON, style=discord.ButtonStyle.success, row=1
            )
        )
    if any(seat.sitting_out for seat in view.seats):
        out.add_item(
            discord.ui.Button(
                label="Rientro", custom_id=COMEBACK_BUTTON, style=discord.ButtonStyle.secondary, row=1
            )
        )
    return _frozen(out)


def amount_modal(legal: LegalAction) -> discord.ui.Modal:
    """Ask for an amount, with the legal range in the field's label."""
    word = LABELS[legal.kind]
    modal = discord.ui.Modal(
        title=f"{word}: quante fiches?", custom_id=modal_custom_id(legal.kind), timeout=None
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


def discard_view(cards: Iterable[Card], max_draw: int) -> discord.ui.View:
    """The private select menu of the player's own cards, for the draw."""
    shown = render.display_order(cards)
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=DISCARD_MENU,
        placeholder="Scegli le carte da cambiare",
        min_values=1,
        max_values=min(max_draw, len(shown)),
        options=[
            discord.SelectOption(label=str(card), value=str(card.code), description=f"carta n. {i}")
            for i, card in enumerate(shown, start=1)
        ],
    )
    out = discord.ui.View(timeout=None)
    out.add_item(select)
    return _frozen(out)


def modal_value(data: Any, custom_id: str = AMOUNT_FIELD) -> str | None:
    """The text typed in a submitted modal field (rows or labels, as Discord nests them)."""
    if isinstance(data, dict):
        if data.get("custom_id") == custom_id and "value" in data:
            return str(data["value"])
        for key in ("components", "component"):
            found = modal_value(data.get(key), custom_id)
            if found is not None:
                return found
    elif isinstance(data, list):
        for item in data:
            found = modal_value(item, custom_id)
            if found is not None:
                return found
    return None
