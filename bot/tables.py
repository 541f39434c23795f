"""The registry of live tables: one engine `Table` and one `asyncio.Lock` per channel or thread.

This is the only place that holds tables. A command that touches a table enters
``async with registry.locked(channel_id) as live:`` and calls the methods below, which keep the
engine and the ledger in step:

- between hands every change (sit, leave, close) is made on the engine first and then written to
  the ledger; if the ledger refuses, the engine is put back from its snapshot, so a refusal changes
  nothing;
- a hand is framed by `Storage.begin_hand` (start-of-hand snapshot) and `Storage.finish_hand`
  (new stacks and the record); whatever ends a hand (the last action, a timeout, a player leaving)
  goes through `apply`, which writes the end of the hand before the lock is released;
- a player leaving during a hand is folded and his remaining stack, now final, goes back to his
  balance at once (`Storage.release_mid_hand`); what he put in the pot stays for the hand's result;
- a hand that cannot finish (the bot stops) is cancelled by `Storage.recover`: stacks go back to
  the snapshot, which is also what the next start-up rebuilds from (without the players who left
  during that hand: the ledger paid them and has no seat for them any more).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import AsyncIterator, Callable, Collection, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.errors import UserError
from bot.fair_deck import FairDeck, deal_fairly, with_fairness
from bot.hand_summary import summarize
from bot.storage import MAX_CHIPS, STORAGE_FAILURES, HandNotRunning, Storage, StorageError, TableRow
from bot.table_settings import BOT_KEY, TableSettings, split_stored_options
from engine.actions import Action
from engine.cards import Card
from engine.errors import EngineError
from engine.events import Event, StackReleased
from engine.italian import grouped
from engine.options import TableOptions, Variant
from engine.table import Table, TableView

__all__ = ["NO_TABLE", "TOO_MANY_CHIPS", "TOURNAMENT_TABLE", "LiveTable", "TableRegistry", "check_cash"]

log = logging.getLogger(__name__)

SHUTDOWN_GRACE_SECONDS = 10.0
"""How long a shutdown waits for the commands running under table locks."""

NO_TABLE = "In questo canale non c'è un tavolo aperto: aprine uno con /tavolo nuovo."
TOO_MANY_CHIPS = (
    f"Al tavolo ci sarebbero troppe fiches: in tutto ne può tenere al massimo {grouped(MAX_CHIPS)}."
)
TABLE_EXISTS = "In questo canale c'è già un tavolo aperto: usa /tavolo stato per vederlo."
SHUTTING_DOWN = "Il bot si sta spegnendo: riprova tra poco."
CLOSE_DURING_HAND = "C'è una mano in corso: il tavolo si potrà chiudere quando finisce."
TOURNAMENT_TABLE = (
    "Questo è il tavolo di un torneo: si gioca con i comandi /torneo e le mani partono da sole."
)


class TournamentHook(Protocol):
    """What a tournament's table tells its tournament (bot/tournaments.py) instead of the cash ledger."""

    async def hand_ended(self, live: LiveTable) -> None:
        """The hand ended (under the table's lock): the tournament's hand boundary."""

    async def remember_message(self, live: LiveTable) -> None:
        """Keep the table message id, so that a restart can edit it."""

    def title(self) -> str:
        """The table message's title: the tournament and its level."""

    def goes_on(self) -> bool:
        """Whether more hands will be dealt (the tournament is being played)."""

    async def between_hands(self, live: LiveTable) -> None:
        """The table changed between hands (an away player back): the tournament stores it."""

    def come_back(self, live: LiveTable, player: int) -> list[Event]:
        """An away player is back (Rientro, /tavolo rientra): the tournament and the table in step."""

    def step_away(self, live: LiveTable, player: int) -> list[Event]:
        """A player withdraws after the start (/torneo ritirati): away from now on, blinded away."""

    async def away_changed(self, live: LiveTable) -> None:
        """A player stepped away or came back during a hand: the tournament stores its away marks
        with the running hand's start, so that a restart deals the hand again with them."""


