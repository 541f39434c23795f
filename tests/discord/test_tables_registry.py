"""The table registry (bot/tables.py) with the real engine and a real SQLite ledger, without Discord."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import render
from bot.errors import UserError
from bot.storage import InsufficientChips, Storage
from bot.tables import NO_TABLE, SHUTTING_DOWN, LiveTable, TableRegistry
from engine.actions import Action, ActionKind
from engine.cards import Card
from engine.errors import EngineError
from engine.events import HandVoid, PotAwarded, StackReleased
from engine.options import TableOptions, Variant
from engine.table import Table

GUILD, POKER, THREAD = 10, 100, 200
ALICE, BOB, CAROL = 1, 2, 3
START = 1000


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    storage = await Storage.open(tmp_path / "poker.sqlite3", starting_chips=START, daily_bonus=200)
    yield storage
    await storage.close()


@pytest.fixture
def registry(storage: Storage) -> TableRegistry:
    return TableRegistry(storage, rng_factory=lambda: random.Random(7))


async def open_table(registry: TableRegistry, variant: Variant, channel: int = POKER) -> LiveTable:
    async with registry.channel(channel):
        return await registry.create(GUILD, channel, ALICE, TableOptions(variant=variant))


async def seat(registry: TableRegistry, players: dict[int, int], channel: int = POKER) -> None:
    for player, buyin in players.items():
        async with registry.locked(channel) as live:
            await registry.sit(live, player, buyin)


async def balances(storage: Storage, *players: int) -> dict[int, int]:
    return {p: await storage.balance(GUILD, p) for p in players}


async def seats_in_ledger(storage: Storage, channel: int = POKER) -> tuple[dict[int, int], int]:
    row = next(r for r in await storage.open_tables() if r.channel_id == channel)
    return dict(row.seats), row.pot


async def everything(storage: Storage, *players: int) -> int:
    """Balances plus chips at tables: never changes when chips only move."""
    rows = await storage.leaderboard(GUILD, limit=100)
    return sum(row.total for row in rows if row.user_id in players)


# Locking ---------------------------------------------------------------------------------------------


async def test_a_table_is_only_touched_under_its_lock(registry: TableRegistry) -> None:
    live = await open_table(registry, Variant.TEXAS)
    with pytest.raises(RuntimeError, match="lock"):
        await registry.sit(live, ALICE, 100)
    with pytest.raises(RuntimeError, match="lock"):
        await registry.start_hand(live)
    with pytest.raises(RuntimeError, match="lock"):
        await registry.create(GUILD, THREAD, ALICE, TableOptions())


async def test_commands_on_one_table_wait_for_each_other_but_not_for_other_tables(
    registry: TableRegistry,
) -> None:
    await open_table(registry, Variant.TEXAS, POKER)
    await open_table(registry, Variant.ITALIANA, THREAD)
    release = asyncio.Event()
    order: list[str] = []

    async def slow_command() -> None:
        async with registry.locked(POKER):
            order.append("first in")
            await release.wait()
            order.append("first out")

    async def second_command(channel: int, name: str) -> None:
        async with registry.locked(channel):
            order.append(name)

    first = asyncio.create_task(slow_command())
    while not order:
        await asyncio.sleep(0)
    same_table = asyncio.create_task(second_command(POKER, "same table"))
    other_table = asyncio.create_task(second_command(THREAD, "other table"))
    await other_table
    for _ in range(10):
        await asyncio.sleep(0)
    assert not same_table.done()
    release.set()
    await asyncio.gather(first, same_table)
    assert order == ["first in", "other table", "first out", "same table"]


async def test_locked_without_a_table_is_a_polite_refusal(registry: TableRegistry) -> None:
    with pytest.raises(UserError, match=NO_TABLE):
        async with registry.locked(POKER):
            pass


# Seats and the ledger -----------------------------------------------------------------------------


async def test_a_buy_in_the_ledger_refuses_leaves_the_engine_as_it_was(
    registry: TableRegistry, storage: Storage
) -> None:
    await open_table(registry, Variant.TEXAS)
    await seat(registry, {ALICE: 400})
    async with registry.locked(POKER) as live:
        before = live.table.to_dict()
        with pytest.raises(InsufficientChips):
            await registry.sit(live, BOB, START + 1)
        assert live.table.to_dict() == before
    assert await seats_in_ledger(storage) == ({ALICE: 400}, 0)
    assert await balances(storage, BOB) == {BOB: START}


async def test_a_buy_in_refused_during_a_hand_leaves_the_engine_as_it_was(
    registry: TableRegistry, storage: Storage
) -> None:
    await open_table(registry, Variant.TEXAS)
    await seat(registry, {ALICE: 400, BOB: 400})
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)
        seats_before = live.view().seats
        with pytest.raises(InsufficientChips):
            await registry.sit(live, CAROL, START + 1)
        assert live.view().seats == seats_before
    assert await seats_in_ledger(storage) == ({ALICE: 400, BOB: 400}, 0)


async def test_leave_between_hands_pays_the_stack(registry: TableRegistry, storage: Storage) -> None:
    await open_table(registry, Variant.ITALIANA)
    await seat(registry, {ALICE: 400})
    async with registry.locked(POKER) as live:
        _, paid = await registry.leave(live, ALICE)
    assert paid == 400
    assert await balances(storage, ALICE) == {ALICE: START}
    assert await seats_in_ledger(storage) == ({}, 0)


# Hands ------------------------------------------------------------------------------------------


async def test_a_hand_that_ends_is_written_with_its_record(registry: TableRegistry, storage: Storage) -> None:
    await open_table(registry, Variant.TEXAS)
    await seat(registry, {ALICE: 500, BOB: 500})
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)
        to_act = live.table.to_act
        assert to_act is not None
        events = await registry.act(live, Action(to_act, ActionKind.PASSO))
        assert not live.table.hand_running and live.hand_id is None
        engine_stacks = live.table.seats()
    (award,) = [e for e in events if isinstance(e, PotAwarded)]
    assert award.winners != (to_act,)
    assert await seats_in_ledger(storage) == (engine_stacks, 0)
    assert engine_stacks[to_act] == 495, "the small blind folded"
    (hand,) = (await storage.history(GUILD, ALICE)).hands
    assert hand.status == "finished" and hand.record is not None and hand.record["ops"]
    assert await storage.check() == []
    assert await everything(storage, ALICE, BOB) == 2 * START


async def test_a_void_italiana_hand_carries_the_pot_and_closing_returns_it(
    registry: TableRegistry, storage: Storage
) -> None:
    await open_table(registry, Variant.ITALIANA)
    await seat(registry, {ALICE: 300, BOB: 300})
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)
        events = []
        while live.table.hand_running:
            to_act = live.table.to_act
            assert to_act is not None
            events += await registry.act(live, Action(to_act, ActionKind.PASSO))
        assert any(isinstance(e, HandVoid) for e in events)
    stacks, pot = await seats_in_ledger(storage)
    assert pot == 10 and sum(stacks.values()) == 590
    async with registry.locked(POKER) as live:
        payouts = await registry.close(live)
    assert sum(payouts.values()) == 600
    assert await storage.open_tables() == []
    assert await everything(storage, ALICE, BOB) == 2 * START
    assert await storage.check() == []


async def test_a_player_leaving_mid_hand_is_paid_at_once(registry: TableRegistry, storage: Storage) -> None:
    await open_table(registry, Variant.TEXAS)
    await seat(registry, {ALICE: 500, BOB: 500, CAROL: 500})
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)
        leaver = next(p for p in (ALICE, BOB, CAROL) if p != live.table.to_act)
        blind = next(s.bet for s in live.view().seats if s.player == leaver)
        events, paid = await registry.leave(live, leaver)
        assert paid == 500 - blind and live.table.hand_running
        assert not live.seated(leaver)
    assert blind in (5, 10), "the players not first to act preflop are the blinds"
    assert any(isinstance(e, StackReleased) and e.amount == 500 - blind for e in events)
    stacks, _ = await seats_in_ledger(storage)
    assert stacks[leaver] == blind, "his blind stays at the table for the hand's result"
    assert await balances(storage, leaver) == {leaver: START - blind}, "his stack is back at once"
    assert await storage.check() == []
    with pytest.raises(UserError, match="mano in corso"):
        await seat(registry, {leaver: 100})
    async with registry.locked(POKER) as live:
        while live.table.hand_running:
            to_act = live.table.to_act
            assert to_act is not None
            await registry.act(live, Action(to_act, ActionKind.PASSO))
    stacks, _ = await seats_in_ledger(storage)
    assert leaver not in stacks
    assert await balances(storage, leaver) == {leaver: START - blind}, "his blind stays in the pot"
    assert await storage.check() == []
    assert await everything(storage, ALICE, BOB, CAROL) == 3 * START


async def test_a_player_who_left_a_cancelled_hand_is_not_seated_again(tmp_path: Path) -> None:
    path = tmp_path / "poker.sqlite3"
    storage = await Storage.open(path, starting_chips=START)
    registry = TableRegistry(storage, rng_factory=lambda: random.Random(3))
    await open_table(registry, Variant.TEXAS)
    await seat(registry, {ALICE: 500, BOB: 500, CAROL: 500})
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)
        leaver = next(p for p in (ALICE, BOB, CAROL) if p != live.table.to_act)
        _, paid = await registry.leave(live, leaver)
        assert paid is not None and paid < 500
    await storage.close()  # the bot dies: the hand is never finished

    storage = await Storage.open(path, starting_chips=START)
    try:
        assert len(await storage.recover()) == 1
        registry = TableRegistry(storage)
        await registry.restore()
        live = registry.get(POKER)
        assert live is not None and live.cancelled_hand == 1
        assert leaver not in live.table.seats(), "the restored engine state no longer seats him"
        stacks, _ = await seats_in_ledger(storage)
        assert stacks == live.table.seats() and leaver not in stacks
        assert await balances(storage, leaver) == {leaver: START}, "the rest of his start-of-hand stack"
        assert await storage.check() == []
        assert await everything(storage, ALICE, BOB, CAROL) == 3 * START
        async with registry.locked(POKER) as live:  # the table plays on with the other two
            await registry.start_hand(live)
            assert live.table.hand_running and leaver not in live.table.seats()
    finally:
        await storage.close()


async def test_a_hand_the_engine_refuses_to_start_writes_nothing(
    registry: TableRegistry, storage: Storage
) -> None:
    await open_table(registry, Variant.TEXAS)
    await seat(registry, {ALICE: 500})
    async with registry.locked(POKER) as live:
        with pytest.raises(EngineError):
            await registry.start_hand(live)
        assert live.hand_id is None
    assert (await storage.history(GUILD, ALICE)).hands == ()


# Restarts ---------------------------------------------------------------------------------------


async def test_after_a_crash_the_running_hand_is_cancelled_and_the_table_restored(tmp_path: Path) -> None:
    path = tmp_path / "poker.sqlite3"
    storage = await Storage.open(path, starting_chips=START)
    registry = TableRegistry(storage, rng_factory=lambda: random.Random(1))
    await open_table(registry, Variant.TEXAS)
    await seat(registry, {ALICE: 500, BOB: 300})
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)
        to_act = live.table.to_act
        assert to_act is not None
        await registry.act(live, Action(to_act, ActionKind.VEDO))
    await storage.close()  # the process dies: no shutdown, the hand is still running in the ledger

    storage = await Storage.open(path, starting_chips=START)
    try:
        assert await storage.recover() != []
        registry = TableRegistry(storage)
        assert await registry.restore() == 1
        async with registry.locked(POKER) as live:
            assert not live.table.hand_running
            assert live.table.seats() == {ALICE: 500, BOB: 300}
            assert live.cancelled_hand == 1
            await registry.start_hand(live)
            assert live.table.hand_running
            # The cancelled hand keeps its number: the next is n. 2, on the table as in the ledger.
            assert live.table.hand_number == 2
        hands = (await storage.history(GUILD, ALICE)).hands
        assert sorted((h.number, h.status) for h in hands) == [(1, "cancelled"), (2, "running")]
        assert await storage.check() == []
    finally:
        await storage.close()


async def test_shutdown_cancels_the_running_hand_and_refuses_new_commands(
    registry: TableRegistry, storage: Storage
) -> None:
    await open_table(registry, Variant.ITALIANA)
    await seat(registry, {ALICE: 300, BOB: 300})
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)
    await registry.shutdown()
    (hand,) = (await storage.history(GUILD, ALICE)).hands
    assert hand.status == "cancelled"
    assert await seats_in_ledger(storage) == ({ALICE: 300, BOB: 300}, 0)
    with pytest.raises(UserError, match=SHUTTING_DOWN):
        async with registry.locked(POKER):
            pass


async def test_a_leaver_whose_payout_was_interrupted_is_paid_at_restore(tmp_path: Path) -> None:
    path = tmp_path / "poker.sqlite3"
    storage = await Storage.open(path, starting_chips=START)
    registry = TableRegistry(storage, rng_factory=lambda: random.Random(3))
    await open_table(registry, Variant.TEXAS)
    await seat(registry, {ALICE: 500, BOB: 500})

    async def crash(*args: object, **kwargs: object) -> int:
        raise ConnectionAbortedError("the process died here")

    async with registry.locked(POKER) as live:
        await registry.start_hand(live)
        leaver = next(p for p in (ALICE, BOB) if p != live.table.to_act)
        storage.cash_out = crash  # type: ignore[method-assign]
        with pytest.raises(ConnectionAbortedError):
            await registry.leave(live, leaver)  # heads-up: his fold ends the hand, then the payout dies
    await storage.close()

    storage = await Storage.open(path, starting_chips=START)
    try:
        assert await storage.recover() == [], "the hand itself was finished and written"
        registry = TableRegistry(storage)
        await registry.restore()
        stacks, _ = await seats_in_ledger(storage)
        assert leaver not in stacks
        assert await storage.check() == []
        assert await everything(storage, ALICE, BOB) == 2 * START
    finally:
        await storage.close()


# Rendering every event of real hands (bot/render.py) -----------------------------------------------


@pytest.mark.parametrize("variant", list(Variant))
def test_every_public_event_of_random_hands_renders_and_no_private_one_does(variant: Variant) -> None:
    rng = random.Random(11)
    table = Table(TableOptions(variant=variant), rng=random.Random(5))
    for player in (ALICE, BOB, CAROL):
        table.sit(player, 300)
    for _ in range(15):
        if not table.can_start():
            break
        events = table.start_hand()
        while table.hand_running:
            to_act = table.to_act
            assert to_act is not None
            for legal in rng.sample(table.legal_actions(), len(table.legal_actions())):
                amount = rng.randint(legal.min, legal.max) if legal.max else None
                cards: tuple[Card, ...] = ()
                if legal.kind is ActionKind.CAMBIO:
                    cards = tuple(rng.sample(table.cards_of(to_act), rng.randint(legal.min, legal.max)))
                    amount = None
                try:
                    events += table.act(Action(to_act, legal.kind, amount, cards))
                    break
                except EngineError:  # e.g. APRO without the opening hand: try another word
                    continue
        for event in events:
            text = render.event_text(event)
            if event.private_to is not None:
                assert text is None
            elif text is not None:
                assert text.strip() and "None" not in text
        assert render.events_text(events)
        render.table_embed(table.public_view(), table.options)


async def test_shutdown_does_not_wait_forever_for_a_stuck_command(
    registry: TableRegistry, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.tables.SHUTDOWN_GRACE_SECONDS", 0.01)
    await open_table(registry, Variant.TEXAS)
    await seat(registry, {ALICE: 300, BOB: 300})
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)
    never = asyncio.Event()
    holding = asyncio.Event()

    async def stuck_command() -> None:
        async with registry.locked(POKER):
            holding.set()
            await never.wait()

    stuck = asyncio.create_task(stuck_command())
    await holding.wait()
    await registry.shutdown()
    (hand,) = (await storage.history(GUILD, ALICE)).hands
    assert hand.status == "cancelled"
    stuck.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stuck


async def _hand_end_missed_once(
    registry: TableRegistry, storage: Storage, monkeypatch: pytest.MonkeyPatch, *, committed: bool = False
) -> tuple[dict[int, int], list[int]]:
    """A heads-up hand whose end the database misses once (a driver error on `finish_hand`; with
    ``committed``, raised after its COMMIT, as when the answer is lost on the way back): the stacks
    the players saw, and the list of `finish_hand` calls (one per call)."""
    await open_table(registry, Variant.TEXAS)
    await seat(registry, {ALICE: 500, BOB: 500})
    finish = storage.finish_hand
    calls: list[int] = []

    async def locked_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            if committed:
                await finish(*args, **kwargs)
            raise sqlite3.OperationalError("database is locked")
        return await finish(*args, **kwargs)

    monkeypatch.setattr(storage, "finish_hand", locked_once)
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)
        to_act = live.table.to_act
        assert to_act is not None
        with pytest.raises(sqlite3.OperationalError):
            await registry.act(live, Action(to_act, ActionKind.PASSO))
        assert not live.table.hand_running and live.unsettled
        return live.table.seats(), calls


async def test_a_hand_end_the_database_missed_is_written_by_the_next_change(
    registry: TableRegistry, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database fails (locked past its timeout, down) just as a hand ends: the engine has ended
    it and the players saw the result. The next change at the table writes it first, so the table
    goes on without a restart, which would cancel a hand everybody saw end."""
    seen, calls = await _hand_end_missed_once(registry, storage, monkeypatch)
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)  # writes the last hand's end, then deals
        assert live.table.hand_running and not live.unsettled
    assert len(calls) == 2
    stacks, _ = await seats_in_ledger(storage)
    assert stacks == seen, "the ledger has the result the players saw"
    assert await storage.check() == []


