"""/mano [numero]: a finished hand of this channel's table, told again from its stored record.

The answer is public: it shows only what the table showed when the hand was played (the actions,
the board, the hands shown at the showdown, the result, the fair deck's reveal, which the table
publishes after every hand), so telling it again reveals nothing, and the players can talk it over.
A number that does not exist, or a hand still running, is refused in one private sentence.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import hand_replay
from bot.errors import UserError
from bot.i18n import T, localized_options
from bot.session import channel_of
from bot.tree import guild_id_of

if TYPE_CHECKING:
    from bot.client import PokerBot

log = logging.getLogger(__name__)

NEVER_A_TABLE = "In questo canale non c'è mai stato un tavolo: non ci sono mani da rivedere."
NO_HAND_YET = "A questo tavolo non è ancora finita nessuna mano."
STILL_RUNNING = "La mano n. {number} è ancora in corso: potrai rivederla quando finisce."
UNREADABLE = "La mano n. {number} non si può rivedere: il suo registro non è leggibile."


def no_such_hand(number: int, last: int) -> str:
    if last == 0:
        return f"La mano n. {number} non esiste: a questo tavolo non si è ancora giocata nessuna mano."
    if last == 1:
        return f"La mano n. {number} non esiste: a questo tavolo c'è solo la mano n. 1."
    return f"La mano n. {number} non esiste: a questo tavolo le mani vanno dalla n. 1 alla n. {last}."


class Mano(commands.Cog):
    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot

    @app_commands.command(name=T("mano"), description=T("Rivedi una mano finita di questo tavolo"))
    @app_commands.guild_only()
    @localized_options(numero="Il numero della mano (se manca: l'ultima finita)")
    async def mano(
        self,
        interaction: discord.Interaction,
        numero: app_commands.Range[int, 1, 1_000_000_000] | None = None,
    ) -> None:
        guild_id_of(interaction)
        channel_id = channel_of(interaction)
        stored = await self.bot.storage.stored_hand(channel_id, numero)
        if stored is None:
            raise UserError(NEVER_A_TABLE)
        if stored.status == "missing":
            raise UserError(NO_HAND_YET if numero is None else no_such_hand(numero, stored.last_number))
        if stored.status == "running":
            raise UserError(STILL_RUNNING.format(number=stored.number))
        none = discord.AllowedMentions.none()
        if stored.status == "cancelled" or stored.record is None:
            await interaction.response.send_message(
                hand_replay.cancelled_text(stored.number), allowed_mentions=none
            )
            return
        try:
            embeds = hand_replay.replay_embeds(stored)
        except hand_replay.ReplayError as error:
            log.warning("Hand %s of table %s cannot be replayed: %s", stored.number, stored.table_id, error)
            raise UserError(UNREADABLE.format(number=stored.number)) from None
        groups = hand_replay.messages(embeds)
        await interaction.response.send_message(embeds=groups[0], allowed_mentions=none)
        for group in groups[1:]:
            await interaction.followup.send(embeds=group, allowed_mentions=none)


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(Mano(bot))
