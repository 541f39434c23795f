"""/carte and «Le mie carte», the private answers a player reads his cards from at any time: before the
buio is settled (no cards yet), between his own «cambio» and the last player's (the draw is dealt
once everyone has chosen), and with the deck's impronta for a player whose DMs are closed."""

from __future__ import annotations

from typing import Any

from tests.discord.gioco_support import THREE, Game, bob_declares_three


async def test_le_mie_carte_before_the_deal_does_not_say_he_is_not_in_the_hand(harness: Any) -> None:
    """Poker tradizionale asks the buio before any card is dealt (rules §2.2-§2.3). A player of the
    hand who presses «Le mie carte» (or types /carte) then is told that the cards come once the buio
    is settled, not that he is out of the hand."""
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    await game.start(alice, THREE)
    assert game.table.hand_running and game.table.to_act == bob.id
    assert not harness.dms(carol), "the buio is asked before the deal"
    clicked = await harness.click(carol, game.message, label="Le mie carte")
    typed = await harness.slash(bob, "carte")
    for reply in (clicked, typed):
        assert reply.ephemeral
        assert reply.content.startswith("Le carte non sono ancora state date"), reply.content
    game.finish()


async def test_carte_after_his_declared_draw_offers_no_positions_for_another_draw(harness: Any) -> None:
    """The draw is dealt once everyone has declared (rules §2.6): between his «cambio» and the last
    player's, /carte shows a player the five cards he still holds without the positions for another
    /cambio, and says that his change comes when everyone has chosen."""
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await bob_declares_three(game, alice, bob)
    assert game.table.to_act == alice.id, "alice still has to draw"
    typed = await harness.slash(bob, "carte")
    assert typed.ephemeral
    assert "Posizioni per /cambio" not in typed.content, typed.content
    assert "Hai chiesto di cambiare 3 carte: le ricevi quando tutti hanno scelto." in typed.content
    game.finish()


async def test_a_player_with_closed_dms_gets_the_impronta_with_his_cards(harness: Any) -> None:
    """The impronta of the fair deck is checked against «the one in your private message» (README): the
    table message is edited all hand long. A player with closed DMs is sent to /carte for his cards,
    and /carte (private, never edited) carries the impronta too."""
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], cip=10)
    harness.close_dms(bob)
    await game.start(alice)  # a committed deck, as in play
    await harness.settle()
    assert game.session.dm_failed == {bob.id}
    digest = game.live.fair.digest
    reply = await harness.slash(bob, "carte")
    assert reply.ephemeral
    assert digest in reply.content, reply.content
    game.finish()
