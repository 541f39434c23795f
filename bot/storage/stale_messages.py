"""Table messages Discord has not taken the last edit of (bot/session.py `TableSession._note`): the
table's own message when its edits fail, and older ones still to end (no buttons; "hand over" when
they still showed their hand running), so that a restart in between shows or ends them.

Rows are rare: one is written only when an edit fails (Discord down or answering 5xx) or is still on
its way at the next deal, and removed once the message is up to date. No chip is involved."""

from __future__ import annotations

from bot.storage.sql import Conn
from bot.storage.tables import Shards, shard_filter

__all__ = ["forget", "left", "note"]


async def note(
    conn: Conn, *, channel_id: int, guild_id: int, message_id: int, hand_number: int | None
) -> None:
    """The message still shows hand ``hand_number`` running (None: it shows the hand's end and only
    its buttons must come off, or it is the table message, shown again); noted again, it takes the
    new hand number."""
    await conn.execute(
        "INSERT INTO stale_table_messages (channel_id, message_id, guild_id, hand_number) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (channel_id, message_id) DO UPDATE SET hand_number = excluded.hand_number",
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
