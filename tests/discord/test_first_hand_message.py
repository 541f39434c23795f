"""The first hand of a table has one table message: the answer of whoever dealt it.

Before the first hand a table has no table message. Dealing wakes the renderer while the dealer's
answer is still on its way to Discord; the renderer must leave that hand's message to the dealer, or
the channel gets a second table message for the same hand and the answer everybody sees (and clicks)
is never edited again.
"""

from __future__ import annotations

from typing import Any

from tests.discord.gioco_support import HEADS_UP, Game
from tests.discord.test_table_truth import converged


def table_messages(harness: Any) -> list[Any]:
    """The public messages of the channel that carry the game's buttons."""
    return [m for m in harness.messages("poker") if any(c.get("custom_id") for c in m.components)]


async def test_the_first_hands_answer_is_the_only_table_message_and_follows_the_hand(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    reply = await game.start(alice, HEADS_UP)
    await harness.settle()
    assert reply.message is not None and game.live.message_id == reply.message.id, "the answer is the table"
    assert [m.id for m in table_messages(harness)] == [reply.message.id]
    await game.say(bob, "passo")  # a slash command: the renderer edits the table message
    await converged(harness, game)
    assert f"<@{bob.id}> passa." in reply.message.content, "the answer everybody sees shows the pass"
    assert [m.id for m in table_messages(harness)] == [reply.message.id]
    game.finish()


async def test_a_click_on_the_first_hands_answer_is_accepted(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    reply = await game.start(alice, HEADS_UP)
    assert reply.message is not None
    clicked = await game.click(bob, "Passo", message=reply.message)
    assert not clicked.ephemeral, clicked.content
    await converged(harness, game)
    assert f"<@{bob.id}> passa." in reply.message.content
    game.finish()
