"""The engine benchmark's floor rebuilds the very objects a real run makes, no fewer.

The floor is quoted as the most any engine with this contract could reach; that claim only holds
if what it times is the real set of objects. These tests pin that down.
"""

from __future__ import annotations

from bench.bench_engine import _floor, _record_objects
from engine.options import Limit, TableOptions, Variant


def test_rebuilt_objects_equal_the_originals_and_cover_every_decision() -> None:
    options = TableOptions(variant=Variant.ITALIANA)
    log = _record_objects(options, 5, 40)
    assert len(log) == 40
    decisions = sum(len(hand[2]) for hand in log)
    assert decisions >= 40 * 5  # at least everyone speaks once in each hand
    for _size, start, hand_decisions in log:
        assert start, "start_hand always says something (at least HandStarted)"
        for cls, args, kwargs in start + [e for _, events in hand_decisions for e in events]:
            rebuilt = cls(*args, **kwargs)
            assert type(rebuilt) is cls
            assert rebuilt == cls(*args, **kwargs)
        for action, events in hand_decisions:
            if not events:  # refused: only an «apro» the hand does not qualify for (then «passo»)
                assert action is not None and action[1][1] == "apro"
            elif action is not None:
                assert action[0].__name__ == "Action"


def test_private_events_keep_their_addressee() -> None:
    log = _record_objects(TableOptions(variant=Variant.TEXAS, limite=Limit.NOLIMIT), 6, 5)
    dealt = [e for _, start, _ in log for e in start if e[0].__name__ == "CardsDealt"]
    assert len(dealt) == 5 * 6
    assert all(cls(*args, **kwargs).private_to is not None for cls, args, kwargs in dealt)


def test_floor_runs_and_reports_a_rate() -> None:
    run = _floor(TableOptions(variant=Variant.ITALIANA), 5, 20)
    assert run(1) > 0
