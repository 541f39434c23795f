"""The rules players read (/tavolo regole, the table message, docs/rules.md, the README) against the
engine: each test shows what the engine does (stacked decks, as tests/engine/ does), then checks
the text that describes it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.render import rules_embed, table_embed
from engine.errors import TableFull
from engine.events import ActionTaken, PlayerTimedOut, Street
from engine.options import TableOptions, Variant
from engine.table import Table
from engine.tournament import Ritmo, Schedule, ScheduleKind, Tournament, TournamentConfig, deal, seat_entrants
from tests.engine.table_helpers import K, act, make_table, of_type, stacked, to_parol

ROOT = Path(__file__).resolve().parents[2]
PLAIN = ["Th Ts 7c 8d 9s", "Jh Js 7d 8c Ac", "Qh 7h 8h 9c Kd", "Ad Kc Qc 8s 7s"]


def _lines(options: TableOptions) -> list[str]:
    text = rules_embed(options).description or ""
    return [line.removeprefix("• ") for line in text.splitlines()]


def _sentence(text: str, marker: str) -> str:
    """The sentence of ``text`` (line breaks joined) that contains ``marker``."""
    flat = " ".join(text.split())
    for sentence in re.split(r"(?<=[.;])\s+", flat):
        if marker in sentence:
            return sentence
    raise AssertionError(f"no sentence with {marker!r}")


def test_regole_with_the_32_card_deck_states_the_six_seat_limit() -> None:
    """/tavolo regole of an italiana table with mazzo 32 states its six seats (5 × 6 = 30 cards: the
    engine refuses a 7th), not the variant's nine."""
    options = TableOptions(mazzo="32")
    table = Table(options, rng=random.Random(1))
    for player in range(1, 7):
        table.sit(player, 1000)
    with pytest.raises(TableFull):
        table.sit(7, 1000)
    first = _lines(options)[0]
    assert first.startswith(f"Da 2 a {options.max_seats} giocatori"), first


@pytest.mark.parametrize("variant", ["italiana", "32carte"])
def test_regole_timeout_line_says_servito_at_the_draw(variant: str) -> None:
    """At the draw a player whose time runs out stands pat (servito, RULES §5.5) and stays in the hand:
    /tavolo regole says so, rather than «altrimenti passa», which reads as a fold."""
    if variant == "italiana":
        table = make_table("italiana", players=4)
        table.start_hand(deck=stacked(PLAIN))
        act(table, 2, K.PASSO)  # buio declined
        act(table, 2, K.PASSO)
        act(table, 3, K.APRO, 10)
        act(table, 4, K.PASSO)
        act(table, 1, K.PASSO)
        act(table, 2, K.VEDO)
    else:
        table = make_table("32carte", players=2)
        table.start_hand()  # heads-up: 2 small blind, 1 (the dealer) big blind
        act(table, 2, K.VEDO)
        act(table, 1, K.PAROL)
    assert table.street is Street.CAMBIO
    drawer = table.to_act
    events = table.timeout()
    assert [e.kind for e in of_type(events, PlayerTimedOut)] == [K.SERVITO]
    assert not any(isinstance(e, ActionTaken) and e.kind is K.PASSO and e.player == drawer for e in events)
    line = next(line for line in _lines(TableOptions(variant=Variant(variant))) if "chi non risponde" in line)
    assert "servito" in line, line


def test_rules_page_a_joiner_owes_the_difference_not_the_whole_carried_pot() -> None:
    """A player who joins while the pot is carried owes what those who reached the paròl put in (bets,
    not antes; RULES §6): 10 of a carried pot of 30, and docs/rules.md says so."""
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    to_parol(table)
    table.sit(5, 1000)
    view = table.public_view()
    debt = {seat.player: seat.debt for seat in view.seats}[5]
    assert (view.carried, debt) == (30, 10)
    sentence = _sentence((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"), "joins the table while")
    assert "owes all of it" not in sentence, sentence


def test_readme_away_tournament_player_is_checked_where_he_can_not_only_folded() -> None:
    """An away tournament player's turns are played as timeouts: an away big blind whose option comes
    with nobody raising checks and sees the flop (docs/rules.md §7), and the README says he checks."""
    config = TournamentConfig.default(
        Variant.TEXAS,
        schedule=Schedule(Variant.TEXAS, ScheduleKind.RADDOPPIO, 20, 20),
        ritmo=Ritmo(50),
        stack=500,
        buy_in=10,
    )
    tournament = Tournament(config)
    for player in (1, 2, 3):
        tournament.register(player)
    tournament.start()
    table = seat_entrants(tournament, rng=random.Random(3))
    tournament.set_away(3, True)
    table, _ = deal(table, tournament)  # dealer 1, small blind 2, big blind 3 (away)
    act(table, 1, K.VEDO)
    events = act(table, 2, K.VEDO)
    assert (3, K.PAROL) in [(a.player, a.kind) for a in of_type(events, ActionTaken)]
    assert table.street is Street.FLOP and any(s.player == 3 and s.in_hand for s in table.public_view().seats)
    sentence = _sentence((ROOT / "README.md").read_text(encoding="utf-8"), "is *away*")
    assert "check" in sentence, sentence


def test_table_message_does_not_ask_for_seated_players_when_two_are_seated() -> None:
    """With two players seated and one of them out (sitting out, or a paròl debt he cannot pay), the
    table message asks for players in the game, as the engine's refusal does, not for seated ones."""
    table = make_table("texas", players=2)
    table.sit_out(2)
    view = table.public_view()
    assert len(view.seats) == 2 and not view.can_start
    embed = table_embed(view, table.options)
    text = "\n".join(str(field.value) for field in embed.fields)
    assert "Servono almeno 2 giocatori seduti" not in text, text
