"""Turn calls: a short public message that pings the player whose turn it is when he stays silent.

Every table message is sent with mentions disabled (bot/client.py), and Discord never notifies on
an edit, so a player who looks away would only learn it is his turn from the countdown. After the
table's grace period (`TableSettings.ping_after`, the table option ``avviso``) the bot posts one NEW
message in the table's channel that mentions him, with ``allowed_mentions`` naming only him, so the
message can never ping anyone else. There is at most one call per turn: the session tells this
module when a fresh turn begins (the same moments that re-arm the turn timer, bot/session.py), and
the call of the turn before is deleted then, whether the player acted, timed out, the hand ended,
the table closed or the bot stops. A player turns his own calls off and on with ``/avvisi``; the
choice is stored per server (bot/storage/player_settings.py) and read once, then cached.

The grace period runs on the turn timers' clock (bot/timers.py), as a clock handle rather than a
sleeping task (a turn passes at every action; a call is rarely due), so tests move time instead of
waiting. Each call shown is noted in the storage (bot/storage/shown_calls.py) until it is deleted, so
a bot that died without a clean stop deletes its last calls when it starts again (`sweep`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import NETWORK_ERRORS, UserError, retried
from bot.storage import STORAGE_FAILURES
from bot.storage.ledger import is_computer
from bot.timers import Clock, Handle

if TYPE_CHECKING:
    from bot.client import PokerBot
    from bot.tables import LiveTable

__all__ = ["PING_WORDS_OFF", "TurnCalls", "call_text", "mentions_only", "parse_ping_after"]

log = logging.getLogger(__name__)

PING_WORDS_OFF = frozenset({"off", "no", "mai", "spento", "nessuno"})
"""What a host may type for ``avviso`` to never call anyone at his table."""
PING_MAX = 3600
BAD_PING = "L'avviso è un numero di secondi da 0 a 3600, oppure «off» per non avvisare mai."
DELETE_TRIES = 8
"""How often a call's deletion is tried while Discord fails (0.5 s doubling to 30 s: about a minute)."""
POSTED_WAIT = 3.0
"""A call waits at most 3 s for its hand's table message to be posted, then goes anyway."""


def parse_ping_after(text: str | None, default: int | None = 15) -> int | None:
    """The table option ``avviso``: seconds (0 = at once), or None for never (``off``)."""
    if text is None:
        return default
    word = text.strip().lower()
    if word in PING_WORDS_OFF:
        return None
    if not word.isascii() or not word.isdigit() or int(word) > PING_MAX:
        raise UserError(BAD_PING)
    return int(word)


def call_text(player: int, hand_number: int) -> str:
    return f"<@{player}>, tocca a te (mano n. {hand_number})."


def mentions_only(player: int) -> discord.AllowedMentions:
    """The one user a call may notify: nobody else, no role, no @everyone."""
    return discord.AllowedMentions(
        users=[discord.Object(id=player)], everyone=False, roles=False, replied_user=False
    )


@dataclass(eq=False)
class _Call:
    channel_id: int
    guild_id: int
    player: int
    hand_number: int
    due: float
    posted: Callable[[], bool]
    waiting: Handle | None = None  # the clock's handle until the call is due
    task: asyncio.Task[None] | None = None
    message_id: int | None = None
    sending: bool = False
    ended: bool = False
    waited: bool = True
    """The call came after a grace period (``avviso`` above 0), not with the turn itself."""
    table_shown: asyncio.Event = field(default_factory=asyncio.Event)
    """Set by `TurnCalls.message_posted` when the hand's table message reaches the channel."""


