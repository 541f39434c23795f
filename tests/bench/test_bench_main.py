"""``python -m bench NAME``: only the named benchmarks; a name it does not know runs nothing and says so."""

from __future__ import annotations

import pytest

from bench.__main__ import main


def test_an_unknown_benchmark_name_runs_nothing_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench_evl"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "", "nothing ran"
    assert "bench_evl" in captured.err and "bench_eval" in captured.err
