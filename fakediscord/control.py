"""A small HTTP control API, for a test that drives a fake running in another process (`python -m
fakediscord`): read the guilds and messages, run a slash command, press a button.

Routes (JSON in and out, loopback only like the rest of the fake):
    GET  /_control/state                 guilds (id, name, shard, channels), users, connected shards
    GET  /_control/messages?channel=NAME the channel's messages as Discord payloads, oldest first
    POST /_control/slash  {"user", "command", "channel"?, "options"?}   → the reply
    POST /_control/click  {"user", "message_id", "label" | "custom_id"} → the reply
A user-facing mistake (unknown command, disabled button...) answers 400 with {"error": text}.
`ControlClient` is the matching client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

if TYPE_CHECKING:
    from fakediscord.interactions import Reply
    from fakediscord.server import FakeDiscord

PREFIX = "/_control"
Json = dict[str, Any]


def reply_json(reply: Reply) -> Json:
    msg = reply.message
    return {
        "callback_type": reply.callback_type,
        "ephemeral": reply.ephemeral,
        "content": reply.content,
        "text": reply.text(),
        "message": msg.payload if msg is not None else None,
    }


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status)


def add_routes(app: web.Application, fake: FakeDiscord) -> None:
    async def state(request: web.Request) -> web.Response:
        guilds = [
            {
                "id": str(g.id),
                "name": g.name,
                "shard": fake.shard_of(g.id),
                "channels": [c.name for c in fake.channels.values() if c.guild_id == g.id],
            }
            for g in fake.guilds.values()
        ]
        return _json(
            {
                "api_base": fake.api_base,
                "gateway_url": fake.gateway_url,
                "shards": fake.shard_count,
                "guilds": guilds,
                "users": list(fake.users),
                "connected": sorted(list(c.shard) for c in fake.connections if c.shard is not None),
                "violations": fake.violations,
            }
        )

    async def messages(request: web.Request) -> web.Response:
        try:
            found = fake.messages(request.query["channel"])
        except KeyError as exc:
            return _json({"error": str(exc)}, 400)
        return _json([m.payload for m in found])

    async def slash(request: web.Request) -> web.Response:
        body = await request.json()
        try:
            reply = await fake.slash(
                fake.user(body["user"]),
                body["command"],
                channel=body.get("channel"),
                options=body.get("options") or {},
            )
        except (AssertionError, TypeError, ValueError, KeyError) as exc:
            return _json({"error": str(exc)}, 400)
        return _json(reply_json(reply))

    async def click(request: web.Request) -> web.Response:
        body = await request.json()
        msg = fake.store.get(int(body["message_id"]))
        if msg is None:
            return _json({"error": f"no message {body['message_id']}"}, 400)
        try:
            reply = await fake.click(
                fake.user(body["user"]), msg, label=body.get("label"), custom_id=body.get("custom_id")
            )
        except (AssertionError, TypeError, ValueError) as exc:
            return _json({"error": str(exc)}, 400)
        return _json(reply_json(reply))

    app.router.add_get(PREFIX + "/state", state)
    app.router.add_get(PREFIX + "/messages", messages)
    app.router.add_post(PREFIX + "/slash", slash)
    app.router.add_post(PREFIX + "/click", click)


class ControlClient:
    """`async with ControlClient("http://127.0.0.1:PORT") as fake: await fake.slash("alice", "aiuto")`."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/") + PREFIX
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> ControlClient:
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()

    async def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        assert self._session is not None, "use `async with ControlClient(url)`"
        async with self._session.request(method, self.url + path, **kwargs) as response:
            data = await response.json()
            if response.status != 200:
                raise AssertionError(data.get("error", data))
            return data

    async def state(self) -> Json:
        return dict(await self._call("GET", "/state"))

    async def messages(self, channel: str) -> list[Json]:
        return list(await self._call("GET", "/messages", params={"channel": channel}))

    async def slash(
        self, user: str, command: str, *, channel: str | None = None, options: Json | None = None
    ) -> Json:
        body = {"user": user, "command": command, "channel": channel, "options": options or {}}
        return dict(await self._call("POST", "/slash", json=body))

    async def click(
        self, user: str, message_id: int | str, *, label: str | None = None, custom_id: str | None = None
    ) -> Json:
        body = {"user": user, "message_id": str(message_id), "label": label, "custom_id": custom_id}
        return dict(await self._call("POST", "/click", json=body))
