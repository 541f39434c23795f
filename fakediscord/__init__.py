"""A loopback fake Discord for end-to-end tests of the real discord.py client (see DESIGN.md, tests/)."""

from fakediscord.interactions import CommandHidden, InteractionRecord, Reply
from fakediscord.model import EPHEMERAL, MANAGE_GUILD, FakeChannel, FakeMessage, FakeUser
from fakediscord.runner import ErrorWatch, RunningClient, point_discord_py_at, start_client
from fakediscord.server import LOOPBACK, BotFailure, FakeDiscord

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
