"""``python -m engine.rank`` run as a subprocess: output shape, exit codes, every bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NAMES = {
    "carta alta",
    "coppia",
    "doppia coppia",
    "tris",
    "scala",
    "full",
    "colore",
    "poker",
    "scala reale",
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    # -S: no site-packages, so the tool provably runs on the standard library alone.
    return subprocess.run(
        [sys.executable, "-S", "-m", "engine.rank", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def test_plain_output_one_line_per_hand_then_the_winner() -> None:
    result = run("A♥ K♥ Q♥ J♥ 10♥", "As 7s 8s 9s Ts")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Mano 1: scala reale, A♥ K♥ Q♥ J♥ 10♥",
        "Mano 2: scala reale, 10♠ 9♠ 8♠ 7♠ A♠",
        "Vince la mano 2.",
    ]
    assert result.stderr == ""


def test_plain_output_of_the_three_level_split() -> None:
    result = run("Ah Kh Qh Jh Th", "As 7s 8s 9s Ts", "9d Td Jd Qd Kd")
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == "Piatto diviso tra le mani 1, 2 e 3."


def test_json_is_exactly_one_object() -> None:
    result = run("--json", "Ks Kd Kc 9s 9c", "Ah Qh 9h 8h 7h")
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert report == {
        "mani": [
            {"categoria": "full", "carte": ["K♦", "K♣", "K♠", "9♣", "9♠"]},
            {"categoria": "colore", "carte": ["A♥", "Q♥", "9♥", "8♥", "7♥"]},
        ],
        "vincitori": [1],
    }


def test_json_international_rules_put_the_full_above_the_colore() -> None:
    result = run("--json", "--regole", "internazionale", "Ks Kd Kc 9s 9c", "Ah Qh 9h 8h 7h")
    assert result.returncode == 0
    assert json.loads(result.stdout)["vincitori"] == [0]


def test_json_holdem_board_plays_and_splits() -> None:
    result = run("--json", "--regole", "internazionale", "--board", "Ts Js Qd Kc Ah", "2c 3d", "4h4s")
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert report["vincitori"] == [0, 1]
    assert [hand["categoria"] for hand in report["mani"]] == ["scala", "scala"]
    assert report["mani"][0]["carte"] == ["A♥", "K♣", "Q♦", "J♠", "10♠"]
    assert all(hand["categoria"] in NAMES for hand in report["mani"])


def test_deck_size_fixes_the_minima() -> None:
    result = run("--json", "--mazzo", "36", "Ah 6h 7h 8h 9h", "Kd Qd Jd Td 9d")
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert report["mani"][0] == {"categoria": "scala reale", "carte": ["9♥", "8♥", "7♥", "6♥", "A♥"]}
    assert report["vincitori"] == [1]  # a media beats the minima


def test_without_suits_equal_ranks_split() -> None:
    hands = ("Kh Kc 9s 8s 7s", "Kd Ks 9h 8h 7h")
    assert json.loads(run("--json", *hands).stdout)["vincitori"] == [0]
    assert json.loads(run("--json", "--senza-semi", *hands).stdout)["vincitori"] == [0, 1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Ah Kh Qh Jh Xh", "As Ks Qs Js Ts"], "Non riconosco la carta «Xh»"),
        (["Ah Kh Qh Jh Th", "Ah Ks Qs Js 9s"], "La carta A♥ compare due volte."),
        (["Ah Kh Qh Jh Jh", "As Ks Qs Js 9s"], "La carta J♥ compare due volte."),
        (["--regole", "internazionale", "--board", "2c 3c 4d 9h Kh", "Ah Kh", "As Ks"], "compare due volte"),
        (["Ah Kh Qh Jh", "As Ks Qs Js Ts"], "La mano 1 ha 4 carte: ne servono 5."),
        (["Ah Kh Qh Jh Th", "As Ks Qs Js Ts 9s"], "La mano 2 ha 6 carte: ne servono 5."),
        (["--regole", "internazionale", "--board", "2c 3c 4d 9h", "Ah Kh", "As Ks"], "sono 5, non 4"),
        (["--regole", "internazionale", "--board", "2c 3c 4d 9h 8h", "Ah Kh Qh", "As Ks"], "ne servono 2"),
        (["Ah Kh Qh Jh 6h", "As Ks Qs Js Ts"], "La carta 6♥ non fa parte del mazzo di 32 carte."),
        (["--mazzo", "36", "Ah Kh Qh Jh 5h", "As Ks Qs Js Ts"], "non fa parte del mazzo di 36 carte"),
        (["Ah Kh Qh Jh Th"], "Servono almeno due mani da confrontare."),
        ([], "Servono almeno due mani da confrontare."),
        (["--regole", "americana", "Ah Kh Qh Jh Th", "As Ks Qs Js Ts"], "non esistono"),
        (["--mazzo", "33", "Ah Kh Qh Jh Th", "As Ks Qs Js Ts"], "Un mazzo di 33 carte non esiste"),
        (["--mazzo", "trenta", "Ah Kh Qh Jh Th", "As Ks Qs Js Ts"], "non è un numero di carte"),
        (["--mazzo", "²", "Ah Kh Qh Jh Th", "As Ks Qs Js Ts"], "non è un numero di carte"),  # not int()
        (["--board", "7c 8c 9d Jd Qd", "Ah Kh", "As Ks"], "non ha carte comuni"),
        (["--veloce", "Ah Kh Qh Jh Th", "As Ks Qs Js Ts"], "Non capisco gli argomenti"),
    ],
)
def test_bad_input_is_one_italian_sentence_and_exit_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_help_exits_0() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert "--regole" in result.stdout
