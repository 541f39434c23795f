"""A player's turn calls (/avvisi): on by default, his own choice per server, kept across a restart,
on both backends."""

from __future__ import annotations

from bot.storage import Storage
from tests.storage.conftest import ALICE, BOB, BONUS, GUILD, OTHER_GUILD, STARTING, Database, FakeClock


async def test_turn_calls_are_on_until_the_player_turns_them_off(storage: Storage) -> None:
    assert await storage.turn_calls(GUILD, ALICE) is True
    await storage.set_turn_calls(GUILD, ALICE, False)
    assert await storage.turn_calls(GUILD, ALICE) is False
    await storage.set_turn_calls(GUILD, ALICE, True)
    assert await storage.turn_calls(GUILD, ALICE) is True


async def test_the_choice_is_per_player_and_per_server(storage: Storage) -> None:
    await storage.set_turn_calls(GUILD, ALICE, False)
    assert await storage.turn_calls(GUILD, BOB) is True
    assert await storage.turn_calls(OTHER_GUILD, ALICE) is True
    await storage.set_turn_calls(OTHER_GUILD, BOB, False)
    assert await storage.turn_calls(GUILD, BOB) is True
    assert await storage.turn_calls(GUILD, ALICE) is False


async def test_the_choice_survives_a_restart_and_touches_no_chip(db: Database, clock: FakeClock) -> None:
    store = await Storage.open(db.target, starting_chips=STARTING, daily_bonus=BONUS, clock=clock)
    try:
        await store.set_turn_calls(GUILD, ALICE, False)
        await store.set_turn_calls(GUILD, ALICE, False)  # saying it twice is one row
        assert await store.check() == []
    finally:
        await store.close()
    rows = await db.query("SELECT guild_id, user_id, turn_calls FROM player_settings")
    assert rows == [(GUILD, ALICE, 0)]
    assert await db.query("SELECT COUNT(*) FROM accounts") == [(0,)]
    again = await Storage.open(db.target, starting_chips=STARTING, daily_bonus=BONUS, clock=clock)
    try:
        assert await again.turn_calls(GUILD, ALICE) is False
    finally:
        await again.close()
