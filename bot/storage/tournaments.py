"""Tournaments and their prize pools: every SQL statement of a sit-and-go.

A tournament's prize pool is the pot of a `poker_tables` row made for it (its *pool table*), so the
buy-ins, refunds and prizes are ordinary double-entry movements between balances and a pot, and
`ledger.check` proves the pool at every moment like any other pot. The pool table has no seats and
no rows in `hands`: the players' tournament chips are not server chips and live only in the
tournament's stored state (the engine's ``Tournament.to_dict()`` and ``Table.to_dict()``), never in
a seat. The tournament's hands have rows of their own in `tournament_hands` (for `/mano`), written
with the state, and its entrants' places go to `tournament_places` with the prizes (`/statistiche`).

Every change of a tournament is one transaction that writes the ledger and the state together: a
registration debits the balance, credits the pool and stores the state listing the new entrant;
the last hand's boundary flips the status to 'finito', pays every prize and empties the pool, so a
crash before the commit replays that hand and a crash after it finds nothing left to pay. All
functions run inside a transaction opened by `Storage`; none of them commits.

A computer player (negative id) enters with the server's house account's chips, by the same rule as
at a cash table: the house is funded first if it runs short (`ledger.fund_house`), and every chip
his entry moves, his refund and his prize, is the house's (`ledger.holder`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage import tables
from bot.storage.errors import LedgerMismatch, StorageError, TableAlreadyOpen
from bot.storage.ledger import (
    Entry,
    credit_all,
    debit,
    ensure_account,
    fund_house,
    holder,
    is_computer,
    record,
)
from bot.storage.sql import Conn

__all__ = [
    "HandNote",
    "TournamentGone",
    "TournamentRow",
    "cancel",
    "check",
    "create",
    "finish",
    "live",
    "mark_announced",
    "register",
    "save",
    "set_message",
    "start",
    "unregister",
]

LIVE = ("iscrizioni", "in_corso")
STATUSES = (*LIVE, "finito", "annullato")


class TournamentGone(StorageError):
    """The tournament is not in the state the change needs (already started, finished or cancelled)."""


@dataclass(frozen=True)
class TournamentRow:
    """One tournament as stored: ``state`` is the JSON the bot wrote."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    pool_table_id: int
    state: dict[str, Any]
    status: str
    pool: int
    message_id: int | None
    announced: bool


def _columns(state: str = "t.state") -> str:
    """The columns `_row` reads; ``state`` is what stands for the stored state."""
    return (
        f"t.id, t.guild_id, t.channel_id, t.creator_id, t.pool_table_id, {state}, t.status,"
        " p.pot, t.message_id, t.announced"
    )


_WITHOUT_STATE = _columns(state="'{}'")


def _row(values: tuple[Any, ...]) -> TournamentRow:
    tid, guild, channel, creator, pool_table, state, status, pot, message, announced = values
    return TournamentRow(
        id=int(tid),
        guild_id=int(guild),
        channel_id=int(channel),
        creator_id=int(creator),
        pool_table_id=int(pool_table),
        state=json.loads(state),
        status=str(status),
        pool=int(pot),
        message_id=None if message is None else int(message),
        announced=bool(announced),
    )


async def _locked(conn: Conn, tournament_id: int, token: str | None, *statuses: str) -> TournamentRow:
    """Lock the tournament's pool table and read the tournament; refuse when not in ``statuses``.

    The lock and the read are one statement (as `tables._open_table`): PostgreSQL returns the rows
    as the previous lock holder left them. The row comes without its stored state (``{}``): every
    write here brings the new state, and none reads the old one, so it is neither sent nor parsed."""
    row = await conn.fetchone(
        f"SELECT {_WITHOUT_STATE}, p.owner, p.status FROM tournaments AS t"
        f" JOIN poker_tables AS p ON p.id = t.pool_table_id WHERE t.id = ?{conn.for_update}",
        (tournament_id,),
    )
    if row is None:
        raise TournamentGone("Questo torneo non esiste.")
    tournament, owner, pool = _row(row[:-2]), row[-2], row[-1]
    # A closed pool (the tournament paid or called off) keeps the token of the process that closed
    # it, and no claim takes closed tables over: what is left to write (its message, its standings
    # posted) falls to whichever process serves its shard now.
    if pool == "open":
        tables.check_owner(None if owner is None else str(owner), token)
    if tournament.status not in statuses:
        raise TournamentGone(
            "Questo torneo è già iniziato."
            if tournament.status == "in_corso"
            else "Questo torneo è concluso."
        )
    return tournament


