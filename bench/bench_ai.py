"""Computer players' decision time, next to the cost of the evaluations they are made of.

    python -m bench.bench_ai [--mani N]

For each variant and level, four computer players of that level play N hands (default 300) at
one table with the variant's default options (after an untimed warm-up hand that builds the
evaluator tables and the opponent model); every decision is timed and the p50, p99 and worst
decision time are reported. In the same run, the peers those figures are measured against:

* one evaluation: the engine's fast evaluator on one hand (Italian ``strength`` of five codes,
  international ``seven``), the floor of any Monte Carlo step;
* one Monte Carlo sample against one opponent (``engine.ai.equity``: deal the unknown cards,
  evaluate two hands), so that a decision reads as "about so many samples".

Times are wall-clock on a shared machine: compare ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence

from engine.ai.betting import Level
from engine.ai.equity import Opponent, draw_equity, draw_model, holdem_equity
from engine.ai.strategy import decide
from engine.ai.view import HandLog
from engine.cards import deck
from engine.options import TableOptions, Variant
from engine.ranking import Ranking, fast_evaluator
from engine.table import Table

PLAYERS = 4


def decision_times(variant: Variant, level: Level, hands: int, seed: int = 1) -> list[float]:
    rng = random.Random(seed)
    options = TableOptions(variant=variant)
    table = Table(options, rng=random.Random(rng.getrandbits(64)))
    stack = 200 * options.cip
    for pid in range(1, PLAYERS + 1):
        table.sit(pid, stack)
    log = HandLog()
    times: list[float] = []
    for hand in range(hands + 1):
        seated = table.seats()
        for pid in range(1, PLAYERS + 1):
            if seated.get(pid) != stack:
                if pid in seated:
                    table.leave(pid)
                table.sit(pid, stack)
        log.feed(table.start_hand())
        while table.hand_running:
            player = table.to_act
            assert player is not None
            t0 = time.perf_counter()
            action = decide(log.view(table, player), rng, level)
            elapsed = time.perf_counter() - t0
            if hand:  # hand 0 is the warm-up
                times.append(elapsed)
            log.feed(table.act(action))
    return times


def evaluation_cost(ranking: Ranking, n: int = 100_000) -> float:
    """Seconds per evaluation of a random hand (five Italian cards, seven international)."""
    rng = random.Random(3)
    if ranking is Ranking.ITALIANA:
        strength = fast_evaluator(ranking, 7).strength
        codes = [c.code for c in deck(32)]
        hands = [rng.sample(codes, 5) for _ in range(n)]
        t0 = time.perf_counter()
        for hand in hands:
            strength(hand)
        return (time.perf_counter() - t0) / n
    seven = fast_evaluator(ranking, 2).seven
    codes = [c.code for c in deck(52)]
    sevens = [rng.sample(codes, 7) for _ in range(n)]
    for a, b, c, d, e, f, g in sevens:  # warm-up of the lazy table
        seven(a, b, c, d, e, f, g)
    t0 = time.perf_counter()
    for a, b, c, d, e, f, g in sevens:
        seven(a, b, c, d, e, f, g)
    return (time.perf_counter() - t0) / n


def sample_cost(ranking: Ranking, n: int = 20_000) -> float:
    """Seconds per Monte Carlo sample against one opponent."""
    rng = random.Random(4)
    if ranking is Ranking.ITALIANA:
        model = draw_model(ranking, 7, 4)
        mine = [c.code for c in deck(32)[-5:]]
        opponent = [Opponent(model.pool(11, True, 3))]
        t0 = time.perf_counter()
        draw_equity(model, mine, mine[:2], 3, opponent, rng, min_samples=n, max_samples=n)
        return (time.perf_counter() - t0) / n
    t0 = time.perf_counter()
    holdem_equity([51, 50], [40, 33, 22], [1], rng, min_samples=n, max_samples=n)
    return (time.perf_counter() - t0) / n


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_ai", description=__doc__.split("\n")[0])
    parser.add_argument("--mani", type=int, default=300)
    args = parser.parse_args(list(argv))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"Python {sys.version.split()[0]}, load average {load}; "
        f"{PLAYERS} computer players, {args.mani} hands a row"
    )
    italian_eval, holdem_eval = evaluation_cost(Ranking.ITALIANA), evaluation_cost(Ranking.INTERNAZIONALE)
    italian_sample, holdem_sample = sample_cost(Ranking.ITALIANA), sample_cost(Ranking.INTERNAZIONALE)
    print(
        f"  one evaluation: italiana 5 cards {italian_eval * 1e6:.2f} µs, "
        f"texas 7 cards {holdem_eval * 1e6:.2f} µs"
    )
    print(
        f"  one Monte Carlo sample vs one opponent: italiana {italian_sample * 1e6:.1f} µs "
        f"({italian_sample / italian_eval:.0f} evaluations), texas {holdem_sample * 1e6:.1f} µs "
        f"({holdem_sample / holdem_eval:.0f} evaluations)"
    )
    columns = ("decisions", "p50 ms", "p99 ms", "max ms")
    print(
        f"  {'variant':<9} {'level':<8} " + " ".join(f"{c:>9}" for c in columns) + f" {'p99 in samples':>15}"
    )
    for variant in (Variant.ITALIANA, Variant.TRENTADUE, Variant.TEXAS):
        sample = holdem_sample if variant is Variant.TEXAS else italian_sample
        for level in (Level.FACILE, Level.ESPERTO):
            times = decision_times(variant, level, args.mani)
            p50, p99 = statistics.median(times), _quantile(times, 0.99)
            print(
                f"  {variant!s:<9} {level!s:<8} {len(times):>9} {p50 * 1e3:>9.3f} {p99 * 1e3:>9.3f} "
                f"{max(times) * 1e3:>9.2f} {p99 / sample:>15.0f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
