"""Closed DMs, refusals, turn timers and a restart in the middle of a hand, through the fake Discord."""

from __future__ import annotations

from typing import Any

from cogs.gioco import BAD_AMOUNT, NOT_YOUR_TURN
from tests.discord.test_gioco_support import Game, seats, stacked

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
    await refused(await game.say(carol, "vedo"), NOT_YOUR_TURN)
    await refused(await game.say(outsider, "passo"), "Non sei seduto")
    await refused(await game.click(carol, "Passo"), NOT_YOUR_TURN)
    await refused(await harness.click(carol, game.message, label="Apro…"), NOT_YOUR_TURN)
    await refused(await game.say(bob, "apro"), "Non puoi aprire")
    await refused(await game.say(bob, "punto", importo="10"), "Adesso non puoi dire «punto»")
    assert state(game) == before
    await game.say(bob, "passo")
    # Amounts: out of the pot limit, below the cip, not a number.
    before = state(game)
    await refused(await game.say(carol, "apro", importo="50"), "al massimo puoi mettere 10 fiche")
    await refused(await game.say(carol, "apro", importo="boh"), BAD_AMOUNT)
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
    await refused(await game.say(carol, "servito"), NOT_YOUR_TURN)
    menu = await harness.click(bob, game.message, label="Cambio…")
    assert menu.component(custom_id="tv:scarta")["max_values"] == 4, "the menu cannot ask for more"
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
    assert len(harness.bot.get_cog("Gioco").timers) == 0, "no timer between hands"
    game.finish()


async def test_a_restart_mid_hand_restores_the_stacks_and_the_table_plays_on(harness: Any) -> None:
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

    # Second hand, stopped by shutting the bot down after some chips went in.
    await game.start(bob, stacked(["Jh Js 7d 8c Kc", "Th Td Tc 7h 9s", "8h 8s Qc Ks Ac", "7s 8d 9c Qs Ad"]))
    interrupted = game.message
    await game.say(carol, "buio")
    assert game.table.hand_running
    await harness.restart()
    game.use_clock()
    assert await seats(harness) == at_start, "every stack is back to the start of the interrupted hand"
    assert await harness.bot.storage.check() == []
    assert not game.table.hand_running
    stale = await harness.click(dave, interrupted, label="Passo")
    assert stale.ephemeral and "Non c'è nessuna mano in corso" in stale.content

    # Buttons posted before the restart still work: the next hand starts from the old message.
    started = await game.start(bob, FOUR, message=finished)
    assert not started.ephemeral and started.message.id != finished.id, "each hand posts a new table message"
    assert game.live.message_id == started.message.id
    assert game.table.hand_running and game.table.hand_number == 2
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
