"""Typed refusals: each request the engine refuses raises its own ``EngineError`` subclass, with
the fields the Discord layer renders, the Italian sentence unchanged, and the table untouched."""

from __future__ import annotations

import pytest

from engine.actions import Action, ActionKind
from engine.cards import Card, parse_cards
from engine.errors import (
    AlreadySeated,
    AmountOutOfRange,
    AmountRequired,
    BadDeck,
    BadSavedState,
    EngineError,
    HandInProgress,
    IllegalAction,
    InvalidDraw,
    InvalidOptions,
    NoHandRunning,
    NotEnoughPlayers,
    NotSeated,
    NotYourTurn,
    OpeningNotAllowed,
    TableFull,
    UnknownWord,
)
from engine.history import replay
from engine.options import TableOptions, Variant
from engine.table import Table
from tests.engine.table_helpers import make_table, snapshot, stacked

K = ActionKind


def _refused(table: Table, error: type[EngineError], call: object) -> EngineError:
    """Run ``call``, expect ``error``, and check the table did not change."""
    before = snapshot(table)
    with pytest.raises(error) as caught:
        call()  # type: ignore[operator]
    assert snapshot(table) == before
    assert isinstance(caught.value, EngineError) and isinstance(caught.value, ValueError)
    return caught.value


def _texas_on_the_flop() -> Table:
    table = make_table("texas", players=3)
    table.start_hand(deck=stacked(["2c 3c", "4d 5d", "7h 9s"], "Kc Qd Jh Tc 8d 6s 2h 3h"))
    return table


def test_not_seated() -> None:
    table = make_table()
    error = _refused(table, NotSeated, lambda: table.leave(99))
    assert str(error) == "Non sei seduto a questo tavolo."
    table.start_hand()
    _refused(table, NotSeated, lambda: table.act(Action(99, K.PASSO)))


def test_leaving_twice_during_a_hand_is_not_seated() -> None:
    table = make_table(players=4)
    table.start_hand()
    table.leave(3)
    error = _refused(table, NotSeated, lambda: table.leave(3))
    assert "Hai già lasciato il tavolo" in str(error)


def test_already_seated_sitting_out_or_in_game() -> None:
    table = make_table()
    _refused(table, AlreadySeated, lambda: table.sit(1, 100))
    _refused(table, AlreadySeated, lambda: table.come_back(1))
    table.sit_out(1)
    error = _refused(table, AlreadySeated, lambda: table.sit_out(1))
    assert str(error) == "Sei già fuori dal gioco."


def test_table_full_carries_the_seats() -> None:
    table = make_table("32carte", players=5)
    error = _refused(table, TableFull, lambda: table.sit(6, 100))
    assert isinstance(error, TableFull) and error.seats == 5
    assert str(error) == "Il tavolo è pieno: al massimo 5 giocatori."


def test_a_stack_must_be_a_positive_whole_number() -> None:
    table = make_table()
    _refused(table, AmountRequired, lambda: table.sit(9, 0))
    _refused(table, AmountRequired, lambda: table.sit(9, True))


def test_no_hand_running() -> None:
    table = make_table()
    error = _refused(table, NoHandRunning, lambda: table.act(Action(1, K.PASSO)))
    assert str(error) == "Non c'è nessuna mano in corso."
    _refused(table, NoHandRunning, table.timeout)
    _refused(table, NoHandRunning, table.hand_record)


def test_hand_in_progress() -> None:
    table = make_table()
    table.start_hand()
    _refused(table, HandInProgress, table.start_hand)
    _refused(table, HandInProgress, table.close)


def test_not_enough_players() -> None:
    table = make_table(players=1)
    error = _refused(table, NotEnoughPlayers, table.start_hand)
    assert str(error) == "Servono almeno 2 giocatori in gioco per dare le carte."


def test_not_your_turn_names_whose_turn_it_is() -> None:
    table = _texas_on_the_flop()
    to_act = table.to_act
    assert to_act is not None
    other = next(p for p in table.seats() if p != to_act)
    error = _refused(table, NotYourTurn, lambda: table.act(Action(other, K.VEDO)))
    assert isinstance(error, NotYourTurn) and error.to_act == to_act
    assert str(error) == "Non è il tuo turno."


def test_unknown_word_carries_the_word() -> None:
    table = _texas_on_the_flop()
    player = table.to_act
    assert player is not None
    error = _refused(table, UnknownWord, lambda: table.act(Action(player, "boh")))  # type: ignore[arg-type]
    assert isinstance(error, UnknownWord) and error.word == "boh"


