"""Tables, seats and hands: every SQL statement that moves chips between balances and tables.

Hands are written at their boundaries: `begin_hand` stores the start-of-hand snapshot, `finish_hand`
the result. Between the two the seats keep their start-of-hand stacks, except that a player who
leaves takes his remaining stack at once (`release_mid_hand`, noted in `hand_seats.released`); that
is what makes cancelling an interrupted hand (`recover_table`) exact. All functions run inside a
transaction opened by `Storage`; a seat or pot is changed only by a compare-and-set UPDATE whose row
count is checked. Every write to a table first locks its row (``FOR UPDATE``, for other processes on
PostgreSQL) and checks that this process may write it (the table's owner, see `claim_tables`).

The hand boundaries run on every hand, so they are written in few statements: the lock returns the
table's row, one query reads the seats and the hand, rows of several players are written by one
statement each (`Conn.rows`), and `finish_hand`'s independent writes go as one batch (`Conn.batch`).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence

from bot.storage.errors import (
    NOT_OWNED,
    AlreadySeated,
    HandInProgress,
    HandNotRunning,
    LedgerMismatch,
    NotSeated,
    TableAlreadyOpen,
    TableNotFound,
    TableNotOwned,
)
from bot.storage.ledger import (
    HOUSE,
    Entry,
    credit,
    credit_all,
    debit,
    ensure_account,
    fund_house,
    holder,
    is_computer,
    movement,
    record,
)
from bot.storage.models import HandPlayer, TableRow
from bot.storage.sql import Conn, Statement, placeholders
from bot.storage.stats import hand_players_insert

__all__ = [
    "Shards",
    "begin_hand",
    "buy_in",
    "cash_out",
    "check_owner",
    "claim_tables",
    "close_table",
    "computer_levels",
    "create_table",
    "finish_hand",
    "house_balance",
    "open_tables",
    "recover_table",
    "release_mid_hand",
    "running_hands",
    "set_message",
    "set_pot",
    "shard_filter",
]

_NO_TABLE = "Questo tavolo non esiste o è già stato chiuso."

Shards = tuple[Collection[int], int]
"""(shard ids, shard count): the tables of the guilds with ``(guild_id >> 22) % count`` in the ids,
the formula Discord uses to place a guild on a gateway shard."""


def shard_filter(shards: Shards | None, alias: str = "poker_tables") -> tuple[str, list[object]]:
    """A WHERE fragment (starting with AND) and its arguments; nothing when `shards` is None."""
    if shards is None:
        return "", []
    ids, count = shards
    wanted = sorted(set(ids))
    return f" AND (({alias}.guild_id >> 22) % ?) IN ({placeholders(len(wanted))})", [count, *wanted]


def check_owner(owner: str | None, token: str | None) -> None:
    """A table with an owner may be written only by the process holding that owner's token."""
    if owner is not None and owner != token:
        raise TableNotOwned(NOT_OWNED)


async def _open_table(conn: Conn, table_id: int, token: str | None) -> tuple[int, int]:
    """Lock an open table this process may write; return (guild_id, pot).

    Every write to a table starts here, so the lock and the ownership check come before anything
    else is read or changed. The lock and the read are one statement: PostgreSQL returns the row as
    the lock holder before us left it. What other rows say (seats, hands) is read by the next
    statement, whose snapshot is taken after the lock.
    """
    row = await conn.fetchone(
        f"SELECT guild_id, pot, owner FROM poker_tables WHERE id = ? AND status = 'open'{conn.for_update}",
        (table_id,),
    )
    if row is None:
        raise TableNotFound(_NO_TABLE)
    guild_id, pot, owner = row
    check_owner(owner, token)
    return int(guild_id), int(pot)


async def _table_and_hand(conn: Conn, table_id: int, token: str | None) -> tuple[int, int, int | None]:
    """Lock an open table this process may write; return (guild_id, pot, running hand id or None)."""
    guild_id, pot = await _open_table(conn, table_id, token)
    return guild_id, pot, await _running_hand(conn, table_id)


async def _seats(conn: Conn, table_id: int) -> dict[int, int]:
    rows = await conn.fetch("SELECT user_id, stack FROM seats WHERE table_id = ?", (table_id,))
    return {int(u): int(s) for u, s in rows}


async def _running_hand(conn: Conn, table_id: int) -> int | None:
    row = await conn.fetchone("SELECT id FROM hands WHERE table_id = ? AND status = 'running'", (table_id,))
    return None if row is None else int(row[0])


