"""The REST transport (bot/transport.py) against a real HTTP server on 127.0.0.1, byte by byte.

The server here is a plain asyncio server that reads each request (head and body) and answers with
the bytes a test gives it, so every test can say exactly what went over the wire: what discord.py
asked for arrives unchanged, the answer it reads is the server's, a connection is kept for the next
request only when that is safe, and what the transport does not take goes through aiohttp.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import socket
import ssl
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import discord
import pytest
from discord.http import Route
from discord.webhook.async_ import async_context

from bot import transport
from bot.client import apply_endpoints
from bot.errors import NETWORK_ERRORS

TLS = Path(__file__).parent / "tls"


@dataclass
class Seen:
    """A request as the server read it."""

    line: str
    headers: dict[str, str]
    body: bytes
    connection: int


Answer = Callable[[Seen], bytes | None]
"""The bytes to write back (None: write nothing and keep the connection open)."""


def reply(
    status: int = 200, body: bytes = b"", *, headers: tuple[str, ...] = (), reason: str = "OK"
) -> bytes:
    head = [f"HTTP/1.1 {status} {reason}", *headers]
    if not any(h.lower().startswith(("content-length", "transfer-encoding")) for h in headers):
        head.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def json_reply(body: str | bytes, *extra: str) -> bytes:
    """A 200 with a JSON body (``body`` as it goes on the wire) and the ``extra`` header lines."""
    data = body.encode() if isinstance(body, str) else body
    return reply(200, data, headers=("Content-Type: application/json", *extra))


@dataclass
class Server:
    """An HTTP/1.1 server that records what it reads and answers what `answer` says."""

    answer: Answer = field(default=lambda seen: reply(204, reason="No Content"))
    seen: list[Seen] = field(default_factory=list)
    connections: int = 0
    close_after_answer: bool = False
    port: int = 0
    handlers: set[asyncio.Task[None]] = field(default_factory=set)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.handlers.add(task)
        try:
            await self._serve(reader, writer)
        finally:
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        number = self.connections
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                line, *rest = head.decode("latin-1").split("\r\n")
                headers = {}
                for text in rest:
                    if text:
                        name, _, value = text.partition(":")
                        headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                seen = Seen(line, headers, body, number)
                self.seen.append(seen)
                data = self.answer(seen)
                if data is None:
                    await asyncio.sleep(3600)
                writer.write(data or b"")
                await writer.drain()
                if self.close_after_answer:
                    break


@contextlib.asynccontextmanager
async def serving(server: Server, *, tls: ssl.SSLContext | None = None) -> AsyncIterator[str]:
    """The server on a free port of 127.0.0.1, with discord.py's API base pointed at it."""
    listening = await asyncio.start_server(server.handle, "127.0.0.1", 0, ssl=tls)
    server.port = listening.sockets[0].getsockname()[1]
    base = f"{'https' if tls else 'http'}://127.0.0.1:{server.port}/api/v10"
    apply_endpoints(base, None)
    try:
        yield base
    finally:
        apply_endpoints(None, None)
        listening.close()
        for task in server.handlers:
            task.cancel()
        await asyncio.gather(*server.handlers, return_exceptions=True)
        await listening.wait_closed()


@contextlib.asynccontextmanager
async def session_for(ssl_context: ssl.SSLContext | None = None) -> AsyncIterator[transport.Session]:
    session = transport.Session(aiohttp.ClientSession(), ssl_context=ssl_context)
    try:
        yield session
    finally:
        await session.close()


