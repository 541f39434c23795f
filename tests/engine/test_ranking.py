"""The traps of the Italian and international rankings, by name (rules §1.1, §1.2)."""

from __future__ import annotations

import pytest

from engine.cards import Card, CardError, lowest_rank_for_deck, parse_cards
from engine.ranking import (
    SF_MASSIMA,
    SF_MEDIA,
    SF_MINIMA,
    Category,
    HandValue,
    Ranking,
    compare,
    evaluate,
    showdown,
    winners,
)

ITA = Ranking.ITALIANA
INT = Ranking.INTERNAZIONALE


def ita(text: str, deck: int = 32) -> HandValue:
    return evaluate(parse_cards(text), ranking=ITA, lowest_rank=lowest_rank_for_deck(deck))


def intl(text: str) -> HandValue:
    return evaluate(parse_cards(text), ranking=INT, lowest_rank=2)


def names(value: HandValue) -> str:
    return " ".join(str(card) for card in value.cards)


def test_every_category_has_its_italian_name() -> None:
    assert [c.nome for c in Category] == [
        "carta alta",
        "coppia",
        "doppia coppia",
        "tris",
        "scala",
        "full",
        "colore",
        "poker",
        "scala reale",
    ]


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Ah Kd 9c 8s 7h", Category.CARTA_ALTA),
        ("Ah Ad 9c 8s 7h", Category.COPPIA),
        ("Ah Ad 9c 9s 7h", Category.DOPPIA_COPPIA),
        ("Ah Ad Ac 9s 7h", Category.TRIS),
        ("Jh Td 9c 8s 7h", Category.SCALA),
        ("Ah Ad Ac 9s 9h", Category.FULL),
        ("Ah Qh 9h 8h 7h", Category.COLORE),
        ("Ah Ad Ac As 7h", Category.POKER),
        ("Jh Th 9h 8h 7h", Category.SCALA_REALE),
    ],
)
def test_categories_of_a_32_card_deck(text: str, category: Category) -> None:
    assert ita(text).category is category


def test_flush_beats_full_in_the_italian_ranking_only() -> None:
    flush, full = "Ah Qh 9h 8h 7h", "Ks Kd Kc 9s 9c"
    assert compare(ita(flush), ita(full)) > 0
    assert compare(intl(flush), intl(full)) < 0
    assert showdown([parse_cards(full), parse_cards(flush)], ranking=ITA, lowest_rank=7) == [1]
    assert showdown([parse_cards(full), parse_cards(flush)], ranking=INT, lowest_rank=2) == [0]


def test_a_7_8_9_10_is_the_lowest_straight_of_32_cards() -> None:
    minima = ita("As 7d 8c 9s Th")
    assert minima.category is Category.SCALA
    assert names(minima) == "10♥ 9♠ 8♣ 7♦ A♠"  # the ace shown below the seven
    lowest_media = ita("7h 8d 9c Ts Jc")
    assert compare(lowest_media, minima) > 0
    assert compare(minima, ita("Ah Ad Ac 9s 7h")) > 0  # still a scala: beats a tris
    for top in ("Jh Td 9c 8s 7h", "Qh Jd Tc 9s 8h", "Kh Qd Jc Ts 9h", "Ah Kd Qc Js Th"):
        assert compare(ita(top), minima) > 0


def test_a_6_7_8_9_is_the_lowest_straight_of_36_cards() -> None:
    minima = ita("As 6d 7c 8s 9h", deck=36)
    assert minima.category is Category.SCALA
    assert compare(ita("6h 7d 8c 9s Tc", deck=36), minima) > 0
    # With 36 cards A-7-8-9-10 is no straight: the ace is not next to the seven.
    assert ita("As 7d 8c 9s Th", deck=36).category is Category.CARTA_ALTA


@pytest.mark.parametrize(
    ("deck", "text"), [(40, "Ah 5d 6c 7s 8h"), (52, "Ah 2d 3c 4s 5h"), (24, "Ah 9d Tc Js Qh")]
)
def test_the_ace_plays_just_below_the_lowest_rank(deck: int, text: str) -> None:
    assert ita(text, deck=deck).category is Category.SCALA


def test_the_six_is_not_in_a_32_card_deck() -> None:
    with pytest.raises(CardError, match="non fa parte del mazzo"):
        ita("As 6d 7c 8s 9h", deck=32)


def test_q_k_a_7_8_is_no_straight() -> None:
    value = ita("Qh Kd As 7c 8s")
    assert value.category is Category.CARTA_ALTA
    assert value.ranks == (14, 13, 12, 8, 7)


def test_equal_rank_flushes_hearts_beat_spades() -> None:
    hearts, spades = ita("Ah Qh 9h 8h 7h"), ita("As Qs 9s 8s 7s")
    assert compare(hearts, spades) > 0
    assert winners([spades, hearts]) == [1]
    assert winners([spades, hearts], suits=False) == [0, 1]