@dataclass(frozen=True)
class HandNote:
    """A hand of the tournament's table, written with the state: dealt (``record_json`` None) or
    over, with the engine's record as JSON."""

    number: int
    record_json: str | None = None


async def _note_hands(conn: Conn, tournament_id: int, hands: Sequence[HandNote], now: int) -> None:
    """The hands' rows in `tournament_hands`, for `/mano` (migration 0009), in the order given."""
    for hand in hands:
        # Hands are dealt one after another: an earlier hand still running is one a restart interrupted.
        await conn.execute(
            "UPDATE tournament_hands SET status = 'cancelled'"
            " WHERE tournament_id = ? AND status = 'running' AND number < ?",
            (tournament_id, hand.number),
        )
        if hand.record_json is None:
            await conn.execute(
                "INSERT INTO tournament_hands (tournament_id, number) VALUES (?, ?)"
                " ON CONFLICT (tournament_id, number) DO NOTHING",
                (tournament_id, hand.number),
            )
            continue
        # Over: also when its deal was not noted (that write failed and the hand went on).
        await conn.execute(
            "INSERT INTO tournament_hands (tournament_id, number, status, record, finished_at)"
            " VALUES (?, ?, 'finished', ?, ?) ON CONFLICT (tournament_id, number) DO UPDATE"
            " SET status = 'finished', record = excluded.record, finished_at = excluded.finished_at",
            (tournament_id, hand.number, hand.record_json, now),
        )


async def _save_state(conn: Conn, tournament_id: int, state_json: str) -> None:
    await conn.execute("UPDATE tournaments SET state = ? WHERE id = ?", (state_json, tournament_id))


async def _close_pool(conn: Conn, pool_table_id: int, now: int) -> None:
    await conn.execute(
        "UPDATE poker_tables SET status = 'closed', closed_at = ? WHERE id = ? AND pot = 0",
        (now, pool_table_id),
    )


async def create(
    conn: Conn,
    *,
    guild_id: int,
    channel_id: int,
    creator_id: int,
    variant: str,
    config_json: str,
    state_json: str,
    owner: str | None,
    now: int,
) -> TournamentRow:
    """The tournament and its pool table; refused when the channel has an open table or tournament."""
    try:
        pool_table_id = await tables.create_table(
            conn,
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=creator_id,
            variant=variant,
            options_json='{"torneo":true}',
            state_json="{}",
            owner=owner,
            now=now,
        )
    except TableAlreadyOpen:
        raise TableAlreadyOpen("In questo canale c'è già un tavolo o un torneo aperto.") from None
    [(tid,)] = await conn.fetch(
        "INSERT INTO tournaments (guild_id, channel_id, creator_id, pool_table_id, config, state, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (guild_id, channel_id, creator_id, pool_table_id, config_json, state_json, now),
    )
    return TournamentRow(
        int(tid),
        guild_id,
        channel_id,
        creator_id,
        pool_table_id,
        json.loads(state_json),
        "iscrizioni",
        0,
        None,
        False,
    )


