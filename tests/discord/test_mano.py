"""/mano through the fake Discord: a finished hand told again, public, with only what the table showed."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from bot import hand_replay
from cogs.mano import NEVER_A_TABLE, NO_HAND_YET, STILL_RUNNING, no_such_hand
from engine.actions import Action, ActionKind
from tests.discord.gioco_support import Game, stacked

# Heads-up texas, alice deals (small blind, first to speak before the flop); the deal starts at bob.
# Bob holds A♥ K♥, alice 2♣ 3♦; the board 9♠ 9♦ 10♣ 6♥ 8♥ (burns 4♠ 5♥ 7♥). Checked down, bob shows
# first (first left of the dealer) and wins with the kickers; alice mucks: her cards stay hidden.
MUCKED = stacked(["Ah Kh", "2c 3d"], "4s 9s 9d Tc 5h 6h 7h 8h")


async def checked_down(game: Game, alice: Any, bob: Any, deck: Any = MUCKED) -> None:
    await game.start(alice, deck)
    await game.say(alice, "vedo")
    await game.say(bob, "paròl")
    while game.table.hand_running:
        user = alice if game.table.to_act == alice.id else bob
        await game.say(user, "paròl")


def replay_text(reply: Any) -> str:
    return "\n".join([reply.text(), *(m.text() for m in reply.followups)])


async def test_the_last_hand_is_told_again_in_public_without_the_mucked_cards(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob])
    await checked_down(game, alice, bob)
    carol = harness.user("carol")  # anyone in the channel may ask: it only shows what was public
    reply = await harness.slash(carol, "mano")
    assert not reply.ephemeral
    text = replay_text(reply)
    assert reply.embeds[0]["title"] == "Mano n. 1 — Texas Hold'em"
    assert f"<@{alice.id}> mette piccolo buio: 5 fiches." in text
    assert f"<@{alice.id}> vede 5 fiches." in text
    assert text.index("vede 5 fiches") < text.index("— Flop: 9♠ 9♦ 10♣") < text.index("— River: 8♥")
    assert "Carte in tavola: 9♠ 9♦ 10♣ 6♥ 8♥." in text
    assert f"<@{bob.id}> mostra A♥ K♥: coppia." in text
    assert f"<@{alice.id}> non mostra le carte." in text
    assert "2♣" not in text and "3♦" not in text, "a mucked hand is never shown"
    assert f"<@{bob.id}> vince il piatto: 20 fiches." in text
    assert reply.data["allowed_mentions"]["parse"] == [], "names are mentions that ping nobody"
    assert reply.message is not None and reply.message.notified == []
    # The same hand by its number.
    again = await harness.slash(carol, "mano", numero=1)
    assert replay_text(again) == text
    game.finish()


async def test_a_folded_hand_shows_no_card_and_old_hands_stay_reachable(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob])
    await checked_down(game, alice, bob)
    # Hand 2: bob deals now; alice gets the first card (A♥ K♥) and bob folds his small blind at once.
    await game.start(alice, stacked(["Ah Kh", "2c 3d"], "4s 9s 9d Tc 5h 6h 7h 8h"))
    await game.say(bob, "passo")
    assert not game.table.hand_running
    last = await harness.slash(alice, "mano")
    text = replay_text(last)
    assert last.embeds[0]["title"].startswith("Mano n. 2")
    assert f"<@{bob.id}> passa." in text
    assert f"5 fiches non chiamate tornano a <@{alice.id}>." in text, "every chip movement is told"
    assert f"<@{alice.id}> vince il piatto: 10 fiches." in text
    for card in ("A♥", "K♥", "2♣", "3♦"):
        assert card not in text, f"nobody showed {card}"
    first = replay_text(await harness.slash(alice, "mano", numero=1))
    assert "mostra A♥ K♥" in first
    game.finish()


async def test_a_missing_number_is_one_private_sentence(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    reply = await harness.slash(alice, "mano")
    assert reply.ephemeral and reply.content == NEVER_A_TABLE
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob])
    reply = await harness.slash(alice, "mano")
    assert reply.ephemeral and reply.content == NO_HAND_YET
    await checked_down(game, alice, bob)
    reply = await harness.slash(alice, "mano", numero=7)
    assert reply.ephemeral and reply.content == no_such_hand(7, 1)
    assert reply.content == "La mano n. 7 non esiste: a questo tavolo c'è solo la mano n. 1."
    await game.start(alice)
    reply = await harness.slash(alice, "mano", numero=2)
    assert reply.ephemeral and reply.content == STILL_RUNNING.format(number=2)
    assert harness.messages("poker")[-1].id == game.message.id, "nothing public for a refusal"
    game.finish()


async def test_a_hand_cancelled_by_a_restart_says_so(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob])
    await game.start(alice, MUCKED)
    await game.say(alice, "vedo")
    await game.restart()
    reply = await harness.slash(bob, "mano")
    assert not reply.ephemeral and reply.content == hand_replay.cancelled_text(1)
    assert "A♥" not in reply.text() and "2♣" not in reply.text()
    game.finish()


async def test_the_fair_deck_reveal_is_shown_when_the_record_has_one(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob])
    await checked_down(game, alice, bob)
    plain = replay_text(await harness.slash(alice, "mano"))
    assert "Verifica" not in plain, "no reveal in a record without one"
    # What the fair deck adds to the record (engine/fairness.py), written as the bot stores it.
    fairness = {"commitment": "ab" * 32, "reveal": "tavolo-verde/v1|" + "0" * 32 + "|Ah Kh 2c 3d"}
    conn = sqlite3.connect(harness.database_path)
    with conn:
        [(raw,)] = conn.execute("SELECT record FROM hands WHERE number = 1").fetchall()
        conn.execute(
            "UPDATE hands SET record = ? WHERE number = 1",
            (json.dumps(json.loads(raw) | {"fairness": fairness}),),
        )
    conn.close()
    text = replay_text(await harness.slash(alice, "mano"))
    assert f"`{fairness['commitment']}`" in text and f"`{fairness['reveal']}`" in text
    game.finish()


async def test_a_long_hand_is_split_within_discords_limits(harness: Any) -> None:
    """Two hundred min-raises: far more than one embed (4,096) or one message (6,000) can hold. The
    fake refuses an oversized payload (and fails the test); every line still arrives, in order."""
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], buyin=1000, limite="nolimit", cip=2)
    await game.start(alice, MUCKED)
    live = game.live
    async with harness.bot.tables.locked(live.channel_id):
        for _ in range(200):
            player = live.table.to_act
            await harness.bot.tables.act(live, Action(player, ActionKind.RILANCIO, 2))
        while live.table.hand_running:
            player = live.table.to_act
            kind = (
                ActionKind.VEDO
                if any(a.kind is ActionKind.VEDO for a in live.table.legal_actions())
                else ActionKind.PAROL
            )
            await harness.bot.tables.act(live, Action(player, kind))
    reply = await harness.slash(bob, "mano")
    assert not reply.ephemeral
    assert reply.followups, "more than one message"
    messages = [reply.message, *reply.followups]
    for message in messages:
        sizes = [len(e.get("title", "")) + len(e.get("description", "")) for e in message.embeds]
        assert all(len(e.get("description", "")) <= 4096 for e in message.embeds)
        assert sum(sizes) <= 6000
    text = replay_text(reply)
    assert text.count("rilancia 2 fiches") == 200
    assert text.rindex("rilancia 2 fiches") < text.index("Carte in tavola: 9♠ 9♦ 10♣ 6♥ 8♥.")
    assert harness.fake.violations == []