class TurnCalls:
    """The pending or shown call of each table, by channel id (one per table at most)."""

    def __init__(self, bot: PokerBot, clock: Callable[[], Clock]) -> None:
        self.bot = bot
        self._clock = clock
        self._calls: dict[int, _Call] = {}
        self._wants: dict[tuple[int, int], bool] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # What the session tells -----------------------------------------------------------------------

    def update(self, live: LiveTable, *, fresh: bool, posted: Callable[[], bool] = lambda: True) -> None:
        """The turn of ``live`` moved (``fresh``: a new turn period began) or the hand stopped.
        ``posted`` says whether the hand's table message is in the channel yet: a call never comes
        before it (with ``avviso`` 0 the call is due while the new hand's message is on its way)."""
        table = live.table
        player = table.to_act
        if not table.hand_running or player is None:
            self.end(live.channel_id)
            return
        if not fresh:
            return
        self.end(live.channel_id)
        after = live.settings.ping_after
        if after is None or is_computer(player):  # a computer player is never pinged
            return
        due = self._clock().now() + after
        call = _Call(live.channel_id, live.guild_id, player, table.hand_number, due, posted, waited=after > 0)
        self._calls[live.channel_id] = call
        call.waiting = self._clock().call_at(due, lambda: self._due(call))

    def _due(self, call: _Call) -> None:
        call.waiting = None
        if not call.ended:
            call.task = self._spawn(self._run(call), f"turn-call-{call.channel_id}")

    def message_posted(self, channel_id: int) -> None:
        """The table's message for its current hand is in the channel: a call waiting for it goes."""
        call = self._calls.get(channel_id)
        if call is not None:
            call.table_shown.set()

    def end(self, channel_id: int) -> None:
        """The turn is over: the call waiting is dropped, the call shown is deleted."""
        call = self._calls.pop(channel_id, None)
        if call is not None:
            self._finish(call)

    async def close(self, grace: float = 2.0) -> None:
        """The bot stops: every call is deleted (bounded), nothing waits any more."""
        for channel_id in list(self._calls):
            self.end(channel_id)
        tasks = list(self._tasks)
        if tasks:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), grace)
        for task in list(self._tasks):
            task.cancel()

    # The player's own choice ----------------------------------------------------------------------

    async def wanted(self, guild_id: int, player: int) -> bool:
        """Whether the player wants calls in this server (asked once, then remembered)."""
        key = (guild_id, player)
        known = self._wants.get(key)
        if known is None:
            try:
                known = await self.bot.storage.turn_calls(guild_id, player)
            except STORAGE_FAILURES as exc:
                log.warning("Turn calls of user %s not read: %s", player, exc)
                return True
            self._wants[key] = known
        return known

    async def choose(self, guild_id: int, player: int, enabled: bool) -> None:
        """``/avvisi``: store the choice; turning calls off also takes back a call shown to him now."""
        await self.bot.storage.set_turn_calls(guild_id, player, enabled)
        self._wants[(guild_id, player)] = enabled
        if not enabled:
            for channel_id, call in list(self._calls.items()):
                if call.player == player and call.guild_id == guild_id:
                    self.end(channel_id)

    # Sending and deleting -------------------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _finish(self, call: _Call) -> None:
        call.ended = True
        if call.waiting is not None:
            call.waiting.cancel()  # not due yet: no task was ever started
        if call.task is not None and not call.task.done() and not call.sending:
            call.task.cancel()  # still waiting: nothing was posted
        if call.message_id is not None:
            message_id, call.message_id = call.message_id, None
            self._spawn(self._delete(call.channel_id, message_id), f"turn-call-delete-{call.channel_id}")

    async def _run(self, call: _Call) -> None:
        if not call.posted():  # with ``avviso`` 0 the call is due while the hand's message is on its way
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(call.table_shown.wait(), POSTED_WAIT)
        if call.ended or not await self.wanted(call.guild_id, call.player) or call.ended:
            return
        channel = self.bot.get_partial_messageable(call.channel_id)
        call.sending = True
        try:
            posted = await channel.send(
                call_text(call.player, call.hand_number), allowed_mentions=mentions_only(call.player)
            )
        except (discord.HTTPException, *NETWORK_ERRORS) as exc:
            log.info("Table in channel %s: turn call not sent: %r", call.channel_id, exc)
            return
        finally:
            call.sending = False
        if call.ended:  # the turn passed while the call was on its way
            await self._delete(call.channel_id, posted.id)
            return
        call.message_id = posted.id  # from now on the end of the turn deletes it, whatever follows
        session = self.bot.sessions.get(call.channel_id) if call.waited else None
        if session is not None:
            # The player has been silent a while: perhaps the table message is gone (a moderator
            # tidied the channel), and nothing else edits it before his time runs out. One edit
            # finds out, and the renderer posts it again (with his buttons) if it is.
            session.changed()
        try:
            await self.bot.storage.note_turn_call(call.channel_id, call.guild_id, posted.id)
        except STORAGE_FAILURES as exc:  # only a crash before its deletion would leave it
            log.warning("Turn call %s in channel %s not noted: %r", posted.id, call.channel_id, exc)

    async def sweep(
        self, *, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> None:
        """At start-up: delete the calls a previous run left shown (it died without a clean stop), of
        this process's shards. The deletions run in the background; start-up does not wait for them."""
        try:
            left = await self.bot.storage.turn_calls_left(shard_ids=shard_ids, shard_count=shard_count)
        except STORAGE_FAILURES as exc:
            log.warning("The turn calls left by the last run were not read: %s", exc)
            return
        for channel_id, message_id in left:
            self._spawn(self._delete(channel_id, message_id), f"turn-call-sweep-{channel_id}")

    async def _delete(self, channel_id: int, message_id: int) -> None:
        """Take the call away, then forget it. Discord failing (a 5xx, a dropped connection, 429s
        past discord.py's retries) is tried again with the renderer's backoff, up to `DELETE_TRIES`
        times; a call still there (or refused: a missing permission) stays noted, so that the next
        start tries again."""
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        sessions = self.bot.sessions
        outcome, exc = await retried(
            message.delete, tries=DELETE_TRIES, first=sessions.retry_first, most=sessions.retry_max
        )
        if outcome in ("refused", "failed"):  # "gone": someone deleted it already
            log.info("Turn call %s in channel %s not deleted: %r", message_id, channel_id, exc)
            return
        try:
            await self.bot.storage.forget_turn_call(channel_id, message_id)
        except STORAGE_FAILURES as exc:
            log.info("Turn call %s in channel %s deleted but not forgotten: %s", message_id, channel_id, exc)