async def register(
    conn: Conn,
    *,
    tournament_id: int,
    user_id: int,
    buy_in: int,
    state_json: str,
    starting_chips: int,
    token: str | None,
    now: int,
) -> None:
    """The buy-in from the balance into the pool, and the state that lists the new entrant."""
    t = await _locked(conn, tournament_id, token, "iscrizioni")
    if is_computer(user_id):
        if buy_in > 0:
            await fund_house(conn, t.guild_id, buy_in, starting_chips=starting_chips, now=now)
    else:
        await ensure_account(conn, t.guild_id, user_id, starting_chips=starting_chips, now=now)
    if buy_in > 0:
        await debit(conn, t.guild_id, holder(user_id), buy_in)
        await tables.set_pot(conn, t.pool_table_id, t.pool, t.pool + buy_in)
        await record(
            conn,
            guild_id=t.guild_id,
            reason="buy_in",
            entries=[
                Entry("balance", -buy_in, user_id=holder(user_id)),
                Entry("pot", buy_in, table_id=t.pool_table_id),
            ],
            table_id=t.pool_table_id,
            tournament_id=tournament_id,
            now=now,
        )
    await _save_state(conn, tournament_id, state_json)


async def _pay_out(
    conn: Conn, t: TournamentRow, amounts: Mapping[int, int], reason: str, now: int, *, whole: bool
) -> None:
    """Chips from the pool to balances (refunds or prizes) in one movement; with ``whole`` the
    amounts must empty the pool exactly (a cancellation, the prizes), else not exceed it."""
    paid = {u: a for u, a in amounts.items() if a}
    total = sum(paid.values())
    if any(v < 0 for v in paid.values()) or total > t.pool or (whole and total != t.pool):
        raise LedgerMismatch(f"Il montepremi ha {t.pool} fiches: non può pagarne {total}.")
    await credit_all(conn, t.guild_id, paid.items())
    if total:
        await tables.set_pot(conn, t.pool_table_id, t.pool, t.pool - total)
    await record(
        conn,
        guild_id=t.guild_id,
        reason=reason,
        entries=[
            *(Entry("balance", a, user_id=holder(u)) for u, a in paid.items()),
            Entry("pot", -total, table_id=t.pool_table_id),
        ],
        table_id=t.pool_table_id,
        tournament_id=t.id,
        now=now,
    )


async def unregister(
    conn: Conn, *, tournament_id: int, user_id: int, refund: int, state_json: str, token: str | None, now: int
) -> None:
    """A withdrawal before the start: the buy-in back to the balance, the state without him."""
    t = await _locked(conn, tournament_id, token, "iscrizioni")
    await _pay_out(conn, t, {user_id: refund}, "refund", now, whole=False)
    await _save_state(conn, tournament_id, state_json)


async def cancel(
    conn: Conn,
    *,
    tournament_id: int,
    refunds: Mapping[int, int],
    state_json: str,
    token: str | None,
    now: int,
) -> None:
    """Call the tournament off: every buy-in back, the pool emptied and closed."""
    t = await _locked(conn, tournament_id, token, *LIVE)
    await _pay_out(conn, t, refunds, "refund", now, whole=True)
    # A hand a restart interrupted is noted 'cancelled' by the next hand's note: there is none now.
    await conn.execute(
        "UPDATE tournament_hands SET status = 'cancelled' WHERE tournament_id = ? AND status = 'running'",
        (tournament_id,),
    )
    await conn.execute(
        "UPDATE tournaments SET status = 'annullato', state = ?, finished_at = ?, announced = 1 WHERE id = ?",
        (state_json, now, tournament_id),
    )
    await _close_pool(conn, t.pool_table_id, now)


async def start(conn: Conn, *, tournament_id: int, state_json: str, token: str | None) -> None:
    """Registration closed: the first state of play."""
    await _locked(conn, tournament_id, token, "iscrizioni")
    await conn.execute(
        "UPDATE tournaments SET status = 'in_corso', state = ? WHERE id = ?", (state_json, tournament_id)
    )


async def save(
    conn: Conn,
    *,
    tournament_id: int,
    state_json: str,
    hands: Sequence[HandNote] = (),
    token: str | None,
    now: int,
) -> None:
    """The state at a deal or a hand boundary (the tournament, its table and the hands noted with it
    together: that hand, and any whose note an earlier write failed to store)."""
    await _locked(conn, tournament_id, token, "in_corso")
    await _save_state(conn, tournament_id, state_json)
    await _note_hands(conn, tournament_id, hands, now)