def test_illegal_action_lists_the_legal_words() -> None:
    table = _texas_on_the_flop()
    player = table.to_act
    assert player is not None
    error = _refused(table, IllegalAction, lambda: table.act(Action(player, K.SERVITO)))
    assert isinstance(error, IllegalAction)
    assert error.kind == "servito"
    assert error.legal == tuple(str(la.kind) for la in table.legal_actions()) == ("passo", "vedo", "rilancio")
    assert str(error) == "Adesso non puoi dire «servito»: puoi dire passo, vedo, rilancio."


def test_amount_required() -> None:
    table = _texas_on_the_flop()
    player = table.to_act
    assert player is not None
    error = _refused(table, AmountRequired, lambda: table.act(Action(player, K.RILANCIO)))
    assert str(error) == "Devi dire quante fiches."
    _refused(table, AmountRequired, lambda: table.act(Action(player, K.RILANCIO, 2.5)))  # type: ignore[arg-type]


def test_amount_out_of_range_carries_the_legal_range() -> None:
    table = make_table("texas", players=3, limite="nolimit")
    table.start_hand()
    player = table.to_act
    assert player is not None
    legal = next(la for la in table.legal_actions() if la.kind is K.RILANCIO)
    low = _refused(table, AmountOutOfRange, lambda: table.act(Action(player, K.RILANCIO, legal.min - 1)))
    assert isinstance(low, AmountOutOfRange) and (low.minimum, low.maximum) == (legal.min, legal.max)
    assert str(low) == f"Troppo poco: il rilancio minimo è di {legal.min} fiches."
    high = _refused(table, AmountOutOfRange, lambda: table.act(Action(player, K.RILANCIO, legal.max + 1)))
    assert isinstance(high, AmountOutOfRange) and high.maximum == legal.max
    call = next(la for la in table.legal_actions() if la.kind is K.VEDO)
    fixed = _refused(table, AmountOutOfRange, lambda: table.act(Action(player, K.VEDO, call.min + 1)))
    assert isinstance(fixed, AmountOutOfRange) and fixed.minimum == fixed.maximum == call.min


def test_opening_not_allowed_carries_the_level() -> None:
    table = make_table("italiana", players=2)
    hands = ["9c Td Qh Kc As", "9d Th Jc Qd Ks"]
    table.start_hand(deck=stacked(hands))
    player = table.to_act
    assert player is not None
    error = _refused(table, OpeningNotAllowed, lambda: table.act(Action(player, K.APRO, 10)))
    assert isinstance(error, OpeningNotAllowed) and error.level == 11
    assert "coppia di jack" in str(error)


def test_invalid_draw() -> None:
    table = make_table("32carte", players=2)
    table.start_hand(deck=stacked(["7c 8d 9h Jc Ks", "7d 8h 9c Qd As"]))
    while table.street is not None and str(table.street) != "cambio":
        player = table.to_act
        assert player is not None
        kinds = {la.kind for la in table.legal_actions()}
        table.act(Action(player, K.VEDO if K.VEDO in kinds else K.PAROL))
    player = table.to_act
    assert player is not None
    hand = table.cards_of(player)
    _refused(table, InvalidDraw, lambda: table.act(Action(player, K.CAMBIO)))
    _refused(table, InvalidDraw, lambda: table.act(Action(player, K.CAMBIO, cards=(hand[0], hand[0]))))
    _refused(table, InvalidDraw, lambda: table.act(Action(player, K.CAMBIO, cards=tuple(parse_cards("Ah")))))
    _refused(table, InvalidDraw, lambda: table.act(Action(player, K.SERVITO, cards=(hand[0],))))


def test_bad_deck() -> None:
    table = make_table("32carte", players=2)
    ace = Card.from_code(14 * 4)
    _refused(table, BadDeck, lambda: table.start_hand(deck=[ace, ace]))
    error = _refused(table, BadDeck, lambda: table.start_hand(deck=parse_cards("2c")))
    assert str(error) == "La carta 2♣ non fa parte del mazzo da 32 carte."


def test_bad_saved_state() -> None:
    table = make_table()
    state = dict(table.to_dict())
    with pytest.raises(BadSavedState):
        Table.from_dict({**state, "version": 99})
    with pytest.raises(BadSavedState):
        Table.from_dict({k: v for k, v in state.items() if k != "seats"})
    with pytest.raises(BadSavedState):
        Table.from_dict({**state, "options": {"variant": "briscola"}})
    with pytest.raises(BadSavedState):
        replay({"start": state})


def test_invalid_options() -> None:
    with pytest.raises(InvalidOptions) as caught:
        TableOptions(variant=Variant.TEXAS, cip=1)
    assert str(caught.value) == "Nel texas il cip (il grande buio) deve essere almeno 2 fiches."
    with pytest.raises(InvalidOptions):
        TableOptions.from_dict({"colore": "verde"})
