"""The loopback fake Discord: an aiohttp server on 127.0.0.1 speaking the REST and gateway subset discord.py
2.7.1 uses, plus the state a test inspects (messages, DMs, synced commands, REST calls).

Users are driven through `FakeDiscord.slash/click/select/submit_modal` (see `interactions.py`); the
waiting lives here because only the server sees when the bot has answered and gone quiet.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import BodyPartReader, web, web_app

from fakediscord.interactions import InteractionRecord, UserActions
from fakediscord.model import (
    BOT_PERMISSIONS,
    EPHEMERAL,
    LOADING,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    TIMESTAMP,
    FakeChannel,
    FakeMessage,
    FakeUser,
    Json,
    Snowflakes,
    visible_text,
)

LOOPBACK = "127.0.0.1"
API_PREFIX = "/api/v10"
DEFAULT_TIMEOUT = 3.0
# Tasks discord.py creates to run one interaction; while one is alive the bot is still answering.
DISPATCH_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-modal-dispatch-",
    "discord.py: on_interaction",
)
# Quiet periods after an answer: short when discord.py's dispatch tasks are done, longer while one is still
# running (a command awaiting something legitimately long, e.g. `view.wait()`, must not hang the test).
QUIET = 0.02
BUSY_QUIET = 0.25
POLL = 0.005

Failure = Callable[[], str | None]


class BotFailure(AssertionError):
    """The bot logged an ERROR or its connection task died: the test fails with that cause."""


def json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly `application/json`: discord.py compares the header verbatim: a charset suffix makes it text.
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


def error_response(status: int, code: int, message: str) -> web.Response:
    return json_response({"code": code, "message": message}, status)


async def read_body(request: web.Request) -> tuple[Any, list[str]]:
    """JSON body, or the `payload_json` part of a multipart body (messages with files) plus file names."""
    if request.content_type.startswith("multipart/"):
        payload: Json = {}
        files: list[str] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            else:
                files.append(part.filename or "file")
                await part.read()
        return payload, files
    if request.can_read_body:
        text = await request.text()
        return (json.loads(text) if text else {}), []
    return {}, []


class FakeDiscord(UserActions):
    """One fake Discord with one guild; start it, point a client at `api_base`/`gateway_url`, drive users."""

    def __init__(
        self,
        *,
        host: str = LOOPBACK,
        channels: tuple[str, ...] = ("poker", "generale", "sala-vip"),
        thread: tuple[str, str] = ("partita", "poker"),
        members: tuple[str, ...] = ("alice", "bob", "carol", "dave"),
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        if host != LOOPBACK:
            raise ValueError(f"the fake Discord binds only to {LOOPBACK}, not {host!r}")
        self.host = host
        self.timeout = timeout
        self.snow = Snowflakes()
        self.app_id = self.snow.next()
        self.guild_id = self.snow.next()
        self.bot_user = FakeUser(self.app_id, "tavolo-verde", bot=True, permissions=BOT_PERMISSIONS)
        self.channels: dict[str, FakeChannel] = {}
        for position, name in enumerate(channels):
            self.channels[name] = FakeChannel(self.snow.next(), name, 0, self.guild_id, position=position)
        thread_name, parent = thread
        self.channels[thread_name] = FakeChannel(
            self.snow.next(), thread_name, 11, self.guild_id, parent_id=self.channels[parent].id
        )
        self._ws: web.WebSocketResponse | None = None
        self.identifies: list[Json] = []
        self._background: set[asyncio.Task[Any]] = set()
        self.users: dict[str, FakeUser] = {}
        for name in members:
            self.user(name)
        self.dm_channels: dict[int, FakeChannel] = {}
        self._channel_index: dict[int, FakeChannel] = {}
        self._user_index: dict[int, FakeUser] = {}
        self.closed_dms: set[int] = set()
        self.store: dict[int, FakeMessage] = {}
        self.public_log: list[str] = []
        self.global_commands: dict[str, Json] = {}
        self.guild_commands: dict[int, dict[str, Json]] = {}
        self.command_syncs: list[tuple[str, int | None, list[Json]]] = []
        self.interactions: dict[str, InteractionRecord] = {}
        self.rest_calls: list[tuple[str, str]] = []
        self.rest_log: list[tuple[str, str, int]] = []
        self.unhandled: list[tuple[str, str]] = []
        self.resumes: list[Json] = []
        self.failures: list[Failure] = []
        self._ws_lock = asyncio.Lock()
        self._seq = 0
        self._inflight = 0
        self._last_activity = 0.0
        self._wake = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ----------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware])
        self._routes(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        server = site._server
        assert server is not None
        sockets = server.sockets  # type: ignore[attr-defined]
        addresses = {s.getsockname()[0] for s in sockets}
        if addresses != {LOOPBACK}:
            await self.stop()
            raise RuntimeError(f"the fake Discord must listen only on {LOOPBACK}, got {addresses}")
        self.port = sockets[0].getsockname()[1]
        self.listening_addresses = addresses

    async def stop(self) -> None:
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        # aiohttp memoizes each handler's middleware chain (an lru_cache of 1024 entries keyed by the bound
        # handler), which would keep every stopped fake, with all its messages, alive for the whole process.
        cached = getattr(web_app, "_cached_build_middleware", None)
        if cached is not None:
            cached.cache_clear()

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    # ----------------------------------------------------------------- people and places

    def user(self, name: str, *, manage_guild: bool = False) -> FakeUser:
        """The member called `name`, created on first use; once the bot is connected with the members
        intent, Discord announces the newcomer with GUILD_MEMBER_ADD, and so does the fake."""
        existing = self.users.get(name)
        permissions = MEMBER_PERMISSIONS | (MANAGE_GUILD if manage_guild else 0)
        if existing is not None:
            if manage_guild and not existing.manage_guild:
                raise ValueError(f"{name!r} already exists without manage_guild; ask for it the first time")
            return existing
        user = FakeUser(self.snow.next(), name, permissions=permissions)
        self.users[name] = user
        members_intent = bool(self.identifies and int(self.identifies[-1].get("intents", 0)) & (1 << 1))
        if members_intent and self._ws is not None and not self._ws.closed:
            data = user.member_payload(with_permissions=False) | {"guild_id": str(self.guild_id)}
            task = asyncio.get_running_loop().create_task(self.dispatch("GUILD_MEMBER_ADD", data))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return user

    def channel(self, name: str) -> FakeChannel:
        try:
            return self.channels[name]
        except KeyError:
            raise KeyError(f"no channel {name!r}; the fake guild has {sorted(self.channels)}") from None

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.snow.next(), f"dm-{user.name}", 1, None, recipient=user)
            self.dm_channels[user.id] = channel
        return channel

    def close_dms(self, user: FakeUser) -> None:
        """From now on the bot's DMs to `user` fail with 403, code 50007, as with closed DMs on Discord."""
        self.closed_dms.add(user.id)

    def _channel_by_id(self, channel_id: int) -> FakeChannel | None:
        # Every REST call looks a channel up; with hundreds of channels and DMs (bench/bench_discord.py)
        # a scan per call would be the fake's own cost, so hits are remembered and checked still listed.
        channel = self._channel_index.get(channel_id)
        if channel is not None and (
            self.channels.get(channel.name) is channel
            or (channel.recipient is not None and self.dm_channels.get(channel.recipient.id) is channel)
        ):
            return channel
        for channel in [*self.channels.values(), *self.dm_channels.values()]:
            if channel.id == channel_id:
                self._channel_index[channel_id] = channel
                return channel
        return None

    def _user_by_id(self, user_id: int) -> FakeUser | None:
        if user_id == self.bot_user.id:
            return self.bot_user
        user = self._user_index.get(user_id)
        if user is not None and self.users.get(user.name) is user:
            return user
        user = next((u for u in self.users.values() if u.id == user_id), None)
        if user is not None:
            self._user_index[user_id] = user
        return user

    # ----------------------------------------------------------------- what tests read

    def messages(self, channel: str | FakeChannel, *, include_ephemeral: bool = False) -> list[FakeMessage]:
        """The channel's messages as they are now: edits applied, deleted ones gone, oldest first."""
        chan = self.channel(channel) if isinstance(channel, str) else channel
        return [
            m
            for _, m in sorted(self.store.items())
            if m.channel_id == chan.id and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """The DMs the bot sent to `user` (refused ones are not messages)."""
        channel = self.dm_channels.get(user.id)
        return [] if channel is None else self.messages(channel)

    def public_texts(self) -> list[str]:
        """Every text ever posted or edited where the whole guild can read it, in order."""
        return list(self.public_log)

    @property
    def synced_commands(self) -> list[Json]:
        """The application commands as last synced: guild ones first, then global ones."""
        commands = [c for per_guild in self.guild_commands.values() for c in per_guild.values()]
        return commands + list(self.global_commands.values())

    def command(self, name: str) -> Json:
        for cmd in self.synced_commands:
            if cmd["name"] == name:
                return cmd
        raise AssertionError(
            f"no synced command {name!r}; synced: {[c['name'] for c in self.synced_commands]}"
        )

    # ----------------------------------------------------------------- waiting

    def poke(self) -> None:
        self._last_activity = asyncio.get_running_loop().time()
        wake, self._wake = self._wake, asyncio.Event()
        wake.set()

    def raise_failures(self) -> None:
        for check in self.failures:
            cause = check()
            if cause:
                raise BotFailure(cause)

    async def _nap(self, seconds: float) -> None:
        wake = self._wake
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), max(seconds, 0.001))

    async def wait_for(self, predicate: Callable[[], Any], what: str, timeout: float | None = None) -> Any:
        """Wait until `predicate()` is truthy; fail fast on a bot failure, fail clearly after `timeout`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.timeout if timeout is None else timeout)
        while True:
            self.raise_failures()
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout or self.timeout:g} s waiting for {what}")
            # Woken early by any request, frame or log record; the poll catches changes inside the bot
            # (readiness, its own state) that make no noise on the wire.
            await self._nap(min(remaining, POLL))

    async def settle(self, timeout: float | None = None) -> None:
        """Return once the bot has no request in flight, no interaction task running, and has been quiet."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.timeout if timeout is None else timeout)
        while True:
            self.raise_failures()
            busy = [
                t
                for t in asyncio.all_tasks()
                if not t.done() and t.get_name().startswith(DISPATCH_TASK_PREFIXES)
            ]
            for task in busy:
                task.add_done_callback(lambda _t: self.poke())
            need = BUSY_QUIET if busy else QUIET
            idle = loop.time() - self._last_activity
            if self._inflight == 0 and idle >= need:
                return
            if loop.time() >= deadline:
                raise AssertionError(f"the bot was still busy after {timeout or self.timeout:g} s")
            await self._nap(min(need - idle if self._inflight == 0 else need, deadline - loop.time()))

    # ----------------------------------------------------------------- gateway

    async def dispatch(self, event: str, data: Json) -> float:
        """Send one event to the bot; returns time.perf_counter() as the frame went out."""
        await self.wait_for(
            lambda: self._ws is not None and not self._ws.closed, "the bot's gateway connection"
        )
        async with self._ws_lock:
            self._seq += 1
            assert self._ws is not None
            frame = json.dumps({"op": 0, "t": event, "s": self._seq, "d": data})
            sent = time.perf_counter()
            await self._ws.send_str(frame)
            return sent

    async def _send_op(self, ws: web.WebSocketResponse, payload: Json) -> None:
        async with self._ws_lock:
            await ws.send_str(json.dumps(payload))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._ws = ws
        await self._send_op(ws, {"op": 10, "d": {"heartbeat_interval": 41250}})
        try:
            async for msg in ws:
                if msg.type.name != "TEXT":
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    await self._send_op(ws, {"op": 11})
                elif op == 2:
                    self.identifies.append(frame["d"])
                    self._seq = 0
                    await self.dispatch("READY", self._ready_payload())
                    await self.dispatch("GUILD_CREATE", self._guild_payload())
                elif op == 6:
                    self.resumes.append(frame["d"])
                    await self.dispatch("RESUMED", {})
                self.poke()
        finally:
            if self._ws is ws:
                self._ws = None
        return ws

    async def drop_gateway(self, code: int) -> None:
        """Close the bot's gateway connection with `code` (4000: it resumes; 4004: it gives up)."""
        ws = self._ws
        assert ws is not None, "the bot is not connected"
        await ws.close(code=code, message=b"dropped by the fake")

    def _ready_payload(self) -> Json:
        return {
            "v": 10,
            "user": self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": f"session-{len(self.identifies)}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def _guild_payload(self) -> Json:
        members = [u.member_payload(with_permissions=False) for u in [self.bot_user, *self.users.values()]]
        members[0]["roles"] = [str(self.guild_id + 1)]
        text = [c.payload() for c in self.channels.values() if c.type == 0]
        threads = [c.payload(owner_id=self.bot_user.id) for c in self.channels.values() if c.type == 11]
        return {
            "id": str(self.guild_id),
            "name": "Circolo del Tressette",
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
                    "id": str(self.guild_id),
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
                    "id": str(self.guild_id + 1),
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

    # ----------------------------------------------------------------- REST plumbing

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.remote != LOOPBACK:
            return error_response(403, 0, "the fake Discord serves only 127.0.0.1")
        if request.path == "/gateway":
            return await handler(request)
        route = request.match_info.route.resource
        template = route.canonical if route is not None else request.path
        template = template.removeprefix(API_PREFIX)
        if template == "/{tail}":
            template = request.path.removeprefix(API_PREFIX)
        self.rest_calls.append((request.method, template))
        self._inflight += 1
        self.poke()
        try:
            response = await handler(request)
        finally:
            self._inflight -= 1
            self.poke()
        self.rest_log.append((request.method, request.path_qs, response.status))
        return response

    def _routes(self, app: web.Application) -> None:
        p = API_PREFIX
        r = app.router
        r.add_get("/gateway", self._gateway)
        r.add_get(p + "/gateway", self._get_gateway)
        r.add_get(p + "/gateway/bot", self._get_gateway)
        r.add_get(p + "/users/@me", self._get_me)
        r.add_post(p + "/users/@me/channels", self._create_dm)
        r.add_get(p + "/users/{user_id}", self._get_user)
        r.add_get(p + "/oauth2/applications/@me", self._get_application)
        r.add_get(p + "/applications/@me", self._get_application)
        r.add_route("*", p + "/applications/{application_id}/commands", self._commands)
        r.add_route("*", p + "/applications/{application_id}/guilds/{guild_id}/commands", self._commands)
        r.add_post(p + "/interactions/{webhook_id}/{webhook_token}/callback", self._callback)
        r.add_post(p + "/webhooks/{webhook_id}/{webhook_token}", self._followup)
        r.add_route(
            "*",
            p + r"/webhooks/{webhook_id}/{webhook_token}/messages/{message_id:\d+|@original}",
            self._webhook_message,
        )
        r.add_get(p + "/channels/{channel_id}", self._get_channel)
        r.add_post(p + "/channels/{channel_id}/typing", self._typing)
        r.add_route("*", p + "/channels/{channel_id}/messages", self._channel_messages)
        r.add_route("*", p + r"/channels/{channel_id}/messages/{message_id:\d+}", self._channel_message)
        r.add_route("*", "/{tail:.*}", self._unhandled)

    async def _unhandled(self, request: web.Request) -> web.Response:
        self.unhandled.append((request.method, request.path_qs))
        return error_response(404, 0, f"404: Not Found (the fake Discord does not implement {request.path})")

    # ----------------------------------------------------------------- REST: identity

    async def _get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response(
            {"url": f"ws://{self.host}:{self.port}", "shards": 1, "session_start_limit": limit}
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response(self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0})

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self._user_by_id(int(request.match_info["user_id"]))
        if user is None:
            return error_response(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        owner = FakeUser(self.snow.next(), "proprietario")
        return json_response(
            {
                "id": str(self.app_id),
                "name": "Tavolo Verde",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
            }
        )

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user = self._user_by_id(int(body["recipient_id"]))
        if user is None:
            return error_response(400, 50033, "Invalid Recipient(s)")
        return json_response(self.dm_channel(user).payload())

    # ----------------------------------------------------------------- REST: commands

    async def _commands(self, request: web.Request) -> web.Response:
        guild = request.match_info.get("guild_id")
        guild_id = None if guild is None else int(guild)
        table = self.global_commands if guild_id is None else self.guild_commands.setdefault(guild_id, {})
        if request.method == "GET":
            return json_response(list(table.values()))
        body, _ = await read_body(request)
        if request.method == "PUT":
            self.command_syncs.append(("PUT", guild_id, copy.deepcopy(body)))
            old = dict(table)
            table.clear()
            for cmd in body:
                table[cmd["name"]] = self._registered(cmd, guild_id, old.get(cmd["name"]))
            return json_response(list(table.values()))
        if request.method == "POST":
            self.command_syncs.append(("POST", guild_id, [copy.deepcopy(body)]))
            table[body["name"]] = self._registered(body, guild_id, table.get(body["name"]))
            return json_response(table[body["name"]])
        return await self._unhandled(request)

    def _registered(self, cmd: Json, guild_id: int | None, old: Json | None) -> Json:
        registered = copy.deepcopy(cmd)
        registered.setdefault("type", 1)
        registered.setdefault("description", "")
        registered["id"] = old["id"] if old else str(self.snow.next())
        registered["application_id"] = str(self.app_id)
        registered["version"] = str(self.snow.next())
        needed = cmd.get("default_member_permissions")
        registered["default_member_permissions"] = (
            None if needed is None else str(needed)
        )  # Discord echoes a string
        if guild_id is not None:
            registered["guild_id"] = str(guild_id)
        return registered

    # ----------------------------------------------------------------- messages

    def _message_payload(self, channel: FakeChannel, body: Json, *, msg_type: int = 0) -> Json:
        data: Json = {
            "id": str(self.snow.next()),
            "channel_id": str(channel.id),
            "author": self.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": list(body.get("embeds") or []),
            "pinned": False,
            "type": msg_type,
            "flags": int(body.get("flags") or 0),
            "components": list(body.get("components") or []),
        }
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        return data

    def _attach(self, data: Json, files: list[str]) -> None:
        for name in files:
            aid = self.snow.next()
            url = f"http://{self.host}:{self.port}/attachments/{aid}/{name}"
            data["attachments"].append(
                {"id": str(aid), "filename": name, "size": 0, "url": url, "proxy_url": url}
            )

    def _store(self, data: Json, *, viewer: FakeUser | None = None) -> FakeMessage:
        msg = FakeMessage(data, ephemeral_for=viewer.id if viewer and data["flags"] & EPHEMERAL else None)
        msg.history.append(copy.deepcopy(data))
        self.store[msg.id] = msg
        self._log_public(msg)
        return msg

    def _log_public(self, msg: FakeMessage) -> None:
        channel = self._channel_by_id(msg.channel_id)
        if channel is not None and not channel.is_dm and not msg.ephemeral:
            text = visible_text(msg.payload)
            if text:
                self.public_log.append(text)

    def _edit(self, msg: FakeMessage, body: Json, files: list[str] = ()) -> FakeMessage:  # type: ignore[assignment]
        for key in ("content", "embeds", "components"):
            if key in body:
                msg.payload[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "attachments" in body and body["attachments"] == []:
            msg.payload["attachments"] = []
        if files:
            self._attach(msg.payload, files)
        msg.payload["flags"] = msg.flags & ~LOADING
        msg.payload["edited_timestamp"] = TIMESTAMP
        msg.history.append(copy.deepcopy(msg.payload))
        self._log_public(msg)
        return msg

    def _find_message(self, channel_id: int, message_id: str) -> FakeMessage | None:
        msg = self.store.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.deleted or msg.channel_id != channel_id:
            return None
        return msg

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel_by_id(int(request.match_info["channel_id"]))
        if channel is None:
            return error_response(404, 10003, "Unknown Channel")
        return json_response(channel.payload(owner_id=self.bot_user.id))

    async def _typing(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _channel_messages(self, request: web.Request) -> web.Response:
        channel = self._channel_by_id(int(request.match_info["channel_id"]))
        if channel is None:
            return error_response(404, 10003, "Unknown Channel")
        if request.method == "GET":
            limit = int(request.query.get("limit", "50"))
            newest_first = [m.payload for m in reversed(self.messages(channel))]
            return json_response(newest_first[:limit])
        if request.method != "POST":
            return await self._unhandled(request)
        if channel.is_dm and channel.recipient is not None and channel.recipient.id in self.closed_dms:
            return error_response(403, 50007, "Cannot send messages to this user")
        body, files = await read_body(request)
        data = self._message_payload(channel, body, msg_type=19 if body.get("message_reference") else 0)
        data["flags"] &= ~EPHEMERAL  # only interaction responses can be ephemeral
        self._attach(data, files)
        return json_response(self._store(data).payload)

    async def _channel_message(self, request: web.Request) -> web.StreamResponse:
        channel_id = int(request.match_info["channel_id"])
        msg = self._find_message(channel_id, request.match_info["message_id"])
        if msg is None or msg.ephemeral:
            return error_response(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(msg.payload)
        if request.method == "PATCH":
            body, files = await read_body(request)
            return json_response(self._edit(msg, body, files).payload)
        if request.method == "DELETE":
            msg.deleted = True
            return web.Response(status=204)
        return await self._unhandled(request)

    # ----------------------------------------------------------------- interactions

    def _record(self, token: str) -> InteractionRecord | None:
        return self.interactions.get(token)

    async def _callback(self, request: web.Request) -> web.Response:
        arrived = time.perf_counter()
        rec = self._record(request.match_info["webhook_token"])
        if rec is None or str(rec.id) != request.match_info["webhook_id"]:
            return error_response(404, 10062, "Unknown interaction")
        if rec.callback_type is not None:
            return error_response(400, 40060, "Interaction has already been acknowledged.")
        body, files = await read_body(request)
        kind = int(body["type"])
        data: Json = body.get("data") or {}
        if kind in (6, 7) and rec.source_message_id is None:
            return error_response(400, 50035, f"Invalid Form Body: callback type {kind} needs a message")
        if kind == 9 and rec.type == 5:
            return error_response(400, 50035, "Invalid Form Body: a modal cannot answer a modal")
        rec.callback_type = kind
        rec.callback_data = copy.deepcopy(data)
        rec.answered_at = arrived
        interaction: Json = {"id": str(rec.id), "type": rec.type}
        resource: Json = {"type": kind}
        msg: FakeMessage | None = None
        if kind in (4, 5):
            flags = int(data.get("flags") or 0) & EPHEMERAL
            content = data if kind == 4 else {}
            payload = self._message_payload(rec.channel, content, msg_type=20 if rec.type == 2 else 0)
            payload["flags"] = flags | (LOADING if kind == 5 else 0)
            payload["webhook_id"] = str(self.app_id)
            payload["application_id"] = str(self.app_id)
            payload["interaction_metadata"] = {
                "id": str(rec.id),
                "type": rec.type,
                "user": rec.user.payload(),
            }
            self._attach(payload, files)
            msg = self._store(payload, viewer=rec.user)
            rec.original_id = msg.id
        elif kind in (6, 7):
            rec.original_id = rec.source_message_id
            if kind == 7:
                assert rec.source_message_id is not None
                msg = self._edit(self.store[rec.source_message_id], data, files)
                rec.edited_ids.append(msg.id)
        if msg is not None:
            resource["message"] = msg.payload
            interaction.update(
                response_message_id=str(msg.id),
                response_message_loading=bool(msg.flags & LOADING),
                response_message_ephemeral=msg.ephemeral,
            )
        rec.answered.set()  # last: whoever waits on it finds the answer's message already stored
        return json_response({"interaction": interaction, "resource": resource})

    async def _followup(self, request: web.Request) -> web.Response:
        rec = self._record(request.match_info["webhook_token"])
        if rec is None or rec.callback_type is None:
            return error_response(404, 10015, "Unknown Webhook")
        body, files = await read_body(request)
        original = self.store.get(rec.original_id) if rec.original_id else None
        if rec.callback_type == 5 and original is not None and original.flags & LOADING:
            # Discord turns the first follow-up after a "thinking" defer into that message.
            msg = self._edit(original, body, files)
        else:
            payload = self._message_payload(rec.channel, body)
            payload["flags"] = int(body.get("flags") or 0) & EPHEMERAL
            payload["webhook_id"] = str(self.app_id)
            payload["application_id"] = str(self.app_id)
            self._attach(payload, files)
            msg = self._store(payload, viewer=rec.user)
        rec.followup_ids.append(msg.id)
        return json_response(msg.payload)

    async def _webhook_message(self, request: web.Request) -> web.StreamResponse:
        rec = self._record(request.match_info["webhook_token"])
        if rec is None or rec.callback_type is None:
            return error_response(404, 10015, "Unknown Webhook")
        wanted = request.match_info["message_id"]
        message_id = rec.original_id if wanted == "@original" else (int(wanted) if wanted.isdigit() else None)
        msg = self.store.get(message_id) if message_id is not None else None
        if msg is None or msg.deleted:
            return error_response(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(msg.payload)
        if request.method == "PATCH":
            body, files = await read_body(request)
            self._edit(msg, body, files)
            rec.edited_ids.append(msg.id)
            return json_response(msg.payload)
        if request.method == "DELETE":
            msg.deleted = True
            return web.Response(status=204)
        return await self._unhandled(request)
