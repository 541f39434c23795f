"""The one exception type a cog raises to refuse a request.

Engine refusals (`engine.errors.EngineError`) and ledger refusals (`bot.storage.StorageError`)
already carry an Italian sentence; `UserError` is the same thing for what only the Discord layer
knows (no table in this channel, not your table, ...). The error funnel in `bot.tree` shows all
three privately, verbatim.
"""

from __future__ import annotations

import asyncio

import aiohttp
import discord

__all__ = ["NETWORK_ERRORS", "StartupError", "UserError", "discord_failed"]

NETWORK_ERRORS = (aiohttp.ClientError, OSError, asyncio.TimeoutError)
"""Failures of a request to Discord below HTTP (beside `discord.HTTPException`): worth a retry or a
note, never a traceback."""


def discord_failed(error: BaseException) -> bool:
    """Whether Discord, not the request, failed: below HTTP, a 5xx, or rate limits past discord.py's
    retries. Worth a retry, never a traceback; any other HTTP error is a refusal no retry changes."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, (discord.RateLimited, *NETWORK_ERRORS))


class UserError(Exception):
    """A refusal whose message is one Italian sentence shown to the player as is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class StartupError(Exception):
    """The bot cannot start for a reason the host can fix (e.g. the database file); one Italian sentence."""
