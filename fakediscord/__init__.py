"""A loopback fake Discord for end-to-end tests of the real discord.py client (see README.md here)."""

from fakediscord.control import ControlClient
from fakediscord.interactions import CommandHidden, InteractionRecord, Reply
from fakediscord.limits import FormErrors, Upload
from fakediscord.model import (
    EPHEMERAL,
    MANAGE_GUILD,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
)
from fakediscord.ratelimit import Fault
from fakediscord.rules import Rules
from fakediscord.runner import ErrorWatch, RunningClient, point_discord_py_at, start_client
from fakediscord.server import LOOPBACK, BotFailure, FakeDiscord

__all__ = [
    "EPHEMERAL",
    "LOOPBACK",
    "MANAGE_GUILD",
    "BotFailure",
    "CommandHidden",
    "ControlClient",
    "ErrorWatch",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMessage",
    "FakeUser",
    "Fault",
    "FormErrors",
    "InteractionRecord",
    "Reply",
    "Rules",
    "RunningClient",
    "Upload",
    "point_discord_py_at",
    "start_client",
]
