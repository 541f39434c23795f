"""Whole-hand throughput: the engine's random play against PokerKit's on the same texas scenario.

    python -m bench.bench_engine [--mani N] [--mani-pokerkit N] [--rounds R] [--profile] [--before DIR]

Scenarios (hands per second of CPU time, median of interleaved rounds):

* ``texas`` 6 players, no-limit, blinds 5/10: the engine driven by ``engine.simulate``'s random
  policy (fold 22 %, raise 28 % of a random size when facing a bet, bet 45 % otherwise; uneven
  stacks with rebuys, so all-ins and side pots happen), *without* the per-action invariant checks.
* the same scenario on PokerKit 0.7.7 (``NoLimitTexasHoldem`` with every non-player phase
  automated, so that only the players' decisions are driven), with the same policy
  written against PokerKit's ``can_*`` API, stacks carried from hand to hand with the same rebuys.
* ``italiana`` 5 players (36 cards, pot limit), the engine's random play without checks.
* ``floor`` texas and italiana: a bound, not an engine. The scenario is played once untimed and
  every object the contract makes the two sides build (the player's new ``Action`` values, the
  engine's frozen events) is recorded; the timed loop then rebuilds exactly those objects from
  their fields, with one shuffle per hand and one random draw per decision, and no rule at all.
  An engine that takes frozen actions and returns these events cannot beat it on this machine,
  so a target above the floor cannot be met in CPython without changing the contract.

* with ``--before DIR`` (a checkout of an earlier version: ``git worktree add DIR COMMIT``), the
  two engine scenarios of that version and of this one, each in a worker process of its own
  (importing ``DIR/engine``, or this checkout's), timed there in the same way and interleaved with
  the rounds here: an engine change measured before and after in one run, under the same load,
  in processes alike, as the median of the rounds' ratios.

What is timed is the whole hand loop a caller would run: start the hand, ask the legal actions,
choose, act, until the hand ends. The random policy is part of it for both engines (``--profile``
shows the split). The project's targets: at least 100x PokerKit on texas and 20,000 hands/s for
italiana 5 players.

Steadiness on a loaded shared machine: each round is timed in CPU time (``time.process_time``),
which does not count the time the process waits for a core; every scenario runs once untimed
first (the ranking tables are built on first use); the rounds are many and short, interleaved
(engine, PokerKit, engine, ...) with the order rotated each round so that a burst of load hits
every contender alike; every round of a scenario plays the same hands, and the median round is
reported with the spread of the middle half.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import gc
import io
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import engine.simulate
from engine.actions import Action
from engine.cards import Card
from engine.events import Event
from engine.options import Limit, TableOptions, Variant
from engine.simulate import simulate
from engine.variants import table_class

TEXAS_TARGET_RATIO = 100.0
ITALIANA_TARGET = 20_000.0
SEED = 1000  # every timed round plays the same hands
BOUND = "no engine with this contract can be faster"
Scenario = Callable[[int], float]  # seed -> hands per second of CPU time


def _engine(options: TableOptions, players: int, hands: int) -> Scenario:
    def run(seed: int) -> float:
        started = time.process_time()
        result = simulate(options, players, hands, seed=seed, check=False, prepared=False, count=False)
        return result.mani / max(time.process_time() - started, 1e-9)

    return run


# One hand of a recorded run, as the objects it made: the start's events, then per decision the
# Action if the player built a new one (None when he reused a cached word) and its events.
_Rebuild = tuple[type, tuple[Any, ...], dict[str, Any]]
_HandObjects = tuple[int, list[_Rebuild], list[tuple[_Rebuild | None, list[_Rebuild]]]]


def _rebuild(obj: Any) -> _Rebuild:
    """The class and constructor arguments of a frozen dataclass (keywords only if not default)."""
    positional = tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if not f.kw_only)
    keywords = {
        f.name: getattr(obj, f.name)
        for f in dataclasses.fields(obj)
        if f.kw_only and getattr(obj, f.name) != f.default
    }
    return type(obj), positional, keywords


def _record_objects(options: TableOptions, players: int, hands: int) -> list[_HandObjects]:
    """Play the scenario once and keep, hand by hand, what the engine and the player built."""
    log: list[_HandObjects] = []
    seen: set[int] = set()
    kept: list[Action] = []  # keeps cached actions alive, so that ids are not reused

    class Recording(table_class(options.variant)):  # type: ignore[misc]
        def start_hand(self, deck: Sequence[Card] | None = None) -> list[Event]:
            events = super().start_hand(deck)
            log.append((self._deck_size, [_rebuild(e) for e in events], []))
            return events

        def act(self, action: Action) -> list[Event]:
            new = id(action) not in seen
            seen.add(id(action))
            kept.append(action)
            decisions = log[-1][2]
            decisions.append((_rebuild(action) if new else None, []))
            events = super().act(action)
            decisions[-1][1].extend(_rebuild(e) for e in events)
            return events

    original = engine.simulate.Table
    engine.simulate.Table = Recording  # type: ignore[misc]
    try:
        simulate(options, players, hands, seed=SEED, check=False, prepared=False, count=False)
    finally:
        engine.simulate.Table = original  # type: ignore[misc]
    return log


def _floor(options: TableOptions, players: int, hands: int) -> Scenario:
    """The cost of the contract alone: per hand one shuffle of the deck, per decision one random
    draw, and every Action and event object of a real run rebuilt from its fields, with no rule
    at all. No engine that takes frozen actions and returns frozen events can be faster."""
    log = _record_objects(options, players, hands)

    def run(seed: int) -> float:
        rng = random.Random(seed)
        decks = {size: list(range(size)) for size, _, _ in log}
        started = time.process_time()
        for size, start, decisions in log:
            cards = decks[size][:]
            rng.shuffle(cards)
            for cls, args, kwargs in start:
                cls(*args, **kwargs)
            for action, events in decisions:
                rng.random()
                if action is not None:
                    action[0](*action[1], **action[2])
                for cls, args, kwargs in events:
                    cls(*args, **kwargs)
        return len(log) / max(time.process_time() - started, 1e-9)

    return run


def _pokerkit(players: int, hands: int) -> Scenario | None:
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        return None
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    cip = 10

    def stack(rng: random.Random) -> int:
        return cip * rng.choice((3, 8, 20, 50, 100, 200)) + rng.randint(0, cip - 1)

    def amount(rng: random.Random, low: int, high: int) -> int:
        if low >= high:
            return low
        r = rng.random()
        if r < 0.4:
            return low
        if r < 0.55:
            return high
        return rng.randint(low, high)

    def run(seed: int) -> float:
        rng = random.Random(seed)
        stacks = [stack(rng) for _ in range(players)]
        started = time.process_time()
        for hand in range(hands):
            stacks = [s if s > 0 else stack(rng) for s in stacks]
            shift = hand % players  # the button moves: seat k of this hand is player shift + k
            seated = stacks[shift:] + stacks[:shift]
            state: Any = NoLimitTexasHoldem.create_state(
                automations, True, 0, (cip // 2, cip), cip, tuple(seated), players
            )
            while state.status:
                r = rng.random()
                facing = state.checking_or_calling_amount > 0
                if facing:
                    if r < 0.22:
                        state.fold()
                    elif r > 0.72 and state.can_complete_bet_or_raise_to():
                        low = state.min_completion_betting_or_raising_to_amount
                        high = state.max_completion_betting_or_raising_to_amount
                        state.complete_bet_or_raise_to(amount(rng, low, high))
                    else:
                        state.check_or_call()
                elif r > 0.55 and state.can_complete_bet_or_raise_to():
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(amount(rng, low, high))
                else:
                    state.check_or_call()
            final = list(state.stacks)
            stacks = final[-shift:] + final[:-shift] if shift else final
        return hands / max(time.process_time() - started, 1e-9)

    return run


# The earlier engine's side of ``--before``: one line per round in ("texas 1000 1000"), its rate out.
_BEFORE_WORKER = """
import gc, sys, time
import engine
from engine.options import Limit, TableOptions, Variant
from engine.simulate import simulate
games = {
    "texas": (TableOptions(variant=Variant.TEXAS, limite=Limit.NOLIMIT), 6),
    "italiana": (TableOptions(variant=Variant.ITALIANA), 5),
}
print(engine.__file__, flush=True)
for line in sys.stdin:
    game, hands, seed = line.split()
    options, players = games[game]
    gc.collect()
    started = time.process_time()
    result = simulate(options, players, int(hands), seed=int(seed), check=False, prepared=False, count=False)
    print(result.mani / max(time.process_time() - started, 1e-9), flush=True)
