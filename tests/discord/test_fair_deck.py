"""A deck you can verify (bot/fair_deck.py), end to end: the impronta shown before the first card is
the SHA-256 of the string published after the hand, and that string's deck order is the one the
players were dealt (their DMs), drew and saw on the table; the verify command printed runs clean."""

from __future__ import annotations

import hashlib
import json
import logging
import re
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.card_pictures import HAND_FILE
from bot.pictures import hand_png
from engine.cards import Card, format_cards, hand_order, parse_cards
from engine.events import CardsDealt, CardsDrawn, DiscardsReshuffled, HandStarted
from engine.fairness import PREFIX, deal_plan, verify
from engine.history import replay
from tests.discord.gioco_support import HEADS_UP_TEXAS, Game, fails_once

ROOT = Path(__file__).resolve().parents[2]
DIGEST = re.compile(r"`([0-9a-f]{64})`")
REVEAL = re.compile(r"Verifica: `([^`]+)`")
COMMAND = re.compile(r"Per controllare: `([^`]+)`")


def first_version_text(message: Any) -> str:
    """The table message as it was first posted (before any card reached a player)."""
    first = message.history[0]
    return "\n".join(f"{f['name']}\n{f['value']}" for e in first.get("embeds") or [] for f in e["fields"])


def nothing_reveals(harness: Any, users: list[Any]) -> None:
    texts = harness.public_texts() + [dm.content for user in users for dm in harness.dms(user)]
    assert not [text for text in texts if PREFIX in text], "the reveal string is secret until the end"


def stored_record(harness: Any) -> dict[str, Any]:
    conn = sqlite3.connect(harness.database_path)
    try:
        (text,) = conn.execute("SELECT record FROM hands ORDER BY id DESC LIMIT 1").fetchone()
    finally:
        conn.close()
    record: dict[str, Any] = json.loads(text)
    return record


def players_of(game: Game) -> tuple[int, ...]:
    _, events = replay(game.table.hand_record())
    return next(e for e in events if isinstance(e, HandStarted)).players


def dealt_in_dm(harness: Any, user: Any, index: int) -> tuple[str, bytes]:
    dm = harness.dms(user)[index]
    [picture] = [a.data for a in dm.attachments if a.filename == HAND_FILE]
    return dm.content, picture


def check_verify_command(command: str) -> str:
    args = shlex.split(command)
    assert args[:3] == ["python", "-m", "engine.verify"]
    run = subprocess.run(
        [sys.executable, *args[1:]], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


async def test_texas_the_impronta_before_the_hand_matches_the_deal_published_after_it(
    harness: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    alice, bob = harness.user("alice"), harness.user("bob")
    users = {alice.id: alice, bob.id: bob}
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], avviso="off")
    await game.start(alice)  # no stacked deck: a real shuffle, committed
    message = game.message
    shown = first_version_text(message)
    assert "Impronta del mazzo" in shown
    [digest] = DIGEST.findall(shown)
    nothing_reveals(harness, [alice, bob])
    await game.say(users[game.table.to_act], "vedo")
    for _ in range(7):
        await game.say(users[game.table.to_act], "paròl")
        if game.table.hand_running:
            nothing_reveals(harness, [alice, bob])
    assert not game.table.hand_running
    text = message.text()
    [reveal] = REVEAL.findall(text)
    assert hashlib.sha256(reveal.encode()).hexdigest() == digest and verify(reveal, digest)
    assert f"Impronta: `{digest}`" in text
    # The deck order in the reveal is the deal: every hole card in the DMs, the board on the table.
    order = players_of(game)
    plan = deal_plan(reveal, "texas", len(order))
    for position, pid in enumerate(order):
        content, picture = dealt_in_dm(harness, users[pid], 0)
        held = hand_order(plan.hands[position])
        assert f"**{format_cards(held)}**" in content and picture == hand_png(held)
    assert tuple(game.session.board) == plan.board
    assert f"Carte in tavola: {format_cards(plan.board)}" in text
    # The command printed checks it, and the hand record keeps both for replays.
    [command] = COMMAND.findall(text)
    assert f"--commitment {digest}" in command and "--variante texas --giocatori 2" in command
    assert "Corrisponde all'impronta" in check_verify_command(command)
    assert stored_record(harness)["fairness"] == {"commitment": digest, "reveal": reveal, "command": command}
    assert reveal not in caplog.text, "the reveal is never logged"
    game.finish()


