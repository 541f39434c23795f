"""Card parsing and printing in both notations, and the Italian deck formula."""

import pytest

from engine.cards import Card, CardError, Suit, deck, deck_size_for_players, parse_card, parse_cards


def test_both_notations_read_the_same_cards() -> None:
    assert parse_cards("A♥ 10♦ 7♣ K♠") == parse_cards("Ah Td 7c Ks") == parse_cards("ah 10D 7C kS")


def test_printing_uses_suit_symbols_and_ascii() -> None:
    card = parse_card("Td")
    assert str(card) == "10♦"
    assert card.ascii == "Td"
    assert Card.from_code(card.code) == card


def test_suit_order_is_cuori_quadri_fiori_picche() -> None:
    assert Suit.CUORI > Suit.QUADRI > Suit.FIORI > Suit.PICCHE


@pytest.mark.parametrize(("players", "size"), [(2, 24), (3, 28), (4, 32), (5, 36), (6, 40), (9, 52)])
def test_italian_deck_formula(players: int, size: int) -> None:
    assert deck_size_for_players(players) == size
    cards = deck(size)
    assert len(cards) == len(set(cards)) == size
    assert min(card.rank for card in cards) == 11 - players


@pytest.mark.parametrize("bad", ["1h", "Ax", "", "10", "AA"])
def test_unreadable_card_is_refused(bad: str) -> None:
    with pytest.raises(CardError):
        parse_card(bad)


def test_duplicate_card_is_refused() -> None:
    with pytest.raises(CardError, match="due volte"):
        parse_cards("Ah Kd Ah")
