"""A player's own settings in a server that are not chips: today whether he is called by a mention
when it is his turn (`/avvisi`, bot/turn_calls.py). No row means the defaults, so a player who never
chose anything costs no row. Plain values in and out, like the rest of the storage."""

from __future__ import annotations

from bot.storage.sql import Conn

__all__ = ["set_turn_calls", "turn_calls"]


async def turn_calls(conn: Conn, guild_id: int, user_id: int) -> bool:
    """Whether the player wants to be called on his turn (True unless he turned it off)."""
    row = await conn.fetchone(
        "SELECT turn_calls FROM player_settings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return True if row is None else bool(row[0])


async def set_turn_calls(conn: Conn, guild_id: int, user_id: int, enabled: bool) -> None:
    await conn.execute(
        "INSERT INTO player_settings (guild_id, user_id, turn_calls) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET turn_calls = excluded.turn_calls",
        (guild_id, user_id, int(enabled)),
    )
