"""A player's turn calls (/avvisi): on by default, his own choice per server, kept across a restart,
on both backends; and the channel messages a restart must still fix (turn calls shown, table messages
Discord failed to end)."""

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


async def test_a_shown_turn_call_is_noted_until_it_is_deleted(storage: Storage) -> None:
    """bot/storage/shown_calls.py: each call shown is noted until it is forgotten, one by one (an
    older call Discord failed to delete stays noted beside the next one); a start sees what is left,
    by shard."""
    on_one, on_zero = 1 << 22, 2 << 22  # servers on shards 1 and 0 of two
    assert await storage.turn_calls_left() == []
    await storage.note_turn_call(10, on_one, 100)
    await storage.note_turn_call(20, on_zero, 200)
    await storage.note_turn_call(10, on_one, 101)  # the next turn's call in the same channel
    await storage.note_turn_call(10, on_one, 101)  # noted twice: one row
    assert await storage.turn_calls_left() == [(10, 100), (10, 101), (20, 200)]
    await storage.forget_turn_call(10, 101)
    assert await storage.turn_calls_left() == [(10, 100), (20, 200)], "the older one is still to delete"
    assert await storage.turn_calls_left(shard_ids=[1], shard_count=2) == [(10, 100)]
    assert await storage.turn_calls_left(shard_ids=[0], shard_count=2) == [(20, 200)]
    await storage.forget_turn_call(10, 100)
    assert await storage.turn_calls_left() == [(20, 200)]
    assert await storage.check() == []


async def test_a_table_message_discord_failed_to_end_is_noted_until_it_is_ended(storage: Storage) -> None:
    """bot/storage/stale_messages.py: an older table message whose ending edit failed is noted, with
    its hand, until it is forgotten; a start sees what is left, by shard; no chip is touched."""
    on_one, on_zero = 1 << 22, 2 << 22  # servers on shards 1 and 0 of two
    assert await storage.stale_messages_left() == []
    await storage.note_stale_message(20, on_zero, 200, 7)
    await storage.note_stale_message(10, on_one, 100, None)
    await storage.note_stale_message(10, on_one, 100, 3)  # noted again: one row, with its hand
    await storage.note_stale_message(10, on_one, 101, None)  # shows its end: only its buttons to take off
    assert await storage.stale_messages_left() == [(10, 100, 3), (10, 101, None), (20, 200, 7)]
    assert await storage.stale_messages_left(shard_ids=[1], shard_count=2) == [(10, 100, 3), (10, 101, None)]
    assert await storage.stale_messages_left(shard_ids=[0], shard_count=2) == [(20, 200, 7)]
    await storage.forget_stale_message(10, 100)
    await storage.forget_stale_message(10, 101)
    assert await storage.stale_messages_left() == [(20, 200, 7)]
    assert await storage.check() == []
