"""The per-player summary of a hand (bot/hand_summary.py): chips, pots, and only the hands shown."""

from __future__ import annotations

import random

import pytest

from bot.hand_summary import summarize, summarize_record
from engine.cards import Card
from engine.events import Event, HandMucked, HandShown, StackReleased
from engine.options import TableOptions
from engine.ranking import Category, Ranking, evaluate
from engine.simulate import RandomPolicy, play_action
from engine.table import Table
from tests.engine.table_helpers import K, act, make_table, stacked

# Heads-up texas, player 1 deals (small blind) and the deal starts at 2: 2 holds 2♣ 3♦, 1 holds
# A♥ K♥; the board comes 9♠ 9♦ 10♣ (after a burn), 6♥, 8♥: both play a pair of nines, 1's kickers
# win. 2 shows first (first left of the dealer, nobody bet), so both hands are shown.
HEADS_UP = stacked(["2c 3d", "Ah Kh"], "4s 9s 9d Tc 5h 6h 7h 8h")
# The same hands the other way round: 2 shows the winning hand first and 1 mucks his.
MUCKED = stacked(["Ah Kh", "2c 3d"], "4s 9s 9d Tc 5h 6h 7h 8h")


def checked_down(table: Table, deck: list[Card] = HEADS_UP) -> list[Event]:
    events = table.start_hand(deck=deck)
    events += act(table, 1, K.VEDO)
    events += act(table, 2, K.PAROL)
    while table.hand_running:
        assert table.to_act is not None
        events += act(table, table.to_act, K.PAROL)
    return events


def test_a_showdown_win_counts_the_pot_the_net_and_the_hand_shown() -> None:
    table = make_table("texas", players=2, cip=10)
    events = checked_down(table)
    by_player = {s.user_id: s for s in summarize(events, table.options)}
    winner, loser = by_player[1], by_player[2]
    assert (winner.net, winner.won, winner.pot_won, winner.pots_showdown, winner.pots_uncontested) == (
        10,
        True,
        20,
        1,
        0,
    )
    assert (loser.net, loser.won, loser.pot_won) == (-10, False, 0)
    assert winner.shown_text == "coppia: 9♦ 9♠ A♥ K♥ 10♣"
    assert loser.shown_text == "coppia: 9♦ 9♠ 10♣ 8♥ 6♥", "a losing hand the table showed is shown"
    assert winner.shown_category == int(Category.COPPIA)
    strength = evaluate(
        [c for c in HEADS_UP if c.ascii in ("9s", "9d", "Ah", "Kh", "Tc")], ranking=Ranking.INTERNAZIONALE
    ).strength
    assert winner.shown_strength == strength, "the engine's own strength of the five cards shown"


def test_a_mucked_hand_is_never_counted_as_shown() -> None:
    table = make_table("texas", players=2, cip=10)
    events = checked_down(table, MUCKED)
    assert [e.player for e in events if isinstance(e, HandMucked)] == [1]
    by_player = {s.user_id: s for s in summarize(events, table.options)}
    assert by_player[2].shown_text == "coppia: 9♦ 9♠ A♥ K♥ 10♣" and by_player[2].pots_showdown == 1
    assert by_player[1].shown_text is None and by_player[1].shown_strength is None
    assert by_player[1].net == -10


def test_a_pot_won_without_showdown_shows_no_hand() -> None:
    table = make_table("texas", players=2, cip=10)
    events = table.start_hand(deck=HEADS_UP)
    events += act(table, 1, K.PASSO)  # the small blind folds
    by_player = {s.user_id: s for s in summarize(events, table.options)}
    assert (by_player[2].net, by_player[2].pots_uncontested, by_player[2].pots_showdown) == (5, 1, 0)
    assert by_player[1].net == -5
    assert all(s.shown_text is None and s.shown_strength is None for s in by_player.values())


def test_private_events_are_ignored_and_a_hand_without_start_has_no_players() -> None:
    table = make_table("texas", players=2, cip=10)
    events = checked_down(table)
    public = [e for e in events if e.private_to is None]
    assert summarize(events, table.options) == summarize(public, table.options)
    assert summarize([], table.options) == ()


def test_a_flush_outranks_a_pair_in_the_stored_strength() -> None:
    """Hold'em: 1 makes a heart flush on the river; the stored strengths order the two hands shown."""
    table = make_table("texas", players=2, cip=10)
    deck = stacked(["2c 3d", "Ah Kh"], "4s 9h 9d Th 5c 6h 7s 8s")
    events = table.start_hand(deck=deck)
    events += act(table, 1, K.VEDO)
    events += act(table, 2, K.PAROL)
    while table.hand_running:
        assert table.to_act is not None
        events += act(table, table.to_act, K.PAROL)
    flush = next(s for s in summarize(events, table.options) if s.user_id == 1)
    assert flush.shown_category == int(Category.COLORE)
    assert flush.shown_text == "colore: A♥ K♥ 10♥ 9♥ 6♥"
    pairs = summarize(checked_down(make_table("texas", players=2, cip=10)), table.options)
    best_pair = max(s.shown_strength or 0 for s in pairs)
    assert flush.shown_strength is not None and flush.shown_strength > best_pair > 0


def test_the_summary_of_a_record_replays_it() -> None:
    table = make_table("texas", players=2, cip=10)
    events = checked_down(table)
    assert summarize_record(table.hand_record()) == summarize(events, table.options)


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "italiana", "cip": 10, "invito": 10},
        {"variant": "italiana", "cip": 10, "invito": 10, "mazzo": "americano"},
        {"variant": "32carte", "cip": 10, "limite": "potlimit", "over": True},
        {"variant": "texas", "cip": 10, "limite": "nolimit"},
    ],
    ids=["italiana", "italiana-americano", "32carte", "texas"],
)
def test_every_net_is_the_stack_change_and_only_shown_hands_count(options: dict[str, object]) -> None:
    """Random legal play, many hands: each player's net equals his stack change in the hand (what he
    took away on leaving included), the nets and the pot carried add up to zero, and a hand counts as
    shown exactly when the table showed it."""
    rng = random.Random(20261125)
    table = Table(TableOptions.from_dict(options), rng=rng)
    policy = RandomPolicy(rng)
    for player in range(1, 6):
        table.sit(player, rng.randint(200, 600))
    hands = 0
    while hands < 120 and table.can_start():
        view = table.public_view()
        before, carried = {s.player: s.stack for s in view.seats}, view.carried
        events = table.start_hand()
        while table.hand_running:
            events += play_action(table, policy)
        hands += 1
        after = table.public_view()
        now = {s.player: s.stack for s in after.seats}
        for e in events:
            if isinstance(e, StackReleased):
                now[e.player] = now.get(e.player, 0) + e.amount
        summaries = summarize(events, table.options)
        assert summaries, "every hand dealt has players"
        for s in summaries:
            assert s.net == now.get(s.user_id, 0) - before[s.user_id], (hands, s)
            assert s.won == (s.pot_won > 0)
        assert sum(s.net for s in summaries) == carried - after.carried
        shown = {e.player for e in events if isinstance(e, HandShown)}
        assert {s.user_id for s in summaries if s.shown_text is not None} == shown
        for player in list(table.seats()):
            if table.seats()[player] == 0:
                table.leave(player)
        for player in range(1, 6):
            if player not in table.seats() and rng.random() < 0.5:
                table.sit(player, rng.randint(200, 600))
    assert hands >= 20