def test_equal_pairs_the_better_suit_inside_the_pair_wins() -> None:
    # The kickers of the loser have the better suits: only the pair's suits count.
    pair_with_hearts = ita("Kh Kc 9s 8s 7s")
    pair_with_diamonds = ita("Kd Ks 9h 8h 7h")
    assert compare(pair_with_hearts, pair_with_diamonds) > 0
    assert names(pair_with_hearts).startswith("K♥ K♣")


def test_doppia_coppia_suit_tie_break_is_in_the_higher_pair() -> None:
    a = ita("Ah As 8d 8c 9s")
    b = ita("Ad Ac 8h 8s 9h")
    assert compare(a, b) > 0  # A♥ in the higher pair, although b holds 8♥


def test_high_card_and_straight_suit_tie_break_is_the_top_card() -> None:
    assert compare(ita("Ah Qs 9s 8s 7s"), ita("As Qh 9h 8h 7h")) > 0
    assert compare(ita("Jd Tc 9s 8s 7s"), ita("Jc Th 9h 8h 7h")) > 0
    # A minima: its deciding card is the ten, not the ace.
    assert compare(ita("As 7d 8c 9s Th"), ita("Ah 7h 8d 9d Ts")) > 0


def test_kickers_decide_before_suits() -> None:
    assert compare(ita("Ks Kc Qs 8s 7s"), ita("Kh Kd Jh 8h 7h")) > 0


MINIMA = "As 7s 8s 9s Ts"
MEDIA = "9d Td Jd Qd Kd"
MASSIMA = "Ah Kh Qh Jh Th"


def test_the_three_levels_of_scala_reale() -> None:
    assert ita(MINIMA).sf_level == SF_MINIMA
    assert ita(MEDIA).sf_level == SF_MEDIA
    assert ita(MASSIMA).sf_level == SF_MASSIMA
    assert ita("Ah Kd Qc Js Th").sf_level is None


def test_cycle_minima_beats_massima() -> None:
    assert compare(ita(MINIMA), ita(MASSIMA)) > 0
    assert compare(ita(MASSIMA), ita(MINIMA)) < 0


def test_cycle_massima_beats_media() -> None:
    assert compare(ita(MASSIMA), ita(MEDIA)) > 0
    assert compare(ita(MEDIA), ita(MASSIMA)) < 0


def test_cycle_media_beats_minima() -> None:
    assert compare(ita(MEDIA), ita(MINIMA)) > 0
    assert compare(ita(MINIMA), ita(MEDIA)) < 0


def test_two_medie_compare_by_top_card() -> None:
    assert compare(ita("9d Td Jd Qd Kd"), ita("7c 8c 9c Tc Jc")) > 0


def test_three_level_split_among_the_best_of_each_level() -> None:
    hands = [parse_cards(MASSIMA), parse_cards("7c 8c 9c Tc Jc"), parse_cards(MINIMA), parse_cards(MEDIA)]
    hands.append(parse_cards("7d 7h 8d 8h Ks"))  # a doppia coppia, beaten by all of them
    assert showdown(hands, ranking=ITA, lowest_rank=7) == [0, 2, 3]
    values = [evaluate(hand, ranking=ITA, lowest_rank=7) for hand in hands]
    assert winners(values) == [0, 2, 3]


def test_two_levels_have_one_winner() -> None:
    # minima and media: the media wins; minima and massima: the minima wins.
    assert showdown([parse_cards(MINIMA), parse_cards(MEDIA)], ranking=ITA, lowest_rank=7) == [1]
    assert showdown([parse_cards(MASSIMA), parse_cards(MINIMA)], ranking=ITA, lowest_rank=7) == [1]


def test_the_cycle_holds_in_a_36_card_deck() -> None:
    minima, media, massima = "As 6s 7s 8s 9s", "6d 7d 8d 9d Td", "Ah Kh Qh Jh Th"
    hands = [parse_cards(h) for h in (minima, media, massima)]
    assert showdown(hands, ranking=ITA, lowest_rank=6) == [0, 1, 2]
    assert showdown(hands[:2], ranking=ITA, lowest_rank=6) == [1]
    assert showdown([hands[0], hands[2]], ranking=ITA, lowest_rank=6) == [0]


def test_without_suits_equal_italian_ranks_split() -> None:
    hands = [parse_cards("Kh Kc 9s 8s 7s"), parse_cards("Kd Ks 9h 8h 7h"), parse_cards("Qh Qs Ah 8d 7d")]
    assert showdown(hands, ranking=ITA, lowest_rank=7) == [0]
    assert showdown(hands, ranking=ITA, lowest_rank=7, suits=False) == [0, 1]


