"""/statistiche [utente]: a player's hands on this server, per variant, and his finished tournaments
(bot/player_stats.py).

Answered privately: it is a question for the one who asks, and the table's channel is for the game.
Everything it counts was public at the tables (results, pots, hands shown at a showdown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.i18n import T, localized_options
from bot.player_stats import stats_embed
from bot.tree import guild_id_of

if TYPE_CHECKING:
    from bot.client import PokerBot

BOTS_DO_NOT_PLAY = "I bot non giocano: scegli una persona."


class Statistiche(commands.Cog):
    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=T("statistiche"), description=T("Le statistiche di gioco di un giocatore in questo server")
    )
    @app_commands.guild_only()
    @localized_options(utente="Di chi vedere le statistiche (se manca: le tue)")
    async def statistiche(self, interaction: discord.Interaction, utente: discord.User | None = None) -> None:
        who = utente or interaction.user
        if who.bot:
            raise UserError(BOTS_DO_NOT_PLAY)
        guild_id = guild_id_of(interaction)
        stats = await self.bot.storage.player_stats(guild_id, who.id)
        tournaments = await self.bot.storage.tournament_stats(guild_id, who.id)
        await interaction.response.send_message(
            embed=stats_embed(who.id, stats, tournaments),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(Statistiche(bot))