async def _in_hand(conn: Conn, hand_id: int) -> dict[int, int]:
    rows = await conn.fetch("SELECT user_id, start_stack FROM hand_seats WHERE hand_id = ?", (hand_id,))
    return {int(u): int(s) for u, s in rows}


async def _seats_and_hand(
    conn: Conn, table_id: int, hand_id: int
) -> tuple[int | None, dict[int, int], dict[int, int], dict[int, int]]:
    """The table's running hand (None if none), its seats, the start-of-hand stacks of hand
    `hand_id` and who left it mid-hand with the chips they took back then, in one query."""
    rows = await conn.fetch(
        "SELECT 0, user_id, stack, NULL FROM seats WHERE table_id = ?"
        " UNION ALL SELECT 1, user_id, start_stack, released FROM hand_seats WHERE hand_id = ?"
        " UNION ALL SELECT 2, id, NULL, NULL FROM hands WHERE table_id = ? AND status = 'running'",
        (table_id, hand_id, table_id),
    )
    running: int | None = None
    seats: dict[int, int] = {}
    in_hand: dict[int, int] = {}
    released: dict[int, int] = {}
    for kind, user_id, stack, gave_back in rows:
        if kind == 0:
            seats[int(user_id)] = int(stack)
        elif kind == 1:
            in_hand[int(user_id)] = int(stack)
            if gave_back is not None:
                released[int(user_id)] = int(gave_back)
        else:
            running = int(user_id)
    return running, seats, in_hand, released


async def _set_stack(conn: Conn, table_id: int, user_id: int, old: int, new: int) -> None:
    changed = await conn.execute(
        "UPDATE seats SET stack = ? WHERE table_id = ? AND user_id = ? AND stack = ?",
        (new, table_id, user_id, old),
    )
    if changed != 1:
        raise LedgerMismatch("Le fiches del tavolo sono cambiate nel frattempo: operazione annullata.")


def _set_stacks(conn: Conn, table_id: int, changes: list[tuple[int, int, int]]) -> Statement:
    """The compare-and-set of several seats, (user_id, old, new) each, as one statement; its row
    count equals the number of changes only if every seat still held its old stack."""
    source, args = conn.rows(_STACK_CHANGE, changes)
    return (
        f"UPDATE seats SET stack = v.new_stack FROM {source} AS v"
        " WHERE seats.table_id = ? AND seats.user_id = v.user_id AND seats.stack = v.old_stack",
        [*args, table_id],
    )


_STACK_CHANGE = (("user_id", "BIGINT"), ("old_stack", "BIGINT"), ("new_stack", "BIGINT"))


async def set_pot(conn: Conn, table_id: int, old: int, new: int) -> None:
    changed = await conn.execute(
        "UPDATE poker_tables SET pot = ? WHERE id = ? AND pot = ?", (new, table_id, old)
    )
    if changed != 1:
        raise LedgerMismatch("Le fiches del tavolo sono cambiate nel frattempo: operazione annullata.")


async def _save_state(conn: Conn, table_id: int, state_json: str | None) -> None:
    if state_json is not None:
        await conn.execute("UPDATE poker_tables SET state = ? WHERE id = ?", (state_json, table_id))


async def create_table(
    conn: Conn,
    *,
    guild_id: int,
    channel_id: int,
    creator_id: int,
    variant: str,
    options_json: str,
    state_json: str,
    owner: str | None,
    now: int,
) -> int:
    """Insert the table unless its channel has an open one (the partial unique index decides, so two
    processes creating a table in one channel at once cannot both succeed)."""
    created = await conn.fetch(
        "INSERT INTO poker_tables"
        " (guild_id, channel_id, creator_id, variant, options, state, owner, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (channel_id) WHERE status = 'open' DO NOTHING RETURNING id",
        (guild_id, channel_id, creator_id, variant, options_json, state_json, owner, now),
    )
    if not created:
        raise TableAlreadyOpen("In questo canale c'è già un tavolo aperto.")
    return int(created[0][0])


