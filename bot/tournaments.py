"""Sit-and-go tournaments on Discord: registration, the hands dealt one after another, the prizes.

One tournament per channel or thread, never beside a cash table (the ledger's one-open-table index
holds the tournament's prize pool, bot/storage/tournaments.py). Everything a tournament changes
happens under the channel's lock (`TableRegistry.channel`), the same lock its table's commands take.

Play reuses the table session (bot/session.py): once the tournament starts, its engine `Table`
becomes a `LiveTable` of the registry with `tournament` set, so the table message, the buttons,
the DMs and the turn timer work exactly as at a cash table. The difference is the hand boundary:
instead of the cash ledger's seats, `TableRegistry.apply` calls `hand_ended` here, which reports
the stacks to the engine's `Tournament` (``engine.tournament.close_hand``) and stores the
tournament and its table in one transaction. The players' tournament chips never touch a balance.

- A level change, an elimination and the end are announced in the channel; the next hand is dealt
  by a task after a short pause (`Settings.tournament_pause`), at the current level's stakes.
- The last boundary is stored by `Storage.finish_tournament`: the final state, the status flip and
  every prize in one transaction, so the payout happens once whatever crashes when.
- After a restart the tournament comes back from its last stored state: a hand in progress is
  cancelled (it is played again from the same stacks, at the same level), a time-based level clock
  goes on with the time that was left (``Tournament.resume``).
- Computer players (bot/computers.py) may take seats before the start (`add_computer`): the server's
  house pays their buy-ins and gets their prizes (the storage's `ledger.holder` rule); their levels
  are in the stored state, and the table's `LiveTable.computers` lets `ComputerPlayers` play them
  exactly as at a cash table. A tournament never starts without a person in it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import computers, render, tournament_text
from bot.errors import NETWORK_ERRORS, UserError
from bot.fair_deck import deal_fairly, revealed_lines, with_fairness
from bot.pictures import StandingRow, standings_png
from bot.session import SHOWDOWN_WAIT
from bot.storage import STORAGE_FAILURES, LedgerMismatch, TournamentHand
from bot.storage.tournaments import TournamentRow
from bot.table_settings import TableSettings
from bot.tables import LiveTable
from engine.errors import AlreadySeated, EngineError
from engine.events import Event
from engine.table import Table
from engine.tournament import (
    LevelUp,
    Phase,
    PlayerEliminated,
    Tournament,
    TournamentConfig,
    TournamentEvent,
    TournamentFinished,
    close_hand,
    come_back,
    deal,
    seat_entrants,
    step_away,
)

if TYPE_CHECKING:
    from bot.client import PokerBot
    from bot.session import DM

__all__ = ["TOURNAMENT_HERE", "LiveTournament", "Tournaments"]

log = logging.getLogger(__name__)

NO_TOURNAMENT = "In questo canale non c'è un torneo: creane uno con /torneo nuovo."
TOURNAMENT_EXISTS = "In questo canale c'è già un torneo: usa /torneo stato per vederlo."
TABLE_HERE = "In questo canale c'è un tavolo aperto: il torneo va creato in un altro canale o thread."
TOURNAMENT_HERE = "In questo canale c'è un torneo: il tavolo va aperto in un altro canale o thread."
NOT_CREATOR = "Solo chi ha creato il torneo può farlo iniziare."
CANCEL_REFUSED = "Solo chi ha creato il torneo o chi ha il permesso «Gestisci server» può annullarlo."
CANCEL_STARTED = "Il torneo è già iniziato: non si può più annullare."
COMPUTER_REGISTERED_ONLY = "Solo chi è iscritto al torneo può iscrivere un giocatore del computer."
NOT_PLAYING = "Non sei in gioco in questo torneo."
ALREADY_AWAY = "Sei già assente dal torneo: con «Rientro» o /tavolo rientra torni a giocare."
NO_HUMAN = "Un torneo di soli giocatori del computer non può iniziare: serve almeno una persona iscritta."
PAYOUT_RETRY = 5.0
"""Seconds between attempts to store the last boundary of a tournament (the payout) after a failure."""


@dataclass(eq=False)
class LiveTournament:
    """One tournament of a channel, from its announcement to its standings."""

    owner: Tournaments
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    pool_table_id: int
    tournament: Tournament
    names: dict[int, str] = field(default_factory=dict)
    computers: dict[int, str] = field(default_factory=dict)
    """The level of each computer player entered (negative ids; bot/computers.py)."""
    live: LiveTable | None = None
    rng: random.Random = field(default_factory=secrets.SystemRandom)
    untold: list[str] = field(default_factory=list)
    """Lines of hands over at their deal whose boundary write failed: posted once a write goes
    through, never before (a restart in between deals such a hand again, under its number)."""
    unsaved_hands: list[TournamentHand] = field(default_factory=list)
    """Finished hands whose boundary write failed: sent again with the next write, so that a hand
    that was played is never shown as cancelled by /mano."""

    def state(self, running: bool = False) -> dict[str, Any]:
        """What is stored: the tournament and its table at the last boundary, and the names for the
        standings picture; ``running`` notes that a hand was dealt from this state (a restart then
        cancels it)."""
        return {
            "tournament": dict(self.tournament.to_dict()),
            "table": None if self.live is None else self.live.table.to_dict(),
            "names": {str(k): v for k, v in self.names.items()},
            "computers": {str(k): v for k, v in self.computers.items()},
            "running": running,
        }

    # The table's hook (bot/tables.py TournamentHook) ------------------------------------------------

    async def hand_ended(self, live: LiveTable) -> None:
        await self.owner.hand_ended(self, live)

    async def remember_message(self, live: LiveTable) -> None:
        await self.owner.bot.storage.set_tournament_message(self.id, live.message_id)

    def title(self) -> str:
        return tournament_text.table_title(self.tournament)

    def goes_on(self) -> bool:
        return self.tournament.phase is Phase.IN_CORSO

    async def between_hands(self, live: LiveTable) -> None:
        if self.tournament.phase is Phase.IN_CORSO:  # once over, its last write is the payout's
            await self.owner._save(self, self.state(), None)

    def come_back(self, live: LiveTable, player: int) -> list[Event]:
        # The engine keeps the away mark and the seat in step: a hand over at the deal leaves an
        # away player's seat playing, so the seat alone cannot tell who came back.
        away = player in self.tournament.away
        events = come_back(live.table, self.tournament, player)
        if not events and not away:
            raise AlreadySeated("Sei già in gioco.")
        return events

    async def away_changed(self, live: LiveTable) -> None:
        if live.table.hand_running and self.tournament.phase is Phase.IN_CORSO:
            await self.owner._save(self, self.state(running=True), None)

    def step_away(self, live: LiveTable, player: int) -> list[Event]:
        if player not in self.tournament.alive():
            raise UserError(NOT_PLAYING)
        if player in self.tournament.away:
            raise AlreadySeated(ALREADY_AWAY)
        return step_away(live.table, self.tournament, player)


class Tournaments:
    """Every tournament of the bot, by channel (see the module docstring)."""

    table_settings = TableSettings()
    """The bot-level settings of every tournament table (a computer player's pause, for one)."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.pause = bot.settings.tournament_pause
        self._by_channel: dict[int, LiveTournament] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False

    def get(self, channel_id: int) -> LiveTournament | None:
        return self._by_channel.get(channel_id)

    def require(self, channel_id: int) -> LiveTournament:
        run = self._by_channel.get(channel_id)
        if run is None:
            raise UserError(NO_TOURNAMENT)
        return run

    # Registration ---------------------------------------------------------------------------------

    async def create(
        self, guild_id: int, channel_id: int, creator: int, config: TournamentConfig
    ) -> LiveTournament:
        """Announce a tournament (the caller holds the channel lock)."""
        if channel_id in self._by_channel:
            raise UserError(TOURNAMENT_EXISTS)
        if self.bot.tables.get(channel_id) is not None:
            raise UserError(TABLE_HERE)
        run = LiveTournament(self, 0, guild_id, channel_id, creator, 0, Tournament(config))
        row = await self.bot.storage.create_tournament(
            guild_id, channel_id, creator, str(config.options.variant), dict(config.to_dict()), run.state()
        )
        run.id, run.pool_table_id = row.id, row.pool_table_id  # numbered by the database
        self._by_channel[channel_id] = run
        return run

    async def register(self, run: LiveTournament, player: int, name: str) -> bool:
        """Pay the buy-in and enter; True when the tournament is now full (it then starts)."""
        t = run.tournament
        t.register(player)  # EngineError: closed, already in, full
        run.names[player] = name
        try:
            await self.bot.storage.register_tournament(run.id, player, t.config.buy_in, run.state())
        except BaseException:
            t.unregister(player)
            run.names.pop(player, None)
            raise
        return len(t.players) >= t.config.max_players

    async def add_computer(self, run: LiveTournament, by: int, level: str) -> tuple[int, bool]:
        """Enter a computer player (the house pays): his id, and True when the tournament is now full."""
        t = run.tournament
        if t.phase is Phase.ISCRIZIONI and len(t.players) < t.config.max_players and by not in t.players:
            raise UserError(COMPUTER_REGISTERED_ONLY)  # closed or full: `register` says so
        slots = (computers.computer_id(slot) for slot in range(len(computers.NAMES)))
        player = next((p for p in slots if p not in run.tournament.players), None)
        if player is None:  # pragma: no cover - ten names, at most ten entrants
            raise UserError("Non c'è più un nome libero per un giocatore del computer.")
        run.computers[player] = level
        try:
            full = await self.register(run, player, computers.name_of(player))
        except BaseException:
            del run.computers[player]
            raise
        return player, full

    async def unregister(self, run: LiveTournament, player: int) -> None:
        t = run.tournament
        before = list(t.players)
        t.unregister(player)
        try:
            await self.bot.storage.unregister_tournament(run.id, player, t.config.buy_in, run.state())
        except BaseException:
            t.players = before  # back as he was, in his place of the registration order
            raise

    async def cancel(self, run: LiveTournament) -> list[int]:
        """Call off a tournament before its first hand: every buy-in back. Returns who was refunded."""
        t = run.tournament
        if t.hands_played or (run.live is not None and run.live.table.hand_running):
            raise UserError(CANCEL_STARTED)
        t.resume(time.monotonic())  # a running level clock measured up to now: the state below is exact
        before = t.to_dict()
        t.cancel()
        refunds = dict.fromkeys(t.players, t.config.buy_in)
        try:
            await self.bot.storage.cancel_tournament(run.id, refunds, run.state())
        except BaseException:
            run.tournament = Tournament.from_dict(before)  # stored states restore with the clock paused:
            run.tournament.resume(time.monotonic())  # it runs on from the time left a moment ago
            raise
        if run.live is not None:
            self._let_go(run.live)
        self._drop(run)
        return list(t.players)

    async def start(self, run: LiveTournament) -> None:
        """Close the registrations, draw the seats, deal the first hand (the caller holds the lock)."""
        t = run.tournament
        if t.players and all(computers.is_computer(p) for p in t.players):
            raise UserError(NO_HUMAN)
        before = t.to_dict()
        # Refused before any change (already started, fewer than 2 entrants, a payout needing more):
        # a second /torneo inizia must not touch the running tournament. The level clock runs on the
        # monotonic clock: only the time left is stored, and a wall clock stepped back (NTP) would
        # stop the tournament at its next boundary.
        t.start(time.monotonic())
        try:  # anything failing before the start is stored leaves the registrations as they were
            order = list(t.players)
            run.rng.shuffle(order)
            live = self._table_for(run, seat_entrants(t, order, rng=run.rng))
            await self.bot.storage.start_tournament(run.id, run.state())
        except BaseException:
            run.tournament, run.live = Tournament.from_dict(before), None
            raise
        self.bot.tables.attach(live)
        self._next_hand(run, 0.0)

    def _table_for(self, run: LiveTournament, table: Table, message_id: int | None = None) -> LiveTable:
        """The tournament's table in the registry's form, linked to the run both ways (not attached)."""
        live = LiveTable(
            id=run.pool_table_id,
            guild_id=run.guild_id,
            channel_id=run.channel_id,
            creator_id=run.creator_id,
            options=table.options,
            table=table,
            lock=self.bot.tables.lock(run.channel_id),
            message_id=message_id,
            settings=self.table_settings,
            computers=dict(run.computers),
        )
        live.tournament = run
        run.live = live
        return live

    # Hands ----------------------------------------------------------------------------------------

    def _spawn(self, run: LiveTournament, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro, name=f"torneo-{run.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _next_hand(self, run: LiveTournament, delay: float) -> None:
        if not self._closing:
            self._spawn(run, self._deal_later(run, delay))

    async def _deal_later(self, run: LiveTournament, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if run.live is not None and run.live.cancelled_hand is not None:
            # After a restart: the cancelled hand's message says so before the next hand is dealt.
            await self.bot.sessions.of(run.live).flush(5.0)
        dms: list[DM] = []
        try:
            async with self.bot.tables.channel(run.channel_id) as live:
                if live is None or live is not run.live or run.tournament.phase is not Phase.IN_CORSO:
                    return
                if live.table.hand_running:
                    return
                dms = await self._deal(run, live)
        except UserError:
            return  # the bot is shutting down: the restart deals from the stored state
        await self.bot.sessions.deliver(run.channel_id, dms)

    async def _deal(self, run: LiveTournament, live: LiveTable) -> list[DM]:
        t = run.tournament
        await self.bot.sessions.of(live).seal_drawn()  # the last hand's message ends on its result
        try:
            deck = self.bot.tables.next_deck(run.channel_id)
            (table, events), fair = deal_fairly(
                functools.partial(deal, live.table, t, run.rng), deck, lambda dealt: dealt[1]
            )
        except EngineError as exc:  # pragma: no cover - the engine deals whenever two players have chips
            log.warning("Tournament %s: the next hand cannot be dealt: %s", run.id, exc)
            return []
        live.table, live.options = table, table.options
        live.fair = fair if fair is None or table.hand_running else fair.ended(table.hand_record())
        live.dealt = frozenset(table.seats())
        live.cancelled_hand = None
        live.hand_events = [e for e in events if e.private_to is None]
        session = self.bot.sessions.of(live)
        session.repost()
        dms = session.record(events)  # the turn timer now; the renderer posts the new hand's message
        if table.hand_running:
            await self._save(run, run.state(running=True), TournamentHand(table.hand_number))
        else:  # over at once (everyone all-in from the forced bets, or the away players' turns played)
            live.dealt = frozenset()
            # No turn, so no table message: the channel reads the result here, once it is stored (a
            # restart between the two would deal the hand again, under the same number).
            session.told_in_a_line()
            over = tournament_text.over_at_the_deal(events)
            lines = [f"Mano n. {table.hand_number}: {over}.", *session.results]
            if live.fair is not None:  # no table message showed its impronta: the line publishes both
                lines += ["Mazzo verificabile:", *revealed_lines(live.fair, live.options)]
            await self.hand_ended(run, live, told=render.packed(lines, render.MESSAGE_LIMIT))
        return dms

    async def hand_ended(self, run: LiveTournament, live: LiveTable, told: Sequence[str] = ()) -> None:
        """The hand boundary (under the lock): the stacks to the tournament, the state stored; then
        ``told`` (a hand over at its deal, told in a line) is posted, before what follows it."""
        t = run.tournament
        hand = TournamentHand(live.table.hand_number, with_fairness(live.table.hand_record(), live.fair))
        events = close_hand(live.table, t, now=time.monotonic())
        finished = next((e for e in events if isinstance(e, TournamentFinished)), None)
        if finished is None:
            run.untold.extend(told)  # posted by the write that stores it (`_save`)
            await self._save(run, run.state(), hand)
            self._spawn(run, self._after_hand(run, events))
            return
        self.bot.sessions.timers.cancel(run.channel_id)
        self._spawn(run, self._finish(run, events, hand, told))

    async def _save(self, run: LiveTournament, state: dict[str, Any], hand: TournamentHand | None) -> None:
        """The state at a deal or a boundary, with its hand's note (and the notes a failed write left);
        between hands (``hand`` None) the state alone."""
        hands = [*run.unsaved_hands, *([] if hand is None else [hand])]
        try:
            await self.bot.storage.save_tournament(run.id, state, hands)
        except STORAGE_FAILURES as exc:
            what = "its state between hands" if hand is None else f"hand {hand.number}"
            log.warning("Tournament %s: %s was not stored: %s", run.id, what, exc)
            run.unsaved_hands = [h for h in hands if h.record is not None]
            return
        run.unsaved_hands = []
        await self._tell(run)

    async def _tell(self, run: LiveTournament) -> None:
        """Post the lines of hands over at their deal, now that their boundary is stored."""
        while run.untold:
            await self._send(run, content=run.untold.pop(0))

    async def _after_hand(self, run: LiveTournament, events: list[TournamentEvent]) -> None:
        await self._announce(run, events)
        self._next_hand(run, self.pause)

    async def _announce(self, run: LiveTournament, events: list[TournamentEvent]) -> None:
        variant = run.tournament.config.options.variant
        # The players out first, the last place first; then the new stakes.
        out = sorted((e for e in events if isinstance(e, PlayerEliminated)), key=lambda e: -e.place)
        lines = [tournament_text.elimination_text(e) for e in out]
        lines += [tournament_text.level_text(e, variant) for e in events if isinstance(e, LevelUp)]
        for part in render.packed(lines, render.MESSAGE_LIMIT):  # nine out at once name each other: long
            await self._send(run, content=part)

    async def _send(self, run: LiveTournament, **message: Any) -> None:
        channel = self.bot.get_partial_messageable(run.channel_id)
        try:
            await channel.send(**message)
        except (discord.HTTPException, *NETWORK_ERRORS) as exc:
            log.warning("Tournament %s: a message to its channel failed: %r", run.id, exc)

    async def _finish(
        self,
        run: LiveTournament,
        events: list[TournamentEvent],
        hand: TournamentHand,
        told: Sequence[str] = (),
    ) -> None:
        """Store the last boundary and hand with every prize (retried until the database takes it, unless the
        prizes do not match the pool), then post the last hand's line (``told``), the standings, and let
        the channel go."""
        t = run.tournament
        finishes = t.finishes()
        prizes = {p: prize for p, (_, prize) in finishes.items()}
        places = {p: place for p, (place, _) in finishes.items()}
        while True:
            try:
                async with self.bot.tables.channel(run.channel_id):
                    await self.bot.storage.finish_tournament(
                        run.id, prizes, run.state(), [*run.unsaved_hands, hand], places
                    )
                    if run.live is not None:
                        session = self.bot.sessions.of(run.live)
                        await session.picture.drawn(SHOWDOWN_WAIT)  # its showdown picture, if any
                        await session.flush(2.0)  # the last hand's result shown
                        self._let_go(run.live)
                break
            except UserError:
                return  # shutting down: the restart replays the last hand and pays then
            except LedgerMismatch as exc:  # the same every time: a bug for the operator, not a retry
                log.error("Tournament %s: the prizes do not match its pool, nothing paid: %s", run.id, exc)
                return
            except STORAGE_FAILURES as exc:  # a refusal or a driver error: finishing twice pays once
                log.warning("Tournament %s: the prizes were not stored yet: %s", run.id, exc)
                await asyncio.sleep(PAYOUT_RETRY)
        run.untold.extend(told)
        await self._tell(run)  # stored with the prizes
        await self._announce(run, [e for e in events if not isinstance(e, LevelUp)])
        await self._standings(run)

    async def _standings(self, run: LiveTournament) -> None:
        t = run.tournament
        rows = [
            StandingRow(place, name, prize)
            for place, name, prize in tournament_text.picture_rows(t, run.names)
        ]
        title = f"Torneo di {render.variant_name(t.config.options.variant)}"
        try:
            png = await asyncio.to_thread(standings_png, rows, title=title)
        except Exception:  # a picture is a nicety: the standings go out as text anyway
            log.exception("Tournament %s: the standings picture failed", run.id)
            await self._send(run, content=tournament_text.winners_text(t))
        else:
            picture = discord.File(io.BytesIO(png), filename="classifica.png")
            await self._send(run, content=tournament_text.winners_text(t), file=picture)
        try:
            await self.bot.storage.tournament_announced(run.id)
        except STORAGE_FAILURES as exc:
            log.warning("Tournament %s: could not note the standings as posted: %s", run.id, exc)
        self._drop(run)

    def _let_go(self, live: LiveTable) -> None:
        """The tournament's table leaves the registry; its last message loses its buttons."""
        session = self.bot.sessions.of(live)
        session.seal()  # its last message ends on the last hand's result, whatever its last edit did
        self.bot.tables.detach(live)
        session.retire(live.message_id)
        self.bot.sessions.forget(session)

    def _drop(self, run: LiveTournament) -> None:
        if self._by_channel.get(run.channel_id) is run:
            del self._by_channel[run.channel_id]

    # Start-up and shutdown ------------------------------------------------------------------------

    async def restore(self) -> None:
        """Every stored tournament back: registrations as they were, a running one from its last
        boundary (a hand in progress cancelled), a finished one's standings posted if they were not."""
        for row in await self.bot.storage.live_tournaments(**self.bot.shard_selection()):
            try:
                await self._restore_one(row)
            except (EngineError, KeyError, TypeError, ValueError):
                log.exception("Tournament %s could not be restored; left as it is", row.id)

    async def _restore_one(self, row: TournamentRow) -> None:
        t = Tournament.from_dict(row.state["tournament"])
        run = LiveTournament(self, row.id, row.guild_id, row.channel_id, row.creator_id, row.pool_table_id, t)
        run.names = {int(k): str(v) for k, v in row.state.get("names", {}).items()}
        run.computers = {int(k): str(v) for k, v in row.state.get("computers", {}).items()}
        if row.status == "finito":
            self._spawn(run, self._standings(run))
            return
        if row.status != "in_corso":
            self._by_channel[row.channel_id] = run
            return
        state = dict(row.state["table"])
        running = bool(row.state.get("running"))
        if running:
            # The stored table is the interrupted hand's start: count that hand as played, so that
            # the next one gets the next number and no component of its message matches it.
            state["hand_number"] = int(state["hand_number"]) + 1
        live = self._table_for(run, Table.from_dict(state, rng=run.rng), row.message_id)
        t.resume(time.monotonic())
        self._by_channel[row.channel_id] = run  # only now: a state that cannot be rebuilt leaves nothing
        async with live.lock:
            self.bot.tables.attach(live)
        if running and row.message_id is not None:
            live.cancelled_hand = live.table.hand_number
            session = self.bot.sessions.of(live)
            session.log = [render.CANCELLED_BY_RESTART]
            session.changed()
        self._next_hand(run, self.pause)

    async def close(self) -> None:
        """Stop dealing (the hands in progress are cancelled by the restart, as at a cash table)."""
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
