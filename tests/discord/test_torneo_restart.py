"""Tournaments across restarts: mid-hand, at a level change, around the payout, with a time-based
level clock, and a real bot process killed with SIGKILL; nothing lost, nothing paid twice."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bot import hand_replay, render
from bot import tournaments as bot_tournaments
from bot.storage import LedgerMismatch, Storage, StorageError
from bot.storage import tournaments as stored_tournaments
from engine.tournament import Phase
from fakediscord import ErrorWatch, FakeDiscord
from tests.discord.torneo_support import STARTING, Torneo, accepted, boundary_fails_once

BUY_IN = 50
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
async def h(harness_factory: Any) -> Any:
    return await harness_factory(tournament_pause=0)


@pytest.fixture
async def hb(backend_factory: Any) -> Any:
    """`h` on each backend."""
    return await backend_factory(tournament_pause=0)


async def balances(h: Any, users: list[Any]) -> dict[int, int]:
    return {u.id: await h.bot.storage.balance(h.guild_id, u.id) for u in users}


async def started(h: Any, users: list[Any], **options: Any) -> Torneo:
    game = Torneo(h)
    chosen = {"buyin": BUY_IN, "posti": len(users), "cip": 20, "fiches": 2000, "struttura": "raddoppio"}
    await game.announce(users[0], "texas", **(chosen | options))
    await game.join(users)
    await h.fake.wait_for(lambda: game.live is not None and game.live.table.hand_running, "the first hand")
    return game


async def fold_hand(h: Any, game: Torneo) -> None:
    """Everyone folds to the last player: the hand ends, nobody is eliminated."""
    live = game.live
    number = live.table.hand_number
    while live.table.hand_running and live.table.hand_number == number:
        player = live.table.to_act
        kinds = {str(la.kind) for la in live.table.legal_actions()}
        word = "passo" if "passo" in kinds else "paròl"
        reply = await h.slash(game.users[player], word)
        assert accepted(reply), reply.content


async def prize_rows(h: Any, user: Any, tournament_id: int) -> int:
    history = await h.bot.storage.history(h.guild_id, user.id, 100)
    return sum(1 for e in history.entries if e.reason == "close" and e.tournament_id == tournament_id)


async def test_a_restart_mid_hand_replays_it_from_the_same_stacks_and_level(hb: Any) -> None:
    h = hb
    users = [h.user(n) for n in ("alice", "bob", "carol")]
    game = await started(h, users, ritmo=3)
    await fold_hand(h, game)  # one boundary stored
    await h.fake.wait_for(lambda: game.live.table.hand_number == 2 and game.live.table.hand_running, "hand 2")
    boundary = game.run.tournament.to_dict()
    interrupted = game.live.message_id
    player = game.live.table.to_act
    said = await h.slash(game.users[player], "vedo")  # chips go in, then the bot stops
    assert accepted(said), said.content
    await h.restart()
    run = game.run
    assert run.tournament.to_dict()["stacks"] == boundary["stacks"]
    assert (run.tournament.level_number, run.tournament.hands_played) == (boundary["level"], 1)
    await h.fake.wait_for(lambda: render.CANCELLED_BY_RESTART in h.fake.store[interrupted].text(), "its note")
    assert await balances(h, users) == {u.id: STARTING - BUY_IN for u in users}
    assert await h.bot.storage.check() == []
    await h.fake.wait_for(lambda: game.live.table.hand_running, "the hand dealt again")
    assert game.live.table.hand_number > 2, "a new number: no button of the cancelled hand matches it"
    cancelled = await h.slash(users[0], "mano", numero=2)
    assert not cancelled.ephemeral and cancelled.content == hand_replay.cancelled_text(2)
    before = await h.slash(users[0], "mano", numero=1)
    assert before.embeds[0]["title"] == "Mano n. 1 — Texas Hold'em", "the hand before the restart is kept"
    await game.play_out()
    assert sum((await balances(h, users)).values()) == 3 * STARTING
    assert await h.bot.storage.check() == []


async def test_a_restart_at_a_level_change_keeps_the_new_level(hb: Any) -> None:
    h = hb
    users = [h.user(n) for n in ("alice", "bob", "carol")]
    game = await started(h, users, ritmo=1)
    h.bot.tournaments.pause = 60.0  # the bot waits between hands: the restart comes in that pause
    await fold_hand(h, game)
    assert not game.live.table.hand_running
    run = game.run
    assert (run.tournament.level_number, run.tournament.hands_played) == (2, 1)
    await h.fake.wait_for(lambda: any("Salgono le puntate" in t for t in h.public_texts()), "the level")
    stacks = run.tournament.stacks()
    await h.restart()
    run = game.run
    assert (run.tournament.level_number, run.tournament.stacks()) == (2, stacks)
    await h.fake.wait_for(lambda: game.live.table.hand_running, "the next hand")
    assert game.live.table.hand_number == 2, "a restart between hands skips no number"
    assert game.live.options.cip == 40, "level 2 of a doubling schedule from 20"
    first = await h.slash(users[0], "mano")
    assert first.embeds[0]["title"] == "Mano n. 1 — Texas Hold'em"
    assert sum("Salgono le puntate" in t for t in h.public_texts()) == 1, "announced once"
    await game.play_out()
    assert sum((await balances(h, users)).values()) == 3 * STARTING
    assert await h.bot.storage.check() == []


async def test_a_time_based_level_clock_resumes_with_the_time_left(h: Any) -> None:
    users = [h.user(n) for n in ("alice", "bob")]
    game = await started(h, users, ritmo=5, unita="minuti")
    h.bot.tournaments.pause = 60.0
    await fold_hand(h, game)
    [row] = await h.bot.storage.live_tournaments()
    left = row.state["tournament"]["remaining_seconds"]
    assert 0 < left <= 300
    await h.restart()
    assert game.run.tournament.remaining_seconds == left, "the downtime does not eat the level"
    status = await h.slash(users[1], "torneo stato")
    assert "<t:" in status.text() and ":R>" in status.text()
    await game.play_out()
    assert await h.bot.storage.check() == []


async def test_the_bot_dying_inside_the_prize_transaction_pays_once_after_the_restart(
    h: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    users = [h.user(n) for n in ("alice", "bob")]
    game = await started(h, users, fiches=100)
    real = stored_tournaments.finish

    async def dies_before_commit(*args: Any, **kwargs: Any) -> bool:
        await real(*args, **kwargs)  # every prize row written...
        raise StorageError("la connessione al database si è interrotta")  # ...and rolled back

    monkeypatch.setattr(stored_tournaments, "finish", dies_before_commit)
    run = game.run
    await game.play_out_until(lambda: run.tournament.phase is Phase.FINITO)
    await h.fake.wait_for(lambda: "the prizes were not stored yet" in caplog.text, "the failed payout")
    assert await balances(h, users) == {u.id: STARTING - BUY_IN for u in users}, "nothing paid"
    assert await h.bot.storage.check() == []
    monkeypatch.setattr(stored_tournaments, "finish", real)
    await h.restart()  # the last hand is played again, and then paid
    assert game.run.tournament.phase is Phase.IN_CORSO
    await game.play_out()
    have = await balances(h, users)
    assert sorted(have.values()) == [STARTING - BUY_IN, STARTING + BUY_IN]
    assert [await prize_rows(h, u, run.id) for u in users].count(1) == 1
    assert await h.bot.storage.check() == []


async def test_the_bot_dying_after_the_payout_posts_the_standings_and_pays_nothing_twice(hb: Any) -> None:
    h = hb
    users = [h.user(n) for n in ("alice", "bob")]
    game = await started(h, users, fiches=100)
    run = game.run

    async def dies_before_posting(_run: Any) -> None:
        await asyncio.sleep(3600)

    h.bot.tournaments._standings = dies_before_posting
    await game.play_out_until(lambda: run.tournament.phase is Phase.FINITO)
    await h.fake.wait_for(lambda: game.live is None, "the payout")
    paid = await balances(h, users)
    assert sorted(paid.values()) == [STARTING - BUY_IN, STARTING + BUY_IN]
    assert not any("Classifica finale" in t for t in h.public_texts())
    await h.restart()
    await h.fake.wait_for(lambda: any("Classifica finale" in t for t in h.public_texts()), "the standings")
    await h.fake.wait_for(lambda: not h.bot.tournaments._tasks, "the standings task")
    assert await h.bot.storage.live_tournaments() == []
    state = {"tournament": dict(run.tournament.to_dict()), "table": None}
    prizes = {p: prize for p, (_, prize) in run.tournament.finishes().items()}
    assert await h.bot.storage.finish_tournament(run.id, prizes, state) is False, "a re-run pays nothing"
    assert await balances(h, users) == paid
    assert [await prize_rows(h, u, run.id) for u in users].count(1) == 1
    assert await h.bot.storage.check() == []


def _stored(database: Path) -> tuple[str, int, int, bool]:
    """(status, pool, hands played, a hand dealt) of the only tournament, read behind the bot's back."""
    with sqlite3.connect(database) as conn:
        row = conn.execute(
            "SELECT t.status, p.pot, t.state FROM tournaments AS t"
            " JOIN poker_tables AS p ON p.id = t.pool_table_id"
        ).fetchone()
    if row is None:
        return ("", 0, 0, False)
    state = json.loads(row[2])
    return (str(row[0]), int(row[1]), int(state["tournament"]["hands_played"]), bool(state.get("running")))


