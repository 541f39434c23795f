"""Discord's REST calls over kept-alive HTTP/1.1 connections read by httptools, under discord.py.

Why: aiohttp's client machinery around each request (a `ClientRequest` and a `ClientResponse` with
their headers and URL objects, the connector's bookkeeping, a timer, a stream reader) is about 40 %
of a REST call's CPU in the calling process (bench/bench_rest.py: 0.165 ms per call through aiohttp,
0.099 ms through this module). The bot makes about two calls per interaction (the answer, then the
table edit or a card DM) where a bare discord.py bot makes one, so that machinery was most of the gap
between them (bench/README.md, "Capacity of one process").

What changes is only the last step of a request: discord.py still builds every request and owns
everything around it (routes, rate-limit buckets, the global limit, 429 and 5xx retries, the
`discord.HTTPException` family); aiohttp still holds the gateway's websocket and any request this
module does not take (a proxy, an aiohttp form or payload it does not know, a URL outside the API's
origin or that needs escaping, a method other than GET, POST, PATCH, PUT and DELETE). Responses are
parsed by httptools (llhttp, the parser of Node.js; uvicorn's), not by code written here.

`install` swaps discord.py's session for a `Session` that keeps the real one for everything else.
It leans on one private name of the pinned discord.py (``HTTPClient._HTTPClient__session``, which
each `discord.Interaction` also copies as ``_session``); every test of the bot runs through it.
"""

from __future__ import annotations

import asyncio
import json
import ssl
import zlib
from collections.abc import Mapping
from types import TracebackType
from typing import Any
from urllib.parse import urlencode, urlsplit

import aiohttp
import discord
import httptools
from aiohttp.payload import BytesPayload
from multidict import CIMultiDict, CIMultiDictProxy

__all__ = ["Body", "Response", "Session", "install"]

CONNECT_TIMEOUT = 30.0
"""Seconds to open a connection (aiohttp's default ``sock_connect``)."""
REQUEST_TIMEOUT = 300.0
"""Seconds a request may take in all (aiohttp's default ``total``); checked by a sweep, not a timer
per request."""
SWEEP_SECONDS = 5.0
IDLE_SECONDS = 15.0
"""How long an idle connection is kept for the next request (aiohttp's ``keepalive_timeout``)."""
MOST_IDLE = 64
"""Idle connections kept per origin; more are closed when they come back."""

