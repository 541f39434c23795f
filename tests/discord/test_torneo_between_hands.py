"""A tournament between hands, with a long pause before the next deal: a come-back after a hand over
at its deal is stored; a come-back while the last boundary's payout is being retried does not store
a finished tournament as running; a hand over at its deal whose boundary write failed is told only
once a write stores it (a restart before that deals it again, under its number)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.tournament import Phase
from tests.discord.gioco_support import stacked
from tests.discord.test_torneo_restart import BUY_IN
from tests.discord.torneo_support import Torneo, accepted, boundary_fails_once, deal_next, silent_or_call

# The board plays (a royal flush): every showdown splits, nobody ever busts at a showdown.
CHOP = stacked(["2c 3d", "2d 3c"], "2h As Ks Qs 3h Js 4h Ts")


@pytest.fixture
async def h(harness_factory: Any) -> Any:
    return await harness_factory(tournament_pause=600)


async def heads_up(h: Any, game: Torneo, alice: Any, bob: Any, *, fiches: int) -> Any:
    """A two-seat texas tournament of ``fiches`` each, 30 s a turn, no level change: announced by
    alice, joined by both, started; its run."""
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2, cip=20, fiches=fiches, tempo=30, ritmo=100)
    await game.join([alice, bob])
    await h.fake.wait_for(lambda: game.run is not None and game.live is not None, "the table")
    return game.run


async def _bob_away_after_a_hand_over_at_the_deal(h: Any) -> tuple[Any, Any, Torneo]:
    """Heads-up, blinds 10/20, 40 chips each, every deck a split. Bob never answers: two timeouts
    and he is away, then blinded down until he is all-in from his blind: that hand is over at the
    deal (split), so the engine's table leaves his seat playing, while the tournament has him away."""
    from bot.timers import ManualClock

    alice, bob = h.user("alice"), h.user("bob")
    clock = ManualClock()
    h.bot.sessions.timers.clock = clock
    game = Torneo(h)
    for _ in range(40):
        h.bot.tables.queue_deck(game.channel_id, CHOP)
    run = await heads_up(h, game, alice, bob, fiches=40)
    for _ in range(60):
        await h.settle()
        live = game.live
        table = live.table
        if not table.hand_running:
            seat_out = {s.player: s.sitting_out for s in table.public_view().seats}
            if bob.id in run.tournament.away and not seat_out.get(bob.id, True):
                line = f"Mano n. {table.hand_number}: tutti all-in"
                await h.fake.wait_for(  # told once its boundary is stored
                    lambda line=line: any(t.startswith(line) for t in h.public_texts()),
                    "setup: the last hand was over at its deal",
                )
                break  # the state under test: away for the tournament, playing at the table
            assert run.tournament.phase is Phase.IN_CORSO, "the tournament ended first"
            await deal_next(h, game)
            continue
        await silent_or_call(h, game, clock, silent=bob, speaker=alice)
    else:
        raise AssertionError("never reached")
    return alice, bob, game


async def test_a_come_back_after_a_hand_over_at_the_deal_survives_a_restart(h: Any) -> None:
    """Bob is away; the last hand was over at its deal, so his seat at the table is playing. Between
    hands he uses /tavolo rientra: accepted, he is back. A restart before the next deal must not
    make him away again (the come-back must be stored, as `between_hands` does for the others)."""
    _alice, bob, game = await _bob_away_after_a_hand_over_at_the_deal(h)
    back = await h.slash(bob, "tavolo rientra")
    assert accepted(back), back.content
    assert game.run.tournament.away == set(), "back in the game"
    await h.restart()
    assert game.run.tournament.away == set(), (
        f"his Rientro was lost by the restart: away again {game.run.tournament.away}"
    )
    assert await h.bot.storage.check() == []


