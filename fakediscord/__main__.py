"""`python -m fakediscord --port N [--shards K] [--guilds G]`: a fake Discord as its own process.

Prints its base URL (`http://127.0.0.1:N`) on the first line of stdout once it listens, then serves until
SIGINT or SIGTERM. Bots in other processes connect with DISCORD_API_BASE=<url>/api/v10 and
DISCORD_GATEWAY_URL=ws://127.0.0.1:N/gateway; a test drives users through the control API (control.py).
Extra guilds are named "Gilda 2".."Gilda G", each with one channel "poker-2".."poker-G", and the guilds
take the shards in turn from the first guild's (which has the default channels "poker", "generale"...):
with G >= K every shard has a guild. `GET /_control/state` lists the guilds with their shards.
"""

from __future__ import annotations

import argparse
import asyncio
import signal

from fakediscord.server import FakeDiscord


async def serve(port: int, shards: int, guilds: int, timeout: float) -> None:
    fake = FakeDiscord(shards=shards, timeout=timeout)
    for g in range(2, guilds + 1):
        shard = (fake.shard_of(fake.guild_id) + g - 1) % shards
        fake.add_guild(f"Gilda {g}", channels=(f"poker-{g}",), shard=shard)
    await fake.start(port)
    print(f"http://{fake.host}:{fake.port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await fake.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m fakediscord", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--shards", type=int, default=1, help="shard count GET /gateway/bot recommends")
    parser.add_argument("--guilds", type=int, default=1, help="number of guilds")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for the bot's answers")
    args = parser.parse_args(argv)
    asyncio.run(serve(args.port, args.shards, args.guilds, args.timeout))


if __name__ == "__main__":
    main()
