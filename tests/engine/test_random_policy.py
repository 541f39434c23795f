"""``engine.simulate.RandomPolicy`` is written for speed; this pins that it still plays exactly
like the plain version it replaced: the same random draws give the same actions, so the biases the
module doc describes (and every seeded simulation) are unchanged."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action, ActionKind, LegalAction
from engine.events import Street
from engine.options import Limit, TableOptions, Variant
from engine.simulate import RandomPolicy, play_action
from engine.table import Table

K = ActionKind


class PlainPolicy:
    """The policy as first written (a dict of the legal words per call, enum names throughout)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cautious = False

    def amount(self, legal: LegalAction) -> int:
        low, high = legal.min, legal.max
        if low >= high:
            return low
        r = self.rng.random()
        if r < 0.4:
            return low
        if r < 0.55:
            return high
        return self.rng.randint(low, high)

    def choose(self, table: Table) -> Action:
        player = table.to_act
        assert player is not None
        by_kind = {la.kind: la for la in table.legal_actions()}
        street = table.street
        rng = self.rng
        r = rng.random()
        if street is Street.BUIO:
            for kind in (K.BUIO, K.CONTROBUIO, K.VEDO):
                if kind in by_kind and (r < 0.45 or self.cautious):
                    return Action(player, kind, by_kind[kind].min)
            return Action(player, K.PASSO)
        if street is Street.APERTURA:
            if r < 0.6 or self.cautious:
                return Action(player, K.APRO, self.amount(by_kind[K.APRO]))
            return Action(player, K.PASSO)
        if street is Street.CAMBIO:
            cambio = by_kind.get(K.CAMBIO)
            if cambio is None or r < 0.25 or self.cautious:
                return Action(player, K.SERVITO)
            hand = table.cards_of(player)
            count = rng.randint(cambio.min, min(cambio.max, len(hand)))
            return Action(player, K.CAMBIO, cards=tuple(rng.sample(hand, count)))
        if K.VEDO in by_kind:
            raise_ = by_kind.get(K.RILANCIO)
            if r < 0.22 and not self.cautious:
                return Action(player, K.PASSO)
            if raise_ is not None and r > 0.72:
                return Action(player, K.RILANCIO, self.amount(raise_))
            return Action(player, K.VEDO)
        bet = by_kind.get(K.PUNTO) or by_kind.get(K.RILANCIO)
        check_bias = (
            0.8 if street is Street.SECONDO_GIRO and table.options.variant is Variant.ITALIANA else 0.55
        )
        if bet is not None and r > check_bias:
            return Action(player, bet.kind, self.amount(bet))
        return Action(player, K.PAROL)


CASES = [
    (TableOptions(variant=Variant.ITALIANA), 5),
    (TableOptions(variant=Variant.ITALIANA, controcontrobuio=True, invito_tutti=True), 6),
    (TableOptions(variant=Variant.TRENTADUE, over=True), 5),
    (TableOptions(variant=Variant.TEXAS, limite=Limit.NOLIMIT), 6),
    (TableOptions(variant=Variant.TEXAS, limite=Limit.FISSO), 3),
]


@pytest.mark.parametrize(("options", "players"), CASES)
@pytest.mark.parametrize("cautious", [False, True])
def test_random_policy_chooses_what_the_plain_version_chooses(
    options: TableOptions, players: int, cautious: bool
) -> None:
    table = Table(options, rng=random.Random(11))
    for player in range(1, players + 1):
        table.sit(player, 30 * player + 7)  # uneven: all-ins, side pots, short raises
    fast, plain = RandomPolicy(random.Random(5)), PlainPolicy(random.Random(5))
    fast.cautious = plain.cautious = cautious
    decisions: set[tuple[Street | None, ActionKind]] = set()
    for _ in range(80):
        seated = table.seats()
        for player in range(1, players + 1):
            if player not in seated:
                table.sit(player, 50)  # a busted player buys in again: the table stays full
        if not table.can_start():
            break
        table.start_hand()
        while table.hand_running:
            street = table.street
            expected = plain.choose(table)
            state = fast.rng.getstate()
            assert fast.choose(table) == expected, (street, table.legal_actions())
            fast.rng.setstate(state)  # ``play_action`` draws the same action again
            decisions.add((street, expected.kind))
            play_action(table, fast)
    # The comparison went through every phase of the variant, not just a corner of it.
    streets = {street for street, _ in decisions}
    if options.variant is Variant.ITALIANA:
        assert {Street.APERTURA, Street.CAMBIO, Street.SECONDO_GIRO} <= streets, decisions
        if not cautious:
            assert Street.BUIO in streets, decisions
    elif options.variant is Variant.TRENTADUE:
        assert {Street.PRIMO_GIRO, Street.CAMBIO, Street.SECONDO_GIRO} <= streets, decisions
    else:
        assert {Street.PREFLOP, Street.RIVER} <= streets, decisions
    assert any(kind in (K.RILANCIO, K.PUNTO, K.APRO) for _, kind in decisions), decisions