@pytest.mark.parametrize("moment", ["registration", "mid-hand", "between hands"])
async def test_a_killed_bot_process_loses_no_buy_in(
    tmp_path: Path, fake_discord: FakeDiscord, harness_factory: Any, moment: str
) -> None:
    """SIGKILL at several moments; the next bot on the same database goes on from the last boundary."""
    database = tmp_path / "poker.sqlite3"  # the path harness_factory gives its first harness
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(REPO),
        "DISCORD_TOKEN": "fake-token",
        "DEV_GUILD_ID": str(fake_discord.guild_id),
        "DATABASE_PATH": str(database),
        "DISCORD_API_BASE": fake_discord.api_base,
        "DISCORD_GATEWAY_URL": fake_discord.gateway_url,
        "TOURNAMENT_PAUSE": "60" if moment == "between hands" else "0",
        "LOG_LEVEL": "INFO",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    assert process.stderr is not None
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    users = {alice.id: alice, bob.id: bob}
    log: list[str] = []
    try:
        while not any("Connected as" in line for line in log):
            line = await asyncio.wait_for(process.stderr.readline(), timeout=15)
            assert line, f"the bot stopped before connecting: {log}"
            log.append(line.decode())
        await fake_discord.slash(
            alice, "torneo nuovo", channel="poker", variante="texas", buyin=BUY_IN, posti=2
        )
        await fake_discord.slash(alice, "torneo iscriviti", channel="poker")
        if moment != "registration":
            joined = await fake_discord.slash(bob, "torneo iscriviti", channel="poker")
            assert "si parte" in joined.content
            turn = await fake_discord.wait_for(
                lambda: next(
                    (m for m in reversed(fake_discord.messages("poker")) if "Tocca a" in m.text()), None
                ),
                "the first hand",
            )
        if moment == "between hands":
            first = re.findall(r"Tocca a <@(\d+)>", turn.text())[0]
            await fake_discord.slash(users[int(first)], "passo", channel="poker")
            await fake_discord.wait_for(lambda: _stored(database)[2] == 1, "the first boundary stored")
        process.send_signal(signal.SIGKILL)
        await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    expected = {
        "registration": ("iscrizioni", BUY_IN, 0),
        "mid-hand": ("in_corso", 2 * BUY_IN, 0),
        "between hands": ("in_corso", 2 * BUY_IN, 1),
    }[moment]
    assert _stored(database)[:3] == expected
    async with await Storage.open(database) as storage:
        assert await storage.check() == []
        paid = [await storage.balance(fake_discord.guild_id, u.id) for u in (alice, bob)]
        assert paid == [STARTING - BUY_IN, STARTING - BUY_IN if moment != "registration" else STARTING]
    h = await harness_factory(tournament_pause=0)
    game = Torneo(h)
    game.users = dict(users)
    assert game.run is not None and game.run.tournament.hands_played == expected[2]
    if moment == "registration":
        assert game.run.tournament.players == [alice.id]
        joined = await h.slash(bob, "torneo iscriviti")
        assert "si parte" in joined.content
    await game.play_out()
    have = await balances(h, [alice, bob])
    assert sorted(have.values()) == [STARTING - BUY_IN, STARTING + BUY_IN]
    assert await h.bot.storage.check() == []


