"""The channel shows the truth when Discord is slow or failing and the game moves on meanwhile: a turn
call's deletion is retried, a closing ends the last message on its result, a slow re-post does not
take the next hand's place, a slow showdown picture still reaches its hand's message, and an open
amount modal still acts after the table message was posted again or another player left."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.session import MOVED_ON, STALE
from engine.cards import parse_cards
from fakediscord.runner import ErrorWatch
from tests.discord.gioco_support import (
    HEADS_UP,
    HEADS_UP_TEXAS,
    THREE,
    Game,
    fails_once,
    heads_up,
    texas_heads_up,
    total,
)
from tests.discord.test_table_truth import EDIT, fast_retries
from tests.discord.test_torneo_between_hands import heads_up as tournament_heads_up
from tests.discord.test_turn_calls import called
from tests.discord.torneo_support import Torneo, accepted

DELETE = ("DELETE", "/channels/{channel_id}/messages/{message_id}")


async def hand_over_while_edits_fail(harness: Any) -> tuple[Game, Any, Any]:
    """Heads-up poker tradizionale whose first hand ends (nobody opens) while Discord fails every
    edit of the channel for a long while: the game, its creator and hand 1's message, which still
    shows Bob to act (the renderer waits a minute before trying again)."""
    game, alice, bob = await heads_up(harness)
    first = game.message
    harness.bot.sessions.retry_first = 60.0
    harness.fake.fail_next(503, times=1000, method=EDIT[0], route=EDIT[1])
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    assert not game.table.hand_running
    return game, alice, first


async def test_a_turn_call_whose_delete_fails_is_deleted_on_a_retry(harness: Any) -> None:
    """A 503 on the DELETE of a turn call (discord.py does not retry a 503): tried again with the
    renderer's backoff, so the call does not stay pinging a player whose turn has passed."""
    fast_retries(harness)
    game, first, second = await texas_heads_up(harness, "0")
    call = await called(harness, first)
    harness.fake.fail_next(503, times=1, method="DELETE", route=DELETE[1])
    await game.say(first, "vedo")
    await harness.fake.wait_for(lambda: call.deleted, "the call to be deleted on a retry")
    await harness.settle()
    assert game.table.to_act == second.id
    deletes = [status for method, path, status in harness.fake.rest_log if method == "DELETE"]
    assert deletes == [503, 204], deletes
    game.finish()


async def test_closing_while_an_edit_is_retried_ends_the_last_message_on_its_result(
    harness: Any,
) -> None:
    """The hand ends while Discord answers the renderer's edits with 503; the creator closes the
    table at once. The edit that takes the buttons off carries the hand's last state: the closed
    table's message shows its end, not a turn and a countdown."""
    game, alice, bob = await heads_up(harness)
    message = game.message
    assert f"Tocca a <@{bob.id}>" in message.content
    harness.fake.fail_next(503, times=2, method="PATCH", route=EDIT[1])
    await game.say(bob, "passo")
    await game.say(alice, "passo")  # nobody opens: the hand is over
    assert not game.table.hand_running
    closed = await harness.slash(alice, "tavolo chiudi")
    assert not closed.ephemeral, closed.content
    await asyncio.sleep(2.0)  # the retries (0.5 s, then 1 s) are over
    await harness.settle()
    assert not message.components, "the closed table's message lost its buttons"
    assert f"<@{alice.id}> passa" in message.text(), f"the last action is missing:\n{message.text()}"
    assert f"Tocca a <@{bob.id}>" not in message.content, f"a finished hand shown running:\n{message.content}"
    game.finish()


POST = ("POST", "/channels/{channel_id}/messages")


async def test_a_repost_that_lands_after_the_next_deal_does_not_take_its_place(
    harness: Any,
) -> None:
    """The finished hand's message was deleted; a change makes the renderer post it again, slowly
    (429s on the channel). Meanwhile the next hand is dealt and its message posted as the dealer's
    answer. The slow repost, landing after, shows the older hand: it loses its buttons and the
    dealer's answer stays the table message."""
    game, alice, bob = await heads_up(harness)
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    assert not game.table.hand_running
    await harness.settle()
    first = game.message
    harness.fake.fail_next(429, times=2, method="POST", route=POST[1], channel="poker", retry_after=1.0)
    await harness.fake.delete_message(first)
    carol = harness.user("carol")
    sat = await harness.slash(carol, "tavolo siedi", buyin=200)  # a change: the renderer reposts
    assert not sat.ephemeral, sat.content
    dealt = await game.start(alice)  # while the repost waits out the 429s
    hand = game.table.hand_number
    assert dealt.record.original_id is not None
    await asyncio.sleep(2.5)  # the repost has landed
    await harness.fake.wait_for(lambda: game.session.up_to_date, "the renderer to be done", timeout=20)
    await harness.settle()
    with_buttons = [
        m.id for m in harness.messages("poker") if any(c.get("label") == "Passo" for c in m.components)
    ]
    shown = game.message.content.splitlines()[0]
    assert shown.startswith(f"**Mano n. {hand}**"), (
        f"the renderer is done, yet the table message {game.live.message_id} shows {shown!r}; "
        f"the dealer's answer is {dealt.record.original_id}; messages offering Passo: {with_buttons}"
    )
    game.finish()