_METHODS = frozenset({"GET", "POST", "PATCH", "PUT", "DELETE"})
_IDEMPOTENT = frozenset({"GET", "PUT", "DELETE"})
_PLAIN = frozenset(
    map(ord, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/?%@:!$&'()*+,;=")
)
"""Bytes a request target may carry as they are: anything else goes through aiohttp, which escapes."""
_NEVER = frozenset("\r\n\0")


class Body(BytesPayload):
    """A request body already encoded, with its content type (a multipart message: bot/multipart.py).

    An aiohttp payload, so that a `Session` that hands the request to aiohttp sends it unchanged."""

    def __init__(self, data: bytes, *, content_type: str) -> None:
        super().__init__(data, content_type=content_type)
        self.data = data


class Response:
    """What discord.py reads of a response: status, reason, headers, and the whole body."""

    __slots__ = ("_body", "headers", "method", "reason", "status", "url")

    def __init__(
        self, method: str, url: str, status: int, reason: str, headers: CIMultiDictProxy[str], body: bytes
    ) -> None:
        self.method = method
        self.url = url
        self.status = status
        self.reason = reason
        self.headers = headers
        self._body = body

    async def read(self) -> bytes:
        return self._body

    async def text(self, encoding: str | None = None, errors: str = "strict") -> str:
        return self._body.decode(encoding or "utf-8", errors)

    async def json(self, **_: Any) -> Any:
        return json.loads(self._body)

    def release(self) -> None:
        """Nothing to release: the body is read whole before the response is handed out."""

    def __repr__(self) -> str:
        return f"<Response [{self.status} {self.reason}] {self.method} {self.url}>"


class _Connection(asyncio.Protocol):
    """One kept-alive connection: one request at a time, its response parsed as it arrives."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.waiter: asyncio.Future[Response] | None = None
        self.closed = False
        self.keep_alive = True
        self.since = 0.0  # when the pending request went, or when the connection became idle
        self.method = self.url = ""
        self._reset()

    def _reset(self) -> None:
        self._reason: list[bytes] = []
        self._headers: list[tuple[str, str]] = []
        self._body: list[bytes] = []
        self._framed = True  # a length or chunks say where the body ends (else: at the close)
        self._started = False
        self._status: int | None = None

    # asyncio.Protocol --------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if self.waiter is None or self.waiter.done():
            self.close()  # bytes nobody asked for: the connection cannot be trusted any more
            return
        self._started = True
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(aiohttp.ClientPayloadError(f"invalid HTTP response: {exc}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        waiter = self.waiter
        if waiter is None or waiter.done():
            return
        if self._started and not self._framed and self._status is not None:
            self._complete()  # a body that ends with the connection
        elif exc is None:
            waiter.set_exception(aiohttp.ServerDisconnectedError())
        else:
            errno = exc.errno if isinstance(exc, OSError) else None
            waiter.set_exception(aiohttp.ClientOSError(errno, str(exc)))

    # httptools callbacks ------------------------------------------------------------------------------

    def on_status(self, reason: bytes) -> None:
        self._reason.append(reason)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers.append((name.decode("latin-1"), value.decode("latin-1")))

    def on_headers_complete(self) -> None:
        self._status = status = self.parser.get_status_code()
        # A length, or chunks as the last transfer coding, say where the body ends (RFC 9112 §6.3).
        framing = False
        for name, value in self._headers:
            lowered = name.lower()
            if lowered == "content-length":
                framing = True
            elif lowered == "transfer-encoding":
                framing = value.rsplit(",", 1)[-1].strip().lower() == "chunked"
        self._framed = framing or status in (204, 304) or status < 200

    def on_body(self, body: bytes) -> None:
        self._body.append(body)

    def on_message_complete(self) -> None:
        if self._status is not None and self._status < 200:
            self._reset()  # an interim answer (103 Early Hints): the real one follows
            return
        self.keep_alive = self.parser.should_keep_alive()
        self._complete()

    # ------------------------------------------------------------------------------------------------

    def _complete(self) -> None:
        waiter, status = self.waiter, self._status
        if waiter is None or waiter.done() or status is None:
            return
        headers = CIMultiDictProxy(CIMultiDict(self._headers))
        body = b"".join(self._body)
        encoding = headers.get("Content-Encoding", "identity").strip().lower()
        if encoding != "identity" and body:
            # None is asked for (no Accept-Encoding): gzip and deflate are read all the same.
            try:
                if encoding not in ("gzip", "x-gzip", "deflate"):
                    raise zlib.error(f"unknown content encoding {encoding!r}")
                body = zlib.decompress(body, 47)  # gzip or zlib, told apart by their header
            except zlib.error as exc:
                self._fail(aiohttp.ClientPayloadError(f"cannot decode the body: {exc}"))
                return
        reason = b"".join(self._reason).decode("latin-1")
        waiter.set_result(Response(self.method, self.url, status, reason, headers, body))

    def _fail(self, error: BaseException) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_exception(error)
        self.close()

    def send(self, method: str, url: str, data: bytes) -> asyncio.Future[Response]:
        """Write a request; its response comes through the returned future."""
        assert self.transport is not None
        self._reset()
        self.method, self.url = method, url
        self.since = self.loop.time()
        self.waiter = self.loop.create_future()
        self.transport.write(data)
        return self.waiter

    @property
    def usable(self) -> bool:
        """Open, and not being closed: a server's close read but not yet handled counts as closed."""
        return not self.closed and self.transport is not None and not self.transport.is_closing()

    @property
    def answered(self) -> bool:
        """Whether any byte of the answer to the last request has arrived."""
        return self._started

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()


class _Origin:
    """Where the API is: its scheme, host and port, and the connections kept to it."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.secure = parts.scheme == "https"
        self.host = (parts.hostname or "").encode("idna").decode("ascii")  # as aiohttp sends it
        self.port = parts.port or (443 if self.secure else 80)
        default = 443 if self.secure else 80
        self.prefix = f"{parts.scheme}://{parts.netloc}"
        name = f"[{self.host}]" if ":" in self.host else self.host
        self.host_header = name if self.port == default else f"{name}:{self.port}"
        self.idle: list[_Connection] = []


class Session:
    """discord.py's `aiohttp.ClientSession`, with the API's plain requests sent by this module.

    Everything but `request` (and `close`) is the real session's: the gateway's websocket, CDN
    downloads, and the requests `request` hands over."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        *,
        user_agent: str = aiohttp.http.SERVER_SOFTWARE,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self._session = session
        self._user_agent = user_agent
        """Sent when a request names none: discord.py's webhook adapter (every interaction answer)
        leaves it to aiohttp, and Cloudflare may refuse a request without one."""
        self._origins: dict[str, _Origin] = {}
        self._busy: set[_Connection] = set()
        self._ssl = ssl_context  # the system's trusted certificates unless given
        self._sweeper: asyncio.TimerHandle | None = None
        self._closed = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    @property
    def session(self) -> aiohttp.ClientSession:
        """The real session, which holds the gateway and the requests handed over."""
        return self._session

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        """What `aiohttp.ClientSession.request` returns: an async context manager for the response."""
        prepared = None if self._closed else self._prepare(method, url, kwargs)
        if prepared is None:
            return self._session.request(method, url, **kwargs)
        return _Call(self, *prepared)

    def _prepare(
        self, method: str, url: str, kwargs: dict[str, Any]
    ) -> tuple[_Origin, str, str, bytes] | None:
        """The origin, the URL and the whole request in bytes; None to hand the request to aiohttp."""
        headers = kwargs.get("headers") or {}
        data = kwargs.get("data")
        params = kwargs.get("params")
        if (
            method not in _METHODS
            or kwargs.get("proxy") is not None
            or kwargs.get("proxy_auth") is not None
            or kwargs.keys() - {"headers", "data", "params", "proxy", "proxy_auth"}
            or not isinstance(headers, Mapping)
        ):
            return None
        content_type: str | None = None
        if data is None:
            body = b""
        elif isinstance(data, str):
            body = data.encode()
        elif isinstance(data, bytes):
            body = data
        elif isinstance(data, Body):
            body, content_type = data.data, data.content_type
        else:
            return None
        if params:
            if not isinstance(params, Mapping):
                return None
            url += ("&" if "?" in url else "?") + urlencode(params)
        origin = self._origin_of(url)
        if origin is None:
            return None
        target = url[len(origin.prefix) :]
        if not target.startswith("/") or "#" in target or not _PLAIN.issuperset(target.encode()):
            return None
        head = [f"{method} {target} HTTP/1.1\r\nHost: {origin.host_header}\r\n"]
        if "User-Agent" not in headers and not any(name.lower() == "user-agent" for name in headers):
            head.append(f"User-Agent: {self._user_agent}\r\n")
        for name, value in headers.items():
            if not isinstance(name, str) or not isinstance(value, str):
                return None
            if _NEVER.intersection(name) or _NEVER.intersection(value):
                raise ValueError("a request header may not contain a line break")
            head.append(f"{name}: {value}\r\n")
        if content_type is not None and not any(name.lower() == "content-type" for name in headers):
            head.append(f"Content-Type: {content_type}\r\n")
        if body or method in ("POST", "PATCH", "PUT"):
            head.append(f"Content-Length: {len(body)}\r\n")
        head.append("\r\n")
        return origin, method, url, "".join(head).encode("latin-1") + body

    def _origin_of(self, url: str) -> _Origin | None:
        base = discord.http.Route.BASE
        if not url.startswith(base + "/"):
            return None
        origin = self._origins.get(base)
        if origin is None:
            origin = _Origin(base)
            if not origin.host or origin.prefix + urlsplit(base).path != base:
                return None
            self._origins[base] = origin
        return origin

    # Connections ---------------------------------------------------------------------------------------

    async def _acquire(self, origin: _Origin) -> _Connection:
        loop = asyncio.get_running_loop()
        idle, now = origin.idle, loop.time()
        while idle:
            connection = idle.pop()
            if connection.usable and now - connection.since < IDLE_SECONDS:
                return connection
            connection.close()
        return await self._connect(origin)

    async def _connect(self, origin: _Origin) -> _Connection:
        loop = asyncio.get_running_loop()
        if origin.secure and self._ssl is None:
            self._ssl = ssl.create_default_context()
        try:
            # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation that arrives
            # just as the connection opens. A timeout is an OSError too.
            async with asyncio.timeout(CONNECT_TIMEOUT):
                _, connection = await loop.create_connection(
                    lambda: _Connection(loop),
                    origin.host,
                    origin.port,
                    ssl=self._ssl if origin.secure else None,
                    server_hostname=origin.host if origin.secure else None,
                    happy_eyeballs_delay=0.25,  # the next address after 0.25 s, as aiohttp
                    interleave=1,
                )
        except OSError as exc:
            raise aiohttp.ClientOSError(exc.errno, f"cannot connect to {origin.host_header}: {exc}") from exc
        if self._sweeper is None:
            self._sweeper = loop.call_later(SWEEP_SECONDS, self._sweep)
        return connection

    def _release(self, origin: _Origin, connection: _Connection, *, reusable: bool) -> None:
        self._busy.discard(connection)
        if not reusable or not connection.keep_alive or not connection.usable or self._closed:
            connection.close()
            return
        if len(origin.idle) >= MOST_IDLE:
            connection.close()
            return
        connection.waiter = None
        connection.since = connection.loop.time()
        origin.idle.append(connection)

    def _sweep(self) -> None:
        """Fail the requests older than `REQUEST_TIMEOUT`; close connections idle too long."""
        self._sweeper = None
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        for connection in list(self._busy):
            if now - connection.since > REQUEST_TIMEOUT:
                connection._fail(TimeoutError())
        for origin in self._origins.values():
            keep = [c for c in origin.idle if not c.closed and now - c.since < IDLE_SECONDS]
            for connection in origin.idle:
                if connection not in keep:
                    connection.close()
            origin.idle[:] = keep
        if self._busy or any(origin.idle for origin in self._origins.values()):
            self._sweeper = loop.call_later(SWEEP_SECONDS, self._sweep)

    async def close(self) -> None:
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for origin in self._origins.values():
            for connection in origin.idle:
                connection.close()
            origin.idle.clear()
        for connection in list(self._busy):
            connection._fail(aiohttp.ClientConnectionError("the session is closed"))
        await self._session.close()

    @property
    def closed(self) -> bool:
        return self._session.closed


class _Call:
    """``async with session.request(...) as response``: the response is read whole on entry."""

    __slots__ = (
        "_connection",
        "_data",
        "_method",
        "_origin",
        "_session",
        "_unanswered",
        "_url",
    )

    def __init__(self, session: Session, origin: _Origin, method: str, url: str, data: bytes) -> None:
        self._session, self._origin, self._method, self._url, self._data = session, origin, method, url, data
        self._connection: _Connection | None = None
        self._unanswered = False

    async def __aenter__(self) -> Response:
        session, origin = self._session, self._origin
        try:
            return await self._once(await session._acquire(origin))
        except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError):
            # A connection closed or reset before any byte of the answer (a kept one the server closed
            # as the request went, a proxy's reset): an idempotent request goes once more on a new
            # connection, as aiohttp does (RFC 9112 §9.3.1); never a POST or a PATCH, nor a failed connect.
            if not (self._method in _IDEMPOTENT and self._unanswered):
                raise
        return await self._once(await session._connect(origin))

    async def _once(self, connection: _Connection) -> Response:
        session = self._session
        self._connection = connection
        session._busy.add(connection)
        try:
            return await connection.send(self._method, self._url, self._data)
        except BaseException:
            self._connection = None
            self._unanswered = not connection.answered
            session._release(self._origin, connection, reusable=False)
            raise

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            self._session._release(self._origin, connection, reusable=True)


def install(http: discord.http.HTTPClient) -> Session | None:
    """Send `http`'s REST calls through a `Session` (after login, when discord.py has its session).

    Returns the `Session`, or None when there is no session yet or it is already one."""
    name = "_HTTPClient__session"
    current = getattr(http, name, None)
    if not isinstance(current, aiohttp.ClientSession):
        return None
    session = Session(current, user_agent=http.user_agent)
    setattr(http, name, session)
    return session