async def buy_in(
    conn: Conn,
    *,
    table_id: int,
    user_id: int,
    amount: int,
    state_json: str | None,
    starting_chips: int,
    token: str | None,
    now: int,
    level: str | None = None,
) -> None:
    """Move `amount` from the balance to a new seat; allowed during a hand (he waits for the next one).

    A computer player (negative id, with his `level`) is staked by the server's house account, which
    is funded first if it runs short (`ledger.fund_house`); his level is kept for restarts.
    """
    guild_id, _ = await _open_table(conn, table_id, token)
    if is_computer(user_id) != (level is not None):
        raise ValueError("a computer player (and only he) sits with a level")
    if level is not None:
        await fund_house(conn, guild_id, amount, starting_chips=starting_chips, now=now)
        await conn.execute(
            "INSERT INTO computers (table_id, user_id, level) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id, user_id) DO UPDATE SET level = excluded.level",
            (table_id, user_id, level),
        )
    else:
        await ensure_account(conn, guild_id, user_id, starting_chips=starting_chips, now=now)
    seated = await conn.execute(
        "INSERT INTO seats (table_id, user_id, stack) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (table_id, user_id, amount),
    )
    if seated != 1:
        raise AlreadySeated("Sei già seduto a questo tavolo.")
    await debit(conn, guild_id, holder(user_id), amount)
    await record(
        conn,
        guild_id=guild_id,
        reason="buy_in",
        table_id=table_id,
        entries=[
            Entry("balance", -amount, user_id=holder(user_id)),
            Entry("seat", amount, user_id=user_id, table_id=table_id),
        ],
        now=now,
    )
    await _save_state(conn, table_id, state_json)


async def cash_out(
    conn: Conn, *, table_id: int, user_id: int, state_json: str | None, token: str | None, now: int
) -> int:
    """Move the whole seat back to the balance; refused while the player is in the running hand."""
    guild_id, _, hand_id = await _table_and_hand(conn, table_id, token)
    if hand_id is not None and user_id in await _in_hand(conn, hand_id):
        raise HandInProgress(
            "Non puoi ritirare le fiches durante la mano: torneranno al tuo saldo appena finisce."
        )
    row = await conn.fetchone(
        "DELETE FROM seats WHERE table_id = ? AND user_id = ? RETURNING stack", (table_id, user_id)
    )
    if row is None:
        raise NotSeated("Non sei seduto a questo tavolo.")
    stack = int(row[0])
    await credit(conn, guild_id, holder(user_id), stack)
    await record(
        conn,
        guild_id=guild_id,
        reason="cash_out",
        table_id=table_id,
        entries=[
            Entry("seat", -stack, user_id=user_id, table_id=table_id),
            Entry("balance", stack, user_id=holder(user_id)),
        ],
        now=now,
    )
    await _save_state(conn, table_id, state_json)
    return stack


async def release_mid_hand(
    conn: Conn, *, table_id: int, hand_id: int, user_id: int, amount: int, token: str | None, now: int
) -> None:
    """Move a leaver's remaining stack from his seat to his balance while the hand goes on.

    He is folded, so `amount` is final; what he put in the pot stays in his seat until the hand's
    result moves it. The release is noted in `hand_seats.released` in the same transaction, which is
    what `recover_table` and `finish_hand` read.
    """
    guild_id, _ = await _open_table(conn, table_id, token)
    running, seats, in_hand, released = await _seats_and_hand(conn, table_id, hand_id)
    if running != hand_id:
        raise HandNotRunning("Questa mano non è più in corso: è già finita o è stata annullata.")
    if user_id not in in_hand:
        raise NotSeated("Non eri seduto al tavolo quando la mano è iniziata.")
    if user_id in released:
        raise _mismatch("le fiches di chi ha lasciato la mano gli sono già state restituite")
    have = seats.get(user_id)
    if have is None:
        raise NotSeated("Non sei seduto a questo tavolo.")
    if amount > have:
        raise _mismatch("si restituirebbero più fiches di quelle del posto")
    if amount:
        await _set_stack(conn, table_id, user_id, have, have - amount)
        await credit(conn, guild_id, holder(user_id), amount)
        await record(
            conn,
            guild_id=guild_id,
            reason="cash_out",
            table_id=table_id,
            hand_id=hand_id,
            entries=[
                Entry("seat", -amount, user_id=user_id, table_id=table_id),
                Entry("balance", amount, user_id=holder(user_id)),
            ],
            now=now,
        )
    await conn.execute(
        "UPDATE hand_seats SET released = ? WHERE hand_id = ? AND user_id = ? AND released IS NULL",
        (amount, hand_id, user_id),
    )


