"""What every variant shares: seating, refusals, timeouts, persistence, privacy, closing."""

from __future__ import annotations

import json
import random

import pytest

from engine.actions import Action
from engine.cards import Card, parse_cards
from engine.errors import EngineError
from engine.events import (
    ActionTaken,
    CardsDealt,
    CardsDrawn,
    HandShown,
    PlayerLeft,
    PlayerSat,
    PlayerSatOut,
    PlayerTimedOut,
    PotAwarded,
    StackReleased,
    Street,
)
from engine.options import Limit, TableOptions, Variant
from engine.table import Table
from tests.engine.table_helpers import K, act, kinds, make_table, of_type, snapshot, stacked

PLAIN = ["Th Ts 7c 8d 9s", "Jh Js 7d 8c Ac", "Qh 7h 8h 9c Kd", "Ad Kc Qc 8s 7s"]

ITALIAN_WORDS = (
    "non",
    "puoi",
    "fiche",
    "turno",
    "carte",
    "carta",
    "mano",
    "mazzo",
    "serve",
    "devi",
    "troppo",
    "hai",
    "sei",
)


def refused(table: Table, call: object) -> str:
    """Run a refused request; check the table did not change and the message is Italian."""
    before = snapshot(table)
    view = table.public_view()
    with pytest.raises(EngineError) as info:
        call()  # type: ignore[operator]
    assert snapshot(table) == before
    assert table.public_view() == view
    message = str(info.value)
    assert message.endswith(".") and message[0].isupper()
    assert any(word in message.lower() for word in ITALIAN_WORDS), message
    return message


def test_refused_actions_change_nothing_and_speak_italian() -> None:
    table = make_table()
    refused(table, lambda: act(table, 2, K.PASSO))  # no hand yet
    refused(table, lambda: table.start_hand(deck=list(parse_cards("Ah")) * 2))
    table.start_hand(deck=stacked(PLAIN))
    assert "turno" in refused(table, lambda: act(table, 3, K.BUIO))
    refused(table, lambda: act(table, 99, K.PASSO))
    refused(table, lambda: act(table, 2, K.APRO, 10))
    refused(table, lambda: act(table, 2, K.BUIO, 21))
    refused(table, table.start_hand)
    refused(table, table.close)
    act(table, 2, K.PASSO)
    refused(table, lambda: act(table, 2, K.APRO, 10))  # tens at J
    act(table, 2, K.PASSO)
    refused(table, lambda: act(table, 3, K.APRO))  # no amount
    refused(table, lambda: act(table, 3, K.APRO, 0))
    refused(table, lambda: act(table, 3, K.APRO, 11))  # over the pot
    refused(table, lambda: act(table, 3, K.PUNTO, 10))
    refused(table, lambda: act(table, 3, K.CAMBIO, cards="Jh"))
    act(table, 3, K.APRO, 10)
    refused(table, lambda: act(table, 4, K.PAROL))
    refused(table, lambda: act(table, 4, K.VEDO, 5))
    refused(table, lambda: act(table, 4, K.RILANCIO, 5))
    refused(table, lambda: act(table, 4, K.RILANCIO, 10_000))
    refused(table, lambda: table.sit(2, 100))
    refused(table, lambda: table.sit(7, 0))
    refused(table, lambda: table.come_back(2))
    for player in (4, 1, 2):
        act(table, player, K.VEDO)
    refused(table, lambda: act(table, 2, K.CAMBIO, cards="Jh"))
    ten = parse_cards("Th")[0]
    refused(table, lambda: table.act(Action(2, K.CAMBIO, None, (ten, ten))))
    refused(table, lambda: act(table, 2, K.SERVITO, cards="Th"))


def test_invalid_options_are_refused_in_italian() -> None:
    for bad in [{"cip": 0}, {"max_cambio": 6}, {"variant": "omaha"}, {"limite": "fisso"}, {"timeout": 1}]:
        with pytest.raises(EngineError):
            TableOptions(**bad)  # type: ignore[arg-type]


def test_table_is_full_at_the_variant_maximum() -> None:
    table = make_table("32carte", players=5)
    with pytest.raises(EngineError, match="pieno"):
        table.sit(6, 100)


def test_a_hand_needs_two_players() -> None:
    table = make_table(players=1)
    with pytest.raises(EngineError, match="almeno 2 giocatori"):
        table.start_hand()
    assert not table.public_view().can_start


def test_sitting_during_a_hand_waits_for_the_next() -> None:
    table = make_table("texas", players=2)
    table.start_hand()
    events = table.sit(3, 500)
    assert of_type(events, PlayerSat)[0].waits
    assert table.cards_of(3) == ()
    while table.hand_running:
        act(table, table.to_act or 0, K.PASSO if K.PASSO in kinds(table) else K.PAROL)
    table.start_hand()
    assert len(table.cards_of(3)) == 2


