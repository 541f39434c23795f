"""Move a SQLite database to PostgreSQL in one command, every row and id kept.

    python -m bot.storage.migrate_to_postgres --sqlite data/poker.sqlite3 --postgres postgresql://...

Stop the bot first. The SQLite file is brought to the current schema (as starting the bot would),
read in one snapshot that is proven by both checks (the ledger's and the tournaments', as
`Storage.check` runs them) before it is copied, table by table, into an empty PostgreSQL database
(migrated by the same code the bot uses) in one transaction: the ledger keeps its ids and order, and
the id sequences continue after the highest copied id. Before committing, every copied row is read
back and compared with the source, both checks must be clean on PostgreSQL too and the balances,
seats and pots equal; any refusal rolls the whole copy back. A target that already holds any row is
refused, so nothing is ever merged or overwritten.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.storage.errors import SchemaTooNew, ShardBusy
from bot.storage.postgres import SHARD_COUNT_LOCK, PostgresBackend, PostgresConn
from bot.storage.sqlite import SqliteBackend
from bot.storage.storage import DATABASE_ERRORS, Storage, is_postgres_url, proof

__all__ = ["TABLES", "MigrationRefused", "Summary", "main", "migrate_to_postgres"]

# In foreign-key order; the first column listed for ordering is the primary key.
TABLES: dict[str, str] = {
    "accounts": "guild_id, user_id",
    "poker_tables": "id",
    "seats": "table_id, user_id",
    "hands": "id",
    "hand_seats": "hand_id, user_id",
    "hand_players": "hand_id, user_id",
    "tournaments": "id",
    "tournament_hands": "tournament_id, number",
    "tournament_places": "tournament_id, user_id",
    "movements": "id",
    "entries": "id",
    "computers": "table_id, user_id",
    "player_settings": "guild_id, user_id",
    "turn_calls_shown": "channel_id, message_id",
    "stale_table_messages": "channel_id, message_id",
}
_WITH_IDS = ("poker_tables", "hands", "tournaments", "movements", "entries")
_TOTALS = (
    "SELECT (SELECT COALESCE(SUM(balance), 0) FROM accounts), (SELECT COALESCE(SUM(stack), 0) FROM seats),"
    " (SELECT COALESCE(SUM(pot), 0) FROM poker_tables), (SELECT COUNT(*) FROM entries)"
)


_UNREACHABLE: tuple[type[Exception], ...] = (*DATABASE_ERRORS, ValueError)
"""What opening the target raises when it cannot be reached or the URL is malformed."""


class MigrationRefused(Exception):
    """The copy was not made (or rolled back); the message says why."""


@dataclass(frozen=True)
class Summary:
    rows: dict[str, int]
    balances: int
    seats: int
    pots: int


async def migrate_to_postgres(sqlite_path: Path, url: str) -> Summary:
    """Copy every row of the SQLite database at `sqlite_path` into the empty PostgreSQL `url`."""
    if not is_postgres_url(url):
        raise MigrationRefused("the target must be a postgresql:// URL")
    if not sqlite_path.is_file():
        raise MigrationRefused(f"no SQLite database at {sqlite_path}")
    try:
        # The bot must be stopped: what it wrote after the copy would be lost with the file. The file
        # is held before its migrations run, so a refusal leaves a running bot's schema as it was.
        source = await Storage.open(sqlite_path, hold=True)
    except ShardBusy as exc:
        raise MigrationRefused(f"a bot is running on {sqlite_path}: stop it first") from exc
    except SchemaTooNew as exc:
        raise MigrationRefused(f"{sqlite_path} was written by a newer bot: {exc}") from exc
    except DATABASE_ERRORS as exc:
        raise MigrationRefused(f"{sqlite_path} cannot be opened as the bot's SQLite database: {exc}") from exc
    try:
        try:
            target = await Storage.open(url)
        except SchemaTooNew as exc:
            raise MigrationRefused(f"the PostgreSQL database was written by a newer bot: {exc}") from exc
        except _UNREACHABLE as exc:  # never the URL itself: it may hold the password
            raise MigrationRefused(f"PostgreSQL cannot be reached or refused us: {exc!r}") from exc
        try:
            return await _copy(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


BOT_RUNNING_SQL = (
    "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    " AND classid = $1 AND objsubid = 2)"
)
"""Whether a bot process runs on this database: every one holds its SHARD_COUNT lock while it lives
(`PostgresBackend.claim`, also when it is not sharded)."""


async def _copy(source: Storage, target: Storage) -> Summary:
    src, dst = source._backend, target._backend
    assert isinstance(src, SqliteBackend) and isinstance(dst, PostgresBackend)
    if src.schema_version != dst.schema_version:
        raise MigrationRefused(
            f"schema versions differ: SQLite {src.schema_version}, PostgreSQL {dst.schema_version}"
        )
    copied: dict[str, tuple[list[str], list[tuple[object, ...]]]] = {}
    async with src.transaction(write=False) as conn:  # one snapshot of the whole file
        # Proven in the snapshot that is copied: a write after the proof cannot slip into the copy.
        if problems := await proof(conn):
            raise MigrationRefused("the SQLite ledger does not prove itself: " + "; ".join(problems))
        for table, order in TABLES.items():
            columns = [str(r[1]) for r in await conn.fetch(f"PRAGMA table_info({table})")]
            rows = await conn.fetch(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
            copied[table] = (columns, rows)
        [source_totals] = await conn.fetch(_TOTALS)
    async with dst.pool.acquire() as pg, pg.transaction():
        # No bot may write while the copy runs; the lock also makes the emptiness check final.
        await pg.execute(f"LOCK TABLE {', '.join(TABLES)} IN ACCESS EXCLUSIVE MODE")
        if await pg.fetchval(BOT_RUNNING_SQL, SHARD_COUNT_LOCK):
            # Started on the empty target, it would not serve the copied tables until a restart.
            raise MigrationRefused("a bot is running on the PostgreSQL database: stop it first")
        for table in TABLES:
            if await pg.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                raise MigrationRefused(f"the PostgreSQL database is not empty (table {table} has rows)")
        for table, (columns, rows) in copied.items():
            if rows:
                await pg.copy_records_to_table(table, records=rows, columns=columns)
        for table in _WITH_IDS:
            await pg.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false)"
                f" FROM {table}"
            )
        # Verified before the commit, so a refusal leaves the target as empty as it was.
        for table, (columns, rows) in copied.items():
            back = await pg.fetch(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {TABLES[table]}")
            if [tuple(r) for r in back] != rows:
                raise MigrationRefused(f"table {table} did not read back as it was written")
        copy = PostgresConn(pg)
        if problems := await proof(copy):
            raise MigrationRefused("the copy does not prove itself on PostgreSQL: " + "; ".join(problems))
        [target_totals] = await copy.fetch(_TOTALS)
        if target_totals != source_totals:
            raise MigrationRefused(f"totals differ: SQLite {source_totals}, PostgreSQL {target_totals}")
    balances, seats, pots, _ = (int(v) for v in source_totals)
    return Summary({t: len(rows) for t, (_, rows) in copied.items()}, balances, seats, pots)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.storage.migrate_to_postgres",
        description="Copy the bot's SQLite database into an empty PostgreSQL database (stop the bot first).",
    )
    parser.add_argument("--sqlite", required=True, type=Path, help="the SQLite file (DATABASE_PATH)")
    parser.add_argument("--postgres", required=True, help="the target, postgresql://user:password@host/db")
    args = parser.parse_args(argv)
    try:
        summary = asyncio.run(migrate_to_postgres(args.sqlite, args.postgres))
    except MigrationRefused as refused:
        print(f"Refused, nothing copied: {refused}", file=sys.stderr)
        return 1
    rows = ", ".join(f"{table} {count}" for table, count in summary.rows.items())
    print(f"Copied {rows}.")
    print(f"Balances {summary.balances}, seats {summary.seats}, pots {summary.pots}: equal on both sides.")
    print("Both ledgers prove themselves. Now set DATABASE_URL and start the bot.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
