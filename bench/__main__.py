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
    "bench.bench_rest",
    "bench.bench_storage",
)


def main(argv: list[str]) -> int:
    """Run the benchmarks named in ``argv`` (all without names); an unknown name runs nothing."""
    known = {name.rsplit(".", 1)[-1]: name for name in BENCHMARKS}
    unknown = [arg for arg in argv if arg not in known]
    if unknown:
        print(f"unknown benchmark(s) {', '.join(unknown)}; choose among {', '.join(known)}", file=sys.stderr)
        return 2
    status = 0
    for name in BENCHMARKS:
        if argv and name.rsplit(".", 1)[-1] not in argv:
            continue
        print(f"== {name}", flush=True)
        module = importlib.import_module(name)
        status = max(status, module.main() or 0)
        print(flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
