"""Every table's session, and the actions the cogs call: `Sessions`, one per bot.

It holds what tables share (the turn timers, the players' DM channels, turn calls, computer players)
and the entry points of the commands and components: `act`, `start`, `come_back`, `show_cards`,
`component`. Each acts under the table's lock through the registry (bot/tables.py) and hands what
the engine did to that table's `TableSession` (bot/session.py), which owns what the channel shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot import reading, render, rest, tournament_text, views
from bot.card_pictures import hand_files, hand_picture
from bot.computers import ComputerPlayers, is_computer
from bot.computers import name_of as computer_name
from bot.errors import NETWORK_ERRORS, UserError, discord_failed, retried
from bot.fair_deck import dm_line
from bot.session import (
    DM,
    NO_HAND_CARDS,
    NOT_SEATED,
    RETRY_FIRST,
    RETRY_MAX,
    STALE,
    START_REFUSED,
    TableSession,
    channel_of,
    defer_privately_if_busy,
    not_your_turn,
    public_answer,
)
from bot.storage import STORAGE_FAILURES
from bot.tables import NO_TABLE, LiveTable
from bot.timers import TurnTimers
from bot.turn_calls import TurnCalls
from bot.views import Target
from engine.actions import ActionKind
from engine.cards import Card
from engine.errors import NotYourTurn
from engine.events import (
    Event,
)

if TYPE_CHECKING:
    from bot.client import PokerBot

__all__ = ["Sessions"]

log = logging.getLogger(__name__)

END_TRIES = 8
"""Attempts at ending, after a restart, the last message of a table closed while Discord failed."""
CARDS_AFTER_BUIO = "Le carte non sono ancora state date: arrivano in privato appena finisce il giro del buio."
DM_TRIES = 4
"""Attempts at a DM Discord fails (0.5 s, 1 s, 2 s between them): after that the table says so."""

MORE_ON_TABLE = "… il resto sul messaggio del tavolo."


class Sessions:
    """Every table's session, by channel, with the turn timers and the DM channels they share."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.timers = TurnTimers(self._expired)
        self.calls = TurnCalls(bot, lambda: self.timers.clock)
        self.tasks: set[asyncio.Task[None]] = set()
        self.retry_first = RETRY_FIRST
        self.retry_max = RETRY_MAX
        self._by_channel: dict[int, TableSession] = {}
        self._dm_channels: dict[int, int] = {}  # player -> his DM channel id
        self._dm_batches: dict[int, int] = {}  # player -> how many batches of his DMs were sent
        self.computers = ComputerPlayers(self)
        """Plays the computer players' turns (bot/computers.py)."""
        self.names: dict[int, str] = {}
        """Display names of the players met through their commands and clicks (showdown pictures)."""

    def note(self, user: discord.abc.User) -> None:
        """Remember how a player is called, for the pictures (mentions do not work in an image)."""
        self.names[user.id] = user.display_name

    def name_of(self, player: int) -> str:
        if is_computer(player):
            return computer_name(player)
        known = self.names.get(player)
        if known is None:
            user = self.bot.get_user(player)
            known = user.display_name if user is not None else f"Giocatore {str(player)[-4:]}"
        return known

    def of(self, live: LiveTable) -> TableSession:
        session = self._by_channel.get(live.channel_id)
        if session is None or session.live is not live:
            session = self._by_channel[live.channel_id] = TableSession(self, live)
        return session

    def get(self, channel_id: int) -> TableSession | None:
        """The session of the channel's open table (None when it has none), for reading only."""
        live = self.bot.tables.get(channel_id)
        return None if live is None else self.of(live)

    def require(self, channel_id: int) -> TableSession:
        session = self.get(channel_id)
        if session is None:
            raise UserError(NO_TABLE)
        return session

    def forget(self, session: TableSession) -> None:
        """The table closed: its session only finishes its queued edits."""
        session.closed = True
        self.timers.cancel(session.channel_id)
        self.calls.end(session.channel_id)
        self.computers.forget(session.channel_id)
        if self._by_channel.get(session.channel_id) is session:
            del self._by_channel[session.channel_id]

    async def restore(self) -> None:
        """After a restart: every table with a player to act gets its timer back (a fresh period), and
        the message of a hand the restart cancelled stops showing it running (turn, buttons), and
        the turn calls a crashed run left in the channels are taken away."""
        await self.calls.sweep(**self.bot.shard_selection())
        for live in self.bot.tables:
            session = self.of(live)
            session.picture.restored(live.message_id)
            session.rearm(force=True)
            if live.cancelled_hand is not None and live.message_id is not None:
                session.log = [render.CANCELLED_BY_RESTART]
                session.changed()
            self.computers.after(live)  # a computer whose turn it is plays

    async def end_stale_messages(self) -> None:
        """After every table is back (the tournaments' too): the table messages the last run could not
        bring up to date (Discord failed their edits, then the bot stopped) are shown again or ended
        (no buttons; one still showing its hand running says it is over)."""
        storage = self.bot.storage
        try:
            left = await storage.stale_messages_left(**self.bot.shard_selection())
        except STORAGE_FAILURES as exc:
            log.warning("The table messages left by the last run were not read: %s", exc)
            return
        for channel_id, message_id, hand_number in left:
            live = self.bot.tables.get(channel_id)
            if live is not None:
                self.of(live).end_after_restart(message_id, hand_number)
                continue
            # The table is closed: one edit in the background, and the note goes whatever Discord answers.
            task = asyncio.get_running_loop().create_task(
                self._end_closed_tables_message(channel_id, message_id, hand_number),
                name=f"stale-message-{channel_id}",
            )
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _end_closed_tables_message(
        self, channel_id: int, message_id: int, hand_number: int | None
    ) -> None:
        """Discord failing is tried again with the renderer's backoff, up to `END_TRIES` times; a
        message still not ended stays noted, so that the next start tries again."""
        message = {"view": None} if hand_number is None else render.ended_hand(hand_number)
        edit = functools.partial(rest.edit, self.bot, channel_id, message_id, **message)
        outcome, exc = await retried(edit, tries=END_TRIES, first=self.retry_first, most=self.retry_max)
        if outcome == "failed":  # gone, or refused (a missing permission): no retry changes that
            log.info("Table message %s in channel %s not ended: %r", message_id, channel_id, exc)
            return
        with contextlib.suppress(*STORAGE_FAILURES):
            await self.bot.storage.forget_stale_message(channel_id, message_id)

    async def close(self, grace: float = 2.0) -> None:
        self.computers.stop()
        await self.timers.close()
        await self.calls.close(grace)
        for session in list(self._by_channel.values()):
            await session.flush(grace)
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # Private cards --------------------------------------------------------------------------------

    async def _dm_channel(self, player: int) -> int:
        """The player's DM channel, opened once: discord.py's cache forgets all but 128 of them."""
        known = self._dm_channels.get(player)
        if known is not None:
            return known
        channel = await self.bot.create_dm(discord.Object(id=player))
        self._dm_channels[player] = channel.id
        return channel.id

    async def deliver(self, channel_id: int, dms: Sequence[DM]) -> None:
        """Send the private cards, each player's in order; a DM Discord fails (a 5xx, a dropped
        connection) is sent again in the background (`DM_TRIES`, with the renderer's backoff) while
        the others' cards go on; one refused, or still failing after that, is noted on the table
        message, and the game goes on (/carte and «Le mie carte» show the cards)."""
        by_player: dict[int, list[DM]] = {}
        for dm in dms:
            if not is_computer(dm.player):  # he reads his cards from the table (bot/computers.py)
                by_player.setdefault(dm.player, []).append(dm)
        failed: list[DM] = []
        for player, mine in by_player.items():
            batch = self._dm_batches[player] = self._dm_batches.get(player, 0) + 1
            sent, again = await self._send_in_order(mine)
            if not again:
                failed += mine[sent:]
            elif sent < len(mine):
                task = asyncio.get_running_loop().create_task(
                    self._deliver_later(channel_id, mine[sent:], batch), name=f"cards-dm-{player}"
                )
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
        self._undelivered(channel_id, failed)

    async def _deliver_later(self, channel_id: int, dms: Sequence[DM], batch: int) -> None:
        """Send again what Discord failed, while it is still news: not once newer cards of the player
        went (each DM holds his whole hand) nor once its hand is over."""
        pause = self.retry_first
        for _ in range(DM_TRIES - 1):
            await asyncio.sleep(pause)
            pause = min(pause * 2, self.retry_max)
            session = self.get(channel_id)
            if self._dm_batches.get(dms[0].player) != batch or session is None:
                return
            running = session.live.table.hand_number if session.live.table.hand_running else None
            dms = [dm for dm in dms if dm.hand == running]
            if not dms:
                return
            sent, again = await self._send_in_order(dms)
            dms = dms[sent:]
            if not dms or not again:
                break
        self._undelivered(channel_id, dms)

    async def _send_in_order(self, dms: Sequence[DM]) -> tuple[int, bool]:
        """One player's DMs, in order, until one fails: how many went, and whether the one that failed
        is worth sending again (Discord failed) rather than refused (closed DMs)."""
        for sent, dm in enumerate(dms):
            try:
                extra = {"files": hand_files(dm.picture)} if dm.picture is not None else {}
                await rest.send(self.bot, await self._dm_channel(dm.player), content=dm.text, **extra)
            except discord.NotFound:
                self._dm_channels.pop(dm.player, None)  # the DM channel went away: open it anew next time
                return sent, False
            except (discord.HTTPException, discord.RateLimited, *NETWORK_ERRORS) as exc:
                why = getattr(exc, "status", exc)
                log.info("Cards of user %s not delivered by DM: %s", dm.player, why)
                return sent, discord_failed(exc)
        return len(dms), False

    def _undelivered(self, channel_id: int, dms: Sequence[DM]) -> None:
        """Name on the table message the players of the running hand whose cards did not go."""
        session = self.get(channel_id)
        if not dms or session is None or not session.live.table.hand_running:
            return
        # Sent after the lock, a DM may fail once the next hand is dealt: it says nothing of that one.
        now = session.live.table.hand_number
        new = {dm.player for dm in dms if dm.hand == now} - session.dm_failed
        if new:
            session.dm_failed |= new
            session.changed()

    # The turn timer -------------------------------------------------------------------------------

    async def _expired(self, channel_id: int, token: int) -> None:
        """The player to act ran out of time (rules §5.5)."""
        dms: list[DM] = []
        try:
            async with self.bot.tables.locked(channel_id) as live:
                if not self.timers.current(channel_id, token) or live.table.to_act is None:
                    return
                events = await self.bot.tables.timeout(live)
                dms = self.of(live).record(events)
        except UserError:
            return  # the table was closed, or the bot is shutting down
        await self.deliver(channel_id, dms)

    # Acting ---------------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _judged(
        self,
        interaction: discord.Interaction,
        target: Target | None,
        check: Callable[[TableSession], object],
        *,
        again: bool = True,
    ) -> AsyncIterator[tuple[LiveTable, TableSession, list[DM]]]:
        """The opening of every command that changes the game: judged from the state now (a refusal
        is private from the first byte), a private acknowledgement if the table is busy, then judged
        again under the table's lock, where the command goes on. ``again=False``: the command's own
        first step under the lock judges it again.

        The command puts the private cards its change dealt in the yielded list: they are sent once
        the lock is released, even when its answer failed (the change stands: the cards must go)."""
        channel_id = channel_of(interaction)
        self.note(interaction.user)
        session = self.require(channel_id)
        if target is not None:
            session.check_target(interaction, target)
        check(session)
        await defer_privately_if_busy(interaction, session.live.lock)
        dms: list[DM] = []
        try:
            async with self.bot.tables.locked(channel_id) as live:
                session = self.of(live)
                if target is not None:
                    session.check_target(interaction, target)
                if again:
                    check(session)
                yield live, session, dms
        finally:
            if dms:
                await self.deliver(channel_id, dms)

    async def act(
        self,
        interaction: discord.Interaction,
        kind: ActionKind,
        *,
        amount: str | None = None,
        discards: str | tuple[Card, ...] | None = None,
        target: Target | None = None,
    ) -> None:
        """Every action, typed or clicked: judged from the state now, then under the lock."""
        player = interaction.user.id

        def judge(session: TableSession) -> None:
            session.prepare(player, kind, amount, discards, judge_turn=True)

        async with self._judged(interaction, target, judge, again=False) as (live, session, dms):
            action = session.prepare(player, kind, amount, discards, judge_turn=False)
            try:
                events = await self.bot.tables.act(live, action)
            except NotYourTurn as err:
                raise UserError(not_your_turn(err.to_act)) from None
            dms += session.record(events)
            await self._answer(interaction, session, events)

    async def _answer(
        self, interaction: discord.Interaction, session: TableSession, events: Sequence[Event]
    ) -> None:
        """One answer: a click on the table message edits it; a slash command tells the channel what
        happened; the private draw menu closes with the outcome. The renderer does the rest."""
        text = _fitted(render.events_text(events) or "Fatto.")
        slash = interaction.type is discord.InteractionType.application_command
        source = interaction.message
        on_table = not slash and source is not None and source.id == session.live.message_id
        if on_table:
            await session.answer_on_table_message(interaction)
        elif slash:
            await public_answer(interaction, self.bot, content=text)
        elif source is not None and not source.flags.ephemeral and not interaction.response.is_done():
            # A modal of a table message posted again since (the old one may be gone): the new one
            # shows the change; the player reads what he did privately.
            await rest.respond(interaction, ephemeral=True, content=text)
        elif interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=None)
        else:
            await rest.update(interaction, content=text, view=None)

    async def come_back(self, interaction: discord.Interaction, target: Target | None = None) -> None:
        """/tavolo rientra and the Rientro button: the one way back into the game."""
        player = interaction.user.id

        def judge(session: TableSession) -> None:
            if not session.seated(player):
                raise UserError(NOT_SEATED)

        async with self._judged(interaction, target, judge) as (live, session, dms):
            events = await self.bot.tables.apply(live, lambda: live.come_back(player))
            if live.tournament is not None:
                await live.tournament.away_changed(live)
            dms += session.record(events)
            await self._answer(interaction, session, events)

    async def step_away(self, interaction: discord.Interaction) -> None:
        """/torneo ritirati after the start: the player stays in, away (blinded away, rules §7)."""
        player = interaction.user.id

        def judge(session: TableSession) -> None:
            if session.live.tournament is None or not session.seated(player):
                raise UserError(NOT_SEATED)

        async with self._judged(interaction, None, judge) as (live, session, dms):
            tournament = live.tournament
            assert tournament is not None  # judged under the lock
            events = await self.bot.tables.apply(live, lambda: tournament.step_away(live, player))
            await tournament.away_changed(live)
            dms += session.record(events)
            told = [tournament_text.withdrawal_text(player, live.variant), render.events_text(events)]
            await public_answer(
                interaction, self.bot, content=_fitted("\n".join(line for line in told if line))
            )

    async def start(self, interaction: discord.Interaction, target: Target | None = None) -> None:
        """/tavolo inizia and Prossima mano: deal, and post the new table message as the answer."""
        player = interaction.user.id
        can_start = functools.partial(_check_can_start, player=player)
        async with self._judged(interaction, target, can_start) as (live, session, dms):
            await session.seal_drawn()  # the last hand's message ends on its result and picture
            left = await self.bot.tables.stand_up_dismissed(live)
            if left:
                dms += session.record(left)
            events = await self.bot.tables.start_hand(live)
            dms += session.record(events)
            await session.post_new_hand(interaction)

    async def show_cards(self, interaction: discord.Interaction, target: Target | None = None) -> None:
        """/carte and Le mie carte: read-only, so answered at once from the state now, never waiting."""
        session = self.require(channel_of(interaction))
        if target is not None and target.table_id != session.live.id:
            raise UserError(STALE)
        live, player = session.live, interaction.user.id
        self.note(interaction.user)
        session.require_seat(player)
        if not live.table.hand_running:
            raise UserError(NO_HAND_CARDS)
        held = live.table.cards_of(player)
        seat = next((s for s in live.view().seats if s.player == player), None)
        if not held and seat is not None and seat.in_hand:
            raise UserError(CARDS_AFTER_BUIO)  # poker tradizionale asks the buio before any card
        drawn = seat.cards_drawn if seat is not None and reading.before_draw(live.table.street) else None
        text = session.hand_text(held, positions=drawn is None)
        if drawn is not None:  # his «cambio» is said; the draw is dealt once everyone has chosen
            text += "\n" + render.draw_waiting(drawn)
        if live.fair is not None and player in live.dealt:
            text += "\n" + dm_line(live.fair)  # where the bot never edits it (closed DMs: only here)
        files = hand_files(hand_picture(held))  # the cards as a picture beside their text
        await rest.respond(interaction, content=text, ephemeral=True, files=files)

    async def open_amount_or_draw(self, interaction: discord.Interaction, target: Target) -> None:
        """An amount button opens its modal, Cambio… its private menu: at once, from the state now
        (a modal cannot follow a defer). The action is judged again when the modal or menu comes back."""
        session = self.require(channel_of(interaction))
        session.check_target(interaction, target)
        kind = target.kind
        live, player = session.live, interaction.user.id
        assert kind is not None  # check_target refused unknown words
        if live.table.to_act != player:
            if not session.seated(player):
                raise UserError(NOT_SEATED)
            raise UserError(not_your_turn(live.table.to_act))
        legal = session.legal_for(player, kind)
        if legal is None:
            words = ", ".join(la.kind.word for la in live.table.legal_actions())
            raise UserError(f"Adesso non puoi dire «{kind.word}»: puoi dire {words}.")
        hand = live.table.hand_number
        if kind is ActionKind.CAMBIO:
            cards = live.table.cards_of(player)
            text = (
                session.hand_text(cards)
                + f"\nScegli da 1 a {legal.max} carte da cambiare (oppure premi «Servito»)."
            )
            menu = views.discard_view(cards, legal.max, table_id=live.id, hand=hand, turn=session.decisions)
            await rest.respond(interaction, content=text, view=menu, ephemeral=True)
            return
        modal = views.amount_modal(legal, table_id=live.id, hand=hand, turn=session.decisions)
        await interaction.response.send_modal(modal)

    async def component(self, interaction: discord.Interaction, target: Target, data: Any = None) -> None:
        """Every button, menu and modal of the game, bound to its table and hand."""
        what = target.what
        if what == "carte":
            await self.show_cards(interaction, target)
        elif what == "rientra":
            await self.come_back(interaction, target)
        elif what == "inizia":
            await self.start(interaction, target)
        elif what == "scarta":
            values = (data or {}).get("values") or []
            try:
                cards = tuple(Card.from_code(int(str(v))) for v in values)
            except (ValueError, TypeError, LookupError):  # a forged value: no card of the deck
                raise UserError(STALE) from None
            await self.act(interaction, ActionKind.CAMBIO, discards=cards, target=target)
        elif what.startswith("m:") and target.kind is not None:
            amount = views.modal_value((data or {}).get("components")) or ""
            await self.act(interaction, target.kind, amount=amount, target=target)
        elif what.startswith("a:") and target.kind is not None:
            kind = target.kind
            if kind in views.AMOUNT_KINDS or kind is ActionKind.CAMBIO:
                await self.open_amount_or_draw(interaction, target)
            else:
                await self.act(interaction, kind, target=target)
        else:
            raise UserError(STALE)


def _check_can_start(session: TableSession, player: int) -> None:
    if not session.seated(player):
        raise UserError(START_REFUSED)
    if session.live.table.hand_running:
        raise UserError("La mano è già in corso.")


def _fitted(text: str) -> str:
    """An answer within Discord's message limit: a showdown of many pots keeps whole lines, and the
    rest is on the table message."""
    if len(text) <= render.MESSAGE_LIMIT:
        return text
    return (
        render.packed(text.split("\n"), render.MESSAGE_LIMIT - len(MORE_ON_TABLE) - 1)[0]
        + "\n"
        + MORE_ON_TABLE
    )
