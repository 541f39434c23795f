"""Playing: the Italian action commands, the buttons of the table message, private cards, timers.

Every action, typed or clicked, runs the same path under the table's lock: build the `Action`,
let the engine judge it (through the registry, which writes the end of a hand to the ledger before
the lock is released), then show the result. A click on the table message answers by editing that
message (one REST call); a slash command answers publicly with what happened and edits the table
message through the channel (interaction tokens expire, the channel does not). Cards go out by DM
after the lock is released, so a closed DM never slows the table: the table message then says so,
and `/carte` or "Le mie carte" show the cards privately at any time.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.i18n import T, localized_options
from bot.storage import StorageError
from bot.tables import NO_TABLE, LiveTable
from bot.timers import TurnTimers
from bot.tree import PUBLIC_PLACEHOLDER, acknowledge_if_busy, report_error
from cogs import render, views
from cogs.tavolo import START_REFUSED
from engine.actions import Action, ActionKind, LegalAction
from engine.cards import Card, CardError, parse_cards
from engine.events import (
    ActionTaken,
    CardsDealt,
    CardsDrawn,
    Event,
    HandEnded,
    HandStarted,
    PlayerTimedOut,
    Street,
)

if TYPE_CHECKING:
    from bot.client import PokerBot

__all__ = ["Gioco", "not_your_turn", "parse_amount", "parse_discards"]

log = logging.getLogger(__name__)

NOT_YOUR_TURN = "Non è il tuo turno."
NO_HAND = "Non c'è nessuna mano in corso."
NO_HAND_CARDS = "Non c'è nessuna mano in corso: le carte ti arrivano in privato quando si dà la mano."
BAD_AMOUNT = "Importo non valido: scrivi un numero di fiches, oppure cip, piatto o tutto."
NEED_AMOUNT = "Devi dire quante fiches: un numero, oppure cip, piatto o tutto."
NOT_SEATED = "Non sei seduto a questo tavolo."

DM = tuple[int, str]
"""A private message to send: (player id, text)."""


def _channel_id(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.channel_id


# Reading what the player said --------------------------------------------------------------------


def parse_amount(
    text: str | None, kind: ActionKind, legal: LegalAction | None, live: LiveTable
) -> int | None:
    """A number, or the table words: ``cip`` (the minimum), ``piatto`` (pot-size) or ``tutto`` (all-in).

    The words are turned into a number of the unit the engine uses for ``kind`` (a raise names the
    chips over the call); whether that number is legal is the engine's call.
    """
    if legal is None:
        return None  # not his turn, or not a word he may say now: the engine says which
    word = (text or "").strip().lower()
    if not word:
        if kind is ActionKind.APRO:
            return legal.min
        raise UserError(NEED_AMOUNT)
    number = word.replace(".", "").replace(" ", "")
    if number.isdigit():
        return int(number)
    sizes = live.table.bet_sizes(kind)
    named = {"cip": sizes.minimum, "piatto": sizes.pot, "tutto": sizes.all_in} if sizes else {}
    if word not in named:
        raise UserError(BAD_AMOUNT)
    return named[word]


def parse_discards(text: str, held: Sequence[Card]) -> tuple[Card, ...]:
    """``1 3 5`` (positions in the order the player sees his cards) or ``7♠ 9♦`` (the cards)."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not tokens:
        raise UserError("Indica le carte da cambiare: per posizione (1 3 5) o per carta (7♠ 9♦).")
    if all(t.isdigit() for t in tokens):
        shown = render.display_order(held)
        if not shown:
            raise UserError("Non hai carte da cambiare.")
        positions = [int(t) for t in tokens]
        if any(not 1 <= p <= len(shown) for p in positions):
            raise UserError(f"Le posizioni vanno da 1 a {len(shown)}.")
        if len(set(positions)) != len(positions):
            raise UserError("Hai indicato due volte la stessa posizione.")
        return tuple(shown[p - 1] for p in positions)
    try:
        return parse_cards(tokens)
    except CardError as exc:
        raise UserError(str(exc)) from None


