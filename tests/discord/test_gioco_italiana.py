"""A whole poker tradizionale hand through the fake Discord (rules §2), then the hands that carry a pot."""

from __future__ import annotations

from typing import Any

from engine.cards import Card, parse_card
from tests.discord.gioco_support import Game, balances, everyone_parol, seats, stacked

START = 1000

# Deal order with alice dealing: bob, carol, dave, alice. Four players: 32 cards, 7 to A.
BOB = "7s 8d 9c Qs Ad"  # nothing: draws four, keeps the ace
CAROL = "Jh Js 7d 8c Kc"  # the jacks: opens, draws three
DAVE = "Th Td Tc 7h 9s"  # three tens: raises, draws one
ALICE = "8h 8s Qc Ks Ac"  # a small pair: stands pat, folds to the bet
# The draw: bob 3, carol 3, dave 1, then bob's fourth card.
STOCK = "Qh Kd 9d Jd 7c As Qd Kh"


def card(text: str) -> Card:
    return parse_card(text)


async def test_a_full_italiana_hand_with_four_players(harness: Any) -> None:
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol, dave], cip=10)
    start = await game.start(alice, stacked([BOB, CAROL, DAVE, ALICE], STOCK))
    assert "mette invito: 10 fiches" in start.content
    assert game.table.to_act == bob.id, "the buio is offered first to the player left of the dealer"
    assert harness.dms(bob) == [], "no card is dealt before the buio question is answered"
    # The buttons follow the engine: the buio (2 × the pot) or passo.
    labels = [c.get("label") for c in game.message.components]
    assert "Buio 20 fiches" in labels and "Passo" in labels

    await game.say(bob, "passo")
    # Everyone has his five cards by DM, with the suits and the hand category.
    for user, hand, category in ((bob, BOB, "carta alta"), (carol, CAROL, "coppia"), (dave, DAVE, "tris")):
        dm = harness.dms(user)[-1].content
        assert category in dm, dm
        for text in hand.split():
            assert str(card(text)) in dm
    # Bob cannot open without a pair of jacks or better: refused privately, nothing changes.
    before = game.live.view()
    refused = await game.say(bob, "apro")
    assert refused.ephemeral and "Non puoi aprire" in refused.content
    assert game.live.view() == before
    await game.say(bob, "passo")
    opened = await game.say(carol, "apro", importo="cip")
    assert not opened.ephemeral and "apre 10 fiches" in opened.content
    # Dave raises through the button: a modal with the legal range in its label.
    modal = await harness.click(dave, game.message, label="Rilancio…")
    assert modal.modal is not None
    field = modal.modal["components"][0]["components"][0]
    assert field["label"] == "Sopra la chiamata: 10–30 fiches", field
    await game.submit(dave, modal, {"importo": "20"})
    assert "rilancia 20 fiches" in game.message.content
    await game.click(alice, "Vedo 30 fiches")
    await game.say(bob, "vedo")
    await game.say(carol, "vedo")
    assert game.live.view().street.value == "cambio"

    # The draw: bob four cards by card, carol three by position, dave one through his private menu.
    await game.say(bob, "cambio", carte="7♠ 8♦ 9♣ Q♠")
    await game.say(carol, "cambio", carte="1 4 5")  # K♣ 8♣ 7♦ in the order she sees them
    menu = await harness.click(dave, game.message, label="Cambio…")
    assert menu.ephemeral and menu.component(custom_id=game.menu_id)["max_values"] == 4
    await game.select(dave, menu, game.menu_id, [str(card("7h").code)])
    calls = len(harness.rest_calls)
    await game.click(alice, "Servito")
    # A click answers by editing the table message (one call); the draw adds one DM per drawer.
    assert harness.rest_calls[calls] == ("POST", "/interactions/{webhook_id}/{webhook_token}/callback")
    assert len(harness.rest_calls) - calls == 1 + 3, harness.rest_calls[calls:]
    # The new cards are dealt once everyone has spoken (rules §2.6), each by DM.
    assert "Dopo il cambio" in harness.dms(bob)[-1].content and "K♥ K♦" in harness.dms(bob)[-1].content
    assert "(coppia)" in harness.dms(bob)[-1].content
    assert "J♥ J♦ J♠" in harness.dms(carol)[-1].content and "(tris)" in harness.dms(carol)[-1].content
    assert "Dopo il cambio" not in harness.dms(alice)[-1].content, "who stands pat gets no new DM"
    text = game.message.text()
    assert (
        "ha cambiato 4" in text and "ha cambiato 3" in text and "ha cambiato 1" in text and "servito" in text
    )

    # After the draw the opener speaks first: a bet, a call, two folds, showdown.
    assert game.table.to_act == carol.id
    await game.say(carol, "punto", importo="20")
    calls = len(harness.rest_calls)
    await game.say(dave, "vedo")
    # A typed word: the public answer, then one edit of the table message through the channel.
    assert harness.rest_calls[calls:] == [
        ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ]
    await game.say(alice, "passo")
    end = await game.say(bob, "passo")
    assert f"<@{carol.id}> mostra " in end.content and ": tris." in end.content
    result = game.message.text()
    assert "tris" in result and f"<@{carol.id}> vince il piatto: 170 fiches" in result
    assert f"<@{dave.id}> non mostra le carte" in result, (
        "a hand that does not beat the best shown stays hidden"
    )
    assert "Carte di apertura" in result and "J♥" in result
    assert game.message.component(label="Prossima mano")

    table_id = {bob.id: 270, carol.id: 420, dave.id: 250, alice.id: 260}
    assert await seats(harness) == table_id
    assert await balances(harness, alice, bob, carol, dave) == dict.fromkeys(
        ("alice", "bob", "carol", "dave"), START - 300
    )
    assert await harness.bot.storage.check() == []
    game.finish()


