"""The pictures benchmark runs and prints one row per picture (its figures are never asserted)."""

from __future__ import annotations

import pytest

from bench import bench_render


def test_the_benchmark_prints_every_picture_with_its_floor(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_render.main(["--rounds", "1", "--reps", "1"]) == 0
    out = capsys.readouterr().out
    for case in bench_render._cases():
        line = next(line for line in out.splitlines() if line.startswith(case.name))
        assert line.count("×") == 2  # the size and the ratio to the floor
    assert "412×120" in out  # a 5-card hand


def test_the_levels_option_prints_each_card_picture_at_each_zlib_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench_render.main(["--rounds", "1", "--reps", "1", "--levels"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("by zlib level") :]
    for case in bench_render._cases()[:4]:
        line = next(line for line in table.splitlines() if line.startswith(case.name))
        assert line.count(" ms ") == line.count(" KB") == len(bench_render._LEVELS)