_BEFORE_DRAW = frozenset({Street.BUIO, Street.APERTURA, Street.PRIMO_GIRO, Street.CAMBIO})


def _before_draw(live: LiveTable) -> bool:
    """Positions for /cambio are worth showing only until the draw is over."""
    return live.table.street in _BEFORE_DRAW


def not_your_turn(to_act: int | None) -> str:
    """The refusal names whose turn it is: the mention shows his name and, in a private reply
    (bot/tree.py sends those without pings), disturbs nobody."""
    if to_act is None:
        return NOT_YOUR_TURN
    return f"Non è il tuo turno: tocca a {render.mention(to_act)}."


def _check_turn(live: LiveTable, player: int) -> None:
    """During a hand only the player to act may speak; everyone else is told why, privately."""
    to_act = live.table.to_act
    if to_act == player:
        return
    if not live.seated(player):
        raise UserError(NOT_SEATED)
    raise UserError(not_your_turn(to_act))


def _legal(live: LiveTable, kind: ActionKind, player: int) -> LegalAction | None:
    if live.table.to_act != player:
        return None
    return next((la for la in live.table.legal_actions() if la.kind is kind), None)


class Gioco(commands.Cog):
    """The action commands, the table message and its buttons, private cards and turn timers."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.timers = TurnTimers(self._expired)
        self._turns: dict[int, tuple[int, int | None]] = {}
        self._results: dict[int, list[str]] = {}
        self._dm_channels: dict[int, int] = {}  # player -> his DM channel id

    async def cog_load(self) -> None:
        # After a restart: every table with a player to act gets its timer back (a fresh period), and
        # the message of a hand the restart cancelled stops showing it running (turn, buttons).
        for live in self.bot.tables:
            self._rearm(live, force=True)
            if live.cancelled_hand is not None and live.message_id is not None:
                live.log = [render.CANCELLED_BY_RESTART]
                await self.edit_table_message(live)

    async def cog_unload(self) -> None:
        await self.timers.close()

    # The one path of every change ---------------------------------------------------------------

    def _rearm(self, live: LiveTable, events: Sequence[Event] = (), *, force: bool = False) -> None:
        """Start the turn timer of the player to act when the turn moved (or he just acted)."""
        table = live.table
        turn = (table.hand_number, table.to_act)
        before = self._turns.get(live.channel_id)
        self._turns[live.channel_id] = turn
        if not table.hand_running or table.to_act is None:
            self.timers.cancel(live.channel_id)
            return
        # A fresh period when the turn moved, or when the player to act just spoke and speaks again
        # (heads-up, a draw followed by his bet); not when someone else left or came back meanwhile.
        was = before[1] if before is not None else None
        acted = any(
            isinstance(e, HandStarted) or (isinstance(e, ActionTaken | PlayerTimedOut) and e.player == was)
            for e in events
        )
        if force or acted or before != turn or self.timers.deadline(live.channel_id) is None:
            self.timers.arm(live.channel_id, live.options.timeout)

    def record(self, live: LiveTable, events: Sequence[Event]) -> list[DM]:
        """Take in what the engine did: the log of the hand, the timer, the private cards to send."""
        for event in events:
            if isinstance(event, HandStarted):
                live.log = []
                live.dm_failed = set()
                live.deck_size = event.deck_size
                self._results.pop(live.channel_id, None)
            elif isinstance(event, HandEnded):
                self._results[live.channel_id] = render.result_lines(events)
        told = render.events_text(events)
        if told:
            live.log.extend(told.split("\n"))
            del live.log[: -4 * render.LOG_LINES]
        self._rearm(live, events)
        dms: list[DM] = []
        board = live.table.board
        for event in events:
            if isinstance(event, CardsDealt | CardsDrawn) and event.private_to is not None:
                player = event.private_to
                heading = "Le tue carte" if isinstance(event, CardsDealt) else "Dopo il cambio, le tue carte"
                if isinstance(event, CardsDrawn) and not event.received:
                    continue
                cards = live.table.cards_of(player) if live.table.hand_running else ()
                if not cards:
                    cards = event.cards if isinstance(event, CardsDealt) else event.received
                where = f"Tavolo in <#{live.channel_id}>, mano n. {live.table.hand_number}.\n"
                dms.append(
                    (
                        player,
                        where
                        + render.cards_text(
                            cards,
                            board=board,
                            options=live.options,
                            deck_size=live.deck_size,
                            heading=heading,
                            positions=_before_draw(live),
                        ),
                    )
                )
        return dms

    def render_message(self, live: LiveTable) -> dict[str, Any]:
        """The table message as keyword arguments for send/edit."""
        view = live.view()
        deadline = self.timers.deadline(live.channel_id) if view.to_act is not None else None
        results = [] if view.hand_running else self._results.get(live.channel_id, [])
        embed = render.table_embed(
            view,
            live.options,
            deadline=deadline,
            dm_failed=live.dm_failed if view.hand_running else (),
            results=results,
        )
        legal = live.table.legal_actions() if view.hand_running else ()
        return {
            "content": render.table_content(live.log, view, deadline) or None,
            "embed": embed,
            "view": views.table_view(view, legal),
        }

    async def edit_table_message(self, live: LiveTable) -> None:
        """Edit the table message through the channel (never through an expiring interaction token).

        A table message deleted by someone during a hand is posted again through the channel, so
        the rest of the hand keeps its table message and buttons; between hands the next hand
        posts a new one anyway.
        """
        if live.message_id is None:
            return
        channel = self.bot.get_partial_messageable(live.channel_id)
        try:
            await channel.get_partial_message(live.message_id).edit(**self.render_message(live))
            return
        except discord.NotFound:
            pass
        except discord.HTTPException as exc:
            log.warning("Could not edit the table message of channel %s: %s", live.channel_id, exc)
            return
        live.message_id = None
        if live.table.hand_running:
            try:
                posted = await channel.send(**self.render_message(live))
            except discord.HTTPException as exc:
                log.warning("Could not post the table message of channel %s again: %s", live.channel_id, exc)
            else:
                live.message_id = posted.id
        await self._remember_message(live)

    async def _remember_message(self, live: LiveTable) -> None:
        """Keep the table message id in the ledger, so that a restart can edit it."""
        try:
            await self.bot.storage.set_table_message(live.id, live.message_id)
        except StorageError as exc:
            log.warning("Table %s: could not store its message id: %s", live.id, exc)

    async def retire_table_message(self, message_id: int | None, channel_id: int) -> None:
        """Take the buttons off a table message that no longer leads anywhere (an older hand, a
        closed table); its text stays as the record of that hand."""
        if message_id is None:
            return
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(view=None)
        except discord.HTTPException as exc:
            log.info("Could not take the buttons off message %s: %s", message_id, exc.status)

    async def changed(self, live: LiveTable, events: Sequence[Event]) -> list[DM]:
        """A change made elsewhere (/tavolo alzati, /tavolo rientra): log, timer, table message."""
        dms = self.record(live, events)
        await self.edit_table_message(live)
        return dms

    async def _dm_channel(self, player: int) -> discord.abc.Messageable:
        """The player's DM channel, opened once: discord.py's cache forgets all but 128 of them.

        Without this, every DM to a player beyond the first 128 would cost a second REST call
        (``POST /users/@me/channels``) on a busy bot.
        """
        known = self._dm_channels.get(player)
        if known is not None:
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        channel = await self.bot.create_dm(discord.Object(id=player))
        self._dm_channels[player] = channel.id
        return channel

    async def deliver(self, channel_id: int, dms: Sequence[DM]) -> None:
        """Send the private cards; a refused DM is noted on the table message, the game goes on."""
        failed: list[int] = []
        for player, text in dms:
            try:
                await (await self._dm_channel(player)).send(text)
            except discord.NotFound:
                self._dm_channels.pop(player, None)  # the DM channel went away: open it anew next time
                failed.append(player)
            except discord.HTTPException as exc:
                log.info("Cards of user %s not delivered by DM: %s", player, exc.status)
                failed.append(player)
        if not failed:
            return
        try:
            async with self.bot.tables.channel(channel_id) as live:
                if live is None or not live.table.hand_running:
                    return
                new = set(failed) - live.dm_failed
                if new:
                    live.dm_failed |= new
                    await self.edit_table_message(live)
        except UserError:
            return  # shutting down

    # Starting a hand ----------------------------------------------------------------------------

    async def start_hand(self, interaction: discord.Interaction, live: LiveTable) -> list[DM]:
        """Deal, and post the new table message as the answer (it stays in view: one per hand)."""
        if not live.seated(interaction.user.id):
            raise UserError(START_REFUSED)
        events = await self.bot.tables.start_hand(live)
        dms = self.record(live, events)
        previous = live.message_id
        if interaction.response.is_done():  # deferred while the table was busy
            interaction.extras.pop(PUBLIC_PLACEHOLDER, None)
            posted = await interaction.followup.send(wait=True, **self.render_message(live))
            message_id: int = posted.id
        else:
            response = await interaction.response.send_message(**self.render_message(live))
            if response.message_id is None:  # pragma: no cover - Discord always returns the message
                message_id = (await interaction.original_response()).id
            else:
                message_id = response.message_id
        live.message_id = message_id
        await self._remember_message(live)
        if previous != message_id:
            # The last hand's message keeps its text but loses "Prossima mano": one live message.
            await self.retire_table_message(previous, live.channel_id)
        return dms

    # Acting -------------------------------------------------------------------------------------

    async def perform(
        self,
        interaction: discord.Interaction,
        kind: ActionKind,
        amount: str | None = None,
        discards: str | tuple[Card, ...] | None = None,
    ) -> None:
        channel_id = _channel_id(interaction)
        player = interaction.user.id
        # Another command of this table is running: acknowledge now (Discord allows 3 seconds) and
        # answer when the table is ours; a refusal then becomes a private follow-up (bot/tree.py).
        await acknowledge_if_busy(interaction, self.bot.tables.lock(channel_id))
        async with self.bot.tables.locked(channel_id) as live:
            if live.table.hand_running:
                _check_turn(live, player)
            legal = _legal(live, kind, player)
            value = parse_amount(amount, kind, legal, live) if kind in views.AMOUNT_KINDS else None
            cards: tuple[Card, ...] = ()
            if kind is ActionKind.CAMBIO and legal is not None and discards is not None:
                held = live.table.cards_of(player)
                cards = parse_discards(discards, held) if isinstance(discards, str) else discards
            events = await self.bot.tables.act(live, Action(player, kind, value, cards))
            dms = self.record(live, events)
            await self._answer(interaction, live, events)
        await self.deliver(channel_id, dms)

    async def _answer(
        self, interaction: discord.Interaction, live: LiveTable, events: Sequence[Event]
    ) -> None:
        """One answer: a click on the table message edits it; anything else tells the channel what
        happened and edits the table message through the channel."""
        source = interaction.message
        on_table_message = source is not None and source.id == live.message_id
        if interaction.response.is_done():  # deferred while the table was busy
            interaction.extras.pop(PUBLIC_PLACEHOLDER, None)
            if not on_table_message:
                await interaction.edit_original_response(
                    content=render.events_text(events)[:2000] or "Fatto.", view=None
                )
            await self.edit_table_message(live)
            return
        if interaction.type is not discord.InteractionType.application_command and on_table_message:
            await interaction.response.edit_message(**self.render_message(live))
            return
        text = render.events_text(events) or "Fatto."
        if interaction.type is discord.InteractionType.application_command:
            await interaction.response.send_message(text[:2000])
        else:
            # The private draw menu: close it with the outcome, privately.
            await interaction.response.edit_message(content=text[:2000], view=None)
        await self.edit_table_message(live)

    async def _expired(self, channel_id: int, token: int) -> None:
        """The player to act ran out of time (RULES §5.5)."""
        dms: list[DM] = []
        try:
            async with self.bot.tables.locked(channel_id) as live:
                if not self.timers.current(channel_id, token) or live.table.to_act is None:
                    return
                events = await self.bot.tables.timeout(live)
                dms = self.record(live, events)
                await self.edit_table_message(live)
        except UserError:
            return  # the table was closed, or the bot is shutting down
        await self.deliver(channel_id, dms)

    async def show_cards(self, interaction: discord.Interaction) -> None:
        channel_id = _channel_id(interaction)
        await acknowledge_if_busy(interaction, self.bot.tables.lock(channel_id), ephemeral=True)
        async with self.bot.tables.locked(channel_id) as live:
            player = interaction.user.id
            if not any(seat.player == player for seat in live.view().seats):
                raise UserError(NOT_SEATED)
            if not live.table.hand_running:
                raise UserError(NO_HAND_CARDS)
            cards = live.table.cards_of(player)
            text = render.cards_text(
                cards,
                board=live.table.board,
                options=live.options,
                deck_size=live.deck_size,
                positions=_before_draw(live),
            )
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)

    async def come_back(self, interaction: discord.Interaction) -> None:
        channel_id = _channel_id(interaction)
        await acknowledge_if_busy(interaction, self.bot.tables.lock(channel_id))
        async with self.bot.tables.locked(channel_id) as live:
            events = await self.bot.tables.apply(live, lambda: live.table.come_back(interaction.user.id))
            dms = self.record(live, events)
            await self._answer(interaction, live, events)
        await self.deliver(channel_id, dms)

    # Buttons, menus and modals ------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id") or "")
        if not custom_id.startswith(views.PREFIX) or interaction.type not in (
            discord.InteractionType.component,
            discord.InteractionType.modal_submit,
        ):
            return
        try:
            if interaction.guild_id is None:
                raise app_commands.NoPrivateMessage()
            await self._route(interaction, custom_id, data)
        except Exception as exc:  # the one funnel, as for slash commands
            await report_error(interaction, exc)

    async def _route(self, interaction: discord.Interaction, custom_id: str, data: Any) -> None:
        if custom_id == views.CARDS_BUTTON:
            await self.show_cards(interaction)
        elif custom_id == views.COMEBACK_BUTTON:
            await self.come_back(interaction)
        elif custom_id == views.START_BUTTON:
            channel_id = _channel_id(interaction)
            await acknowledge_if_busy(interaction, self.bot.tables.lock(channel_id))
            async with self.bot.tables.locked(channel_id) as live:
                dms = await self.start_hand(interaction, live)
            await self.deliver(channel_id, dms)
        elif custom_id == views.DISCARD_MENU:
            codes = [int(v) for v in data.get("values") or []]
            await self.perform(
                interaction, ActionKind.CAMBIO, discards=tuple(Card.from_code(c) for c in codes)
            )
        elif custom_id.startswith(views.PREFIX + "m:"):
            kind = ActionKind(custom_id.removeprefix(views.PREFIX + "m:"))
            await self.perform(interaction, kind, amount=views.modal_value(data.get("components")) or "")
        elif custom_id.startswith(views.PREFIX + "a:"):
            kind = ActionKind(custom_id.removeprefix(views.PREFIX + "a:"))
            await self._button(interaction, kind)

    async def _button(self, interaction: discord.Interaction, kind: ActionKind) -> None:
        """A word pressed on the table message: only the player to act may use it.

        A modal cannot follow a defer, so the amount buttons (and the draw menu, for symmetry) do not
        wait for the table's lock: they only read the table (the engine is synchronous, so what they
        read is consistent) and answer at once. Nothing is changed here; the action is judged again,
        under the lock, when the modal or the menu comes back through `perform`.
        """
        if kind not in views.AMOUNT_KINDS and kind is not ActionKind.CAMBIO:
            await self.perform(interaction, kind)
            return
        live = self.bot.tables.get(_channel_id(interaction))
        if live is None:
            raise UserError(NO_TABLE)
        if not live.table.hand_running:
            raise UserError(NO_HAND)
        _check_turn(live, interaction.user.id)
        legal = _legal(live, kind, interaction.user.id)
        if legal is None:
            words = ", ".join(str(la.kind) for la in live.table.legal_actions())
            raise UserError(f"Adesso non puoi dire «{kind}»: puoi dire {words}.")
        if kind is ActionKind.CAMBIO:
            cards = live.table.cards_of(interaction.user.id)
            text = (
                render.cards_text(cards, board=(), options=live.options, deck_size=live.deck_size)
                + f"\nScegli da 1 a {legal.max} carte da cambiare (oppure premi «Servito»)."
            )
            await interaction.response.send_message(
                text, view=views.discard_view(cards, legal.max), ephemeral=True
            )
            return
        await interaction.response.send_modal(views.amount_modal(legal))

    # Slash commands -----------------------------------------------------------------------------

    @app_commands.guild_only()
    @app_commands.command(name=T("apro"), description=T("Apri il piatto (serve almeno la coppia richiesta)"))
    @localized_options(importo="Quante fiches: un numero, cip, piatto o tutto (se manca: un cip)")
    async def apro(self, interaction: discord.Interaction, importo: str | None = None) -> None:
        await self.perform(interaction, ActionKind.APRO, amount=importo)

    @app_commands.guild_only()
    @app_commands.command(name=T("vedo"), description=T("Vedi la puntata"))
    async def vedo(self, interaction: discord.Interaction) -> None:
        await self.perform(interaction, ActionKind.VEDO)

    @app_commands.guild_only()
    @app_commands.command(name=T("rilancio"), description=T("Vedi e rilancia di un importo"))
    @localized_options(importo="Di quanto rilanci sopra la chiamata: un numero, cip, piatto o tutto")
    async def rilancio(self, interaction: discord.Interaction, importo: str) -> None:
        await self.perform(interaction, ActionKind.RILANCIO, amount=importo)

    @app_commands.guild_only()
    @app_commands.command(name=T("passo"), description=T("Passa: non apri, oppure lasci la mano"))
    async def passo(self, interaction: discord.Interaction) -> None:
        await self.perform(interaction, ActionKind.PASSO)

    @app_commands.guild_only()
    @app_commands.command(name=T("paròl"), description=T("Paròl: non punti e passi la parola"))
    async def parol(self, interaction: discord.Interaction) -> None:
        await self.perform(interaction, ActionKind.PAROL)

    @app_commands.guild_only()
    @app_commands.command(name=T("punto"), description=T("Punta un importo"))
    @localized_options(importo="Quante fiches: un numero, cip, piatto o tutto")
    async def punto(self, interaction: discord.Interaction, importo: str) -> None:
        await self.perform(interaction, ActionKind.PUNTO, amount=importo)

    @app_commands.guild_only()
    @app_commands.command(name=T("servito"), description=T("Sei servito: non cambi carte"))
    async def servito(self, interaction: discord.Interaction) -> None:
        await self.perform(interaction, ActionKind.SERVITO)

    @app_commands.guild_only()
    @app_commands.command(name=T("cambio"), description=T("Cambia delle carte"))
    @localized_options(carte="Le carte da cambiare: per posizione (1 3 5) o per carta (7♠ 9♦)")
    async def cambio(self, interaction: discord.Interaction, carte: str) -> None:
        await self.perform(interaction, ActionKind.CAMBIO, discards=carte)

    @app_commands.guild_only()
    @app_commands.command(name=T("buio"), description=T("Apri al buio, prima di vedere le carte"))
    async def buio(self, interaction: discord.Interaction) -> None:
        await self.perform(interaction, ActionKind.BUIO)

    @app_commands.guild_only()
    @app_commands.command(name=T("controbuio"), description=T("Rispondi al buio con il controbuio"))
    async def controbuio(self, interaction: discord.Interaction) -> None:
        await self.perform(interaction, ActionKind.CONTROBUIO)

    @app_commands.guild_only()
    @app_commands.command(name=T("carte"), description=T("Mostra solo a te le tue carte"))
    async def carte(self, interaction: discord.Interaction) -> None:
        await self.show_cards(interaction)


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(Gioco(bot))
