"""Computer players at Discord tables, end to end through the fake Discord: seated with /tavolo
computer, staked by the house, playing every variant by the same action path as a person, never
showing their cards, dismissed mid-hand, and playing on after a restart."""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
from dataclasses import replace
from typing import Any

import pytest

from bot import computers
from bot.timers import ManualClock
from engine.actions import ActionKind
from engine.ai import decide
from engine.history import replay
from tests.discord.computer_support import CardWatch

STARTING = 1000  # the harness's starting chips, for people and the house alike
HUMAN_ACTIONS = (
    (ActionKind.SERVITO, "servito"),
    (ActionKind.PAROL, "paròl"),
    (ActionKind.VEDO, "vedo"),
    (ActionKind.PASSO, "passo"),
)


def channel_id(harness: Any) -> int:
    return int(harness.channel("poker").id)


def live_of(harness: Any) -> Any:
    return harness.bot.tables.get(channel_id(harness))


def quick(harness: Any, pause: float = 0.0) -> ManualClock:
    """Computer players act after ``pause`` seconds; turn timers on a clock only the test moves."""
    for live in harness.bot.tables:
        live.settings = replace(live.settings, computer_pause_min=pause, computer_pause_max=pause)
    clock = ManualClock()
    harness.bot.sessions.timers.clock = clock
    return clock


async def open_with_computers(
    harness: Any, human: Any, variant: str, levels: tuple[str, ...], **options: Any
) -> list[int]:
    reply = await harness.slash(human, "tavolo nuovo", channel="poker", variante=variant, **options)
    assert not reply.ephemeral, reply.content
    sat = await harness.slash(human, "tavolo siedi", channel="poker", buyin=500)
    assert not sat.ephemeral, sat.content
    quick(harness)
    for level in levels:
        added = await harness.slash(human, "tavolo computer", channel="poker", livello=level)
        assert not added.ephemeral, added.content
        assert re.search(r"giocat(ore|rice) del computer", added.content) and "della casa" in added.content
    return computers.computers_at(live_of(harness))


async def human_plays(harness: Any, human: Any) -> None:
    kinds = {la.kind for la in live_of(harness).table.legal_actions()}
    for kind, command in HUMAN_ACTIONS:
        if kind in kinds:
            reply = await harness.slash(human, command, channel="poker")
            assert not reply.ephemeral, reply.content
            return
    raise AssertionError(f"no simple word among {kinds}")


async def play_hand(harness: Any, human: Any, watch: CardWatch) -> None:
    """The human deals; he calls or checks (never bets), the computers play; until the hand ends."""
    watch.begin()
    started = await harness.slash(human, "tavolo inizia", channel="poker")
    assert not started.ephemeral, started.content
    while True:
        live = await harness.fake.wait_for(
            lambda: (
                (lv := live_of(harness)) is not None
                and (not lv.table.hand_running or lv.table.to_act == human.id)
                and lv
            ),
            "the human's turn or the end of the hand",
        )
        if not live.table.hand_running:
            break
        watch.during(live)
        await human_plays(harness, human)
    await harness.settle()
    watch.ended(live_of(harness))


