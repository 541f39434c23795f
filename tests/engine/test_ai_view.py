"""The computer player's view: exactly what a human in the seat sees, as plain values."""

from __future__ import annotations

import dataclasses
import enum

from engine.actions import Action, BetSizes, LegalAction
from engine.ai.view import Habit, HandLog, PlayerView, view_for
from engine.cards import Card
from engine.events import CardsDealt, Event, HandStarted
from engine.ranking import Ranking
from engine.table import SeatView, TableView
from tests.engine.table_helpers import K, act, make_table, stacked

ALLOWED_FIELDS = {
    "player",
    "variant",
    "limit",
    "ranking",
    "deck_size",
    "lowest_rank",
    "max_draw",
    "cip",
    "invito",
    "cards",
    "table",
    "legal",
    "bet_sizes",
    "history",
    "habits",
}
# Every value object a view may hold: frozen dataclasses of the engine's public vocabulary.
VALUE_TYPES = (TableView, SeatView, LegalAction, BetSizes, Card, Event, Habit)


def walk(value: object, path: str = "view") -> None:
    """Fail on anything reachable from a view that is not a plain value."""
    if value is None or isinstance(value, (bool, int, float, str, enum.Enum)):
        return
    if isinstance(value, tuple):
        for i, item in enumerate(value):
            walk(item, f"{path}[{i}]")
        return
    assert dataclasses.is_dataclass(value) and not isinstance(value, type), f"{path}: {type(value)}"
    assert isinstance(value, (PlayerView, *VALUE_TYPES)), f"{path}: {type(value).__name__}"
    params = type(value).__dataclass_params__  # type: ignore[attr-defined]
    assert params.frozen, f"{path}: {type(value).__name__} is not frozen"
    for field in dataclasses.fields(value):
        walk(getattr(value, field.name), f"{path}.{field.name}")


def test_view_fields_are_exactly_the_allowed_set() -> None:
    assert {f.name for f in dataclasses.fields(PlayerView)} == ALLOWED_FIELDS
    assert PlayerView.__dataclass_params__.frozen  # type: ignore[attr-defined]


def test_nothing_but_plain_values_is_reachable_from_a_view() -> None:
    for variant in ("italiana", "32carte", "texas"):
        table = make_table(variant, players=4)
        log = HandLog()
        log.feed(table.start_hand())
        for _ in range(3):
            player = table.to_act
            assert player is not None
            view = log.view(table, player)
            walk(view)
            assert not any(isinstance(v, (list, dict, set)) for v in vars_of(view))
            legal = view.legal[-1] if view.legal[-1].kind is not K.CAMBIO else view.legal[0]
            log.feed(table.act(_plain_action(player, legal)))


def vars_of(view: PlayerView) -> list[object]:
    return [getattr(view, f.name) for f in dataclasses.fields(view)]


def _plain_action(player: int, legal: LegalAction) -> Action:
    kind = legal.kind
    if kind in (K.PASSO, K.PAROL, K.SERVITO, K.VEDO):
        return Action(player, kind)
    return Action(player, K.PASSO)


def _italiana_after_two_passes(hands: list[str]) -> tuple[PlayerView, PlayerView]:
    table = make_table("italiana", players=4)
    log = HandLog()
    log.feed(table.start_hand(deck=stacked(hands)))
    log.feed(act(table, 2, K.PASSO))  # declines the buio
    log.feed(act(table, 2, K.PASSO))  # passes the opening
    return log.view(table, 3), log.view(table, 2)


def test_other_players_hidden_cards_do_not_change_the_view() -> None:
    # Player 3's cards are the same; players 2, 4 and 1 hold different hands in the two deals.
    first, _ = _italiana_after_two_passes(
        ["Th Ts 7c 8d 9s", "Jh Js 7d 8c Ac", "Qh 7h 8h 9c Kd", "Ad Kc Qc 8s 7s"]
    )
    second, _ = _italiana_after_two_passes(
        ["Ad Kc Qc 8s 7s", "Jh Js 7d 8c Ac", "Th Ts 7c 8d 9s", "Qh 7h 8h 9c Kd"]
    )
    assert first == second
    assert [c.ascii for c in first.cards] == ["Jh", "Js", "7d", "8c", "Ac"]