async def set_message(conn: Conn, *, table_id: int, message_id: int | None, token: str | None) -> None:
    await _open_table(conn, table_id, token)
    await conn.execute("UPDATE poker_tables SET message_id = ? WHERE id = ?", (message_id, table_id))


async def save_state(conn: Conn, *, table_id: int, state_json: str, token: str | None) -> None:
    """The engine's state between hands, when only its seats' flags changed (a player back in the
    game): no chip moves, so no movement; refused while a hand runs (its start state is kept)."""
    _, _, running = await _table_and_hand(conn, table_id, token)
    if running is not None:
        raise HandInProgress("A questo tavolo c'è una mano in corso.")
    await conn.execute("UPDATE poker_tables SET state = ? WHERE id = ?", (state_json, table_id))


def _mismatch(what: str) -> LedgerMismatch:
    return LedgerMismatch(f"Le fiches del tavolo non corrispondono al registro: {what}.")


async def begin_hand(
    conn: Conn,
    *,
    table_id: int,
    stacks: dict[int, int],
    pot: int,
    state_json: str,
    token: str | None,
    now: int,
) -> int:
    """Write the start-of-hand snapshot after checking that the engine and the ledger agree.

    Written first and checked after (a refusal rolls the whole transaction back): the table's row is
    locked by the UPDATE that stores the new state, which returns the pot and the owner to check; the
    hand's row is inserted unless the table has a running hand (the partial unique index decides);
    its seats are copied from the table's seats by the statement that returns them for the check.
    """
    row = await conn.fetchone(
        "UPDATE poker_tables SET state = ? WHERE id = ? AND status = 'open' RETURNING pot, owner",
        (state_json, table_id),
    )
    if row is None:
        raise TableNotFound(_NO_TABLE)
    check_owner(row[1], token)
    db_pot = int(row[0])
    started = await conn.fetch(
        "INSERT INTO hands (table_id, number, started_at, start_pot, start_state)"
        " SELECT ?, COALESCE(MAX(number), 0) + 1, ?, ?, ? FROM hands WHERE table_id = ?"
        " ON CONFLICT (table_id) WHERE status = 'running' DO NOTHING RETURNING id",
        (table_id, now, pot, state_json, table_id),
    )
    if not started:
        raise HandInProgress("A questo tavolo c'è già una mano in corso.")
    hand_id = int(started[0][0])
    copied = await conn.fetch(
        "INSERT INTO hand_seats (hand_id, user_id, start_stack)"
        " SELECT ?, user_id, stack FROM seats WHERE table_id = ? RETURNING user_id, start_stack",
        (hand_id, table_id),
    )
    seats = {int(u): int(s) for u, s in copied}
    for user_id in seats.keys() | stacks.keys():
        if stacks.get(user_id, 0) != seats.get(user_id, 0):
            raise _mismatch("la mano non può iniziare")
        if user_id not in seats:
            raise _mismatch("un giocatore senza posto non può giocare la mano")
    if pot != db_pot:
        raise _mismatch("la mano non può iniziare")
    return hand_id