def test_leaving_mid_hand_folds_at_once_and_frees_the_seat_at_the_end() -> None:
    table = make_table("texas", players=3)
    table.start_hand()
    total = table.total_chips()
    events = table.leave(3)  # the big blind, not his turn
    assert [(r.player, r.amount) for r in of_type(events, StackReleased)] == [(3, 990)]
    assert of_type(events, ActionTaken)[0].kind is K.PASSO
    assert table.total_chips() == total - 990
    assert any(s.player == 3 and s.leaving for s in table.public_view().seats)
    act(table, 1, K.VEDO)
    events = act(table, 2, K.VEDO)
    assert table.street is Street.FLOP
    while table.hand_running:
        events = act(table, table.to_act or 0, K.PAROL)
    assert [e.player for e in of_type(events, PlayerLeft)] == [3]
    assert 3 not in table.seats()


def test_leaving_leaves_one_player_who_wins() -> None:
    table = make_table("texas", players=2)
    table.start_hand()
    events = table.leave(2)
    assert of_type(events, PotAwarded)[0].winners == (1,)
    assert not table.hand_running
    assert table.seats() == {1: 1010}


def test_leaving_on_your_turn_passes_the_turn() -> None:
    table = make_table("texas", players=3)
    table.start_hand()
    table.leave(1)
    assert table.to_act == 2


def test_timeout_checks_when_possible_otherwise_folds() -> None:
    table = make_table("texas", players=3)
    table.start_hand()
    events = table.timeout()  # facing the big blind: folds
    assert of_type(events, PlayerTimedOut)[0].kind is K.PASSO
    act(table, 2, K.VEDO)
    events = table.timeout()  # the big blind may check
    assert of_type(events, PlayerTimedOut)[0].kind is K.PAROL
    assert table.street is Street.FLOP


def test_timeout_declines_the_buio() -> None:
    table = make_table(players=3)
    table.start_hand()
    assert of_type(table.timeout(), PlayerTimedOut)[0].kind is K.PASSO
    assert table.street is Street.APERTURA


def test_timeout_passes_the_opening_without_folding_and_stands_pat_in_the_draw() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    act(table, 2, K.PASSO)  # no buio
    assert of_type(table.timeout(), PlayerTimedOut)[0].kind is K.PASSO
    act(table, 3, K.APRO, 10)
    for player in (4, 1):
        act(table, player, K.VEDO)
    assert table.to_act == 2  # still holds cards
    act(table, 2, K.VEDO)
    assert table.to_act == 2
    assert of_type(table.timeout(), PlayerTimedOut)[0].kind is K.SERVITO
    assert table.public_view().seats[1].cards_drawn == 0


def test_two_timeouts_in_a_row_sit_the_player_out() -> None:
    table = make_table("texas", players=3)
    table.start_hand()
    table.timeout()  # player 1 folds
    while table.hand_running:
        act(table, table.to_act or 0, K.PASSO if K.PASSO in kinds(table) and table.to_act == 2 else K.PAROL)
    table.start_hand()  # dealer 2: 3 small blind, 1 big blind, 2 acts first
    act(table, 2, K.VEDO)
    act(table, 3, K.VEDO)
    events = table.timeout()  # player 1 again: checks, and sits out
    assert of_type(events, PlayerSatOut)[0].timeouts
    assert any(s.player == 1 and s.sitting_out for s in table.public_view().seats)
    assert table.street is Street.FLOP
    act(table, 3, K.PAROL)
    assert table.to_act == 2  # his later turns are played at once: he checked
    while table.hand_running:
        act(table, table.to_act or 0, K.PAROL)
    table.start_hand()
    assert table.cards_of(1) == ()
    table.come_back(1)
    assert not any(s.sitting_out for s in table.public_view().seats)


def test_acting_resets_the_timeout_count() -> None:
    table = make_table("texas", players=2)
    table.start_hand()
    table.timeout()
    table.start_hand()
    act(table, 2, K.VEDO)  # player 2 is the button now and acts first
    act(table, 1, K.PAROL)
    act(table, 1, K.PAROL)
    table.timeout()  # player 2: first timeout after a real action
    assert not any(s.sitting_out for s in table.public_view().seats)


def test_player_with_no_chips_is_removed_when_the_hand_ends() -> None:
    table = Table(TableOptions(variant=Variant.TEXAS, limite=Limit.NOLIMIT), rng=random.Random(1))
    table.sit(1, 100)
    table.sit(2, 100)
    table.start_hand(deck=stacked(["7c 2d", "Ah Ad"], "3h Kc Ks 9d 4s 8h 5c Qd"))
    act(table, 1, K.RILANCIO, 90)
    events = act(table, 2, K.VEDO)
    assert [(e.player, e.busted) for e in of_type(events, PlayerLeft)] == [(2, True)]
    assert table.seats() == {1: 200}


def test_private_cards_only_in_private_events_until_showdown() -> None:
    table = make_table()
    events = table.start_hand(deck=stacked(PLAIN))
    events += act(table, 2, K.PASSO)
    for player in (2,):
        events += act(table, player, K.PASSO)
    events += act(table, 3, K.APRO, 10)
    for player in (4, 1, 2):
        events += act(table, player, K.VEDO)
    events += act(table, 2, K.CAMBIO, cards="7c")
    for event in events:
        if isinstance(event, (CardsDealt, CardsDrawn)):
            assert event.private_to == event.player
        else:
            assert event.private_to is None
            assert "cards" not in type(event).__dataclass_fields__ or isinstance(event, HandShown)


