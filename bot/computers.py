"""Computer players at Discord tables: who they are, and the controller that plays their turns.

A computer player is a seat like any other in the engine and the ledger, with a **negative player id**
(Discord snowflakes are positive, so no person can ever have one): ``-1`` is the first name of
`NAMES`, ``-2`` the second, and so on, so his name follows from his id alone (`name_of`, used by
`render.mention`) and is unique at his table. His chips are the server's house account's
(`bot.storage.ledger.HOUSE`): he buys in from it and his stack goes back to it when he leaves.

`ComputerPlayers` (one per bot, owned by `Sessions`) plays their turns by the same path as a human:
it is told of every change the table's session records (`after`); when the player to act is a
computer it waits a human-like pause (`TableSettings.computer_pause_min/max`), builds his
`PlayerView` (engine/ai: the hand's **public** events and his own cards only), decides in a worker
thread (`asyncio.to_thread`, so the table's lock and the event loop are free meanwhile), then takes
the table's lock, checks that the table is still where the decision was made, and acts through
`TableRegistry.act` and `TableSession.record`, like a slash command. The turn timer runs for him as
for anyone. After a restart the table state seats him again (his level is in the ledger) and
`Sessions.restore` calls `after`, so a computer whose turn it is acts.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.storage import STORAGE_FAILURES
from bot.storage.ledger import is_computer
from bot.table_settings import TableSettings
from bot.tables import LiveTable
from engine.actions import Action
from engine.ai import HandLog, Level, decide
from engine.errors import EngineError
from engine.events import Event
from engine.options import TableOptions

if TYPE_CHECKING:
    from bot.sessions import Sessions

__all__ = [
    "LEVELS",
    "NAMES",
    "ROBOT",
    "ComputerPlayers",
    "computer_id",
    "computers_at",
    "described",
    "find",
    "free_id",
    "is_computer",
    "is_feminine",
    "limit",
    "name_of",
]

log = logging.getLogger(__name__)

ROBOT = "🤖"
NAMES = (
    "Nonno Gino",
    "Zia Pina",
    "Don Peppino",
    "Sora Lella",
    "Compare Turiddu",
    "Nonna Adele",
    "Zio Tonino",
    "Comare Rosa",
    "Mastro Geppetto",
    "Padre Anselmo",
)
"""One name per seat a table can have: a computer's id picks his name, so two at a table never share one."""

FEMININE = frozenset({"Zia Pina", "Sora Lella", "Nonna Adele", "Comare Rosa"})
"""The names of women: the words that agree with them are feminine («eliminata», «giocatrice»)."""

LEVELS = tuple(str(level) for level in Level)


def computer_id(slot: int) -> int:
    """The player id of the computer with the ``slot``-th name."""
    return -(slot + 1)


def name_of(player: int) -> str:
    """``🤖 Nonno Gino``: the robot says at once that this is no person."""
    return f"{ROBOT} {NAMES[(-player - 1) % len(NAMES)]}"


def is_feminine(player: int) -> bool:
    """A computer with a woman's name (a person's gender is not known: Italian's masculine stands)."""
    return is_computer(player) and NAMES[(-player - 1) % len(NAMES)] in FEMININE


def described(player: int) -> str:
    """``🤖 Zia Pina, giocatrice del computer``: how a computer is introduced to the table."""
    return f"{name_of(player)}, {'giocatrice' if is_feminine(player) else 'giocatore'} del computer"


def computers_at(live: LiveTable) -> list[int]:
    """The computer players seated at the table and not on their way out, in seat order."""
    return [s.player for s in live.view().seats if is_computer(s.player) and not s.leaving]


def free_id(live: LiveTable) -> int | None:
    """The id of the first name nobody at the table has (a leaver still holds his until the hand ends)."""
    taken = {s.player for s in live.view().seats}
    for slot in range(len(NAMES)):
        if computer_id(slot) not in taken:
            return computer_id(slot)
    return None


def limit(live: LiveTable) -> int:
    """How many computer players may sit: the table's option, by default every seat but one."""
    return limit_of(live.options, live.settings)


def limit_of(options: TableOptions, settings: TableSettings) -> int:
    """`limit` of a table's options and settings (also told by /tavolo regole)."""
    seats = options.max_seats - 1
    chosen = settings.max_computers
    return seats if chosen is None else min(chosen, seats)


def find(live: LiveTable, name: str) -> int | None:
    """The computer at the table called ``name`` (with or without the robot, any case)."""
    wanted = name.replace(ROBOT, "").strip().casefold()
    for player in computers_at(live):
        if name_of(player).replace(ROBOT, "").strip().casefold() == wanted:
            return player
    return None


_Key = tuple[int, int, int]
"""(hand number, player to act, changes seen): the moment a decision is made for."""


