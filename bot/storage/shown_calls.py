"""The turn calls shown in the channels (bot/turn_calls.py), so that a bot that died without a clean
stop takes its last calls away after the restart instead of leaving them in the channel.

A call is shown rarely (only when a player stays silent past the grace period), so a row per call
costs two small writes per call shown: noted once posted, forgotten once deleted. A call Discord
failed to delete keeps its row, and the next start tries again. No chip is involved; a row left
behind for a call already gone (a crash between the deletion and the forgetting) only means a
deletion that Discord answers with "unknown message", which is fine."""

from __future__ import annotations

from bot.storage.sql import Conn
from bot.storage.tables import Shards, shard_filter

__all__ = ["forget", "left", "note"]


async def note(conn: Conn, *, channel_id: int, guild_id: int, message_id: int) -> None:
    """A call now shown in the channel."""
    await conn.execute(
        "INSERT INTO turn_calls_shown (channel_id, message_id, guild_id) VALUES (?, ?, ?)"
        " ON CONFLICT (channel_id, message_id) DO NOTHING",
        (channel_id, message_id, guild_id),
    )


async def forget(conn: Conn, *, channel_id: int, message_id: int) -> None:
    """That call is deleted from the channel."""
    await conn.execute(
        "DELETE FROM turn_calls_shown WHERE channel_id = ? AND message_id = ?", (channel_id, message_id)
    )


async def left(conn: Conn, shards: Shards | None = None) -> list[tuple[int, int]]:
    """(channel id, message id) of every call still noted, of the guilds on `shards` when given."""
    where, args = shard_filter(shards, "turn_calls_shown")
    rows = await conn.fetch(
        "SELECT channel_id, message_id FROM turn_calls_shown"
        f" WHERE 1 = 1{where} ORDER BY channel_id, message_id",
        args,
    )
    return [(int(c), int(m)) for c, m in rows]
