"""Turn timers: one asyncio task per table, re-armed at every turn (rules §5.5).

The clock is injected so that tests move time forward instead of waiting: `SystemClock` in play,
`ManualClock` in tests. A timer is identified by a token; the expiry callback gets it back so the
game can tell a stale expiry (the player acted while the timer was waking up) from a real one.
The deadline is kept here, by channel, so the table message can show the countdown; after a restart
the game re-arms every table with a player to act (a fresh full period: the bot cannot know how
long it was down).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Clock", "ManualClock", "SystemClock", "TurnTimers"]

log = logging.getLogger(__name__)


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (the table message shows it as a Discord timestamp)."""
        ...

    async def sleep_until(self, deadline: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, deadline: float) -> None:
        delay = deadline - time.time()
        if delay > 0:
            await asyncio.sleep(delay)


class ManualClock:
    """A clock that only moves when told to: tests advance it past a deadline instead of sleeping."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._moved = asyncio.Event()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, deadline: float) -> None:
        while self._now < deadline:
            moved = self._moved
            await moved.wait()

    def advance(self, seconds: float) -> None:
        self._now += seconds
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()


Expiry = Callable[[int, int], Awaitable[None]]
"""``on_expiry(channel_id, token)``."""


@dataclass
class _Armed:
    token: int
    deadline: float
    task: asyncio.Task[None]


class TurnTimers:
    """The running turn timers, by channel id."""

    def __init__(self, on_expiry: Expiry, clock: Clock | None = None) -> None:
        self._on_expiry = on_expiry
        self.clock: Clock = clock if clock is not None else SystemClock()
        self._armed: dict[int, _Armed] = {}
        self._tokens = itertools.count(1)

    def arm(self, channel_id: int, seconds: float) -> float:
        """Start (or restart) the channel's timer; returns the deadline."""
        self.cancel(channel_id)
        token = next(self._tokens)
        deadline = self.clock.now() + seconds
        task = asyncio.get_running_loop().create_task(
            self._run(channel_id, token, deadline), name=f"turn-timer-{channel_id}"
        )
        self._armed[channel_id] = _Armed(token, deadline, task)
        return deadline

    def cancel(self, channel_id: int) -> None:
        armed = self._armed.pop(channel_id, None)
        if armed is not None and asyncio.current_task() is not armed.task:
            armed.task.cancel()

    def deadline(self, channel_id: int) -> float | None:
        armed = self._armed.get(channel_id)
        return None if armed is None else armed.deadline

    def current(self, channel_id: int, token: int) -> bool:
        """Whether ``token`` is still the channel's timer (not cancelled or replaced)."""
        armed = self._armed.get(channel_id)
        return armed is not None and armed.token == token

    def __len__(self) -> int:
        return len(self._armed)

    async def close(self) -> None:
        armed, self._armed = list(self._armed.values()), {}
        for item in armed:
            item.task.cancel()
        for item in armed:
            with contextlib.suppress(asyncio.CancelledError):
                await item.task

    async def _run(self, channel_id: int, token: int, deadline: float) -> None:
        await self.clock.sleep_until(deadline)
        if not self.current(channel_id, token):
            return
        try:
            await self._on_expiry(channel_id, token)
        except Exception:
            log.exception("Turn timer of channel %s failed", channel_id)
