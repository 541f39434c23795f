"""Computer players only ever say legal words: many seeded hands through real tables, every
variant and the options that change the legal words, a mix of policies at each table. Any word
the engine refuses raises ``EngineError`` and fails the test."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.actions import Action
from engine.ai.strategy import decide
from engine.ai.view import HandLog
from engine.duel import call_station
from engine.options import TableOptions
from engine.simulate import RandomPolicy, play_action
from engine.table import Table

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("italiana", 4, {}),
    ("italiana", 6, {"invito_tutti": True, "controcontrobuio": True, "max_cambio": 5}),
    ("italiana", 3, {"mazzo": "americano"}),
    ("italiana", 2, {}),
    ("italiana", 9, {}),
    ("32carte", 5, {"over": True}),
    ("32carte", 3, {"limite": "potlimit", "semi": False}),
    ("texas", 2, {}),
    ("texas", 6, {"limite": "nolimit"}),
    ("texas", 4, {"limite": "potlimit"}),
]
POLICIES = ("esperto", "facile", "chiamatore", "casuale")


@pytest.mark.parametrize(("variant", "players", "options"), TABLES)
def test_every_computer_decision_is_accepted_by_the_engine(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(f"{variant}-{players}-{sorted(options.items())}")
    table = Table(TableOptions(variant=variant, **options), rng=random.Random(rng.getrandbits(32)))  # type: ignore[arg-type]
    cip = table.options.cip
    for player in range(1, players + 1):
        table.sit(player, cip * rng.choice((3, 20, 100, 300)))
    policy = {player: POLICIES[(player - 1) % len(POLICIES)] for player in range(1, players + 1)}
    random_player = RandomPolicy(random.Random(rng.getrandbits(32)))
    log = HandLog()
    said: Counter[str] = Counter()
    for _ in range(60):
        seated = table.seats()
        for player in range(1, players + 1):  # uneven stacks, refilled when busted
            if player not in seated:
                table.sit(player, cip * rng.choice((3, 20, 100, 300)))
            elif seated[player] < cip:
                table.leave(player)
                table.sit(player, cip * 50)
        if not table.can_start():
            break
        log.feed(table.start_hand())
        while table.hand_running:
            player = table.to_act
            assert player is not None
            who = policy[player]
            if who == "casuale":
                log.feed(play_action(table, random_player))
                continue
            view = log.view(table, player)
            action: Action = call_station(view) if who == "chiamatore" else decide(view, rng, who)
            assert action.kind in {la.kind for la in view.legal}
            log.feed(table.act(action))  # raises EngineError if the engine refuses it
            said[action.kind] += 1
    assert sum(said.values()) >= 300, said
