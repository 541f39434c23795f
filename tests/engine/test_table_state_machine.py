"""Property test: any sequence of legal requests keeps every chip and every card where it belongs.

A hypothesis ``RuleBasedStateMachine`` plays one table. Its rules are what a channel can do: say
one of the words ``legal_actions()`` offers (any amount in the range, any discards), time out,
leave and sit again, sit out and come back, deal the next hand. Its invariants are the checks of
``engine.simulate`` (chips conserved, nothing negative, pots adding up, each card in one place)
plus the event ledger (the chips the events report match the stacks). Variants and options are
drawn once per run, one machine per variant: buio on, ``invito_tutti``, Over, limits, ``semi`` off.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine import simulate as sim
from engine.actions import Action, ActionKind
from engine.errors import EngineError
from engine.events import Event
from engine.options import Limit, Mazzo, TableOptions, Variant
from engine.table import Table
from tests.engine.table_helpers import snapshot

K = ActionKind


@st.composite
def table_options(draw: st.DrawFn, variant: Variant) -> TableOptions:
    if variant is Variant.ITALIANA:
        return TableOptions(
            variant=variant,
            cip=draw(st.sampled_from([1, 5, 10])),
            invito=draw(st.sampled_from([1, 10, 25])),
            invito_tutti=draw(st.booleans()),
            controcontrobuio=draw(st.booleans()),
            buio_multiplo=draw(st.sampled_from([1, 2, 3])),
            max_cambio=draw(st.sampled_from([4, 5])),
            mazzo=draw(st.sampled_from(list(Mazzo))),
        )
    if variant is Variant.TRENTADUE:
        return TableOptions(
            variant=variant,
            cip=draw(st.sampled_from([2, 10])),
            limite=draw(st.sampled_from([Limit.NOLIMIT, Limit.POTLIMIT])),
            over=draw(st.booleans()),
            semi=draw(st.booleans()),
        )
    return TableOptions(
        variant=variant,
        cip=draw(st.sampled_from([2, 10])),
        limite=draw(st.sampled_from(list(Limit))),
    )


class TableMachine(RuleBasedStateMachine):
    variant = Variant.ITALIANA

    def __init__(self) -> None:
        super().__init__()
        self.table: Table | None = None
        self.expected = 0
        self.ledger = sim._Ledger()
        self.players: list[int] = []

    # ------------------------------------------------------------------ helpers

    @property
    def t(self) -> Table:
        assert self.table is not None
        return self.table

    def feed(self, events: list[Event]) -> None:
        problems = self.ledger.apply(events)
        assert problems == [], problems

    # ------------------------------------------------------------------ rules

    @initialize(
        data=st.data(),
        seed=st.integers(0, 2**32),
        stacks=st.lists(st.integers(1, 400), min_size=2, max_size=6),
    )
    def setup(self, data: st.DataObject, seed: int, stacks: list[int]) -> None:
        options = data.draw(table_options(self.variant))
        self.table = Table(options, rng=random.Random(seed))
        stacks = stacks[: options.max_seats]
        self.players = list(range(1, len(stacks) + 1))
        for player, stack in zip(self.players, stacks, strict=True):
            self.feed(self.table.sit(player, stack * options.cip // 2 + 1))
        self.expected = self.table.total_chips()

    @rule(stack=st.integers(1, 500))
    def deal(self, stack: int) -> None:
        table = self.t
        if table.hand_running:
            return
        seated = table.seats()
        for player in self.players:  # a busted player buys in again
            if player not in seated:
                self.feed(table.sit(player, stack))
                self.expected += stack
        if table.can_start():
            self.feed(table.start_hand())

    @rule(data=st.data(), words=st.integers(1, 30))
    def say_legal_words(self, data: st.DataObject, words: int) -> None:
        """Up to ``words`` decisions in a row, each one of the words ``legal_actions()`` offers;
        between hands the next one is dealt (a table plays many hands in one run)."""
        for _ in range(words):
            if not self.t.hand_running:
                self.deal(data.draw(st.integers(1, 500)))
            if self.t.to_act is None:
                return
            self.say_one_legal_word(data)
            self.chips_and_cards()

    def say_one_legal_word(self, data: st.DataObject) -> None:
        table = self.t
        player = table.to_act
        assert player is not None
        legal = table.legal_actions()
        choice = data.draw(st.sampled_from(legal))
        cards: tuple[Any, ...] = ()
        amount: int | None = None
        if choice.kind is K.CAMBIO:
            hand = list(table.cards_of(player))
            count = data.draw(st.integers(choice.min, min(choice.max, len(hand))))
            cards = tuple(data.draw(st.permutations(hand))[:count])
        elif choice.kind not in (K.PASSO, K.PAROL, K.SERVITO):
            amount = data.draw(st.integers(choice.min, choice.max))
        action = Action(player, choice.kind, amount, cards)
        event(f"{table.options.variant} {table.street} {choice.kind}")
        if choice.kind is K.APRO:
            before = snapshot(table)
            try:
                self.feed(table.act(action))
            except EngineError:
                assert snapshot(table) == before  # a refused opening changes nothing
                self.feed(table.act(Action(player, K.PASSO)))
            return
        self.feed(table.act(action))

    @rule()
    def time_out(self) -> None:
        if self.table is not None and self.table.to_act is not None:
            self.feed(self.table.timeout())

    @rule(data=st.data(), stack=st.integers(1, 500))
    def leave_and_sit_again(self, data: st.DataObject, stack: int) -> None:
        table = self.t
        if not table.seats():
            return
        player = data.draw(st.sampled_from(sorted(table.seats())))
        if any(s.player == player and s.leaving for s in table.public_view().seats):
            return
        released = table.seats()[player]
        self.feed(table.leave(player))
        self.expected -= released
        if not table.hand_running:
            self.feed(table.sit(player, stack))
            self.expected += stack

    @rule(data=st.data())
    def sit_out_or_come_back(self, data: st.DataObject) -> None:
        table = self.t
        if not table.seats():
            return
        player = data.draw(st.sampled_from(sorted(table.seats())))
        view = {s.player: s for s in table.public_view().seats}[player]
        if view.sitting_out:
            self.feed(table.come_back(player))
        else:
            self.feed(table.sit_out(player))

    # ------------------------------------------------------------------ invariants

    @invariant()
    def chips_and_cards(self) -> None:
        if self.table is None:
            return
        assert sim.check_table(self.table, self.expected) == []

    @invariant()
    def someone_acts_while_a_hand_runs(self) -> None:
        if self.table is None:
            return
        table = self.table
        if table.hand_running:
            assert table.to_act is not None and table.legal_actions()
        else:
            assert table.to_act is None and table.legal_actions() == ()


SETTINGS = settings(
    max_examples=10,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


class ItalianaMachine(TableMachine):
    variant = Variant.ITALIANA


class TrentadueMachine(TableMachine):
    variant = Variant.TRENTADUE


class TexasMachine(TableMachine):
    variant = Variant.TEXAS


ItalianaMachine.TestCase.settings = SETTINGS
TrentadueMachine.TestCase.settings = SETTINGS
TexasMachine.TestCase.settings = SETTINGS
test_italiana_state_machine = ItalianaMachine.TestCase
test_trentadue_state_machine = TrentadueMachine.TestCase
test_texas_state_machine = TexasMachine.TestCase
