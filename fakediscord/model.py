"""The fake guild's people, places and messages, and the JSON payloads discord.py 2.7.1 expects for them.

Payload shapes follow what Discord sends discord.py 2.7.1; keys that discord.py reads with
``data[...]`` are always present, because a missing one surfaces as a KeyError deep inside the client.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000
# A fixed clock keeps ids and timestamps identical from run to run.
BASE_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z
TIMESTAMP = "2026-01-01T00:00:00.000000+00:00"

EPHEMERAL = 1 << 6
LOADING = 1 << 7

MANAGE_GUILD = 1 << 5
# What @everyone may do in the fake guild: see, write, embed, attach, read history, react, slash commands,
# use threads. Members get these; `manage_guild=True` adds MANAGE_GUILD.
MEMBER_PERMISSIONS = (
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) | (1 << 35) | (1 << 38)
)
# The bot additionally manages messages and threads, as the invite link would grant.
BOT_PERMISSIONS = MEMBER_PERMISSIONS | (1 << 13) | (1 << 34) | (1 << 36)


class Snowflakes:
    """Increasing snowflake ids on the fixed clock, so a later object always has a larger id."""

    def __init__(self) -> None:
        self._counter: Iterator[int] = itertools.count(1)

    def next(self) -> int:
        n = next(self._counter)
        return ((BASE_MS - DISCORD_EPOCH_MS + n) << 22) | (n & 0xFFF)


@dataclass(frozen=True)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    permissions: int = MEMBER_PERMISSIONS

    @property
    def manage_guild(self) -> bool:
        return bool(self.permissions & MANAGE_GUILD)

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name.capitalize(),
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_payload(self, *, with_permissions: bool = True) -> Json:
        data: Json = {
            "user": self.payload(),
            "nick": None,
            "avatar": None,
            "roles": [],
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(frozen=True)
class FakeChannel:
    """A guild text channel (type 0), a public thread (type 11) or a DM (type 1)."""

    id: int
    name: str
    type: int
    guild_id: int | None
    parent_id: int | None = None
    position: int = 0
    recipient: FakeUser | None = None

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    def payload(self, owner_id: int | None = None) -> Json:
        if self.type == 1:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "recipients": [self.recipient.payload()],
                "last_message_id": None,
            }
        data: Json = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "topic": None,
        }
        if self.type == 11:
            data.update(
                owner_id=str(owner_id or 0),
                message_count=0,
                member_count=1,
                total_message_sent=0,
                flags=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": TIMESTAMP,
                    "locked": False,
                },
            )
        return data


@dataclass(frozen=True)
class FakeGuild:
    id: int
    name: str


@dataclass(frozen=True)
class FakeAttachment:
    """A file the bot uploaded, with its bytes (`data`) as they arrived."""

    id: int
    filename: str
    size: int
    content_type: str
    data: bytes
    description: str | None = None


MENTION = re.compile(r"<@!?(\d+)>")


def notified_users(content: str, allowed_mentions: Json | None) -> list[int]:
    """Who a new message pings: the users its content mentions, filtered by `allowed_mentions` (absent:
    Discord's default, every mentioned user). Edits never ping anyone."""
    mentioned = [int(m) for m in dict.fromkeys(MENTION.findall(content))]
    if allowed_mentions is None or "users" in (allowed_mentions.get("parse") or []):
        return mentioned
    allowed = {int(u) for u in allowed_mentions.get("users") or []}
    return [u for u in mentioned if u in allowed]


@dataclass
class FakeMessage:
    """A message as the fake stores it: `payload` is the live JSON, updated in place by every edit."""

    payload: Json
    ephemeral_for: int | None = None  # the one user who can see it, for ephemeral messages
    deleted: bool = False
    history: list[Json] = field(default_factory=list)  # every version, first one included
    blobs: dict[str, bytes] = field(default_factory=dict, repr=False)  # attachment id → bytes
    # `allowed_mentions` of the creating request and of each edit that sent one, in order (None: not sent).
    allowed_mentions: list[Json | None] = field(default_factory=list)
    notified: list[int] = field(default_factory=list)  # user ids pinged when the message was created
    deleted_by: str | None = None  # "bot", or the name of the user or moderator who deleted it

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def channel_id(self) -> int:
        return int(self.payload["channel_id"])

    @property
    def content(self) -> str:
        return str(self.payload.get("content") or "")

    @property
    def embeds(self) -> list[Json]:
        return list(self.payload.get("embeds") or [])

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def components(self) -> list[Json]:
        """Interactive components (buttons, selects, text inputs), rows and containers flattened away."""
        return list(walk_components(self.payload.get("components") or []))

    def component(self, *, label: str | None = None, custom_id: str | None = None) -> Json:
        return find_component(self.components, label=label, custom_id=custom_id, where=f"message {self.id}")

    @property
    def attachments(self) -> list[FakeAttachment]:
        """The message's files as they are now (an edit may keep, drop or add some), bytes included."""
        return [
            FakeAttachment(
                int(a["id"]),
                a["filename"],
                int(a["size"]),
                str(a.get("content_type") or ""),
                self.blobs.get(str(a["id"]), b""),
                a.get("description"),
            )
            for a in self.payload.get("attachments") or []
        ]

    @property
    def mentioned(self) -> list[int]:
        """The user ids the content mentions now (pinged or not)."""
        return [int(m) for m in dict.fromkeys(MENTION.findall(self.content))]

    def text(self) -> str:
        """Everything a reader sees: content, embed texts, component labels and option labels."""
        return visible_text(self.payload)

    def __repr__(self) -> str:
        return f"<FakeMessage id={self.id} channel={self.channel_id} content={self.content[:60]!r}>"


CONTAINER_TYPES = {1, 17, 9, 18}  # action row, container, section, label


def walk_components(components: list[Json]) -> Iterator[Json]:
    for comp in components:
        if comp.get("type") in CONTAINER_TYPES:
            yield from walk_components(list(comp.get("components") or []))
            if "component" in comp:  # label (18) wraps one component
                yield from walk_components([comp["component"]])
            if "accessory" in comp:  # section (9)
                yield from walk_components([comp["accessory"]])
        else:
            yield comp


def find_component(components: list[Json], *, label: str | None, custom_id: str | None, where: str) -> Json:
    if (label is None) == (custom_id is None):
        raise TypeError("give exactly one of label= or custom_id=")
    for comp in components:
        if custom_id is not None and comp.get("custom_id") == custom_id:
            return comp
        if label is not None and comp.get("label") == label:
            return comp
    shown = [(c.get("label"), c.get("custom_id")) for c in components]
    wanted = f"label={label!r}" if label is not None else f"custom_id={custom_id!r}"
    raise AssertionError(f"no component with {wanted} in {where}; it has (label, custom_id): {shown}")


def _component_texts(components: list[Json]) -> Iterator[str]:
    for comp in components:
        for key in ("label", "placeholder", "content"):
            if comp.get(key):
                yield str(comp[key])
        for option in comp.get("options") or []:
            yield str(option.get("label", ""))
            if option.get("description"):
                yield str(option["description"])
        yield from _component_texts(list(comp.get("components") or []))
        for key in ("component", "accessory"):
            if key in comp:
                yield from _component_texts([comp[key]])


def _embed_texts(embed: Json) -> Iterator[str]:
    for key in ("title", "description"):
        if embed.get(key):
            yield str(embed[key])
    for key in ("author", "footer"):
        part = embed.get(key) or {}
        if part.get("name") or part.get("text"):
            yield str(part.get("name") or part.get("text"))
    for fld in embed.get("fields") or []:
        yield str(fld.get("name", ""))
        yield str(fld.get("value", ""))


def visible_text(payload: Json) -> str:
    parts = [str(payload.get("content") or "")]
    for embed in payload.get("embeds") or []:
        parts.extend(_embed_texts(embed))
    parts.extend(_component_texts(list(payload.get("components") or [])))
    return "\n".join(p for p in parts if p)
