"""``python -m engine.simulate``: the command line, its checks, and the rules random play reaches."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import simulate as sim
from engine.cards import parse_cards
from engine.events import Street
from engine.options import Limit, Mazzo, TableOptions, Variant
from engine.table import Table
from tests.engine.table_helpers import K, act, make_table, stacked

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.simulate", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


# ------------------------------------------------------------------ command line


def test_json_output_is_exactly_one_object_with_the_documented_fields() -> None:
    done = run_cli("--variante", "italiana", "--giocatori", "5", "--mani", "60", "--seme", "3", "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    data = json.loads(done.stdout)  # one object, nothing else on stdout
    assert done.stdout.strip().count("\n") == 0
    assert data["variante"] == "italiana" and data["mani"] == 60 and data["violazioni"] == 0
    assert isinstance(data["mani_al_secondo"], float) and data["mani_al_secondo"] > 0
    assert data["fiches_finali"] == data["fiches_iniziali"] + data["fiches_rientrate"] - data["fiches_uscite"]
    assert data["fiches_iniziali"] > 0 and isinstance(data["regole"], dict)


def test_same_seed_same_game() -> None:
    args = ("--variante", "32carte", "--giocatori", "4", "--mani", "40", "--seme", "9", "--json")
    first, second = json.loads(run_cli(*args).stdout), json.loads(run_cli(*args).stdout)
    for data in (first, second):
        del data["mani_al_secondo"]
    assert first == second


def test_text_summary_is_italian() -> None:
    done = run_cli("--variante", "texas", "--giocatori", "3", "--mani", "20", "--seme", "1")
    assert done.returncode == 0, done.stderr
    assert "mani giocate" in done.stdout and "Nessuna violazione" in done.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((), "si scrive"),
        (("--variante", "briscola", "--giocatori", "3", "--mani", "5"), "non esiste"),
        (("--variante", "texas", "--giocatori", "11", "--mani", "5"), "da 2 a 10"),
        (("--variante", "32carte", "--giocatori", "6", "--mani", "5"), "da 2 a 5"),
        (("--variante", "texas", "--giocatori", "tre", "--mani", "5"), "numero intero"),
        (("--variante", "texas", "--giocatori", "3", "--mani", "0"), "almeno 1"),
        (("--variante", "texas", "--giocatori", "3", "--mani", "5", "--seme", "x"), "numero intero"),
        (("--variante", "texas", "--giocatori", "3", "--mani", "5", "--limite", "tanto"), "limite"),
        (("--variante", "italiana", "--giocatori", "3", "--mani", "5", "--bho"), "si scrive"),
        (("--variante", "italiana", "--giocatori", "3", "--mani", "5", "--mazzo", "40"), "mazzo"),
        (("--variante", "italiana", "--giocatori", "7", "--mani", "5", "--mazzo", "32"), "al massimo in 6"),
    ],
)
def test_bad_arguments_one_italian_sentence_and_exit_2(args: tuple[str, ...], words: str) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    message = done.stderr.strip()
    assert "\n" not in message and "Traceback" not in message
    assert words in message and message.endswith(".")


def test_broken_invariant_gives_a_non_zero_exit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table that loses a chip after every request must be caught (here in-process, by patching)."""
    real = Table.total_chips
    monkeypatch.setattr(Table, "total_chips", lambda self: real(self) - (1 if self.hand_running else 0))
    code = sim.main(["--variante", "texas", "--giocatori", "3", "--mani", "3", "--seme", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["violazioni"] > 0
    assert any("fiche totali" in e for e in data["esempi_violazioni"])


def test_engine_crash_is_reported_as_a_violation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = Table.start_hand

    def crashing(self: Table, deck: object = None) -> object:
        if self.hand_number == 2:
            raise RuntimeError("no card left to deal")
        return real(self, deck)  # type: ignore[arg-type]

    monkeypatch.setattr(Table, "start_hand", crashing)
    code = sim.main(["--variante", "italiana", "--giocatori", "4", "--mani", "10", "--seme", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["mani"] == 2 and data["violazioni"] == 1
    assert "RuntimeError" in data["esempi_violazioni"][0]


# ------------------------------------------------------------------ the checker itself


def test_check_table_finds_a_card_in_two_places() -> None:
    table = make_table()
    table.start_hand(deck=stacked(["Th Ts 7c 8d 9s", "Jh Js 7d 8c Ac", "Qh 7h 8h 9c Kd", "Ad Kc Qc 8s 7s"]))
    assert sim.check_table(table, 4000) == []
    table._stock.append(parse_cards("Th")[0])  # a card both in a hand and in the stock
    assert any("due posti" in p for p in sim.check_table(table, 4000))


def test_check_table_finds_a_lost_card_and_a_negative_stack() -> None:
    table = make_table(variant="texas")
    table.start_hand()
    table._stock.pop()
    assert any("sparite" in p for p in sim.check_table(table, 4000))
    table._stack[0] = -1
    assert any("negativo" in p for p in sim.check_table(table, table.total_chips()))


def test_event_ledger_catches_events_that_do_not_add_up() -> None:
    table = make_table(variant="texas", players=3)
    events = table.start_hand()
    while table.hand_running:
        events += table.timeout()
    honest, tampered = sim._Ledger(), sim._Ledger()
    for ledger in (honest, tampered):
        ledger.stacks.update({1: 1000, 2: 1000, 3: 1000})
    tampered.stacks[1] += 5  # as if an event had given player 1 five chips nobody moved
    assert honest.apply(events) == []
    assert any("eventi dicono" in p for p in tampered.apply(events))


# ------------------------------------------------------------------ rules reached by random play


def test_italiana_random_play_reaches_every_rule_without_violations() -> None:
    result = sim.simulate(TableOptions(variant=Variant.ITALIANA), players=5, hands=300, seed=11)
    assert result.violazioni == 0, result.esempi
    rules = result.regole
    for rule in (
        "mani_non_aperte",
        "salite_a_k",
        "mani_a_livello_k",
        "buio",
        "controbuio",
        "piatti_di_parol",
        "piatti_di_parol_con_debiti",
        "debiti_pagati",
        "piatti_laterali",
        "piatti_divisi",  # the scala-reale cycle, from the prepared deals
        "puntate_restituite",
        "scarti_rimescolati",
        "carte_bruciate_al_cambio",
        "mani_mostrate",
        "vinte_senza_mostrare",
        "rientri",
    ):
        assert rules[rule] > 0, rule


def test_italiana_options_controcontrobuio_and_invito_tutti() -> None:
    options = TableOptions(variant=Variant.ITALIANA, controcontrobuio=True, invito_tutti=True, max_cambio=5)
    result = sim.simulate(options, players=6, hands=300, seed=5)
    assert result.violazioni == 0, result.esempi
    assert result.regole["controbuio"] > 0 and result.regole["piatti_di_parol"] > 0


@pytest.mark.parametrize(("mazzo", "players"), [(Mazzo.AMERICANO, 4), (Mazzo.TRENTADUE, 5)])
def test_italiana_with_a_fixed_deck_plays_without_violations(mazzo: Mazzo, players: int) -> None:
    result = sim.simulate(TableOptions(variant=Variant.ITALIANA, mazzo=mazzo), players, hands=200, seed=3)
    assert result.violazioni == 0, result.esempi
    assert result.regole["mani_mostrate"] > 0 and result.regole["piatti_di_parol"] > 0


def test_trentadue_random_play_reaches_side_pots_and_splits() -> None:
    result = sim.simulate(TableOptions(variant=Variant.TRENTADUE, over=True), players=5, hands=300, seed=2)
    assert result.violazioni == 0, result.esempi
    for rule in ("piatti_laterali", "piatti_divisi", "scarti_rimescolati", "all_in", "mani_mostrate"):
        assert result.regole[rule] > 0, rule


def test_trentadue_without_suits_splits_equal_ranks() -> None:
    options = TableOptions(variant=Variant.TRENTADUE, semi=False, limite=Limit.POTLIMIT)
    result = sim.simulate(options, players=4, hands=300, seed=4)
    assert result.violazioni == 0, result.esempi
    assert result.regole["piatti_divisi"] > 0


@pytest.mark.parametrize("limite", list(Limit))
def test_texas_random_play_reaches_side_pots_and_splits(limite: Limit) -> None:
    options = TableOptions(variant=Variant.TEXAS, limite=limite)
    result = sim.simulate(options, players=6, hands=250, seed=8)
    assert result.violazioni == 0, result.esempi
    for rule in ("piatti_laterali", "piatti_divisi", "all_in", "puntate_restituite", "mani_mostrate"):
        assert result.regole[rule] > 0, rule


def test_heads_up_plays_without_violations() -> None:
    for variant in Variant:
        result = sim.simulate(TableOptions(variant=variant), players=2, hands=150, seed=1)
        assert result.violazioni == 0, (variant, result.esempi)


def test_random_policy_only_says_legal_words() -> None:
    table = make_table(variant="italiana", players=5)
    policy = sim.RandomPolicy(random.Random(3))
    for _ in range(40):
        table.start_hand()
        while table.hand_running:
            action = policy.choose(table)
            legal = {la.kind: la for la in table.legal_actions()}
            assert action.kind in legal
            sim.play_action(table, policy)
        if not table.can_start():
            break


# ------------------------------------------------------------------ engine bugs found by random play


def test_first_drawer_gets_his_own_discards_when_the_32_card_stock_runs_out() -> None:
    """Found by ``python -m engine.simulate --variante italiana --giocatori 6 --mazzo 32``: six
    hands leave two cards in the stock. When the first player to draw changes four cards and
    nobody has folded, there are no other discards, folded hands or burnt cards yet, so by
    the house rule of rules §2.6 he gets his own discards as a last resort (the table used to raise
    ``RuntimeError("no card left to deal")`` mid-``act``)."""
    table = make_table(players=6, mazzo="32")
    hands = [
        "Jh Jd 7c 8c 9s",  # player 2, left of the dealer: a pair of jacks opens
        "7d 8d 9c Ts Qc",
        "7h 8h 9d Tc Kc",
        "7s 8s 9h Td Ac",
        "Qd Kd Ad Th Js",
        "Qh Kh Ah Qs Ks",  # player 1, the dealer
    ]
    table.start_hand(deck=stacked(hands, "Jc As"))
    act(table, 2, K.PASSO)  # no buio
    act(table, 2, K.APRO, 10)
    for player in (3, 4, 5, 6, 1):
        act(table, player, K.VEDO)
    act(table, 2, K.CAMBIO, cards="Jd 7c 8c 9s")
    for player in (3, 4, 5, 6):
        act(table, player, K.SERVITO)
    act(table, 1, K.SERVITO)  # the cards are dealt now
    assert table.street is Street.SECONDO_GIRO
    assert len(table.cards_of(2)) == 5
    assert sim.check_table(table, 6000) == []


def test_help_exits_0_and_names_every_option() -> None:
    result = run_cli("--help")
    assert result.returncode == 0 and result.stderr == ""
    for option in ("--variante", "--limite", "--mazzo", "--cambio-max", "--torneo"):
        assert option in result.stdout, option
