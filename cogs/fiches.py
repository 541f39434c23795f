"""Chip commands: /saldo, /bonus, /classifica, /storico and, for server managers, /accredita.

Thin by design: the ledger (`bot.storage`) does every check and every movement; refusals travel as
`StorageError` to the error funnel in `bot.tree`.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.errors import UserError
from bot.i18n import T, localized_options
from bot.storage import MAX_CHIPS
from bot.tree import guild_id_of

if TYPE_CHECKING:
    from bot.client import PokerBot


class Fiches(commands.Cog):
    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot

    @app_commands.command(name=T("saldo"), description=T("Le tue fiches in questo server"))
    @app_commands.guild_only()
    async def saldo(self, interaction: discord.Interaction) -> None:
        balance = await self.bot.storage.balance(guild_id_of(interaction), interaction.user.id)
        await interaction.response.send_message(render.balance_text(balance), ephemeral=True)

    @app_commands.command(name=T("bonus"), description=T("Ritira il bonus giornaliero di fiches"))
    @app_commands.guild_only()
    async def bonus(self, interaction: discord.Interaction) -> None:
        balance = await self.bot.storage.claim_bonus(guild_id_of(interaction), interaction.user.id)
        text = render.bonus_text(interaction.user.id, self.bot.storage.daily_bonus, balance)
        await interaction.response.send_message(text)

    @app_commands.command(name=T("classifica"), description=T("I giocatori con più fiches in questo server"))
    @app_commands.guild_only()
    async def classifica(self, interaction: discord.Interaction) -> None:
        rows = await self.bot.storage.leaderboard(guild_id_of(interaction), limit=10)
        await interaction.response.send_message(embed=render.leaderboard_embed(rows))

    @app_commands.command(
        name=T("storico"), description=T("Le tue ultime mani e i tuoi ultimi movimenti di fiches")
    )
    @app_commands.guild_only()
    async def storico(self, interaction: discord.Interaction) -> None:
        user_id, guild_id = interaction.user.id, guild_id_of(interaction)
        await self.bot.storage.balance(guild_id, user_id)  # opens his account, as /saldo does
        history = await self.bot.storage.history(guild_id, user_id, limit=10, account="balance")
        tables = self.bot.tables
        hands = tuple(
            h
            for h in history.hands
            if not (h.status == "running" and tables.sits_out_running_hand(h.table_id, user_id))
        )
        shown = dataclasses.replace(history, hands=hands)
        await interaction.response.send_message(embed=render.history_embed(shown), ephemeral=True)

    @app_commands.command(
        name=T("accredita"), description=T("Dai fiches a un giocatore (solo chi gestisce il server)")
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @localized_options(utente="Il giocatore che riceve le fiches", importo="Quante fiches")
    async def accredita(
        self,
        interaction: discord.Interaction,
        utente: discord.User,
        importo: app_commands.Range[int, 1, MAX_CHIPS],
    ) -> None:
        if utente.bot:
            raise UserError("I bot non giocano: scegli una persona.")
        balance = await self.bot.storage.grant(
            guild_id_of(interaction), utente.id, importo, interaction.user.id
        )
        await interaction.response.send_message(
            render.grant_text(interaction.user.id, utente.id, importo, balance)
        )


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(Fiches(bot))
