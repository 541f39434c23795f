"""Hand summaries and what is read from them: players' statistics, a table's night, stored hands.

`hand_players_insert` runs inside `finish_hand`'s transaction, so a hand's summary rows exist exactly
when its chips moved. Everything else only reads, with aggregate queries over ``hand_players`` and
the ledger (no stored record is loaded to count anything). The SQL is the subset both SQLite and
PostgreSQL accept, as in the rest of the storage.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.storage.ledger import HOUSE
from bot.storage.models import (
    HandPlayer,
    SessionPlayer,
    StoredHand,
    TableSessionSummary,
    TournamentStats,
    VariantStats,
)
from bot.storage.sql import Conn, Statement

__all__ = ["hand_players_insert", "player_stats", "stored_hand", "table_summary", "tournament_stats"]


def hand_players_insert(
    conn: Conn,
    *,
    hand_id: int,
    table_id: int,
    players: Sequence[HandPlayer],
    results: dict[int, int],
) -> Statement | None:
    """The statement that writes one row per player dealt in (None without players), for
    `finish_hand`'s batch. ``results`` is each player's stack change as the ledger wrote it (end
    minus start, what he took away mid-hand included): the stored ``net`` is the ledger's own
    figure, so the statistics add up to the chips whatever the summary says."""
    if not players:
        return None
    source, args = conn.rows(
        _PLAYER_COLUMNS,
        [
            (
                p.user_id,
                results.get(p.user_id, p.net),
                int(p.won),
                p.pots_showdown,
                p.pots_uncontested,
                p.pot_won,
                p.shown_strength,
                p.shown_category,
                p.shown_text,
            )
            for p in players
        ],
    )  # every player in one statement
    return (
        "INSERT INTO hand_players (hand_id, guild_id, table_id, variant, user_id, net, won, pots_showdown,"
        " pots_uncontested, pot_won, shown_strength, shown_category, shown_text)"
        " SELECT ?, t.guild_id, t.id, t.variant, v.user_id, v.net, v.won, v.pots_showdown,"
        " v.pots_uncontested, v.pot_won, v.shown_strength, v.shown_category, v.shown_text"
        f" FROM poker_tables AS t, {source} AS v WHERE t.id = ?",
        [hand_id, *args, table_id],
    )


_PLAYER_COLUMNS = (
    ("user_id", "BIGINT"),
    ("net", "BIGINT"),
    ("won", "INTEGER"),
    ("pots_showdown", "INTEGER"),
    ("pots_uncontested", "INTEGER"),
    ("pot_won", "BIGINT"),
    ("shown_strength", "BIGINT"),
    ("shown_category", "INTEGER"),
    ("shown_text", "TEXT"),
)


async def player_stats(conn: Conn, guild_id: int, user_id: int) -> list[VariantStats]:
    """The player's statistics on one server, one entry per variant he played (by variant name)."""
    totals = await conn.fetch(
        "SELECT variant, COUNT(*), SUM(won), SUM(pots_showdown), SUM(pots_uncontested), SUM(net),"
        " MAX(pot_won) FROM hand_players WHERE guild_id = ? AND user_id = ?"
        " GROUP BY variant ORDER BY variant",
        (guild_id, user_id),
    )
    # The best hand shown per variant: the highest strength (the engine's order inside one ranking).
    best = await conn.fetch(
        "SELECT x.variant, x.shown_text FROM ("
        " SELECT variant, shown_text,"
        " ROW_NUMBER() OVER (PARTITION BY variant ORDER BY shown_strength DESC, hand_id) AS place"
        " FROM hand_players WHERE guild_id = ? AND user_id = ? AND shown_strength IS NOT NULL"
        ") AS x WHERE x.place = 1",
        (guild_id, user_id),
    )
    best_of = {str(variant): str(text) for variant, text in best}
    # A carried pot shared out when its table closed is no hand's result: what the closing paid him
    # beyond his stack (the balance credit less the seat emptied) belongs to his net all the same.
    # A tournament's prize pool also closes, but its prizes are the tournament's figures.
    shared = await conn.fetch(
        "SELECT t.variant, SUM(e.amount) FROM movements AS m"
        " JOIN entries AS e ON e.movement_id = m.id JOIN poker_tables AS t ON t.id = m.table_id"
        " WHERE m.reason = 'close' AND m.guild_id = ? AND e.user_id = ? AND e.account IN ('balance', 'seat')"
        " AND NOT EXISTS (SELECT 1 FROM tournaments AS tt WHERE tt.pool_table_id = t.id)"
        " GROUP BY t.variant",
        (guild_id, user_id),
    )
    shared_of = {str(variant): int(amount) for variant, amount in shared}
    played = {
        str(variant): VariantStats(
            variant=str(variant),
            hands=int(hands),
            won=int(won),
            pots_showdown=int(showdown),
            pots_uncontested=int(uncontested),
            net=int(net) + shared_of.get(str(variant), 0),
            biggest_pot=int(biggest),
            best_hand=best_of.get(str(variant)),
        )
        for variant, hands, won, showdown, uncontested, net, biggest in totals
    }
    # A share with no hand at that variant: he sat down after the pot was carried and the table closed.
    for variant, amount in shared_of.items():
        if variant not in played and amount:
            played[variant] = VariantStats(
                variant=variant,
                hands=0,
                won=0,
                pots_showdown=0,
                pots_uncontested=0,
                net=amount,
                biggest_pot=0,
                best_hand=None,
            )
    return [played[variant] for variant in sorted(played)]