async def finish_hand(
    conn: Conn,
    *,
    table_id: int,
    hand_id: int,
    stacks: dict[int, int],
    pot: int,
    state_json: str,
    record_json: str,
    token: str | None,
    now: int,
    players: Sequence[HandPlayer] = (),
) -> None:
    """Write the new stacks, pot, state and record; refused unless every chip is accounted for.

    ``players`` are the hand's per-player summaries (bot/hand_summary.py), stored in the same
    transaction (`stats.hand_players_insert`) with each player's result as this ledger wrote it.

    The table is locked and the hand checked to be the running one in the same transaction, so a
    second application of the same result (a retry, another process) is refused with `HandNotRunning`.
    """
    guild_id, db_pot = await _open_table(conn, table_id, token)
    running, seats, in_hand, released = await _seats_and_hand(conn, table_id, hand_id)
    if running != hand_id:
        raise HandNotRunning("Questa mano non è più in corso: è già finita o è stata annullata.")
    if not stacks.keys() <= seats.keys():
        raise _mismatch("un giocatore senza posto non può ricevere fiches")
    if any(stack != 0 for user_id, stack in seats.items() if user_id not in stacks):
        raise _mismatch("manca lo stack di un giocatore seduto")
    if any(stacks[u] != seats[u] for u in stacks if u not in in_hand):
        raise _mismatch("lo stack di chi non giocava la mano è cambiato")
    if sum(stacks.values()) + pot != sum(seats[u] for u in stacks) + db_pot:
        raise _mismatch("la mano creerebbe o distruggerebbe fiches")
    if not {p.user_id for p in players} <= in_hand.keys():
        raise _mismatch("il riepilogo della mano nomina chi non era seduto")
    changed = [(u, seats[u], new) for u, new in sorted(stacks.items()) if new != seats[u]]
    entries = [Entry("seat", new - old, user_id=u, table_id=table_id) for u, old, new in changed]
    if pot != db_pot:
        entries.append(Entry("pot", pot - db_pot, table_id=table_id))
    ends = {u: stacks.get(u, seats.get(u, 0)) + released.get(u, 0) for u in in_hand}
    results = {u: end - in_hand[u] for u, end in ends.items()}
    appended = await movement(
        conn, guild_id=guild_id, reason="hand", table_id=table_id, hand_id=hand_id, entries=entries, now=now
    )
    # Every other write in one batch (one statement on PostgreSQL): each touches its own table and
    # none reads what another writes (the hand_players rows read only the table's guild and variant).
    # First the compare-and-sets of the changed seats and of the pot (with the new state; the pot
    # may be unchanged), whose row counts are checked; the hand is marked finished last.
    writes: list[Statement] = [_set_stacks(conn, table_id, changed)] if changed else []
    writes.append(
        (
            "UPDATE poker_tables SET pot = ?, state = ? WHERE id = ? AND pot = ?",
            (pot, state_json, table_id, db_pot),
        )
    )
    if appended is not None:
        writes.append(appended[1])
    if ends:
        source, args = conn.rows(_END_STACK, list(ends.items()))
        writes.append(
            (
                f"UPDATE hand_seats SET end_stack = v.end_stack FROM {source} AS v"
                " WHERE hand_seats.hand_id = ? AND hand_seats.user_id = v.user_id",
                [*args, hand_id],
            )
        )
    summaries = hand_players_insert(
        conn, hand_id=hand_id, table_id=table_id, players=players, results=results
    )
    if summaries is not None:
        writes.append(summaries)
    writes.append(
        (
            "UPDATE hands SET status = 'finished', finished_at = ?, end_pot = ?, end_state = ?, record = ?"
            " WHERE id = ? AND status = 'running'",
            (now, pot, state_json, record_json, hand_id),
        )
    )
    counts = await conn.batch(writes)
    # Each changed seat matches at most one row (table and user) and the pot one (the table), so
    # the counts say whether every old value still held.
    seats_moved, pot_moved = (counts[0], counts[1]) if changed else (0, counts[0])
    if seats_moved != len(changed) or pot_moved != 1:
        raise LedgerMismatch("Le fiches del tavolo sono cambiate nel frattempo: operazione annullata.")


_END_STACK = (("user_id", "BIGINT"), ("end_stack", "BIGINT"))


async def close_table(
    conn: Conn, *, table_id: int, payouts: dict[int, int], token: str | None, now: int
) -> None:
    """Pay every chip at the table (seats and pot) back to balances and close it."""
    guild_id, db_pot, running = await _table_and_hand(conn, table_id, token)
    if running is not None:
        raise HandInProgress("Il tavolo si potrà chiudere alla fine della mano in corso.")
    seats = await _seats(conn, table_id)
    if sum(payouts.values()) != sum(seats.values()) + db_pot:
        raise _mismatch("i pagamenti devono restituire esattamente le fiches sul tavolo")
    # A computer's share of a carried pot goes to his seat first: all of a computer's chips leave
    # through his seat (they go back to the house's one balance, which cannot tell computers apart),
    # so the night's summary reads what he took back there (stats.table_summary). One who left before
    # (everyone left while the pot was carried) has no seat: his share goes straight to the house.
    shares = {
        u: amount - seats[u]
        for u, amount in sorted(payouts.items())
        if is_computer(u) and u in seats and amount > seats[u]
    }
    if shares:
        to_seats = [Entry("seat", share, user_id=u, table_id=table_id) for u, share in shares.items()]
        to_seats.append(Entry("pot", -sum(shares.values()), table_id=table_id))
        await record(conn, guild_id=guild_id, reason="close", table_id=table_id, entries=to_seats, now=now)
        db_pot -= sum(shares.values())
        seats = {u: stack + shares.get(u, 0) for u, stack in seats.items()}
    entries = [Entry("seat", -stack, user_id=u, table_id=table_id) for u, stack in sorted(seats.items())]
    entries.append(Entry("pot", -db_pot, table_id=table_id))
    for user_id, amount in sorted(payouts.items()):
        if amount:
            entries.append(Entry("balance", amount, user_id=holder(user_id)))
    await credit_all(conn, guild_id, payouts.items())
    await conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
    await conn.execute(
        "UPDATE poker_tables SET status = 'closed', pot = 0, closed_at = ? WHERE id = ? AND status = 'open'",
        (now, table_id),
    )
    await record(conn, guild_id=guild_id, reason="close", table_id=table_id, entries=entries, now=now)