def test_to_dict_round_trips_through_json_between_hands() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    for player in (2, 2, 3, 4, 1):
        act(table, player, K.PASSO)
    data = json.loads(json.dumps(table.to_dict()))
    restored = Table.from_dict(data, rng=random.Random(7))
    assert restored.to_dict() == table.to_dict()
    assert restored.public_view() == table.public_view()
    assert restored.public_view().carried == 10 and restored.public_view().opening_level == 12


def test_to_dict_during_a_hand_is_the_start_of_hand_state() -> None:
    table = make_table()
    before = table.to_dict()
    table.start_hand()
    assert table.to_dict() == before
    restored = Table.from_dict(table.to_dict())
    assert not restored.hand_running
    assert restored.total_chips() == 4000


def test_close_returns_stacks_and_the_carried_pot_to_who_put_it_in() -> None:
    table = make_table()
    for _ in range(2):
        table.start_hand()
        if table.street is Street.BUIO:
            act(table, table.to_act or 0, K.PASSO)
        while table.hand_running:
            act(table, table.to_act or 0, K.PASSO)
    # Dealers 1 and 2 each put a 10-chip invito in the carried pot.
    assert table.public_view().carried == 20
    home = table.close()
    assert home == {1: 1000, 2: 1000, 3: 1000, 4: 1000}
    assert sum(home.values()) == 4000
    assert table.seats() == {}


def test_close_splits_the_carried_pot_in_proportion() -> None:
    table = make_table(invito=5)
    table.start_hand()
    act(table, 2, K.PASSO)
    for player in (2, 3, 4, 1):
        act(table, player, K.PASSO)
    table.leave(1)  # the only contributor leaves: his share is forfeited to those who stay
    home = table.close()
    assert sum(home.values()) == 3000 + 5
    assert home == {2: 1002, 3: 1002, 4: 1001}


def test_close_of_a_table_everyone_left_gives_the_carried_pot_back_to_who_put_it_in() -> None:
    # House rule (docs/rules.md §5.1): a leaver gives up his share to the players still seated; when
    # nobody is left, the pot goes back to its contributors, so that the table can still be closed.
    table = make_table(invito=5)
    for _ in range(2):  # dealers 1 and 2 each put a 5-chip invito in; everybody says paròl
        table.start_hand()
        while table.hand_running:
            act(table, table.to_act or 0, K.PASSO)
    assert table.public_view().carried == 10
    for player in (1, 2, 3, 4):
        table.leave(player)
    assert table.close() == {1: 5, 2: 5}
    assert table.public_view().carried == 0


def test_legal_actions_give_the_amount_ranges() -> None:
    table = make_table("texas", players=3, limite="nolimit")
    assert table.legal_actions() == ()
    table.start_hand()
    legal = table.legal_actions()
    assert [la.kind for la in legal] == [K.PASSO, K.VEDO, K.RILANCIO]
    assert (legal[1].min, legal[1].max) == (10, 10)
    assert (legal[2].min, legal[2].max) == (10, 990)


def test_the_apro_word_is_always_offered_so_buttons_reveal_nothing() -> None:
    table = make_table()
    table.start_hand(deck=stacked(PLAIN))
    act(table, 2, K.PASSO)
    assert K.APRO in kinds(table)  # player 2 holds only tens: refused on use, privately


def test_chips_are_conserved_over_many_random_hands() -> None:
    for variant, players in [("italiana", 5), ("32carte", 4), ("texas", 6)]:
        rng = random.Random(11)
        table = Table(TableOptions(variant=variant, over=True), rng=random.Random(5))  # type: ignore[arg-type]
        for player in range(1, players + 1):
            table.sit(player, 300)
        total = table.total_chips()
        for _ in range(60):
            if not table.can_start():
                break
            table.start_hand()
            while table.hand_running:
                legal = table.legal_actions()
                choice = rng.choice(legal)
                amount = (
                    rng.randint(choice.min, choice.max)
                    if choice.kind in (K.APRO, K.PUNTO, K.RILANCIO)
                    else None
                )
                cards: tuple[Card, ...] = ()
                if choice.kind is K.CAMBIO:
                    cards = tuple(rng.sample(table.cards_of(table.to_act or 0), rng.randint(1, choice.max)))
                try:
                    table.act(Action(table.to_act or 0, choice.kind, amount, cards))
                except EngineError:
                    table.act(Action(table.to_act or 0, K.PASSO))
                assert table.total_chips() == total


def test_sitting_out_during_a_hand_plays_his_turns_at_once() -> None:
    table = make_table("texas", players=3)
    table.start_hand()
    events = table.sit_out(1)  # his turn, facing the big blind: folds
    assert [(a.player, a.kind) for a in of_type(events, ActionTaken)] == [(1, K.PASSO)]
    assert table.to_act == 2
