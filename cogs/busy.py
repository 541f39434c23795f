"""The first step of a command that changes a channel's table or tournament, shared by their cogs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.session import channel_of, defer_privately_if_busy

if TYPE_CHECKING:
    from bot.tables import TableRegistry

__all__ = ["busy_channel"]


async def busy_channel(interaction: discord.Interaction, tables: TableRegistry) -> int:
    """The channel of the command; acknowledged now, privately, if its table is busy (its lock is
    held), so Discord's three seconds to answer do not run out while the command waits."""
    channel_id = channel_of(interaction)
    await defer_privately_if_busy(interaction, tables.lock(channel_id))
    return channel_id
