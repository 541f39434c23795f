"""``python -m bot``: load ``.env``, start the bot, stop cleanly on SIGINT or SIGTERM.

A host who got a setting wrong reads one Italian sentence and the process exits with status 2;
tracebacks are for bugs, not for a missing token.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import sys
from pathlib import Path

import aiohttp
import discord
from dotenv import load_dotenv

from bot.client import create_bot
from bot.config import ConfigError, Settings
from bot.errors import StartupError
from bot.logging_setup import setup_logging

log = logging.getLogger("bot")

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_CONFIG = 2

INVALID_TOKEN = (
    "Discord ha rifiutato DISCORD_TOKEN: il token non è valido o è stato rigenerato; "
    "copialo di nuovo dalla scheda «Bot» del Developer Portal e aggiornalo nel file .env."
)
PRIVILEGED_INTENTS = (
    "Discord rifiuta gli intent richiesti dal bot: controlla la scheda «Bot» del Developer Portal."
)
SHARDING_REQUIRED = (
    "Discord chiede di dividere il bot in più shard (è in troppi server per una connessione sola): "
    "imposta o aumenta SHARD_COUNT in ogni processo del bot e riavviali (vedi il README)."
)
INVALID_SHARD = (
    "Discord rifiuta gli shard richiesti: SHARD_IDS deve contenere numeri da 0 a SHARD_COUNT-1, "
    "con lo stesso SHARD_COUNT in ogni processo del bot."
)
SHARDS_LOST = (
    "The database connection holding this process's shard locks ended (PostgreSQL restarted, or the "
    "network dropped it): another process may take these shards now, so this one stops; restart it "
    "to claim them again"
)
DOTENV_UNREADABLE = (
    "Il file .env non si legge: salvalo come testo UTF-8 (una riga NOME=valore per impostazione)."
)
# Gateway close codes that no reconnection can fix: the shard settings must change.
SHARD_CLOSE_CODES = {4010: INVALID_SHARD, 4011: SHARDING_REQUIRED}


def _unreachable(exc: BaseException) -> str:
    return f"Non riesco a raggiungere Discord ({exc.__class__.__name__}): controlla la connessione e riprova."


GC_THRESHOLDS = (50_000, 20, 20)
"""Young objects are collected every 50,000 allocations instead of Python's 700 (see `settle_memory`)."""


def settle_memory() -> None:
    """Once started, keep the cycle collector out of the hot path.

    What start-up built (discord.py, the commands, the storage, the tables restored) lives as long as
    the process: `gc.freeze` moves it out of every later collection. A game's own objects are freed by
    reference counting as soon as they are dropped; the collector only has rare cycles to find
    (exceptions, finished tasks), yet by default it scans the young objects every 700 allocations,
    which under load is several percent of the bot's CPU (bench/README.md, capacity). Memory stays
    bounded: cyclic garbage waits at most 50,000 allocations.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def run(settings: Settings) -> int:
    """Log in, stay connected until a signal or a fatal error, then close everything in order."""
    bot = create_bot(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    connection: asyncio.Task[None] | None = None
    try:
        try:
            await bot.login(settings.token)
        except discord.LoginFailure:
            print(INVALID_TOKEN, file=sys.stderr)
            return EXIT_CONFIG
        except StartupError as exc:
            print(exc, file=sys.stderr)
            return EXIT_CONFIG
        except (aiohttp.ClientError, OSError) as exc:
            print(_unreachable(exc), file=sys.stderr)
            return EXIT_FAILURE

        settle_memory()
        connection = asyncio.create_task(bot.connect(), name="discord-connect")
        stopping = asyncio.create_task(stop.wait(), name="stop-signal")
        waits = {connection, stopping}
        lost = bot.storage.shards_lost
        if lost is not None:
            waits.add(asyncio.create_task(lost.wait(), name="shards-lost"))
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for task in waits - {connection}:
            task.cancel()
        if stop.is_set():
            log.info("Stop requested: closing")
            return EXIT_OK
        if lost is not None and lost.is_set():
            log.error(SHARDS_LOST)
            return EXIT_FAILURE
        failure = connection.exception()
        if isinstance(failure, discord.LoginFailure):
            print(INVALID_TOKEN, file=sys.stderr)
            return EXIT_CONFIG
        if isinstance(failure, discord.PrivilegedIntentsRequired):
            print(PRIVILEGED_INTENTS, file=sys.stderr)
            return EXIT_CONFIG
        if isinstance(failure, discord.ConnectionClosed) and failure.code in SHARD_CLOSE_CODES:
            print(SHARD_CLOSE_CODES[failure.code], file=sys.stderr)
            return EXIT_CONFIG
        if failure is not None:
            log.error("The connection to Discord ended", exc_info=failure)
            return EXIT_FAILURE
        return EXIT_OK
    finally:
        await bot.close()
        if connection is not None and not connection.done():
            # close() ends connect(); collect it so its outcome is not reported as unhandled.
            await asyncio.wait({connection}, timeout=10)
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


def main() -> int:
    # The working directory's .env (where `make run` starts), never one found by walking up from
    # this file: that search would pick up a developer's real token during tests.
    try:
        load_dotenv(Path.cwd() / ".env")
    except (UnicodeDecodeError, OSError):  # Latin-1 or UTF-16 from an editor, a folder named .env
        print(DOTENV_UNREADABLE, file=sys.stderr)
        return EXIT_CONFIG
    try:
        settings = Settings.from_env(os.environ)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_CONFIG
    setup_logging(settings.log_level_number, token=settings.token)
    return asyncio.run(run(settings))


if __name__ == "__main__":
    sys.exit(main())