async def test_a_come_back_while_the_last_boundary_waits_does_not_strand_the_tournament(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heads-up; Alice never answers (away, blinded) and wins the last hand, at a showdown she was
    sat out for: Bob is out, the tournament is over. Its last boundary (the prizes) fails once and
    waits for its retry; meanwhile Alice presses /tavolo rientra (accepted). The bot is then
    restarted before the retry. After the restart the tournament must either replay its last hand
    or pay: never sit forever with the prizes unpaid and the channel held."""
    from bot import tournaments as bot_tournaments
    from bot.storage import StorageError
    from bot.timers import ManualClock
    from engine.tournament import Phase

    alice, bob = h.user("alice"), h.user("bob")
    clock = ManualClock()
    h.bot.sessions.timers.clock = clock
    monkeypatch.setattr(bot_tournaments, "PAYOUT_RETRY", 600.0)
    real_finish = h.bot.storage.finish_tournament
    failed: list[int] = []

    async def finish_once(*args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(1)
            raise StorageError("Il database non risponde.")
        return await real_finish(*args, **kwargs)

    monkeypatch.setattr(h.bot.storage, "finish_tournament", finish_once)
    game = Torneo(h)

    def queue_deck(table: Any) -> None:
        # Heads-up the next dealer (the small blind) is the other player; the first cards go to the
        # dealer's left, i.e. to this hand's dealer (the next big blind). Bob is steered to a small
        # blind of 15 chips, which he calls all-in: Alice (away) wins that showdown.
        view = table.public_view()
        bob_stack = next(s.stack for s in view.seats if s.player == bob.id)
        bob_small_blind = view.dealer == alice.id
        alice_wins = (bob_small_blind and 10 < bob_stack < 20) or bob_stack > 15
        win, lose = "As Ad", "2c 7d"
        alice_cards, bob_cards = (win, lose) if alice_wins else (lose, win)
        first, second = (alice_cards, bob_cards) if view.dealer == alice.id else (bob_cards, alice_cards)
        h.bot.tables.queue_deck(game.channel_id, stacked([first, second], "8h 3s 4d 9c Tc Jh Qd 5c"))

    run = await heads_up(h, game, alice, bob, fiches=45)
    for _ in range(200):
        await h.settle()
        if run.tournament.phase is not Phase.IN_CORSO:
            break
        live = game.live
        table = live.table
        if not table.hand_running:
            queue_deck(table)
            await deal_next(h, game)
            continue
        await silent_or_call(h, game, clock, silent=alice, speaker=bob)
    else:
        raise AssertionError("the tournament did not end")
    await h.fake.wait_for(lambda: failed, "the last boundary's first try")
    seats = {s.player: s.sitting_out for s in game.live.table.public_view().seats}
    assert seats.get(alice.id), f"setup: Alice is not sat out at the last hand's end: {seats}"
    back = await h.slash(alice, "tavolo rientra")
    assert accepted(back), back.content
    await h.settle()
    await h.restart()
    await h.settle()
    run = game.run
    stored = [r for r in await h.bot.storage.live_tournaments() if r.id == run.id] if run else []
    rows = [(r.status, r.state["tournament"].get("phase")) for r in stored]
    assert run is None or run.tournament.phase is Phase.IN_CORSO, (
        f"after the restart the tournament is {run.tournament.phase} but not paid (still held, nothing "
        f"dealt); stored (status, phase): {rows}"
    )
    assert await h.bot.storage.check() == []


async def test_a_hand_over_at_the_deal_whose_boundary_write_failed_is_not_told_twice(
    harness_factory: Any,
) -> None:
    """Stacks no bigger than the blinds: hand 1 is over at its deal. Its boundary write fails once
    (a database hiccup, `_save` only logs it); the bot is restarted before any other write. The
    restart deals hand 1 again under the same number: the channel reads one 'Mano n. 1', the one
    that was stored."""

    h = await harness_factory(tournament_pause=600)
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    failed = boundary_fails_once(h.bot.storage)
    h.bot.tables.queue_deck(game.channel_id, CHOP)  # a split: the tournament goes on
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2, cip=20, fiches=10)
    await game.join([alice, bob])
    await h.fake.wait_for(lambda: failed, "the boundary of hand 1 failing")
    await h.settle()

    def told() -> list[str]:
        return [t for t in h.public_texts() if t.startswith("Mano n. 1: tutti all-in")]

    before = len(told())  # 1 now: told though its boundary was not stored
    await h.restart()
    h.bot.tables.queue_deck(game.channel_id, CHOP)
    h.bot.tournaments._next_hand(game.run, 0.0)  # the deal after the pause, without the wait
    await h.fake.wait_for(lambda: len(told()) > before, "hand 1 dealt again and told after the restart")
    await h.settle()
    lines = told()
    shown = "\n---\n".join(lines)
    assert len(lines) == 1, f"hand 1 told {len(lines)} times (dealt twice under one number):\n{shown}"
    assert await h.bot.storage.check() == []
