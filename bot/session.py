"""One owner per table: the table message, its log, the turn timer, the results and the private cards.

Both cogs call down into here; nothing else holds display state. The registry (bot/tables.py) keeps
the engine and the ledger in step under the table's lock; a `TableSession` turns what the engine
did into what the channel sees:

- every change bumps a version and wakes the table's **renderer**, a background task that re-renders
  the whole message from the engine's state and edits it through the channel. Changes made while an
  edit is in flight fold into the next one (a burst of actions costs one edit). A failed edit (429
  past discord.py's own retries, 5xx, a network error) is retried with a growing pause until the
  message shows the latest version; the renderer never holds the table's lock, so a rate-limited
  channel never blocks play. A table message deleted by someone (404, unknown message) is posted
  again and its id stored. Taking the buttons off an older message goes through the same queue.
- every component carries its table id and hand number (bot/views.py); `check_target` refuses a
  click from an older hand, another table or another message, privately, before anything changes.
- a command decides its refusals from the current state before it waits for a busy table, so a
  refusal is private from the first byte; a command that must wait defers privately and, once
  accepted, says its public part through the channel (`public_answer`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import discord

from bot import reading, render, rest, views
from bot.card_pictures import TablePicture, hand_picture, showdown_rows
from bot.computers import is_computer
from bot.errors import NETWORK_ERRORS, UserError, discord_failed
from bot.fair_deck import add_to_embed, dm_line
from bot.storage import STORAGE_FAILURES
from bot.tables import NO_TABLE, LiveTable
from bot.tree import DISCORD_FAILED, send_private
from bot.views import Target
from engine.actions import Action, ActionKind, LegalAction
from engine.cards import Card
from engine.events import (
    ActionTaken,
    CardsDealt,
    CardsDrawn,
    Event,
    HandEnded,
    HandStarted,
    PlayerTimedOut,
    StreetStarted,
)

if TYPE_CHECKING:
    from bot.sessions import Sessions

__all__ = [
    "DM",
    "DONE",
    "MOVED_ON",
    "NOT_SEATED",
    "NO_HAND_CARDS",
    "RETRY_FIRST",
    "RETRY_MAX",
    "STALE",
    "START_REFUSED",
    "TableSession",
    "busy",
    "channel_of",
    "defer_privately_if_busy",
    "not_your_turn",
    "public_answer",
]

log = logging.getLogger(__name__)

NOT_YOUR_TURN = "Non è il tuo turno."
NOT_SEATED = "Non sei seduto a questo tavolo."
NO_HAND = "Non c'è nessuna mano in corso."
NO_HAND_CARDS = "Non c'è nessuna mano in corso: le carte ti arrivano in privato quando si dà la mano."
STALE = "Questo messaggio è di una mano finita: usa quello nuovo."
MOVED_ON = (
    "Il gioco è andato avanti da quando è comparso questo pulsante: usa il messaggio del tavolo aggiornato."
)
START_REFUSED = "Solo chi è seduto al tavolo può iniziare la mano."
DONE = "Fatto: il messaggio del tavolo mostra com'è andata."
TOURNAMENT_NEXT = {
    True: "Torneo: la prossima mano parte da sola tra pochi secondi.",
    False: "Torneo finito: segue la classifica.",
}

SHOWDOWN_WAIT = 1.0
"""How long a deal or a closing waits for the last hand's showdown picture (drawn in a thread)."""
RETRY_FIRST = 0.5
"""Seconds before the first retry of a failed edit; doubled at each failure, up to `RETRY_MAX`."""
RETRY_MAX = 30.0
UNKNOWN_MESSAGE = 10008
UNKNOWN_CHANNEL = 10003


class DM(NamedTuple):
    """A private message to send: the player, its text, and his cards as a PNG (drawn under the lock,
    before the answer, so that sending it is only I/O), of hand number ``hand``."""

    player: int
    text: str
    picture: bytes | None = None
    hand: int = 0


def not_your_turn(to_act: int | None) -> str:
    """The refusal names whose turn it is: the mention shows his name and, in a private reply
    (bot/tree.py sends those without pings), disturbs nobody."""
    if to_act is None:
        return NOT_YOUR_TURN
    return f"Non è il tuo turno: tocca a {render.mention(to_act)}."


