"""``python -m bench`` (what ``make bench`` runs): every benchmark, one after the other.

Each benchmark compares against a named peer in the same run, so the ratios hold whatever the
machine's load; absolute figures vary between runs on a shared 2-core machine.
"""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = (
    "bench.bench_eval",
    "bench.bench_engine",
    "bench.bench_discord",
    "bench.bench_render",
    "bench.bench_ai",
    "bench.bench_capacity",
    "bench.bench_storage",
)


def main(argv: list[str]) -> int:
    wanted = [name for name in BENCHMARKS if not argv or name.rsplit(".", 1)[-1] in argv]
    for name in wanted:
        print(f"== {name}", flush=True)
        module = importlib.import_module(name)
        module.main()
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
