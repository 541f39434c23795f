"""Hand records replay exactly: same events, same end state, through JSON."""

from __future__ import annotations

import json
import random

import pytest

from engine.actions import Action, ActionKind
from engine.cards import Card
from engine.errors import EngineError
from engine.history import replay
from engine.options import TableOptions
from engine.table import Table

K = ActionKind


def _random_hand(table: Table, rng: random.Random) -> list[object]:
    events: list[object] = list(table.start_hand())
    while table.hand_running:
        if rng.random() < 0.05:
            events += table.timeout()
            continue
        if rng.random() < 0.02 and table.to_act is not None:
            events += table.leave(table.to_act)
            continue
        legal = table.legal_actions()
        choice = rng.choice(legal)
        amount = rng.randint(choice.min, choice.max) if choice.kind in (K.APRO, K.PUNTO, K.RILANCIO) else None
        player = table.to_act or 0
        cards: tuple[Card, ...] = ()
        if choice.kind is K.CAMBIO:
            cards = tuple(rng.sample(table.cards_of(player), rng.randint(1, choice.max)))
        try:
            events += table.act(Action(player, choice.kind, amount, cards))
        except EngineError:
            events += table.act(Action(player, K.PASSO))
    return events


@pytest.mark.parametrize(
    ("variant", "players"), [("italiana", 5), ("italiana", 9), ("32carte", 5), ("texas", 6), ("texas", 2)]
)
def test_recorded_hands_replay_exactly(variant: str, players: int) -> None:
    rng = random.Random(players)
    options = TableOptions(variant=variant, over=True, controcontrobuio=True)  # type: ignore[arg-type]
    table = Table(options, rng=random.Random(99))
    for player in range(1, players + 1):
        table.sit(player, 2000)
    replayed = 0
    newcomer = 100
    for _ in range(25):
        for seat in table.public_view().seats:
            if seat.sitting_out:
                table.come_back(seat.player)
        while not table.can_start():
            newcomer += 1
            table.sit(newcomer, 2000)
        events = _random_hand(table, rng)
        record = json.loads(json.dumps(table.hand_record()))
        again, again_events = replay(record)
        assert again.to_dict() == table.to_dict() == record["end"]
        assert again_events == events
        replayed += 1
    assert replayed == 25


def test_replay_reproduces_a_reshuffle_of_the_discards() -> None:
    # Nine players on 52 cards: 7 left in the stock, so heavy draws reshuffle the discards.
    options = TableOptions(variant="italiana")  # type: ignore[arg-type]
    seen_reshuffle = False
    for seed in range(30):
        table = Table(options, rng=random.Random(seed))
        for player in range(1, 10):
            table.sit(player, 1000)
        rng = random.Random(seed)
        _random_hand(table, rng)
        record = table.hand_record()
        if record["reshuffles"]:
            seen_reshuffle = True
            again, _ = replay(json.loads(json.dumps(record)))
            assert again.to_dict() == table.to_dict()
    assert seen_reshuffle


def test_no_record_before_the_first_hand() -> None:
    table = Table(TableOptions(), rng=random.Random(1))
    with pytest.raises(EngineError):
        table.hand_record()
