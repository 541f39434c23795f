"""An interaction answered after Discord's 3 seconds (a process too busy to answer in time).

Discord then answers 404, code 10062 "Unknown interaction": nobody did anything wrong, so the bot logs
one WARNING line (no traceback, never an ERROR, which the fixture would fail) and tries nothing more
through that interaction. An action that was accepted before its answer expired is still played and
shown on the table message by the renderer.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from tests.discord.gioco_support import heads_up
from tests.discord.test_table_truth import converged

CALLBACK = "/callback"


async def answered_late(harness: Any, user: Any, command: str, **options: Any) -> None:
    """Run a slash command whose answer the fake receives past the deadline; wait until the bot is quiet."""
    before = len(harness.fake.rest_log)
    task = asyncio.create_task(harness.slash(user, command, channel="poker", settle=False, **options))
    try:
        await harness.fake.wait_for(
            lambda: any(
                CALLBACK in path and status == 404 for _method, path, status in harness.fake.rest_log[before:]
            ),
            f"the late answer to /{command}",
        )
        await harness.settle()
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    late = [v for v in harness.fake.violations if v.startswith("deadline:")]
    assert late, "the fake saw the answer come late"
    harness.fake.violations[:] = [v for v in harness.fake.violations if v not in late]


def tree_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "bot.tree"]


async def test_an_answer_past_the_deadline_is_one_warning_line(
    harness: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.tree")
    harness.rules.deadline = 0.0  # every answer arrives too late, as from an overloaded process
    await answered_late(harness, harness.user("alice"), "saldo")
    (record,) = tree_records(caplog)
    assert record.levelno == logging.WARNING
    assert "expired" in record.getMessage() and "10062" in record.getMessage()
    assert "\n" not in record.getMessage() and record.exc_info is None
    calls = [
        path for _method, path, _status in harness.fake.rest_log if CALLBACK in path or "/webhooks/" in path
    ]
    assert len(calls) == 1, "no second answer, no follow-up through the expired interaction"


async def test_an_action_whose_answer_expired_is_still_played_and_shown(
    harness: Any, caplog: pytest.LogCaptureFixture
) -> None:
    game, alice, bob = await heads_up(harness)
    caplog.set_level(logging.WARNING, logger="bot.tree")
    harness.rules.deadline = 0.0
    await answered_late(harness, bob, "passo")
    harness.rules.deadline = 3.0
    (record,) = tree_records(caplog)
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert game.table.to_act == alice.id, "the pass was played"
    await converged(harness, game)
    assert f"<@{bob.id}> passa." in game.message.content, "and the table message shows it"
    game.finish()
