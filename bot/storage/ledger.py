"""Accounts and the double-entry ledger: every SQL statement that touches a balance.

All functions run inside a transaction opened by `Storage`; none of them commits. A balance is only
changed by a conditional UPDATE whose row count is checked, never by reading it and writing it back,
so two writers can never both spend the same chips.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.storage.errors import BonusNotReady, InsufficientChips, UnknownPlayer
from bot.storage.models import HandSummary, LeaderRow, LedgerEntry, PlayerHistory
from bot.storage.sql import Conn, Statement
from engine.italian import chips

__all__ = [
    "BONUS_INTERVAL",
    "HOUSE",
    "ISSUING_REASONS",
    "Entry",
    "check",
    "claim_bonus",
    "credit",
    "credit_all",
    "debit",
    "ensure_account",
    "fund_house",
    "history",
    "holder",
    "is_computer",
    "leaderboard",
    "movement",
    "record",
]

BONUS_INTERVAL = timedelta(hours=24)
# Reasons that bring new chips into a server; every other movement only moves chips around.
ISSUING_REASONS = ("start", "bonus", "grant")

HOUSE = 0
"""The user id of a server's house account: the chips its computer players sit with. Discord never
gives 0 (nor a negative number) to a user, so it can never be a person's account."""


def is_computer(user_id: int) -> bool:
    """Computer players sit with negative user ids (bot/computers.py): no Discord user has one."""
    return user_id < 0


def holder(user_id: int) -> int:
    """Whose balance a seat's chips come from and go back to: the house's for a computer player."""
    return HOUSE if is_computer(user_id) else user_id


@dataclass(frozen=True)
class Entry:
    """One side of a movement: `account` is 'balance' (user), 'seat' (table and user) or 'pot' (table)."""

    account: str
    amount: int
    user_id: int | None = None
    table_id: int | None = None


_ENTRY_COLUMNS = (("account", "TEXT"), ("user_id", "BIGINT"), ("table_id", "BIGINT"), ("amount", "BIGINT"))


def to_time(at: datetime) -> int:
    return int(at.timestamp())


