"""Computer players never make a decision that is wrong whatever the cards: each test sets up one
explicit situation on a stacked deck through a real table."""

from __future__ import annotations

import random

import pytest

from engine.ai.strategy import decide
from engine.ai.view import HandLog
from engine.events import Street
from engine.options import TableOptions
from engine.table import Table
from tests.engine.table_helpers import K, act, make_table, stacked


def _river_shove(board: str, mine: str = "4h 5s", theirs: str = "2c 3d") -> tuple[HandLog, Table]:
    """Heads-up no-limit Hold'em, 1000 each: everyone checks down to the river on ``board``
    (its five cards play for both players), then player 2 moves all in (990) into a pot of 20.
    Player 1 (the button) is to act with ``mine``."""
    table = make_table("texas", players=2, limite="nolimit")
    flop, turn, river = board.split()[:3], board.split()[3], board.split()[4]
    rest = f"6c {' '.join(flop)} 7c {turn} 8d {river}"
    log = HandLog()
    log.feed(table.start_hand(deck=stacked([theirs, mine], rest)))
    log.feed(act(table, 1, K.VEDO))  # the button completes the small blind
    log.feed(act(table, 2, K.PAROL))
    for _ in range(2):  # flop and turn: both check
        log.feed(act(table, 2, K.PAROL))
        log.feed(act(table, 1, K.PAROL))
    assert table.street is Street.RIVER
    log.feed(act(table, 2, K.PUNTO, 990))
    return log, table


@pytest.mark.parametrize(
    "board",
    [
        "As Kh Qd Jc Ts",  # broadway on a rainbow board: no flush, no pair, nobody can beat it
        "9c 9d 9h 9s Ac",  # quads and the best kicker on the board
    ],
)
@pytest.mark.parametrize("seed", range(3))
def test_texas_never_folds_a_hand_that_cannot_lose_at_the_river(board: str, seed: int) -> None:
    """The board is the nuts and plays for everyone: calling can at worst split the pot, which
    returns more than the call (the 20 already in the middle are shared), while folding gives up
    his share. A certain split is equity 0.5: the call margin above the pot odds (990 / 2000 + 0.03)
    must stop at even money."""
    log, table = _river_shove(board)
    view = log.view(table, 1)
    action = decide(view, random.Random(seed), "esperto")
    assert action.kind is not K.PASSO


def test_never_stands_pat_on_nothing_when_nobody_can_bet_any_more() -> None:
    """Heads-up 32carte: player 1 posted the big blind all in (10 chips), player 2 called; no
    more betting can happen in this hand, so the cards alone decide it. Standing pat on ace-high
    junk is a bluff nobody can be bluffed by: drawing to the ace is the only sensible play, and the
    heads-up pat bluff (``style.pat_bluff``) is only for a hand still to be bet."""
    stood = []
    for seed in range(400):
        table = Table(TableOptions(variant="32carte"), rng=random.Random(7))
        table.sit(1, 10)  # the dealer: heads-up he posts the big blind, all in
        table.sit(2, 1000)
        log = HandLog()
        log.feed(table.start_hand(deck=stacked(["7c 9d Jh Ks Ad", "8c 8d Th Qs Qd"])))
        log.feed(act(table, 2, K.VEDO))
        assert table.street is Street.CAMBIO and table.to_act == 2
        action = decide(log.view(table, 2), random.Random(seed), "esperto")
        if action.kind is K.SERVITO:
            stood.append(seed)
    assert not stood, f"stood pat on A-K-J-9-7 against an all-in player with seeds {stood}"