async def test_prizes_that_do_not_match_the_pool_are_logged_once_and_not_retried(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `LedgerMismatch` fails the same way at every attempt: one ERROR naming the tournament for
    the operator, and the payout loop stops (a database hiccup, above, is retried instead)."""
    users = [h.user(n) for n in ("alice", "bob")]
    game = await started(h, users, fiches=100)
    attempts = 0

    async def mismatched(*args: Any, **kwargs: Any) -> bool:
        nonlocal attempts
        attempts += 1
        raise LedgerMismatch("I premi sommano 99 fiches, il montepremi 100.")

    monkeypatch.setattr(stored_tournaments, "finish", mismatched)
    monkeypatch.setattr(bot_tournaments, "PAYOUT_RETRY", 0.01)
    run = game.run
    with ErrorWatch.on(h.fake).expecting() as logged:
        await game.play_out_until(lambda: run.tournament.phase is Phase.FINITO)
        await h.fake.wait_for(lambda: not h.bot.tournaments._tasks, "the payout to give up")
    assert [(r.levelno, r.getMessage().split(":")[0]) for r in logged] == [
        (logging.ERROR, f"Tournament {run.id}")
    ]
    assert attempts == 1
    assert await balances(h, users) == {u.id: STARTING - BUY_IN for u in users}, "nothing paid"
    assert await h.bot.storage.check() == []


async def test_a_hand_whose_boundary_write_failed_is_stored_with_the_next_write(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database hiccup at a hand's boundary loses nothing /mano tells: the hand's record goes
    with the next write, and the hand is never shown as cancelled."""
    users = [h.user(n) for n in ("alice", "bob", "carol")]
    game = await started(h, users, ritmo=3)
    failed = boundary_fails_once(h.bot.storage)
    await fold_hand(h, game)
    assert failed == [1]
    await h.fake.wait_for(lambda: game.live.table.hand_number == 2 and game.live.table.hand_running, "hand 2")
    await h.settle()
    told = await h.slash(users[0], "mano", numero=1)
    assert not told.ephemeral and told.embeds[0]["title"] == "Mano n. 1 — Texas Hold'em", told.content
    assert "passa" in told.text()
    await game.play_out()
    assert await h.bot.storage.check() == []


async def test_a_running_tournament_whose_table_cannot_be_rebuilt_holds_no_channel(h: Any) -> None:
    """Restored only once its table is rebuilt: a stored table that cannot be read is logged (one
    ERROR for the operator) and leaves the channel free, not held by a tournament with no table."""
    users = [h.user(n) for n in ("alice", "bob")]
    game = await started(h, users)
    await h.close()
    with sqlite3.connect(h.database_path) as conn:
        (state,) = conn.execute("SELECT state FROM tournaments").fetchone()
        broken = json.loads(state) | {"table": {"seats": "?"}}
        conn.execute("UPDATE tournaments SET state = ?", (json.dumps(broken),))
    with ErrorWatch.on(h.fake).expecting() as logged:
        await h.start()
    assert [r.getMessage() for r in logged] == ["Tournament 1 could not be restored; left as it is"]
    assert h.bot.tournaments.get(game.channel_id) is None
    assert h.bot.tables.get(game.channel_id) is None