@pytest.mark.parametrize("variant", ["italiana", "32carte", "texas"])
async def test_one_human_and_three_computers_play_hands_with_every_chip_accounted_for(
    harness: Any, variant: str
) -> None:
    alice = harness.user("alice")
    seated = await open_with_computers(harness, alice, variant, ("facile", "esperto", "esperto"))
    assert seated == [-1, -2, -3]
    live = live_of(harness)
    assert live.computers == {-1: "facile", -2: "esperto", -3: "esperto"}
    buy_in = 100 * live.options.cip
    # The house opened with the starting chips and was issued exactly what three buy-ins lacked.
    assert await harness.bot.storage.house_balance(harness.guild_id) == 0
    assert await harness.bot.storage.check() == []
    watch = CardWatch(harness)
    acted: set[int] = set()
    for _ in range(3):
        if live_of(harness).table.seats().get(alice.id, 0) == 0:
            break  # a calling station can lose her whole stack to them: the hands so far are the test
        await play_hand(harness, alice, watch)
        _, events = replay(live_of(harness).table.hand_record())
        acted |= {p for p in (getattr(e, "player", 0) for e in events) if computers.is_computer(p)}
        assert await harness.bot.storage.check() == []
    assert acted, "the computer players took part in the hands"
    texts = harness.public_texts()
    assert not any("<@-" in text or "<@0>" in text for text in texts), "no mention of a computer's id"
    assert any(computers.name_of(-2) in text for text in texts)
    # Cards are sent by DM to the human only: one DM channel was ever opened.
    opened = [path for method, path, _ in harness.fake.rest_log if path.endswith("/users/@me/channels")]
    assert len(opened) == 1 and harness.dms(alice)
    board = await harness.slash(alice, "classifica")
    assert computers.ROBOT not in board.text() and "<@0>" not in board.text() and "<@-" not in board.text()

    carried = live_of(harness).view().carried
    table_id = live_of(harness).id
    closed = await harness.slash(alice, "tavolo chiudi", channel="poker")
    assert not closed.ephemeral, closed.content
    assert await harness.bot.storage.check() == []
    # The night's summary names the computers as players and the house as nobody.
    night = await harness.bot.storage.table_summary(table_id)
    assert {p.user_id for p in night.players} == {alice.id, -1, -2, -3}
    # A carried pot is shared at closing, a computer's share through his seat: the nets add up.
    assert sum(p.net for p in night.players) == 0, f"the table's nets add up (carried pot {carried})"
    await harness.settle()
    assert not any("giocatore -" in t or "giocatore 0" in t for t in harness.public_texts())
    human = await harness.bot.storage.balance(harness.guild_id, alice.id)
    house = await harness.bot.storage.house_balance(harness.guild_id)
    issued_to_house = STARTING + (3 * buy_in - STARTING)
    assert human + house == STARTING + issued_to_house, "what one lost the other won"


async def test_a_computer_dismissed_mid_hand_plays_it_out_and_his_stack_goes_to_the_house(
    harness: Any,
) -> None:
    """Folded at once, his chips in the pot would go to whoever dismissed him: a computer dismissed
    during a hand he plays stands up when it ends, and his stack then is the house's."""
    alice = harness.user("alice")
    await open_with_computers(harness, alice, "texas", ("esperto", "esperto", "facile"))
    storage = harness.bot.storage
    watch = CardWatch(harness)
    watch.begin()
    await harness.slash(alice, "tavolo inizia", channel="poker")
    live = await harness.fake.wait_for(
        lambda: (lv := live_of(harness)).table.hand_running and lv.table.to_act == alice.id and lv,
        "alice's turn",
    )
    in_hand = [s for s in live.view().seats if computers.is_computer(s.player) and s.in_hand]
    assert in_hand, "texas pre-flop: nobody before alice folded everything"
    leaver = in_hand[0]
    house_before = await storage.house_balance(harness.guild_id)
    name = computers.name_of(leaver.player)
    reply = await harness.slash(alice, "tavolo congeda", channel="poker", nome=name)
    assert not reply.ephemeral and f"{name} si alza alla fine della mano" in reply.content, reply.content
    again = await harness.slash(alice, "tavolo congeda", channel="poker", nome=name)
    assert again.ephemeral and again.content == f"{name} si alza già alla fine della mano.", again.content
    assert leaver.player in computers.computers_at(live), "he plays the hand out"
    assert next(s for s in live.view().seats if s.player == leaver.player).in_hand
    while live.table.hand_running:
        if live.table.to_act == alice.id:
            watch.during(live)
            await human_plays(harness, alice)
        await harness.fake.wait_for(
            lambda: not live.table.hand_running or live.table.to_act == alice.id, "alice's turn or the end"
        )
    await harness.fake.wait_for(lambda: leaver.player not in computers.computers_at(live), "him to stand up")
    await harness.settle()
    watch.ended(live)
    told = [
        m
        for t in harness.messages("poker")
        for m in re.findall(rf"([\d.]+) fiches? tornan?o alla casa da {name}", t.text())
    ]
    assert told, "the table says where his stack went"
    assert await storage.house_balance(harness.guild_id) == house_before + int(told[-1].replace(".", ""))
    ledger = (await storage.table(live.id)).seats
    assert leaver.player not in ledger and len(ledger) == 3
    assert await storage.check() == []
    # Between hands a dismissal is immediate, and without a name it is the last one seated.
    last = min(computers.computers_at(live))
    stack = next(s.stack for s in live.view().seats if s.player == last)
    house_before = await storage.house_balance(harness.guild_id)
    reply = await harness.slash(alice, "tavolo congeda", channel="poker")
    assert f"{computers.name_of(last)} lascia il tavolo: " in reply.content
    assert await storage.house_balance(harness.guild_id) == house_before + stack
    assert await storage.check() == []