@dataclass(eq=False)
class LiveTable:
    """One open table: the engine, its ledger id, and who may close it."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    options: TableOptions
    table: Table
    lock: asyncio.Lock
    hand_id: int | None = None
    """The ledger's id of the running hand (None between hands)."""
    released: dict[int, int] = field(default_factory=dict)
    """Chips the engine released during the running hand to players who left (StackReleased)."""
    dealt: frozenset[int] = frozenset()
    """The players seated when the running hand began (the ledger's snapshot of it)."""
    paid: set[int] = field(default_factory=set)
    """Leavers of the running hand whose released stack the ledger already moved to their balance."""
    cancelled_hand: int | None = None
    """After a restart: the number of the hand the restart cancelled (its message must say so)."""
    unsettled: bool = False
    """The hand's end (or a leaver's payout after it) is not in the ledger yet: the database failed."""
    message_id: int | None = None
    """The public table message of the current (or last) hand, as stored in the ledger; only the
    table's session (bot/session.py) changes it."""
    deck_size: int | None = None
    """The deck of the current hand (the hand category in a player's DM depends on it)."""
    settings: TableSettings = field(default_factory=TableSettings)
    """The bot's own settings of this table (bot/table_settings.py)."""
    fair: FairDeck | None = None
    """The committed deck of the running (or last) hand (bot/fair_deck.py): its reveal names every
    card, so it is shown only once the hand has ended; None for a stacked deck or after a restart."""
    tournament: TournamentHook | None = None
    """A tournament's table: its stacks are tournament chips, kept by the tournament, not the ledger's
    seats; a hand ends through `TournamentHook.hand_ended` and cash-table changes are refused."""
    computers: dict[int, str] = field(default_factory=dict)
    """The level of each computer player seated here (negative ids; bot/computers.py)."""
    dismissed: set[int] = field(default_factory=set)
    """Computers dismissed during a hand they play (/tavolo congeda): they stand up when it ends, so
    that dismissing one never folds him in favour of whoever dismissed him."""
    hand_events: list[Event] = field(default_factory=list)
    """The public events of the running hand, for its summary (bot/hand_summary.py) at its end."""

    @property
    def variant(self) -> Variant:
        return self.options.variant

    def view(self) -> TableView:
        return self.table.public_view()

    def seated(self, player_id: int) -> bool:
        """Seated and not on his way out (a player who left during a hand keeps his seat until it ends)."""
        return any(seat.player == player_id and not seat.leaving for seat in self.view().seats)

    def come_back(self, player_id: int) -> list[Event]:
        """A sitting-out player plays again (Rientro, /tavolo rientra, a computer between hands); at a
        tournament's table through the tournament, which keeps its away marks in step."""
        if self.tournament is None:
            return self.table.come_back(player_id)
        return self.tournament.come_back(self, player_id)


RngFactory = Callable[[], random.Random]


