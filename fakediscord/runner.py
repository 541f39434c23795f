"""Run a real discord.py client against a FakeDiscord, and turn its silent failures into test failures.

discord.py logs exceptions from commands and views instead of raising them (its `on_error` hooks
only log), and a dying `connect()` task is only visible if someone looks: both are watched here and reported
through `FakeDiscord.failures`, so a waiting test stops at once with the cause instead of timing out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field

import discord
import yarl

from fakediscord.server import BotFailure, FakeDiscord

WATCHED_LOGGERS = ("discord", "bot", "cogs")
UNPATCHED = "http://127.0.0.1:9/endpoints-not-applied"  # port 9: refused at once, never the real Discord


def point_discord_py_at(api_base: str, gateway_url: str) -> None:
    """The only two redirection points discord.py 2.7.1 has (see test_discord_py_redirection_points)."""
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class ErrorWatch(logging.Handler):
    """Collects ERROR records from the bot's loggers; each one fails the test once."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(level=logging.ERROR)
        self.fake = fake
        self.records: list[logging.LogRecord] = []
        self.reported = 0
        self._formatter = logging.Formatter("%(name)s: %(message)s")

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # a worker thread: the next check sees the record anyway
        self.fake.poke()

    def install(self) -> None:
        for name in WATCHED_LOGGERS:
            logging.getLogger(name).addHandler(self)
        self.fake.failures.append(self.check)

    def remove(self) -> None:
        for name in WATCHED_LOGGERS:
            logging.getLogger(name).removeHandler(self)
        if self.check in self.fake.failures:
            self.fake.failures.remove(self.check)

    @classmethod
    def on(cls, fake: FakeDiscord) -> ErrorWatch:
        """The watch installed on `fake` (the Discord tests install one on every fake)."""
        for failure in fake.failures:
            watch = getattr(failure, "__self__", None)
            if isinstance(watch, cls):
                return watch
        raise LookupError("no ErrorWatch is installed on this fake")

    @contextlib.contextmanager
    def expecting(self) -> Iterator[list[logging.LogRecord]]:
        """A step that must log an ERROR (damage for an operator to see, never a user's doing): its
        records go to the test, which checks them, instead of failing it. Outside the step the watch
        fails the test as before."""
        self.fake.failures.remove(self.check)
        start = self.reported  # an ERROR not reported yet belongs to the step too: the test sees it
        logged: list[logging.LogRecord] = []
        try:
            yield logged
        finally:
            logged.extend(self.records[start:])
            self.reported = len(self.records)
            self.fake.failures.append(self.check)

    def check(self) -> str | None:
        """The records not yet reported, as one message (they count as reported from now on)."""
        fresh = self.records[self.reported :]
        if not fresh:
            return None
        self.reported = len(self.records)
        return "the bot logged an ERROR:\n" + "\n".join(self._formatter.format(r) for r in fresh)


@dataclass
class RunningClient:
    """A client logged in to the fake, its `connect()` task, and whether we are closing it on purpose."""

    fake: FakeDiscord
    client: discord.Client
    task: asyncio.Task[None] | None = None
    closing: bool = False
    _reported: bool = field(default=False, repr=False)

    def check(self) -> str | None:
        task = self.task
        if task is None or not task.done() or self.closing or self._reported:
            return None
        self._reported = True
        if task.cancelled():
            return "the bot's connect() task was cancelled"
        exc = task.exception()
        if exc is None:
            return "the bot's connect() task ended although nobody closed the bot"
        return f"the bot's connect() task crashed: {exc!r}"

    async def close(self) -> None:
        """What SIGINT/SIGTERM do in production: `client.close()`; connect() must then end cleanly."""
        cause = self.check()
        self.closing = True
        try:
            await self.client.close()
            task = self.task
            if task is not None:
                done, _ = await asyncio.wait({task}, timeout=self.fake.timeout)
                if not done:
                    cause = cause or "the bot's connect() task did not end after close()"
                elif not task.cancelled() and task.exception() is not None and not self._reported:
                    cause = cause or f"the bot's connect() task crashed while closing: {task.exception()!r}"
        finally:
            if self.check in self.fake.failures:
                self.fake.failures.remove(self.check)
        if cause:
            raise BotFailure(cause)


async def start_client(
    fake: FakeDiscord, client: discord.Client, *, token: str = "fake-token"
) -> RunningClient:
    """Log `client` in to `fake`, connect its gateway and wait (bounded) until it is ready.

    The endpoints must already point at the fake (`point_discord_py_at`, or the bot's own settings);
    pass `guild_ready_timeout=0.05` to the client, or readiness waits discord.py's default 2 s.
    """
    running = RunningClient(fake, client)
    fake.failures.append(running.check)
    await client.login(token)
    running.task = asyncio.get_running_loop().create_task(client.connect(), name="fake-discord: connect()")
    running.task.add_done_callback(lambda _t: fake.poke())
    await fake.wait_for(client.is_ready, "the bot to become ready (READY + GUILD_CREATE handled)")
    return running
