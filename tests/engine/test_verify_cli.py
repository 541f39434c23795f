"""``python -m engine.verify`` run as a subprocess: what it prints is what the engine deals, a
tampered string fails with status 1, and every bad input is one Italian sentence with status 2."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cards import Card, parse_cards
from engine.events import CardsDrawn, StreetStarted
from engine.fairness import deal_plan, hand_deck, reveal_string
from engine.options import TableOptions, Variant
from tests.engine.test_fairness import ORDER, SALT, _dealt_by_position, _live, _shuffled
from tests.engine.test_fairness_fold_order import folded_muck_reshuffle, received_by_position

ROOT = Path(__file__).resolve().parents[2]
REVEAL = reveal_string(ORDER, SALT)
DIGEST = hashlib.sha256(REVEAL.encode()).hexdigest()


def run(*args: str, encoding: str = "utf-8") -> subprocess.CompletedProcess[str]:
    # -S: no site-packages, so the tool provably runs on the standard library alone.
    return subprocess.run(
        [sys.executable, "-S", "-m", "engine.verify", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding=encoding,
        env={**os.environ, "PYTHONIOENCODING": encoding},
        timeout=60,
        check=False,
    )


def _positions(stdout: str) -> dict[int, tuple[Card, ...]]:
    """The ``posizione N: cards`` lines of the deal."""
    found = re.findall(
        r"^  posizione (\d+)(?: \(mazziere\))?: ((?:(?:10|[2-9JQKA])[♠♣♦♥] ?)+)$", stdout, re.M
    )
    return {int(n): parse_cards(cards) for n, cards in found}


def test_a_good_reveal_matches_and_the_deal_printed_is_the_engines() -> None:
    draws: list[tuple[Card, ...] | None] = [
        deal_plan(REVEAL, "italiana", 4).hands[0][:3],
        (),
        None,
        deal_plan(REVEAL, "italiana", 4).hands[3][:2],
    ]
    args = ["--variante", "italiana", "--giocatori", "4"]
    for d in draws:
        args += ["--scarti", "-" if d is None else " ".join(c.ascii for c in d)]
    result = run(f"`{REVEAL}`", "--commitment", DIGEST.upper(), *args)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert f"Impronta SHA-256 della stringa: {DIGEST}" in result.stdout
    assert "Corrisponde all'impronta" in result.stdout
    _, events, position = _live(ORDER, SALT, TableOptions(), 4, 32, draws)
    assert _positions(result.stdout) == {
        i + 1: hand for i, hand in enumerate(_dealt_by_position(events, position))
    }
    printed = dict(re.findall(r"^  posizione (\d+): scarta .*, riceve (.*)$", result.stdout, re.M))
    live = {str(position[e.player] + 1): e.received for e in events if isinstance(e, CardsDrawn)}
    assert {n: parse_cards(cards) for n, cards in printed.items()} == live
    assert "  posizione 2: servito" in result.stdout
    assert "  posizione 3: non arriva al cambio" in result.stdout
    stub = hand_deck(ORDER, 32)[20:]
    assert (
        f"Tallone per il cambio, nell'ordine in cui si pesca:\n  {' '.join(map(str, stub))}" in result.stdout
    )


def test_texas_prints_the_burns_and_the_board_the_engine_deals() -> None:
    result = run(REVEAL, "--commitment", DIGEST, "--variante", "texas", "--giocatori", "6")
    assert result.returncode == 0, result.stderr
    _, events, position = _live(ORDER, SALT, TableOptions(variant=Variant.TEXAS), 6, 52)
    assert _positions(result.stdout) == {
        i + 1: hand for i, hand in enumerate(_dealt_by_position(events, position))
    }
    board = [card for e in events if isinstance(e, StreetStarted) for card in e.board]
    streets = re.findall(r"^  bruciata (\S+), (flop|turn|river): (.*)$", result.stdout, re.M)
    assert [c for _, _, cards in streets for c in parse_cards(cards)] == board
    assert [parse_cards(burn)[0] for burn, _, _ in streets] == [ORDER[12], ORDER[16], ORDER[18]]


def test_a_reshuffled_draw_is_printed_as_the_engine_reshuffles_it() -> None:
    order = _shuffled(2)
    salt = bytes([2]) * 16
    reveal = reveal_string(order, salt)
    hands = deal_plan(reveal, "32carte", 5).hands
    draws: list[tuple[Card, ...] | None] = [hands[0][:3], hands[1][:3], None, hands[3][:3], hands[4][:3]]
    args = ["--variante", "32carte", "--giocatori", "5"]
    for d in draws:
        args += ["--scarti", "-" if d is None else " ".join(map(str, d))]
    result = run(reveal, *args)
    assert result.returncode == 0, result.stderr
    table, events, position = _live(order, salt, TableOptions(variant=Variant.TRENTADUE), 5, 32, draws)
    printed = re.findall(r"^  scarti rimescolati, nell'ordine in cui si pesca: (.*)$", result.stdout, re.M)
    live = [tuple(Card.from_code(c) for c in reversed(r)) for r in table.hand_record()["reshuffles"]]
    assert live and [parse_cards(line) for line in printed] == live
    received = dict(re.findall(r"^  posizione (\d+): scarta .*, riceve (.*)$", result.stdout, re.M))
    assert {int(n): parse_cards(c) for n, c in received.items()} == {
        position[e.player] + 1: e.received for e in events if isinstance(e, CardsDrawn)
    }


def test_without_a_commitment_it_prints_the_digest_to_compare() -> None:
    result = run(REVEAL)
    assert result.returncode == 0
    assert DIGEST in result.stdout and "Confrontala" in result.stdout
    assert f"Ordine impegnato (52 carte, dalla cima): {' '.join(map(str, ORDER))}" in result.stdout


@pytest.mark.parametrize(
    "tampered",
    [
        reveal_string([ORDER[1], ORDER[0], *ORDER[2:]], SALT),  # two cards swapped
        reveal_string(ORDER, bytes.fromhex("ff112233445566778899aabbccddeeff")),  # another salt
    ],
)
def test_a_tampered_reveal_fails_with_status_1(tampered: str) -> None:
    result = run(tampered, "--commitment", DIGEST, "--variante", "texas", "--giocatori", "2")
    assert result.returncode == 1
    assert "NON corrisponde" in result.stdout
    assert "posizione" not in result.stdout  # no deal is shown for a string that was not committed
    assert result.stderr == ""


CARDS = " ".join(card.ascii for card in ORDER)


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["qualcosa"],
        [f"tavolo-verde/v1|zz|{CARDS}"],
        [f"tavolo-verde/v1|00ff|{CARDS}"],
        [f"tavolo-verde/v1|{SALT.hex()}|{CARDS[:-3]}"],
        [f"tavolo-verde/v1|{SALT.hex()}|{CARDS} Ah"],
        [REVEAL, "--commitment", "abc"],
        [REVEAL, "--commitment", "z" * 64],
        [REVEAL, "--variante", "briscola", "--giocatori", "3"],
        [REVEAL, "--variante", "texas"],
        [REVEAL, "--giocatori", "3"],
        [REVEAL, "--variante", "texas", "--giocatori", "tre"],
        [REVEAL, "--variante", "texas", "--giocatori", "11"],
        [REVEAL, "--variante", "32carte", "--giocatori", "6"],
        [REVEAL, "--variante", "italiana", "--giocatori", "3", "--mazzo", "francese"],
        [REVEAL, "--variante", "texas", "--giocatori", "2", "--scarti", "", "--scarti", ""],
        [REVEAL, "--variante", "italiana", "--giocatori", "2", "--scarti", "Zz"],
        [REVEAL, "--variante", "italiana", "--giocatori", "3", "--scarti", "Ah"],
        [REVEAL, "--scarti", "Ah"],
        [REVEAL, "--fuori", "1"],
        [REVEAL, "--variante", "texas", "--giocatori", "3", "--fuori", "1"],
        [REVEAL, "--variante", "italiana", "--giocatori", "3", "--fuori", "4"],
        [REVEAL, "--variante", "italiana", "--giocatori", "3", "--fuori", "uno"],
        [REVEAL, "--variante", "italiana", "--giocatori", "3", "--fuori", "²"],
        [REVEAL, "--sconosciuta"],
    ],
)
def test_bad_input_is_one_italian_sentence_and_status_2(args: list[str]) -> None:
    result = run(*args)
    assert result.returncode == 2, result.stdout
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith("."), result.stderr
    assert result.stdout == ""


def test_the_fold_order_given_as_minus_n_replays_a_reshuffle_of_the_folded_hands() -> None:
    """``--scarti -N`` names the N-th player to fold before the draw: poker tradizionale reshuffles
    the folded hands in the order they folded when the stub runs out before anyone is fully served,
    so the tool prints the cards the players received only when it replays that order."""
    commitment, _, events, players = folded_muck_reshuffle()
    discards = {players.index(e.player) + 1: e.discarded for e in events if isinstance(e, CardsDrawn)}
    args = [
        commitment.reveal,
        "--commitment",
        commitment.digest,
        "--variante",
        "italiana",
        "--giocatori",
        "6",
    ]
    for position in range(1, 7):
        scarti = {5: "-1", 2: "-2"}.get(position) or " ".join(c.ascii for c in discards[position])
        args += ["--scarti", scarti]
    result = run(*args)
    assert result.returncode == 0, result.stderr
    received = dict(re.findall(r"^  posizione (\d+): scarta .*, riceve (.*)$", result.stdout, re.M))
    assert {int(n): parse_cards(c) for n, c in received.items()} == received_by_position(events, players)
    twice = run(*[a if a != "-2" else "-1" for a in args])  # one turn for two positions: refused
    assert twice.returncode == 2 and twice.stderr.strip().endswith("«-1» è ripetuto."), twice.stderr


def test_the_commitment_check_names_what_it_compares_with() -> None:
    """The tool compares the string with the impronta it is given, not with what the table showed
    before the hand: it says so, and where the player finds the impronta the bot cannot rewrite."""
    result = run(REVEAL, "--commitment", DIGEST)
    assert result.returncode == 0, result.stderr
    assert "mostrata prima della mano" not in result.stdout
    assert "Corrisponde all'impronta indicata" in result.stdout and "in privato" in result.stdout


def test_the_verify_tool_prints_its_answer_on_a_windows_console_encoding_without_a_traceback() -> None:
    """On Windows, output to a pipe or a file (Git Bash, ``| more``, ``> esito.txt``) is written in
    the ANSI code page (cp1252), which has no suit symbols: the answer comes in the ASCII notation
    of the string instead of a UnicodeEncodeError traceback."""
    result = run(REVEAL, "--commitment", DIGEST, "--variante", "texas", "--giocatori", "2", encoding="cp1252")
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0
    assert f"Ordine impegnato (52 carte, dalla cima): {CARDS}" in result.stdout
    assert "Corrisponde all'impronta indicata" in result.stdout


def test_a_hand_nobody_was_dealt_into_prints_no_cards() -> None:
    """Poker tradizionale, three players: the buio is asked of position 1 and the two others stand
    up meanwhile, so nobody gets a card. The tool prints no hand, no stub and says so."""
    result = run(REVEAL, "--variante", "italiana", "--giocatori", "3", "--fuori", "2", "--fuori", "3")
    assert result.returncode == 0, result.stderr
    assert "  posizione 1: nessuna carta" in result.stdout
    assert "  posizione 3 (mazziere): uscito prima delle carte" in result.stdout
    assert "Nessuna carta distribuita" in result.stdout and "Tallone" not in result.stdout
