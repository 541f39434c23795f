"""32 Card Draw with the Over (rules §3) and Texas Hold'em with an all-in and a side pot (rules §4, §5.3);
a 32carte table names its hands by the Italian ranking whatever its deck option says."""

from __future__ import annotations

from typing import Any

from engine.cards import parse_cards
from tests.discord.gioco_support import Game, seats, stacked


async def test_a_32carte_hand_with_the_over(harness: Any) -> None:
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    game = Game(harness)
    await game.open(alice, "32carte", [alice, bob, carol, dave], cip=10, over=True)
    # Deal order bob (small blind), carol (big blind), dave (Over), alice; then the draw stock.
    deck = stacked(["7s 8d 9c Qs Jd", "7d 8h 9h Js Kc", "Ah Ad 7c 8c Ks", "Kh Kd Qc Qd 9s"], "As")
    start = await game.start(alice, deck)
    for line in ("mette piccolo buio: 5 fiches", "mette grande buio: 10 fiches", "mette over: 20 fiches"):
        assert line in start.content
    assert game.table.to_act == alice.id, "the first round starts after the last blind, the Over"
    await game.say(alice, "vedo")
    await game.say(bob, "passo")
    await game.say(carol, "passo")
    await game.click(dave, "Paròl")  # the Over checks his option
    assert game.live.view().street.value == "cambio"
    await game.say(dave, "cambio", carte="7♣")
    await game.say(alice, "servito")
    assert "A♥ A♦ A♠ K♠ 8♣" in harness.dms(dave)[-1].content and "(tris)" in harness.dms(dave)[-1].content
    assert game.table.to_act == alice.id, "the second round starts after the last blind"
    await game.say(alice, "paròl")
    await game.say(dave, "punto", importo="20")
    end = await game.say(alice, "vedo")
    assert f"<@{dave.id}> mostra" in end.content and ": tris." in end.content
    assert f"<@{dave.id}> vince il piatto: 95 fiches" in end.content
    assert await seats(harness) == {alice.id: 260, bob.id: 295, carol.id: 290, dave.id: 355}
    assert await harness.bot.storage.check() == []
    game.finish()


async def test_a_texas_hand_with_an_all_in_and_a_side_pot(harness: Any) -> None:
    alice, bob, carol = (harness.user(n) for n in ("alice", "bob", "carol"))
    game = Game(harness)
    await game.open(alice, "texas", [], cip=10, limite="nolimit")
    for user, buyin in ((alice, 100), (bob, 300), (carol, 300)):
        await harness.slash(user, "tavolo siedi", buyin=buyin)
    # Deal order bob, carol, alice; then burn, flop, burn, turn, burn, river.
    deck = stacked(["Ah Kh", "Qs Qd", "7c 7d"], "2h 7h 2s 9c 3h 4d 3s Kc")
    await game.start(alice, deck)
    assert "A♥ K♥" in harness.dms(bob)[-1].content and "Posizioni" not in harness.dms(bob)[-1].content
    assert "(coppia)" in harness.dms(carol)[-1].content
    allin = await game.say(alice, "rilancio", importo="tutto")
    assert f"<@{alice.id}> rilancia 90 fiches (tutto dentro)" in allin.content
    await game.say(bob, "vedo")
    await game.say(carol, "vedo")
    assert "Carte in tavola: 7♥ 2♠ 9♣" in game.message.text()
    assert game.table.to_act == bob.id, "after the flop the first player left of the button speaks"
    await game.say(bob, "punto", importo="50")
    await game.say(carol, "vedo")
    assert "Piatti: 300 fiches, 100 fiches" in game.message.text()
    for _street in ("turn", "river"):
        await game.say(bob, "paròl")
        await game.say(carol, "paròl")
    result = game.message.text()
    assert f"<@{alice.id}> vince il piatto: 300 fiches" in result
    assert f"<@{bob.id}> vince il piatto laterale 1: 100 fiches" in result
    assert await seats(harness) == {alice.id: 300, bob.id: 250, carol.id: 150}
    assert await harness.bot.storage.check() == []
    game.finish()


async def test_a_32carte_table_opened_with_mazzo_americano_names_the_lowest_straight_a_scala(
    harness: Any,
) -> None:
    """/tavolo nuovo variante:32carte mazzo:americano is accepted (the option «mazzo» is for poker
    tradizionale, ignored by the 32carte engine, which always plays 32 cards and the Italian ranking,
    rules §3). The DM and /carte name the hand by that ranking too: A-7-8-9-10, the minima of a
    32-card deck (rules §1.1), is a scala, as at the showdown."""
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "32carte", [alice, bob], cip=10, mazzo="americano")
    minima = "As 7h 8d 9c Ts"
    await game.start(alice, stacked([minima, "Jh Js Qc Kd Ah"], "Qh Ks Kh Qd Jd Jc Kc Qs"))
    holder = next(u for u in (alice, bob) if set(game.table.cards_of(u.id)) == set(parse_cards(minima)))
    [dm] = harness.dms(holder)
    assert "(scala)" in dm.content, dm.content
    reply = await harness.slash(holder, "carte")
    assert "(scala)" in reply.content, reply.content
    game.finish()
