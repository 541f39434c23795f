"""Closed DMs, refusals, turn timers and a restart in the middle of a hand, through the fake Discord."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot import render
from bot.reading import not_a_number
from bot.session import NOT_SEATED, not_your_turn
from cogs import tavolo
from tests.discord.gioco_support import HEADS_UP, Game, acknowledged_while_busy, heads_up, seats, stacked

FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"  # an interaction's follow-up messages

# Deal order bob, carol, dave, alice (alice deals first); carol holds the jacks.
FOUR = stacked(["7s 8d 9c Qs Ad", "Jh Js 7d 8c Kc", "Th Td Tc 7h 9s", "8h 8s Qc Ks Ac"])


def state(game: Game) -> Any:
    """Everything a refusal must leave alone: the public table, the hand so far, every player's cards."""
    table = game.table
    cards = {seat.player: table.cards_of(seat.player) for seat in game.live.view().seats}
    return game.live.view(), len(table.hand_record()["ops"]), cards


async def test_a_player_with_closed_dms_plays_a_whole_hand_with_carte(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    harness.close_dms(bob)
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    # Two players: 24 cards, 9 to A. Deal order bob, alice; then bob's two new cards.
    await game.start(alice, stacked(["Jh Js 9c Td Ah", "9h 9d Qc Kd As"], "Qh Ks"))
    assert harness.dms(bob) == [] and len(harness.dms(alice)) == 1
    note = game.message.text()
    assert "Carte non consegnate in privato" in note and f"<@{bob.id}>" in note
    assert game.table.to_act == bob.id, "a closed DM does not stop the hand"
    mine = await harness.slash(bob, "carte")
    assert mine.ephemeral and "A♥ J♥ J♠ 10♦ 9♣" in mine.content and "(coppia)" in mine.content
    await game.say(bob, "apro", importo="piatto")  # the pot is the invito: 10
    await game.say(alice, "vedo")
    await game.say(bob, "cambio", carte="4 5")
    await game.say(alice, "servito")
    button = await harness.click(bob, game.message, label="Le mie carte")
    assert button.ephemeral and "A♥ K♠ Q♥ J♥ J♠" in button.content and "Posizioni" not in button.content
    await game.say(bob, "punto", importo="cip")
    await game.say(alice, "passo")
    assert f"<@{bob.id}> vince il piatto: 30 fiches" in game.message.text()
    assert harness.dms(bob) == []
    assert await seats(harness) == {alice.id: 280, bob.id: 320}
    game.finish()


async def test_refusals_are_private_and_change_nothing(harness: Any) -> None:
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    outsider = harness.user("eve")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol, dave])
    await game.start(alice, FOUR)
    await game.say(bob, "passo")  # no buio; bob is to open
    ledger = await seats(harness)

    async def refused(reply: Any, text: str) -> None:
        assert reply.ephemeral, reply.content
        assert text in reply.content, reply.content

    before = state(game)
    bobs_turn = not_your_turn(bob.id)  # names whose turn it is
    assert bobs_turn == f"Non è il tuo turno: tocca a <@{bob.id}>."
    out_of_turn = await game.say(carol, "vedo")
    await refused(out_of_turn, bobs_turn)
    assert out_of_turn.data["allowed_mentions"] == {"parse": []}, "bob is named, not pinged"
    await refused(await game.say(outsider, "passo"), NOT_SEATED)
    await refused(await game.click(carol, "Passo"), bobs_turn)
    await refused(await harness.click(carol, game.message, label="Apro…"), bobs_turn)
    await refused(await harness.click(outsider, game.message, label="Apro…"), NOT_SEATED)
    await refused(await game.say(bob, "apro"), "Non puoi aprire")
    await refused(await game.say(bob, "punto", importo="10"), "Adesso non puoi dire «punto»")
    assert state(game) == before
    await game.say(bob, "passo")
    # Amounts: out of the pot limit, below the cip, not a number.
    before = state(game)
    await refused(await game.say(carol, "apro", importo="50"), "al massimo puoi mettere 10 fiche")
    await refused(await game.say(carol, "apro", importo="boh"), not_a_number("boh"))
    modal = await harness.click(carol, game.message, label="Apro…")
    await refused(await game.submit(carol, modal, {"importo": "0"}), "Troppo poco")
    assert state(game) == before
    await game.say(carol, "apro", importo="10")
    for user in (dave, alice, bob):
        await game.say(user, "vedo")
    # The draw: at most four cards, only cards he holds, positions 1 to 5.
    before = state(game)
    await refused(await game.say(bob, "cambio", carte="1 2 3 4 5"), "al massimo 4 carte")
    await refused(await game.say(bob, "cambio", carte="6"), "Le posizioni vanno da 1 a 5")
    await refused(await game.say(bob, "cambio", carte="J♥"), "Non hai il J♥ in mano")
    await refused(await game.say(bob, "cambio", carte="Zz"), "Non riconosco la carta")
    await refused(await game.say(carol, "servito"), not_your_turn(bob.id))
    menu = await harness.click(bob, game.message, label="Cambio…")
    assert menu.component(custom_id=game.menu_id)["max_values"] == 4, "the menu cannot ask for more"
    assert state(game) == before
    assert await seats(harness) == ledger, "nothing reached the ledger"
    game.finish()