# Deal order bob, carol, dave, alice (alice deals first); nobody can open at any level.
JUNK = stacked(["7s 8d 9c Qs Ad", "7d 8c 9h Jd Kc", "7h 8h 9s Js Ac", "7c 8s 9d Qh Kd"])


async def pot_in_ledger(harness: Any) -> int:
    return int((await harness.bot.storage.open_tables())[0].pot)


async def test_nobody_opens_twice_the_level_rises_and_the_pot_is_carried(harness: Any) -> None:
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol, dave])
    await game.start(alice, JUNK)
    await game.say(bob, "passo")  # no buio
    for user in (bob, carol, dave):
        await game.say(user, "passo")
    end = await game.say(alice, "passo")
    assert "Nessuno apre: il piatto di 10 fiches resta" in end.content and "coppia di donne" in end.content
    assert "Piatto rimasto dalla mano precedente: 10 fiches" in game.message.text()
    assert await pot_in_ledger(harness) == 10

    # Second hand: bob deals and posts the invito; at the donne level there is no buio.
    await game.start(bob, stacked(["7d 8c 9h Jd Kc", "7h 8h 9s Js Ac", "7c 8s 9d Qh Kd", "7s 8d 9c Qs Ad"]))
    assert "si apre con coppia di donne" in game.message.content
    assert "nel piatto 10 fiches dalla mano prima" in game.message.content
    assert game.live.view().street.value == "apertura"
    for user in (carol, dave, alice):
        await game.say(user, "passo")
    end = await game.say(bob, "passo")
    assert "Nessuno apre: il piatto di 20 fiches resta" in end.content and "coppia di re" in end.content
    assert await pot_in_ledger(harness) == 20

    # Third hand, at the re level: dave opens with his kings, everyone folds, the level goes back to jack.
    await game.start(carol, stacked(["Kh Ks 7c 8d 9s", "7s 8s 9c Jd Ah", "7d 8c 9h Qs Ad", "7h 8h 9d Qh Kc"]))
    await game.say(dave, "apro", importo="cip")
    for user in (alice, bob, carol):
        await game.say(user, "passo")
    result = game.message.text()
    assert f"<@{dave.id}> vince il piatto: 30 fiches" in result
    assert "Carte di apertura" in result and "K♥ K♠" in result
    assert "Prossima apertura: coppia di jack" in result
    assert await pot_in_ledger(harness) == 0
    assert sum((await seats(harness)).values()) == 1200
    assert await harness.bot.storage.check() == []
    game.finish()


