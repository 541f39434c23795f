"""Away players of a tournament (docs/rules.md §7): a player who withdraws after the start is blinded
away with /torneo ritirati, and a hand his away turn ends at the deal is told as what it was."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine.tournament import step_away
from tests.discord.torneo_support import Torneo, accepted, deal_next

BUY_IN = 50


@pytest.fixture
async def h(harness_factory: Any) -> Any:
    return await harness_factory(tournament_pause=600)  # the tests deal the next hand themselves


async def heads_up_texas(h: Any) -> tuple[Torneo, Any, Any]:
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2, cip=20, fiches=2000, ritmo=100)
    await game.join([alice, bob])
    await h.fake.wait_for(lambda: game.live is not None and game.live.table.hand_running, "the first hand")
    return game, alice, bob


async def test_a_hand_an_away_players_fold_ends_at_the_deal_is_not_told_as_everyone_all_in(h: Any) -> None:
    """Heads-up texas, Bob away with a deep stack: on the button he acts first, his turn is played at
    the deal (a fold) and the hand is over at once. Nobody is all-in: the line says why it ended."""
    game, alice, bob = await heads_up_texas(h)
    async with h.bot.tables.channel(game.channel_id) as live:
        step_away(live.table, game.run.tournament, bob.id)  # as two timeouts in a row would
    over = []
    for _ in range(6):
        await h.settle()
        if game.live.table.hand_running:  # Bob in the big blind: Alice folds to end it
            assert accepted(await h.slash(alice, "passo"))
            await h.settle()
        over = [t for t in h.public_texts() if "finita alla distribuzione" in t]
        if over:
            break
        await deal_next(h, game)
    assert over, "no hand was over at its deal"
    assert "turni dei giocatori assenti" in over[0], over[0]
    assert min(game.run.tournament.stacks().values()) > 1000  # nobody near all-in at blinds 10/20
    assert not [t for t in h.public_texts() if "tutti all-in con le puntate obbligate" in t]


async def test_a_player_who_withdraws_after_the_start_is_blinded_away_and_may_come_back(h: Any) -> None:
    """docs/rules.md §7: «A player who leaves after the start is blinded away; his chips stay in play.»
    /torneo ritirati after the start makes him away at once (no refund, no waiting out two turn
    timers); asking again is refused privately; /tavolo rientra brings him back."""
    game, _, bob = await heads_up_texas(h)
    t = game.run.tournament
    assert accepted(await h.slash(bob, "torneo ritirati"))
    await h.settle()
    assert [t for t in h.public_texts() if "si ritira dal torneo: da ora è assente" in t and "i bui" in t]
    assert bob.id in t.away and bob.id in t.alive()
    await h.settle()
    again = await h.slash(bob, "torneo ritirati")
    assert again.ephemeral and again.content.startswith("Sei già assente dal torneo"), again.content
    back = await h.slash(bob, "tavolo rientra")
    assert accepted(back), back.content
    assert bob.id not in t.away  # an ERROR line in the log would fail the test (conftest)


async def test_a_player_who_withdrew_during_a_hand_is_still_away_after_a_restart(h: Any) -> None:
    """Three-handed texas tournament. A player whose turn it is not says /torneo ritirati during hand
    1; the channel reads «da ora è assente» and the hand goes on. The bot restarts before the hand
    ends (the hand is cancelled, the tournament goes back to its state at the deal): his withdrawal
    stands (stored with the hand's start), as a Rientro between hands does after a restart
    (test_torneo_boundaries): he is not dealt in as present, to wait out his turn timer twice."""
    alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=50, posti=3, cip=20, fiches=2000, ritmo=100)
    await game.join([alice, bob, carol])
    await h.fake.wait_for(lambda: game.live is not None and game.live.table.hand_running, "the first hand")
    leaver = next(u for u in (alice, bob, carol) if u.id != game.live.table.to_act)
    assert accepted(await h.slash(leaver, "torneo ritirati"))
    await h.settle()
    assert game.live.table.hand_running, "the hand goes on"
    assert leaver.id in game.run.tournament.away
    await h.restart()
    await h.settle()
    assert leaver.id in game.run.tournament.away, "his withdrawal was lost by the restart: he plays again"


async def test_a_withdrawal_racing_the_last_registration_is_not_refused_as_too_late(
    harness_factory: Any,
) -> None:
    """Alice's /torneo ritirati reaches the bot while Carol's /torneo iscriviti fills the tournament
    and starts it. Judged before the start, she is refunded; after, she is made away (rules §7).
    Never «non puoi più ritirarti»: after the start the command does withdraw."""
    h = await harness_factory(tournament_pause=600)
    alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=50, posti=3, cip=20, fiches=2000, ritmo=100)
    await game.join([alice, bob])
    _joined, left = await asyncio.gather(
        h.slash(carol, "torneo iscriviti", channel="poker"),
        h.slash(alice, "torneo ritirati", channel="poker"),
    )
    await h.settle()
    t = game.run.tournament
    assert "non puoi più ritirarti" not in left.content, left.content
    assert alice.id not in t.players or alice.id in t.away, left.content
    assert await h.bot.storage.check() == []
