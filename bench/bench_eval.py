"""Hand-evaluation throughput: the engine's evaluators against treys (and eval7/phevaluator if installed).

    python -m bench.bench_eval [--hands N] [--rounds R]

What is timed is what a caller calls, in a plain Python loop over pre-dealt hands (card codes for
the engine, each library's own card ints for the peers; conversion happens outside the timing):

* Italian 5 cards on 32, 36 and 40 cards: ``fast_evaluator(...).five_desc(a, b, c, d, e)`` with the
  codes in descending order (the documented fast entry point; a hand is sorted once when dealt),
  ``.strength(codes)`` (any order: sorts inside), and ``.strengths(hands)`` (many hands in one
  call, what ``showdown`` uses).
* International 7 cards (52): ``fast_evaluator(...).seven(a, ..., g)``, after a warm-up pass that
  fills its lazily built rank-multiset table.
* Peers: treys ``Evaluator.evaluate(hand, board)`` on 52-card hands (5 and 7 cards), eval7
  ``evaluate`` and phevaluator ``evaluate_cards`` when importable.

Each measurement repeats its loop for at least 0.2 s; rounds run round-robin and the median is
reported, so a noisy neighbour on the shared machine hurts every contender alike. The cold start
(a fresh interpreter importing the engine and ranking its first hand) is measured in a subprocess.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.cards import deck, lowest_rank_for_deck
from engine.ranking import Ranking, fast_evaluator

ROOT = Path(__file__).resolve().parent.parent
Loop = Callable[[], int]  # runs one pass over the hands, returns how many it evaluated


def _italian_loops(size: int, n: int, rng: random.Random) -> dict[str, Loop]:
    evaluator = fast_evaluator(Ranking.ITALIANA, lowest_rank_for_deck(size))
    codes = [card.code for card in deck(size)]
    hands = [rng.sample(codes, 5) for _ in range(n)]
    sorted_hands = [tuple(sorted(hand, reverse=True)) for hand in hands]
    five_desc, strength, strengths = evaluator.five_desc, evaluator.strength, evaluator.strengths

    def run_five_desc() -> int:
        for a, b, c, d, e in sorted_hands:
            five_desc(a, b, c, d, e)
        return n

    def run_strength() -> int:
        for hand in hands:
            strength(hand)
        return n

    def run_batch() -> int:
        strengths(hands)
        return n

    return {
        f"italiana {size}: five_desc(a..e), codes sorted": run_five_desc,
        f"italiana {size}: strength(codes), any order": run_strength,
        f"italiana {size}: strengths(hands), batch": run_batch,
    }


def _international_loops(n: int, rng: random.Random) -> dict[str, Loop]:
    seven = fast_evaluator(Ranking.INTERNAZIONALE, 2).seven
    codes = [card.code for card in deck(52)]
    hands = [tuple(rng.sample(codes, 7)) for _ in range(n)]
    for a, b, c, d, e, f, g in hands:  # warm-up: fill the lazy multiset table
        seven(a, b, c, d, e, f, g)

    def run_seven() -> int:
        for a, b, c, d, e, f, g in hands:
            seven(a, b, c, d, e, f, g)
        return n

    return {"internazionale 52: seven(a..g)": run_seven}


def _peer_loops(n: int, rng: random.Random) -> tuple[dict[str, Loop], dict[str, Loop]]:
    """Five-card and seven-card loops of the installed peer libraries (52-card hands)."""
    names = [card.ascii for card in deck(52)]
    deals = [rng.sample(names, 7) for _ in range(n)]
    five: dict[str, Loop] = {}
    seven: dict[str, Loop] = {}
    treys: Any = _optional("treys")
    if treys is not None:
        evaluate = treys.Evaluator().evaluate
        t_fives = [[treys.Card.new(c) for c in deal[:5]] for deal in deals]
        t_sevens = [
            ([treys.Card.new(c) for c in deal[:2]], [treys.Card.new(c) for c in deal[2:]]) for deal in deals
        ]
        empty: list[int] = []

        def treys_five() -> int:
            for hand in t_fives:
                evaluate(hand, empty)
            return n

        def treys_seven() -> int:
            for hand, board in t_sevens:
                evaluate(hand, board)
            return n

        five["treys: Evaluator.evaluate, 5 cards"] = treys_five
        seven["treys: Evaluator.evaluate, 7 cards"] = treys_seven
    eval7: Any = _optional("eval7")
    if eval7 is not None:
        e_fives = [[eval7.Card(c) for c in deal[:5]] for deal in deals]
        e_sevens = [[eval7.Card(c) for c in deal] for deal in deals]
        e_evaluate = eval7.evaluate
        five["eval7: evaluate, 5 cards"] = _simple_loop(e_evaluate, e_fives)
        seven["eval7: evaluate, 7 cards"] = _simple_loop(e_evaluate, e_sevens)
    phevaluator: Any = _optional("phevaluator")
    if phevaluator is not None:
        p_evaluate = phevaluator.evaluate_cards
        five["phevaluator: evaluate_cards, 5 cards"] = _star_loop(p_evaluate, [deal[:5] for deal in deals])
        seven["phevaluator: evaluate_cards, 7 cards"] = _star_loop(p_evaluate, deals)
    return five, seven


def _simple_loop(function: Callable[[Any], object], items: Sequence[Any]) -> Loop:
    def run() -> int:
        for item in items:
            function(item)
        return len(items)

    return run


def _star_loop(function: Callable[..., object], items: Sequence[Sequence[Any]]) -> Loop:
    def run() -> int:
        for item in items:
            function(*item)
        return len(items)

    return run


def _optional(name: str) -> object | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _rate(loop: Loop, min_seconds: float = 0.2) -> float:
    done, start = 0, time.perf_counter()
    while True:
        done += loop()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return done / elapsed


def measure(loops: dict[str, Loop], rounds: int) -> dict[str, tuple[float, float]]:
    """Median and best evaluations per second of each loop, rounds interleaved.

    The best round is what ``timeit`` reports: slower rounds are the machine's doing, not the
    code's. Both are printed because this shared machine changes speed by up to 2x over minutes
    (the peers' figures move with ours), so the median of one run can straddle two speeds.
    """
    samples: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(rounds):
        for name, loop in loops.items():
            samples[name].append(_rate(loop))
    return {name: (statistics.median(values), max(values)) for name, values in samples.items()}


COLD_START = """
import time
start = time.perf_counter()
from engine.cards import parse_cards
from engine.ranking import Ranking, showdown
hands = [parse_cards("Ah Kh Qh Jh Th"), parse_cards("As 7s 8s 9s Ts")]
showdown(hands, ranking=Ranking.{ranking}, lowest_rank={low})
print(time.perf_counter() - start)
"""


def cold_start(ranking: str, low: int, runs: int = 3) -> float:
    """Median seconds for a fresh interpreter to import the engine and rank its first showdown."""
    times = []
    for _ in range(runs):
        result = subprocess.run(
            [sys.executable, "-c", COLD_START.format(ranking=ranking, low=low)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        times.append(float(result.stdout))
    return statistics.median(times)


def _print_table(title: str, rates: dict[str, tuple[float, float]], reference: str | None) -> None:
    print(title)
    base = rates.get(reference) if reference else None
    for name, (median, best) in rates.items():
        ratio = f"  {median / base[0]:5.2f}x treys (best {best / base[1]:5.2f}x)" if base else ""
        print(f"  {name:<48} {median / 1e6:6.2f} M/s (best {best / 1e6:5.2f}){ratio}")


def main(argv: Sequence[str] = ()) -> int:
    """Run the benchmark; ``python -m bench`` calls it without arguments."""
    parser = argparse.ArgumentParser(prog="python -m bench.bench_eval", description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands dealt per contender")
    parser.add_argument("--rounds", type=int, default=5, help="round-robin rounds (median reported)")
    args = parser.parse_args(list(argv))

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load}")
    print(
        f"Cold start, import + first showdown: italiana 32 {cold_start('ITALIANA', 7) * 1000:.0f} ms, "
        f"italiana 40 {cold_start('ITALIANA', 5) * 1000:.0f} ms, "
        f"internazionale 52 {cold_start('INTERNAZIONALE', 2) * 1000:.0f} ms"
    )

    rng = random.Random(20261122)
    peer_five, peer_seven = _peer_loops(args.hands, rng)
    five_loops: dict[str, Loop] = {}
    for size in (32, 36, 40):
        five_loops.update(_italian_loops(size, args.hands, rng))
    five_loops.update(peer_five)
    seven_loops = {**_international_loops(args.hands, rng), **peer_seven}

    treys_five = next((name for name in peer_five if name.startswith("treys")), None)
    treys_seven = next((name for name in peer_seven if name.startswith("treys")), None)
    missing = [name for name in ("treys", "eval7", "phevaluator") if _optional(name) is None]
    if missing:
        print(f"Not installed, skipped: {', '.join(missing)}")
    _print_table(
        "Five cards (evaluations per second, median and best round):",
        measure(five_loops, args.rounds),
        treys_five,
    )
    _print_table("Seven cards:", measure(seven_loops, args.rounds), treys_seven)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