async def finish(
    conn: Conn,
    *,
    tournament_id: int,
    prizes: Mapping[int, int],
    state_json: str,
    hands: Sequence[HandNote] = (),
    places: Mapping[int, int] | None = None,
    token: str | None,
    now: int,
) -> bool:
    """The last boundary: status 'finito', the last hand noted, every prize paid and the pool emptied,
    and each entrant's place (`places`, for /statistiche) stored, in one transaction.

    Idempotent: a tournament already finished is left alone and False is returned (its prizes
    were paid by the transaction that finished it)."""
    t = await _locked(conn, tournament_id, token, "in_corso", "finito")
    if t.status == "finito":
        return False
    await _pay_out(conn, t, prizes, "close", now, whole=True)
    await conn.execute(
        "UPDATE tournaments SET status = 'finito', state = ?, finished_at = ? WHERE id = ?",
        (state_json, now, tournament_id),
    )
    await _close_pool(conn, t.pool_table_id, now)
    await _note_hands(conn, tournament_id, hands, now)
    if places:
        rows = [
            (tournament_id, t.guild_id, user, place, prizes.get(user, 0)) for user, place in places.items()
        ]
        await conn.execute(
            "INSERT INTO tournament_places (tournament_id, guild_id, user_id, place, prize) VALUES "
            + ", ".join(["(?, ?, ?, ?, ?)"] * len(rows)),
            [value for row in rows for value in row],
        )
    return True


async def set_message(conn: Conn, *, tournament_id: int, message_id: int | None, token: str | None) -> None:
    await _locked(conn, tournament_id, token, *STATUSES)
    await conn.execute("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))


async def mark_announced(conn: Conn, *, tournament_id: int, token: str | None) -> None:
    await _locked(conn, tournament_id, token, *STATUSES)
    await conn.execute("UPDATE tournaments SET announced = 1 WHERE id = ?", (tournament_id,))


async def live(conn: Conn, shards: tables.Shards | None = None) -> list[TournamentRow]:
    """The tournaments still to play or to announce, of the guilds on ``shards`` when given (as
    `tables.open_tables`)."""
    where, args = tables.shard_filter(shards, alias="t")
    rows = await conn.fetch(
        f"SELECT {_columns()} FROM tournaments AS t JOIN poker_tables AS p ON p.id = t.pool_table_id"
        f" WHERE (t.status IN ('iscrizioni', 'in_corso') OR t.announced = 0){where} ORDER BY t.id",
        args,
    )
    return [_row(r) for r in rows]


async def check(conn: Conn, guild_id: int | None) -> list[str]:
    """The pools against the tournaments: a live tournament's pool holds exactly one buy-in per
    entrant its state lists; a finished or cancelled one's pool table is closed and empty."""
    problems: list[str] = []
    rows = await conn.fetch(
        "SELECT t.id, t.status, t.config, t.state, p.pot, p.status FROM tournaments AS t"
        " JOIN poker_tables AS p ON p.id = t.pool_table_id"
        " WHERE CAST(? AS BIGINT) IS NULL OR t.guild_id = ?",
        (guild_id, guild_id),
    )
    for tid, status, config, state, pot, pool_status in rows:
        if status in LIVE:
            buy_in = int(json.loads(config).get("buy_in", 0))
            entrants = len(json.loads(state).get("tournament", {}).get("players", []))
            if int(pot) != buy_in * entrants or pool_status != "open":
                problems.append(
                    f"tournament {tid}: pool {pot} ({pool_status}) but {entrants} entrants of {buy_in}"
                )
        elif int(pot) != 0 or pool_status != "closed":
            problems.append(f"tournament {tid} is {status} but its pool holds {pot} ({pool_status})")
    return problems
