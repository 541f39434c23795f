"""Turn timers on an injected clock: one per table, re-armed at every turn, stale expiries ignored."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.timers import ManualClock, TurnTimers
from tests.discord.gioco_support import Game, heads_up, stacked


async def settle_tasks() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_timer_fires_once_its_deadline_has_passed() -> None:
    fired: list[tuple[int, int]] = []

    async def expired(channel: int, token: int) -> None:
        fired.append((channel, token))

    clock = ManualClock(1000.0)
    timers = TurnTimers(expired, clock)
    assert timers.arm(7, 60) == 1060.0 and timers.deadline(7) == 1060.0
    clock.advance(59)
    await settle_tasks()
    assert fired == []
    clock.advance(1)
    await settle_tasks()
    assert len(fired) == 1 and fired[0][0] == 7
    await timers.close()


async def test_re_arming_replaces_the_timer_and_cancel_stops_it() -> None:
    fired: list[int] = []

    async def expired(channel: int, token: int) -> None:
        fired.append(token)

    clock = ManualClock(0.0)
    timers = TurnTimers(expired, clock)
    timers.arm(1, 10)
    clock.advance(5)
    timers.arm(1, 10)  # the player acted: a fresh period from now
    second = timers._armed[1].token
    clock.advance(6)
    await settle_tasks()
    assert fired == [], "the first timer was replaced"
    clock.advance(5)
    await settle_tasks()
    assert fired == [second]
    timers.arm(2, 10)
    timers.cancel(2)
    clock.advance(20)
    await settle_tasks()
    assert fired == [second] and len(timers) == 1
    await timers.close()
    assert len(timers) == 0


async def test_the_game_re_arms_the_timer_of_a_running_hand_when_loaded(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await game.start(alice, stacked(["Jh Js 9c Td Ah", "9h 9d Qc Kd As"]))
    sessions = harness.bot.sessions
    channel = harness.channel("poker").id
    sessions.timers.cancel(channel)
    assert sessions.timers.deadline(channel) is None
    await sessions.restore()  # what a start-up does for every restored table
    assert sessions.timers.deadline(channel) == game.clock.now() + 60
    await game.expire()
    assert f"<@{bob.id}> non risponde in tempo: passa." in game.message.content
    game.finish()


async def test_a_timeout_is_told_once_not_as_a_second_action(harness: Any) -> None:
    """Rules §5.5: a player who does not act in time passes (here: the opening). The table message
    tells it once, «non risponde in tempo: passa.», not again as «passa.» (the engine's
    PlayerTimedOut and the ActionTaken that follows it are one line, bot/render.py events_text)."""
    game, _, bob = await heads_up(harness)
    await game.expire()
    lines = game.message.content.splitlines()
    assert f"<@{bob.id}> non risponde in tempo: passa." in lines
    assert f"<@{bob.id}> passa." not in lines, "\n".join(lines)
    game.finish()