async def test_a_computer_who_runs_out_of_time_is_timed_out_like_anyone(harness: Any) -> None:
    alice = harness.user("alice")
    await open_with_computers(harness, alice, "texas", ("esperto", "facile"))
    clock = quick(harness, pause=60.0)  # longer than the 60 s turn, once the timer is armed
    await harness.slash(alice, "tavolo inizia", channel="poker")
    live = live_of(harness)
    if live.table.to_act == alice.id:
        await human_plays(harness, alice)
    slow = await harness.fake.wait_for(
        lambda: computers.is_computer(live.table.to_act or 0) and live.table.to_act, "a computer's turn"
    )
    ops = len(live.table.hand_record()["ops"])
    deadline = harness.bot.sessions.timers.deadline(channel_id(harness))
    assert deadline is not None, "his turn has a timer like anyone's"
    clock.advance(deadline - clock.now() + 1)
    await harness.fake.wait_for(lambda: len(live.table.hand_record()["ops"]) > ops, "the timeout")
    assert live.table.hand_record()["ops"][ops] == ["timeout"]
    said = f"{computers.name_of(slow)} non risponde in tempo"
    await harness.fake.wait_for(lambda: any(said in t for t in harness.public_texts()), "the timeout shown")
    quick(harness)
    harness.bot.sessions.computers.after(live)
    while live.table.hand_running:
        if live.table.to_act == alice.id:
            await human_plays(harness, alice)
        await harness.fake.wait_for(
            lambda: not live.table.hand_running or live.table.to_act == alice.id, "alice's turn or the end"
        )
    assert await harness.bot.storage.check() == []


async def test_a_restart_during_a_computers_turn_seats_him_again_and_he_plays_on(
    backend_harness: Any,
) -> None:
    harness = backend_harness
    alice = harness.user("alice")
    await open_with_computers(harness, alice, "32carte", ("facile", "esperto", "esperto"))
    storage = harness.bot.storage
    seats_before = dict((await storage.table(live_of(harness).id)).seats)
    quick(harness, pause=60.0)  # the computer to act is still thinking when the bot stops
    await harness.slash(alice, "tavolo inizia", channel="poker")
    live = live_of(harness)
    if live.table.to_act == alice.id:
        await human_plays(harness, alice)
    await harness.fake.wait_for(lambda: computers.is_computer(live.table.to_act or 0), "a computer's turn")
    await harness.restart()
    storage = harness.bot.storage
    live = live_of(harness)
    assert not live.table.hand_running, "the interrupted hand is cancelled"
    assert live.computers == {-1: "facile", -2: "esperto", -3: "esperto"}, "seated again, same levels"
    assert dict((await storage.table(live.id)).seats) == seats_before
    assert await storage.check() == []
    quick(harness)
    watch = CardWatch(harness)
    await play_hand(harness, alice, watch)
    _, events = replay(live_of(harness).table.hand_record())
    assert any(computers.is_computer(getattr(e, "player", 0)) for e in events), "the computers played"
    assert await storage.check() == []


