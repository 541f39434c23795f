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
from engine.cards import Card, format_cards, hand_order
from engine.events import CardsDealt, HandStarted
from engine.fairness import PREFIX, deal_plan, verify
from engine.history import replay
from tests.discord.gioco_support import HEADS_UP_TEXAS, Game

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
    assert stored_record(harness)["fairness"] == {"commitment": digest, "reveal": reveal}
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