def test_one_italian_winner_with_suits() -> None:
    hands = [parse_cards("Ah Qs 9s 8s 7s"), parse_cards("As Qh 9h 8h 7h"), parse_cards("Kh Qd Jc 9d 8c")]
    assert showdown(hands, ranking=ITA, lowest_rank=7) == [0]


def test_opening_information_pair_rank_first() -> None:
    value = ita("7h Jd 9c Js 8h")
    assert value.category is Category.COPPIA
    assert value.ranks == (11, 9, 8, 7)
    assert [card.rank for card in value.cards[:2]] == [11, 11]


def test_international_wheel_and_no_suits() -> None:
    wheel = intl("As 2d 3c 4s 5h")
    assert wheel.category is Category.SCALA
    assert names(wheel) == "5♥ 4♠ 3♣ 2♦ A♠"
    assert compare(intl("2s 3d 4c 5s 6h"), wheel) > 0
    assert compare(intl("Ah Qh 9h 8h 7h"), intl("As Qs 9s 8s 7s")) == 0


def test_international_straight_flush_by_top_card_without_cycle() -> None:
    royal, wheel_sf = intl("Ah Kh Qh Jh Th"), intl("As 2s 3s 4s 5s")
    assert compare(royal, wheel_sf) > 0
    assert wheel_sf.category is Category.SCALA_REALE


def test_holdem_best_five_of_seven() -> None:
    value = evaluate(parse_cards("Ah Kh Qh Jh 2c 3d Th"), ranking=INT)
    assert value.category is Category.SCALA_REALE
    assert names(value) == "A♥ K♥ Q♥ J♥ 10♥"
    value = evaluate(parse_cards("9s 9d 9c 4h 4s 4d 2c"), ranking=INT)
    assert value.category is Category.FULL
    assert value.ranks == (9, 4)


def test_holdem_board_plays_and_the_pot_splits() -> None:
    board = parse_cards("Ts Js Qd Kc Ah")  # a broadway on the board
    hands = [parse_cards("2c 3d"), parse_cards("4h 5h"), parse_cards("9c 9d")]
    assert showdown(hands, ranking=INT, lowest_rank=2, board=board) == [0, 1, 2]


def test_holdem_kicker_decides_and_equal_kickers_split() -> None:
    board = parse_cards("Ah 9d 6c 4s 2h")
    hands = [parse_cards("As Kd"), parse_cards("Ac Qd"), parse_cards("Ad Kc")]
    assert showdown(hands, ranking=INT, lowest_rank=2, board=board) == [0, 2]


def test_holdem_counterfeited_two_pair_plays_the_board() -> None:
    board = parse_cards("Kh Kd 8s 8c 5d")
    hands = [parse_cards("4c 4d"), parse_cards("2c 3c")]  # both play K-K-8-8-5
    assert showdown(hands, ranking=INT, lowest_rank=2, board=board) == [0, 1]


def test_holdem_flush_beats_straight_on_the_same_board() -> None:
    board = parse_cards("5h 6h 7c 8h Kd")
    hands = [parse_cards("9c Ts"), parse_cards("2h 3h")]
    assert showdown(hands, ranking=INT, lowest_rank=2, board=board) == [1]


@pytest.mark.parametrize(
    ("hands", "board", "ranking", "message"),
    [
        (["Ah Kh Qh Jh Th", "Ah 7s 8s 9s Ts"], "", ITA, "compare due volte"),
        (["Ah Kh Qh Jh", "As 7s 8s 9s Ts"], "", ITA, "5 carte"),
        (["Ah Kh Qh Jh 6h", "As 7s 8s 9s Ts"], "", ITA, "non fa parte del mazzo"),
        (["Ah Kh", "As Ks"], "2c 3c 4d 9h Kh", INT, "compare due volte"),
        (["Ah Kh", "As Ks"], "7c 8c 9d Jh Qh", ITA, "carte comuni"),
        ([], "", ITA, "almeno una mano"),
    ],
)
def test_showdown_refuses_bad_cards(hands: list[str], board: str, ranking: Ranking, message: str) -> None:
    low = 7 if ranking is ITA else 2
    with pytest.raises(CardError, match=message):
        showdown([parse_cards(h) for h in hands], ranking=ranking, lowest_rank=low, board=parse_cards(board))


def test_compare_refuses_mixed_rankings() -> None:
    with pytest.raises(ValueError):
        compare(ita("Ah Kd 9c 8s 7h"), intl("Ah Kd 9c 8s 7h"))


def test_hand_value_keeps_the_cards_it_was_given() -> None:
    cards = parse_cards("7h Jd 9c Js 8h")
    assert sorted(ita("7h Jd 9c Js 8h").cards) == sorted(cards)
    assert all(isinstance(card, Card) for card in ita("7h Jd 9c Js 8h").cards)
