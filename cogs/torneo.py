"""/torneo: announce, join, leave, start, show and call off a sit-and-go in a channel or thread.

The cog only translates: the engine validates the options (``TournamentConfig``), bot/tournaments.py
runs the tournament under the channel's lock and the ledger moves the buy-ins and the prizes. The
hands themselves are played with the game's own commands and buttons, as at a cash table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import choices, computers, render, tournament_text
from bot.errors import UserError
from bot.i18n import T, localized_options
from bot.session import channel_of, public_answer
from bot.storage import MAX_CHIPS
from bot.tournaments import CANCEL_REFUSED, NOT_CREATOR, LiveTournament
from bot.tree import guild_id_of
from cogs.busy import busy_channel
from engine.italian import chips_return
from engine.options import Limit, TableOptions, Variant
from engine.tournament import (
    PayoutStructure,
    Phase,
    Ritmo,
    RitmoUnit,
    Schedule,
    ScheduleKind,
    TournamentConfig,
)
from engine.tournament.structure import default_schedule, default_stack

if TYPE_CHECKING:
    from bot.client import PokerBot

DEFAULT_BUYIN = 100


@app_commands.guild_only()
class Torneo(
    commands.GroupCog,
    group_name=T("torneo"),
    group_description=T("Un torneo sit-and-go in questo canale"),
):
    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=T("nuovo"), description=T("Crea un torneo in questo canale (o thread)"))
    @localized_options(
        variante="Il gioco: poker tradizionale, 32 carte o Texas Hold'em",
        buyin="L'iscrizione in fiches del server, che va nel montepremi (se manca: 100)",
        fiches="I gettoni del torneo per ogni giocatore (se manca: 100 cip)",
        cip="Il cip del primo livello; nel 32carte e nel texas è il buio grande",
        invito="L'invito del primo livello (solo poker tradizionale); se manca vale quanto il cip",
        ritmo="Ogni quante mani (o minuti) salgono le puntate",
        unita="Il ritmo si conta in mani o in minuti",
        struttura="Come salgono le puntate",
        premi="Come si divide il montepremi (se manca: secondo il numero di iscritti)",
        posti="Quanti giocatori al massimo (il torneo parte da solo quando è al completo)",
        limite="Il limite delle puntate (32carte e texas)",
        mazzo="Il mazzo del poker tradizionale",
        tempo="Secondi a disposizione per ogni decisione",
    )
    @app_commands.choices(
        variante=choices.VARIANTS,
        unita=[Choice(name=T("Mani"), value="mani"), Choice(name=T("Minuti"), value="minuti")],
        struttura=[
            Choice(name=T("Scala (1, 1,5, 2, 3, 4, 6, 8, 10...)"), value="scala"),
            Choice(name=T("Raddoppio a ogni livello"), value="raddoppio"),
        ],
        premi=[
            Choice(name=T("Tutto al vincitore"), value="vincitore"),
            Choice(name=T("65% e 35%"), value="65-35"),
            Choice(name=T("50%, 30% e 20%"), value="50-30-20"),
        ],
        limite=choices.LIMITS,
        mazzo=choices.MAZZI,
    )
    async def nuovo(
        self,
        interaction: discord.Interaction,
        variante: str,
        buyin: app_commands.Range[int, 0, MAX_CHIPS] = DEFAULT_BUYIN,
        fiches: app_commands.Range[int, 1, 1_000_000_000] | None = None,
        cip: app_commands.Range[int, 1, 1_000_000] | None = None,
        invito: app_commands.Range[int, 1, 1_000_000] | None = None,
        ritmo: app_commands.Range[int, 1, 1000] = 10,
        unita: str = "mani",
        struttura: str = "scala",
        premi: str | None = None,
        posti: app_commands.Range[int, 2, 10] | None = None,
        limite: str | None = None,
        mazzo: str = "auto",
        tempo: app_commands.Range[int, 10, 3600] = 60,
    ) -> None:
        guild_id = guild_id_of(interaction)
        config = build_config(
            variante, buyin, fiches, cip, invito, ritmo, unita, struttura, premi, posti, limite, mazzo, tempo
        )
        channel_id = await busy_channel(interaction, self.bot.tables)
        async with self.bot.tables.channel(channel_id):
            run = await self.bot.tournaments.create(guild_id, channel_id, interaction.user.id, config)
            text = tournament_text.announcement(interaction.user.id, run.tournament)
            await public_answer(
                interaction, self.bot, content=text, embed=tournament_text.status_embed(run.tournament)
            )

    @app_commands.command(name=T("iscriviti"), description=T("Iscriviti al torneo pagando l'iscrizione"))
    async def iscriviti(self, interaction: discord.Interaction) -> None:
        self.bot.tournaments.require(channel_of(interaction))  # refused at once
        channel_id = await busy_channel(interaction, self.bot.tables)
        user = interaction.user
        async with self.bot.tables.channel(channel_id):
            run = self.bot.tournaments.require(channel_id)
            full = await self.bot.tournaments.register(run, user.id, user.display_name)
            await self._entered(interaction, run, f"{render.mention(user.id)} si iscrive al torneo", full)

    @app_commands.command(
        name=T("computer"),
        description=T("Iscrivi un giocatore del computer: l'iscrizione la paga la casa"),
    )
    @localized_options(livello="Come gioca: facile o esperto (se manca: esperto)")
    @app_commands.choices(livello=choices.LEVELS)
    async def computer(self, interaction: discord.Interaction, livello: str = "esperto") -> None:
        self.bot.tournaments.require(channel_of(interaction))
        channel_id = await busy_channel(interaction, self.bot.tables)
        async with self.bot.tables.channel(channel_id):
            run = self.bot.tournaments.require(channel_id)
            player, full = await self.bot.tournaments.add_computer(run, interaction.user.id, livello)
            who = (
                f"{render.mention(interaction.user.id)} iscrive {computers.described(player)} ({livello}), "
                "con l'iscrizione pagata dalla casa"
            )
            await self._entered(interaction, run, who, full)

    async def _entered(
        self, interaction: discord.Interaction, run: LiveTournament, who: str, full: bool
    ) -> None:
        """Say who entered, how many are in and the pool; a full tournament starts at once."""
        t = run.tournament
        text = f"{who} ({len(t.players)} di {t.config.max_players}): montepremi {render.chips(t.pool)}."
        if full:
            await self.bot.tournaments.start(run)
            text += " Il torneo è al completo: si parte!"
        await public_answer(interaction, self.bot, content=text)

    @app_commands.command(
        name=T("ritirati"),
        description=T("Ritirati: prima dell'inizio l'iscrizione ti torna, dopo resti assente"),
    )
    async def ritirati(self, interaction: discord.Interaction) -> None:
        if self.bot.tournaments.require(channel_of(interaction)).tournament.phase is not Phase.ISCRIZIONI:
            await self.bot.sessions.step_away(interaction)  # blinded away: his chips stay in play
            return
        channel_id = await busy_channel(interaction, self.bot.tables)
        async with self.bot.tables.channel(channel_id):
            run = self.bot.tournaments.require(channel_id)
            started = run.tournament.phase is not Phase.ISCRIZIONI
            if not started:
                await self.bot.tournaments.unregister(run, interaction.user.id)
                buy_in = run.tournament.config.buy_in
                text = f"{render.mention(interaction.user.id)} si ritira dal torneo"
                text += f": {chips_return(buy_in)} nel suo saldo." if buy_in else "."
                await public_answer(interaction, self.bot, content=text)
        if started:  # the last registration started it while this waited: he withdraws as after the start
            await self.bot.sessions.step_away(interaction)

    @app_commands.command(name=T("inizia"), description=T("Fai iniziare il torneo (chi l'ha creato)"))
    async def inizia(self, interaction: discord.Interaction) -> None:
        _check_creator(interaction, self.bot.tournaments.require(channel_of(interaction)))
        channel_id = await busy_channel(interaction, self.bot.tables)
        async with self.bot.tables.channel(channel_id):
            run = self.bot.tournaments.require(channel_id)
            _check_creator(interaction, run)
            await self.bot.tournaments.start(run)
            t = run.tournament
            text = (
                f"Il torneo inizia con {len(t.players)} giocatori, posti sorteggiati: "
                f"{t.level.describe(t.config.options.variant)}."
            )
            await public_answer(
                interaction, self.bot, content=text, embed=tournament_text.status_embed(run.tournament)
            )

    @app_commands.command(name=T("stato"), description=T("Mostra il torneo di questo canale"))
    async def stato(self, interaction: discord.Interaction) -> None:
        run = self.bot.tournaments.require(channel_of(interaction))
        await interaction.response.send_message(embed=tournament_text.status_embed(run.tournament))

    @app_commands.command(
        name=T("annulla"), description=T("Annulla il torneo prima della prima mano: le iscrizioni tornano")
    )
    async def annulla(self, interaction: discord.Interaction) -> None:
        _check_may_cancel(interaction, self.bot.tournaments.require(channel_of(interaction)))
        channel_id = await busy_channel(interaction, self.bot.tables)
        async with self.bot.tables.channel(channel_id):
            run = self.bot.tournaments.require(channel_id)
            _check_may_cancel(interaction, run)
            refunded = await self.bot.tournaments.cancel(run)
            text = f"{render.mention(interaction.user.id)} annulla il torneo. " + tournament_text.refund_text(
                refunded, run.tournament.config.buy_in
            )
            await public_answer(interaction, self.bot, content=text)


def build_config(
    variante: str,
    buyin: int,
    fiches: int | None,
    cip: int | None,
    invito: int | None,
    ritmo: int,
    unita: str,
    struttura: str,
    premi: str | None,
    posti: int | None,
    limite: str | None,
    mazzo: str,
    tempo: int,
) -> TournamentConfig:
    """The tournament of the options chosen; every bad combination is an EngineError in Italian."""
    variant = Variant(variante)
    base = default_schedule(variant)
    first_cip = base.cip if cip is None else cip
    first_invito = first_cip if invito is None else invito
    if variant is not Variant.ITALIANA and limite is None:
        limite = str(Limit.NOLIMIT)
    chosen: dict[str, Any] = {
        "variant": variante,
        "cip": first_cip,
        "invito": first_invito,
        "limite": limite,
        "mazzo": mazzo,
        "timeout": tempo,
    }
    options = TableOptions.from_dict(chosen)
    schedule = Schedule(variant, ScheduleKind(struttura), first_cip, first_invito)
    stack = default_stack(variant, first_cip) if fiches is None else fiches
    return TournamentConfig(
        options,
        schedule,
        Ritmo(ritmo, RitmoUnit(unita)),
        stack,
        buy_in=buyin,
        payout=None if premi is None else PayoutStructure(premi),
        max_players=posti or 0,
    )


def _check_creator(interaction: discord.Interaction, run: LiveTournament) -> None:
    if run.creator_id != interaction.user.id:
        raise UserError(NOT_CREATOR)


def _check_may_cancel(interaction: discord.Interaction, run: LiveTournament) -> None:
    if run.creator_id != interaction.user.id and not interaction.permissions.manage_guild:
        raise UserError(CANCEL_REFUSED)


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(Torneo(bot))