async def test_buio_and_controbuio_before_the_deal(harness: Any) -> None:
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol, dave])
    await game.start(alice, JUNK)
    blind = await game.click(bob, "Buio 20 fiches")
    assert blind.callback_type == 7, "a click on the table message edits it"
    assert f"<@{bob.id}> apre al buio 20 fiches" in game.message.content
    assert all(harness.dms(u) == [] for u in (alice, bob, carol, dave)), "the buio comes before the deal"
    counter = await game.say(carol, "controbuio")
    assert f"<@{carol.id}> fa controbuio 40 fiches" in counter.content
    # The buiante may match the controbuio to keep his right to raise; then the cards are dealt.
    assert game.table.to_act == bob.id
    await game.say(bob, "vedo")
    assert all(len(harness.dms(u)) == 1 for u in (alice, bob, carol, dave))
    assert game.live.view().street.value == "primo giro"
    # After a blind opening the others may only call or fold.
    assert game.table.to_act == dave.id
    labels = {c.get("label") for c in game.message.components}
    assert {"Passo", "Vedo 40 fiches"} <= labels and "Rilancio…" not in labels
    await game.say(dave, "passo")
    await game.say(alice, "passo")
    # Bob matched the controbuio, so he keeps his right to raise (and nothing to fold to).
    refused = await game.say(bob, "passo")
    assert refused.ephemeral and refused.content.startswith("Adesso non puoi dire «passo»")
    await game.say(bob, "rilancio", importo="40")
    await game.say(carol, "passo")
    result = game.message.text()
    assert "40 fiches non chiamate tornano a" in result
    assert f"<@{bob.id}> vince il piatto: 90 fiches" in result
    assert sum((await seats(harness)).values()) == 1200
    assert await harness.bot.storage.check() == []
    game.finish()


async def test_all_parol_carries_the_pot_and_the_debt_is_paid_next_hand(harness: Any) -> None:
    alice, bob, carol = (harness.user(n) for n in ("alice", "bob", "carol"))
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    end = await everyone_parol(game, alice, bob, carol)
    assert "Tutti paròl: il piatto di 30 fiches passa alla mano successiva." in end.content
    assert "mostra" not in end.content.replace("non mostra", ""), "nobody is shown in a piatto di paròl"
    assert f"<@{alice.id}>: 290 fiches (mazziere, deve 10 fiches al piatto di paròl)" in game.message.text()
    assert await pot_in_ledger(harness) == 30

    # Next hand: no invito, no buio, level re; alice pays her debt to be dealt in.
    start = await game.start(bob, stacked(["8h 9h Jc Kd As", "8d 9c Td Jd Kh", "Qh Qs 8c 9d Ac"]))
    assert f"<@{alice.id}> mette debito paròl: 10 fiches" in start.content
    assert "mette invito" not in start.content
    assert "si apre con coppia di re" in start.content
    assert game.live.view().street.value == "apertura"
    for user in (carol, alice, bob):
        await game.say(user, "passo")
    assert await pot_in_ledger(harness) == 40
    assert sum((await seats(harness)).values()) + 40 == 900
    assert await harness.bot.storage.check() == []
    game.finish()


async def test_a_paid_parol_debt_is_not_shown_as_still_owed_during_the_hand(harness: Any) -> None:
    """Rules §2.7 / §6: the debt is taken at the start of the next hand. Once alice has paid it
    ("mette debito paròl: 10 fiches") the table message must not keep telling everyone, for the whole
    hand, that she still owes 10 fiches to the paròl pot (the view counts no debt while a hand runs)."""
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    await everyone_parol(game, alice, bob, carol)
    assert f"<@{alice.id}>: 290 fiches (mazziere, deve 10 fiches al piatto di paròl)" in game.message.text()

    start = await game.start(bob, stacked(["8h 9h Jc Kd As", "8d 9c Td Jd Kh", "Qh Qs 8c 9d Ac"]))
    assert f"<@{alice.id}> mette debito paròl: 10 fiches" in start.content
    seat = next(s for s in game.live.view().seats if s.player == alice.id)
    assert seat.stack == 280, "the debt has been taken from her stack"
    text = game.message.text()
    assert f"<@{alice.id}>: 280 fiches" in text
    assert "deve 10 fiches al piatto di paròl" not in text, text
    assert seat.debt == 0, "the engine's view still counts the debt she has just paid"
    game.finish()
