"""Playing: the Italian action commands and the amount modals; everything else is the session's.

Each command calls down into the table's session (bot/session.py), which judges the action from
the state now (a refusal is private from the first byte), then under the table's lock, and shows
the result. The listener below routes every button, draw menu and amount modal of the game (their
custom ids are bound to a table and hand, bot/views.py), and answers any other ``tv:`` custom id (an
old format, an unknown word, a button since taken off) with the same clean, private refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import views
from bot.errors import UserError
from bot.i18n import T, localized_options
from bot.session import STALE
from bot.tree import report_error, require_guild
from engine.actions import ActionKind

if TYPE_CHECKING:
    from bot.client import PokerBot

__all__ = ["Gioco"]


class Gioco(commands.Cog):
    """The action commands, the amount modals and the refusal of unknown components."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every button, menu and modal of the game, and every other ``tv:`` id with a refusal."""
        kind = interaction.type
        if kind is not discord.InteractionType.component and kind is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id") or "")
        if not custom_id.startswith(views.PREFIX):
            return
        try:
            require_guild(interaction)
            target = views.parse_component(kind.value, data)
            if target is None or (
                kind is discord.InteractionType.component and not _on_message(interaction.message, custom_id)
            ):
                raise UserError(STALE)  # an old format, an unknown word, a component no longer shown
            await self.bot.sessions.component(interaction, target, data)
        except Exception as exc:  # the one funnel, as for slash commands
            await report_error(interaction, exc)

    # Slash commands -----------------------------------------------------------------------------

    @app_commands.guild_only()
    @app_commands.command(name=T("apro"), description=T("Apri il piatto (serve almeno la coppia richiesta)"))
    @localized_options(importo="Quante fiches: un numero, cip, piatto o tutto (se manca: un cip)")
    async def apro(self, interaction: discord.Interaction, importo: str | None = None) -> None:
        await self.bot.sessions.act(interaction, ActionKind.APRO, amount=importo)

    @app_commands.guild_only()
    @app_commands.command(name=T("vedo"), description=T("Vedi la puntata"))
    async def vedo(self, interaction: discord.Interaction) -> None:
        await self.bot.sessions.act(interaction, ActionKind.VEDO)

    @app_commands.guild_only()
    @app_commands.command(name=T("rilancio"), description=T("Vedi e rilancia di un importo"))
    @localized_options(importo="Di quanto rilanci sopra la chiamata: un numero, cip, piatto o tutto")
    async def rilancio(self, interaction: discord.Interaction, importo: str) -> None:
        await self.bot.sessions.act(interaction, ActionKind.RILANCIO, amount=importo)

    @app_commands.guild_only()
    @app_commands.command(name=T("passo"), description=T("Passa: non apri, oppure lasci la mano"))
    async def passo(self, interaction: discord.Interaction) -> None:
        await self.bot.sessions.act(interaction, ActionKind.PASSO)

    @app_commands.guild_only()
    @app_commands.command(name=T("paròl"), description=T("Paròl: non punti e passi la parola"))
    async def parol(self, interaction: discord.Interaction) -> None:
        await self.bot.sessions.act(interaction, ActionKind.PAROL)

    @app_commands.guild_only()
    @app_commands.command(name=T("punto"), description=T("Punta un importo"))
    @localized_options(importo="Quante fiches: un numero, cip, piatto o tutto")
    async def punto(self, interaction: discord.Interaction, importo: str) -> None:
        await self.bot.sessions.act(interaction, ActionKind.PUNTO, amount=importo)

    @app_commands.guild_only()
    @app_commands.command(name=T("servito"), description=T("Sei servito: non cambi carte"))
    async def servito(self, interaction: discord.Interaction) -> None:
        await self.bot.sessions.act(interaction, ActionKind.SERVITO)

    @app_commands.guild_only()
    @app_commands.command(name=T("cambio"), description=T("Cambia delle carte"))
    @localized_options(carte="Le carte da cambiare: per posizione (1 3 5) o per carta (7♠ 9♦)")
    async def cambio(self, interaction: discord.Interaction, carte: str) -> None:
        await self.bot.sessions.act(interaction, ActionKind.CAMBIO, discards=carte)

    @app_commands.guild_only()
    @app_commands.command(name=T("buio"), description=T("Apri al buio, prima di vedere le carte"))
    async def buio(self, interaction: discord.Interaction) -> None:
        await self.bot.sessions.act(interaction, ActionKind.BUIO)

    @app_commands.guild_only()
    @app_commands.command(name=T("controbuio"), description=T("Rispondi al buio con il controbuio"))
    async def controbuio(self, interaction: discord.Interaction) -> None:
        await self.bot.sessions.act(interaction, ActionKind.CONTROBUIO)

    @app_commands.guild_only()
    @app_commands.command(name=T("carte"), description=T("Mostra solo a te le tue carte"))
    async def carte(self, interaction: discord.Interaction) -> None:
        await self.bot.sessions.show_cards(interaction)


def _on_message(message: discord.Message | None, custom_id: str) -> bool:
    """Whether the message still carries the component: a client showing an older version of it
    (buttons since taken off) can still send its clicks."""
    if message is None:
        return False
    stack: list[Any] = list(message.components)
    while stack:
        item = stack.pop()
        if getattr(item, "custom_id", None) == custom_id:
            return True
        stack.extend(getattr(item, "children", None) or ())
    return False


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(Gioco(bot))
