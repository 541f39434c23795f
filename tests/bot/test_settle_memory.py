"""Once started, the bot freezes its start-up objects and collects young objects less often."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_settle_memory_freezes_start_up_and_raises_the_young_threshold() -> None:
    # In a process of its own: the test runner's collector stays as it is.
    code = (
        "import gc; from bot.__main__ import GC_THRESHOLDS, settle_memory; "
        "assert gc.get_freeze_count() == 0; settle_memory(); "
        "print(gc.get_freeze_count() > 1000, gc.get_threshold() == GC_THRESHOLDS, GC_THRESHOLDS[0] > 700)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True", "True"]
