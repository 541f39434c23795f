"""Tournament levels: each schedule by name, the defaults per variant, and the ritmo."""

from __future__ import annotations

import itertools

import pytest

from engine.errors import EngineError
from engine.options import Variant
from engine.tournament import (
    Level,
    Ritmo,
    RitmoUnit,
    Schedule,
    ScheduleKind,
    TournamentConfig,
    default_ritmo,
    default_schedule,
    default_stack,
)


def stakes(schedule: Schedule, count: int) -> list[tuple[int, int]]:
    return [(level.cip, level.invito) for level in schedule.levels(count)]


def test_raddoppio_doubles_cip_and_invito_at_every_level() -> None:
    schedule = Schedule(Variant.ITALIANA, ScheduleKind.RADDOPPIO, cip=10, invito=5)
    assert stakes(schedule, 5) == [(10, 5), (20, 10), (40, 20), (80, 40), (160, 80)]


def test_raddoppio_in_texas_doubles_the_blinds() -> None:
    schedule = Schedule(Variant.TEXAS, ScheduleKind.RADDOPPIO, cip=20)
    levels = schedule.levels(4)
    assert [(lv.piccolo_buio, lv.cip) for lv in levels] == [(10, 20), (20, 40), (40, 80), (80, 160)]
    assert all(lv.invito == 0 for lv in levels)


def test_scala_follows_the_standard_ladder_by_decades() -> None:
    schedule = Schedule(Variant.ITALIANA, ScheduleKind.SCALA, cip=10, invito=10)
    cips = [level.cip for level in schedule.levels(16)]
    assert cips == [10, 15, 20, 30, 40, 60, 80, 100, 150, 200, 300, 400, 600, 800, 1000, 1500]
    assert [level.invito for level in schedule.levels(3)] == [10, 15, 20]


def test_scala_rounds_to_whole_chips_half_up() -> None:
    schedule = Schedule(Variant.ITALIANA, ScheduleKind.SCALA, cip=5, invito=3)
    # 5 x 1.5 = 7.5 -> 8; 3 x 1.5 = 4.5 -> 5; 3 x 3 = 9.
    assert stakes(schedule, 4) == [(5, 3), (8, 5), (10, 6), (15, 9)]


def test_scala_with_blinds_keeps_the_big_blind_even() -> None:
    schedule = Schedule(Variant.TRENTADUE, ScheduleKind.SCALA, cip=10)
    # 10 x 1.5 = 15 is odd: the small blind could not be half of it, so 16.
    assert [level.cip for level in schedule.levels(4)] == [10, 16, 20, 30]
    assert all(level.cip % 2 == 0 for level in schedule.levels(30))


@pytest.mark.parametrize(
    ("variant", "cip", "expected"),
    [
        # 2 × 1.5 = 3, up to an even 4, which is also 2 × 2: level 3 goes on to 6, then the ladder.
        (Variant.TEXAS, 2, [2, 4, 6, 8, 10, 12, 16, 20, 30]),
        (Variant.TRENTADUE, 2, [2, 4, 6, 8, 10, 12, 16, 20, 30]),
        # 1 × 1.5 rounds half up to 2, which is also 1 × 2: level 3 goes on to 3.
        (Variant.ITALIANA, 1, [1, 2, 3, 4, 5, 6, 8, 10, 15]),
    ],
)
def test_scala_every_new_level_raises_the_cip(variant: Variant, cip: int, expected: list[int]) -> None:
    """The smallest first cip /torneo nuovo accepts: rounding must not give two levels the same stakes,
    or the channel announces «Salgono le puntate» for stakes that did not rise."""
    schedule = Schedule(variant, ScheduleKind.SCALA, cip=cip, invito=cip)
    assert [level.cip for level in schedule.levels(9)] == expected
    cips = [level.cip for level in schedule.levels(40)]
    assert all(a < b for a, b in itertools.pairwise(cips))


def test_level_number_is_one_based() -> None:
    schedule = Schedule(Variant.TEXAS, ScheduleKind.SCALA, cip=20)
    assert schedule.level(1) == Level(1, 20, 0)
    assert schedule.level(8) == Level(8, 200, 0)
    with pytest.raises(ValueError):
        schedule.level(0)


def test_default_schedules_per_variant() -> None:
    assert stakes(default_schedule(Variant.ITALIANA), 3) == [(10, 10), (15, 15), (20, 20)]
    assert [lv.cip for lv in default_schedule(Variant.TRENTADUE).levels(3)] == [20, 30, 40]
    assert [lv.cip for lv in default_schedule(Variant.TEXAS).levels(3)] == [20, 30, 40]
    assert default_schedule(Variant.TEXAS).kind is ScheduleKind.SCALA
    assert (
        default_stack(Variant.ITALIANA),
        default_stack(Variant.TRENTADUE),
        default_stack(Variant.TEXAS),
    ) == (
        1000,
        2000,
        2000,
    ), "100 times the first cip: the bot's /torneo nuovo without fiches, rules §7"
    assert default_stack(Variant.TEXAS, 50) == 5000
    assert default_ritmo() == Ritmo(10, RitmoUnit.MANI)


def test_default_config_plays_nolimit_with_blinds() -> None:
    assert str(TournamentConfig.default("texas").options.limit) == "nolimit"
    assert str(TournamentConfig.default("32carte").options.limit) == "nolimit"
    assert str(TournamentConfig.default("italiana").options.limit) == "potlimit"


def test_level_describes_itself_in_italian() -> None:
    assert Level(3, 20, 20).describe(Variant.ITALIANA) == "livello 3: cip 20, invito 20"
    assert Level(2, 40, 0).describe(Variant.TEXAS) == "livello 2: bui 20/40"


@pytest.mark.parametrize(
    ("variant", "kind", "cip", "invito"),
    [
        ("texas", "scala", 15, 0),  # an odd big blind
        ("32carte", "raddoppio", 0, 0),
        ("italiana", "scala", 10, 0),  # no invito
        ("italiana", "piramide", 10, 10),
        ("briscola", "scala", 10, 10),
    ],
)
def test_bad_schedules_are_refused_in_italian(variant: str, kind: str, cip: int, invito: int) -> None:
    with pytest.raises(EngineError) as refused:
        Schedule(variant, kind, cip, invito)  # type: ignore[arg-type]
    assert str(refused.value).endswith(".")


def test_ritmo_by_hands_or_minutes() -> None:
    assert not Ritmo(5).by_time
    assert Ritmo(12, RitmoUnit.MINUTI).by_time and Ritmo(12, RitmoUnit.MINUTI).seconds == 720
    assert Ritmo(3, "minuti").unit is RitmoUnit.MINUTI  # type: ignore[arg-type]
    for bad in (0, -1):
        with pytest.raises(EngineError):
            Ritmo(bad)
    with pytest.raises(EngineError):
        Ritmo(5, "ore")  # type: ignore[arg-type]