async def test_a_slow_showdown_picture_still_reaches_its_hands_message(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The showdown picture is drawn in a thread after the hand. A deal that comes while it is still
    being drawn (a busy machine, the thread pool taken by the computers' decisions) waits for it
    (bounded), so the finished hand's message ends on the showdown, not on the river board."""
    import threading
    import time

    from bot import card_pictures
    from bot.card_pictures import SHOWDOWN_FILE
    from bot.pictures import showdown_png
    from tests.discord.test_pictures_in_play import checked_down_to_the_showdown

    drawing = threading.Event()

    def slow(*args: Any) -> bytes:
        drawing.set()
        time.sleep(0.5)  # a loaded machine: still within what a deal waits for it
        return showdown_png(*args)

    monkeypatch.setattr(card_pictures, "showdown_png", slow)
    game, _users = await checked_down_to_the_showdown(harness)
    last = game.message
    await harness.fake.wait_for(drawing.is_set, "the drawing to start")
    alice = harness.user("alice")
    await game.start(alice, HEADS_UP_TEXAS)
    await asyncio.sleep(0.5)
    await harness.settle()
    assert last.id != game.message.id
    assert not last.components
    files = [a.filename for a in last.attachments]
    assert SHOWDOWN_FILE in files, f"the finished hand's message holds {files}, not its showdown picture"
    game.finish()


async def test_a_showdown_picture_that_fails_while_a_deal_waits_for_it_does_not_refuse_the_deal(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The picture is a nicety: one that fails while a deal waits for it costs the picture (logged
    where it failed), never the next hand."""
    import threading
    import time

    from bot import card_pictures
    from fakediscord import ErrorWatch
    from tests.discord.test_pictures_in_play import checked_down_to_the_showdown

    drawing = threading.Event()

    def broken(*args: Any) -> bytes:
        drawing.set()
        time.sleep(0.3)  # still drawing when the next deal comes
        raise RuntimeError("the picture could not be drawn")

    monkeypatch.setattr(card_pictures, "showdown_png", broken)
    game, _users = await checked_down_to_the_showdown(harness)
    await harness.fake.wait_for(drawing.is_set, "the drawing to start")
    alice = harness.user("alice")
    watch = ErrorWatch.on(harness.fake)
    with watch.expecting() as logged:
        harness.bot.tables.queue_deck(harness.channel("poker").id, HEADS_UP_TEXAS)
        reply = await harness.slash(alice, "tavolo inizia")
        await harness.fake.wait_for(
            lambda: any("showdown picture" in r.getMessage() for r in watch.records), "the drawing to fail"
        )
        await harness.settle()
    errors = [r.getMessage() for r in logged]
    assert not reply.ephemeral, f"the deal was refused: {reply.content!r}; errors logged: {errors}"
    assert game.table.hand_running
    assert errors == ["A showdown picture could not be drawn"], errors


async def test_an_amount_modal_of_this_turn_acts_after_the_table_message_was_posted_again(
    harness: Any,
) -> None:
    """Bob opens "Apro…"; a moderator deletes the table message meanwhile and the bot posts it again
    (at the next change: eve sits down). His modal is of this hand and this very turn: it acts, and he
    reads what he did privately (the message he clicked is gone)."""
    game, alice, bob = await heads_up(harness)
    held = await total(harness, alice, bob)
    modal = await harness.click(bob, game.message, label="Apro…")
    old = game.message
    await harness.fake.delete_message(old)
    sat = await harness.slash(harness.user("eve"), "tavolo siedi", buyin=300)
    assert not sat.ephemeral, sat.content
    await harness.settle()
    assert game.live.message_id != old.id, "the table message was posted again"
    assert game.table.hand_running and game.table.to_act == bob.id
    reply = await game.submit(bob, modal, {"importo": "10"})
    assert reply.ephemeral and reply.content != STALE, reply.content
    assert game.table.to_act == alice.id, "bob's opening was refused"
    assert await total(harness, alice, bob) == held
    game.finish()


async def test_an_open_amount_modal_survives_another_player_leaving_out_of_turn(harness: Any) -> None:
    """Three at the table; the player with the jacks, to act, opens "Apro…"; meanwhile a player who
    already passed stands up (/tavolo alzati: his fold out of turn). Nothing in front of the opener
    changed, so his modal still acts: it is not refused as if the game had moved on."""
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    await game.start(alice, THREE)
    users = {u.id: u for u in (alice, bob, carol)}
    while not game.session._hands:  # the buio question comes before the cards: nobody plays blind
        assert accepted(await game.say(users[game.table.to_act], "passo"))
    jacks = set(parse_cards("Jh Js"))
    carol = users[next(p for p, cards in game.session._hands.items() if jacks <= set(cards))]
    passed = []
    while game.table.to_act != carol.id:
        passed.append(users[game.table.to_act])
        assert accepted(await game.say(passed[-1], "passo"))
    legal = [(la.kind, la.min, la.max) for la in game.table.legal_actions()]
    modal = await harness.click(carol, game.message, label="Apro…")
    left = await harness.slash(passed[0], "tavolo alzati")
    assert not left.ephemeral, left.content
    assert game.table.hand_running and game.table.to_act == carol.id
    assert [(la.kind, la.min, la.max) for la in game.table.legal_actions()] == legal
    reply = await game.submit(carol, modal, {"importo": "10"})
    assert reply.content != MOVED_ON, "refused as if the game had moved on"
    assert game.table.to_act != carol.id, reply.content
    game.finish()


async def test_an_older_message_discord_failed_to_end_is_ended_after_a_restart(harness: Any) -> None:
    """Discord fails every edit for a while: hand 1's message still shows Bob to act, with his buttons
    and countdown, when hand 1 ends and hand 2 is dealt on a new message. The bot keeps hand 1's last
    state for the edit that ends it, and notes the message in the storage: a restart before Discord
    answers again still ends it (no buttons, no turn: the hand is over), and forgets the note."""
    game, alice, first = await hand_over_while_edits_fail(harness)
    await game.start(alice, HEADS_UP)
    assert game.live.message_id != first.id
    await harness.fake.wait_for(
        lambda: harness.bot.storage is not None and first.id in game.session._noted, "the note"
    )
    assert {"Passo", "Apro…"} <= {c.get("label") for c in first.components}, "Discord still shows it"
    await harness.settle()
    assert [m for _, m, _ in await harness.bot.storage.stale_messages_left()] == [first.id]
    await game.restart()
    harness.fake.limiter.faults.clear()
    await harness.fake.wait_for(lambda: not first.components, "hand 1's message to lose its buttons")
    assert "Tocca a" not in first.text(), first.text()
    assert "Mano n. 1" in first.text() and "finita" in first.text(), first.text()
    await harness.settle()
    assert await harness.bot.storage.stale_messages_left() == []
    assert game.live.message_id != first.id  # hand 2 (cancelled by the restart) keeps its own message
    game.finish()


async def test_the_last_message_of_a_table_closed_while_discord_failed_is_ended_after_a_restart(
    harness: Any,
) -> None:
    """The same, when the table is closed after its hand while Discord fails every edit: after the
    restart there is no table in the channel any more, and its last message still loses its turn and
    buttons."""
    game, alice, bob = await heads_up(harness)
    first, session, channel_id = game.message, game.session, game.live.channel_id
    harness.bot.sessions.retry_first = 60.0
    harness.fake.fail_next(503, times=1000, method=EDIT[0], route=EDIT[1])
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    closed = await harness.slash(alice, "tavolo chiudi")
    assert not closed.ephemeral, closed.content
    await harness.fake.wait_for(lambda: first.id in session._noted, "the note")
    await harness.settle()
    assert {"Passo", "Apro…"} <= {c.get("label") for c in first.components}, "Discord still shows it"
    await game.restart()
    assert harness.bot.tables.get(channel_id) is None
    harness.fake.limiter.faults.clear()
    await harness.fake.wait_for(lambda: not first.components, "the last message to lose its buttons")
    assert "Tocca a" not in first.text() and "Mano n. 1" in first.text(), first.text()
    await harness.settle()
    assert await harness.bot.storage.stale_messages_left() == []


async def test_a_note_taken_for_a_message_that_stays_the_table_message_does_not_outlive_it(
    harness: Any, monkeypatch: Any
) -> None:
    """Discord fails every edit: hand 1 ends while its message still shows Bob to act. /tavolo inizia
    seals that message (noted in the storage, hand 1 still running on it), then the database refuses
    the deal: no hand 2, the message stays the table message. The bot restarts (the start shows the
    table on it again), Discord answers again, hand 2 is dealt on a new message and hand
    1's message is retired with its result. The note is gone by then, so the next restart leaves hand
    1's message, result and published reveal included, as it is."""
    game, alice, first = await hand_over_while_edits_fail(harness)
    calls = fails_once(monkeypatch, harness.bot.storage, "begin_hand")
    with ErrorWatch.on(harness.fake).expecting():  # a database failure: the operator's to see
        refused = await harness.slash(alice, "tavolo inizia", channel=game.channel)
    assert refused.ephemeral and calls, refused.content
    assert game.live.message_id == first.id
    await harness.settle()
    assert [m for _, m, _ in await harness.bot.storage.stale_messages_left()] == [first.id]
    await game.restart()
    harness.fake.limiter.faults.clear()
    await harness.settle()
    assert game.live.message_id == first.id
    await game.start(alice, HEADS_UP)
    await harness.settle()
    assert game.live.message_id != first.id
    await harness.fake.wait_for(lambda: not first.components, "hand 1's message to lose its buttons")
    ended = first.text()
    assert "Questa mano è finita" not in ended
    await harness.settle()
    left = [m for _, m, _ in await harness.bot.storage.stale_messages_left()]
    assert left == [], "a note outlived the message it was taken for"
    await game.restart()
    await harness.settle()
    assert first.text() == ended, f"hand 1's message was rewritten after a restart: {first.text()!r}"
    game.finish()


async def test_a_table_message_discord_did_not_take_the_hands_end_on_shows_it_after_a_restart(
    harness: Any,
) -> None:
    """Discord fails every edit while hand 1 ends (nobody opens): the table message still shows Bob
    to act, his countdown and the Passo / Apro… buttons. The bot restarts (an operator's restart
    during the outage) and Discord answers again. The table message converges to the table: no
    turn, no buttons of hand 1 (its failed edit noted it, and the start shows it again)."""
    game, _, first = await hand_over_while_edits_fail(harness)
    assert {"Passo", "Apro…"} <= {c.get("label") for c in first.components}, "Discord still shows it"
    await game.restart()
    harness.fake.limiter.faults.clear()
    await harness.settle()
    await game.session.flush(5.0)
    assert game.live.message_id == first.id
    labels = {c.get("label") for c in first.components}
    assert "Tocca a" not in first.text() and not {"Passo", "Apro…"} & labels, (first.text(), labels)
    game.finish()


async def test_a_tournament_table_message_discord_did_not_take_the_hands_end_on_shows_it_after_a_restart(
    harness_factory: Any,
) -> None:
    """The tournament twin of the cash table's test in test_table_truth_races.py (a table message
    Discord did not take the hand's end on shows it after a restart). Discord fails every edit while
    a tournament's hand ends (the next deal is minutes away): the table message still shows the
    player to act and his buttons, and the failed edit noted it (migration 0013). The bot restarts,
    Discord answers again: the table message converges to the table (no turn of a hand long over),
    as it does at a cash table: the start reads the notes once the tournaments have put their
    tables back, so the tournament's own message is not taken for a closed table's."""
    h = await harness_factory(tournament_pause=600)
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await tournament_heads_up(h, game, alice, bob, fiches=1000)
    await h.fake.wait_for(lambda: game.live.table.hand_running, "hand 1")
    await h.settle()
    live = game.live
    message = h.fake.store[live.message_id]
    assert "Tocca a" in message.text(), message.text()
    h.bot.sessions.retry_first = 60.0
    h.fake.fail_next(503, times=1000, method=EDIT[0], route=EDIT[1])
    to_act = game.users[live.table.to_act]
    folded = await h.slash(to_act, "passo", channel=game.channel)
    assert not folded.ephemeral, folded.content
    assert not live.table.hand_running
    await h.settle()
    noted = await h.bot.storage.stale_messages_left()
    assert [m for _, m, _ in noted] == [message.id], noted
    assert "Tocca a" in message.text(), "Discord still shows the turn"
    await h.restart()
    await h.settle()
    h.fake.limiter.faults.clear()
    await h.settle()
    session = h.bot.sessions.of(game.live)
    await session.flush(5.0)
    await h.settle()
    assert game.live.message_id == message.id
    for _ in range(200):  # the start's fixes go with the renderer's backoff: a few seconds at most
        if not await h.bot.storage.stale_messages_left() and h.bot.sessions.of(game.live).up_to_date:
            break
        await asyncio.sleep(0.05)
    await h.settle()
    assert "Tocca a" not in message.text(), (
        f"the tournament table message still shows a turn of hand 1, long over: {message.text()!r}"
    )