class TableRegistry:
    """Every open table of the bot, by channel id, with the lock that serialises its commands."""

    def __init__(self, storage: Storage, *, rng_factory: RngFactory = secrets.SystemRandom) -> None:
        self._storage = storage
        self._rng_factory = rng_factory
        self._tables: dict[int, LiveTable] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._closing = False
        self._decks: dict[int, list[list[Card]]] = {}
        self._shards: dict[str, Any] = {}  # the shards of `restore`, for `Storage.recover` at shutdown

    def queue_deck(self, channel_id: int, cards: Sequence[Card]) -> None:
        """Deal the channel's next hand from ``cards`` (the top of the deck in order) instead of a
        shuffle: the one injection point for explicit decks (tests, demonstrations)."""
        self._decks.setdefault(channel_id, []).append(list(cards))

    def next_deck(self, channel_id: int) -> list[Card] | None:
        """The deck queued for the channel's next hand (`queue_deck`), taken off the queue."""
        queued = self._decks.get(channel_id)
        return queued.pop(0) if queued else None

    def attach(self, live: LiveTable) -> None:
        """Register a tournament's table (the caller holds the channel lock); its chips are no ledger's."""
        _check_locked(live)
        if live.channel_id in self._tables:
            raise UserError(TABLE_EXISTS)
        self._tables[live.channel_id] = live

    def detach(self, live: LiveTable) -> None:
        """Forget a tournament's table once the tournament is over."""
        _check_locked(live)
        if self._tables.get(live.channel_id) is live:
            del self._tables[live.channel_id]

    # Lookup and locking ---------------------------------------------------------------------------

    def get(self, channel_id: int) -> LiveTable | None:
        return self._tables.get(channel_id)

    def __iter__(self) -> Iterator[LiveTable]:
        return iter(list(self._tables.values()))

    def sits_out_running_hand(self, table_id: int, user_id: int) -> bool:
        """Whether the hand running at this table now was dealt without the player (seated but out,
        or a debt he could not pay): the ledger keeps every seat in a hand's snapshot, and only the
        engine knows who was dealt in until the hand ends."""
        for live in self._tables.values():
            if live.id == table_id and live.table.hand_running:
                seats = live.view().seats  # dealt in: still in, or folded since
                return not any(seat.player == user_id and (seat.in_hand or seat.folded) for seat in seats)
        return False

    def __len__(self) -> int:
        return len(self._tables)

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The channel's lock; it outlives the table so that opening and closing are serialised too."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def channel(self, channel_id: int) -> AsyncIterator[LiveTable | None]:
        """Hold the channel's lock; yield its table, or None when the channel has none."""
        async with self.lock(channel_id):
            if self._closing:
                raise UserError(SHUTTING_DOWN)
            yield self._tables.get(channel_id)

    @asynccontextmanager
    async def locked(self, channel_id: int) -> AsyncIterator[LiveTable]:
        """Hold the channel's lock and yield its table; refuse politely when there is none."""
        async with self.channel(channel_id) as live:
            if live is None:
                raise UserError(NO_TABLE)
            yield live

    # Start-up and shutdown ------------------------------------------------------------------------

    async def restore(
        self, *, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> int:
        """Rebuild every open table from the ledger (call after `Storage.recover`); a sharded process
        passes its shards and rebuilds only the tables of their servers (`Storage.open_tables`), and
        its shutdown cancels only their hands."""
        self._shards = {"shard_ids": shard_ids, "shard_count": shard_count}
        for row in await self._storage.open_tables(shard_ids=shard_ids, shard_count=shard_count):
            try:
                live = await self._restore_one(row)
            except (EngineError, StorageError, KeyError, TypeError, ValueError):
                # One damaged table must not keep the bot (and every other table) down; its chips
                # stay in the ledger, untouched, for the host to look at.
                log.exception(
                    "Table %s in channel %s could not be restored; left as it is", row.id, row.channel_id
                )
                continue
            self._tables[row.channel_id] = live
        return len(self._tables)

    async def _restore_one(self, row: TableRow) -> LiveTable:
        engine_options, settings = split_stored_options(row.options)
        options = TableOptions.from_dict(engine_options)
        state = row.state
        if row.last_hand_status == "cancelled" and row.last_hand_number is not None:
            # The stored state is the cancelled hand's start (or, once a seat changed since, a state
            # that counts it already): count that hand as played, once, so that the next one gets the
            # next number, on the table message as in the ledger's history.
            state = {**state, "hand_number": max(int(state["hand_number"]), row.last_hand_number)}
        table = Table.from_dict(state, rng=self._rng_factory())
        live = LiveTable(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            creator_id=row.creator_id,
            options=options,
            table=table,
            lock=self.lock(row.channel_id),
            message_id=row.message_id,
            settings=settings,
        )
        if row.last_hand_status == "cancelled":
            live.cancelled_hand = table.hand_number
        live.computers = await self._storage.computer_levels(row.id)
        # A crash between the end of a hand and a leaver's cash-out leaves a seat in the ledger that
        # the engine no longer has: pay it out now.
        in_engine = {seat.player for seat in table.public_view().seats}
        for user_id in sorted(row.seats.keys() - in_engine):
            paid = await self._storage.cash_out(row.id, user_id, table.to_dict())
            log.warning("Table %s: paid out %s chips to user %s who had left", row.id, paid, user_id)
        # A player who left during a hand that was then cancelled was paid by the ledger (his released
        # stack at once, the rest by `Storage.recover`): the restored state must not seat him again.
        # Nothing is written: the ledger has no seat for him, so this is repeated at every restore
        # until the next hand boundary stores the state without him.
        for user_id in sorted(in_engine - row.seats.keys()):
            table.leave(user_id)
            log.warning("Table %s: user %s left during the cancelled hand; not seated again", row.id, user_id)
        return live

    async def shutdown(self) -> None:
        """Refuse new commands, wait for the running ones, cancel hands in progress in the ledger."""
        self._closing = True
        held: list[asyncio.Lock] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SHUTDOWN_GRACE_SECONDS
        try:
            for channel_id in sorted(self._locks):
                lock = self._locks[channel_id]
                try:
                    await asyncio.wait_for(lock.acquire(), timeout=max(0.01, deadline - loop.time()))
                except TimeoutError:
                    # A command stuck on Discord must not keep the process alive; the ledger's own
                    # checks refuse whatever it tries to write after the hand is cancelled below.
                    log.warning("Shutdown: channel %s is still busy; closing anyway", channel_id)
                    continue
                held.append(lock)
            for live in self._tables.values():
                if live.unsettled:  # a hand the players saw end is written, not cancelled, if it can be
                    with contextlib.suppress(*STORAGE_FAILURES):
                        await self._settle(live)
            running = [live.id for live in self._tables.values() if live.hand_id is not None]
            if running:
                try:
                    cancelled = await self._storage.recover(**self._shards)
                except STORAGE_FAILURES as exc:  # the database is down: the next start cancels them
                    log.warning("Shutdown: hands of table(s) %s left to the next start: %s", running, exc)
                else:
                    log.warning("Shutdown: cancelled the running hand of table(s) %s", cancelled)
            self._tables.clear()
        finally:
            for lock in held:
                lock.release()

    # Table lifecycle (the caller holds the channel lock) -------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        options: TableOptions,
        settings: TableSettings | None = None,
    ) -> LiveTable:
        lock = self.lock(channel_id)
        if not lock.locked():
            raise RuntimeError(f"channel {channel_id}: create() without holding the channel lock")
        if channel_id in self._tables:
            raise UserError(TABLE_EXISTS)
        table = Table(options, rng=self._rng_factory())
        settings = settings if settings is not None else TableSettings()
        stored = {**options.to_dict(), BOT_KEY: settings.to_dict()}
        table_id = await self._storage.create_table(
            guild_id, channel_id, creator_id, str(options.variant), stored, table.to_dict()
        )
        live = LiveTable(table_id, guild_id, channel_id, creator_id, options, table, lock, settings=settings)
        self._tables[channel_id] = live
        return live

    async def sit(
        self, live: LiveTable, player_id: int, amount: int, *, level: str | None = None
    ) -> list[Event]:
        """Buy in from the balance. During a hand the player waits for the next one.

        A computer player (negative id) comes with his `level`; the house account stakes him.
        """
        _check_locked(live)
        self.check_seat(live, player_id)
        await self._settle(live)
        live.dismissed.discard(player_id)  # a computer seated anew under a dismissed one's freed name
        # The ledger holds no stack above MAX_CHIPS: a table whose chips could make one would refuse
        # to write its hand's end after the engine had played it.
        view = live.view()
        if sum(seat.stack for seat in view.seats) + view.pot + view.carried + amount > MAX_CHIPS:
            raise UserError(TOO_MANY_CHIPS)
        events = await self._sit(live, player_id, amount, level)
        if level is not None:
            live.computers.pop(player_id, None)  # in the order they sat: the last one seated last
            live.computers[player_id] = level
        return events

    def check_seat(self, live: LiveTable, player_id: int) -> None:
        """Refuse a seat before anything else is asked (his balance, the buy-in): a cash table with
        a free seat, and he is not at it (nor leaving the hand in progress)."""
        check_cash(live)
        view = live.view()
        if any(seat.player == player_id and seat.leaving for seat in view.seats):
            raise UserError("Hai lasciato la mano in corso: potrai sederti di nuovo quando finisce.")
        if any(seat.player == player_id for seat in view.seats):
            raise UserError("Sei già seduto a questo tavolo.")
        if len(view.seats) >= live.options.max_seats:
            raise UserError(f"Il tavolo è pieno: al massimo {live.options.max_seats} giocatori.")

    async def _sit(self, live: LiveTable, player_id: int, amount: int, level: str | None) -> list[Event]:
        if not live.table.hand_running:
            before = live.table.to_dict()
            events = live.table.sit(player_id, amount)
            try:
                await self._storage.buy_in(live.id, player_id, amount, live.table.to_dict(), level=level)
            except BaseException:
                live.table = Table.from_dict(before, rng=self._rng_factory())
                raise
            return events
        # Mid-hand the engine cannot be snapshotted; check the ledger first, then seat him.
        # The ledger keeps the start-of-hand state, and cancelling the hand refunds a late joiner.
        await self._storage.buy_in(live.id, player_id, amount, None, level=level)
        try:
            return live.table.sit(player_id, amount)
        except BaseException:
            await self._storage.cash_out(live.id, player_id, None)
            raise

    async def leave(self, live: LiveTable, player_id: int) -> tuple[list[Event], int | None]:
        """Stand up. Returns the events and the chips paid back now (None: paid when the hand ends).

        During a hand a dealt-in player is folded at once and his remaining stack, now final, goes
        back to his balance in one ledger transaction (a leaver gets his stack
        back at once, rules §5.5); his chips in the pot stay for the hand's result. Only if that write fails
        is he paid when the hand ends, by `_finish_hand`.
        """
        _check_locked(live)
        check_cash(live)
        await self._settle(live)
        if not live.table.hand_running:
            before = live.table.to_dict()
            events = live.table.leave(player_id)
            try:
                paid = await self._storage.cash_out(live.id, player_id, live.table.to_dict())
            except BaseException:
                live.table = Table.from_dict(before, rng=self._rng_factory())
                raise
            return events, paid
        events = await self.apply(live, lambda: live.table.leave(player_id))
        if live.hand_id is None:
            # His leaving ended the hand, and the end of the hand paid him out.
            return events, _released(events).get(player_id)
        if player_id not in live.dealt:
            # He sat down during the hand and waited: his seat is free and paid now.
            live.released.pop(player_id, None)
            return events, await self._storage.cash_out(live.id, player_id, None)
        amount = live.released.get(player_id, 0)
        try:
            await self._storage.release_mid_hand(live.id, live.hand_id, player_id, amount)
        except StorageError:
            log.exception("Table %s: user %s will be paid when the hand ends", live.id, player_id)
            return events, None
        live.paid.add(player_id)
        return events, amount

    async def close(self, live: LiveTable) -> dict[int, int]:
        """Pay every chip back to the balances and forget the table."""
        _check_locked(live)
        check_cash(live)
        if live.table.hand_running:
            raise UserError(CLOSE_DURING_HAND)
        await self._settle(live)
        before = live.table.to_dict()
        payouts = live.table.close()
        try:
            await self._storage.close_table(live.id, dict(payouts))
        except BaseException:
            live.table = Table.from_dict(before, rng=self._rng_factory())
            raise
        del self._tables[live.channel_id]
        return dict(payouts)

    # Hands -----------------------------------------------------------------------------------------

    async def stand_up_dismissed(self, live: LiveTable) -> list[Event]:
        """Between hands: the computers dismissed during the last one stand up, their stacks to the house."""
        _check_locked(live)
        events: list[Event] = []
        if live.table.hand_running:
            return events
        for player in sorted(live.dismissed):
            if player in live.table.seats():
                events += (await self.leave(live, player))[0]
            live.dismissed.discard(player)
        return events

    async def start_hand(self, live: LiveTable, deck: Sequence[Card] | None = None) -> list[Event]:
        """Begin a hand: the ledger's snapshot first, then the deal. The game cog extends from here."""
        _check_locked(live)
        check_cash(live)
        if live.table.hand_running:
            raise UserError("La mano è già in corso.")
        await self._settle(live)
        queued = self._decks.get(live.channel_id)
        if deck is None and queued:
            deck = queued[0]
        before = live.table.to_dict()
        last_fair = live.fair  # the last hand's message shows its reveal until this hand is dealt
        stacks, pot = _chips(live.table)
        events, live.fair = deal_fairly(live.table.start_hand, deck, lambda events: events)
        if deck is not None and queued and deck is queued[0]:
            queued.pop(0)
        live.dealt = frozenset(stacks)
        live.hand_events = [e for e in events if e.private_to is None]
        live.paid.clear()
        live.cancelled_hand = None
        try:
            live.hand_id = await self._storage.begin_hand(live.id, stacks, pot, before)
        except BaseException:
            live.table = Table.from_dict(before, rng=self._rng_factory())
            live.hand_id = None
            live.fair = last_fair  # no hand was dealt: the last one's message keeps its reveal
            raise
        if not live.table.hand_running:
            live.fair = _ended(live)
            await self._finish_hand(live)
        return events

    async def apply(self, live: LiveTable, step: Callable[[], list[Event]]) -> list[Event]:
        """Run one engine call of a running hand; if it ended the hand, write the end to the ledger.

        Every in-hand change (an action, a timeout, a player leaving) goes through here, so a hand
        never ends in the engine without being written. Between hands (a player back in the game)
        the new state is stored, or the engine is put back as it was.
        """
        _check_locked(live)
        await self._settle(live)
        between_hands = live.tournament is None and live.hand_id is None and not live.table.hand_running
        before = live.table.to_dict() if between_hands else None
        events = step()
        if before is not None and events:
            # Between hands no chip moves (a come-back): the state is stored as it is, or not changed.
            try:
                await self._storage.save_state(live.id, live.table.to_dict())
            except BaseException:
                live.table = Table.from_dict(before, rng=self._rng_factory())
                raise
            return events
        if live.fair is not None:
            live.fair = live.fair.saw(events)  # who got cards, for the verify command
            if not live.table.hand_running:
                live.fair = _ended(live)
        live.hand_events.extend(e for e in events if e.private_to is None)
        live.released.update(_released(events))
        if live.tournament is not None:
            if live.dealt and not live.table.hand_running:
                live.dealt = frozenset()
                await live.tournament.hand_ended(live)
            elif not live.table.hand_running:
                # A come-back (refused when it changes nothing; it may change only the tournament's
                # away marks): stored, so that a restart before the next deal keeps it.
                await live.tournament.between_hands(live)
        elif live.hand_id is not None and not live.table.hand_running:
            await self._finish_hand(live)
        return events

    async def act(self, live: LiveTable, action: Action) -> list[Event]:
        return await self.apply(live, lambda: live.table.act(action))

    async def timeout(self, live: LiveTable) -> list[Event]:
        return await self.apply(live, live.table.timeout)

    async def _finish_hand(self, live: LiveTable) -> None:
        """Write the end of the hand the engine just ended, then pay out who it let go.

        If the database fails on the way (locked past its timeout, down), the table is left
        `unsettled` and the next change at the table (`_settle`) writes what is missing first: the
        players saw the hand end, so it must not wait for a restart, which would cancel it."""
        retrying, live.unsettled = live.unsettled, True
        stacks, pot = _chips(live.table)
        # Players the engine let go during or at the end of the hand (they left, or busted) still
        # have a seat in the ledger: report what the engine released to them, then pay it out.
        row = await self._storage.table(live.id)
        ledger_seats = row.seats
        gone = sorted(ledger_seats.keys() - stacks.keys())
        state = live.table.to_dict()
        if retrying and live.hand_id is not None and row.running_hand_id != live.hand_id:
            if any(ledger_seats.get(p) != s for p, s in stacks.items()):
                raise HandNotRunning("Questa mano non è più in corso: è già finita o è stata annullata.")
            # The first try was committed and only its answer lost: the ledger has this very end.
            live.hand_id = None
            live.hand_events = []
        if live.hand_id is not None:
            for player_id in gone:
                stacks[player_id] = 0 if player_id in live.paid else live.released.get(player_id, 0)
            players = summarize(live.hand_events, live.options)
            record = with_fairness(live.table.hand_record(), live.fair)
            await self._storage.finish_hand(live.id, live.hand_id, stacks, pot, state, record, players)
            live.hand_id = None
            live.hand_events = []
        for player_id in gone:
            await self._storage.cash_out(live.id, player_id, state)
        live.released.clear()
        live.paid.clear()
        live.dealt = frozenset()
        live.unsettled = False

    async def _settle(self, live: LiveTable) -> None:
        """Before any change at a cash table: a hand's end the database missed is written now."""
        if live.unsettled and live.tournament is None and not live.table.hand_running:
            await self._finish_hand(live)


def _ended(live: LiveTable) -> FairDeck | None:
    """The hand's deck once the hand has ended: with the verify command built from its record."""
    return None if live.fair is None else live.fair.ended(live.table.hand_record())


def _released(events: Sequence[Event]) -> dict[int, int]:
    return {e.player: e.amount for e in events if isinstance(e, StackReleased)}


def _chips(table: Table) -> tuple[dict[int, int], int]:
    """Stacks by player and the carried pot, as the ledger counts them between hands."""
    view = table.public_view()
    return {seat.player: seat.stack for seat in view.seats}, view.carried


def check_cash(live: LiveTable) -> None:
    """Refuse what only a cash table has (a tournament's table deals, seats and counts by itself)."""
    if live.tournament is not None:
        raise UserError(TOURNAMENT_TABLE)


def _check_locked(live: LiveTable) -> None:
    if not live.lock.locked():
        raise RuntimeError(f"table {live.id} used without holding its lock")
