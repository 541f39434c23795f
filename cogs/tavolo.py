"""/tavolo: open, join, leave, start, show, explain, sum up and close the table of a channel or thread.

Every subcommand that changes a table runs under the table's lock (`TableRegistry.locked`) and
answers while still holding it, so two commands in one channel are handled, and shown, in order;
what the table message shows is the session's (bot/session.py), which this cog only tells about
changes. Reading commands (stato, regole) answer at once from the state now, without waiting.
The engine validates the options and the seats, the ledger the chips; this cog only translates.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import choices, computers, night_summary, render
from bot.errors import UserError
from bot.i18n import T, localized_options
from bot.session import DM, TOURNAMENT_NEXT, channel_of, public_answer
from bot.storage import MAX_CHIPS
from bot.table_settings import TableSettings
from bot.tables import TABLE_EXISTS, LiveTable, check_cash
from bot.tournaments import TOURNAMENT_HERE
from bot.tree import guild_id_of, offer_choices
from bot.turn_calls import parse_ping_after
from cogs.busy import busy_channel
from engine.events import Event, PlayerLeft, StackReleased
from engine.italian import chips_return
from engine.options import TableOptions

if TYPE_CHECKING:
    from bot.client import PokerBot

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()

DEFAULT_BUYIN_CIPS = 100
"""Without an amount, a player brings 100 minimum bets (or his whole balance, if smaller)."""

CLOSE_REFUSED = "Solo chi ha aperto il tavolo o chi ha il permesso «Gestisci server» può chiuderlo."
COMPUTER_SEATED_ONLY = "Solo chi è seduto al tavolo può far sedere un giocatore del computer."
COMPUTER_NO_SEAT = (
    "L'ultimo posto libero del tavolo resta per una persona: non c'è posto per un giocatore del computer."
)
DISMISS_REFUSED = (
    "Solo chi ha aperto il tavolo o chi ha il permesso «Gestisci server» "
    "può congedare i giocatori del computer."
)
NO_COMPUTER = "A questo tavolo non siede nessun giocatore del computer."
ALREADY_DISMISSED = "I giocatori del computer di questo tavolo si alzano già alla fine della mano."
EMPTY_BALANCE = (
    "Il tuo saldo è vuoto: ritira il /bonus giornaliero o chiedi un accredito a chi gestisce il server."
)
EMPTY_BALANCE_NO_BONUS = "Il tuo saldo è vuoto: chiedi un accredito a chi gestisce il server."


@app_commands.guild_only()
class Tavolo(
    commands.GroupCog, group_name=T("tavolo"), group_description=T("Un tavolo da poker in questo canale")
):
    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        super().__init__()

    async def _reply(
        self, interaction: discord.Interaction, live: LiveTable, text: str, events: list[Event] | None = None
    ) -> None:
        lines = [text] if text else []
        if events:
            told = render.events_text(events)
            if told:
                lines.append(told)
        embed = render.table_embed(live.view(), live.options, creator_id=live.creator_id)
        await public_answer(interaction, self.bot, content="\n".join(lines) or None, embed=embed)

    @app_commands.command(name=T("nuovo"), description=T("Apri un tavolo in questo canale (o thread)"))
    @localized_options(
        variante="Il gioco: poker tradizionale, 32 carte o Texas Hold'em",
        cip="La puntata minima (cip); nel 32carte e nel texas è il buio grande",
        invito="L'invito (solo poker tradizionale); se manca vale quanto il cip",
        limite="Il limite delle puntate (32carte e texas)",
        mazzo="Il mazzo del poker tradizionale",
        max_cambio="Quante carte si possono cambiare al massimo (poker tradizionale)",
        invito_tutti="Tutti mettono l'invito, non solo il mazziere",
        buio_multiplo="Il buio costa questo multiplo del piatto",
        controcontrobuio="Permetti il contro-controbuio (almeno 5 giocatori)",
        over="Con più di 3 giocatori si mette anche l'Over (32carte)",
        semi="I semi spareggiano i punti uguali (32carte)",
        tempo="Secondi a disposizione per ogni decisione",
        max_computer="Quanti giocatori del computer possono sedersi (se manca: tutti i posti meno uno)",
        avviso="Dopo quanti secondi menzionare chi deve giocare (0 subito, off mai; se manca: 15)",
    )
    @app_commands.choices(
        variante=choices.VARIANTS,
        limite=choices.LIMITS,
        mazzo=choices.MAZZI,
    )
    async def nuovo(
        self,
        interaction: discord.Interaction,
        variante: str,
        cip: app_commands.Range[int, 1, 1_000_000] = 10,
        invito: app_commands.Range[int, 1, 1_000_000] | None = None,
        limite: str | None = None,
        mazzo: str = "auto",
        max_cambio: app_commands.Range[int, 4, 5] = 4,
        invito_tutti: bool = False,
        buio_multiplo: app_commands.Range[int, 1, 10] = 2,
        controcontrobuio: bool = False,
        over: bool = False,
        semi: bool = True,
        tempo: app_commands.Range[int, 10, 3600] = 60,
        max_computer: app_commands.Range[int, 0, 9] | None = None,
        avviso: app_commands.Range[str, 1, 10] | None = None,
    ) -> None:
        guild_id = guild_id_of(interaction)
        chosen: dict[str, Any] = {
            "variant": variante,
            "cip": cip,
            "invito": cip if invito is None else invito,
            "limite": limite,
            "mazzo": mazzo,
            "max_cambio": max_cambio,
            "invito_tutti": invito_tutti,
            "buio_multiplo": buio_multiplo,
            "controcontrobuio": controcontrobuio,
            "over": over,
            "semi": semi,
            "timeout": tempo,
        }
        options = TableOptions.from_dict(chosen)  # EngineError with the Italian reason
        settings = TableSettings(ping_after=parse_ping_after(avviso), max_computers=max_computer)
        channel_id = await busy_channel(interaction, self.bot.tables)
        async with self.bot.tables.channel(channel_id) as existing:
            if self.bot.tournaments.get(channel_id) is not None:  # its pool holds the channel's slot
                raise UserError(TOURNAMENT_HERE)
            if existing is not None:
                raise UserError(TABLE_EXISTS)
            live = await self.bot.tables.create(
                guild_id, channel_id, interaction.user.id, options, settings=settings
            )
            who, what = render.mention(interaction.user.id), render.variant_name(options.variant)
            text = f"{who} apre un tavolo di {what}: sedetevi con /tavolo siedi."
            await self._reply(interaction, live, text)

    @app_commands.command(name=T("siedi"), description=T("Siediti al tavolo comprando fiches dal tuo saldo"))
    @localized_options(buyin="Quante fiches portare al tavolo (se manca: 100 cip)")
    async def siedi(
        self, interaction: discord.Interaction, buyin: app_commands.Range[int, 1, MAX_CHIPS] | None = None
    ) -> None:
        guild_id = guild_id_of(interaction)
        user_id = interaction.user.id
        async with self.bot.tables.locked(await busy_channel(interaction, self.bot.tables)) as live:
            self.bot.tables.check_seat(live, user_id)  # before his balance: the refusal that applies
            amount = buyin
            note = ""
            if amount is None:
                balance = await self.bot.storage.balance(guild_id, user_id)
                if balance == 0:
                    raise UserError(EMPTY_BALANCE if self.bot.storage.daily_bonus else EMPTY_BALANCE_NO_BONUS)
                amount = min(DEFAULT_BUYIN_CIPS * live.options.cip, balance)
                if amount == balance:
                    who = render.mention(user_id)
                    note = f"{who} porta al tavolo tutto il suo saldo: {render.chips(amount)}."
            events = await self.bot.tables.sit(live, user_id, amount)
            self.bot.sessions.note(interaction.user)  # his name, for the showdown picture
            self.bot.sessions.of(live).record(events)  # the table message shows him seated too
            await self._reply(interaction, live, note, events)

    @app_commands.command(
        name=T("alzati"), description=T("Alzati dal tavolo: le tue fiches tornano nel saldo")
    )
    async def alzati(self, interaction: discord.Interaction) -> None:
        channel_id = channel_of(interaction)
        self.bot.sessions.require(channel_id).require_seat(interaction.user.id)  # refused at once
        channel_id = await busy_channel(interaction, self.bot.tables)
        dms: list[DM] = []
        async with self.bot.tables.locked(channel_id) as live:
            events, paid = await self.bot.tables.leave(live, interaction.user.id)
            who = render.mention(interaction.user.id)
            if paid is None:
                # Only when the ledger could not pay him at once (bot/tables.py).
                text = f"{who} lascia il tavolo: le sue fiches tornano nel saldo alla fine della mano."
            else:
                text = f"{who} lascia il tavolo: {chips_return(paid)} nel suo saldo."
            if events:  # the session first: the change is made, whatever happens to the answer
                dms = self.bot.sessions.of(live).record(events)
            shown = [e for e in events if not isinstance(e, StackReleased | PlayerLeft)]
            try:
                await self._reply(interaction, live, text, shown)
            finally:
                await self.bot.sessions.deliver(channel_id, dms)

    @app_commands.command(name=T("inizia"), description=T("Inizia la prossima mano"))
    async def inizia(self, interaction: discord.Interaction) -> None:
        # The answer is the new table message, with the buttons of the player to act.
        await self.bot.sessions.start(interaction)

    @app_commands.command(name=T("rientra"), description=T("Torna in gioco dopo essere rimasto fuori"))
    async def rientra(self, interaction: discord.Interaction) -> None:
        await self.bot.sessions.come_back(interaction)

    @app_commands.command(name=T("stato"), description=T("Mostra il tavolo di questo canale"))
    async def stato(self, interaction: discord.Interaction) -> None:
        session = self.bot.sessions.require(channel_of(interaction))
        live, tournament = session.live, session.live.tournament
        embed = render.table_embed(
            live.view(),
            live.options,
            creator_id=live.creator_id if tournament is None else None,  # nobody closes a tournament's
            next_hand=None if tournament is None else TOURNAMENT_NEXT[tournament.goes_on()],
        )
        if tournament is not None:
            embed.title = session.hand_title or tournament.title()
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name=T("regole"), description=T("Le regole di questo tavolo"))
    async def regole(self, interaction: discord.Interaction) -> None:
        live = self.bot.sessions.require(channel_of(interaction)).live
        await interaction.response.send_message(embed=render.rules_embed(live.options, live.settings))

    @app_commands.command(
        name=T("chiudi"), description=T("Chiudi il tavolo: le fiches tornano nei saldi dei giocatori")
    )
    async def chiudi(self, interaction: discord.Interaction) -> None:
        _check_may_close(interaction, self.bot.sessions.require(channel_of(interaction)).live)
        channel_id = await busy_channel(interaction, self.bot.tables)
        async with self.bot.tables.locked(channel_id) as live:
            _check_may_close(interaction, live)
            session = self.bot.sessions.of(live)
            await session.seal_drawn()  # its last message ends on the last hand's result, whatever happened
            payouts = await self.bot.tables.close(live)
            # The last table message must not offer "Prossima mano" for a table that is gone.
            session.retire(live.message_id)
            self.bot.sessions.forget(session)
        try:
            text = render.close_text(interaction.user.id, payouts)
            await public_answer(interaction, self.bot, content=text)
        finally:  # the table is closed whatever happened to the answer: its night is told
            await self._post_summary(channel_id, live.id)

    @app_commands.command(name=T("riepilogo"), description=T("Il riepilogo della serata a questo tavolo"))
    async def riepilogo(self, interaction: discord.Interaction) -> None:
        live = self.bot.sessions.require(channel_of(interaction)).live
        check_cash(live)  # a tournament's night is its standings (/torneo stato), not a table's
        # Read before the public acknowledgement: a failure here is answered privately, while the
        # first follow-up of a public "thinking" would become that public message.
        night = await self.bot.storage.table_summary(live.id)
        # Names for the chart are asked of Discord and the chart is drawn: acknowledge first.
        await interaction.response.defer(thinking=True)
        message = await night_summary.summary_message(self.bot, night, closed=False)
        await interaction.followup.send(embed=message.embed, files=message.files, allowed_mentions=NO_PINGS)

    async def _post_summary(self, channel_id: int, table_id: int) -> None:
        """The night's summary of a table just closed, in its channel (after the table's lock is free)."""
        night = await self.bot.storage.table_summary(table_id)
        message = await night_summary.summary_message(self.bot, night, closed=True)
        try:
            await self.bot.get_partial_messageable(channel_id).send(
                embed=message.embed, files=message.files, allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as error:
            log.warning("The summary of table %s could not be posted: %s", table_id, error)

    @app_commands.command(
        name=T("computer"), description=T("Fai sedere un giocatore del computer, con le fiches della casa")
    )
    @localized_options(livello="Come gioca: facile o esperto (se manca: esperto)")
    @app_commands.choices(livello=choices.LEVELS)
    async def computer(self, interaction: discord.Interaction, livello: str = "esperto") -> None:
        _check_may_add_computer(interaction, self.bot.sessions.require(channel_of(interaction)).live)
        channel_id = await busy_channel(interaction, self.bot.tables)
        async with self.bot.tables.locked(channel_id) as live:
            player = _check_may_add_computer(interaction, live)
            amount = DEFAULT_BUYIN_CIPS * live.options.cip
            events = await self.bot.tables.sit(live, player, amount, level=livello)
            who, house = render.mention(interaction.user.id), render.chips(amount)
            text = f"{who} fa sedere {computers.described(player)} ({livello}), con {house} della casa."
            self.bot.sessions.of(live).record(events)
            await self._reply(interaction, live, text, events)

    @app_commands.command(
        name=T("congeda"),
        description=T("Fai alzare un giocatore del computer: le sue fiches tornano alla casa"),
    )
    @localized_options(nome="Quale giocatore del computer (se manca: l'ultimo seduto)")
    async def congeda(self, interaction: discord.Interaction, nome: str | None = None) -> None:
        _check_may_dismiss(interaction, self.bot.sessions.require(channel_of(interaction)).live, nome)
        channel_id = await busy_channel(interaction, self.bot.tables)
        dms: list[DM] = []
        async with self.bot.tables.locked(channel_id) as live:
            player = _check_may_dismiss(interaction, live, nome)
            name = computers.name_of(player)
            if any(s.player == player and s.in_hand for s in live.view().seats):
                # Folded now, his chips in the pot would go to whoever dismissed him: he plays it out.
                live.dismissed.add(player)
                text = f"{name} si alza alla fine della mano: le sue fiches tornano alla casa."
                await self._reply(interaction, live, text, [])
                return
            events, paid = await self.bot.tables.leave(live, player)
            if paid is None:
                text = f"{name} lascia il tavolo: le sue fiches tornano alla casa alla fine della mano."
            else:
                text = f"{name} lascia il tavolo: {chips_return(paid)} alla casa."
            if events:  # the session first: the change is made, whatever happens to the answer
                dms = self.bot.sessions.of(live).record(events)
            shown = [e for e in events if not isinstance(e, StackReleased | PlayerLeft)]
            try:
                await self._reply(interaction, live, text, shown)
            finally:
                await self.bot.sessions.deliver(channel_id, dms)

    @congeda.autocomplete("nome")
    async def _computer_names(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        """The computers at the table whose name holds what was typed, answered by `offer_choices`
        (a late answer is a warning, as for a command)."""
        live = self.bot.tables.get(interaction.channel_id or 0)
        seated = [] if live is None else [p for p in computers.computers_at(live) if p not in live.dismissed]
        names = [computers.name_of(p) for p in seated]
        typed = current.casefold()
        choices = [Choice(name=n, value=n) for n in names if typed in n.casefold()][:25]
        return await offer_choices(interaction, choices)


def _check_may_add_computer(interaction: discord.Interaction, live: LiveTable) -> int:
    """The id the new computer player will have; refuse if the caller may not add one or none fits."""
    if not live.seated(interaction.user.id):
        raise UserError(COMPUTER_SEATED_ONLY)
    most = computers.limit(live)
    if len(computers.computers_at(live)) >= most:
        if most == 0:
            raise UserError("A questo tavolo non possono sedersi giocatori del computer.")
        raise UserError(f"A questo tavolo possono sedersi al massimo {most} giocatori del computer.")
    player = computers.free_id(live)
    if player is None or len(live.view().seats) + 1 >= live.options.max_seats:
        raise UserError(COMPUTER_NO_SEAT)  # a computer never takes the last free seat: it is a person's
    return player


def _check_may_dismiss(interaction: discord.Interaction, live: LiveTable, name: str | None) -> int:
    """The computer player to dismiss; refuse if the caller may not, or there is no such player."""
    check_cash(live)  # a tournament's computers play it out (/tavolo congeda is a cash table's)
    if live.creator_id != interaction.user.id and not interaction.permissions.manage_guild:
        raise UserError(DISMISS_REFUSED)
    seated = [p for p in computers.computers_at(live) if p not in live.dismissed]
    if not seated:
        raise UserError(ALREADY_DISMISSED if live.dismissed else NO_COMPUTER)
    if name is None:  # the last one seated (the registry keeps them in the order they sat)
        return next((p for p in reversed(live.computers) if p in seated), seated[-1])
    player = computers.find(live, name)
    if player in live.dismissed:
        raise UserError(f"{computers.name_of(player)} si alza già alla fine della mano.")
    if player is None:
        names = ", ".join(computers.name_of(p) for p in seated)
        raise UserError(f"Al tavolo non c'è un giocatore del computer con quel nome: ci sono {names}.")
    return player


def _check_may_close(interaction: discord.Interaction, live: LiveTable) -> None:
    if live.creator_id != interaction.user.id and not interaction.permissions.manage_guild:
        raise UserError(CLOSE_REFUSED)


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(Tavolo(bot))