def test_history_holds_public_events_and_his_own_cards_only() -> None:
    view, other = _italiana_after_two_passes(
        ["Th Ts 7c 8d 9s", "Jh Js 7d 8c Ac", "Qh 7h 8h 9c Kd", "Ad Kc Qc 8s 7s"]
    )
    dealt = [e for e in view.history if isinstance(e, CardsDealt)]
    assert [e.player for e in dealt] == [3]
    assert all(e.private_to in (None, 3) for e in view.history)
    assert isinstance(view.history[0], HandStarted)
    assert {la.kind for la in view.legal} == {K.APRO, K.PASSO}  # player 3 is to act
    assert other.legal == ()  # not his turn: no words offered
    assert view.ranking is Ranking.ITALIANA and view.deck_size == 32 and view.lowest_rank == 7


def test_legal_words_and_named_sizes_are_the_tables() -> None:
    table = make_table("texas", players=3, limite="potlimit")
    events = table.start_hand()
    player = table.to_act
    assert player is not None
    view = view_for(table, player, events)
    assert view.legal == table.legal_actions()
    assert dict(view.bet_sizes) == {
        la.kind: table.bet_sizes(la.kind) for la in table.legal_actions() if table.bet_sizes(la.kind)
    }
    assert view.cards == table.cards_of(player) and view.ranking is Ranking.INTERNAZIONALE


def test_the_log_forgets_the_previous_hand() -> None:
    table = make_table("texas", players=2)
    log = HandLog()
    log.feed(table.start_hand())
    while table.hand_running:
        player = table.to_act
        assert player is not None
        log.feed(
            act(table, player, K.PASSO if K.PASSO in {la.kind for la in table.legal_actions()} else K.PAROL)
        )
    log.feed(table.start_hand())
    starts = [e for e in log.events if isinstance(e, HandStarted)]
    assert len(starts) == 1 and starts[0].hand_number == 2


def test_view_for_filters_other_players_private_events() -> None:
    table = make_table("32carte", players=3)
    events = table.start_hand()
    assert sum(isinstance(e, CardsDealt) for e in events) == 3
    view = view_for(table, 1, events)
    assert [e.private_to for e in view.history if isinstance(e, CardsDealt)] == [1]


def test_habits_count_the_betting_rounds_only_across_hands() -> None:
    table = make_table("italiana", players=4)
    log = HandLog()
    everything: list[Event] = []

    def feed(events: list[Event]) -> None:
        log.feed(events)
        everything.extend(events)

    feed(
        table.start_hand(
            deck=stacked(["Th Ts 7c 8d 9s", "Jh Js 7d 8c Ac", "Qh 7h 8h 9c Kd", "Ad Kc Qc 8s 7s"])
        )
    )
    feed(act(table, 2, K.PASSO))  # declines the buio: not a betting word
    feed(act(table, 2, K.PASSO))  # passes the opening: not a fold
    feed(act(table, 3, K.APRO, 10))  # the opening: not counted either
    feed(act(table, 4, K.RILANCIO, 10))
    feed(act(table, 1, K.PASSO))
    feed(act(table, 2, K.VEDO))
    view = log.view(table, 3)
    assert view.habit_of(4) == Habit(4, 1, 0, 0)
    assert view.habit_of(1) == Habit(1, 0, 0, 1)
    assert view.habit_of(2) == Habit(2, 0, 1, 0)
    assert view.habit_of(3) is None
    assert view_for(table, 3, everything).habits == view.habits  # one count, whoever keeps it
    while table.hand_running:  # the rest of the hand: everyone gives up or checks
        player = table.to_act or 0
        words = {la.kind for la in table.legal_actions()}
        feed(
            act(table, player, K.SERVITO if K.SERVITO in words else K.PAROL if K.PAROL in words else K.PASSO)
        )
    feed(table.start_hand())
    later = log.view(table, 3)
    assert later.habits == view_for(table, 3, everything).habits
    assert sum(h.actions for h in later.habits) >= sum(h.actions for h in view.habits)