async def test_turn_timers_pass_for_the_player_and_sit_him_out_after_two(harness: Any) -> None:
    alice, bob, carol = (harness.user(n) for n in ("alice", "bob", "carol"))
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    # Three players: 28 cards, 8 to A. Deal order bob, carol, alice; alice holds the jacks.
    await game.start(alice, stacked(["8s 9d Tc Qs Ad", "8d 9c Th Kc Ac", "Jh Js 8c 9h Kd"]))
    deadline = int(game.clock.now()) + 60
    assert f"Tocca a <@{bob.id}>, scade <t:{deadline}:R>." in game.message.content
    await game.expire()  # bob is asked for the buio: the timeout declines it
    assert f"<@{bob.id}> non risponde in tempo: passa." in game.message.content
    assert len(harness.dms(bob)) == 1, "the cards were dealt after the buio question"
    await game.expire()  # bob passes the opening: his second timeout in a row
    assert f"<@{bob.id}> resta fuori dal gioco per i tempi scaduti." in game.message.content
    await game.expire()  # carol passes the opening
    await game.say(alice, "apro", importo="cip")
    # Bob sits out: the engine folds him at once; carol folds; alice wins.
    await game.say(carol, "passo")
    assert f"<@{alice.id}> vince il piatto" in game.message.text()
    assert "fuori dal gioco" in game.message.text()
    back = await game.click(bob, "Rientro")
    assert back.callback_type == 7 and f"<@{bob.id}> torna in gioco." in game.message.content
    already = await harness.slash(carol, "tavolo rientra")
    assert already.ephemeral and already.content == "Sei già in gioco."
    assert not any(seat.sitting_out for seat in game.live.view().seats)
    assert len(harness.bot.sessions.timers) == 0, "no timer between hands"
    # A come-back between hands is stored: a restart before the next deal keeps him in the game.
    await harness.restart()
    game.use_clock()
    assert not any(seat.sitting_out for seat in game.live.view().seats), "back in the game after a restart"
    assert await harness.bot.storage.check() == []
    game.finish()


async def test_a_rientro_that_waited_behind_his_own_leave_is_refused(harness: Any) -> None:
    """Rientro is judged again under the lock: a player who left the table meanwhile (his seat kept
    only until the hand ends) is not brought back into the game."""
    alice, bob, carol = (harness.user(n) for n in ("alice", "bob", "carol"))
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    await game.start(alice, stacked(["8s 9d Tc Qs Ad", "8d 9c Th Kc Ac", "Jh Js 8c 9h Kd"]))
    await game.expire()  # bob declines the buio
    await game.expire()  # bob passes the opening, his second timeout: he sits out
    assert any(seat.player == bob.id and seat.sitting_out for seat in game.live.view().seats)
    lock = harness.bot.tables.lock(harness.channel("poker").id)
    known = set(harness.fake.interactions)
    await lock.acquire()
    try:
        leave = asyncio.get_running_loop().create_task(harness.slash(bob, "tavolo alzati"))
        await harness.fake.wait_for(lambda: len(set(harness.fake.interactions) - known) == 1, "the leave")
        await harness.settle()
        back = asyncio.get_running_loop().create_task(harness.slash(bob, "tavolo rientra"))
        await harness.fake.wait_for(lambda: len(set(harness.fake.interactions) - known) == 2, "the Rientro")
        await harness.settle()
    finally:
        lock.release()
    left, refused = await leave, await back
    await answered(harness, refused)
    assert left.deferred and refused.deferred
    assert [m.content for m in refused.followups] == [NOT_SEATED]
    assert not any(seat.player == bob.id and not seat.sitting_out for seat in game.live.view().seats)
    game.finish()


