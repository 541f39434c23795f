"""The computer players' names in what the channel reads: four of them are women, and the words that
agree with a woman's name are feminine («è eliminata», «giocatrice del computer»)."""

from __future__ import annotations

from bot import computers, tournament_text
from engine.tournament import PlayerEliminated

WOMEN = {"Zia Pina", "Sora Lella", "Nonna Adele", "Comare Rosa"}


def test_every_computer_name_is_known_as_a_man_or_a_woman() -> None:
    assert computers.FEMININE == WOMEN
    assert set(computers.NAMES) >= computers.FEMININE


def test_an_eliminated_computer_agrees_with_his_or_her_name() -> None:
    for slot, name in enumerate(computers.NAMES):
        player = computers.computer_id(slot)
        text = tournament_text.elimination_text(PlayerEliminated(player, 3, 0))
        word = "eliminata" if name in WOMEN else "eliminato"
        assert f"è {word}: 3° posto." in text, text


def test_a_person_is_told_in_the_masculine_which_italian_uses_when_it_does_not_know() -> None:
    assert "<@42> è eliminato: 2° posto" in tournament_text.elimination_text(PlayerEliminated(42, 2, 0))


def test_a_computer_is_introduced_as_giocatore_or_giocatrice() -> None:
    assert computers.described(computers.computer_id(0)) == "🤖 Nonno Gino, giocatore del computer"
    assert computers.described(computers.computer_id(1)) == "🤖 Zia Pina, giocatrice del computer"
