"""A table is busy for a new command while its lock is held, and also in the moment after a release
while commands are still queued for it: asyncio hands the lock to the first of them on its next
turn, so `locked()` says False, yet a new command would wait behind the whole queue and must be
acknowledged at once (bot/session.py `defer_privately_if_busy`)."""

from __future__ import annotations

import asyncio

from bot.session import busy


async def test_a_lock_released_to_a_queued_command_is_still_busy() -> None:
    lock = asyncio.Lock()
    assert not busy(lock)
    await lock.acquire()
    assert busy(lock)
    queued = asyncio.create_task(lock.acquire())
    await asyncio.sleep(0)  # the queued command waits for the lock
    lock.release()
    assert not lock.locked() and busy(lock), "handed on, not free"
    await queued
    assert busy(lock)
    lock.release()
    assert not busy(lock)


async def test_a_queued_command_that_gave_up_does_not_keep_the_table_busy() -> None:
    lock = asyncio.Lock()
    await lock.acquire()
    queued = asyncio.create_task(lock.acquire())
    await asyncio.sleep(0)
    queued.cancel()
    await asyncio.sleep(0)
    lock.release()
    assert not busy(lock)
