"""The REST-call benchmark (bench/bench_rest.py) runs end to end: both clients measured, the server
process stopped; how fast either is stays the benchmark's business, never asserted here."""

from __future__ import annotations

import re

import pytest

from bench import bench_rest


def test_both_clients_are_measured_and_compared(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_rest.main(["--calls", "60", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"giro 1, aiohttp: \d+\.\d{3} ms per chiamata", out), out
    assert re.search(r"giro 1, lean   : \d+\.\d{3} ms per chiamata", out), out
    compared = r"mediana: discord.py su aiohttp \d+\.\d{3} ms, su bot/transport.py \d+\.\d{3} ms"
    assert re.search(compared, out), out
