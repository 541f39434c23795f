"""The tournament at a real table: new stakes between hands, the carried paròl pot across a level
change, away players blinded away, a released deadlock, and whole seeded tournaments."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine.events import (
    ActionTaken,
    ChipsPosted,
    HandStarted,
    PlayerSatOut,
    PostKind,
    PotCarried,
    Street,
)
from engine.options import Variant
from engine.simulate import RandomPolicy, play_action
from engine.table import Table
from engine.tournament import (
    LevelUp,
    PlayerEliminated,
    Ritmo,
    Schedule,
    ScheduleKind,
    Tournament,
    TournamentConfig,
    TournamentFinished,
    close_hand,
    come_back,
    deal,
    release_carried_pot,
    restake,
    seat_entrants,
    step_away,
)
from tests.engine.table_helpers import K, act, of_type, stacked, to_parol

# Poker tradizionale, four players, in deal order 2, 3, 4, 1 (player 1 deals the first hand).
PLAIN = ["Th Ts 7c 8d 9s", "Jh Js 7d 8c Ac", "Qh 7h 8h 9c Kd", "Ad Kc Qc 8s 7s"]


def tournament(variant: Variant, players: int, stack: int, cip: int, ritmo: int = 1) -> Tournament:
    config = TournamentConfig.default(
        variant,
        schedule=Schedule(variant, ScheduleKind.RADDOPPIO, cip, cip),
        ritmo=Ritmo(ritmo),
        stack=stack,
        buy_in=10,
    )
    t = Tournament(config)
    for p in range(1, players + 1):
        t.register(p)
    t.start()
    return t


def test_seat_entrants_in_the_drawn_order_at_level_one() -> None:
    t = tournament(Variant.TEXAS, 3, 500, 20)
    table = seat_entrants(t, order=[3, 1, 2], rng=random.Random(1))
    assert [s.player for s in table.public_view().seats] == [3, 1, 2]
    assert table.seats() == {1: 500, 2: 500, 3: 500}
    assert table.options.cip == 20 and str(table.options.limit) == "nolimit"
    with pytest.raises(ValueError):
        seat_entrants(t, order=[1, 2])


def test_restake_changes_only_the_options_between_hands() -> None:
    t = tournament(Variant.TEXAS, 3, 500, 20)
    table = seat_entrants(t)
    table.start_hand()
    with pytest.raises(ValueError):
        restake(table, replace(table.options, cip=40))
    while table.hand_running:
        table.timeout()
    before = table.to_dict()
    same = restake(table, table.options)
    assert same is table
    bigger = restake(table, replace(table.options, cip=40), rng=random.Random(2))
    after = bigger.to_dict()
    assert after["options"]["cip"] == 40 and before["options"]["cip"] == 20
    assert {k: v for k, v in after.items() if k != "options"} == {
        k: v for k, v in before.items() if k != "options"
    }
    assert table.options.cip == 20  # the old table is untouched
    events = bigger.start_hand()
    posts = [(p.kind, p.amount) for p in of_type(events, ChipsPosted)]
    assert posts == [(PostKind.PICCOLO_BUIO, 20), (PostKind.GRANDE_BUIO, 40)]


def test_parol_pot_carries_over_a_level_change() -> None:
    t = tournament(Variant.ITALIANA, 4, 1000, 10, ritmo=1)  # a new level after every hand
    table = seat_entrants(t, rng=random.Random(5))
    table, _ = deal(table, t, deck=stacked(PLAIN))
    carried = of_type(to_parol(table), PotCarried)
    assert carried[0].carried == 30 and dict(carried[0].debts) == {1: 10, 4: 10}
    boundary = close_hand(table, t)
    assert [e.level.cip for e in boundary if isinstance(e, LevelUp)] == [20]
    assert t.carried == 30 and sum(t.stacks().values()) == 3970
    # Level 2 (cip 20, invito 20): the carried pot and the debts of level 1 are still there.
    table, events = deal(table, t)
    assert table.options.cip == 20 and table.options.invito == 20
    assert of_type(events, HandStarted)[0].carried == 30
    posts = sorted((p.player, p.kind, p.amount) for p in of_type(events, ChipsPosted))
    assert posts == [(1, PostKind.DEBITO, 10), (4, PostKind.DEBITO, 10)]  # no invito after a paròl
    view = table.public_view()
    assert view.pot == 50 and view.opening_level == 13 and table.street is Street.APERTURA
    while table.hand_running:  # nobody opens: the pot stays for the next hand
        act(table, table.to_act or 0, K.PASSO)
    close_hand(table, t)
    assert t.level_number == 3 and t.carried == 50
    # Level 3: the new dealer posts the level-3 invito into the pot carried from level 1.
    table, events = deal(table, t)
    assert [(p.player, p.kind, p.amount) for p in of_type(events, ChipsPosted)] == [(3, PostKind.INVITO, 40)]
    assert table.public_view().pot == 90
    assert table.total_chips() == t.total_chips == 4000


def test_away_player_is_dealt_in_and_blinded_away() -> None:
    t = tournament(Variant.TEXAS, 3, 500, 20, ritmo=50)
    table = seat_entrants(t, rng=random.Random(3))
    t.set_away(3, True)
    table, events = deal(table, t)  # dealer 1, small blind 2, big blind 3
    assert of_type(events, HandStarted)[0].players == (2, 3, 1)
    assert (3, PostKind.GRANDE_BUIO, 20) in [
        (p.player, p.kind, p.amount) for p in of_type(events, ChipsPosted)
    ]
    act(table, 1, K.VEDO)
    events = act(table, 2, K.VEDO)
    # Player 3 is away: his option is played at once (a check), nobody waits for him.
    assert (3, K.PAROL) in [(a.player, a.kind) for a in of_type(events, ActionTaken)]
    assert table.street is Street.FLOP
    while table.hand_running:
        table.timeout()
    close_hand(table, t)
    t.set_away(3, False)
    table, events = deal(table, t)
    assert 3 in of_type(events, HandStarted)[0].players
    assert not [e for e in events if isinstance(e, PlayerSatOut) and e.player == 3]


def test_two_timeouts_sit_a_player_out_then_he_is_blinded_away_not_skipped() -> None:
    t = tournament(Variant.TEXAS, 3, 500, 20, ritmo=50)
    table = seat_entrants(t, rng=random.Random(4))
    table, _ = deal(table, t)
    table.timeout()  # player 1 (first to act, left of the big blind) folds
    act(table, 2, K.VEDO)
    act(table, 3, K.PAROL)
    while table.hand_running:  # 2 and 3 check on by timeouts: two in a row sit out (rules §5.5)
        table.timeout()
    assert [s.player for s in table.public_view().seats if s.sitting_out] == [2, 3]
    close_hand(table, t)
    assert t.away == {2, 3}
    table, events = deal(table, t)
    # Dealt in, though the engine had sat them out; sat out again at once so they act as timeouts.
    assert set(of_type(events, HandStarted)[0].players) == {1, 2, 3}
    assert {e.player for e in events if isinstance(e, PlayerSatOut)} == {2, 3}


def test_a_deadlocked_carried_pot_goes_back_as_at_the_close_of_a_table() -> None:
    t4 = tournament(Variant.ITALIANA, 4, 1000, 10)
    table = seat_entrants(t4, rng=random.Random(6))
    table, _ = deal(table, t4, deck=stacked(PLAIN))
    to_parol(table)  # carried 30: 10 each from 1 (invito), 2 and 3; 1 and 4 owe 10
    state = table.to_dict()
    state["seats"] = [s for s in state["seats"] if s["player"] in (1, 3)]
    for seat in state["seats"]:
        if seat["player"] == 1:
            seat["stack"] = 5  # cannot pay his debt of 10: only player 3 could be dealt in
    stuck = Table.from_dict(json.loads(json.dumps(state)), rng=random.Random(7))
    assert not stuck.can_start()
    released = release_carried_pot(stuck)
    assert released.seats() == {1: 5 + 15, 3: 990 + 15} and released.public_view().carried == 0
    t2 = tournament(Variant.ITALIANA, 3, 1000, 10)
    t2.set_away(2, True)  # not seated here: ignored by the deal
    table, events = deal(Table.from_dict(state, rng=random.Random(7)), t2)
    assert of_type(events, HandStarted)[0].players == (1, 3) and table.hand_running  # 3 deals


@pytest.mark.parametrize(
    ("variant", "players", "seed"),
    [(Variant.ITALIANA, 5, 11), (Variant.TRENTADUE, 4, 12), (Variant.TEXAS, 6, 13)],
)
def test_a_whole_seeded_tournament_to_the_winner(variant: Variant, players: int, seed: int) -> None:
    def play() -> tuple[Tournament, TournamentFinished, dict[int, int], int]:
        rng = random.Random(seed)
        t = tournament(variant, players, 300, 20, ritmo=4)
        table = seat_entrants(t, rng=random.Random(rng.getrandbits(32)))
        policy = RandomPolicy(random.Random(rng.getrandbits(32)))
        eliminated: list[int] = []
        for hand in range(1, 2000):
            table, _ = deal(table, t)
            assert table.options.cip == 20 * 2 ** ((hand - 1) // 4)  # levels exactly every 4 hands
            while table.hand_running:
                play_action(table, policy)
                assert table.total_chips() == t.total_chips
            boundary = close_hand(table, t)
            eliminated += [e.player for e in boundary if isinstance(e, PlayerEliminated)]
            if boundary and isinstance(boundary[-1], TournamentFinished):
                assert sorted(eliminated) == sorted(set(eliminated)) and len(eliminated) == players - 1
                return t, boundary[-1], table.close(), hand
        raise AssertionError("the tournament did not end")

    t, finished, home, hands = play()
    places = sorted(s.place or 0 for s in finished.standings)
    assert places[0] == 1 and len(finished.standings) == players
    assert {s.player for s in finished.standings} == set(range(1, players + 1))
    winner = finished.standings[0]
    assert winner.place == 1 and home == {winner.player: t.total_chips}
    assert sum(s.prize for s in finished.standings) == t.pool == 10 * players
    assert play()[1] == finished and play()[3] == hands  # the same seed plays the same tournament


def test_step_away_and_come_back_during_a_hand_keep_table_and_tournament_in_step() -> None:
    t = tournament(Variant.TEXAS, 3, 500, 20, ritmo=50)
    table = seat_entrants(t, rng=random.Random(8))
    table, _ = deal(table, t)  # dealer 1, blinds 2 and 3: player 1 acts first
    events = step_away(table, t, 1)
    assert t.away == {1} and (1, K.PASSO) in [(a.player, a.kind) for a in of_type(events, ActionTaken)]
    assert step_away(table, t, 1) == []  # already away: nothing more to do
    come_back(table, t, 1)
    assert t.away == set() and not any(s.sitting_out for s in table.public_view().seats)
    while table.hand_running:
        act(
            table,
            table.to_act or 0,
            K.PASSO if K.PASSO in {la.kind for la in table.legal_actions()} else K.PAROL,
        )
    close_hand(table, t)
    assert t.away == set()  # he came back during the hand: not marked away at its end
    assert come_back(table, t, 1) == []
