"""A loopback fake Discord for end-to-end tests of the real discord.py client (see DESIGN.md, tests/)."""

from tests.fake_discord.interactions import CommandHidden, InteractionRecord, Reply
from tests.fake_discord.model import EPHEMERAL, MANAGE_GUILD, FakeChannel, FakeMessage, FakeUser
from tests.fake_discord.runner import ErrorWatch, RunningClient, point_discord_py_at, start_client
from tests.fake_discord.server import LOOPBACK, BotFailure, FakeDiscord

__all__ = [
    "EPHEMERAL",
    "LOOPBACK",
    "MANAGE_GUILD",
    "BotFailure",
    "CommandHidden",
    "ErrorWatch",
    "FakeChannel",
    "FakeDiscord",
    "FakeMessage",
    "FakeUser",
    "InteractionRecord",
    "Reply",
    "RunningClient",
    "point_discord_py_at",
    "start_client",
]
