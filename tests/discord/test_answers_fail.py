"""When the answer to an accepted command fails, the change it made still reaches the channel.

A dropped connection or an expired interaction on the answer is Discord's failure, not the bot's:
a warning, never an ERROR (the fixture fails any test in which the bot logs one), and the player who
can still be reached is sent to the table message. What the command changed is shown there anyway:
the session hears of it before the answer, the last hand's message ends on its result even when its
last edit failed, and a deferred deal whose channel post failed is still answered.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.tree import APOLOGY, DISCORD_FAILED
from tests.discord.gioco_support import HEADS_UP, Game, acknowledged_while_busy, heads_up, stacked
from tests.discord.test_expired_interaction import answered_late
from tests.discord.test_table_truth import converged, fast_retries

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
EDIT = "/channels/{channel_id}/messages/{message_id}"
POST = "/channels/{channel_id}/messages"


async def test_a_dropped_answer_to_a_slash_action_is_no_error_and_the_action_stands(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    harness.fake.fail_next("drop", method="POST", route=CALLBACK)
    reply = await game.say(bob, "passo")
    assert game.table.to_act == alice.id, "the pass was played"
    assert reply.ephemeral and reply.content == DISCORD_FAILED, reply.content
    await converged(harness, game)
    assert f"<@{bob.id}> passa." in game.message.content
    game.finish()


async def test_a_dropped_answer_to_a_click_is_no_error_and_the_table_shows_the_action(harness: Any) -> None:
    fast_retries(harness)
    game, alice, bob = await heads_up(harness)
    harness.fake.fail_next("drop", method="POST", route=CALLBACK)
    reply = await game.click(bob, "Passo")
    assert game.table.to_act == alice.id, "the pass was played"
    assert reply.record.callback_type == 6, "acknowledged again after the dropped edit"
    assert APOLOGY not in (reply.content or "")
    await converged(harness, game)
    assert f"<@{bob.id}> passa." in game.message.content
    game.finish()


async def test_a_leave_whose_answer_expired_still_ends_the_hand_on_the_table_message(harness: Any) -> None:
    game, alice, _bob = await heads_up(harness)
    harness.rules.deadline = 0.0  # the answer to /tavolo alzati arrives too late (a busy process)
    await answered_late(harness, alice, "tavolo alzati")
    harness.rules.deadline = 3.0
    assert not game.table.hand_running, "alice's leave folded her: bob won the hand"
    await converged(harness, game)
    assert "Mano in corso" not in game.message.text()
    # No turn call for the hand that is over, past the table's 15 seconds.
    game.clock.advance(20)
    await asyncio.sleep(0.2)
    await harness.settle()
    assert not [m.content for m in harness.fake.store.values() if "tocca a te (mano n." in m.content]


async def test_the_last_hands_message_ends_on_its_result_even_if_its_last_edit_failed(harness: Any) -> None:
    harness.bot.sessions.retry_first = 1.0  # the next hand is dealt before the renderer tries again
    game, alice, bob = await heads_up(harness)
    first = game.message
    await game.say(bob, "passo")
    harness.fake.fail_next(429, times=5, method="PATCH", route=EDIT, retry_after=0.01)
    await game.say(alice, "passo")  # nobody opens: the hand ends, and its edit is refused
    assert not game.table.hand_running
    assert "Tocca a" in first.text(), "the channel still shows the turn"
    await game.start(alice, HEADS_UP)
    await harness.fake.wait_for(lambda: game.session.up_to_date, "the renderer to finish", timeout=20)
    await harness.settle()
    assert game.live.message_id != first.id and not first.components
    text = first.text()
    assert "Mano in corso" not in text and "Tocca a" not in text, text
    assert f"<@{alice.id}> passa." in first.content, "the hand's last line is on its message"
    game.finish()


async def test_a_deferred_deal_whose_channel_post_failed_is_still_answered(harness: Any) -> None:
    harness.bot.sessions.retry_first = 0.02
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    harness.bot.tables.queue_deck(harness.channel("poker").id, HEADS_UP)
    harness.fake.fail_next("drop", method="POST", route=POST)
    early, started = await acknowledged_while_busy(
        harness, game, lambda: harness.slash(alice, "tavolo inizia")
    )
    assert early == 5, "deferred while the table was busy"
    await harness.fake.wait_for(lambda: game.live.message_id is not None, "the renderer to post the hand")
    await harness.settle()
    assert game.table.hand_running
    assert started.record.followup_ids or started.record.edited_ids, "the deferred command was answered"
    game.finish()


async def test_a_hand_whose_answer_failed_and_that_ended_before_its_post_still_gets_its_message(
    harness: Any,
) -> None:
    # The dealer's answer is dropped, so the renderer must post the hand through the channel; the
    # channel is rate limited past discord.py's retries meanwhile, and the hand ends by slash commands
    # before the renderer's next try. The channel still gets the hand's message, on its result.
    harness.bot.sessions.retry_first = 1.0
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    harness.fake.fail_next("drop", method="POST", route=CALLBACK)
    harness.fake.fail_next(429, times=5, method="POST", route=POST, channel="poker", retry_after=0.01)
    await game.start(alice, HEADS_UP, private=DISCORD_FAILED)  # sent to the table message
    assert game.table.hand_running and game.live.message_id is None, "no message for the hand yet"
    await game.say(bob, "passo")
    await game.say(alice, "passo")  # nobody opens: the hand ends
    assert not game.table.hand_running
    await harness.fake.wait_for(lambda: game.session.up_to_date, "the renderer to finish", timeout=20)
    assert game.live.message_id is not None, "the hand that is over got its message"
    await converged(harness, game)
    text = game.message.text()
    assert "Tocca a" not in text and f"<@{alice.id}> passa." in game.message.content, text
    assert any(c.get("label") == "Prossima mano" for c in game.message.components)
    game.finish()


async def test_cards_dealt_by_an_action_whose_answer_failed_still_reach_the_players(harness: Any) -> None:
    # Italiana, four players, alice deals: bob is asked the buio first, and no card is dealt before
    # he answers. His pass deals every hand; its answer is dropped, the pass stands, the cards go.
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol, dave], cip=10)
    hands = ["7s 8d 9c Qs Ad", "Jh Js 7d 8c Kc", "Th Td Tc 7h 9s", "8h 8s Qc Ks Ac"]
    await game.start(alice, stacked(hands, "Qh Kd 9d Jd 7c As Qd Kh"))
    assert game.table.to_act == bob.id and harness.dms(bob) == [], "the buio question comes first"
    harness.fake.fail_next("drop", method="POST", route=CALLBACK)
    reply = await game.say(bob, "passo")
    assert reply.ephemeral and reply.content == DISCORD_FAILED
    assert game.table.cards_of(carol.id), "the pass was played: the cards are dealt"
    await converged(harness, game)
    for user in (alice, bob, carol, dave):
        assert any("Le tue carte" in m.content for m in harness.dms(user)), user.name
    game.finish()
