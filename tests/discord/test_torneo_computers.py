"""Computer players in a sit-and-go, end to end through the fake Discord: entered with /torneo
computer and staked by the house, playing a whole tournament with one person to the winner (their
prizes back to the house, no card of theirs public before its showdown, never DMed or pinged), the
refusals, a cancel that refunds the house, and a restart after which they play on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot import computers
from bot.table_settings import TableSettings
from bot.tournaments import Tournaments
from engine.events import ActionTaken
from engine.history import replay
from engine.tournament import Phase
from tests.discord.computer_support import CardWatch
from tests.discord.torneo_support import STARTING, Torneo

BUY_IN = 50
GINO, PINA = computers.computer_id(0), computers.computer_id(1)


@pytest.fixture
async def h(harness_factory: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    # Computers act at once, in this bot and in the one a restart starts.
    quick = TableSettings(computer_pause_min=0.0, computer_pause_max=0.0)
    monkeypatch.setattr(Tournaments, "table_settings", quick)
    return await harness_factory(tournament_pause=0)


async def house(h: Any) -> int:
    return int(await h.bot.storage.house_balance(h.guild_id))


async def balance(h: Any, user: Any) -> int:
    return int(await h.bot.storage.balance(h.guild_id, user.id))


async def with_two_computers(h: Any, alice: Any, **options: Any) -> Torneo:
    """Alice announces a three-seat texas tournament, enters, and fills it with two computers."""
    game = Torneo(h)
    chosen = {"buyin": BUY_IN, "posti": 3, "cip": 20, "fiches": 100, "ritmo": 2, "struttura": "raddoppio"}
    await game.announce(alice, "texas", **(chosen | options))
    await game.join([alice])
    first = await h.slash(alice, "torneo computer", livello="facile")
    assert not first.ephemeral, first.content
    assert computers.name_of(GINO) in first.content and "pagata dalla casa" in first.content
    assert "(2 di 3)" in first.content and "si parte" not in first.content
    assert await house(h) == STARTING - BUY_IN, "the house opens with the starting chips and pays"
    assert await balance(h, alice) == STARTING - BUY_IN
    second = await h.slash(alice, "torneo computer")
    assert not second.ephemeral and "si parte" in second.content, second.content
    assert computers.name_of(PINA) in second.content and "(esperto)" in second.content
    run = game.run
    assert run.computers == {GINO: "facile", PINA: "esperto"}
    assert game.live.computers == run.computers, "the table knows its computer players and their levels"
    assert await h.bot.storage.check() == []
    return game


async def play_to_the_end(h: Any, game: Torneo, alice: Any, watch: CardWatch | None = None) -> None:
    """Alice plays aggressively on her turns (her cards checked unseen meanwhile); the computers play
    theirs by themselves, alone once she is out."""

    def ready() -> Any:
        run, live = game.run, game.live
        if run is None or run.tournament.phase is not Phase.IN_CORSO:
            return "done"
        if live is not None and live.table.hand_running and live.table.to_act == alice.id:
            return live
        return None

    for _ in range(500):
        found = await h.fake.wait_for(ready, "Alice's turn or the end of the tournament")
        if found == "done":
            await h.fake.wait_for(lambda: game.run is None, "the final standings")
            await h.settle()
            return
        if watch is not None:
            watch.during(found)
        assert await game.act_once()
    raise AssertionError("the tournament did not end")


def computers_acting(live: Any) -> set[int]:
    """The computer players who acted in the table's last hand (its own record)."""
    _, events = replay(live.table.hand_record())
    return {e.player for e in events if isinstance(e, ActionTaken) and computers.is_computer(e.player)}


def watch_every_hand(
    h: Any, monkeypatch: pytest.MonkeyPatch, acted: set[int], scan: bool = True
) -> CardWatch:
    """Note who acted in each hand and (``scan``) scan its public texts from its deal: its result
    posted, before the next deal."""
    watch = CardWatch(h)
    tournaments = h.bot.tournaments
    original: Callable[..., Any] = tournaments._deal_later

    async def dealing(run: Any, delay: float) -> None:
        live = run.live
        if live is not None and live.table.hand_number > 0:
            acted.update(computers_acting(live))
            if scan:
                await h.bot.sessions.of(live).flush(5.0)
                watch.ended(live)
        watch.begin()
        await original(run, delay)

    monkeypatch.setattr(tournaments, "_deal_later", dealing)
    return watch