async def tournament_stats(conn: Conn, guild_id: int, user_id: int) -> TournamentStats | None:
    """The player's finished tournaments on one server: places from `tournament_places` (written with
    the prizes), the net from the ledger (his balance entries of those tournaments: buy-ins, prizes)."""
    row = await conn.fetchone(
        "SELECT COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END),"
        " SUM(CASE WHEN prize > 0 THEN 1 ELSE 0 END), MIN(place),"
        " (SELECT COALESCE(SUM(e.amount), 0) FROM entries AS e"
        " JOIN movements AS m ON m.id = e.movement_id"
        " JOIN tournament_places AS q ON q.tournament_id = m.tournament_id AND q.user_id = e.user_id"
        " WHERE e.account = 'balance' AND e.guild_id = ? AND e.user_id = ?)"
        " FROM tournament_places WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id, guild_id, user_id),
    )
    if row is None or not row[0]:
        return None
    played, won, paid, best, net = row
    return TournamentStats(
        played=int(played), won=int(won), in_the_money=int(paid), best_place=int(best), net=int(net)
    )


async def table_summary(conn: Conn, table_id: int) -> TableSessionSummary | None:
    """A table's night: its whole life, from `/tavolo nuovo` to now (or to its closing).

    Each player's result is read from the ledger: the chips that went from his balance to this
    table (buy-ins), the chips that came back (leaving, closing, a cancelled hand's refund) and what
    is in front of him now. None when the table does not exist.
    """
    row = await conn.fetchone(
        "SELECT t.variant,"
        " (SELECT COUNT(*) FROM hands AS h WHERE h.table_id = t.id AND h.status = 'finished'),"
        " (SELECT COUNT(*) FROM hands AS h WHERE h.table_id = t.id AND h.status = 'cancelled')"
        " FROM poker_tables AS t WHERE t.id = ?",
        (table_id,),
    )
    if row is None:
        return None
    variant, hands, cancelled = str(row[0]), int(row[1]), int(row[2])
    moved = await conn.fetch(
        "SELECT e.user_id,"
        " SUM(CASE WHEN e.amount < 0 THEN -e.amount ELSE 0 END),"
        " SUM(CASE WHEN e.amount > 0 THEN e.amount ELSE 0 END)"
        " FROM entries AS e JOIN movements AS m ON m.id = e.movement_id"
        " WHERE m.table_id = ? AND e.account = 'balance' GROUP BY e.user_id",
        (table_id,),
    )
    seats = {
        int(u): int(s)
        for u, s in await conn.fetch("SELECT user_id, stack FROM seats WHERE table_id = ?", (table_id,))
    }
    flows = {int(u): (int(out), int(back)) for u, out, back in moved if int(u) != HOUSE}
    # A computer player's chips come from and go back to the house account (one balance for them
    # all): his flows are read from his seat instead, its buy-ins and what left it for the house.
    for u, out, back in await conn.fetch(
        "SELECT e.user_id,"
        " SUM(CASE WHEN m.reason = 'buy_in' THEN e.amount ELSE 0 END),"
        " SUM(CASE WHEN m.reason IN ('cash_out', 'close', 'refund') AND e.amount < 0"
        " THEN -e.amount ELSE 0 END)"
        " FROM entries AS e JOIN movements AS m ON m.id = e.movement_id"
        " WHERE m.table_id = ? AND e.account = 'seat' AND e.user_id < 0 GROUP BY e.user_id",
        (table_id,),
    ):
        flows[int(u)] = (int(out), int(back))
    players = tuple(
        sorted(
            (
                SessionPlayer(
                    user_id=user,
                    bought_in=flows.get(user, (0, 0))[0],
                    taken_out=flows.get(user, (0, 0))[1],
                    at_table=seats.get(user, 0),
                )
                for user in flows.keys() | seats.keys()
            ),
            key=lambda p: (-p.net, p.user_id),
        )
    )
    biggest = await conn.fetchone(
        "SELECT hp.pot_won, hp.user_id, h.number FROM hand_players AS hp JOIN hands AS h ON h.id = hp.hand_id"
        " WHERE hp.table_id = ? AND hp.pot_won > 0 ORDER BY hp.pot_won DESC, h.number, hp.user_id LIMIT 1",
        (table_id,),
    )
    best = await conn.fetchone(
        "SELECT hp.shown_text, hp.user_id, h.number"
        " FROM hand_players AS hp JOIN hands AS h ON h.id = hp.hand_id"
        " WHERE hp.table_id = ? AND hp.shown_strength IS NOT NULL"
        " ORDER BY hp.shown_strength DESC, h.number, hp.user_id LIMIT 1",  # a split pot: the lower id
        (table_id,),
    )
    return TableSessionSummary(
        table_id=table_id,
        variant=variant,
        hands=hands,
        cancelled=cancelled,
        players=players,
        biggest_pot=None if biggest is None else (int(biggest[0]), int(biggest[1]), int(biggest[2])),
        best_hand=None if best is None else (str(best[0]), int(best[1]), int(best[2])),
    )