async def test_a_restart_mid_hand_restores_the_stacks_and_the_table_plays_on(backend_harness: Any) -> None:
    harness = backend_harness
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol, dave])
    # A first hand to the end, so a table message with "Prossima mano" is left from before the restart.
    await game.start(alice, FOUR)
    await game.say(bob, "passo")
    await game.say(bob, "passo")
    await game.say(carol, "apro", importo="10")
    for user in (dave, alice, bob):
        await game.say(user, "passo")
    finished = game.message
    at_start = await seats(harness)
    assert at_start == {alice.id: 290, bob.id: 300, carol.id: 310, dave.id: 300}

    # A restart between hands: the buttons posted before it still work (stable custom ids), and the
    # second hand starts from the old message, which then loses them (one live table message).
    await harness.restart()
    game.use_clock()
    deck = stacked(["Jh Js 7d 8c Kc", "Th Td Tc 7h 9s", "8h 8s Qc Ks Ac", "7s 8d 9c Qs Ad"])
    await game.start(bob, deck, message=finished)
    assert "Prossima mano" not in {c.get("label") for c in finished.components}
    interrupted = game.message
    assert interrupted.id != finished.id

    # Second hand, stopped by shutting the bot down after some chips went in.
    await game.say(carol, "buio")
    assert game.table.hand_running
    await game.restart()
    assert await seats(harness) == at_start, "every stack is back to the start of the interrupted hand"
    assert await harness.bot.storage.check() == []
    assert not game.table.hand_running
    # Its message says so, and offers no word of the cancelled hand any more.
    labels = {c.get("label") for c in interrupted.components}
    assert labels <= {"Prossima mano", "Rientro"}, labels
    assert render.CANCELLED_BY_RESTART in interrupted.text()
    assert "Tocca a" not in interrupted.text()

    # The table plays on from that message.
    started = await game.start(bob, FOUR, message=interrupted)
    assert not started.ephemeral and started.message.id != interrupted.id, "each hand posts a new message"
    assert game.live.message_id == started.message.id
    # Hand 2 was cancelled and keeps its number (the ledger's history lists it): this is hand 3.
    assert game.table.hand_running and game.table.hand_number == 3
    assert "Mano n. 3" in started.message.text()
    assert len(harness.dms(bob)) >= 1
    assert game.table.to_act == carol.id, "the dealer moved on: bob deals, carol is asked for the buio"
    await game.say(carol, "passo")
    await game.say(carol, "apro", importo="cip")
    assert game.table.hand_running
    game.finish()


