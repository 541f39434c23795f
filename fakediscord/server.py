"""The loopback fake Discord: an aiohttp server on 127.0.0.1 speaking the REST and gateway subset discord.py
2.7.1 uses, plus the state a test inspects (messages, DMs, synced commands, REST calls).

Users are driven through `FakeDiscord.slash/click/select/submit_modal` (see `interactions.py`); the
waiting lives here because only the server sees when the bot has answered and gone quiet. Discord's
rules (answer deadline, one answer, payload limits, rate limits) are switched by `fake.rules` (rules.py);
the gateway and its shards live in gateway.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import mimetypes
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web, web_app

from fakediscord import control, limits, registration
from fakediscord.bodies import read_body
from fakediscord.gateway import DIRECT_MESSAGES_INTENT, GUILD_MESSAGES_INTENT, Connection, GatewayMixin
from fakediscord.interactions import InteractionRecord, Reply, UserActions
from fakediscord.limits import FormErrors, Upload
from fakediscord.model import (
    BOT_PERMISSIONS,
    EPHEMERAL,
    LOADING,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    TIMESTAMP,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
    Json,
    Snowflakes,
    notified_users,
    visible_text,
)
from fakediscord.ratelimit import Fault, Outcome, RateLimiter
from fakediscord.rules import MIB, Rules

LOOPBACK = "127.0.0.1"
API_PREFIX = "/api/v10"
DEFAULT_TIMEOUT = 3.0
AUTOCOMPLETE, AUTOCOMPLETE_RESULT = 4, 8  # the interaction type, and the only callback type answering it
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


def form_error(errors: FormErrors) -> web.Response:
    return json_response({"code": 50035, "message": "Invalid Form Body", "errors": errors.tree}, 400)


# Paths that are the fake's own (not Discord's REST): never counted, limited or awaited by settle().
OWN_PATHS = ("/gateway", control.PREFIX, "/attachments/")


class FakeDiscord(UserActions, GatewayMixin):
    """One fake Discord (one guild unless `add_guild`); start it, point a client at `api_base`/`gateway_url`,
    drive users. `rules` switches Discord's strict behaviours; `shards` is what GET /gateway/bot tells."""

    def __init__(
        self,
        *,
        host: str = LOOPBACK,
        channels: tuple[str, ...] = ("poker", "generale", "sala-vip"),
        thread: tuple[str, str] = ("partita", "poker"),
        members: tuple[str, ...] = ("alice", "bob", "carol", "dave"),
        timeout: float = DEFAULT_TIMEOUT,
        shards: int = 1,
        rules: Rules | None = None,
    ) -> None:
        if host != LOOPBACK:
            raise ValueError(f"the fake Discord binds only to {LOOPBACK}, not {host!r}")
        self.host = host
        self.timeout = timeout
        self.snow = Snowflakes()
        self.app_id = self.snow.next()
        self.guild_id = self.snow.next()
        self.guilds: dict[int, FakeGuild] = {self.guild_id: FakeGuild(self.guild_id, "Circolo del Tressette")}
        self.shard_count = shards
        self.rules = rules or Rules()
        self.limiter = RateLimiter(self.rules)
        # Discord's strict rules the bot broke (see rules.py); the test fixture fails on any left at teardown.
        self.violations: list[str] = []
        # The clock of the answer deadline and the token lifetime (bench/bench_discord.py reads
        # `sent_at`/`answered_at` as time.perf_counter() values); a test may swap it for a fake clock.
        self.clock: Callable[[], float] = time.perf_counter
        self.bot_user = FakeUser(self.app_id, "tavolo-verde", bot=True, permissions=BOT_PERMISSIONS)
        self.channels: dict[str, FakeChannel] = {}
        for position, name in enumerate(channels):
            self.channels[name] = FakeChannel(self.snow.next(), name, 0, self.guild_id, position=position)
        thread_name, parent = thread
        self.channels[thread_name] = FakeChannel(
            self.snow.next(), thread_name, 11, self.guild_id, parent_id=self.channels[parent].id
        )
        self.connections: list[Connection] = []
        self._sessions: dict[str, Connection] = {}
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
        self._attachments: dict[int, tuple[str, bytes]] = {}  # attachment id → (content type, bytes)
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
        self._inflight = 0
        self._last_activity = 0.0
        self._wake = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ----------------------------------------------------------------- lifecycle

    async def start(self, port: int = 0) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * MIB)
        self._routes(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, port)
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
        for conn in list(self.connections):
            if not conn.ws.closed:
                await conn.ws.close()
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
        if self.connections:
            data = user.member_payload(with_permissions=False)
            self._announce("GUILD_MEMBER_ADD", lambda g: data | {"guild_id": str(g.id)}, members_only=True)
        return user

    def add_guild(self, name: str, *, channels: tuple[str, ...] = (), shard: int | None = None) -> FakeGuild:
        """Another guild with text channels `channels` (names unique across the fake), on shard `shard` of
        `shards` (its id is chosen so that `(id >> 22) % shards == shard`). Every member belongs to it.
        Add guilds before the bot connects: GUILD_CREATE goes out at IDENTIFY."""
        gid = self.snow.next()
        while shard is not None and self.shard_of(gid) != shard:
            gid = self.snow.next()
        guild = self.guilds[gid] = FakeGuild(gid, name)
        for position, cname in enumerate(channels):
            if cname in self.channels:
                raise ValueError(f"a channel called {cname!r} exists already")
            self.channels[cname] = FakeChannel(self.snow.next(), cname, 0, gid, position=position)
        return guild

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

    # ----------------------------------------------------------------- REST plumbing

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.remote != LOOPBACK:
            return error_response(403, 0, "the fake Discord serves only 127.0.0.1")
        if request.path.startswith(OWN_PATHS):
            return await handler(request)
        route = request.match_info.route.resource
        template = route.canonical if route is not None else request.path
        template = template.removeprefix(API_PREFIX)
        if template == "/{tail}":
            template = request.path.removeprefix(API_PREFIX)
        self.rest_calls.append((request.method, template))
        channel = request.match_info.get("channel_id")
        verdict = self.limiter.judge(request.method, template, int(channel) if channel else None)
        if verdict.status == "drop":
            # The connection dies before any answer, as when a proxy in front of Discord resets it.
            self.rest_log.append((request.method, request.path_qs, 0))
            assert request.transport is not None
            request.transport.abort()
            return web.Response(status=204)  # written nowhere: the transport is gone
        if verdict.status is not None:
            response = json_response(verdict.body, verdict.status)
            response.headers.update(verdict.headers)
            self.rest_log.append((request.method, request.path_qs, verdict.status))
            self.poke()
            return response
        self._inflight += 1
        self.poke()
        try:
            answer = await handler(request)
        finally:
            self._inflight -= 1
            self.poke()
        answer.headers.update(verdict.headers)
        self.rest_log.append((request.method, request.path_qs, answer.status))
        return answer

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
        r.add_get("/attachments/{attachment_id}/{filename}", self._get_attachment)
        control.add_routes(app, self)
        r.add_route("*", "/{tail:.*}", self._unhandled)

    async def _unhandled(self, request: web.Request) -> web.Response:
        self.unhandled.append((request.method, request.path_qs))
        return error_response(404, 0, f"404: Not Found (the fake Discord does not implement {request.path})")

    # ----------------------------------------------------------------- REST: identity

    async def _get_gateway(self, request: web.Request) -> web.Response:
        url = f"ws://{self.host}:{self.port}"
        if request.path.endswith("/bot"):
            limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            return json_response({"url": url, "shards": self.shard_count, "session_start_limit": limit})
        return json_response({"url": url})

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
        refused = self._refuse_commands(body, request.method)
        if refused is not None:
            return refused
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

    def _refuse_commands(self, body: Any, method: str) -> web.Response | None:
        """Discord's refusal, whole, of a bulk overwrite (PUT) or a new command (POST) that breaks its
        registration rules (registration.py), or None to take it."""
        if not self.rules.registration_rules or method not in ("PUT", "POST"):
            return None
        if method == "PUT":
            errors = registration.check_commands(body)
        else:
            errors = FormErrors()
            registration.check_command(errors, body, ())
        if not errors:
            return None
        self.violate(
            "registration rules", f"{method} commands: Invalid Form Body at {', '.join(errors.paths())}"
        )
        return form_error(errors)

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

    def _new_attachment(self, msg: FakeMessage, upload: Upload, entry: Json) -> Json:
        aid = self.snow.next()
        filename = str(entry.get("filename") or upload.filename)
        # discord.py declares every file application/octet-stream; Discord names the type from the file.
        content_type = upload.content_type
        if content_type == "application/octet-stream":
            content_type = mimetypes.guess_type(filename)[0] or content_type
        url = f"http://{self.host}:{self.port}/attachments/{aid}/{filename}"
        attachment: Json = {
            "id": str(aid),
            "filename": filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
            "content_type": content_type,
        }
        if entry.get("description"):
            attachment["description"] = entry["description"]
        msg.blobs[str(aid)] = upload.data
        self._attachments[aid] = (content_type, upload.data)
        return attachment

    def _apply_attachments(
        self, msg: FakeMessage, body: Json, uploads: list[Upload], *, editing: bool
    ) -> None:
        """Discord's rule: `attachments` in the body lists what the message keeps (old ids) and what the
        new `files[n]` parts are called (id n); without it a new message gets its files and an edit keeps
        the old ones and adds the new."""
        old = {str(a["id"]): a for a in msg.payload.get("attachments") or []}
        by_field = {u.field: u for u in uploads}
        used: set[str] = set()
        declared = body.get("attachments")
        result: list[Json] = []
        if declared is None:
            result = list(old.values()) if editing else []
        else:
            for entry in declared:
                key = str(entry.get("id"))
                upload = by_field.get(f"files[{key}]")
                if key in old:
                    result.append(old[key])
                elif upload is not None and upload.field not in used:
                    used.add(upload.field)
                    result.append(self._new_attachment(msg, upload, entry))
        result += [self._new_attachment(msg, u, {}) for u in uploads if u.field not in used]
        msg.payload["attachments"] = result
        for stale in set(msg.blobs) - {str(a["id"]) for a in result}:
            del msg.blobs[stale]

    def _create(
        self,
        channel: FakeChannel,
        body: Json,
        uploads: list[Upload],
        *,
        flags: int,
        msg_type: int = 0,
        viewer: FakeUser | None = None,
        extra: Json | None = None,
    ) -> FakeMessage:
        data = self._message_payload(channel, body, msg_type=msg_type)
        data["flags"] = flags
        data.update(extra or {})
        msg = FakeMessage(data, ephemeral_for=viewer.id if viewer and flags & EPHEMERAL else None)
        self._apply_attachments(msg, body, uploads, editing=False)
        allowed = body.get("allowed_mentions")
        msg.allowed_mentions.append(copy.deepcopy(allowed))
        msg.notified = notified_users(msg.content, allowed)
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

    def _edit(
        self, msg: FakeMessage, body: Json, uploads: list[Upload] | None = None, *, notify: bool = False
    ) -> FakeMessage:
        """Apply an edit; only `notify` (the follow-up that replaces a "thinking…" placeholder) pings."""
        for key in ("content", "embeds", "components"):
            if key in body:
                msg.payload[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        self._apply_attachments(msg, body, uploads or [], editing=True)
        if "allowed_mentions" in body:
            msg.allowed_mentions.append(copy.deepcopy(body["allowed_mentions"]))
        if notify:
            msg.notified = notified_users(msg.content, body.get("allowed_mentions"))
        msg.payload["flags"] = msg.flags & ~LOADING
        msg.payload["edited_timestamp"] = TIMESTAMP
        msg.history.append(copy.deepcopy(msg.payload))
        self._log_public(msg)
        return msg

    async def _delete(self, msg: FakeMessage, by: str) -> None:
        """Delete `msg`; the bot hears MESSAGE_DELETE (with the intent for its kind of channel)."""
        msg.deleted, msg.deleted_by = True, by
        channel = self._channel_by_id(msg.channel_id)
        if msg.ephemeral or channel is None:
            return
        intent = DIRECT_MESSAGES_INTENT if channel.is_dm else GUILD_MESSAGES_INTENT
        conn = self.connection_for(channel.guild_id)
        if conn is None or not conn.intents & intent:
            return
        data: Json = {"id": str(msg.id), "channel_id": str(channel.id)}
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        await self._send_event(conn, "MESSAGE_DELETE", data)

    async def delete_message(self, message: FakeMessage | Reply, *, by: FakeUser | None = None) -> None:
        """A user or moderator (`by`; default "a moderator") deletes a message of the bot's, as the Discord
        client would: the message is gone and the bot hears MESSAGE_DELETE; later edits get 10008."""
        msg = message.message if isinstance(message, Reply) else message
        if msg is None or msg.deleted:
            raise AssertionError(f"{message!r} has no message left to delete")
        if msg.ephemeral:
            raise AssertionError("an ephemeral message can only be dismissed by its viewer, not deleted")
        await self._delete(msg, by.name if by is not None else "a moderator")

    # ----------------------------------------------------------------- Discord's rules

    def violate(self, rule: str, detail: str) -> None:
        """Record a broken strict rule (rules.py): the fixture fails the test with it at teardown."""
        self.violations.append(f"{rule}: {detail}")
        self.poke()

    def _refuse_payload(
        self,
        body: Json,
        uploads: list[Upload],
        *,
        creating: bool,
        prefix: tuple[str, ...] = (),
        modal: bool = False,
        flags: int = 0,
    ) -> web.Response | None:
        """Discord's refusal of an oversized or empty message (or modal), or None to accept it; `flags`
        are the edited message's (an edit body rarely repeats IS_COMPONENTS_V2)."""
        if not self.rules.payload_limits:
            return None
        big = limits.too_big(uploads, self.rules.attachment_size_limit)
        if big is not None:
            self.violate("payload limits", f"{big.filename} has {len(big.data)} bytes, over the upload limit")
            return error_response(413, 40005, "Request entity too large")
        errors = (
            limits.check_modal(body, prefix=prefix)
            if modal
            else limits.check_message(body, uploads, prefix=prefix, flags=flags)
        )
        if errors:
            self.violate("payload limits", f"Invalid Form Body at {', '.join(errors.paths())}")
            return form_error(errors)
        parts = ("content", "embeds", "components", "attachments", "sticker_ids", "poll")
        if creating and not uploads and not any(body.get(k) for k in parts):
            self.violate("payload limits", "an empty message")
            return error_response(400, 50006, "Cannot send an empty message")
        return None

    def _expired(self, rec: InteractionRecord) -> web.Response | None:
        """Follow-ups and edits through the interaction token end `token_lifetime` after the interaction."""
        age = self.clock() - (rec.sent_at or 0.0)
        if age <= self.rules.token_lifetime:
            return None
        self.violate(
            "token lifetime", f"interaction {rec.id} used through its token {age:.0f} s after it began"
        )
        return error_response(401, 50027, "Invalid Webhook Token")

    # ----------------------------------------------------------------- fault injection

    def fail_next(
        self,
        outcome: Outcome,
        *,
        times: int = 1,
        method: str | None = None,
        route: str | None = None,
        channel: str | FakeChannel | None = None,
        retry_after: float = 0.05,
    ) -> Fault:
        """The next `times` requests matching `method`, `route` (a template as in `rest_calls`) and
        `channel` get `outcome`: 429 (with `retry_after`), 500, 502, 503, or "drop" (connection reset)."""
        chan = self.channel(channel) if isinstance(channel, str) else channel
        fault = Fault(outcome, times, method, route, chan.id if chan else None, retry_after)
        self.limiter.faults.append(fault)
        return fault

    def throttle(self, channel: str | FakeChannel, seconds: float) -> None:
        """Every request on `channel` gets 429 for the next `seconds` (on the limiter's clock)."""
        chan = self.channel(channel) if isinstance(channel, str) else channel
        self.limiter.throttle(chan.id, seconds)

    # ----------------------------------------------------------------- REST: channels and messages

    def _find_message(self, channel_id: int, message_id: str) -> FakeMessage | None:
        msg = self.store.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.deleted or msg.channel_id != channel_id:
            return None
        return msg

    async def _get_attachment(self, request: web.Request) -> web.Response:
        found = self._attachments.get(int(request.match_info["attachment_id"]))
        if found is None:
            return error_response(404, 0, "404: Not Found")
        content_type, data = found
        return web.Response(body=data, headers={"Content-Type": content_type})

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
        body, uploads = await read_body(request)
        refused = self._refuse_payload(body, uploads, creating=True)
        if refused is not None:
            return refused
        msg_type = 19 if body.get("message_reference") else 0
        flags = int(body.get("flags") or 0) & ~EPHEMERAL  # only interaction responses can be ephemeral
        return json_response(self._create(channel, body, uploads, flags=flags, msg_type=msg_type).payload)

    async def _channel_message(self, request: web.Request) -> web.StreamResponse:
        channel_id = int(request.match_info["channel_id"])
        msg = self._find_message(channel_id, request.match_info["message_id"])
        if msg is None or msg.ephemeral:
            return error_response(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(msg.payload)
        if request.method == "PATCH":
            body, uploads = await read_body(request)
            refused = self._refuse_payload(body, uploads, creating=False, flags=msg.flags)
            if refused is not None:
                return refused
            return json_response(self._edit(msg, body, uploads).payload)
        if request.method == "DELETE":
            await self._delete(msg, "bot")
            return web.Response(status=204)
        return await self._unhandled(request)

    # ----------------------------------------------------------------- interactions

    def _record(self, token: str) -> InteractionRecord | None:
        return self.interactions.get(token)

    async def _callback(self, request: web.Request) -> web.Response:
        rec = self._record(request.match_info["webhook_token"])
        if rec is None or str(rec.id) != request.match_info["webhook_id"]:
            return error_response(404, 10062, "Unknown interaction")
        response = await self._answer(request, rec)
        if response.status >= 400:
            rec.refused = response.status
            self.poke()
        return response

    async def _answer(self, request: web.Request, rec: InteractionRecord) -> web.Response:
        """The initial response to `rec`, or Discord's refusal of it."""
        arrived = self.clock()
        deadline = self.rules.deadline
        if deadline is not None and rec.sent_at is not None and arrived - rec.sent_at > deadline:
            late = arrived - rec.sent_at
            self.violate(
                "deadline",
                f"the first answer to interaction {rec.id} came {late:.2f} s late (> {deadline} s)",
            )
            return error_response(404, 10062, "Unknown interaction")
        if rec.callback_type is not None and self.rules.one_answer:
            self.violate("one answer", f"a second initial response to interaction {rec.id}")
            return error_response(400, 40060, "Interaction has already been acknowledged.")
        body, uploads = await read_body(request)
        kind = int(body["type"])
        data: Json = body.get("data") or {}
        if kind in (6, 7) and rec.source_message_id is None:
            return error_response(400, 50035, f"Invalid Form Body: callback type {kind} needs a message")
        if kind == 9 and rec.type == 5:
            return error_response(400, 50035, "Invalid Form Body: a modal cannot answer a modal")
        if (kind == AUTOCOMPLETE_RESULT) != (rec.type == AUTOCOMPLETE):
            return error_response(
                400,
                50035,
                f"Invalid Form Body: callback type {kind} cannot answer interaction type {rec.type}",
            )
        if kind == AUTOCOMPLETE_RESULT and self.rules.payload_limits:
            errors = registration.check_choices(data)
            if errors:
                self.violate(
                    "payload limits",
                    f"autocomplete choices: Invalid Form Body at {', '.join(errors.paths())}",
                )
                return form_error(errors)
        if kind in (4, 7, 9):
            source = self.store.get(rec.source_message_id or 0)
            refused = self._refuse_payload(
                data,
                uploads,
                creating=kind == 4,
                prefix=("data",),
                modal=kind == 9,
                flags=source.flags if kind == 7 and source is not None else 0,
            )
            if refused is not None:
                return refused
        rec.callback_type = kind
        rec.callback_data = copy.deepcopy(data)
        rec.answered_at = arrived
        interaction: Json = {"id": str(rec.id), "type": rec.type}
        resource: Json = {"type": kind}
        msg: FakeMessage | None = None
        if kind in (4, 5):
            msg = self._create(
                rec.channel,
                data if kind == 4 else {},
                uploads,
                flags=(int(data.get("flags") or 0) & EPHEMERAL) | (LOADING if kind == 5 else 0),
                msg_type=20 if rec.type == 2 else 0,
                viewer=rec.user,
                extra={
                    "webhook_id": str(self.app_id),
                    "application_id": str(self.app_id),
                    "interaction_metadata": {"id": str(rec.id), "type": rec.type, "user": rec.user.payload()},
                },
            )
            rec.original_id = msg.id
        elif kind in (6, 7):
            rec.original_id = rec.source_message_id
            if kind == 7:
                assert rec.source_message_id is not None
                msg = self._edit(self.store[rec.source_message_id], data, uploads)
                rec.edited_ids.append(msg.id)
        if msg is not None:
            resource["message"] = msg.payload
            interaction.update(
                response_message_id=str(msg.id),
                response_message_loading=bool(msg.flags & LOADING),
                response_message_ephemeral=msg.ephemeral,
            )
        rec.callback_with_response = request.query.get("with_response", "").lower() in ("1", "true")
        rec.answered.set()  # last: whoever waits on it finds the answer's message already stored
        if not rec.callback_with_response:
            return web.Response(status=204)  # as Discord: the callback's body only when asked for
        return json_response({"interaction": interaction, "resource": resource})

    async def _followup(self, request: web.Request) -> web.Response:
        rec = self._record(request.match_info["webhook_token"])
        if rec is None or rec.callback_type is None:
            return error_response(404, 10015, "Unknown Webhook")
        expired = self._expired(rec)
        if expired is not None:
            return expired
        body, uploads = await read_body(request)
        refused = self._refuse_payload(body, uploads, creating=True)
        if refused is not None:
            return refused
        original = self.store.get(rec.original_id) if rec.original_id else None
        private = bool(int(body.get("flags") or 0) & EPHEMERAL)
        if rec.callback_type == 5 and original is not None and original.flags & LOADING:
            # Discord turns the first follow-up after a "thinking" defer into that message, visibility too.
            if private and not original.ephemeral and self.rules.private_followup_on_public_defer:
                self.violate(
                    "private follow-up on a public defer",
                    f"{visible_text(body)[:80]!r} asked to be ephemeral but replaced a public placeholder",
                )
            msg = self._edit(original, body, uploads, notify=True)
        else:
            msg = self._create(
                rec.channel,
                body,
                uploads,
                flags=EPHEMERAL if private else 0,
                viewer=rec.user,
                extra={"webhook_id": str(self.app_id), "application_id": str(self.app_id)},
            )
        rec.followup_ids.append(msg.id)
        return json_response(msg.payload)

    async def _webhook_message(self, request: web.Request) -> web.StreamResponse:
        rec = self._record(request.match_info["webhook_token"])
        if rec is None or rec.callback_type is None:
            return error_response(404, 10015, "Unknown Webhook")
        expired = self._expired(rec)
        if expired is not None:
            return expired
        wanted = request.match_info["message_id"]
        message_id = rec.original_id if wanted == "@original" else (int(wanted) if wanted.isdigit() else None)
        msg = self.store.get(message_id) if message_id is not None else None
        if msg is None or msg.deleted:
            return error_response(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(msg.payload)
        if request.method == "PATCH":
            body, uploads = await read_body(request)
            refused = self._refuse_payload(body, uploads, creating=False, flags=msg.flags)
            if refused is not None:
                return refused
            self._edit(msg, body, uploads)
            rec.edited_ids.append(msg.id)
            return json_response(msg.payload)
        if request.method == "DELETE":
            await self._delete(msg, "bot")
            return web.Response(status=204)
        return await self._unhandled(request)