async def stored_hand(conn: Conn, channel_id: int, number: int | None) -> StoredHand | None:
    """Hand `number` of the channel's latest table (the open one, or the last closed), or its latest
    hand that is over when `number` is None. None when the channel never had a table; status
    ``'missing'`` (and no record) when that table has no such hand.

    A tournament's table is its pool table (bot/storage/tournaments.py): its hands are the rows of
    `tournament_hands`, numbered by the tournament's table like a cash table's `hands`."""
    table = await conn.fetchone(
        "SELECT t.id, t.variant, r.id, COALESCE("
        "(SELECT MAX(h.number) FROM hands AS h WHERE h.table_id = t.id),"
        " (SELECT MAX(h.number) FROM tournament_hands AS h WHERE h.tournament_id = r.id), 0)"
        " FROM poker_tables AS t LEFT JOIN tournaments AS r ON r.pool_table_id = t.id"
        " WHERE t.channel_id = ? ORDER BY t.id DESC LIMIT 1",
        (channel_id,),
    )
    if table is None:
        return None
    table_id, variant, last = int(table[0]), str(table[1]), int(table[3])
    source, column, key = (
        ("hands", "table_id", table_id)
        if table[2] is None
        else ("tournament_hands", "tournament_id", int(table[2]))
    )
    hand = await conn.fetchone(
        f"SELECT number, status, record FROM {source} WHERE {column} = ?"
        " AND (CAST(? AS BIGINT) IS NULL AND status <> 'running' OR number = ?)"
        " ORDER BY number DESC LIMIT 1",
        (key, number, number),
    )
    if hand is None:
        return StoredHand(
            table_id=table_id,
            number=number or 0,
            status="missing",
            variant=variant,
            record=None,
            last_number=last,
        )
    return StoredHand(
        table_id=table_id,
        number=int(hand[0]),
        status=str(hand[1]),
        variant=variant,
        record=None if hand[2] is None else json.loads(hand[2]),
        last_number=last,
    )