async def test_32carte_the_draw_comes_from_the_committed_order(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    users = {alice.id: alice, bob.id: bob}
    game = Game(harness)
    await game.open(alice, "32carte", [alice, bob], avviso="off")
    await game.start(bob)
    [digest] = DIGEST.findall(first_version_text(game.message))
    await game.say(users[game.table.to_act], "vedo")
    await game.say(users[game.table.to_act], "paròl")
    assert game.live.view().street.value == "cambio"
    order = players_of(game)
    discards: dict[int, tuple[Card, ...]] = {}
    while game.table.street is not None and game.live.view().street.value == "cambio":
        pid = game.table.to_act
        discards[pid] = hand_order(game.table.cards_of(pid))[:2]
        await game.say(users[pid], "cambio", carte=format_cards(discards[pid]))
    for _ in range(2):
        await game.say(users[game.table.to_act], "paròl")
    assert not game.table.hand_running
    [reveal] = REVEAL.findall(game.message.text())
    assert verify(reveal, digest)
    plan = deal_plan(reveal, "32carte", 2, [discards[pid] for pid in order])
    assert plan.draw is not None
    for position, pid in enumerate(order):
        dealt, _ = dealt_in_dm(harness, users[pid], 0)
        assert f"**{format_cards(hand_order(plan.hands[position]))}**" in dealt
        served = plan.draw[position]
        kept = [c for c in plan.hands[position] if c not in served.discarded]
        after, picture = dealt_in_dm(harness, users[pid], 1)
        held = hand_order([*kept, *served.received])
        assert "Dopo il cambio" in after and f"**{format_cards(held)}**" in after
        assert picture == hand_png(held)
    check_verify_command(COMMAND.findall(game.message.text())[0])
    game.finish()


async def test_a_hand_cancelled_by_a_restart_never_publishes_its_reveal(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], avviso="off")
    await game.start(alice)
    message_id = game.live.message_id
    assert DIGEST.findall(first_version_text(game.message))
    await game.restart()
    message = harness.fake.store[message_id]
    assert "Mano annullata" in message.text()
    nothing_reveals(harness, [alice, bob])
    assert "fairness" not in (stored_record_or_none(harness) or {})
    # A stacked deck (tests only) is dealt as given: no impronta to show.
    await game.start(alice, HEADS_UP_TEXAS)
    assert "Impronta del mazzo" not in game.message.text()
    game.finish()


def stored_record_or_none(harness: Any) -> dict[str, Any] | None:
    conn = sqlite3.connect(harness.database_path)
    try:
        (text,) = conn.execute("SELECT record FROM hands ORDER BY id DESC LIMIT 1").fetchone()
    finally:
        conn.close()
    return None if text is None else dict(json.loads(text))


async def test_italiana_a_player_who_left_during_the_buio_question_is_out_of_the_verified_deal(
    harness: Any,
) -> None:
    """Poker tradizionale asks the buio before any card. Carol stands up meanwhile: she is folded
    before the deal, and the cards go round bob and alice only, from the deck chosen for three. The
    published command names her position (``--fuori``) and prints the deal the players received."""
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol], avviso="off")
    await game.start(alice)  # a real, committed shuffle
    [digest] = DIGEST.findall(game.message.text())
    assert game.table.to_act == bob.id and not harness.dms(bob), "the buio is asked first, before the deal"
    left = await game.say(carol, "tavolo alzati")
    assert not left.ephemeral, left.content
    await game.say(bob, "passo")  # no buio: the cards are dealt now
    while game.table.hand_running:
        await game.say(users[game.table.to_act], "passo")
    text = game.message.text()
    [reveal] = REVEAL.findall(text)
    assert verify(reveal, digest)
    [command] = COMMAND.findall(text)
    assert "--giocatori 3" in command and "--fuori 2" in command, command  # bob 1, carol 2, alice 3
    printed = check_verify_command(command)
    _, events = replay(game.table.hand_record())
    dealt = {e.player: e.cards for e in events if isinstance(e, CardsDealt)}
    assert set(dealt) == {alice.id, bob.id}
    for user, position in ((bob, "posizione 1"), (alice, "posizione 3 (mazziere)")):
        content, _ = dealt_in_dm(harness, user, 0)
        assert f"**{format_cards(hand_order(dealt[user.id]))}**" in content, "his DM shows what he got"
        assert f"{position}: {format_cards(dealt[user.id])}\n" in printed, (user.name, printed)
    assert "posizione 2: uscito prima delle carte" in printed, printed
    game.finish()


async def test_italiana_a_hand_nobody_was_dealt_into_is_not_verified_as_a_deal_to_everyone(
    harness: Any,
) -> None:
    """Poker tradizionale asks the buio before any card: if the two others stand up meanwhile the hand
    ends with no card dealt. The published command names both as out before the cards, and the tool
    prints no hand for anyone (not five cards for each position, a deal that never happened)."""
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol], avviso="off")
    await game.start(alice)  # a real, committed shuffle
    assert game.table.to_act == bob.id and not harness.dms(bob), "the buio is asked first, before the deal"
    for user in (carol, alice):
        left = await game.say(user, "tavolo alzati")
        assert not left.ephemeral, left.content
    assert not game.table.hand_running
    _, events = replay(game.table.hand_record())
    assert not [e for e in events if isinstance(e, CardsDealt)]
    [command] = COMMAND.findall(game.message.text())
    assert "--fuori 2 --fuori 3" in command, command  # bob 1, carol 2, alice 3
    printed = check_verify_command(command)
    assert "  posizione 1: nessuna carta" in printed, printed
    assert "  posizione 2: uscito prima delle carte" in printed
    assert "  posizione 3 (mazziere): uscito prima delle carte" in printed
    assert "Nessuna carta distribuita" in printed
    game.finish()