async def http_client(session: transport.Session) -> discord.http.HTTPClient:
    """discord.py's own REST client, logged in with a token and sending through `session`."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    http.token = "secret-token"
    http._global_over = asyncio.Event()  # what login makes, with the session
    http._global_over.set()
    http._HTTPClient__session = session  # what `transport.install` does after login
    return http


def edit() -> Route:
    """A message edit; a route reads the API base when it is made, so after `serving`."""
    return Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=5, message_id=7)


async def test_discord_py_request_arrives_as_it_asked_and_reads_the_answer() -> None:
    server = Server(answer=lambda seen: json_reply('{"id": "7", "content": "Tocca a te"}'))
    async with serving(server), session_for() as session:
        http = await http_client(session)
        data = await http.request(edit(), json={"content": "Tocca a te"}, reason="una prova")
    assert data == {"id": "7", "content": "Tocca a te"}
    [seen] = server.seen
    assert seen.line == "PATCH /api/v10/channels/5/messages/7 HTTP/1.1"
    assert seen.headers["host"] == f"127.0.0.1:{server.port}"
    assert seen.headers["authorization"] == "Bot secret-token"
    assert seen.headers["content-type"] == "application/json"
    assert seen.headers["x-audit-log-reason"] == "una prova"
    assert seen.headers["user-agent"].startswith("DiscordBot")
    assert "accept-encoding" not in seen.headers, "taken by the transport, not handed to aiohttp"
    assert seen.body == b'{"content":"Tocca a te"}'


async def test_one_connection_serves_request_after_request() -> None:
    server = Server(answer=lambda seen: json_reply('{"id": "1"}'))
    async with serving(server), session_for() as session:
        http = await http_client(session)
        for _ in range(5):
            await http.request(edit(), json={"content": "x"})
    assert len(server.seen) == 5
    assert server.connections == 1


async def test_requests_at_the_same_time_each_get_their_own_answer() -> None:
    def answer(seen: Seen) -> bytes:
        return json_reply(seen.body.decode())

    server = Server(answer=answer)
    async with serving(server), session_for() as session:
        http = await http_client(session)
        routes = [
            Route("POST", "/channels/{channel_id}/messages", channel_id=channel) for channel in range(1, 9)
        ]
        answers = await asyncio.gather(
            *(http.request(route, json={"n": n}) for n, route in enumerate(routes))
        )
    assert answers == [{"n": n} for n in range(8)]
    assert 1 < server.connections <= 8


async def test_a_chunked_answer_is_read_whole() -> None:
    chunks = b'5\r\n{"id"\r\n7\r\n: "42"}\r\n0\r\n\r\n'
    server = Server(answer=lambda seen: json_reply(chunks, "Transfer-Encoding: chunked"))
    async with serving(server), session_for() as session:
        http = await http_client(session)
        assert await http.request(edit(), json={}) == {"id": "42"}
        assert await http.request(edit(), json={}) == {"id": "42"}, "and the connection is kept after it"
    assert server.connections == 1


async def test_a_compressed_answer_is_decompressed() -> None:
    packed = gzip.compress(b'{"id": "9"}')
    server = Server(answer=lambda seen: json_reply(packed, "Content-Encoding: gzip"))
    async with serving(server), session_for() as session:
        http = await http_client(session)
        assert await http.request(edit(), json={}) == {"id": "9"}


async def test_an_answer_that_ends_with_the_connection_is_read_to_its_end() -> None:
    def answer(seen: Seen) -> bytes:
        return b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"id": "3"}'

    server = Server(answer=answer, close_after_answer=True)
    async with serving(server), session_for() as session:
        http = await http_client(session)
        assert await http.request(edit(), json={}) == {"id": "3"}
        assert await http.request(edit(), json={}) == {"id": "3"}
    assert server.connections == 2, "a connection the server closes is never used again"


async def test_errors_are_discord_py_errors_with_status_and_reason() -> None:
    def answer(seen: Seen) -> bytes:
        body = b'{"message": "Unknown Message", "code": 10008}'
        return reply(404, body, headers=("Content-Type: application/json",), reason="Not Found")

    server = Server(answer=answer)
    async with serving(server), session_for() as session:
        http = await http_client(session)
        with pytest.raises(discord.NotFound) as caught:
            await http.request(edit(), json={})
    assert caught.value.status == 404 and caught.value.code == 10008
    assert str(caught.value) == "404 Not Found (error code: 10008): Unknown Message"


async def test_a_429_waits_and_tries_again_through_discord_py() -> None:
    answers = iter(
        [
            reply(
                429,
                b'{"message": "You are being rate limited.", "retry_after": 0.05, "global": false}',
                headers=(
                    "Content-Type: application/json",
                    "Via: 1.1 google",
                    "X-RateLimit-Limit: 5",
                    "X-RateLimit-Remaining: 0",
                    "X-RateLimit-Reset-After: 0.05",
                    "X-RateLimit-Bucket: abc",
                ),
                reason="Too Many Requests",
            ),
            json_reply('{"id": "1"}', "X-RateLimit-Remaining: 4", "X-RateLimit-Reset-After: 1"),
        ]
    )
    server = Server(answer=lambda seen: next(answers))
    async with serving(server), session_for() as session:
        http = await http_client(session)
        assert await http.request(edit(), json={}) == {"id": "1"}
    assert len(server.seen) == 2


async def test_a_connection_closed_before_the_answer_is_a_network_error_and_not_reused() -> None:
    calls = 0

    def answer(seen: Seen) -> bytes:
        nonlocal calls
        calls += 1
        return b"" if calls == 1 else json_reply('{"id": "2"}')

    server = Server(answer=answer, close_after_answer=True)
    async with serving(server), session_for() as session:
        http = await http_client(session)
        with pytest.raises(NETWORK_ERRORS):
            await http.request(edit(), json={})
        server.close_after_answer = False
        assert await http.request(edit(), json={}) == {"id": "2"}
    assert server.connections == 2


async def test_a_kept_connection_the_server_closed_meanwhile_is_not_used() -> None:
    server = Server(answer=lambda seen: json_reply('{"id": "4"}'), close_after_answer=True)
    async with serving(server), session_for() as session:
        http = await http_client(session)
        await http.request(edit(), json={})
        await asyncio.sleep(0.05)  # the server's close reaches the idle connection
        assert await http.request(edit(), json={}) == {"id": "4"}
    assert server.connections == 2


async def test_a_garbled_answer_is_a_network_error() -> None:
    server = Server(answer=lambda seen: b"HTTP/1.1 banana\r\n\r\n")
    async with serving(server), session_for() as session:
        http = await http_client(session)
        with pytest.raises(NETWORK_ERRORS):
            await http.request(edit(), json={})


async def test_a_cancelled_request_leaves_no_connection_behind_for_the_next() -> None:
    answers = iter([None, json_reply('{"id": "5"}')])
    server = Server(answer=lambda seen: next(answers))
    async with serving(server), session_for() as session:
        http = await http_client(session)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(http.request(edit(), json={}), 0.2)
        assert await http.request(edit(), json={}) == {"id": "5"}
    assert server.connections == 2, "the first connection may still get the first answer: never reused"


async def test_a_request_with_no_answer_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transport, "REQUEST_TIMEOUT", 0.1)
    monkeypatch.setattr(transport, "SWEEP_SECONDS", 0.05)
    server = Server(answer=lambda seen: None)
    async with serving(server), session_for() as session:
        http = await http_client(session)
        with pytest.raises(TimeoutError):
            await http.request(edit(), json={})


async def test_a_server_that_is_not_there_is_a_network_error() -> None:
    listening = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    listening.close()
    await listening.wait_closed()
    apply_endpoints(f"http://127.0.0.1:{port}/api/v10", None)
    try:
        async with session_for() as session:
            http = await http_client(session)
            with pytest.raises(NETWORK_ERRORS):
                await http.request(edit(), json={})
    finally:
        apply_endpoints(None, None)


async def test_a_message_with_a_picture_goes_as_its_one_body() -> None:
    server = Server(answer=lambda seen: json_reply('{"id": "6"}'))
    body = transport.Body(b"--b\r\npart\r\n--b--\r\n", content_type="multipart/form-data; boundary=b")
    async with serving(server), session_for() as session:
        http = await http_client(session)
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=5)
        assert await http.request(route, data=body) == {"id": "6"}
    [seen] = server.seen
    assert seen.headers["content-type"] == "multipart/form-data; boundary=b"
    assert seen.body == b"--b\r\npart\r\n--b--\r\n"


async def test_query_parameters_go_on_the_target() -> None:
    server = Server(answer=lambda seen: json_reply("{}"))
    async with (
        serving(server) as base,
        session_for() as session,
        session.request("POST", f"{base}/interactions/1/tok/callback", params={"with_response": "1"}),
    ):
        pass
    assert server.seen[0].line == "POST /api/v10/interactions/1/tok/callback?with_response=1 HTTP/1.1"


@pytest.mark.parametrize(
    "ask",
    [
        pytest.param(lambda base: ("GET", "http://127.0.0.2:9/x", {}), id="another origin"),
        pytest.param(lambda base: ("HEAD", f"{base}/gateway", {}), id="a method it does not take"),
        pytest.param(lambda base: ("GET", f"{base}/reactions/🂡", {}), id="a target that needs escaping"),
        pytest.param(lambda base: ("POST", f"{base}/x", {"data": aiohttp.FormData({"a": "b"})}), id="a form"),
        pytest.param(
            lambda base: ("GET", f"{base}/x", {"timeout": aiohttp.ClientTimeout(5)}), id="an option"
        ),
    ],
)
async def test_what_it_does_not_take_is_aiohttps(
    ask: Callable[[str], tuple[str, str, dict[str, object]]],
) -> None:
    handed: list[tuple[str, str]] = []
    server = Server()
    async with serving(server) as base, session_for() as session:

        class Spy:
            def request(self, method: str, url: str, **kwargs: object) -> object:
                handed.append((method, url))
                return "aiohttp's"

        method, url, kwargs = ask(base)
        real, session._session = session._session, Spy()  # type: ignore[assignment]
        try:
            assert session.request(method, url, **kwargs) == "aiohttp's"
        finally:
            session._session = real
    assert handed == [(method, url)]
    assert server.seen == []


async def test_a_line_break_in_a_header_is_refused_before_anything_is_sent() -> None:
    server = Server()
    async with serving(server) as base, session_for() as session:
        with pytest.raises(ValueError, match="line break"):
            session.request("GET", f"{base}/x", headers={"X-Audit-Log-Reason": "a\r\nInjected: yes"})
    assert server.seen == []


async def test_https_with_a_certificate_it_trusts_and_not_with_one_it_does_not() -> None:
    serving_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    serving_tls.load_cert_chain(TLS / "cert.pem", TLS / "key.pem")
    server = Server(answer=lambda seen: json_reply('{"id": "8"}'))
    trusting = ssl.create_default_context(cafile=str(TLS / "cert.pem"))
    async with serving(server, tls=serving_tls):
        async with session_for(trusting) as session:
            http = await http_client(session)
            assert await http.request(edit(), json={"content": "segreto"}) == {"id": "8"}
        assert server.seen[0].body == b'{"content":"segreto"}'
        async with session_for() as session:  # the system's certificates: ours is not among them
            http = await http_client(session)
            with pytest.raises(NETWORK_ERRORS):
                await http.request(edit(), json={})
    assert len(server.seen) == 1


async def test_install_keeps_the_real_session_for_the_rest() -> None:
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    assert transport.install(http) is None, "before login there is no session to wrap"
    real = aiohttp.ClientSession()
    http._HTTPClient__session = real
    session = transport.install(http)
    assert session is not None and session.session is real
    assert http._HTTPClient__session is session
    assert transport.install(http) is None, "installed once"
    assert session.ws_connect == real.ws_connect, "the gateway stays aiohttp's"
    await session.close()
    assert real.closed and session.closed


async def test_an_interim_answer_is_passed_over_for_the_real_one() -> None:
    early = b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
    server = Server(answer=lambda seen: early + json_reply('{"id": "11"}'))
    async with serving(server), session_for() as session:
        http = await http_client(session)
        assert await http.request(edit(), json={}) == {"id": "11"}
        assert await http.request(edit(), json={}) == {"id": "11"}
    assert server.connections == 1


async def test_a_body_in_an_encoding_it_cannot_read_is_a_network_error() -> None:
    server = Server(
        answer=lambda seen: reply(
            200, b"\x1b\x00", headers=("Content-Type: application/json", "Content-Encoding: br")
        )
    )
    async with serving(server), session_for() as session:
        http = await http_client(session)
        with pytest.raises(NETWORK_ERRORS):
            await http.request(edit(), json={})


def callback() -> Route:
    """An interaction's answer, the bot's most frequent REST call (bot/rest.py `respond`/`update`)."""
    return Route(
        "POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=1, webhook_token="tok"
    )


async def test_an_interaction_answer_carries_a_user_agent_as_it_did_through_aiohttp() -> None:
    """discord.py's webhook adapter (interaction answers, follow-ups, edits of the original response)
    sets no User-Agent: aiohttp adds its default one (``Python/3.11 aiohttp/3.x``). Discord asks every
    client for a User-Agent and Cloudflare blocks requests without a valid one (error 40333, "internal
    network error"); the transport sends none at all on the bot's most frequent call."""
    server = Server()
    async with serving(server), session_for() as session:
        await async_context.get().request(callback(), session, payload={"type": 1})  # type: ignore[arg-type]
    [seen] = server.seen
    assert "user-agent" in seen.headers, f"no User-Agent on an interaction answer: {seen.headers}"


async def test_a_kept_connection_the_server_is_closing_is_not_handed_out() -> None:
    """The server's FIN on an idle kept connection has been read (the transport is closing) but
    `connection_lost` has not run yet: aiohttp's pool skips such a connection (`is_connected()` checks
    `transport.is_closing()`); the transport hands it out, the request is written into a closing
    transport and dropped, and the call fails with ServerDisconnectedError."""
    server = Server(answer=lambda seen: json_reply('{"id": "1"}'))
    async with serving(server) as base, session_for() as session:
        async with session.request("PATCH", f"{base}/x", data="{}"):
            pass
        [origin] = session._origins.values()
        [kept] = origin.idle
        for handler in server.handlers:  # the server drops the idle connection (its keep-alive timeout)
            handler.cancel()
        assert kept.transport is not None
        while not kept.transport.is_closing():
            await asyncio.sleep(0)
        async with session.request("PATCH", f"{base}/x", data="{}") as response:
            assert response.status == 200
    assert server.connections == 2


async def test_a_get_on_a_kept_connection_the_server_closed_is_tried_once_more() -> None:
    """A kept connection that the server closes just as a request goes out: aiohttp (3.9+) sends an
    idempotent request (GET, PUT, DELETE) once more on a new connection (RFC 9112 §9.3.1, ``IDEMPOTENT_
    METHODS`` in aiohttp/client.py); the transport raises ServerDisconnectedError to discord.py, which
    does not retry it. `night_summary.display_names` (a GET) catches only `discord.HTTPException`."""
    server = Server()

    def answer(seen: Seen) -> bytes:
        # the second request, on the kept connection, is read and the connection closed unanswered
        server.close_after_answer = len(server.seen) == 2
        return b"" if server.close_after_answer else json_reply('{"id": "3", "username": "Gino"}')

    server.answer = answer
    async with serving(server), session_for() as session:
        http = await http_client(session)
        user = Route("GET", "/users/{user_id}", user_id=3)
        await http.request(user)
        assert await http.request(user) == {"id": "3", "username": "Gino"}
    assert [seen.connection for seen in server.seen] == [1, 1, 2]


@pytest.fixture
def black_hole() -> Iterator[socket.socket]:
    """A listening socket on 127.0.0.2 whose backlog is full: a connect to it hangs, as to an address
    whose packets are dropped (an IPv6 route that does not work, a firewall)."""
    listener = socket.socket()
    listener.bind(("127.0.0.2", 0))
    listener.listen(0)
    filler = socket.create_connection(listener.getsockname())
    try:
        yield listener
    finally:
        filler.close()
        listener.close()


async def test_an_address_that_does_not_answer_does_not_stop_the_next_one(
    black_hole: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.com has several addresses (IPv6 and IPv4). aiohttp tries the next one after 0.25 s
    (Happy Eyeballs, ``happy_eyeballs_delay`` of its TCPConnector); the transport's
    `loop.create_connection` tries them one after the other, so a first address whose packets are
    dropped takes the whole `CONNECT_TIMEOUT` (30 s) and every new connection fails with a timeout."""
    monkeypatch.setattr(transport, "CONNECT_TIMEOUT", 3.0)
    server = Server(answer=lambda seen: json_reply('{"id": "5"}'))
    async with serving(server):
        loop = asyncio.get_running_loop()
        dead = black_hole.getsockname()[1]

        async def getaddrinfo(host: str, port: int, *args: object, **kwargs: object) -> list[tuple]:  # type: ignore[type-arg]
            assert host == "api.discord.test"
            return [
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.2", dead)),
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", server.port)),
            ]

        monkeypatch.setattr(loop, "getaddrinfo", getaddrinfo)
        apply_endpoints(f"http://api.discord.test:{server.port}/api/v10", None)
        async with session_for() as session:
            http = await http_client(session)
            assert await asyncio.wait_for(http.request(edit(), json={}), 2.5) == {"id": "5"}


@pytest.mark.parametrize("host", ["café.discord.test", "дискорд.test"])
async def test_an_api_host_outside_ascii_goes_as_its_idna_name(
    host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bot/config.py accepts any DISCORD_API_BASE whose host the IDNA codec can encode (`_host_ok`);
    aiohttp sends such a host as its ASCII name (``xn--…``). The transport writes the Unicode name
    into the Host header as Latin-1: wrong bytes for "café", and for a name outside Latin-1 a
    UnicodeEncodeError out of `Session.request` on every REST call (not a network error: a traceback)."""
    server = Server(answer=lambda seen: json_reply('{"id": "6"}'))
    async with serving(server):
        loop = asyncio.get_running_loop()

        async def getaddrinfo(name: str, port: int, *args: object, **kwargs: object) -> list[tuple]:  # type: ignore[type-arg]
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", server.port))]

        monkeypatch.setattr(loop, "getaddrinfo", getaddrinfo)
        apply_endpoints(f"http://{host}:{server.port}/api/v10", None)
        async with session_for() as session:
            http = await http_client(session)
            assert await http.request(edit(), json={}) == {"id": "6"}
    assert server.seen[0].headers["host"] == f"{host.encode('idna').decode()}:{server.port}"


async def test_a_body_framed_by_a_transfer_coding_other_than_chunked_is_read_to_the_close() -> None:
    """A response whose Transfer-Encoding does not end in chunked has its body end at the close
    (RFC 9112 §6.3); llhttp reads it so, but `on_headers_complete` counts any Transfer-Encoding as
    framing, so `connection_lost` fails the request with ServerDisconnectedError where aiohttp
    returns the body."""

    def answer(seen: Seen) -> bytes:
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: identity\r\n\r\n"
        return head + b'{"id": "7"}'

    server = Server(answer=answer, close_after_answer=True)
    async with serving(server), session_for() as session:
        http = await http_client(session)
        assert await http.request(edit(), json={}) == {"id": "7"}


@contextlib.asynccontextmanager
async def session_of(kind: str) -> AsyncIterator[object]:
    real = aiohttp.ClientSession()
    session: object = transport.Session(real) if kind == "lean" else real
    try:
        yield session
    finally:
        await session.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", ["lean", "aiohttp"])
async def test_a_put_whose_new_connection_is_reset_unanswered_is_tried_once_more(kind: str) -> None:
    """aiohttp sends an idempotent request (GET, PUT, DELETE) once more after ServerDisconnectedError /
    ClientOSError on *any* connection (aiohttp/client.py, ``retry_persistent_connection``); the
    transport only on a kept one (``_kept_unanswered``). The bot's first request after login is such a
    PUT (the command sync in `PokerBot.setup_hook`), on the transport's first connection."""
    server = Server()

    def answer(seen: Seen) -> bytes:
        server.close_after_answer = len(server.seen) == 1  # the first request: read, then hang up
        return b"" if server.close_after_answer else json_reply("[]")

    server.answer = answer
    async with serving(server), session_of(kind) as session:
        http = await http_client(session)  # type: ignore[arg-type]
        sync = Route("PUT", "/applications/{application_id}/commands", application_id=9)
        assert await http.request(sync, json=[]) == []
    assert [seen.connection for seen in server.seen] == [1, 2]