async def test_a_hand_end_still_unwritten_at_shutdown_is_written_not_cancelled(
    registry: TableRegistry, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen, calls = await _hand_end_missed_once(registry, storage, monkeypatch)
    await registry.shutdown()
    assert len(calls) == 2
    stacks, _ = await seats_in_ledger(storage)
    assert stacks == seen and await storage.recover() == []
    assert await storage.check() == []


async def test_a_shutdown_with_the_database_down_leaves_the_running_hand_to_the_next_start(
    registry: TableRegistry, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    await open_table(registry, Variant.TEXAS)
    await seat(registry, {ALICE: 500, BOB: 500})
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)
    recover = storage.recover

    async def down(**kwargs: Any) -> list[int]:
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(storage, "recover", down)
    await registry.shutdown()  # a warning, not an exception out of the bot's close
    monkeypatch.setattr(storage, "recover", recover)
    assert len(await storage.recover()) == 1, "the next start cancels it"
    assert await storage.check() == []


async def test_a_hand_end_committed_but_unanswered_does_not_wedge_the_table(
    registry: TableRegistry, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand's end whose commit reached the database but whose answer did not (a connection cut
    right after COMMIT): the retry finds the ledger with that very end, and the table goes on."""
    seen, calls = await _hand_end_missed_once(registry, storage, monkeypatch, committed=True)
    stacks, _ = await seats_in_ledger(storage)
    assert stacks == seen, "the ledger has the hand's end"
    async with registry.locked(POKER) as live:
        await registry.start_hand(live)  # the next hand: the table goes on
        assert live.table.hand_running and not live.unsettled
    assert len(calls) == 1, "not written twice"
    assert await storage.check() == []