def channel_of(interaction: discord.Interaction) -> int:
    """The channel of a command; the tree's one guild check already refused DMs."""
    if interaction.channel_id is None:  # pragma: no cover - every guild interaction has a channel
        raise UserError(NO_TABLE)
    return interaction.channel_id


class TableSession:
    """The Discord side of one open table (see the module docstring)."""

    def __init__(self, owner: Sessions, live: LiveTable) -> None:
        self.owner = owner
        self.live = live
        self.log: list[str] = []
        """The public lines of the current (or last) hand."""
        self.results: list[str] = []
        """The closing lines of the last hand: board, hands shown, every chip movement."""
        self.board: list[Card] = []
        """The board of the current (or last) hand (texas), kept after the hand ends."""
        self.dm_failed: set[int] = set()
        """Players of the current hand whose cards could not be sent by DM (closed DMs)."""
        self.message_hand = live.table.hand_number
        """The hand the table message shows; a new hand's message is posted by whoever deals it."""
        self.decisions = 0
        """Decisions taken in the current hand (actions, timeouts): the turn a word's button, modal
        or menu is bound to (bot/views.py), so that one drawn before the game moved on acts on nothing."""
        self.hand_title: str | None = None
        """A tournament's title (its level) when the current hand was dealt: the title its message
        keeps, though the boundary may raise the level before the last edit."""
        self.closed = False
        self._hands: dict[int, tuple[Card, ...]] = {}  # private: each player's whole hand, for his DMs
        self._hand_events: list[Event] = []
        self._turn: tuple[int, int | None] | None = None
        self._version = 0
        self._shown = 0
        self._retire: dict[int, None] = {}  # message ids whose buttons must come off, in order
        # Retired messages the channel does not show at their last state yet (`seal`): that state
        # without buttons, and the maker of its picture's upload.
        self._final: dict[int, tuple[dict[str, Any], Callable[[], dict[str, Any]]]] = {}
        self._failing = False  # the renderer's last edit failed: it waits to try again
        self._noted: dict[int, int | None] = {}  # messages noted in the storage (`_note`), and their hand
        self._write_lock = asyncio.Lock()
        self._edit_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self.picture = TablePicture()
        """The picture of the table message: texas board, then the showdown (bot/card_pictures.py)."""

    @property
    def channel_id(self) -> int:
        return self.live.channel_id

    # What the engine did ---------------------------------------------------------------------------

    def record(self, events: Sequence[Event]) -> list[DM]:
        """Take in what the engine did: log, board, results, timer, private cards; wake the renderer."""
        live = self.live
        dms: list[DM] = []
        # Whose turn it was when these events began: a fold out of turn (a player leaving the table)
        # changes nothing in front of the player to act, so his open buttons and modal stay good.
        turn = self._turn
        waiting = turn[1] if turn is not None and turn[0] == live.table.hand_number else None
        for event in events:
            if isinstance(event, HandStarted):
                waiting = None
                self.hand_title = None if live.tournament is None else live.tournament.title()
                self.decisions = 0
                self.log, self.results, self.board, self._hand_events = [], [], [], []
                self.dm_failed = set()
                self._hands = {}
                live.deck_size = event.deck_size
                self.picture.new_hand()
            if event.private_to is None:
                self._hand_events.append(event)
            if isinstance(event, PlayerTimedOut) or (
                isinstance(event, ActionTaken)
                and (waiting is None or event.player == waiting or event.kind is not ActionKind.PASSO)
            ):
                self.decisions += 1
                waiting = None  # the turn moved: whatever follows counts
            if isinstance(event, StreetStarted):
                self.board.extend(event.board)
                self.picture.show_board(self.board)
            elif isinstance(event, HandEnded):
                self.results = render.result_lines(self._hand_events, self.board)
                rows = showdown_rows(self._hand_events, self.owner.name_of)
                self.picture.show_showdown(rows, self.board, self.changed, self.owner.tasks)
            elif isinstance(event, CardsDealt) and event.private_to is not None:
                self._hands[event.player] = self._hands.get(event.player, ()) + tuple(event.cards)
                # The impronta where the bot never edits it: the table message changes all hand long.
                dms.append(self._cards_dm(event.player, "Le tue carte", dm_line(live.fair)))
            elif isinstance(event, CardsDrawn) and event.private_to is not None:
                kept = tuple(c for c in self._hands.get(event.player, ()) if c not in event.discarded)
                self._hands[event.player] = kept + tuple(event.received)
                if event.received:
                    dms.append(self._cards_dm(event.player, "Dopo il cambio, le tue carte"))
        table = live.table
        if waiting is not None and table.hand_running and table.to_act != waiting:
            self.decisions += 1  # no decision counted, yet the turn moved: the old buttons must go
        told = render.events_text(events)
        if told:
            self.log.extend(told.split("\n"))
            del self.log[: -4 * render.LOG_LINES]
        self.rearm(events)
        self.changed()
        self.owner.computers.after(live, events)
        return dms

    def _cards_dm(self, player: int, heading: str, footer: str = "") -> DM:
        """The whole hand the player holds now (in the holding order) and what it makes."""
        live = self.live
        cards = self._hands.get(player, ())
        where = f"Tavolo in <#{live.channel_id}>, mano n. {live.table.hand_number}.\n"
        text = where + self.hand_text(cards, heading) + (f"\n{footer}" if footer else "")
        picture = None if is_computer(player) else hand_picture(cards)
        return DM(player, text, picture, live.table.hand_number)

    def hand_text(
        self, cards: Sequence[Card], heading: str = "Le tue carte", *, positions: bool = True
    ) -> str:
        """A player's cards as he reads them privately (in the holding order), what they make, and the
        positions for /cambio while the draw is to come (and ``positions``: not once he declared his)."""
        live, table = self.live, self.live.table
        return render.cards_text(
            cards,
            board=table.board,
            options=live.options,
            deck_size=live.deck_size,
            heading=heading,
            positions=positions and reading.before_draw(table.street) and table.hand_running,
        )

    def rearm(self, events: Sequence[Event] = (), *, force: bool = False) -> None:
        """Start the turn timer of the player to act when the turn moved (or he just acted)."""
        table, timers = self.live.table, self.owner.timers
        turn = (table.hand_number, table.to_act)
        before, self._turn = self._turn, turn
        if not table.hand_running or table.to_act is None:
            timers.cancel(self.channel_id)
            self.owner.calls.update(self.live, fresh=False)
            return
        # A fresh period when the turn moved, or when the player to act just spoke and speaks again
        # (heads-up, a draw followed by his bet); not when someone else left or came back meanwhile.
        was = before[1] if before is not None else None
        acted = any(
            isinstance(e, HandStarted) or (isinstance(e, ActionTaken | PlayerTimedOut) and e.player == was)
            for e in events
        )
        fresh = force or acted or before != turn or timers.deadline(self.channel_id) is None
        if fresh:
            timers.arm(self.channel_id, self.live.options.timeout)
        self.owner.calls.update(self.live, fresh=fresh, posted=self._posted)  # bot/turn_calls.py

    def _posted(self) -> bool:
        """Whether the channel has the current hand's table message (turn calls wait for it)."""
        return self.live.message_id is not None and self.message_hand == self.live.table.hand_number

    # Rendering -------------------------------------------------------------------------------------

    def render(self) -> dict[str, Any]:
        """The table message as keyword arguments for send/edit, from the engine's state now."""
        live = self.live
        view = live.view()
        deadline = self.owner.timers.deadline(live.channel_id) if view.to_act is not None else None
        embed = render.table_embed(
            view,
            live.options,
            deadline=deadline,
            dm_failed=self.dm_failed if view.hand_running else (),
            results=() if view.hand_running else self.results,
            next_hand=None if live.tournament is None else TOURNAMENT_NEXT[live.tournament.goes_on()],
        )
        self.picture.decorate(embed)  # the image is uploaded by the send or edit (`_files`)
        add_to_embed(embed, live.fair, live.options, ended=not view.hand_running)  # bot/fair_deck.py
        if live.tournament is not None:
            embed.title = self.hand_title or live.tournament.title()  # the level the hand was played at
        legal = live.table.legal_actions() if view.hand_running else ()
        return {
            "content": render.table_content(self.log, view, deadline) or None,
            "embed": embed,
            "view": views.table_view(
                view, legal, table_id=live.id, turn=self.decisions, can_deal=live.tournament is None
            ),
        }

    def changed(self) -> None:
        """The table changed: the renderer will show it (once, however many changes come first)."""
        self._version += 1
        self._wake()

    async def seal_drawn(self) -> None:
        """`seal`, once a showdown picture still being drawn is done (bounded: `SHOWDOWN_WAIT`), so
        that the last hand's message ends on it."""
        await self.picture.drawn(SHOWDOWN_WAIT)
        self.seal()

    def seal(self) -> None:
        """The next hand is about to be dealt on a new message. If the channel does not show this
        message's last state yet (an edit failing and retried, or in flight), keep that state for
        the edit that retires the message (`_take_buttons_off`): it ends on the hand's result, never
        on a turn and a countdown of a hand long over."""
        message_id = self.live.message_id
        if message_id is None:
            return
        self._final.pop(message_id, None)  # kept by a deal that then failed: older than the channel
        if self._shown >= self._version:
            return
        self._final[message_id] = ({**self.render(), "view": None}, self.picture.final_files(message_id))
        # Rare (an edit failing, or still in flight at the deal): noted, so that a restart before the
        # edit that ends it still ends it.
        self._note(message_id, self.message_hand)

    def retire(self, message_id: int | None) -> None:
        """Queue taking the buttons off an older table message (its text stays as its record)."""
        if message_id is not None:
            self._retire[message_id] = None
            if self._failing:
                self._note(message_id, None)
            self._wake()

    def end_after_restart(self, message_id: int, hand_number: int | None) -> None:
        """A table message the last run noted as not up to date (`_note`): the table's own is shown
        again; an older one loses its buttons and, if it still showed its hand running, says that
        the hand is over. Either way the note goes once Discord took the edit."""
        self._noted[message_id] = hand_number
        if message_id == self.live.message_id:
            self.changed()
            return
        if hand_number is not None:
            self._final[message_id] = (render.ended_hand(hand_number), dict)
        self.retire(message_id)

    def _note(self, message_id: int, hand_number: int | None) -> None:
        """Note in the storage a message Discord has not taken the last edit of (the table's own, or an
        older one still to end; ``hand_number``: the hand it still shows running, None when it needs
        only its buttons off or the table shown again), so that a restart first fixes it
        (`end_after_restart`)."""
        if message_id in self._noted and (hand_number is None or self._noted[message_id] == hand_number):
            return
        self._noted[message_id] = hand_number
        live, storage = self.live, self.owner.bot.storage
        note = functools.partial(
            storage.note_stale_message, live.channel_id, live.guild_id, message_id, hand_number
        )
        self._spawn_write(note, f"noting message {message_id}")

    def _ended(self, message_id: int) -> None:
        """An older message is ended (or gone): its note, if any, is forgotten."""
        if message_id in self._noted:
            del self._noted[message_id]
            forget = functools.partial(
                self.owner.bot.storage.forget_stale_message, self.channel_id, message_id
            )
            self._spawn_write(forget, f"forgetting message {message_id}")

    def _spawn_write(self, write: Callable[[], Awaitable[None]], what: str) -> None:
        """Run a storage write in the background, in the order they were asked for (the write is
        made only then: a task cancelled before its turn, at a shutdown, leaves nothing unawaited)."""

        async def run() -> None:
            try:
                async with self._write_lock:  # in the order they were made (a hand noted after a None)
                    await write()
            except STORAGE_FAILURES as exc:  # a restart would only miss (or redo) one message's edit
                log.warning("Table %s: %s in the storage failed: %r", self.live.id, what, exc)

        task = asyncio.get_running_loop().create_task(run(), name=f"table-note-{self.channel_id}")
        self.owner.tasks.add(task)
        task.add_done_callback(self.owner.tasks.discard)

    def _wake(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._render_loop(), name=f"table-renderer-{self.channel_id}"
            )
            self.owner.tasks.add(self._task)
            self._task.add_done_callback(self.owner.tasks.discard)

    @property
    def up_to_date(self) -> bool:
        """Whether the channel shows the latest state and every older message lost its buttons."""
        return self._shown >= self._version and not self._retire

    async def _render_loop(self) -> None:
        pause = self.owner.retry_first
        # The task starts once the change's own task waits (its answer on the way): the changes made
        # before that are shown together, and those made while an edit is in flight by the next edit.
        while not self.up_to_date:
            try:
                if self._shown < self._version and not self.closed:
                    await self._show_latest()
                else:
                    self._shown = self._version
                while self._retire:
                    message_id = next(iter(self._retire))
                    await self._take_buttons_off(message_id)
                    self._retire.pop(message_id, None)
            except (discord.HTTPException, discord.RateLimited, *NETWORK_ERRORS) as exc:
                if not discord_failed(exc):
                    # A refusal no retry can change (missing permission, a payload Discord rejects).
                    log.warning("Table %s: Discord refused an edit: %s", self.live.id, exc)
                    self._shown = self._version
                    continue
                log.warning("Table %s: edit failed (%r); retrying in %.1f s", self.live.id, exc, pause)
                self._failing = True
                # The table message and the older ones still to end, for a restart before Discord is back:
                # the first is shown again, the others ended (a message kept at a later state is noted).
                for noted in [self.live.message_id, *self._retire]:
                    if noted is not None:
                        self._note(noted, None)
            except Exception:
                # A bug, not Discord: say so once, and let the next change try again.
                log.exception("Table %s: the table message could not be rendered", self.live.id)
                self._shown = self._version
                self._retire.clear()
                continue
            else:
                pause = self.owner.retry_first
                self._failing = False
                continue
            await asyncio.sleep(pause)
            pause = min(pause * 2, self.owner.retry_max)

    async def _show_latest(self) -> None:
        async with self._edit_lock:
            version = self._version
            if self._shown >= version:
                return
            live = self.live
            if live.message_id is None or live.table.hand_number != self.message_hand:
                # A new hand whose message its dealer is posting (post_new_hand, the first hand included:
                # a second post would leave his answer stale): nothing to edit. No message for a hand
                # dealt (his answer failed, a tournament's deal), running or already over: post it.
                if live.message_id is None and self.message_hand == live.table.hand_number > 0:
                    await self._post()
                self._shown = max(self._shown, version)
                return
            message_id = live.message_id
            files, key = self.picture.edit_files(message_id)
            try:
                await rest.edit(self.owner.bot, live.channel_id, message_id, **self.render(), **files)
                self.picture.uploaded(message_id, key)
                self._final.pop(message_id, None)  # the channel shows a later state than the kept one
                if message_id in self._noted and self._shown < version == self._version:
                    self._ended(message_id)  # up to date: a restart has nothing to fix on it
            except discord.NotFound as exc:
                if exc.code == UNKNOWN_CHANNEL:
                    log.warning("Table %s: its channel is gone", live.id)
                else:
                    await self._post()  # someone deleted the table message: post it again
            self._shown = max(self._shown, version)

    async def _post(self) -> None:
        """Post the table message anew through the channel and store its id."""
        live = self.live
        hand, previous = live.table.hand_number, live.message_id
        files, key = self.picture.send_files()
        posted = await rest.send(self.owner.bot, live.channel_id, **self.render(), **files)
        if live.table.hand_number != hand or live.message_id != previous:
            # Outside the lock, the post took long (429s): the next hand was dealt meanwhile, on its
            # own message. This one shows the older hand: it keeps that text and loses its buttons.
            self.retire(posted)
            return
        self.picture.uploaded(posted, key)
        live.message_id = posted
        self.message_hand = live.table.hand_number
        self.owner.calls.message_posted(self.channel_id)
        await self.remember_message()

    async def _take_buttons_off(self, message_id: int) -> None:
        final = self._final.pop(message_id, None)
        if message_id == self.live.message_id and not self.closed:
            return  # it became the table message again: the renderer shows its buttons
        message = {"view": None} if final is None else {**final[0], **final[1]()}
        try:
            await rest.edit(self.owner.bot, self.channel_id, message_id, **message)
        except discord.NotFound:
            pass  # deleted: no button left to take off
        except (discord.HTTPException, discord.RateLimited, *NETWORK_ERRORS) as exc:
            if discord_failed(exc):
                if final is not None:
                    self._final[message_id] = final
                raise  # retried by the renderer
            log.warning(
                "Table %s: Discord refused to take the buttons off %s: %s", self.live.id, message_id, exc
            )
        self._ended(message_id)

    async def remember_message(self) -> None:
        """Keep the table message id in the ledger, so that a restart can edit it."""
        try:
            if self.live.tournament is not None:
                await self.live.tournament.remember_message(self.live)
            else:
                await self.owner.bot.storage.set_table_message(self.live.id, self.live.message_id)
        except STORAGE_FAILURES as exc:
            log.warning("Table %s: could not store its message id: %s", self.live.id, exc)

    async def flush(self, timeout: float) -> None:
        """Wait (bounded) until the renderer has shown everything: used at shutdown."""
        task = self._task
        if task is not None and not task.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(task), timeout)

    # Answers --------------------------------------------------------------------------------------

    async def answer_on_table_message(self, interaction: discord.Interaction) -> None:
        """A click on the table message: answer by editing it (one REST call), unless the renderer is
        editing it right now; then acknowledge and let the renderer show the latest state."""
        if interaction.response.is_done():
            return
        if self._edit_lock.locked() or self.live.table.hand_number != self.message_hand:
            await interaction.response.defer()
            return
        async with self._edit_lock:
            version = self._version
            message_id = self.live.message_id
            files, key = self.picture.edit_files(message_id)
            try:
                await rest.update(interaction, **self.render(), **files)
            except (discord.HTTPException, *NETWORK_ERRORS) as exc:
                # Too late for this interaction (10062) or Discord failed: the renderer shows the table.
                log.warning("Table %s: a click could not be answered by an edit: %r", self.live.id, exc)
                self._wake()
                if not isinstance(exc, discord.NotFound):
                    # One more try at acknowledging the click, so that his client shows no failure:
                    # refused when the first answer did reach Discord, which is as good.
                    with contextlib.suppress(discord.HTTPException, *NETWORK_ERRORS):
                        await interaction.response.defer()
                return
            self.picture.uploaded(message_id, key)
            if message_id is not None:
                self._final.pop(message_id, None)  # the channel shows a later state than the kept one
            self._shown = max(self._shown, version)

    def repost(self) -> None:
        """The hand's table message is for the renderer to post through the channel: a hand dealt with
        no interaction to answer (a tournament deals by itself), or the dealer's answer failed. The
        last message keeps its text and loses its buttons."""
        live = self.live
        previous, live.message_id = live.message_id, None
        self.message_hand = live.table.hand_number
        self.retire(previous)
        self.changed()

    def told_in_a_line(self) -> None:
        """This hand has no table message: it ended at its deal and the channel reads its result in
        a line (a tournament's hand all-in from the forced bets). The last message keeps its text."""
        self.message_hand = -1

    async def post_new_hand(self, interaction: discord.Interaction) -> None:
        """The new hand's table message: the answer of who dealt it (or a channel post if deferred)."""
        live = self.live
        previous = live.message_id
        version = self._version
        files, key = self.picture.send_files()
        deferred = interaction.response.is_done()  # deferred privately while the table was busy
        try:
            if deferred:
                message_id: int = await rest.send(self.owner.bot, live.channel_id, **self.render(), **files)
            else:
                answered = await rest.respond(interaction, want_id=True, **self.render(), **files)
                if answered is None:  # pragma: no cover - Discord always returns the message
                    answered = (await interaction.original_response()).id
                message_id = answered
        except (discord.HTTPException, *NETWORK_ERRORS) as exc:
            # The hand is dealt: its message must exist. The renderer posts it through the channel.
            log.warning("Table %s: the new hand's message was not posted with its answer: %r", live.id, exc)
            self.repost()
            if deferred:
                await done_privately(interaction)  # the renderer posts the hand: his command is done
            elif discord_failed(exc):
                # The answer never reached Discord (or may not have): one more try, privately,
                # sending him to the table message the renderer posts.
                with contextlib.suppress(discord.HTTPException, *NETWORK_ERRORS):
                    await send_private(interaction, DISCORD_FAILED)
            return
        live.message_id = message_id
        self.picture.uploaded(message_id, key)
        self.message_hand = live.table.hand_number
        self.owner.calls.message_posted(self.channel_id)
        self._shown = max(self._shown, version)
        await self.remember_message()
        if previous != message_id:
            # The last hand's message keeps its text but loses its buttons: one live message.
            self.retire(previous)
        if self._version != version:
            self.changed()
        if deferred:
            await done_privately(interaction)

    # Checks made before anything changes -----------------------------------------------------------

    def seated(self, player: int) -> bool:
        """Seated and not on his way out: the one seated-player check of the Discord layer."""
        return self.live.seated(player)

    def require_seat(self, player: int) -> None:
        """Refuse at once a player with no seat at all (one who is leaving still has his seat)."""
        if not any(seat.player == player for seat in self.live.view().seats):
            raise UserError(NOT_SEATED)

    def legal_for(self, player: int, kind: ActionKind) -> LegalAction | None:
        """The legal action of that kind, when it is the player's turn (None otherwise)."""
        table = self.live.table
        if table.to_act != player:
            return None
        return next((la for la in table.legal_actions() if la.kind is kind), None)

    def check_target(self, interaction: discord.Interaction, target: Target) -> None:
        """Refuse a component of another table, hand or message; nothing changes, not even its text."""
        live, table = self.live, self.live.table
        if target.table_id != live.id or target.hand != table.hand_number:
            raise UserError(STALE)
        message = interaction.message
        ephemeral = message is not None and message.flags.ephemeral
        # A modal opened from a table message that was posted again meanwhile (deleted by a moderator)
        # still speaks for this very turn, which the turn check below proves.
        modal = interaction.type is discord.InteractionType.modal_submit
        if message is not None and not ephemeral and message.id != live.message_id and not modal:
            raise UserError(STALE)
        if target.says_a_word and not table.hand_running:
            raise UserError(STALE)
        if target.what == "inizia" and table.hand_running:
            raise UserError(STALE)
        if target.what.startswith(("a:", "m:")) and target.kind is None:
            raise UserError(STALE)
        if target.says_a_word and target.turn != self.decisions:
            if interaction.user.id != table.to_act:
                raise UserError(not_your_turn(table.to_act))  # the most useful thing to tell him
            raise UserError(MOVED_ON)

    def prepare(
        self,
        player: int,
        kind: ActionKind,
        amount: str | None,
        discards: str | tuple[Card, ...] | None,
        *,
        judge_turn: bool,
    ) -> Action:
        """Build the action from what the player said, against the state now.

        Before the lock (``judge_turn``) a player out of turn is refused at once from this snapshot;
        under the lock the engine judges the turn (`NotYourTurn`).
        """
        table = self.live.table
        if not table.hand_running:
            if not self.seated(player):
                raise UserError(NOT_SEATED)
            raise UserError(NO_HAND)
        if judge_turn and table.to_act != player:
            if not self.seated(player):
                raise UserError(NOT_SEATED)
            raise UserError(not_your_turn(table.to_act))
        legal = self.legal_for(player, kind)
        value: int | None = None
        if kind in views.AMOUNT_KINDS and legal is not None:
            value = reading.parse_amount(amount, kind, legal.min, table.bet_sizes(kind))
        cards: tuple[Card, ...] = ()
        if kind is ActionKind.CAMBIO and legal is not None and discards is not None:
            held = table.cards_of(player)
            cards = reading.parse_discards(discards, held) if isinstance(discards, str) else discards
        return Action(player, kind, value, cards)


