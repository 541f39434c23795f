"""The CPU of one REST call: discord.py over bot/transport.py against discord.py over aiohttp.

    python -m bench.bench_rest [--calls 3000] [--rounds 3] [--at-once 2]

A server in its own process (aiohttp's web server on 127.0.0.1, answering like Discord: a message as
JSON with rate-limit headers, ``204`` for an interaction answer) and, in this process, discord.py's
`HTTPClient.request` sending table-message edits (a table message's size, buttons included), a few
at a time (``--at-once``, as a busy bot has a few calls in flight), through each client in turn:

* ``aiohttp``: discord.py's own `aiohttp.ClientSession`, the peer (what every discord.py bot uses);
* ``lean``: the same session behind `bot.transport.Session` (what the bot installs at login).

The figure is this process's CPU time (`time.process_time`: every thread, the kernel's work for its
sockets included) per call, rounds alternating between the two clients; the server's CPU is not
counted. The capacity benchmark (bench_capacity) measures the whole bot; this isolates the call.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import aiohttp
import discord
from discord.http import Route

from bot import transport
from bot.client import apply_endpoints

__all__ = ["main", "measure"]

ROOT = Path(__file__).resolve().parent.parent

SERVER = """
import sys
from aiohttp import web

HEADERS = {"X-RateLimit-Bucket": "b", "X-RateLimit-Limit": "50", "X-RateLimit-Remaining": "49",
           "X-RateLimit-Reset-After": "1.0", "X-RateLimit-Reset": "9999999999.0"}

async def answer(request):
    await request.read()
    if request.path.endswith("/callback"):
        return web.Response(status=204)
    return web.json_response({"id": "1234567890123456789", "channel_id": "1"}, headers=HEADERS)

app = web.Application()
app.router.add_route("*", "/{tail:.*}", answer)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
"""

TABLE_MESSAGE = {
    "content": "**Mano n. 12** · piatto 40 · Tocca a <@123456789012345678>: vedo, rilancio o passo?\n" * 4,
    "components": [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": word, "custom_id": f"tv:1:12.3:a:{word.lower()}"}
                for word in ("Vedo", "Rilancio", "Passo", "Servito", "Carte")
            ],
        }
    ],
    "allowed_mentions": {"parse": []},
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def wait_until_listening(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)
            continue
        writer.close()
        return


async def measure(client: str, calls: int, at_once: int) -> float:
    """CPU milliseconds of this process per call through `client` (``lean`` or ``aiohttp``)."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    http.token = "bench-token"
    http._global_over = asyncio.Event()  # what login makes, with the session
    http._global_over.set()
    real = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), cookie_jar=aiohttp.DummyCookieJar())
    session = transport.Session(real, user_agent=http.user_agent) if client == "lean" else real
    http._HTTPClient__session = session  # type: ignore[attr-defined]  # what transport.install does

    async def edit(n: int) -> None:
        route = Route(
            "PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1 + n % 50, message_id=7
        )
        await http.request(route, json=TABLE_MESSAGE)

    try:
        for n in range(100):  # connections opened, buckets learnt
            await edit(n)
        batches = max(1, calls // at_once)
        start = time.process_time()
        for batch in range(batches):
            await asyncio.gather(*(edit(batch * at_once + k) for k in range(at_once)))
        return (time.process_time() - start) / (batches * at_once) * 1000
    finally:
        await session.close()


def main(argv: Sequence[str] = ()) -> int:
    """Run the comparison; ``python -m bench`` calls it without arguments."""
    parser = argparse.ArgumentParser(prog="python -m bench.bench_rest", description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=3000, help="calls per client and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--at-once", type=int, default=2, help="calls in flight together")
    args = parser.parse_args(list(argv))
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port)], env=env)
    apply_endpoints(f"http://127.0.0.1:{port}/api/v10", None)
    figures: dict[str, list[float]] = {"aiohttp": [], "lean": []}
    try:
        asyncio.run(wait_until_listening(port))
        print(
            f"Python {sys.version.split()[0]}, discord.py {discord.__version__}, "
            f"aiohttp {aiohttp.__version__}: "
            f"CPU di questo processo per chiamata REST (modifica di un messaggio del tavolo, {args.at_once} "
            "alla volta), il server in un altro processo.",
            flush=True,
        )
        for round_number in range(1, max(1, args.rounds) + 1):
            for client in ("aiohttp", "lean"):
                figure = asyncio.run(measure(client, args.calls, max(1, args.at_once)))
                figures[client].append(figure)
                print(f"   giro {round_number}, {client:7}: {figure:.3f} ms per chiamata", flush=True)
    finally:
        apply_endpoints(None, None)
        server.terminate()
        server.wait(10)
    peer, ours = statistics.median(figures["aiohttp"]), statistics.median(figures["lean"])
    print(
        f"mediana: discord.py su aiohttp {peer:.3f} ms, su bot/transport.py {ours:.3f} ms per chiamata: "
        f"{ours / peer:.2f} volte (−{(1 - ours / peer) * 100:.0f} %)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
