"""/avvisi: a player turns his own turn calls off or on (bot/turn_calls.py), in this server.

Thin: the choice is stored by the storage and applied by `TurnCalls.choose`; the answer is private.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.i18n import T, localized_options
from bot.tree import guild_id_of

if TYPE_CHECKING:
    from bot.client import PokerBot

CALLS_ON = "Avvisi attivi: quando tocca a te e non hai ancora giocato, ti menziono nel canale del tavolo."
CALLS_OFF = "Avvisi spenti: non ti menziono più quando tocca a te (li riattivi con /avvisi)."


class Avvisi(commands.Cog):
    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=T("avvisi"), description=T("Ricevi o no una menzione quando tocca a te al tavolo")
    )
    @app_commands.guild_only()
    @localized_options(stato="Attivi o spenti; se manca, cambia quello che hai ora")
    @app_commands.choices(stato=[Choice(name=T("Attivi"), value="on"), Choice(name=T("Spenti"), value="off")])
    async def avvisi(self, interaction: discord.Interaction, stato: str | None = None) -> None:
        guild_id, player = guild_id_of(interaction), interaction.user.id
        calls = self.bot.sessions.calls
        enabled = not await calls.wanted(guild_id, player) if stato is None else stato == "on"
        await calls.choose(guild_id, player, enabled)
        await interaction.response.send_message(CALLS_ON if enabled else CALLS_OFF, ephemeral=True)


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(Avvisi(bot))
