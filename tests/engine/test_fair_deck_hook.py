"""The engine's hook for the provably fair deck: ``start_hand(committed=..., reshuffle_rng=...)``.

A table as the bot builds it (``secrets.SystemRandom``, several hands in a row, the dealer moving)
deals each hand from a fresh commitment; ``engine.fairness.deal_plan``, which knows only the reveal
string, the variant and the number of players, must say card for card what the table dealt: the
hands, the texas board, the draw and the reshuffle of the discards.
"""

from __future__ import annotations

import random
import secrets

import pytest

from engine.actions import Action, ActionKind
from engine.cards import Card, deck, parse_cards
from engine.errors import BadDeck, EngineError
from engine.events import CardsDealt, CardsDrawn, DiscardsReshuffled, Event, HandStarted, StreetStarted
from engine.events import Street as S
from engine.fairness import deal_plan, new_deck_commitment, parse_reveal, reshuffle_rng
from engine.options import TableOptions, Variant
from engine.table import Table

K = ActionKind


def _act(table: Table, events: list[Event], draws: dict[int, tuple[Card, ...] | None]) -> None:
    """One neutral word for the player to act: the buio when offered (so the draw needs no
    opener), the draw given in ``draws`` (None: he folds in the first round), else call or check."""
    pid = table.to_act
    assert pid is not None
    legal = {a.kind: a for a in table.legal_actions()}
    street = table.street
    if street is S.BUIO:
        events += table.act(Action(pid, K.BUIO if K.BUIO in legal else K.PASSO))
    elif street is S.APERTURA:
        try:
            events += table.act(Action(pid, K.APRO, legal[K.APRO].min))
        except EngineError:  # his hand does not qualify: the refusal changes nothing
            events += table.act(Action(pid, K.PASSO))
    elif street is S.CAMBIO:
        cards = draws.get(pid) or ()
        kind = K.CAMBIO if cards else K.SERVITO
        events += table.act(Action(pid, kind, len(cards) or None, cards))
    elif pid in draws and draws[pid] is None and K.PASSO in legal and street is not S.SECONDO_GIRO:
        events += table.act(Action(pid, K.PASSO))
    else:
        events += table.act(Action(pid, K.VEDO if K.VEDO in legal else K.PAROL))


def _by_position(events: list[Event], players: tuple[int, ...]) -> list[tuple[Card, ...]]:
    position = {pid: i for i, pid in enumerate(players)}
    hands: list[tuple[Card, ...]] = [() for _ in players]
    for event in events:
        if isinstance(event, CardsDealt):
            hands[position[event.player]] = event.cards
    return hands


def _play_committed_hand(table: Table, variant: Variant) -> tuple[int, bool, bool]:
    """One whole hand from a fresh commitment, checked against the plan; returns the players dealt
    in, whether there was a draw (a hand nobody opens has none) and whether the discards were
    reshuffled."""
    commitment = new_deck_commitment()
    reveal = parse_reveal(commitment.reveal)
    events = table.start_hand(committed=reveal.cards, reshuffle_rng=reshuffle_rng(reveal.salt))
    started = next(e for e in events if isinstance(e, HandStarted))
    players = started.players
    plan = deal_plan(commitment.reveal, table.options, len(players))
    draws: dict[int, tuple[Card, ...] | None] = {}
    if variant is not Variant.TEXAS:
        draws[players[2]] = None  # the third player folds in the first round
    for _ in range(400):
        if table.to_act is None:
            break
        if table.street is S.CAMBIO and len(draws) == 1:
            # Everyone else changes three cards: more than the stub holds.
            draws.update({pid: table.cards_of(pid)[:3] for pid in players if pid != players[2]})
        _act(table, events, draws)
    assert not table.hand_running
    assert _by_position(events, players) == list(plan.hands), "the hands come from the reveal"
    reshuffled = any(isinstance(e, DiscardsReshuffled) for e in events)
    if variant is Variant.TEXAS:
        board = [card for e in events if isinstance(e, StreetStarted) for card in e.board]
        assert tuple(board) == plan.board, "the board comes from the reveal"
        return len(players), False, reshuffled
    if len(draws) == 1:
        return len(players), False, reshuffled
    by_position = [draws[pid] for pid in players]
    drawn = deal_plan(commitment.reveal, table.options, len(players), by_position)
    assert drawn.draw is not None
    position = {pid: i + 1 for i, pid in enumerate(players)}
    received = {position[e.player]: e.received for e in events if isinstance(e, CardsDrawn) and e.received}
    assert received == {d.position: d.received for d in drawn.draw if d.received}
    live = [tuple(Card.from_code(c) for c in reversed(r)) for r in table.hand_record()["reshuffles"]]
    assert live == list(drawn.reshuffles), "the reshuffle is fixed by the reveal's salt"
    return len(players), True, reshuffled


@pytest.mark.parametrize(
    ("variant", "players"), [(Variant.ITALIANA, 5), (Variant.TRENTADUE, 5), (Variant.TEXAS, 4)]
)
def test_a_bot_style_table_deals_every_hand_as_the_deal_plan_says(variant: Variant, players: int) -> None:
    table = Table(TableOptions(variant=variant), rng=secrets.SystemRandom())
    for pid in range(1, players + 1):
        table.sit(pid, 100_000)
    dealers = set()
    hands = draws = reshuffles = 0
    while hands < 4 or (variant is not Variant.TEXAS and draws < 3 and hands < 20):
        dealt, drew, reshuffled = _play_committed_hand(table, variant)
        assert dealt == players
        dealers.add(table.public_view().dealer)
        hands += 1
        draws += drew
        reshuffles += reshuffled
    assert len(dealers) >= 4, "the button moved: the hands had other positions"
    if variant is not Variant.TEXAS:
        assert draws >= 3, "most hands get opened"
        assert reshuffles == draws, "12 cards asked of a stub of 11 (italiana) or 7 (32carte)"
    assert table.total_chips() == players * 100_000


def test_the_hand_after_a_committed_one_shuffles_with_the_tables_own_generator() -> None:
    own = random.Random(7)
    table = Table(TableOptions(variant=Variant.TEXAS), rng=own)
    for pid in (1, 2):
        table.sit(pid, 1000)
    reveal = parse_reveal(new_deck_commitment().reveal)
    table.start_hand(committed=reveal.cards, reshuffle_rng=reshuffle_rng(reveal.salt))
    table.leave(table.to_act or 0)
    table.sit(3, 1000)
    state = own.getstate()
    table.start_hand()
    assert own.getstate() != state, "a plain hand draws its shuffle from the table's generator"
    assert table._hand_rng is None, "the committed hand's generator is gone with its hand"


def test_a_committed_deck_must_hold_every_card_of_the_hand_and_comes_alone() -> None:
    table = Table(TableOptions(), rng=random.Random(1))
    for pid in range(1, 7):
        table.sit(pid, 1000)
    before = table.to_dict()
    thirty_two = [card for card in deck(52) if card.rank >= 7]
    with pytest.raises(BadDeck):
        table.start_hand(committed=thirty_two)  # six players play with 40 cards, from the 5s
    with pytest.raises(BadDeck):
        table.start_hand(deck=parse_cards("Ah Kh"), committed=deck(52))
    assert table.to_dict() == before and not table.hand_running
    events = table.start_hand(committed=deck(52))
    started = next(e for e in events if isinstance(e, HandStarted))
    assert started.deck_size == 40