async def test_a_click_while_the_table_is_busy_is_acknowledged_at_once(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await game.start(alice, stacked(["Jh Js 9c Td Ah", "9h 9d Qc Kd As"]))
    lock = harness.bot.tables.lock(harness.channel("poker").id)
    await lock.acquire()  # another command of the table is running
    try:
        reply = await harness.click(bob, game.message, label="Passo")
        assert reply.deferred and reply.callback_type == 6, "acknowledged within Discord's window"
        assert game.table.to_act == bob.id
    finally:
        lock.release()
    await harness.fake.wait_for(lambda: game.table.to_act == alice.id, "the deferred click to be played")
    await harness.settle()
    assert f"<@{bob.id}> passa." in game.message.content, "the table message shows it once done"
    game.finish()


# Busy tables: every command is acknowledged within Discord's window, and nothing public comes first -


async def answered(harness: Any, reply: Any) -> None:
    """Wait until the bot, once the lock was free, answered a deferred interaction (settle() alone
    may return while the bot is still being woken by the lock)."""
    rec = reply.record
    await harness.fake.wait_for(lambda: rec.followup_ids or rec.edited_ids, "the deferred answer")
    await harness.settle()


async def test_a_slash_action_refused_while_the_table_is_busy_is_private_from_the_first_byte(
    harness: Any,
) -> None:
    game, alice, _bob = await heads_up(harness)
    before = state(game)
    early, reply = await acknowledged_while_busy(harness, game, lambda: harness.slash(alice, "vedo"))
    assert early == 4, "refused at once from the state now, without waiting for the table"
    assert reply.ephemeral and reply.content == not_your_turn(game.table.to_act)
    assert not any("Non è il tuo turno" in text for text in harness.public_texts())
    assert state(game) == before
    game.finish()


async def test_a_slash_action_refused_after_waiting_for_the_table_shows_nothing_public(harness: Any) -> None:
    game, _alice, bob = await heads_up(harness)
    public_before = len(harness.public_texts())
    # Two /passo of bob at once: the second is judged again after the first, and refused, privately.
    lock = harness.bot.tables.lock(harness.channel("poker").id)
    await lock.acquire()
    try:
        first = asyncio.ensure_future(harness.fake.slash(bob, "passo", settle=False))
        second = asyncio.ensure_future(harness.fake.slash(bob, "passo", settle=False))
        await harness.fake.wait_for(
            lambda: len([r for r in harness.fake.interactions.values() if r.callback_type == 5]) >= 2,
            "both commands to be acknowledged",
        )
    finally:
        lock.release()
    replies = [await first, await second]
    await harness.settle()
    for reply in replies:
        assert reply.callback_type == 5 and reply.data.get("flags", 0) & 64, "deferred privately"
        assert reply.ephemeral
    texts = sorted(r.content for r in replies)
    assert any("Non è il tuo turno" in t for t in texts), texts
    public = harness.public_texts()[public_before:]
    assert not any("Non è il tuo turno" in t or t == "…" for t in public), public
    assert sum(f"<@{bob.id}> passa." == t for t in public) == 1, "the accepted one is said in the channel"
    game.finish()


async def test_a_slash_action_while_the_table_is_busy_is_said_in_the_channel(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    early, reply = await acknowledged_while_busy(harness, game, lambda: harness.slash(bob, "passo"))
    await answered(harness, reply)
    assert early == 5 and reply.ephemeral, "acknowledged privately: the outcome was not known yet"
    assert game.table.to_act == alice.id
    assert any(m.content == f"<@{bob.id}> passa." for m in reply.posted), "the channel is told"
    assert f"<@{bob.id}> passa." in game.message.content, "the table message shows it too"
    game.finish()


async def test_le_mie_carte_while_the_table_is_busy_shows_the_cards_at_once(harness: Any) -> None:
    game, alice, _bob = await heads_up(harness)
    early, reply = await acknowledged_while_busy(
        harness, game, lambda: harness.click(alice, game.message, label="Le mie carte")
    )
    assert early == 4 and reply.ephemeral, "reading needs no lock"
    assert all(str(card) in reply.content for card in game.table.cards_of(alice.id))
    game.finish()


async def test_an_amount_modal_opened_while_the_table_is_busy_is_judged_when_submitted(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    early, modal = await acknowledged_while_busy(
        harness, game, lambda: harness.click(bob, game.message, label="Apro…")
    )
    assert early == 9
    opened = await game.submit(bob, modal, {"importo": "10"})
    assert not opened.ephemeral
    assert game.table.to_act == alice.id, "the opening was played under the lock, after the modal"
    game.finish()


async def test_tavolo_commands_while_the_table_is_busy_are_acknowledged_at_once(harness: Any) -> None:
    alice, bob, eve = harness.user("alice"), harness.user("bob"), harness.user("eve")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    shown = await acknowledged_while_busy(harness, game, lambda: harness.slash(bob, "tavolo stato"))
    assert shown[0] == 4 and not shown[1].ephemeral and shown[1].embeds, "reading needs no lock"
    rules = await acknowledged_while_busy(harness, game, lambda: harness.slash(bob, "tavolo regole"))
    assert rules[0] == 4 and rules[1].embeds
    refused = await acknowledged_while_busy(harness, game, lambda: harness.slash(eve, "tavolo chiudi"))
    assert refused[0] == 4 and refused[1].ephemeral, "refused at once, privately"
    assert refused[1].content == tavolo.CLOSE_REFUSED
    # /tavolo inizia deferred privately: the table message is posted through the channel.
    harness.bot.tables.queue_deck(harness.channel("poker").id, HEADS_UP)
    start = len(harness.public_texts())
    early, started = await acknowledged_while_busy(
        harness, game, lambda: harness.slash(alice, "tavolo inizia")
    )
    await answered(harness, started)
    assert early == 5 and started.ephemeral and game.table.hand_running
    game.track(start)
    (posted,) = [m for m in started.posted if m.id == game.live.message_id]
    assert "Le mie carte" in {c.get("label") for c in posted.components}
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    # "Prossima mano" pressed while busy: acknowledged, then the new hand's message is posted.
    previous = game.message
    harness.bot.tables.queue_deck(harness.channel("poker").id, HEADS_UP)
    start = len(harness.public_texts())
    early, _ = await acknowledged_while_busy(
        harness, game, lambda: harness.click(bob, previous, label="Prossima mano")
    )
    await harness.fake.wait_for(
        lambda: game.live.message_id != previous.id and not previous.components, "the new hand's message"
    )
    await harness.settle()
    assert early == 6 and game.table.hand_number == 2 and game.table.hand_running
    game.track(start)
    assert game.live.message_id != previous.id
    assert "Prossima mano" not in {c.get("label") for c in previous.components}
    game.finish()


async def test_a_failed_private_note_of_a_busy_table_leaves_its_public_answer_alone(
    harness: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A command deferred while the table was busy says its public part through the channel, then
    "done" privately: if only that note fails, the posted message stays the table message (no
    second one) and nothing is logged as an error."""
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    harness.bot.tables.queue_deck(harness.channel("poker").id, HEADS_UP)
    before = len(harness.messages("poker"))
    note = harness.fake.fail_next("drop", method="POST", route=FOLLOWUP)
    early, _ = await acknowledged_while_busy(harness, game, lambda: harness.slash(alice, "tavolo inizia"))
    await harness.fake.wait_for(lambda: note.hits, "the failed note")
    await harness.settle()
    assert early == 5
    dealt = [m for m in harness.messages("poker")[before:] if m.components]
    assert [m.id for m in dealt] == [game.live.message_id], "one table message, the one posted"
    before = len(harness.messages("poker"))
    note = harness.fake.fail_next("drop", method="POST", route=FOLLOWUP)
    early, _ = await acknowledged_while_busy(harness, game, lambda: harness.slash(bob, "passo"))
    await harness.fake.wait_for(lambda: note.hits, "the failed note")
    await harness.settle()
    assert early == 5
    said = [m.text() for m in harness.messages("poker")[before:]]
    assert any(f"<@{bob.id}>" in text for text in said), said
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_a_player_whose_balance_is_below_the_default_buy_in_is_told_he_brings_all_of_it(
    harness: Any,
) -> None:
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    await harness.slash(alice, "tavolo nuovo", channel="generale", variante="italiana")
    await harness.slash(bob, "tavolo siedi", channel="generale", buyin=400)
    await harness.slash(carol, "tavolo siedi", channel="generale", buyin=700)
    await harness.slash(alice, "tavolo nuovo", variante="italiana", cip=5)  # default buy-in: 500
    sat = await harness.slash(carol, "tavolo siedi")
    assert not sat.ephemeral
    assert f"<@{carol.id}> porta al tavolo tutto il suo saldo: 300 fiches." in sat.content, sat.content
    covered = await harness.slash(bob, "tavolo siedi")  # 600 chips cover the default
    assert not covered.ephemeral and "tutto il suo saldo" not in covered.content, covered.content
    assert f"<@{bob.id}> si siede con 500 fiches." in covered.content, covered.content