async def running_hands(conn: Conn, shards: Shards | None = None) -> list[tuple[int, int]]:
    """(table_id, hand_id) of every hand that was started and never finished (in the given shards)."""
    where, args = shard_filter(shards, "t")
    rows = await conn.fetch(
        "SELECT h.table_id, h.id FROM hands AS h JOIN poker_tables AS t ON t.id = h.table_id"
        f" WHERE h.status = 'running' AND t.status = 'open'{where} ORDER BY h.table_id",
        args,
    )
    return [(int(t), int(h)) for t, h in rows]


async def recover_table(conn: Conn, *, table_id: int, hand_id: int, token: str | None, now: int) -> None:
    """Cancel an interrupted hand: start-of-hand stacks, pot and state come back; late joiners are refunded.

    Seats are written only at hand boundaries, so the stacks of the players in the hand normally
    still equal the snapshot; restoring them anyway keeps this correct whatever happened since.
    A player who sat down during the interrupted hand is not in the restored engine state, so his
    buy-in goes back to his balance. A player who left during it already took his remaining stack
    (`release_mid_hand`): he gets the rest of his start-of-hand stack on his balance and is not
    seated again (the registry drops him from the restored engine state).
    """
    guild_id, db_pot = await _open_table(conn, table_id, token)
    row = await conn.fetchone(
        "SELECT start_pot, start_state FROM hands WHERE id = ? AND table_id = ? AND status = 'running'",
        (hand_id, table_id),
    )
    if row is None:
        raise HandNotRunning("Questa mano non è più in corso: è già finita o è stata annullata.")
    start_pot, start_state = int(row[0]), str(row[1])
    _, seats, snapshot, released = await _seats_and_hand(conn, table_id, hand_id)
    entries: list[Entry] = []
    paid: list[tuple[int, int]] = []  # credited together at the end, in the accounts' order (`credit_all`)
    for user_id, start in sorted(snapshot.items()):
        if user_id in released:
            rest = seats.get(user_id)
            if rest is None:
                continue
            await conn.execute("DELETE FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id))
            paid.append((user_id, rest))
            entries.append(Entry("seat", -rest, user_id=user_id, table_id=table_id))
            entries.append(Entry("balance", rest, user_id=holder(user_id)))
            continue
        old = seats.get(user_id)
        if old is None:
            await conn.execute(
                "INSERT INTO seats (table_id, user_id, stack) VALUES (?, ?, 0)", (table_id, user_id)
            )
            old = 0
        if old != start:
            await _set_stack(conn, table_id, user_id, old, start)
            entries.append(Entry("seat", start - old, user_id=user_id, table_id=table_id))
    for user_id, stack in sorted(seats.items()):
        if user_id not in snapshot:
            await conn.execute("DELETE FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id))
            paid.append((user_id, stack))
            entries.append(Entry("seat", -stack, user_id=user_id, table_id=table_id))
            entries.append(Entry("balance", stack, user_id=holder(user_id)))
    if db_pot != start_pot:
        await set_pot(conn, table_id, db_pot, start_pot)
        entries.append(Entry("pot", start_pot - db_pot, table_id=table_id))
    if sum(e.amount for e in entries) != 0:
        # The seats, the pot or the snapshot were changed behind the ledger's back: restoring the
        # snapshot would create or destroy chips. Refused (rolled back); `Storage.recover` skips it.
        raise _mismatch("la mano interrotta non si può annullare senza creare o distruggere fiches")
    await credit_all(conn, guild_id, paid)
    await record(
        conn, guild_id=guild_id, reason="refund", table_id=table_id, hand_id=hand_id, entries=entries, now=now
    )
    await conn.execute("UPDATE hands SET status = 'cancelled', finished_at = ? WHERE id = ?", (now, hand_id))
    await conn.execute("UPDATE poker_tables SET state = ? WHERE id = ?", (start_state, table_id))


async def computer_levels(conn: Conn, table_id: int) -> dict[int, str]:
    """The level of each computer player seated at the table (user id -> 'facile' or 'esperto'),
    in the order they sat down (their last buy-in), as the registry keeps them."""
    rows = await conn.fetch(
        "SELECT c.user_id, c.level FROM computers AS c"
        " JOIN seats AS s ON s.table_id = c.table_id AND s.user_id = c.user_id WHERE c.table_id = ?"
        " ORDER BY (SELECT MAX(m.id) FROM entries AS e JOIN movements AS m ON m.id = e.movement_id"
        " WHERE m.reason = 'buy_in' AND e.account = 'seat' AND e.table_id = c.table_id"
        " AND e.user_id = c.user_id), c.user_id",
        (table_id,),
    )
    return {int(u): str(level) for u, level in rows}


async def house_balance(conn: Conn, guild_id: int) -> int:
    """What the server's house account holds now (0 before its first computer player)."""
    row = await conn.fetchone(
        "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, HOUSE)
    )
    return 0 if row is None else int(row[0])


async def claim_tables(conn: Conn, *, shards: Shards, token: str) -> list[int]:
    """Stamp `token` as the owner of every open table in the shards; return their ids.

    The UPDATE takes each row's lock, so it waits for a write still running on a table under its
    previous owner; from the commit on, only `token` may write to these tables.
    """
    where, args = shard_filter(shards)
    rows = await conn.fetch(
        f"UPDATE poker_tables SET owner = ? WHERE status = 'open'{where} RETURNING id", [token, *args]
    )
    return sorted(int(r[0]) for r in rows)


async def open_tables(
    conn: Conn, *, table_id: int | None = None, shards: Shards | None = None
) -> list[TableRow]:
    """Every open table (in the given shards), or only `table_id` if it is open.

    One statement whatever the number of tables (`Storage.table` runs it without a transaction on
    PostgreSQL): each table's row (kind 0) followed by its seats (kind 1: table, user, stack).
    """
    where, args = shard_filter(shards)
    chosen = (
        "FROM poker_tables WHERE status = 'open' AND (CAST(? AS BIGINT) IS NULL OR id = ?)"
        # A tournament's prize pool is a pot of its own row: no table to play (bot/storage/tournaments.py).
        " AND NOT EXISTS (SELECT 1 FROM tournaments AS tt WHERE tt.pool_table_id = poker_tables.id)"
        f"{where}"
    )
    rows = await conn.fetch(
        "SELECT 0, id, guild_id, channel_id, creator_id, variant, options, state, status, pot, message_id,"
        " (SELECT h.status FROM hands AS h WHERE h.table_id = poker_tables.id"
        " ORDER BY h.number DESC LIMIT 1),"
        " (SELECT h.id FROM hands AS h WHERE h.table_id = poker_tables.id AND h.status = 'running'),"
        " (SELECT MAX(h.number) FROM hands AS h WHERE h.table_id = poker_tables.id)"
        f" {chosen}"
        " UNION ALL SELECT 1, table_id, user_id, stack, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
        " NULL"
        f" FROM seats WHERE table_id IN (SELECT id {chosen})"
        " ORDER BY 2, 1",
        [table_id, table_id, *args, table_id, table_id, *args],
    )
    tables: list[TableRow] = []
    for (
        kind,
        tid,
        guild_id,
        channel_id,
        creator_id,
        variant,
        options,
        state,
        status,
        pot,
        message,
        last,
        running,
        number,
    ) in rows:
        if kind == 1:  # a seat of the table just read: user id and stack in the next two columns
            tables[-1].seats[int(guild_id)] = int(channel_id)
            continue
        tables.append(
            TableRow(
                id=int(tid),
                guild_id=int(guild_id),
                channel_id=int(channel_id),
                creator_id=int(creator_id),
                variant=str(variant),
                options=json.loads(options),
                state=json.loads(state),
                status=str(status),
                pot=int(pot),
                seats={},
                running_hand_id=None if running is None else int(running),
                message_id=None if message is None else int(message),
                last_hand_status=None if last is None else str(last),
                last_hand_number=None if number is None else int(number),
            )
        )
    return tables
