"""The gateway half of FakeDiscord: connections, IDENTIFY/RESUME, shards, and the events sent to the bot.

Each connection identifies as one shard `[id, count]` (no `shard` field: `[0, 1]`). A guild's events go
only to the connection of its shard, `(guild_id >> 22) % count`, and direct messages to shard 0, as on
Discord; several clients, in this process or others, may hold different shards of one fake.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from fakediscord.model import (
    BOT_PERMISSIONS,
    MEMBER_PERMISSIONS,
    TIMESTAMP,
    FakeChannel,
    FakeGuild,
    FakeUser,
    Json,
)

MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
HEARTBEAT_INTERVAL_MS = 41250


@dataclass
class Connection:
    """One gateway websocket; `shard` is None until it identifies (or resumes)."""

    ws: web.WebSocketResponse
    shard: tuple[int, int] | None = None
    sharded: bool = False
    """IDENTIFY named a shard (even [0, 1]): Discord's READY then names it too."""
    intents: int = 0
    session_id: str = ""
    seq: int = 0

    def serves(self, guild_id: int | None) -> bool:
        if self.shard is None or self.ws.closed:
            return False
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else (guild_id >> 22) % count)


class GatewayMixin:
    """Provided by FakeDiscord: the guilds, people and places the events describe, and the waiting."""

    host: str
    port: int
    shard_count: int
    bot_user: FakeUser
    app_id: int
    guilds: dict[int, FakeGuild]
    channels: dict[str, FakeChannel]
    users: dict[str, FakeUser]
    identifies: list[Json]
    resumes: list[Json]
    connections: list[Connection]
    _sessions: dict[str, Connection]
    _ws_lock: asyncio.Lock
    _background: set[asyncio.Task[Any]]
    clock: Callable[[], float]

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    if TYPE_CHECKING:

        def poke(self) -> None: ...

        async def wait_for(
            self, predicate: Callable[[], Any], what: str, timeout: float | None = None
        ) -> Any: ...

    # ----------------------------------------------------------------- routing

    def shard_of(self, guild_id: int | None, count: int | None = None) -> int:
        """The shard that receives `guild_id`'s events (direct messages: None → shard 0)."""
        return 0 if guild_id is None else (guild_id >> 22) % (count or self.shard_count)

    def connection_for(self, guild_id: int | None) -> Connection | None:
        """The newest live connection of the guild's shard (a client that reconnects replaces its old one)."""
        return next((c for c in reversed(self.connections) if c.serves(guild_id)), None)

    async def dispatch(self, event: str, data: Json, *, guild_id: int | str | None = "auto") -> float:
        """Send one event on the connection of its guild's shard (`guild_id` from the data's "guild_id"
        unless given; None: a direct message, shard 0); returns `clock()` as the frame left."""
        gid: int | None
        if guild_id == "auto":
            gid = int(data["guild_id"]) if data.get("guild_id") else None
        else:
            gid = None if guild_id is None else int(guild_id)
        where = "the bot's gateway connection" + ("" if gid is None else f" for guild {gid}")
        conn: Connection = await self.wait_for(lambda: self.connection_for(gid), where)
        return await self._send_event(conn, event, data)

    async def _send_event(self, conn: Connection, event: str, data: Json) -> float:
        async with self._ws_lock:
            conn.seq += 1
            frame = json.dumps({"op": 0, "t": event, "s": conn.seq, "d": data})
            sent = self.clock()
            await conn.ws.send_str(frame)
            return sent

    async def _send_op(self, ws: web.WebSocketResponse, payload: Json) -> None:
        async with self._ws_lock:
            await ws.send_str(json.dumps(payload))

    def _announce(self, event: str, data_for: Callable[[FakeGuild], Json], *, members_only: bool) -> None:
        """Queue `event` for every guild on a live connection (those with the members intent only)."""
        for guild in self.guilds.values():
            conn = self.connection_for(guild.id)
            if conn is None or (members_only and not conn.intents & MEMBERS_INTENT):
                continue
            task = asyncio.get_running_loop().create_task(self._send_event(conn, event, data_for(guild)))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    # ----------------------------------------------------------------- the websocket

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        conn = Connection(ws)
        self.connections.append(conn)
        await self._send_op(ws, {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for msg in ws:
                if msg.type.name != "TEXT":
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    await self._send_op(ws, {"op": 11})
                elif op == 2:
                    await self._identify(conn, frame["d"])
                elif op == 6:
                    await self._resume(conn, frame["d"])
                self.poke()
        finally:
            if conn in self.connections:
                self.connections.remove(conn)
        return ws

    async def _identify(self, conn: Connection, data: Json) -> None:
        self.identifies.append(data)
        shard = data.get("shard") or [0, 1]
        conn.shard = (int(shard[0]), int(shard[1]))
        conn.sharded = data.get("shard") is not None
        conn.intents = int(data.get("intents", 0))
        conn.session_id = f"session-{len(self.identifies)}"
        conn.seq = 0
        self._sessions[conn.session_id] = conn
        mine = [g for g in self.guilds.values() if conn.serves(g.id)]
        await self._send_event(conn, "READY", self._ready_payload(conn, mine))
        for guild in mine:
            await self._send_event(conn, "GUILD_CREATE", self._guild_payload(guild))

    async def _resume(self, conn: Connection, data: Json) -> None:
        self.resumes.append(data)
        old = self._sessions.get(str(data.get("session_id")))
        if old is None:
            await self._send_op(conn.ws, {"op": 9, "d": False})  # invalid session: identify again
            return
        conn.shard, conn.intents, conn.session_id, conn.seq = old.shard, old.intents, old.session_id, old.seq
        self._sessions[conn.session_id] = conn
        await self._send_event(conn, "RESUMED", {})

    async def drop_gateway(self, code: int, *, shard: int = 0) -> None:
        """Close shard `shard`'s connection with `code` (4000: the bot resumes; 4004: it gives up)."""
        live = [c for c in reversed(self.connections) if c.shard is not None and not c.ws.closed]
        conn = next((c for c in live if c.shard is not None and c.shard[0] == shard), None)
        assert conn is not None, f"no bot is connected on shard {shard}"
        await conn.ws.close(code=code, message=b"dropped by the fake")

    # ----------------------------------------------------------------- payloads

    def _ready_payload(self, conn: Connection, guilds: list[FakeGuild]) -> Json:
        data: Json = {
            "v": 10,
            "user": self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": conn.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if conn.shard is not None and (conn.sharded or conn.shard[1] > 1):
            data["shard"] = list(conn.shard)
        return data

    def _guild_payload(self, guild: FakeGuild) -> Json:
        members = [u.member_payload(with_permissions=False) for u in [self.bot_user, *self.users.values()]]
        members[0]["roles"] = [str(guild.id + 1)]
        mine = [c for c in self.channels.values() if c.guild_id == guild.id]
        text = [c.payload() for c in mine if c.type == 0]
        threads = [c.payload(owner_id=self.bot_user.id) for c in mine if c.type == 11]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(next(iter(self.users.values())).id if self.users else self.bot_user.id),
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "it",
            "features": [],
            "system_channel_flags": 0,
            "unavailable": False,
            "large": False,
            "joined_at": TIMESTAMP,
            "roles": [
                {
                    "id": str(guild.id),
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                },
                {
                    "id": str(guild.id + 1),
                    "name": "tavolo-verde",
                    "permissions": str(BOT_PERMISSIONS),
                    "position": 1,
                    "color": 0,
                    "hoist": False,
                    "managed": True,
                    "mentionable": False,
                    "flags": 0,
                },
            ],
            "emojis": [],
            "stickers": [],
            "channels": text,
            "threads": threads,
            "members": members,
            "member_count": len(members),
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
        }
