"""``python -m engine.duel``: the command line as a subprocess, its statistics, and a seeded
strength check (deterministic with its seed, so it cannot flake)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.ai.betting import Level
from engine.duel import duel, standard_error
from engine.options import Variant

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.duel", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def test_json_output_has_the_documented_fields() -> None:
    done = run(
        "--variante", "italiana", "--livello", "esperto", "--mani", "40", "--contro", "casuale", "--json"
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and done.stdout.strip().count("\n") == 0
    data = json.loads(done.stdout)
    assert data["mani"] == 40 and data["variante"] == "italiana" and data["contro"] == "casuale"
    assert isinstance(data["guadagno_per_100_mani"], float) and data["errore_standard"] > 0
    assert data["giocatori"] == 4 and data["decisioni_computer"] > 0


def test_same_seed_same_match() -> None:
    args = ("--variante", "texas", "--livello", "facile", "--mani", "30", "--contro", "chiamatore")
    first = json.loads(run(*args, "--seed", "4", "--giocatori", "3", "--json").stdout)
    second = json.loads(run(*args, "--seed", "4", "--giocatori", "3", "--json").stdout)
    for data in (first, second):
        for timing in ("secondi", "ms_per_decisione"):
            del data[timing]
    assert first == second


def test_text_summary_is_italian() -> None:
    done = run("--variante", "32carte", "--livello", "esperto", "--mani", "10", "--contro", "facile")
    assert done.returncode == 0, done.stderr
    assert "cip ogni 100 mani" in done.stdout and "errore standard" in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--variante", "omaha", "--livello", "esperto", "--mani", "5", "--contro", "casuale"],
        ["--variante", "texas", "--livello", "campione", "--mani", "5", "--contro", "casuale"],
        ["--variante", "texas", "--livello", "esperto", "--mani", "zero", "--contro", "casuale"],
        ["--variante", "texas", "--livello", "esperto", "--mani", "0", "--contro", "casuale"],
        ["--variante", "texas", "--livello", "esperto", "--mani", "5", "--contro", "nessuno"],
        [
            "--variante",
            "32carte",
            "--livello",
            "esperto",
            "--mani",
            "5",
            "--contro",
            "casuale",
            "--giocatori",
            "6",
        ],
        [
            "--variante",
            "texas",
            "--livello",
            "esperto",
            "--mani",
            "5",
            "--contro",
            "casuale",
            "--giocatori",
            "1",
        ],
        ["--variante", "texas", "--livello", "esperto", "--mani", "5", "--contro", "casuale", "--seed", "-1"],
        ["--variante", "texas", "--mani", "5"],
        ["--variante", "texas", "--livello", "esperto", "--mani", "5", "--contro", "casuale", "--boh"],
    ],
)
def test_bad_input_is_one_italian_sentence_and_exit_2(args: list[str]) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    message = done.stderr.strip()
    assert message.count("\n") == 0 and message.endswith(".") and "Traceback" not in message


def test_standard_error_is_the_larger_of_plain_and_batched() -> None:
    alternating = [1.0, -1.0] * 50  # batches of 10 average to 0: the plain error is larger
    assert standard_error(alternating) == pytest.approx((100 / 99) ** 0.5 / 10)
    trending = [1.0] * 50 + [-1.0] * 50  # neighbours alike: the batched error is larger
    batched = standard_error(trending)
    assert batched > (100 / 99) ** 0.5 / 10
    assert standard_error([3.0]) == 0.0


def test_the_gain_is_counted_in_cip_per_seat() -> None:
    result = duel(Variant.TEXAS, Level.FACILE, 20, "chiamatore", seed=1, players=2)
    assert len(result.per_hand) == 20
    # Fixed limit: at most 4 bets of 1 cip a street before the turn and 4 of 2 cip after, 24 cip.
    assert all(abs(x) <= 24 for x in result.per_hand)
    assert any(x != 0 for x in result.per_hand)


@pytest.mark.parametrize(
    ("variant", "hands"), [(Variant.TEXAS, 400), (Variant.ITALIANA, 400), (Variant.TRENTADUE, 400)]
)
def test_esperto_beats_the_call_station(variant: Variant, hands: int) -> None:
    data = duel(variant, Level.ESPERTO, hands, "chiamatore", seed=11).to_json()
    assert data["guadagno_per_100_mani"] > 2 * data["errore_standard"] > 0, data


def test_help_exits_0() -> None:
    result = run("--help")
    assert result.returncode == 0 and "--contro" in result.stdout
