"""A tournament's hand boundaries: what the table message keeps of the hand played (its level, the
tournament going on), what a restart keeps (a player back between hands, a hand already told in the
channel), and a tournament called off after a restart leaving no hand running in /mano."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine.tournament import Phase
from tests.discord.test_torneo_restart import BUY_IN, balances, fold_hand, started
from tests.discord.torneo_support import STARTING, Torneo, accepted, time_out


@pytest.fixture
async def h(harness_factory: Any) -> Any:
    return await harness_factory(tournament_pause=0)


async def test_a_finished_hands_table_message_keeps_the_level_it_was_played_at(h: Any) -> None:
    """Hand 1 is played at level 1 (bui 10/20); the level rises at its boundary. The message of
    hand 1, which ends on its result, must still name the level its blinds were posted at."""
    users = [h.user(n) for n in ("alice", "bob")]
    game = await started(h, users, ritmo=1)
    first = game.live.message_id
    assert "livello 1: bui 10/20" in h.fake.store[first].embeds[0]["title"]
    await fold_hand(h, game)
    await h.fake.wait_for(
        lambda: game.live.table.hand_number == 2 and game.live.message_id != first, "hand 2"
    )
    await h.settle()
    title = h.fake.store[first].embeds[0]["title"]
    assert "livello 1: bui 10/20" in title, f"hand 1's message now reads {title!r}"


async def bob_away_between_hands(h: Any) -> tuple[Any, Any, Torneo]:
    """Alice and Bob heads-up; Bob times out twice in a row and is away; the hand running then is
    played out (Bob folded at once) and the bot waits between hands (a long pause)."""
    from bot.timers import ManualClock

    alice, bob = h.user("alice"), h.user("bob")
    clock = ManualClock()
    h.bot.sessions.timers.clock = clock
    game = await started(h, [alice, bob], tempo=30)
    run = game.run
    for _ in range(200):
        if bob.id in run.tournament.away:
            break
        live = await h.fake.wait_for(
            lambda: (
                bob.id in run.tournament.away
                or (game.live.table.hand_running and game.live.table.to_act is not None and game.live)
            ),
            "a turn",
        )
        if live is True:
            break
        table = live.table
        if table.to_act == bob.id:
            await time_out(h, game, clock)
        else:
            kinds = {str(la.kind) for la in table.legal_actions()}
            word, said = ("rilancio", {"importo": "cip"}) if "rilancio" in kinds else ("vedo", {})
            if word == "vedo" and "vedo" not in kinds:
                word = "paròl"
            reply = await h.slash(alice, word, **said)
            assert accepted(reply), reply.content
    assert bob.id in run.tournament.away
    # Now the bot waits between hands: finish the hand running (Bob is folded at once).
    h.bot.tournaments.pause = 600.0
    await h.settle()
    played = run.tournament.hands_played
    while game.live.table.hand_running and run.tournament.hands_played == played:
        live = await h.fake.wait_for(
            lambda: (
                run.tournament.hands_played > played or (game.live.table.to_act is not None and game.live)
            ),
            "Alice's turn",
        )
        if live is True:
            break
        reply = await h.slash(alice, "passo")
        assert accepted(reply), reply.content
    await h.settle()
    assert not game.live.table.hand_running and bob.id in run.tournament.away
    assert run.tournament.phase is Phase.IN_CORSO
    return alice, bob, game


async def test_a_player_back_between_hands_is_still_back_after_a_restart(h: Any) -> None:
    """Bob times out twice and is away; between hands he presses Rientro (accepted: he is back).
    A restart in the pause before the next deal must not make him away again."""
    _alice, bob, game = await bob_away_between_hands(h)
    run = game.run
    back = await h.slash(bob, "tavolo rientra")
    assert accepted(back), back.content
    assert run.tournament.away == set(), "back in the game"
    await h.restart()
    assert game.run.tournament.away == set(), "his Rientro was lost by the restart: away again"


async def test_a_tournament_called_off_after_a_restart_leaves_no_hand_running_forever(
    harness_factory: Any,
) -> None:
    """Hand 1 is dealt, the bot restarts (hand 1 cancelled, the next deal after the pause), the
    creator calls the tournament off: every buy-in back. /mano 1 must then not say hand 1 is
    still running: nothing will ever finish it."""
    from bot import hand_replay
    from cogs.mano import STILL_RUNNING

    h = await harness_factory(tournament_pause=600)
    users = [h.user(n) for n in ("alice", "bob")]
    game = await started(h, users)
    await h.restart()
    assert game.run is not None and not game.live.table.hand_running
    off = await h.slash(users[0], "torneo annulla")
    assert not off.ephemeral, off.content
    assert await balances(h, users) == {u.id: STARTING for u in users}
    assert await h.bot.storage.check() == []
    told = await h.slash(users[0], "mano", numero=1)
    assert told.content != STILL_RUNNING.format(number=1), "hand 1 'still running' in a cancelled tournament"
    assert told.content == hand_replay.cancelled_text(1)


async def test_a_hand_over_at_the_deal_is_told_only_once_stored_and_so_never_twice(
    h: Any,
) -> None:
    """Stacks no bigger than the blinds: hand 1 is over at its deal (a split pot). Its result is told
    in the channel only once its boundary is stored: a bot stopped while that write hangs (a slow
    database) deals hand 1 again after the restart, and the channel has told only that one."""
    from tests.discord.gioco_support import stacked

    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    chop = stacked(["2c 3d", "2d 3c"], "2h As Ks Qs 3h Js 4h Ts")  # the board plays: a split pot
    h.bot.tables.queue_deck(game.channel_id, chop)
    real = h.bot.storage.save_tournament
    stuck = asyncio.Event()

    async def slow(tournament_id: int, state: Any, hands: Any = ()) -> None:
        if hands and hands[-1].record is not None:
            stuck.set()
            await asyncio.sleep(3600)  # the database does not answer before the bot is stopped
        await real(tournament_id, state, hands)

    h.bot.storage.save_tournament = slow
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2, cip=20, fiches=10)
    await game.join([alice, bob])
    await h.fake.wait_for(stuck.is_set, "the boundary of hand 1 being written")
    told = [t for t in h.public_texts() if t.startswith("Mano n. 1: tutti all-in")]
    assert told == [], "not told before it is stored"
    await h.restart()
    await h.fake.wait_for(lambda: game.run is None or game.run.tournament.hands_played >= 1, "a hand after")
    await h.settle()
    again = [t for t in h.public_texts() if t.startswith("Mano n. 1: tutti all-in")]
    assert len(again) == 1, f"hand 1 told twice:\n{again}"


async def test_the_table_message_does_not_say_the_tournament_is_over_when_a_player_is_away(h: Any) -> None:
    """Heads-up, Bob away (sitting out at the engine's table between hands): the tournament goes on
    (he is dealt in and blinded away at the next hand), so the last hand's message must not say
    "Torneo finito: segue la classifica.". (When Bob's away turn ended the last hand at its deal, that
    hand has no message of its own: then no message of the channel may say it.)"""
    _alice, _bob, game = await bob_away_between_hands(h)
    if game.live.message_id is not None:
        texts = [h.fake.store[game.live.message_id].text()]
    else:
        texts = [m.text() for m in h.messages("poker")]
    said = [t for t in texts if "Torneo finito" in t]
    assert not said, f"the table message says:\n{said[0]}"