async def test_a_computer_decides_off_the_lock_on_what_his_seat_may_know(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await open_with_computers(harness, alice, "italiana", ("esperto", "facile"))
    release = threading.Event()
    seen: list[Any] = []

    def thinking(view: Any, rng: Any, level: Any) -> Any:
        seen.append(view)
        assert release.wait(10), "the test never let him decide"
        return decide(view, rng, level)

    monkeypatch.setattr(computers, "decide", thinking)
    await harness.slash(alice, "tavolo inizia", channel="poker")
    live = live_of(harness)
    if live.table.to_act == alice.id:
        await human_plays(harness, alice)
    await harness.fake.wait_for(lambda: seen, "a computer to be deciding")
    [view] = seen
    # He is still deciding, and the table's lock is free (the command that gave him the turn is done).
    await harness.fake.wait_for(lambda: not live.lock.locked(), "the table's lock to be free")
    assert live.table.to_act == view.player
    # Meanwhile the table serves everybody at once: bob sits down (for the next hand), answered directly.
    sat = await harness.slash(bob, "tavolo siedi", channel="poker", buyin=300)
    assert not sat.ephemeral and not sat.deferred
    # What he knew: his own cards, and only events shown to everybody.
    assert view.cards == live.table.cards_of(view.player) and view.player == live.table.to_act
    assert view.history and all(e.private_to is None for e in view.history)
    others = {c for s in live.view().seats if s.player != view.player for c in live.table.cards_of(s.player)}
    assert not others & set(view.cards)
    release.set()
    await harness.fake.wait_for(lambda: live.table.to_act != view.player, "his word")
    assert await harness.bot.storage.check() == []


async def test_who_may_seat_and_dismiss_computers_and_how_many(harness: Any) -> None:
    alice, bob, eve = harness.user("alice"), harness.user("bob"), harness.user("eve")
    await harness.slash(alice, "tavolo nuovo", channel="poker", variante="italiana", max_computer=1)
    quick(harness)
    outsider = await harness.slash(eve, "tavolo computer", channel="poker")
    assert outsider.ephemeral and "Solo chi è seduto" in outsider.content
    await harness.slash(bob, "tavolo siedi", channel="poker", buyin=300)
    added = await harness.slash(bob, "tavolo computer", channel="poker", livello="facile")
    assert not added.ephemeral and computers.name_of(-1) in added.content
    assert live_of(harness).computers == {-1: "facile"}
    again = await harness.slash(bob, "tavolo computer", channel="poker")
    assert again.ephemeral and "al massimo 1 giocatori del computer" in again.content
    refused = await harness.slash(bob, "tavolo congeda", channel="poker")
    assert refused.ephemeral and "Solo chi ha aperto il tavolo" in refused.content
    unknown = await harness.slash(alice, "tavolo congeda", channel="poker", nome="Zio Paperone")
    assert unknown.ephemeral and computers.name_of(-1) in unknown.content
    gone = await harness.slash(alice, "tavolo congeda", channel="poker", nome="nonno gino")
    assert not gone.ephemeral and "tornano alla casa" in gone.content
    nobody = await harness.slash(alice, "tavolo congeda", channel="poker")
    assert nobody.ephemeral and nobody.content == "A questo tavolo non siede nessun giocatore del computer."
    assert await harness.bot.storage.check() == []


async def test_dismiss_offers_the_names_of_the_computers_at_the_table(harness: Any) -> None:
    """Typing in `nome` of /tavolo congeda (Discord's autocomplete, end to end through the fake): the
    names of the computers at this table holding what was typed; none where there is no table."""
    alice = harness.user("alice")
    await open_with_computers(harness, alice, "32carte", ("facile", "esperto"))
    offered = await harness.autocomplete(alice, "tavolo congeda", channel="poker", nome="")
    assert [c["value"] for c in offered.choices] == [computers.name_of(-1), computers.name_of(-2)]
    typed = await harness.autocomplete(alice, "tavolo congeda", channel="poker", nome="zia")
    assert [c["name"] for c in typed.choices] == ["🤖 Zia Pina"]
    elsewhere = await harness.autocomplete(alice, "tavolo congeda", channel="generale", nome="")
    assert elsewhere.callback_type == 8 and elsewhere.choices == [], "no table, no names"


async def test_a_late_autocomplete_answer_is_one_warning_line(
    harness: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The names for /tavolo congeda answered after Discord's 3 seconds (an overloaded process): Discord
    answers 404, code 10062. As for a late command answer (tests/discord/test_expired_interaction.py),
    that is one WARNING line, no traceback, and no second try; discord.py alone would log "Ignoring
    exception in autocomplete" at ERROR with the traceback (which fails the test)."""
    alice = harness.user("alice")
    await open_with_computers(harness, alice, "texas", ("facile",))
    caplog.set_level(logging.WARNING)
    harness.rules.deadline = 0.0  # every answer arrives too late
    before = len(harness.fake.rest_log)
    late = await harness.autocomplete(alice, "tavolo congeda", channel="poker", nome="")
    harness.rules.deadline = 3.0
    assert late.record.refused == 404 and late.callback_type is None
    late_ones = [v for v in harness.fake.violations if v.startswith("deadline:")]
    assert len(late_ones) == 1, "one answer, no second try through the expired interaction"
    harness.fake.violations[:] = [v for v in harness.fake.violations if v not in late_ones]
    calls = [path for _method, path, _status in harness.fake.rest_log[before:] if "/callback" in path]
    assert len(calls) == 1
    (record,) = [r for r in caplog.records if r.levelno >= logging.WARNING and "expired" in r.getMessage()]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "autocomplete" in record.getMessage() and "10062" in record.getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_dismiss_without_a_name_dismisses_the_last_one_seated(harness: Any) -> None:
    """README: `/tavolo congeda` without a name dismisses "the last one seated", though a computer
    seated after another was dismissed takes the first free name (a lower slot)."""
    alice = harness.user("alice")
    await open_with_computers(harness, alice, "texas", ("facile", "facile", "facile"))
    gone = await harness.slash(alice, "tavolo congeda", channel="poker", nome=computers.name_of(-1))
    assert not gone.ephemeral, gone.content
    added = await harness.slash(alice, "tavolo computer", channel="poker", livello="esperto")
    assert not added.ephemeral, added.content
    last = next(p for p in computers.computers_at(live_of(harness)) if computers.name_of(p) in added.content)
    reply = await harness.slash(alice, "tavolo congeda", channel="poker")
    assert not reply.ephemeral, reply.content
    assert reply.content.startswith(f"{computers.name_of(last)} lascia il tavolo"), (
        f"{computers.name_of(last)} was seated last, but: {reply.content}"
    )


async def test_a_database_failure_under_a_computers_action_is_a_warning_not_an_error(
    harness: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A driver error (not a ledger refusal) while a computer's action is written: a warning, no
    ERROR, no task failing unseen; nothing was played, and the turn timer still runs for him."""
    alice = harness.user("alice")
    await open_with_computers(harness, alice, "texas", ("facile",))
    registry = harness.bot.tables
    act = registry.act
    failed: list[int] = []

    async def locked_once(live: Any, action: Any) -> Any:
        if computers.is_computer(action.player) and not failed:
            failed.append(action.player)
            raise sqlite3.OperationalError("database is locked")
        return await act(live, action)

    monkeypatch.setattr(registry, "act", locked_once)
    started = await harness.slash(alice, "tavolo inizia", channel="poker")
    assert not started.ephemeral, started.content
    live = live_of(harness)
    if live.table.to_act == alice.id:
        await human_plays(harness, alice)
    await harness.fake.wait_for(lambda: bool(failed), "the computer's first action")
    await harness.settle()
    assert any("a computer's action was not written" in r.getMessage() for r in caplog.records)
    assert live_of(harness).table.hand_running and await harness.bot.storage.check() == []


async def test_a_dismissed_computers_chips_are_not_told_as_going_to_his_balance(harness: Any) -> None:
    """A computer has no balance: his chips go back to the house, and the reply and the table message
    say so («alla casa»), never «nel saldo di 🤖 …»."""
    alice = harness.user("alice")
    await open_with_computers(harness, alice, "texas", ("facile", "esperto"))
    await harness.slash(alice, "tavolo inizia", channel="poker")
    live = await harness.fake.wait_for(
        lambda: (lv := live_of(harness)).table.hand_running and lv.table.to_act == alice.id and lv,
        "alice's turn",
    )
    leaver = next(s.player for s in live.view().seats if computers.is_computer(s.player) and s.in_hand)
    name = computers.name_of(leaver)
    reply = await harness.slash(alice, "tavolo congeda", channel="poker", nome=name)
    assert not reply.ephemeral and "alla casa" in reply.content, reply.content
    while live.table.hand_running:  # in the hand, he plays it out and stands up when it ends
        await harness.fake.wait_for(
            lambda: not live.table.hand_running or live.table.to_act == alice.id, "alice's turn or the end"
        )
        if live.table.hand_running:
            assert not (await harness.slash(alice, "passo", channel="poker")).ephemeral
    await harness.fake.wait_for(lambda: leaver not in computers.computers_at(live), "him to stand up")
    await harness.settle()
    wrong = [t for t in harness.public_texts() if f"nel saldo di {name}" in t]
    assert not wrong, wrong[-1]
    assert any(f"alla casa da {name}" in m.text() for m in harness.messages("poker"))


async def test_computers_never_take_the_last_free_seat_from_a_person(harness: Any) -> None:
    """README: a computer never takes a table's last free seat, so the next person who comes can sit:
    at a 5-seat table with one person and three computers a fourth computer is refused."""
    alice, bob = harness.user("alice"), harness.user("bob")
    await open_with_computers(harness, alice, "32carte", ("facile", "facile", "facile"))
    fourth = await harness.slash(alice, "tavolo computer", channel="poker", livello="facile")
    assert len(live_of(harness).view().seats) < live_of(harness).options.max_seats or fourth.ephemeral, (
        "the fourth computer took the last free seat of a 5-seat table: " + fourth.content
    )
    sat = await harness.slash(bob, "tavolo siedi", channel="poker", buyin=300)
    assert not sat.ephemeral, sat.content


async def test_closing_does_not_tell_a_computers_chips_as_going_to_a_balance(harness: Any) -> None:
    """/tavolo chiudi names the people's chips going back to their balances and the computers' going
    to the house (a computer has no balance, as /tavolo congeda says: «… alla casa»)."""
    alice = harness.user("alice")
    await open_with_computers(harness, alice, "italiana", ("facile",))
    closed = await harness.slash(alice, "tavolo chiudi", channel="poker")
    assert not closed.ephemeral, closed.content
    name = computers.name_of(-1)
    said = closed.content.split("Fiches tornate nei saldi:", 1)
    assert len(said) == 1 or name not in said[1], closed.content
    assert "casa" in closed.content, closed.content


async def test_dismissing_a_computer_mid_hand_does_not_hand_his_chips_in_the_pot_to_the_dismisser(
    harness: Any,
) -> None:
    """A person leaving folds himself; a computer dismissed by his opponent (the table's creator) at
    her turn is not folded, or she would win his blinds and bets with whatever she holds, the house's
    chips hers for the asking: he plays the hand out. Here she folds whenever the hand goes on, so she
    can never end the hand with more than she began it."""
    alice = harness.user("alice")
    await open_with_computers(harness, alice, "texas", ("esperto",))
    live = live_of(harness)
    for _ in range(6):
        before = live.table.seats()[alice.id]
        started = await harness.slash(alice, "tavolo inizia", channel="poker")
        assert not started.ephemeral, started.content
        await harness.fake.wait_for(
            lambda: not live.table.hand_running or live.table.to_act == alice.id, "alice's turn or the end"
        )
        if live.table.hand_running:
            break
    assert live.table.hand_running and live.table.to_act == alice.id
    gone = await harness.slash(alice, "tavolo congeda", channel="poker")
    assert not gone.ephemeral, gone.content
    while live.table.hand_running:
        await harness.fake.wait_for(
            lambda: not live.table.hand_running or live.table.to_act == alice.id, "alice's turn or the end"
        )
        if live.table.hand_running:
            folded = await harness.slash(alice, "passo", channel="poker")
            assert not folded.ephemeral, folded.content
    await harness.settle()
    after = live.table.seats()[alice.id]
    assert after <= before, (
        f"alice folded every hand she played, yet dismissing her opponent won her {after - before} chips"
    )
    await harness.fake.wait_for(lambda: computers.computers_at(live) == [], "the computer to stand up")
    assert "si alza alla fine della mano" in gone.content, gone.content
    assert await harness.bot.storage.check() == []