async def test_32carte_the_published_command_lets_a_player_check_the_cards_of_a_reshuffled_draw(
    harness: Any,
) -> None:
    """32carte, four players, everyone changes four cards: 16 cards asked of a stub of 12, so the
    last one is served from the reshuffled discards. The players never see the others' discards, so
    the command published after the hand gives everyone's (``--scarti``): run as it is, it prints
    what the draw gave each player, the reshuffled cards included."""
    users = [harness.user(name) for name in ("alice", "bob", "carol", "dave")]
    by_id = {u.id: u for u in users}
    game = Game(harness)
    await game.open(users[0], "32carte", users, avviso="off")
    await game.start(users[0])  # a real, committed shuffle
    while game.live.view().street.value != "cambio":
        pid = game.table.to_act
        word = "vedo" if any(a.kind.value == "vedo" for a in game.table.legal_actions()) else "paròl"
        await game.say(by_id[pid], word)
    while game.live.view().street.value == "cambio":
        pid = game.table.to_act
        await game.say(by_id[pid], "cambio", carte=format_cards(hand_order(game.table.cards_of(pid))[:4]))
    while game.table.hand_running:
        await game.say(by_id[game.table.to_act], "paròl")
    _, events = replay(game.table.hand_record())
    assert any(isinstance(e, DiscardsReshuffled) for e in events), "the stub ran out"
    order = players_of(game)
    text = game.message.text()
    [command] = COMMAND.findall(text)
    assert len(text) <= 6000 and all(
        len(f["value"]) <= 1024 for e in game.message.history[-1]["embeds"] for f in e["fields"]
    )
    printed = check_verify_command(command)
    for e in events:
        if isinstance(e, CardsDrawn):
            position = order.index(e.player) + 1
            told = (
                f"posizione {position}: scarta {format_cards(e.discarded)}, riceve {format_cards(e.received)}"
            )
            assert told in printed, (command, printed)
    assert stored_record(harness)["fairness"]["command"] == command, "the replay keeps the same command"
    game.finish()


def test_the_command_of_an_italiana_hand_gives_the_folds_in_their_order() -> None:
    """The command the bot builds from a hand's record (``FairDeck.ended``) numbers the players who
    folded before the draw in the order they folded (``--scarti -N``): when the stub runs out before
    anyone has all his cards, the folded hands are reshuffled in that order, and only then does the
    tool print the cards the players received."""
    from bot.fair_deck import FairDeck
    from tests.engine.test_fairness_fold_order import folded_muck_reshuffle, received_by_position

    commitment, table, events, players = folded_muck_reshuffle()
    fair = FairDeck.of(commitment).ended(table.hand_record())
    assert fair.command is not None
    assert "--scarti -2" in fair.command and "--scarti -1" in fair.command
    printed = check_verify_command(fair.command)
    received = dict(re.findall(r"^  posizione (\d+): scarta .*, riceve (.*)$", printed, re.M))
    assert {int(n): parse_cards(c) for n, c in received.items()} == received_by_position(events, players)


async def test_the_impronta_shown_before_the_hand_stays_readable_where_the_bot_cannot_rewrite_it(
    harness: Any,
) -> None:
    """The bot edits the table message all hand long and at its end fills the command's
    ``--commitment`` itself; Discord shows no earlier version of an edited message. So each
    player's first private message of the hand (his cards, never edited) carries the impronta: the
    one to compare with the string published after the hand."""
    alice, bob = harness.user("alice"), harness.user("bob")
    users = {alice.id: alice, bob.id: bob}
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], avviso="off")
    await game.start(alice)
    [digest] = DIGEST.findall(first_version_text(game.message))
    await game.say(users[game.table.to_act], "passo")
    assert not game.table.hand_running
    for user in (alice, bob):
        [first] = harness.dms(user)
        assert len(first.history) == 1 and f"`{digest}`" in first.content, (user.name, first.content)
    game.finish()


async def test_a_deal_the_database_refuses_does_not_take_the_last_hands_reveal_off_its_message(
    harness: Any, monkeypatch: Any
) -> None:
    """A hand ends and its table message publishes «Mazzo verificabile». The next deal fails at
    `begin_hand` (the database locked): the table is put back and so is the last hand's deck, so
    the next render of the same message (a third player sitting down) keeps its published string."""
    from fakediscord.runner import ErrorWatch

    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    users = {alice.id: alice, bob.id: bob}
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], avviso="off")
    await game.start(alice)
    await game.say(users[game.table.to_act], "passo")
    assert not game.table.hand_running
    [reveal] = REVEAL.findall(game.message.text())
    calls = fails_once(monkeypatch, harness.bot.storage, "begin_hand")
    with ErrorWatch.on(harness.fake).expecting():  # a database failure: the operator's to see
        reply = await harness.slash(alice, "tavolo inizia", channel=game.channel)
    assert reply.ephemeral and calls, reply.content
    assert not game.table.hand_running
    sat = await harness.slash(carol, "tavolo siedi", channel=game.channel, buyin=300)
    assert not sat.ephemeral, sat.content
    await game.session.flush(5.0)
    assert reveal in game.message.text(), "the last hand's message keeps its published reveal"
    game.finish()
