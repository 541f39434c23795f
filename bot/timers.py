"""Turn timers: one timer per table, re-armed at every turn (rules §5.5).

A timer is a clock handle (`Clock.call_at`: the event loop's `TimerHandle` in play), not a task:
re-arming happens at every action of every table, and a handle costs a fraction of a task that
sleeps and is cancelled; only an expiry starts a task. The clock is injected so that tests move
time forward instead of waiting: `SystemClock` in play, `ManualClock` in tests. A timer is
identified by a token; the expiry callback gets it back so the game can tell a stale expiry (the
player acted while the timer was waking up) from a real one. The deadline is kept here, by
channel, so the table message can show the countdown; after a restart the game re-arms every table
with a player to act (a fresh full period: the bot cannot know how long it was down).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["Clock", "Handle", "ManualClock", "SystemClock", "TurnTimers"]

log = logging.getLogger(__name__)


class Handle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (the table message shows it as a Discord timestamp)."""
        ...

    def call_at(self, deadline: float, callback: Callable[[], None]) -> Handle:
        """Run ``callback`` on the event loop once ``deadline`` has passed, unless cancelled first."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    def call_at(self, deadline: float, callback: Callable[[], None]) -> Handle:
        return asyncio.get_running_loop().call_later(max(0.0, deadline - time.time()), callback)


@dataclass(eq=False)
class _ManualHandle:
    deadline: float
    callback: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        if not self.cancelled:
            self.callback()


class ManualClock:
    """A clock that only moves when told to: tests advance it past a deadline instead of sleeping."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._handles: list[_ManualHandle] = []

    def now(self) -> float:
        return self._now

    def call_at(self, deadline: float, callback: Callable[[], None]) -> Handle:
        handle = _ManualHandle(deadline, callback)
        self._handles.append(handle)
        self._fire_due()
        return handle

    def advance(self, seconds: float) -> None:
        self._now += seconds
        self._fire_due()

    def _fire_due(self) -> None:
        """Hand the due callbacks to the loop, in deadline order, as the loop's timers would run."""
        due = sorted((h for h in self._handles if h.deadline <= self._now), key=lambda h: h.deadline)
        if not due:
            return
        self._handles = [h for h in self._handles if h.deadline > self._now and not h.cancelled]
        loop = asyncio.get_running_loop()
        for handle in due:
            loop.call_soon(handle.fire)


Expiry = Callable[[int, int], Awaitable[None]]
"""``on_expiry(channel_id, token)``."""


@dataclass
class _Armed:
    token: int
    deadline: float
    handle: Handle
    task: asyncio.Task[None] | None = field(default=None)  # the expiry, once it runs


class TurnTimers:
    """The running turn timers, by channel id."""

    def __init__(self, on_expiry: Expiry, clock: Clock | None = None) -> None:
        self._on_expiry = on_expiry
        self.clock: Clock = clock if clock is not None else SystemClock()
        self._armed: dict[int, _Armed] = {}
        self._running: set[asyncio.Task[None]] = set()
        self._tokens = itertools.count(1)

    def arm(self, channel_id: int, seconds: float) -> float:
        """Start (or restart) the channel's timer; returns the deadline."""
        self.cancel(channel_id)
        token = next(self._tokens)
        deadline = self.clock.now() + seconds
        handle = self.clock.call_at(deadline, lambda: self._expire(channel_id, token))
        self._armed[channel_id] = _Armed(token, deadline, handle)
        return deadline

    def cancel(self, channel_id: int) -> None:
        armed = self._armed.pop(channel_id, None)
        if armed is None:
            return
        armed.handle.cancel()
        if armed.task is not None and asyncio.current_task() is not armed.task:
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
            item.handle.cancel()
            if item.task is not None:
                item.task.cancel()
        for item in armed:
            if item.task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await item.task

    def _expire(self, channel_id: int, token: int) -> None:
        armed = self._armed.get(channel_id)
        if armed is None or armed.token != token:
            return
        armed.task = task = asyncio.get_running_loop().create_task(
            self._run(channel_id, token), name=f"turn-timer-{channel_id}"
        )
        self._running.add(task)  # held until done, even once a new turn replaces the entry
        task.add_done_callback(self._running.discard)

    async def _run(self, channel_id: int, token: int) -> None:
        if not self.current(channel_id, token):
            return
        try:
            await self._on_expiry(channel_id, token)
        except Exception:
            log.exception("Turn timer of channel %s failed", channel_id)
