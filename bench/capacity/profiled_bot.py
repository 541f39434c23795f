"""``python -m bench.capacity.profiled_bot``: ``python -m bot`` unchanged, plus an optional cProfile.

With CAPACITY_CPROFILE=<path> in the environment, SIGUSR1 starts cProfile in the main thread (the
event loop's, timed by that thread's CPU clock) and SIGUSR2 stops it and writes the stats to <path>,
so the benchmark profiles exactly its measured window and not the start-up. Without the variable
this is ``python -m bot``: the benchmark always starts the bot through here, so both runs start alike.
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys
import time
from types import FrameType


def main() -> int:
    from bot.__main__ import main as bot_main

    path = os.environ.get("CAPACITY_CPROFILE")
    if not path:
        return bot_main()
    # The main thread's CPU time, not the wall clock: a call that waits for the other process to be
    # scheduled (a socket send on a loaded machine) must not look expensive.
    profile = cProfile.Profile(time.thread_time)

    def start(signum: int, frame: FrameType | None) -> None:
        profile.enable()

    def stop(signum: int, frame: FrameType | None) -> None:
        profile.disable()
        profile.dump_stats(path)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    return bot_main()


if __name__ == "__main__":
    sys.exit(main())
