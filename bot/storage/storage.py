"""`Storage`: the one object the bot uses to read and move chips.

It sits on a backend: SQLite (one file, the default; `bot.storage.sqlite`) or PostgreSQL (a shared
server; `bot.storage.postgres`), chosen by what `Storage.open` is given. Every public method runs as
one transaction of that backend, committed at the end and rolled back on any error, so a refusal
leaves the database exactly as it was and concurrent tasks never interleave inside a transaction.
The chip logic itself (`ledger.py`, `tables.py`) is written once for both.

Each method hands its work to `Backend.run` as one body (a `partial` of the chip logic, its arguments
taken in the caller), which lets SQLite run the whole transaction in one hop to its thread; the
reads of one statement (a table and its seats, a setting, the leaderboard...) run on PostgreSQL
without BEGIN and COMMIT (`Backend.read_once`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import sqlite3
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from bot.storage import ledger, player_settings, shown_calls, stale_messages, stats, tables, tournaments
from bot.storage.errors import (
    NOT_OWNED,
    BonusDisabled,
    DatabaseUnreachable,
    HandNotRunning,
    InvalidAmount,
    LedgerMismatch,
    StorageError,
    TableNotFound,
    TableNotOwned,
)
from bot.storage.models import (
    Account,
    HandPlayer,
    LeaderRow,
    PlayerHistory,
    StoredHand,
    TableRow,
    TableSessionSummary,
    TournamentHand,
    TournamentStats,
    VariantStats,
)
from bot.storage.postgres import PostgresBackend
from bot.storage.sql import Backend, Body, Conn
from bot.storage.sqlite import SqliteBackend

__all__ = [
    "DATABASE_ERRORS",
    "DATABASE_FAILURES",
    "MAX_CHIPS",
    "POSTGRES_SCHEMES",
    "STORAGE_FAILURES",
    "Storage",
    "is_postgres_url",
]

log = logging.getLogger(__name__)


POSTGRES_SCHEMES = ("postgresql://", "postgres://")
# What opening a database may raise when the file or the server cannot be used (not a bug).
DATABASE_ERRORS: tuple[type[Exception], ...] = (
    OSError,
    sqlite3.Error,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
)
DATABASE_FAILURES: tuple[type[Exception], ...] = (
    sqlite3.OperationalError,  # locked, disk I/O, cannot open
    asyncpg.PostgresConnectionError,  # the connection is gone or was refused
    asyncpg.exceptions.OperatorInterventionError,  # the server shuts down or cancelled the query
    asyncpg.exceptions.InsufficientResourcesError,  # disk full, out of memory, too many connections
    asyncpg.InterfaceError,  # the pool or the connection closed under the query
    DatabaseUnreachable,  # no new connection: the server is down or restarting (bot/storage/postgres.py)
)
"""What the drivers raise at run time when the database fails rather than the bot: a refusal of the
ledger is a `StorageError`, and a broken constraint (a bug) is none of these."""
STORAGE_FAILURES: tuple[type[Exception], ...] = (StorageError, *DATABASE_FAILURES)
"""A write that did not happen, refused by the ledger or failed by the database: what a background
write that may be retried later (a note, a message id) catches, logs and lives with."""


def is_postgres_url(target: Path | str) -> bool:
    """True for a PostgreSQL URL (``postgresql://...``); anything else is a SQLite file path."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


T = TypeVar("T")

# Far below SQLite's 64-bit limit, far above any game night: a typo cannot overflow a sum.
MAX_CHIPS = 10**12


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _dump(value: Mapping[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _hand_notes(hands: Sequence[TournamentHand]) -> list[tournaments.HandNote]:
    return [tournaments.HandNote(h.number, None if h.record is None else _dump(h.record)) for h in hands]


def _amount(amount: object) -> int:
    """A chip amount typed by a player: a positive whole number."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise InvalidAmount("L'importo deve essere un numero intero di fiches maggiore di zero.")
    if amount > MAX_CHIPS:
        raise InvalidAmount(f"L'importo è troppo grande: al massimo {MAX_CHIPS} fiches.")
    return amount


def _stacks(stacks: dict[int, int], pot: int) -> None:
    """Stacks and pots reported by the engine: whole numbers, never negative."""
    for value in (*stacks.values(), pot):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
            raise LedgerMismatch("Le fiches del tavolo devono essere numeri interi non negativi.")


async def proof(conn: Conn, guild_id: int | None = None) -> list[str]:
    """What `Storage.check` finds, on the connection given (so in its snapshot): the ledger's proof
    and the tournaments' pools; `migrate_to_postgres` runs it on both sides of a copy."""
    return await ledger.check(conn, guild_id) + await tournaments.check(conn, guild_id)


class Storage:
    """The ledger and the tables of every server. Open with `await Storage.open(path_or_url, ...)`."""

    def __init__(
        self,
        backend: Backend,
        *,
        starting_chips: int,
        daily_bonus: int,
        clock: Callable[[], datetime],
    ) -> None:
        self._backend = backend
        self.starting_chips = starting_chips
        self.daily_bonus = daily_bonus
        self._clock = clock
        self.schema_version = backend.schema_version
        self.owner_token = secrets.token_hex(8)
        """This process's token, written on the tables it claims (`claim_tables`)."""
        self._owner: str | None = None  # the token once a shard is claimed; None: tables have no owner

    @classmethod
    async def open(
        cls,
        target: Path | str,
        *,
        starting_chips: int = 1000,
        daily_bonus: int = 200,
        clock: Callable[[], datetime] = _utcnow,
        hold: bool = False,
    ) -> Storage:
        """Open the database and apply pending migrations.

        `target` is a ``postgresql://`` URL (an asyncpg pool on that server) or the path of a SQLite
        file (created with its folder if missing, in WAL mode). ``hold``: a SQLite file is held for
        this process before any migration (`hold_database`, `ShardBusy` if a bot runs on it);
        nothing on PostgreSQL, where processes share the database by shards.
        """
        if isinstance(starting_chips, bool) or not 0 < starting_chips <= MAX_CHIPS:
            raise ValueError(f"starting_chips must be a positive integer, not {starting_chips!r}")
        if isinstance(daily_bonus, bool) or not 0 <= daily_bonus <= MAX_CHIPS:
            raise ValueError(f"daily_bonus must be a non-negative integer, not {daily_bonus!r}")
        backend: Backend
        if is_postgres_url(target):
            backend = await PostgresBackend.open(str(target))
        else:
            backend = await SqliteBackend.open(target, hold=hold)
        return cls(backend, starting_chips=starting_chips, daily_bonus=daily_bonus, clock=clock)

    @property
    def dialect(self) -> str:
        """'sqlite' or 'postgresql'."""
        return self._backend.dialect

    async def close(self) -> None:
        await self._backend.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _now(self) -> int:
        return ledger.to_time(self._clock())

    async def _run(self, body: Body[T], *, write: bool = True) -> T:
        """`body` as one transaction: on SQLite in one hop to the database's thread (`Backend.run`).
        Its arguments are taken before (a `partial`): the body runs on that thread."""
        return await self._backend.run(body, write=write)

    # Accounts -------------------------------------------------------------------------------------

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The player's balance; his account is opened with the starting chips on first use."""
        starting, now = self.starting_chips, self._now()

        async def body(conn: Conn) -> int | None:
            await ledger.ensure_account(conn, guild_id, user_id, starting_chips=starting, now=now)
            return await ledger.balance_of(conn, guild_id, user_id)

        have = await self._run(body)
        assert have is not None
        return have

    async def claim_bonus(self, guild_id: int, user_id: int, now: datetime | None = None) -> int:
        """Credit the daily bonus (once per 24 hours); return the new balance."""
        if self.daily_bonus == 0:
            raise BonusDisabled("Il bonus giornaliero non è attivo su questo server.")
        at = self._clock() if now is None else now
        starting, bonus = self.starting_chips, self.daily_bonus

        async def body(conn: Conn) -> int:
            await ledger.ensure_account(
                conn, guild_id, user_id, starting_chips=starting, now=ledger.to_time(at)
            )
            return await ledger.claim_bonus(conn, guild_id, user_id, amount=bonus, now=at)

        return await self._run(body)

    async def grant(self, guild_id: int, user_id: int, amount: int, by_user_id: int) -> int:
        """An admin gives new chips to a player; return his new balance. Permission is the cog's job."""
        amount = _amount(amount)
        starting, now = self.starting_chips, self._now()

        async def body(conn: Conn) -> int | None:
            await ledger.ensure_account(conn, guild_id, user_id, starting_chips=starting, now=now)
            await ledger.credit(conn, guild_id, user_id, amount)
            await ledger.record(
                conn,
                guild_id=guild_id,
                reason="grant",
                entries=[ledger.Entry("balance", amount, user_id=user_id)],
                by_user_id=by_user_id,
                now=now,
            )
            return await ledger.balance_of(conn, guild_id, user_id)

        have = await self._run(body)
        assert have is not None
        return have

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[LeaderRow]:
        """The top players of a server by balance plus chips in front of them at open tables."""
        return await self._backend.read_once(
            lambda conn: ledger.leaderboard(conn, guild_id, max(1, min(limit, 100)))
        )

    async def history(
        self, guild_id: int, user_id: int, limit: int = 10, *, account: Account | None = None
    ) -> PlayerHistory:
        """The player's last ledger entries and last hands, newest first.

        Entries cover both his balance and his seats (each says which in `account`); pass
        ``account="balance"`` for the movements of the balance alone (bonus, grants, buy-ins, cash-outs).
        """
        return await self._run(
            lambda conn: ledger.history(conn, guild_id, user_id, max(1, min(limit, 100)), account=account),
            write=False,
        )

    # Player settings ------------------------------------------------------------------------------

    async def turn_calls(self, guild_id: int, user_id: int) -> bool:
        """Whether the player is called by a mention when it is his turn (on unless he said /avvisi)."""
        return await self._backend.read_once(lambda conn: player_settings.turn_calls(conn, guild_id, user_id))

    async def set_turn_calls(self, guild_id: int, user_id: int, enabled: bool) -> None:
        """The player's own choice for his turn calls in this server (bot/turn_calls.py)."""
        await self._run(lambda conn: player_settings.set_turn_calls(conn, guild_id, user_id, bool(enabled)))

    async def note_turn_call(self, channel_id: int, guild_id: int, message_id: int) -> None:
        """The turn call now shown in the channel (bot/turn_calls.py): a restart after a crash
        deletes it."""
        await self._run(
            partial(shown_calls.note, channel_id=channel_id, guild_id=guild_id, message_id=message_id)
        )

    async def forget_turn_call(self, channel_id: int, message_id: int) -> None:
        """That call is deleted from the channel."""
        await self._run(partial(shown_calls.forget, channel_id=channel_id, message_id=message_id))

    async def turn_calls_left(
        self, *, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> list[tuple[int, int]]:
        """(channel id, message id) of the calls a previous run left shown, for start-up; with
        `shard_ids` and `shard_count`, only those of guilds on these shards (as `open_tables`)."""
        shards = _shards(shard_ids, shard_count)
        return await self._run(lambda conn: shown_calls.left(conn, shards), write=False)

    async def note_stale_message(
        self, channel_id: int, guild_id: int, message_id: int, hand_number: int | None
    ) -> None:
        """An older table message Discord failed to end (bot/session.py): a restart still ends it."""
        await self._run(
            partial(
                stale_messages.note,
                channel_id=channel_id,
                guild_id=guild_id,
                message_id=message_id,
                hand_number=hand_number,
            )
        )

    async def forget_stale_message(self, channel_id: int, message_id: int) -> None:
        """That message is ended (or gone)."""
        await self._run(partial(stale_messages.forget, channel_id=channel_id, message_id=message_id))

    async def stale_messages_left(
        self, *, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> list[tuple[int, int, int | None]]:
        """(channel id, message id, hand number) of the table messages a previous run could not end,
        for start-up; with `shard_ids` and `shard_count`, only those of guilds on these shards."""
        shards = _shards(shard_ids, shard_count)
        return await self._run(lambda conn: stale_messages.left(conn, shards), write=False)

    # Tables ---------------------------------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        variant: str,
        options: dict[str, Any],
        state: Mapping[str, Any],
    ) -> int:
        """Open a table in a channel (one open table per channel); return its id."""
        options_json, state_json = _dump(options), _dump(state)
        owner = await self._new_owner()
        return await self._run(
            partial(
                tables.create_table,
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=creator_id,
                variant=variant,
                options_json=options_json,
                state_json=state_json,
                owner=owner,
                now=self._now(),
            )
        )

    async def buy_in(
        self,
        table_id: int,
        user_id: int,
        amount: int,
        state: Mapping[str, Any] | None = None,
        *,
        level: str | None = None,
    ) -> None:
        """Move `amount` from the balance to a new seat, saving the table's new state in the same transaction.

        `state` is None during a hand (the engine serialises only between hands): the stored state
        then stays the one of the last hand boundary. A computer player (negative `user_id`) comes
        with his `level` and is staked by the server's house account (`ledger.fund_house`).
        """
        amount = _amount(amount)
        state_json = None if state is None else _dump(state)
        await self._run(
            partial(
                tables.buy_in,
                table_id=table_id,
                user_id=user_id,
                amount=amount,
                state_json=state_json,
                starting_chips=self.starting_chips,
                token=self._owner,
                now=self._now(),
                level=level,
            )
        )

    async def computer_levels(self, table_id: int) -> dict[int, str]:
        """The computer players seated at a table and their levels, for a restart."""
        return await self._backend.read_once(lambda conn: tables.computer_levels(conn, table_id))

    async def house_balance(self, guild_id: int) -> int:
        """The chips in the server's house account (those not at a table with a computer player)."""
        return await self._backend.read_once(lambda conn: tables.house_balance(conn, guild_id))

    async def cash_out(self, table_id: int, user_id: int, state: Mapping[str, Any] | None = None) -> int:
        """Move the player's whole seat back to his balance; return the chips moved."""
        state_json = None if state is None else _dump(state)
        return await self._run(
            partial(
                tables.cash_out,
                table_id=table_id,
                user_id=user_id,
                state_json=state_json,
                token=self._owner,
                now=self._now(),
            )
        )

    async def begin_hand(
        self, table_id: int, stacks: dict[int, int], pot: int, state: Mapping[str, Any]
    ) -> int:
        """Write the start-of-hand snapshot (call before dealing); return the hand id.

        `stacks` and `pot` must equal what the ledger holds for the table: a disagreement is a bug
        that would create or lose chips, so the hand is refused.
        """
        _stacks(stacks, pot)
        state_json = _dump(state)
        return await self._run(
            partial(
                tables.begin_hand,
                table_id=table_id,
                stacks=stacks,
                pot=pot,
                state_json=state_json,
                token=self._owner,
                now=self._now(),
            )
        )

    async def finish_hand(
        self,
        table_id: int,
        hand_id: int,
        stacks: dict[int, int],
        pot: int,
        state: Mapping[str, Any],
        record: Mapping[str, Any],
        players: Sequence[HandPlayer] = (),
    ) -> None:
        """Write the new stacks, pot, state and the engine's hand record in one transaction.

        ``players`` are the hand's per-player summaries (bot/hand_summary.py), written in the same
        transaction for the statistics; a player not dealt into the hand is refused.

        `stacks` holds every seated player, including one who left during the hand: 0 when his stack
        was already given back by `release_mid_hand`, otherwise the stack the engine released to him,
        so that `cash_out` afterwards pays him the right amount.
        """
        _stacks(stacks, pot)
        state_json, record_json = _dump(state), _dump(record)
        await self._run(
            partial(
                tables.finish_hand,
                table_id=table_id,
                hand_id=hand_id,
                stacks=stacks,
                pot=pot,
                state_json=state_json,
                record_json=record_json,
                token=self._owner,
                now=self._now(),
                players=players,
            )
        )

    async def release_mid_hand(self, table_id: int, hand_id: int, user_id: int, amount: int) -> None:
        """Give a player who left the running hand his remaining stack (`amount`) back at once.

        He is folded, so the amount is final. His seat keeps what he put in the pot until the hand's
        result (`finish_hand`, where his stack is then 0); if a crash cancels the hand instead,
        `recover` pays him the rest of his start-of-hand stack and does not seat him again.
        """
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_CHIPS:
            raise LedgerMismatch("Le fiches del tavolo devono essere numeri interi non negativi.")
        await self._run(
            partial(
                tables.release_mid_hand,
                table_id=table_id,
                hand_id=hand_id,
                user_id=user_id,
                amount=amount,
                token=self._owner,
                now=self._now(),
            )
        )

    async def save_state(self, table_id: int, state: Mapping[str, Any]) -> None:
        """Store the engine's state between hands when no chip moved (a player back in the game),
        so that a restart before the next deal restores it."""
        body = partial(tables.save_state, table_id=table_id, state_json=_dump(state), token=self._owner)
        await self._run(body)

    async def set_table_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the table's public message, so that a restart can edit it."""
        await self._run(
            partial(tables.set_message, table_id=table_id, message_id=message_id, token=self._owner)
        )

    async def close_table(self, table_id: int, payouts: dict[int, int]) -> None:
        """Pay out every chip at the table (the engine's `Table.close()`) and close it."""
        _stacks(payouts, 0)
        await self._run(
            partial(
                tables.close_table, table_id=table_id, payouts=payouts, token=self._owner, now=self._now()
            )
        )

    async def table(self, table_id: int) -> TableRow:
        """One open table, as `open_tables` returns it."""
        found = await self._backend.read_once(partial(tables.open_tables, table_id=table_id))
        if not found:
            raise TableNotFound("Questo tavolo non esiste o è già stato chiuso.")
        return found[0]

    async def open_tables(
        self, *, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> list[TableRow]:
        """Every open table with its seats and stored state, for start-up.

        With `shard_ids` and `shard_count`, only the tables of guilds on those gateway shards
        (``(guild_id >> 22) % shard_count``), the formula discord.py uses.
        """
        shards = _shards(shard_ids, shard_count)
        return await self._backend.read_once(partial(tables.open_tables, shards=shards))

    async def claim_tables(self, shard_ids: Collection[int], shard_count: int) -> list[int]:
        """Make this process the owner of the open tables of its shards; return their ids.

        For several bot processes on one PostgreSQL database, each running some gateway shards. The
        shards are held (an advisory lock per shard, `ShardBusy` if another live process holds one)
        until `close()`; the claimed tables, and every table this storage creates from now on, carry
        `owner_token`, and every write to a table checks it in the same transaction
        (`TableNotOwned` otherwise), so two processes never play or pay out the same table. Call it
        before `recover` and `open_tables` at start-up, with the same shards. A process that never
        calls it (one bot on its own database) writes tables without an owner, as before.
        """
        shards = _shards(shard_ids, shard_count)
        assert shards is not None
        await self._backend.hold_shards(shards[0], shard_count)
        self._owner = self.owner_token
        return await self._run(lambda conn: tables.claim_tables(conn, shards=shards, token=self.owner_token))

    async def hold_database(self) -> None:
        """Keep other bot processes off a SQLite file while this one runs (`ShardBusy` if one is
        there already); nothing on PostgreSQL, where processes share the database by shards
        (`claim_tables`). The bot calls it at start-up; tools and tests that open a file beside a
        running bot (backups, `check`) do not."""
        await self._backend.hold_database()

    async def _new_owner(self) -> str | None:
        """The owner a new table or tournament is stamped with. Refused (`TableNotOwned`) once this
        process lost its shards: another may own them now, and would never claim a table made after
        its claim, so the table would belong to nobody until a restart. Asked of the database at each
        creation (rare), since a network can cut the locks' connection without a word."""
        if not await self._backend.shards_held():
            raise TableNotOwned(NOT_OWNED)
        return self._owner

    @property
    def shards_lost(self) -> asyncio.Event | None:
        """Set when the shards `claim_tables` holds stopped being held while the process runs: on
        PostgreSQL, the connection that held their locks ended, so another process may take them.
        The process must then stop (a restart claims them again). None on SQLite (nothing held)."""
        return self._backend.shards_lost

    async def recover(
        self, *, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> list[int]:
        """Cancel every hand a crash interrupted, restoring its start-of-hand stacks, pot and state.

        Call once at start-up, before rebuilding the engine tables from `open_tables()`; a sharded
        process passes its shards (after `claim_tables`) so that it never cancels the running hand
        of another live process. Returns the tables whose hand was cancelled.

        Each table is its own transaction, so one damaged table cannot keep the others from
        recovering: a hand that another process recovered meanwhile, or a table another process owns,
        is skipped quietly; a table that cannot be recovered (its chips do not match the ledger, an
        account is missing...: any other `StorageError`) is rolled back, logged as an error with its
        id and skipped, its hand left running for an operator to look at (a transaction PostgreSQL
        aborted as a deadlock is tried again first, as every one is: `PostgresBackend.run`).
        """
        shards = _shards(shard_ids, shard_count)
        pending = await self._run(partial(tables.running_hands, shards=shards), write=False)
        recovered: list[int] = []
        for table_id, hand_id in pending:
            try:
                await self._run(
                    partial(
                        tables.recover_table,
                        table_id=table_id,
                        hand_id=hand_id,
                        token=self._owner,
                        now=self._now(),
                    )
                )
            except (HandNotRunning, TableNotFound, TableNotOwned):
                continue  # recovered or closed by another process meanwhile, or not ours
            except StorageError as exc:
                log.error("Table %s: its interrupted hand %s cannot be cancelled: %s", table_id, hand_id, exc)
                continue
            recovered.append(table_id)
        return recovered

    # Replays and statistics ------------------------------------------------------------------------

    async def player_stats(self, guild_id: int, user_id: int) -> list[VariantStats]:
        """The player's statistics on one server, per variant (empty when he never finished a hand)."""
        return await self._run(lambda conn: stats.player_stats(conn, guild_id, user_id), write=False)

    async def tournament_stats(self, guild_id: int, user_id: int) -> TournamentStats | None:
        """The player's finished tournaments on one server (None when he finished none)."""
        return await self._run(lambda conn: stats.tournament_stats(conn, guild_id, user_id), write=False)

    async def table_summary(self, table_id: int) -> TableSessionSummary:
        """A table's night, open or closed: hands, each player's net, the biggest pot, the best hand."""
        found = await self._run(partial(stats.table_summary, table_id=table_id), write=False)
        if found is None:
            raise TableNotFound("Questo tavolo non esiste.")
        return found

    async def stored_hand(self, channel_id: int, number: int | None = None) -> StoredHand | None:
        """Hand `number` of the channel's latest table, or its latest hand that is over (status
        'missing' when there is no such hand); None when the channel never had a table."""
        return await self._run(lambda conn: stats.stored_hand(conn, channel_id, number), write=False)

    async def check(self, guild_id: int | None = None) -> list[str]:
        """Prove the ledger for one server or all: an empty list means every chip is accounted for."""
        return await self._run(partial(proof, guild_id=guild_id), write=False)

    # Tournaments (bot/storage/tournaments.py) --------------------------------------------------------

    async def create_tournament(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        variant: str,
        config: dict[str, Any],
        state: Mapping[str, Any],
    ) -> tournaments.TournamentRow:
        """Announce a tournament in a channel (no open table or tournament there) with an empty pool."""
        owner = await self._new_owner()
        return await self._run(
            partial(
                tournaments.create,
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=creator_id,
                variant=variant,
                config_json=_dump(config),
                state_json=_dump(state),
                owner=owner,
                now=self._now(),
            )
        )

    async def register_tournament(
        self, tournament_id: int, user_id: int, buy_in: int, state: Mapping[str, Any]
    ) -> None:
        """Pay the buy-in into the pool and store the state that lists the new entrant."""
        if buy_in:
            _amount(buy_in)
        await self._run(
            partial(
                tournaments.register,
                tournament_id=tournament_id,
                user_id=user_id,
                buy_in=buy_in,
                state_json=_dump(state),
                starting_chips=self.starting_chips,
                token=self._owner,
                now=self._now(),
            )
        )

    async def unregister_tournament(
        self, tournament_id: int, user_id: int, refund: int, state: Mapping[str, Any]
    ) -> None:
        """A withdrawal before the start: his buy-in back from the pool."""
        await self._run(
            partial(
                tournaments.unregister,
                tournament_id=tournament_id,
                user_id=user_id,
                refund=refund,
                state_json=_dump(state),
                token=self._owner,
                now=self._now(),
            )
        )

    async def cancel_tournament(
        self, tournament_id: int, refunds: dict[int, int], state: Mapping[str, Any]
    ) -> None:
        """Call a tournament off: every buy-in back, the pool closed at 0."""
        await self._run(
            partial(
                tournaments.cancel,
                tournament_id=tournament_id,
                refunds=refunds,
                state_json=_dump(state),
                token=self._owner,
                now=self._now(),
            )
        )

    async def start_tournament(self, tournament_id: int, state: Mapping[str, Any]) -> None:
        await self._run(
            partial(
                tournaments.start, tournament_id=tournament_id, state_json=_dump(state), token=self._owner
            )
        )

    async def save_tournament(
        self, tournament_id: int, state: Mapping[str, Any], hands: Sequence[TournamentHand] = ()
    ) -> None:
        """The state at a deal or a hand boundary: the tournament, its table and the `hands` (that
        hand, and any an earlier failed write did not store) in one write."""
        await self._run(
            partial(
                tournaments.save,
                tournament_id=tournament_id,
                state_json=_dump(state),
                hands=_hand_notes(hands),
                token=self._owner,
                now=self._now(),
            )
        )

    async def finish_tournament(
        self,
        tournament_id: int,
        prizes: dict[int, int],
        state: Mapping[str, Any],
        hands: Sequence[TournamentHand] = (),
        places: Mapping[int, int] | None = None,
    ) -> bool:
        """The final state, the last hands, every prize (pool to balances) and each entrant's place,
        in one transaction; False if already paid."""
        return await self._run(
            partial(
                tournaments.finish,
                tournament_id=tournament_id,
                prizes=prizes,
                state_json=_dump(state),
                hands=_hand_notes(hands),
                places=places,
                token=self._owner,
                now=self._now(),
            )
        )

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None:
        await self._run(
            partial(
                tournaments.set_message, tournament_id=tournament_id, message_id=message_id, token=self._owner
            )
        )

    async def tournament_announced(self, tournament_id: int) -> None:
        """The final standings are posted: a restart must not post them again."""
        await self._run(partial(tournaments.mark_announced, tournament_id=tournament_id, token=self._owner))

    async def live_tournaments(
        self,
        *,
        shard_ids: Collection[int] | None = None,
        shard_count: int | None = None,
    ) -> list[tournaments.TournamentRow]:
        """Tournaments to restore at start-up (registering, playing, or finished but not announced);
        with `shard_ids` and `shard_count`, only those of guilds on these shards (as `open_tables`)."""
        shards = _shards(shard_ids, shard_count)
        return await self._run(lambda conn: tournaments.live(conn, shards), write=False)


def _shards(shard_ids: Collection[int] | None, shard_count: int | None) -> tables.Shards | None:
    if shard_ids is None and shard_count is None:
        return None
    if shard_ids is None or shard_count is None:
        raise ValueError("shard_ids and shard_count go together")
    wanted = tuple(sorted(set(shard_ids)))
    if shard_count < 1 or not wanted or not all(0 <= shard < shard_count for shard in wanted):
        raise ValueError(f"shard ids must be within 0..{shard_count - 1}: {shard_ids!r}")
    return (wanted, shard_count)
