"""Fixtures for the storage tests: a real SQLite file in tmp_path and a clock the test moves."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage import Storage

GUILD = 1001
OTHER_GUILD = 2002
CHANNEL = 555
ALICE, BOB, CARLA, DINO = 11, 22, 33, 44
ADMIN = 99
STARTING = 1000
BONUS = 200


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "poker.sqlite3"


@pytest.fixture
async def storage(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    store = await Storage.open(db_path, starting_chips=STARTING, daily_bonus=BONUS, clock=clock)
    try:
        yield store
    finally:
        await store.close()


def dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, read through a second connection: only committed data is visible."""
    conn = sqlite3.connect(path)
    try:
        names = [
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        result = {
            name: sorted(conn.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr) for name in names
        }
        result["user_version"] = conn.execute("PRAGMA user_version").fetchall()
        return result
    finally:
        conn.close()


def state_of(stacks: dict[int, int], pot: int = 0, **extra: object) -> dict[str, object]:
    """A stand-in for the engine's Table.to_dict(): JSON keys are strings, as the engine will write them."""
    return {"seats": {str(u): s for u, s in stacks.items()}, "pot": pot, **extra}