class ComputerPlayers:
    """Plays every computer player's turns at the bot's tables (module docstring)."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self.stopped = False
        self._tasks: dict[int, asyncio.Task[None]] = {}  # channel -> the task playing there
        self._logs: dict[int, HandLog] = {}  # channel -> the public events seen (with habits)
        self._changes: dict[int, int] = {}  # channel -> how many changes were recorded
        self._pausing: dict[int, asyncio.Task[None]] = {}  # channel -> its task, while in its pause
        self._rng = random.Random(secrets.randbits(64))

    # What the sessions tell -----------------------------------------------------------------------

    def after(self, live: LiveTable, events: Sequence[Event] = ()) -> None:
        """The table changed (or was restored): note its public events; play if a computer is to act."""
        channel = live.channel_id
        public = [e for e in events if e.private_to is None]
        if public:
            self._logs.setdefault(channel, HandLog()).feed(public)
        self._changes[channel] = self._changes.get(channel, 0) + 1
        if self.stopped or not self._wanted(live):
            return
        task = self._tasks.get(channel)
        if task is not None and not task.done():
            if self._pausing.get(channel) is not task:
                return  # it plays on when it finishes (`_done`)
            task.cancel()  # still pausing for a moment that is gone: pause again from now
        task = asyncio.get_running_loop().create_task(self._play(channel), name=f"computer-{channel}")
        self._tasks[channel] = task
        self.sessions.tasks.add(task)
        seen = self._changes[channel]
        task.add_done_callback(lambda done: self._done(channel, done, seen))

    def forget(self, channel: int) -> None:
        """The table closed."""
        self._logs.pop(channel, None)
        self._changes.pop(channel, None)

    def stop(self) -> None:
        """The bot is stopping: no new turn (running ones are cancelled with the sessions' tasks)."""
        self.stopped = True

    # Playing --------------------------------------------------------------------------------------

    @staticmethod
    def _wanted(live: LiveTable) -> bool:
        table = live.table
        if not table.hand_running:
            return bool(live.dismissed) or any(
                is_computer(s.player) and s.sitting_out for s in live.view().seats
            )
        to_act = table.to_act
        return to_act is not None and is_computer(to_act)

    def _key(self, live: LiveTable) -> _Key:
        table = live.table
        return (table.hand_number, table.to_act or 0, self._changes.get(live.channel_id, 0))

    def _done(self, channel: int, task: asyncio.Task[None], seen: int) -> None:
        """A task ended: if the table changed meanwhile (his own action, or anything else), look again;
        if nothing changed (a refusal, a bug) wait for the next change rather than loop."""
        self.sessions.tasks.discard(task)
        if self._tasks.get(channel) is task:
            del self._tasks[channel]
        if task.cancelled() or self.stopped or self._changes.get(channel, 0) == seen:
            return
        live = self.sessions.bot.tables.get(channel)
        if live is not None and self._wanted(live):
            self.after(live)  # the next computer's turn (or a change that came during this one)

    async def _play(self, channel: int) -> None:
        tables = self.sessions.bot.tables
        live = tables.get(channel)
        if live is None:
            return
        if not live.table.hand_running:
            await self._come_back(channel)
            return
        key = self._key(live)
        settings = live.settings
        pause = self._rng.uniform(settings.computer_pause_min, settings.computer_pause_max)
        if pause > 0:
            me = asyncio.current_task()
            assert me is not None
            self._pausing[channel] = me
            try:
                await asyncio.sleep(pause)
            finally:
                if self._pausing.get(channel) is me:
                    del self._pausing[channel]
        live = tables.get(channel)
        if live is None or self._key(live) != key:
            return  # the table moved on meanwhile (a timeout, a leave): `_done` looks again
        player = live.table.to_act
        assert player is not None
        # The view is built here, in one step of the event loop: nothing changes the table meanwhile.
        view = self._logs.setdefault(channel, HandLog()).view(live.table, player)
        level = live.computers.get(player, str(Level.ESPERTO))
        rng = random.Random(self._rng.getrandbits(64))
        try:
            action = await asyncio.to_thread(decide, view, rng, level)
        except Exception:
            # A bug of a strategy, never a user's doing: said once; the turn timer plays for him.
            log.exception("Table %s: computer player %s could not decide", live.id, player)
            return
        await self._act(channel, key, action)

    async def _act(self, channel: int, key: _Key, action: Action) -> None:
        sessions = self.sessions
        dms = []
        try:
            async with sessions.bot.tables.locked(channel) as live:
                if self._key(live) != key:
                    return  # a timeout or a leave came first: this decision is for a moment gone
                events = await sessions.bot.tables.act(live, action)
                dms = sessions.of(live).record(events)
        except UserError:
            return  # the table closed, or the bot is stopping
        except EngineError as err:
            log.warning("Table of channel %s: a computer's action was refused: %s", channel, err)
            return
        except STORAGE_FAILURES as err:  # refused by the ledger, or the database is down
            log.warning("Table of channel %s: a computer's action was not written: %s", channel, err)
            return
        await sessions.deliver(channel, dms)

    async def _come_back(self, channel: int) -> None:
        """Between hands, a computer the turn timer sat out plays again, as a human would with Rientro,
        and one dismissed during the hand stands up."""
        sessions = self.sessions
        try:
            async with sessions.bot.tables.locked(channel) as live:
                if live.table.hand_running:
                    return
                # A refused stand-up (a tournament's table) keeps no sat-out computer from coming back.
                with contextlib.suppress(UserError, EngineError):
                    left = await sessions.bot.tables.stand_up_dismissed(live)
                    if left:
                        sessions.of(live).record(left)
                for seat in live.view().seats:
                    if is_computer(seat.player) and seat.sitting_out:
                        back = functools.partial(live.come_back, seat.player)
                        events = await sessions.bot.tables.apply(live, back)
                        sessions.of(live).record(events)
        except (UserError, EngineError):
            return
        except STORAGE_FAILURES as err:  # he stays out; the next hand boundary tries again
            log.warning("Table of channel %s: a computer's return was not written: %s", channel, err)
