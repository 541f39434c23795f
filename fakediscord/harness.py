"""`Harness`: the real PokerBot (bot.client) running against a FakeDiscord, with a fresh database.

bot.* is imported only when a harness starts, so the fake's own tests run before the bot exists.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from fakediscord.interactions import Reply
from fakediscord.model import FakeChannel, FakeMessage, FakeUser, Json
from fakediscord.rules import Rules
from fakediscord.runner import UNPATCHED, RunningClient, point_discord_py_at, start_client
from fakediscord.server import FakeDiscord

DEFAULT_SETTINGS: dict[str, Any] = {
    "token": "fake-token",
    "starting_chips": 1000,
    "daily_bonus": 200,
    "log_level": "INFO",
}


class Harness:
    """One test's guild: the fake, the bot, and the user actions of the contract in conftest.py."""

    def __init__(self, fake: FakeDiscord, database_path: Path, **settings: Any) -> None:
        self.fake = fake
        self.database_path = database_path
        self.settings_overrides = settings
        self.running: RunningClient | None = None
        self.starts = 0

    def make_settings(self) -> Any:
        from bot.config import Settings

        values = DEFAULT_SETTINGS | {
            "dev_guild_id": self.fake.guild_id,
            "database_path": self.database_path,
            "api_base": self.fake.api_base,
            "gateway_url": self.fake.gateway_url,
        }
        return Settings(**(values | self.settings_overrides))

    async def start(self) -> None:
        from bot.client import PokerBot

        self.settings = self.make_settings()
        # Anything the bot does not redirect itself must fail at once on loopback, never reach discord.com.
        point_discord_py_at(UNPATCHED, UNPATCHED.replace("http", "ws"))
        bot = PokerBot(self.settings, guild_ready_timeout=0.05)
        self.running = await start_client(self.fake, bot, token=self.settings.token)
        if self.fake.api_base != discord.http.Route.BASE:
            raise AssertionError(
                f"PokerBot did not apply settings.api_base: Route.BASE is {discord.http.Route.BASE}"
            )
        self.starts += 1

    @property
    def bot(self) -> Any:
        assert self.running is not None, "the bot is not running"
        return self.running.client

    async def close(self) -> None:
        if self.running is not None:
            running, self.running = self.running, None
            await running.close()

    async def restart(self) -> None:
        """`bot.close()` (what SIGINT/SIGTERM do), then a new PokerBot on the same database and fake."""
        await self.close()
        await self.start()

    # ----------------------------------------------------------------- the guild

    @property
    def guild_id(self) -> int:
        return self.fake.guild_id

    @property
    def channels(self) -> dict[str, FakeChannel]:
        return self.fake.channels

    def channel(self, name: str) -> FakeChannel:
        return self.fake.channel(name)

    @property
    def bot_user(self) -> FakeUser:
        return self.fake.bot_user

    def user(self, name: str, *, manage_guild: bool = False) -> FakeUser:
        return self.fake.user(name, manage_guild=manage_guild)

    # ----------------------------------------------------------------- user actions

    async def slash(self, user: FakeUser, command: str, **kwargs: Any) -> Reply:
        return await self.fake.slash(user, command, **kwargs)

    async def autocomplete(self, user: FakeUser, command: str, **kwargs: Any) -> Reply:
        return await self.fake.autocomplete(user, command, **kwargs)

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | Reply,
        *,
        label: str | None = None,
        custom_id: str | None = None,
    ) -> Reply:
        return await self.fake.click(user, message, label=label, custom_id=custom_id)

    async def select(
        self, user: FakeUser, message: FakeMessage | Reply, custom_id: str, values: list[Any]
    ) -> Reply:
        return await self.fake.select(user, message, custom_id, values)

    async def submit_modal(self, user: FakeUser, reply: Reply, values: dict[str, Any]) -> Reply:
        return await self.fake.submit_modal(user, reply, values)

    async def settle(self) -> None:
        await self.fake.settle()

    async def delete_message(self, message: FakeMessage | Reply, *, by: FakeUser | None = None) -> None:
        """A user or moderator deletes a message of the bot's; the bot hears MESSAGE_DELETE."""
        await self.fake.delete_message(message, by=by)

    @property
    def rules(self) -> Rules:
        """Discord's strict behaviours and rate limits, switchable for this test (fakediscord/rules.py)."""
        return self.fake.rules

    # ----------------------------------------------------------------- what the bot did

    def messages(self, channel: str | FakeChannel, *, include_ephemeral: bool = False) -> list[FakeMessage]:
        return self.fake.messages(channel, include_ephemeral=include_ephemeral)

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        return self.fake.dms(user)

    def close_dms(self, user: FakeUser) -> None:
        self.fake.close_dms(user)

    def public_texts(self) -> list[str]:
        return self.fake.public_texts()

    @property
    def rest_calls(self) -> list[tuple[str, str]]:
        return self.fake.rest_calls

    @property
    def synced_commands(self) -> list[Json]:
        return self.fake.synced_commands

    def command(self, name: str) -> Json:
        return self.fake.command(name)
