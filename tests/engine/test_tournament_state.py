"""The tournament state machine on its own: registration, levels, eliminations, prizes, saving."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from engine.errors import EngineError
from engine.options import Variant
from engine.tournament import (
    LevelUp,
    PayoutStructure,
    Phase,
    PlayerEliminated,
    Ritmo,
    RitmoUnit,
    Schedule,
    ScheduleKind,
    Standing,
    Tournament,
    TournamentConfig,
    TournamentFinished,
)


def config(ritmo: Ritmo | None = None, **changes: Any) -> TournamentConfig:
    base = TournamentConfig.default(
        Variant.ITALIANA,
        schedule=Schedule(Variant.ITALIANA, ScheduleKind.RADDOPPIO, 10, 10),
        ritmo=ritmo or Ritmo(2),
        stack=100,
        buy_in=25,
    )
    return replace(base, **changes)


def started(players: int = 4, now: float | None = None, **changes: Any) -> Tournament:
    t = Tournament(config(**changes))
    for p in range(1, players + 1):
        t.register(p)
    t.start(now)
    return t


# ------------------------------------------------------------------ registration


def test_registration_then_start_sets_stacks_pool_and_default_structure() -> None:
    t = Tournament(config())
    for p in (7, 3, 9, 1, 5):
        t.register(p)
    t.unregister(9)
    t.register(2)
    assert t.players == [7, 3, 1, 5, 2] and t.phase is Phase.ISCRIZIONI
    t.start()
    assert t.phase is Phase.IN_CORSO  # type: ignore[comparison-overlap]
    assert t.stacks() == dict.fromkeys([7, 3, 1, 5, 2], 100)
    assert t.pool == 125 and t.total_chips == 500
    assert t.structure is PayoutStructure.SESSANTACINQUE  # 5 players
    assert t.prizes() == (82, 43, 0, 0, 0)  # 81.25 + 43.75: one odd chip to the first


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("register twice", "già iscritto"),
        ("unregister stranger", "Non sei iscritto"),
        ("start alone", "almeno 2"),
        ("register after start", "chiuse"),
        ("unregister after start", "già iniziato"),
        ("over capacity", "al completo"),
        ("structure too big", "50-30-20"),
    ],
)
def test_registration_refusals_are_one_italian_sentence(action: str, message: str) -> None:
    t = Tournament(config(max_players=3) if action == "over capacity" else config(payout="50-30-20"))
    t.register(1)
    with pytest.raises(EngineError) as refused:
        if action == "register twice":
            t.register(1)
        elif action == "unregister stranger":
            t.unregister(2)
        elif action == "start alone":
            t.start()
        elif action == "over capacity":
            t.register(2)
            t.register(3)
            t.register(4)
        elif action == "structure too big":
            t.register(2)
            t.start()
        else:
            t.register(2)
            t.register(3)
            t.start()
            if action == "register after start":
                t.register(4)
            else:
                t.unregister(1)
    assert message in str(refused.value) and str(refused.value).endswith(".")


def test_cancel_before_or_during_but_not_after() -> None:
    t = started(2)
    t.cancel()
    assert t.phase is Phase.ANNULLATO
    with pytest.raises(EngineError):
        t.cancel()
    with pytest.raises(EngineError):
        t.apply_hand_result({1: 100, 2: 100})


# ------------------------------------------------------------------ levels


def test_hand_ritmo_changes_level_exactly_every_n_hands() -> None:
    t = started(3, ritmo=Ritmo(2))
    stacks = {1: 100, 2: 100, 3: 100}
    seen = []
    for _ in range(7):
        events = t.apply_hand_result(stacks)
        seen.append([e.level.number for e in events if isinstance(e, LevelUp)])
    assert seen == [[], [2], [], [3], [], [4], []]
    assert t.level_number == 4 and t.hands_at_level == 1 and t.hands_played == 7
    assert (t.options_for_current_level().cip, t.options_for_current_level().invito) == (80, 80)


def test_level_up_event_names_the_new_stakes() -> None:
    t = started(2, ritmo=Ritmo(1))
    (event,) = t.apply_hand_result({1: 90, 2: 110})
    assert event == LevelUp(t.config.schedule.level(2), previous=1)
    assert event.level.cip == 20


def test_time_ritmo_changes_level_at_the_first_boundary_after_the_time() -> None:
    t = started(2, now=1000.0, ritmo=Ritmo(5, RitmoUnit.MINUTI))
    stacks = {1: 100, 2: 100}
    assert t.apply_hand_result(stacks, now=1000.0 + 299) == []
    assert t.remaining_seconds == 1
    (up,) = t.apply_hand_result(stacks, now=1000.0 + 330)  # 30 s over: they count in level 2
    assert isinstance(up, LevelUp) and up.level.number == 2
    assert t.remaining_seconds == 270
    with pytest.raises(ValueError):
        t.apply_hand_result(stacks)  # a time-based level needs ``now``
    with pytest.raises(ValueError):
        t.apply_hand_result({1: 200}, now=1000.0)  # time went backwards: refused before any change
    assert t.stacks() == stacks and t.hands_played == 2


def test_time_ritmo_a_very_long_hand_can_pass_two_levels() -> None:
    t = started(2, now=0.0, ritmo=Ritmo(1, RitmoUnit.MINUTI))
    (up,) = t.apply_hand_result({1: 100, 2: 100}, now=150.0)
    assert (up.previous, up.level.number) == (1, 3)  # type: ignore[attr-defined]
    assert t.remaining_seconds == 30


def test_time_ritmo_resumes_with_the_time_that_was_left_after_a_restart() -> None:
    t = started(2, now=0.0, ritmo=Ritmo(10, RitmoUnit.MINUTI))
    t.apply_hand_result({1: 80, 2: 120}, now=420.0)  # 7 minutes played: 180 s left
    saved = json.loads(json.dumps(t.to_dict()))
    assert saved["remaining_seconds"] == 180
    restored = Tournament.from_dict(saved)
    restored.resume(now=90_000.0)  # the bot came back a day later: the downtime does not count
    assert restored.apply_hand_result({1: 80, 2: 120}, now=90_000.0 + 179) == []
    (up,) = restored.apply_hand_result({1: 80, 2: 120}, now=90_000.0 + 181)
    assert isinstance(up, LevelUp) and up.level.number == 2
    assert restored.remaining_seconds == 599


def test_restored_clock_is_paused_until_the_first_boundary_without_resume() -> None:
    t = started(2, now=0.0, ritmo=Ritmo(10, RitmoUnit.MINUTI))
    t.apply_hand_result({1: 100, 2: 100}, now=500.0)
    restored = Tournament.from_dict(t.to_dict())
    assert restored.apply_hand_result({1: 100, 2: 100}, now=5000.0) == []  # restarts the clock there
    assert restored.remaining_seconds == 100
    (up,) = restored.apply_hand_result({1: 100, 2: 100}, now=5100.0)
    assert isinstance(up, LevelUp)


def test_pause_keeps_the_time_left() -> None:
    t = started(2, now=0.0, ritmo=Ritmo(1, RitmoUnit.MINUTI))
    t.pause(now=40.0)
    t.resume(now=1000.0)
    assert t.apply_hand_result({1: 100, 2: 100}, now=1019.0) == []
    assert t.remaining_seconds == 1


# ------------------------------------------------------------------ eliminations and prizes


def test_elimination_order_gives_places_from_the_last() -> None:
    t = started(4)  # 4 players: the winner takes the 100-chip pool
    (out,) = t.apply_hand_result({1: 200, 2: 100, 3: 100})
    assert out == PlayerEliminated(4, 4, 0)
    events = t.apply_hand_result({1: 300, 3: 100})
    assert events[0] == PlayerEliminated(2, 3, 0)
    events = t.apply_hand_result({3: 400})
    assert events[0] == PlayerEliminated(1, 2, 0)
    finished = events[-1]
    assert isinstance(finished, TournamentFinished)
    assert finished.prizes == (100, 0, 0, 0)
    assert finished.standings == (
        Standing(3, 1, 100, 400),
        Standing(1, 2, 0, 0),
        Standing(2, 3, 0, 0),
        Standing(4, 4, 0, 0),
    )
    assert t.phase is Phase.FINITO
    with pytest.raises(EngineError):
        t.apply_hand_result({3: 400})


def test_two_busted_in_one_hand_ranked_by_their_stack_at_its_start() -> None:
    t = started(5, payout="50-30-20")  # pool 125: 63, 37, 25
    t.apply_hand_result({1: 100, 2: 100, 3: 100, 4: 160, 5: 40})
    events = t.apply_hand_result({1: 100, 2: 100, 3: 300})  # 4 (160) and 5 (40) bust together
    assert events[:2] == [PlayerEliminated(4, 4, 0), PlayerEliminated(5, 5, 0)]
    events = t.apply_hand_result({1: 500})  # 2 and 3 had 100 and 300: 3 finishes 2nd
    assert events[:2] == [PlayerEliminated(3, 2, 37), PlayerEliminated(2, 3, 25)]
    assert t.prizes() == (63, 37, 25, 0, 0)  # 62.5 + 37.5 + 25: the odd chip to the first
    assert sum(prize for _, prize in t.finishes().values()) == t.pool


def test_equal_stacks_share_the_prizes_of_their_places_odd_chip_to_the_earlier_entrant() -> None:
    t = Tournament(config(payout="65-35"))
    for p in (8, 6, 4):  # registration order: 8, then 6, then 4
        t.register(p)
    t.start()  # pool 75: 49 (48.75 + the odd chip), 26
    assert t.prizes() == (49, 26, 0)
    events = t.apply_hand_result({4: 300})  # 8 and 6 both had 100 and bust together
    assert events[:2] == [PlayerEliminated(8, 2, 13, (6,)), PlayerEliminated(6, 2, 13, (8,))]
    t2 = Tournament(config(payout="65-35", buy_in=26))
    for p in (8, 6, 4):
        t2.register(p)
    t2.start()  # pool 78: 51 (50.7 -> 50 + 1), 27
    events = t2.apply_hand_result({4: 300})
    assert [(e.player, e.place, e.prize) for e in events[:2]] == [(8, 2, 14), (6, 2, 13)]  # type: ignore[attr-defined]


def test_everyone_busted_at_once_shares_from_the_first_place() -> None:
    t = started(2)
    events = t.apply_hand_result({}, carried=200)  # every chip in a carried pot (all-in antes)
    assert [(e.player, e.place) for e in events if isinstance(e, PlayerEliminated)] == [(1, 1), (2, 1)]
    assert isinstance(events[-1], TournamentFinished) and t.phase is Phase.FINITO
    assert sum(prize for _, prize in t.finishes().values()) == t.pool


def test_hand_results_that_lose_or_create_chips_are_refused() -> None:
    t = started(3)
    with pytest.raises(ValueError):
        t.apply_hand_result({1: 100, 2: 100, 3: 101})
    with pytest.raises(ValueError):
        t.apply_hand_result({1: 150, 2: 100}, carried=40)
    with pytest.raises(ValueError):
        t.apply_hand_result({1: 100, 2: 100, 9: 100})
    assert t.apply_hand_result({1: 150, 2: 100}, carried=50)[0] == PlayerEliminated(3, 3, 0)
    assert t.carried == 50


def test_standings_mid_tournament_list_the_living_by_stack_then_the_finished() -> None:
    t = started(4)
    t.apply_hand_result({1: 50, 2: 250, 3: 100})
    assert t.standings() == (
        Standing(2, None, 0, 250),
        Standing(3, None, 0, 100),
        Standing(1, None, 0, 50),
        Standing(4, 4, 0, 0),
    )


def test_away_players_are_remembered_and_forgotten_when_busted() -> None:
    t = started(3)
    t.set_away(2, True)
    t.set_away(3, True)
    t.set_away(3, False)
    assert t.away == {2}
    t.apply_hand_result({1: 200, 3: 100})
    assert t.away == set()
    with pytest.raises(EngineError):
        t.set_away(2, True)


def test_round_trip_mid_tournament_keeps_everything() -> None:
    t = started(5, now=10.0, ritmo=Ritmo(3, RitmoUnit.MINUTI), payout="65-35")
    t.apply_hand_result({1: 100, 2: 100, 3: 200, 4: 90}, carried=10, now=100.0)
    t.set_away(2, True)
    data = json.loads(json.dumps(t.to_dict()))
    back = Tournament.from_dict(data)
    assert back.to_dict() == t.to_dict()
    assert back.config == t.config
    assert back.stacks() == t.stacks() and back.finishes() == t.finishes() == {5: (5, 0)}
    assert back.away == {2} and back.carried == 10 and back.level == t.level
    assert back.options_for_current_level() == t.options_for_current_level()
    data["version"] = 99
    with pytest.raises(EngineError):
        Tournament.from_dict(data)


def test_time_and_hands_to_the_next_level_for_the_status_message() -> None:
    by_hands = started(2, ritmo=Ritmo(3))
    by_hands.apply_hand_result({1: 100, 2: 100})
    assert by_hands.hands_to_next_level() == 2 and by_hands.seconds_to_next_level(5.0) is None
    by_time = started(2, now=0.0, ritmo=Ritmo(2, RitmoUnit.MINUTI))
    by_time.apply_hand_result({1: 100, 2: 100}, now=30.0)
    assert by_time.hands_to_next_level() is None
    assert by_time.seconds_to_next_level(50.0) == 70 and by_time.seconds_to_next_level() == 90
    assert by_time.remaining_seconds == 90  # asking changes nothing
    by_time.pause(60.0)
    assert by_time.seconds_to_next_level(500.0) == 60  # paused: the clock does not run