"""


class _Worker:
    """A worker process running a checkout's engine scenarios on request (``--before``)."""

    def __init__(self, root: str) -> None:
        env = {**os.environ, "PYTHONPATH": os.path.abspath(root)}
        self._process = subprocess.Popen(
            [sys.executable, "-c", _BEFORE_WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=root,
        )
        assert self._process.stdout is not None
        self.engine_file = self._process.stdout.readline().strip()

    def scenario(self, game: str, hands: int) -> Scenario:
        def run(seed: int) -> float:
            process = self._process
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(f"{game} {hands} {seed}\n")
            process.stdin.flush()
            return float(process.stdout.readline())

        return run

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait(timeout=60)


def measure(scenarios: dict[str, Scenario], rounds: int, warmup: bool = True) -> dict[str, list[float]]:
    """Hands/s of CPU time of every round, per scenario.

    One untimed round each first (``warmup``); then the rounds interleave the scenarios, the
    order rotated by one each round, so that no contender always runs right after another's
    garbage or in the same slot of a periodic load. Every round of a scenario plays the same
    seed, so the same hands: what differs between its rounds is the machine, not the work.
    """
    names = list(scenarios)
    if warmup:
        for name in names:
            scenarios[name](999)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for index in range(rounds):
        shift = index % len(names) if names else 0
        for name in names[shift:] + names[:shift]:
            gc.collect()  # untimed: every round starts from a clean heap
            rates[name].append(scenarios[name](SEED))
    return rates


def summarize(values: list[float]) -> tuple[float, float]:
    """The median and the spread of the middle half (interquartile range over the median)."""
    median = statistics.median(values)
    if len(values) < 4 or median <= 0:
        return median, 0.0
    q1, _, q3 = statistics.quantiles(values, n=4)
    return median, (q3 - q1) / median


def profile(options: TableOptions, players: int, hands: int, top: int = 25) -> str:
    """cProfile of the engine's random play: where the time goes."""
    profiler = cProfile.Profile()
    profiler.enable()
    simulate(options, players, hands, seed=1, check=False, prepared=False, count=False)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: Sequence[str] = ()) -> int:
    """Run the benchmark; ``python -m bench`` calls it without arguments."""
    parser = argparse.ArgumentParser(prog="python -m bench.bench_engine", description=__doc__.split("\n")[0])
    parser.add_argument("--mani", type=int, default=1000, help="engine hands per round and scenario")
    parser.add_argument("--mani-pokerkit", type=int, default=60, help="PokerKit hands per round")
    parser.add_argument("--rounds", type=int, default=11, help="interleaved rounds (median reported)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of both engine scenarios")
    parser.add_argument("--before", metavar="DIR", help="an earlier checkout: its engine runs alongside")
    args = parser.parse_args(list(argv))
    if args.rounds < 1 or args.mani < 1 or args.mani_pokerkit < 1:
        parser.error("--rounds, --mani and --mani-pokerkit must be at least 1")

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load}")
    texas = TableOptions(variant=Variant.TEXAS, limite=Limit.NOLIMIT)
    italiana = TableOptions(variant=Variant.ITALIANA)
    scenarios: dict[str, Scenario] = {
        "engine texas 6 players no-limit": _engine(texas, 6, args.mani),
        "engine italiana 5 players": _engine(italiana, 5, args.mani),
        "floor texas (objects only, no rules)": _floor(texas, 6, args.mani),
        "floor italiana (objects only, no rules)": _floor(italiana, 5, args.mani),
    }
    peer = _pokerkit(6, args.mani_pokerkit)
    if peer is not None:
        scenarios["pokerkit texas 6 players no-limit"] = peer
    else:
        print("pokerkit not installed: the texas ratio is skipped")
    workers: dict[str, _Worker] = {}
    if args.before:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        workers = {"before": _Worker(args.before), "now": _Worker(here)}
        for side, worker in workers.items():
            print(f"{side}: the engine in {worker.engine_file}")
            scenarios[f"{side}: engine texas 6 players no-limit"] = worker.scenario("texas", args.mani)
            scenarios[f"{side}: engine italiana 5 players"] = worker.scenario("italiana", args.mani)
    try:
        rounds = measure(scenarios, args.rounds)
    finally:
        for worker in workers.values():
            worker.close()
    rates: dict[str, float] = {}
    print(f"Random play, hands per second of CPU time (median of {args.rounds} rounds, IQR/median):")
    for name, values in rounds.items():
        rate, spread = summarize(values)
        rates[name] = rate
        print(f"  {name:<40} {rate:10,.0f}   ±{spread:5.1%}")
    if peer is not None:
        # Round by round: the two ran next to each other, under much the same load.
        ours, theirs = rounds["engine texas 6 players no-limit"], rounds["pokerkit texas 6 players no-limit"]
        paired = [a / b for a, b in zip(ours, theirs, strict=True)]
        ratio, spread = summarize(paired)
        verdict = "met" if ratio >= TEXAS_TARGET_RATIO else "MISSED"
        print(
            f"  texas: {ratio:.1f}x PokerKit, median of the rounds' ratios ±{spread:.1%} "
            f"(target >= {TEXAS_TARGET_RATIO:.0f}x: {verdict})"
        )
        floor = [a / b for a, b in zip(rounds["floor texas (objects only, no rules)"], theirs, strict=True)]
        print(f"  texas floor: {summarize(floor)[0]:.1f}x PokerKit ({BOUND})")
    ita = rates["engine italiana 5 players"]
    verdict = "met" if ita >= ITALIANA_TARGET else "MISSED"
    print(f"  italiana: {ita:,.0f} hands/s (target >= {ITALIANA_TARGET:,.0f}: {verdict})")
    floor_ita = rates["floor italiana (objects only, no rules)"]
    print(f"  italiana floor: {floor_ita:,.0f} hands/s ({BOUND})")
    if workers:
        for game in ("texas 6 players no-limit", "italiana 5 players"):
            now, then = rounds[f"now: engine {game}"], rounds[f"before: engine {game}"]
            ratio, spread = summarize([a / b for a, b in zip(now, then, strict=True)])
            print(f"  {game}: now / before = {ratio:.3f}, median of the rounds' ratios ±{spread:.1%}")
    if args.profile:
        for label, options, players in (("italiana 5", italiana, 5), ("texas 6 no-limit", texas, 6)):
            print(f"\ncProfile, {label}, {args.mani} hands:")
            print(profile(options, players, args.mani))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
