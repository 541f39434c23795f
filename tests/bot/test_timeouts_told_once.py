"""A timeout is told once, at the table and in /mano (also when it sits the player out); and the
paròl debt shown while a hand runs is the debt of those not dealt in."""

from __future__ import annotations

from typing import Any

from bot import render
from bot.hand_replay import replay_sections
from tests.engine.table_helpers import K, act, make_table


def _timed_out_hand() -> tuple[list[Any], Any]:
    """Texas heads-up: 1 (dealer and small blind) runs out of time: he folds."""
    table = make_table("texas", players=2, cip=10)
    table.start_hand()
    first = table.timeout()  # 1 folds by timeout (the small blind)
    return first, table.hand_record()


def test_mano_tells_a_timeout_once_as_the_table_does() -> None:
    """The table says «X non risponde in tempo: passa.» without the «X passa.» that follows it, and
    /mano replays the hand with the same lines (render.event_lines)."""
    events, record = _timed_out_hand()
    table_lines = render.events_text(events).split("\n")
    actions = dict(replay_sections(record))["Azioni"]
    timed_out = [line for line in actions if "non risponde in tempo" in line]
    assert timed_out, actions
    player_line = timed_out[0].split(" non risponde")[0]
    assert timed_out[0] in table_lines and f"{player_line} passa." not in table_lines
    assert actions[-1] == timed_out[0], actions  # not followed by «<@1> passa.» a second time


def test_the_timeout_that_sits_a_player_out_is_told_once_too() -> None:
    """The second timeout in a row also sits the player out: the engine gives PlayerTimedOut,
    PlayerSatOut, then the ActionTaken; the word is not told again after his being sat out."""
    table = make_table("texas", players=2, cip=10)
    table.start_hand()
    assert table.to_act == 1
    table.timeout()  # 1's first timeout: he folds
    table.start_hand()
    act(table, 2, K.VEDO)  # 2 is the dealer now, first to speak before the flop
    assert table.to_act == 1
    events = table.timeout()  # 1's second in a row: he checks and is sat out
    lines = render.events_text(events).split("\n")
    assert lines[:2] == [
        "<@1> non risponde in tempo: dice paròl.",
        "<@1> resta fuori dal gioco per i tempi scaduti.",
    ]
    assert lines[2].startswith("— Flop"), lines  # not «<@1> dice paròl.» a second time before the flop


def test_a_player_sitting_out_a_parol_hand_is_still_shown_owing_his_debt() -> None:
    """A seat dealt into the running hand shows no debt (paid at the deal); a player who was not dealt
    in (sitting out, rules §2.7) paid nothing and is still shown owing it while the hand runs."""
    from tests.engine.table_helpers import stacked, to_parol
    from tests.engine.test_rules_by_name import FIVE

    table = make_table(players=4)
    table.start_hand(deck=stacked(FIVE[:4]))
    to_parol(table)
    assert {s.player: s.debt for s in table.public_view().seats}[4] == 10
    table.sit_out(4)
    table.start_hand()
    seat = next(s for s in table.public_view().seats if s.player == 4)
    assert not seat.in_hand
    assert seat.debt == 10