def from_time(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


async def record(
    conn: Conn,
    *,
    guild_id: int,
    reason: str,
    entries: Iterable[Entry],
    now: int,
    table_id: int | None = None,
    hand_id: int | None = None,
    by_user_id: int | None = None,
    tournament_id: int | None = None,
) -> int | None:
    """Append one movement; zero entries are dropped, and a movement with nothing left is not written."""
    found = await movement(
        conn,
        guild_id=guild_id,
        reason=reason,
        entries=entries,
        now=now,
        table_id=table_id,
        hand_id=hand_id,
        by_user_id=by_user_id,
        tournament_id=tournament_id,
    )
    if found is None:
        return None
    movement_id, (sql, args) = found
    await conn.execute(sql, args)
    return movement_id


async def movement(
    conn: Conn,
    *,
    guild_id: int,
    reason: str,
    entries: Iterable[Entry],
    now: int,
    table_id: int | None = None,
    hand_id: int | None = None,
    by_user_id: int | None = None,
    tournament_id: int | None = None,
) -> tuple[int, Statement] | None:
    """`record` in two steps: append the movement's row now, and return its id with the statement
    that appends its entries, for the caller to run in the same transaction (in a `Conn.batch`)."""
    kept = [e for e in entries if e.amount != 0]
    if not kept:
        return None
    if reason not in ISSUING_REASONS and sum(e.amount for e in kept) != 0:
        # A bug in the caller, never a player's mistake: refuse before anything is written.
        raise AssertionError(f"movement {reason!r} would create or destroy chips: {kept}")
    [(movement_id,)] = await conn.fetch(
        "INSERT INTO movements (guild_id, reason, table_id, hand_id, by_user_id, tournament_id, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (guild_id, reason, table_id, hand_id, by_user_id, tournament_id, now),
    )
    source, args = conn.rows(
        _ENTRY_COLUMNS, [(e.account, e.user_id, e.table_id, e.amount) for e in kept]
    )  # all of them in one statement
    return int(movement_id), (
        "INSERT INTO entries (movement_id, guild_id, account, user_id, table_id, amount)"
        f" SELECT ?, ?, v.account, v.user_id, v.table_id, v.amount FROM {source} AS v",
        [movement_id, guild_id, *args],
    )


async def ensure_account(conn: Conn, guild_id: int, user_id: int, *, starting_chips: int, now: int) -> bool:
    """Open the player's account with the starting chips the first time he is seen; True if new."""
    inserted = await conn.execute(
        "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO NOTHING",
        (guild_id, user_id, starting_chips, now),
    )
    if inserted != 1:
        return False
    await record(
        conn,
        guild_id=guild_id,
        reason="start",
        entries=[Entry("balance", starting_chips, user_id=user_id)],
        now=now,
    )
    return True


async def balance_of(conn: Conn, guild_id: int, user_id: int) -> int | None:
    row = await conn.fetchone(
        "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return None if row is None else int(row[0])


async def debit(conn: Conn, guild_id: int, user_id: int, amount: int) -> None:
    """Take chips from a balance only if it covers them (the WHERE clause is the check)."""
    changed = await conn.execute(
        "UPDATE accounts SET balance = balance - ? WHERE guild_id = ? AND user_id = ? AND balance >= ?",
        (amount, guild_id, user_id, amount),
    )
    if changed == 1:
        return
    have = await balance_of(conn, guild_id, user_id)
    if have is None:
        raise UnknownPlayer("Questo giocatore non ha ancora un conto su questo server.")
    raise InsufficientChips(
        f"Non hai abbastanza fiches: ne servono {chips(amount)} e il tuo saldo è di {chips(have)}.",
        balance=have,
        needed=amount,
    )


async def credit(conn: Conn, guild_id: int, user_id: int, amount: int) -> None:
    changed = await conn.execute(
        "UPDATE accounts SET balance = balance + ? WHERE guild_id = ? AND user_id = ?",
        (amount, guild_id, user_id),
    )
    if changed != 1:
        raise UnknownPlayer("Questo giocatore non ha ancora un conto su questo server.")


async def credit_all(conn: Conn, guild_id: int, amounts: Iterable[tuple[int, int]]) -> None:
    """Credit several seats' chips, (user id, amount) each, to their holders' balances.

    Every transaction that changes several balances goes through here, so each account is updated
    once (a computer's chips all go to the house) and in one global order, ascending user id (the
    account key within a server). On PostgreSQL each UPDATE locks its account's row until the commit:
    two transactions crediting the same accounts in opposite orders (a table closing while a
    tournament pays its prizes) would each wait for the other, and one would be aborted as a deadlock.
    """
    totals: dict[int, int] = {}
    for user_id, amount in amounts:
        if amount:
            totals[holder(user_id)] = totals.get(holder(user_id), 0) + amount
    for account in sorted(totals):
        await credit(conn, guild_id, account, totals[account])


async def claim_bonus(conn: Conn, guild_id: int, user_id: int, *, amount: int, now: datetime) -> int:
    """Credit the daily bonus if 24 hours have passed since the last one; return the new balance."""
    stamp = to_time(now)
    earliest_previous = stamp - int(BONUS_INTERVAL.total_seconds())
    changed = await conn.execute(
        "UPDATE accounts SET balance = balance + ?, last_bonus_at = ?"
        " WHERE guild_id = ? AND user_id = ? AND (last_bonus_at IS NULL OR last_bonus_at <= ?)",
        (amount, stamp, guild_id, user_id, earliest_previous),
    )
    if changed != 1:
        row = await conn.fetchone(
            "SELECT last_bonus_at FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        assert row is not None and row[0] is not None
        left = timedelta(seconds=int(row[0]) - earliest_previous)
        raise BonusNotReady(
            "Hai già ritirato il bonus giornaliero: potrai ritirarlo di nuovo tra "
            f"{_italian_duration(left)}.",
            retry_after=left,
        )
    await record(
        conn,
        guild_id=guild_id,
        reason="bonus",
        entries=[Entry("balance", amount, user_id=user_id)],
        now=stamp,
    )
    have = await balance_of(conn, guild_id, user_id)
    assert have is not None
    return have


async def fund_house(conn: Conn, guild_id: int, amount: int, *, starting_chips: int, now: int) -> None:
    """Make sure the house account holds `amount` for a computer's buy-in.

    The house is opened like any player, with the starting chips (reason 'start'); when a buy-in
    needs more than it holds, exactly the shortfall is issued to it as a top-up (reason 'bonus', one
    positive balance entry, like the daily bonus), so `check()` counts every chip the house ever got
    and no chip is issued that a computer does not take to a table.

    The house's row is read with a row lock (PostgreSQL; SQLite's write transaction holds the whole
    file): two computers buying in at once in one server must not both see the same balance, both
    skip the top-up and leave the second debit short. The lock is held until the commit, so the
    second buy-in reads the balance the first one left.
    """
    await ensure_account(conn, guild_id, HOUSE, starting_chips=starting_chips, now=now)
    row = await conn.fetchone(
        f"SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?{conn.for_update}", (guild_id, HOUSE)
    )
    if row is None:  # pragma: no cover - ensure_account has just opened it
        raise UnknownPlayer("Il conto della casa non esiste su questo server.")
    have = int(row[0])
    if have >= amount:
        return
    await credit(conn, guild_id, HOUSE, amount - have)
    await record(
        conn,
        guild_id=guild_id,
        reason="bonus",
        entries=[Entry("balance", amount - have, user_id=HOUSE)],
        now=now,
    )


def _italian_duration(left: timedelta) -> str:
    minutes = max(1, -(-int(left.total_seconds()) // 60))  # round up: never say "0 minuti"
    hours, minutes = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append("1 ora" if hours == 1 else f"{hours} ore")
    if minutes:
        parts.append("1 minuto" if minutes == 1 else f"{minutes} minuti")
    return " e ".join(parts)


async def leaderboard(conn: Conn, guild_id: int, limit: int) -> list[LeaderRow]:
    sql = """
        SELECT x.user_id, x.balance, x.at_tables FROM (
            SELECT a.user_id,
                   a.balance,
                   COALESCE((SELECT SUM(s.stack)
                               FROM seats AS s
                               JOIN poker_tables AS t ON t.id = s.table_id
                              WHERE t.guild_id = a.guild_id AND t.status = 'open' AND s.user_id = a.user_id),
                            0) AS at_tables
              FROM accounts AS a
             WHERE a.guild_id = ? AND a.user_id > 0
        ) AS x
         ORDER BY x.balance + x.at_tables DESC, x.user_id
         LIMIT ?
    """
    rows = await conn.fetch(sql, (guild_id, limit))
    board: list[LeaderRow] = []
    for i, (u, b, t) in enumerate(rows, start=1):
        row = LeaderRow(rank=i, user_id=int(u), balance=int(b), at_tables=int(t))
        if board and board[-1].total == row.total:  # equal chips, equal place: 1, 1, 3
            row = dataclasses.replace(row, rank=board[-1].rank)
        board.append(row)
    return board


async def history(
    conn: Conn, guild_id: int, user_id: int, limit: int, *, account: str | None = None
) -> PlayerHistory:
    if await balance_of(conn, guild_id, user_id) is None:
        raise UnknownPlayer("Questo giocatore non ha ancora un conto su questo server.")
    entries_sql = """
        SELECT m.id, m.created_at, m.reason, e.account, e.amount, e.table_id, m.hand_id, m.by_user_id,
               m.tournament_id
          FROM entries AS e
          JOIN movements AS m ON m.id = e.movement_id
         WHERE e.guild_id = ? AND e.user_id = ? AND (CAST(? AS TEXT) IS NULL OR e.account = ?)
         ORDER BY e.id DESC
         LIMIT ?
    """
    entry_rows = await conn.fetch(entries_sql, (guild_id, user_id, account, account, limit))
    hands_sql = """
        SELECT h.id, h.table_id, h.number, h.status, h.started_at, h.finished_at,
               hs.start_stack, hs.end_stack, h.record
          FROM hand_seats AS hs
          JOIN hands AS h ON h.id = hs.hand_id
          JOIN poker_tables AS t ON t.id = h.table_id
         WHERE hs.user_id = ? AND t.guild_id = ?
           -- A seat is in every hand's snapshot; a finished hand is his only if he was dealt in (he
           -- has its summary), unless the hand predates the summaries (none at all).
           AND (h.status <> 'finished'
                OR EXISTS (SELECT 1 FROM hand_players AS hp
                            WHERE hp.hand_id = h.id AND hp.user_id = hs.user_id)
                OR NOT EXISTS (SELECT 1 FROM hand_players AS hp WHERE hp.hand_id = h.id))
         ORDER BY h.id DESC
         LIMIT ?
    """
    hand_rows = await conn.fetch(hands_sql, (user_id, guild_id, limit))
    return PlayerHistory(
        entries=tuple(
            LedgerEntry(
                movement_id=int(mid),
                at=from_time(int(at)),
                reason=str(reason),
                account=account,
                amount=int(amount),
                table_id=table_id,
                hand_id=hand_id,
                by_user_id=by_user_id,
                tournament_id=tournament_id,
            )
            for mid, at, reason, account, amount, table_id, hand_id, by_user_id, tournament_id in entry_rows
        ),
        hands=tuple(
            HandSummary(
                hand_id=int(hid),
                table_id=int(tid),
                number=int(number),
                status=str(status),
                started_at=from_time(int(started)),
                finished_at=None if finished is None else from_time(int(finished)),
                start_stack=int(start_stack),
                end_stack=None if end_stack is None else int(end_stack),
                record=None if rec is None else json.loads(rec),
            )
            for hid, tid, number, status, started, finished, start_stack, end_stack, rec in hand_rows
        ),
    )


async def check(conn: Conn, guild_id: int | None) -> list[str]:
    """Prove the ledger: every cached amount equals the sum of its entries, and chips are conserved.

    Returns one line per inconsistency (empty when all is well); meant for logs and tests, so in
    English. Each query compares columns of a derived table, the form both SQLite and PostgreSQL
    accept (PostgreSQL cannot name a result column in WHERE).
    """
    problems: list[str] = []
    scope = "" if guild_id is None else " AND {alias}.guild_id = ?"
    args = () if guild_id is None else (guild_id,)

    async def rows(sql: str) -> list[tuple[int, ...]]:
        return await conn.fetch(sql, args)

    # 1. Each balance equals the sum of its entries.
    for g, u, cached, summed in await rows(f"""
        SELECT x.* FROM (
            SELECT a.guild_id, a.user_id, a.balance,
                   COALESCE((SELECT SUM(e.amount) FROM entries AS e
                              WHERE e.account = 'balance' AND e.guild_id = a.guild_id
                                AND e.user_id = a.user_id), 0) AS summed
              FROM accounts AS a WHERE TRUE {scope.format(alias="a")}
        ) AS x WHERE x.balance <> x.summed"""):
        problems.append(f"guild {g} user {u}: balance {cached} but ledger says {summed}")
    for g, u, summed in await rows(f"""
        SELECT e.guild_id, e.user_id, SUM(e.amount) FROM entries AS e
         WHERE e.account = 'balance' {scope.format(alias="e")}
           AND NOT EXISTS (SELECT 1 FROM accounts AS a
                            WHERE a.guild_id = e.guild_id AND a.user_id = e.user_id)
         GROUP BY e.guild_id, e.user_id"""):
        problems.append(f"guild {g} user {u}: ledger holds {summed} chips for a missing account")

    # 2. Each seat equals the sum of its entries; a seat that is gone sums to zero.
    for t, u, cached, summed in await rows(f"""
        SELECT x.table_id, x.user_id, x.stack, x.summed FROM (
            SELECT k.table_id, k.user_id,
                   COALESCE((SELECT s.stack FROM seats AS s
                              WHERE s.table_id = k.table_id AND s.user_id = k.user_id), 0) AS stack,
                   COALESCE((SELECT SUM(e.amount) FROM entries AS e
                              WHERE e.account = 'seat' AND e.table_id = k.table_id AND e.user_id = k.user_id),
                            0) AS summed
              FROM (SELECT table_id, user_id FROM seats
                    UNION SELECT table_id, user_id FROM entries WHERE account = 'seat') AS k
              JOIN poker_tables AS t ON t.id = k.table_id
             WHERE TRUE {scope.format(alias="t")}
        ) AS x WHERE x.stack <> x.summed"""):
        problems.append(f"table {t} user {u}: seat holds {cached} but ledger says {summed}")

    # 3. Each table's pot equals the sum of its entries; a closed table holds nothing.
    for t, cached, summed in await rows(f"""
        SELECT x.* FROM (
            SELECT t.id, t.pot,
                   COALESCE((SELECT SUM(e.amount) FROM entries AS e
                              WHERE e.account = 'pot' AND e.table_id = t.id), 0) AS summed
              FROM poker_tables AS t WHERE TRUE {scope.format(alias="t")}
        ) AS x WHERE x.pot <> x.summed"""):
        problems.append(f"table {t}: pot {cached} but ledger says {summed}")
    for (t,) in await rows(f"""
        SELECT t.id FROM poker_tables AS t
         WHERE t.status = 'closed' {scope.format(alias="t")}
           AND (t.pot <> 0 OR EXISTS (SELECT 1 FROM seats AS s WHERE s.table_id = t.id))"""):
        problems.append(f"table {t}: closed but still holds chips")

    # 4. A movement that only moves chips sums to zero; one that issues chips credits one balance.
    for m, reason, summed in await rows(f"""
        SELECT m.id, m.reason, COALESCE(SUM(e.amount), 0) FROM movements AS m
          LEFT JOIN entries AS e ON e.movement_id = m.id
         WHERE m.reason NOT IN ('start', 'bonus', 'grant') {scope.format(alias="m")}
         GROUP BY m.id HAVING COALESCE(SUM(e.amount), 0) <> 0"""):
        problems.append(f"movement {m} ({reason}) creates or destroys {summed} chips")
    for m, reason in await rows(f"""
        SELECT m.id, m.reason FROM movements AS m
         WHERE m.reason IN ('start', 'bonus', 'grant') {scope.format(alias="m")}
           AND ((SELECT COUNT(*) FROM entries AS e WHERE e.movement_id = m.id) <> 1
                OR NOT EXISTS (SELECT 1 FROM entries AS e
                                WHERE e.movement_id = m.id AND e.account = 'balance' AND e.amount > 0))"""):
        problems.append(f"movement {m} ({reason}) must credit exactly one balance")
    for m, g, eg in await rows(f"""
        SELECT m.id, m.guild_id, e.guild_id FROM movements AS m JOIN entries AS e ON e.movement_id = m.id
         WHERE e.guild_id <> m.guild_id {scope.format(alias="m")}"""):
        problems.append(f"movement {m} of guild {g} has an entry in guild {eg}")

    # 5. Per server: balances + seats + pots = every chip ever issued there.
    for g, held, issued in await rows(f"""
        SELECT x.* FROM (
            SELECT g.guild_id,
                   COALESCE((SELECT SUM(balance) FROM accounts WHERE guild_id = g.guild_id), 0)
                 + COALESCE((SELECT SUM(s.stack) FROM seats AS s JOIN poker_tables AS t ON t.id = s.table_id
                              WHERE t.guild_id = g.guild_id), 0)
                 + COALESCE((SELECT SUM(pot) FROM poker_tables WHERE guild_id = g.guild_id), 0) AS held,
                   COALESCE((SELECT SUM(e.amount) FROM entries AS e
                               JOIN movements AS m ON m.id = e.movement_id
                              WHERE m.guild_id = g.guild_id AND m.reason IN ('start', 'bonus', 'grant')), 0)
                     AS issued
              FROM (SELECT guild_id FROM accounts UNION SELECT guild_id FROM poker_tables
                    UNION SELECT guild_id FROM movements) AS g
             WHERE TRUE {scope.format(alias="g")}
        ) AS x WHERE x.held <> x.issued"""):
        problems.append(f"guild {g}: {held} chips held but {issued} issued")
    return problems