def busy(lock: asyncio.Lock) -> bool:
    """Whether a command taking ``lock`` now would wait: it is held, or it was just released with
    commands queued for it. asyncio hands it to the first of them on its next turn, and `locked()`
    is False in between, yet a new command would still wait behind the whole queue."""
    if lock.locked():
        return True
    queued = getattr(lock, "_waiters", None) or ()  # asyncio's own queue: there is no public accessor
    return any(not waiter.cancelled() for waiter in queued)


async def defer_privately_if_busy(interaction: discord.Interaction, lock: asyncio.Lock) -> None:
    """Acknowledge now, privately, when the table's lock is taken (Discord allows 3 seconds).

    Nothing public is shown before the outcome is known: a refusal then arrives as a private
    follow-up, and an accepted command says its public part through the channel (`public_answer`).
    An idle table is answered directly, in one REST call.
    """
    if not busy(lock) or interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.application_command:
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer()


async def public_answer(interaction: discord.Interaction, bot: discord.Client, **message: Any) -> None:
    """The public answer of an accepted command: its response, or, when it was deferred privately
    while the table was busy, a channel message and a private "done"."""
    if not interaction.response.is_done():
        await rest.respond(interaction, **message)
        return
    await rest.send(bot, channel_of(interaction), **message)
    await done_privately(interaction)


async def done_privately(interaction: discord.Interaction) -> None:
    """The private "done" after a public part posted through the channel. The public part is what
    counts: a note that fails (an expired token, Discord down) is only logged, nothing is undone."""
    try:
        await interaction.followup.send(DONE, ephemeral=True)
    except (discord.HTTPException, *NETWORK_ERRORS) as exc:
        log.warning("Interaction %s: the private note after its answer failed: %r", interaction.id, exc)
