"""Older table messages still showing a turn and buttons because Discord failed the edit that ends
them (bot/session.py `TableSession.retire`), so that a restart in between still ends them.

Rows are rare: one is written only when that edit fails (Discord down or answering 5xx), and removed
once the edit is made. No chip is involved; a row left behind for a message already ended or deleted
only means one more edit at the next start, which Discord answers or refuses harmlessly."""

from __future__ import annotations

from bot.storage.sql import Conn
from bot.storage.tables import Shards, shard_filter

__all__ = ["forget", "left", "note"]


async def note(
    conn: Conn, *, channel_id: int, guild_id: int, message_id: int, hand_number: int | None
) -> None:
    """The message still shows hand ``hand_number`` running (None: it shows the hand's end and only
    its buttons must come off)."""
    await conn.execute(
        "INSERT INTO stale_table_messages (channel_id, message_id, guild_id, hand_number) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (channel_id, message_id) DO NOTHING",
        (channel_id, message_id, guild_id, hand_number),
    )


async def forget(conn: Conn, *, channel_id: int, message_id: int) -> None:
    """That message is ended (or gone)."""
    await conn.execute(
        "DELETE FROM stale_table_messages WHERE channel_id = ? AND message_id = ?", (channel_id, message_id)
    )


async def left(conn: Conn, shards: Shards | None = None) -> list[tuple[int, int, int | None]]:
    """(channel id, message id, hand number) of every message still noted, of the guilds on
    `shards` when given."""
    where, args = shard_filter(shards, "stale_table_messages")
    rows = await conn.fetch(
        "SELECT channel_id, message_id, hand_number FROM stale_table_messages"
        f" WHERE 1 = 1{where} ORDER BY channel_id, message_id",
        args,
    )
    return [(int(c), int(m), None if n is None else int(n)) for c, m, n in rows]
