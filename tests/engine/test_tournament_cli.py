"""``python -m engine.simulate --torneo``: whole random tournaments from the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.options import Variant
from engine.tournament import Tournament, TournamentEvent
from engine.tournament.simulation import TournamentRun, fast_config, play_tournament

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.simulate", "--torneo", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(("variant", "players"), [("italiana", 6), ("32carte", 5), ("texas", 7)])
def test_json_output_counts_whole_tournaments_without_violations(variant: str, players: int) -> None:
    done = run_cli(
        "--variante", variant, "--giocatori", str(players), "--tornei", "6", "--seed", "4", "--json"
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and done.stdout.strip().count("\n") == 0
    data = json.loads(done.stdout)
    assert data["variante"] == variant and data["giocatori"] == players and data["tornei"] == 6
    assert data["violazioni"] == 0 and data["esempi_violazioni"] == []
    counts = data["conteggi"]
    assert counts["eliminazioni"] == 6 * (players - 1)
    assert data["mani"] > 6 and counts["cambi_di_livello"] > 0


def test_same_seed_same_tournaments_and_seme_is_the_same_option() -> None:
    first = run_cli("--variante", "texas", "--tornei", "3", "--seed", "9", "--json")
    second = run_cli("--variante", "texas", "--tornei", "3", "--seme", "9", "--json")
    assert first.returncode == 0 and json.loads(first.stdout) == json.loads(second.stdout)


def test_italian_summary_by_default() -> None:
    done = run_cli("--tornei", "2", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "Variante italiana, 6 giocatori: 2 tornei" in done.stdout and "Nessuna violazione" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--variante", "briscola"), "La variante «briscola» non esiste"),
        (("--variante", "32carte", "--giocatori", "6"), "Il numero di giocatori va da 2 a 5."),
        (("--giocatori", "tanti"), "Il numero di giocatori deve essere un numero intero, non «tanti»."),
        (("--tornei", "0"), "Il numero di tornei va da 1"),
        (("--livelli",), "Non capisco gli argomenti"),
    ],
)
def test_bad_input_is_one_italian_sentence_and_exit_2(args: tuple[str, ...], message: str) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_the_checker_reaches_time_levels_restores_and_paròl_across_levels() -> None:
    run = TournamentRun("italiana", 6)
    rng = random.Random(21)
    for k in range(12):
        play_tournament(fast_config(Variant.ITALIANA, 6, by_time=bool(k % 2)), rng, run)
    assert run.violazioni == 0, run.esempi
    assert run.tornei == 12
    counts = run.conteggi
    for key in ("ripristini", "piatto_riportato_a_cambio_livello", "tempi_scaduti", "cambi_di_livello"):
        assert counts[key] > 0, key


def test_the_checker_reports_levels_that_do_not_rise(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament whose stakes never rise is caught: the level check can fail."""
    original = Tournament.apply_hand_result

    def stuck(self: Tournament, *args: Any, **kwargs: Any) -> list[TournamentEvent]:
        events = original(self, *args, **kwargs)
        self.level_number = 1
        return events

    monkeypatch.setattr(Tournament, "apply_hand_result", stuck)
    run = TournamentRun("texas", 4)
    rng = random.Random(3)
    for _ in range(5):
        play_tournament(fast_config(Variant.TEXAS, 4, by_time=False), rng, run)
    assert run.mani > 5 * 3
    assert run.violazioni > 0 and any(e.startswith("livello 1 dopo") for e in run.esempi)
