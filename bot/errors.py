"""The one exception type a cog raises to refuse a request.

Engine refusals (`engine.errors.EngineError`) and ledger refusals (`bot.storage.StorageError`)
already carry an Italian sentence; `UserError` is the same thing for what only the Discord layer
knows (no table in this channel, not your table, ...). The error funnel in `bot.tree` shows all
three privately, verbatim.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Literal

import aiohttp
import discord

__all__ = ["NETWORK_ERRORS", "StartupError", "UserError", "discord_failed", "retried"]

NETWORK_ERRORS = (aiohttp.ClientError, OSError, asyncio.TimeoutError)
"""Failures of a request to Discord below HTTP (beside `discord.HTTPException`): worth a retry or a
note, never a traceback."""


def discord_failed(error: BaseException) -> bool:
    """Whether Discord, not the request, failed: below HTTP, a 5xx, or rate limits past discord.py's
    retries. Worth a retry, never a traceback; any other HTTP error is a refusal no retry changes."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, (discord.RateLimited, *NETWORK_ERRORS))


Outcome = Literal["done", "gone", "refused", "failed"]


async def retried(
    call: Callable[[], Awaitable[object]], *, tries: int, first: float, most: float
) -> tuple[Outcome, BaseException | None]:
    """A REST call made again while Discord fails it (`discord_failed`), with a pause doubling from
    ``first`` up to ``most``, at most ``tries`` times: ``done``; ``gone`` (404: the message or channel
    no longer exists); ``refused`` (an error no retry changes: a missing permission); ``failed``
    (Discord still failing). The error of the last attempt comes with the last two."""
    pause = first
    for attempt in range(1, tries + 1):
        try:
            await call()
            return "done", None
        except discord.NotFound as exc:
            return "gone", exc
        except (discord.HTTPException, discord.RateLimited, *NETWORK_ERRORS) as exc:
            if not discord_failed(exc):
                return "refused", exc
            if attempt == tries:
                return "failed", exc
        await asyncio.sleep(pause)
        pause = min(pause * 2, most)
    return "failed", None  # pragma: no cover - tries >= 1 returns in the loop


class UserError(Exception):
    """A refusal whose message is one Italian sentence shown to the player as is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class StartupError(Exception):
    """The bot cannot start for a reason the host can fix (e.g. the database file); one Italian sentence."""