async def test_one_person_and_two_computers_play_a_whole_tournament(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = h.user("alice")
    acted: set[int] = set()
    watch = watch_every_hand(h, monkeypatch, acted)
    game = await with_two_computers(h, alice, premi="vincitore")
    run = game.run
    assert game.live.settings.computer_pause_max == 0.0
    await play_to_the_end(h, game, alice, watch)
    watch.ended(run.live)  # the last hand, its result posted with the standings
    acted |= computers_acting(run.live)
    assert acted == {GINO, PINA}, "both computers played their turns"
    t = run.tournament
    finishes = t.finishes()
    assert sorted(finishes) == sorted([alice.id, GINO, PINA])
    prizes = {p: prize for p, (_, prize) in finishes.items()}
    assert sum(prizes.values()) == 3 * BUY_IN and sorted(prizes.values()) == [0, 0, 3 * BUY_IN]
    assert await balance(h, alice) == STARTING - BUY_IN + prizes[alice.id]
    assert await house(h) == STARTING - 2 * BUY_IN + prizes[GINO] + prizes[PINA]
    assert await h.bot.storage.check() == []
    # Named, never mentioned nor pinged; cards by DM to the person only.
    texts = h.public_texts()
    assert not any("<@-" in text or "<@0>" in text for text in texts), "no mention of a computer's id"
    standings = [m for m in h.messages("poker") if "Classifica finale" in m.content]
    assert len(standings) == 1
    assert computers.name_of(GINO) in standings[0].content and computers.name_of(PINA) in standings[0].content
    assert all(user > 0 for m in h.messages("poker") for user in m.notified)
    opened = [path for _, path, _ in h.fake.rest_log if path.endswith("/users/@me/channels")]
    assert len(opened) == 1 and h.dms(alice)


async def test_who_may_enter_computers_and_when(h: Any) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2)
    outsider = await h.slash(bob, "torneo computer")
    assert outsider.ephemeral
    assert outsider.content == "Solo chi è iscritto al torneo può iscrivere un giocatore del computer."
    await game.join([alice])
    added = await h.slash(alice, "torneo computer", livello="esperto")
    assert not added.ephemeral and "si parte" in added.content, added.content
    full = await h.slash(alice, "torneo computer")
    assert full.ephemeral and full.content == "Le iscrizioni a questo torneo sono chiuse."
    assert await house(h) == STARTING - BUY_IN
    assert await h.bot.storage.check() == []


async def test_no_tournament_of_computers_alone_and_a_cancel_refunds_the_house(h: Any) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=BUY_IN, posti=5)
    await game.join([alice, bob])
    for _ in range(2):
        added = await h.slash(bob, "torneo computer")  # anyone entered may add one
        assert not added.ephemeral, added.content
    assert await house(h) == STARTING - 2 * BUY_IN
    for user in (alice, bob):
        left = await h.slash(user, "torneo ritirati")
        assert not left.ephemeral, left.content
    alone = await h.slash(alice, "torneo inizia")
    assert alone.ephemeral and alone.content.startswith("Un torneo di soli giocatori del computer")
    assert game.run.tournament.phase is Phase.ISCRIZIONI
    called_off = await h.slash(alice, "torneo annulla")
    assert not called_off.ephemeral and "dei giocatori del computer tornano alla casa" in called_off.content
    assert await house(h) == STARTING
    assert await balance(h, alice) == STARTING and await balance(h, bob) == STARTING
    assert await h.bot.storage.check() == []


async def test_after_a_restart_the_computers_play_the_tournament_on(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = h.user("alice")
    game = await with_two_computers(h, alice, fiches=2000)
    await h.fake.wait_for(
        lambda: game.live.table.hand_running and game.live.table.to_act == alice.id, "Alice's turn"
    )
    await h.restart()
    acted: set[int] = set()
    watch_every_hand(h, monkeypatch, acted, scan=False)
    run = game.run
    assert run.computers == {GINO: "facile", PINA: "esperto"}
    assert game.live.computers == run.computers and game.live.settings.computer_pause_max == 0.0
    assert await house(h) == STARTING - 2 * BUY_IN
    assert await h.bot.storage.check() == []
    await play_to_the_end(h, game, alice)
    acted |= computers_acting(run.live)
    assert acted, "the computers played on after the restart"
    prizes = {p: prize for p, (_, prize) in run.tournament.finishes().items()}
    assert sum(prizes.values()) == 3 * BUY_IN
    assert await balance(h, alice) == STARTING - BUY_IN + prizes[alice.id]
    assert await house(h) == STARTING - 2 * BUY_IN + prizes[GINO] + prizes[PINA]
    assert await h.bot.storage.check() == []


async def test_congeda_at_a_tournament_table_during_a_hand_is_refused_not_promised(
    harness_factory: Any, monkeypatch: Any
) -> None:
    """A tournament's table seats and counts by itself (bot/tables.py check_cash): /tavolo congeda
    there is refused with one private sentence, during a hand too (no promise that the computer
    stands up at its end, which a tournament would never keep), and changes nothing."""

    quick = TableSettings(computer_pause_min=60.0, computer_pause_max=60.0)
    monkeypatch.setattr(Tournaments, "table_settings", quick)
    h = await harness_factory(tournament_pause=0)
    alice = h.user("alice")
    game = await with_two_computers(h, alice)
    live = await h.fake.wait_for(
        lambda: (lv := game.live) is not None and lv.table.hand_running and lv, "the first hand"
    )
    in_hand = [s.player for s in live.view().seats if computers.is_computer(s.player) and s.in_hand]
    assert in_hand
    name = computers.name_of(in_hand[0])
    reply = await h.slash(alice, "tavolo congeda", nome=name)
    assert reply.ephemeral, f"answered in public at a tournament table: {reply.content}"
    assert not live.dismissed
