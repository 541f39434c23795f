"""``python -m bench.capacity.null_bot``: the floor of the capacity benchmark.

A bare ``discord.Client`` with the poker bot's intents (guilds only) and its mentions policy, pointed
at the same gateway and REST base through the same environment variables (DISCORD_TOKEN,
DISCORD_API_BASE, DISCORD_GATEWAY_URL). It answers every interaction (slash command, button, menu,
modal) with one fixed message and does nothing else: no command tree, no database, no game. What it
costs per interaction is what discord.py itself costs to receive an interaction over the gateway,
parse it (with the message a button sits on) and send one callback: the least any bot built on
discord.py can spend. Prints ``ready`` on stderr once connected; stops cleanly on SIGINT or SIGTERM.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys

import discord
import yarl

ANSWER = "ok"


class NullBot(discord.Client):
    """Answers everything with `ANSWER`, publicly, at once."""

    def __init__(self) -> None:
        wanted = discord.Intents.none()
        wanted.guilds = True
        super().__init__(intents=wanted, allowed_mentions=discord.AllowedMentions.none())

    async def on_ready(self) -> None:
        print("ready", file=sys.stderr, flush=True)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(ANSWER)


async def run() -> int:
    api_base = os.environ.get("DISCORD_API_BASE")
    gateway_url = os.environ.get("DISCORD_GATEWAY_URL")
    if not api_base or not gateway_url:
        print("DISCORD_API_BASE and DISCORD_GATEWAY_URL are required", file=sys.stderr)
        return 2
    # The same two redirection points the poker bot sets (bot.client.apply_endpoints).
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    client = NullBot()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await client.login(os.environ["DISCORD_TOKEN"])
    connection = asyncio.create_task(client.connect())
    stopping = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({connection, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
        await client.close()
        await asyncio.wait({connection}, timeout=10)
    return 0


def main() -> int:
    return asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main())
