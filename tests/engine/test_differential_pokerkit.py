"""Differential test: random ``texas`` hands played by this engine and by PokerKit 0.7.7 in
lockstep, from the same deck and the same decisions, end with the same stacks.

Each hand: 2 to 6 players with uneven stacks (some shorter than the blinds, so all-ins and side
pots are common), a shuffled deck given to both (the engine through ``start_hand(deck=...)``,
PokerKit card by card: holes, burns, board). At every decision both must agree on who acts and
on whether a raise is possible; in no-limit the raise range must be the same. A random decision
among the engine's legal words is played on both. At the end the stacks must match exactly.

Where the engine deliberately follows our rules and PokerKit does not, the test allows exactly
that difference and nothing else:

* Fixed limit: rules §4 allows one bet and three raises per round, and before the flop the big
  blind is the bet. PokerKit's preset allows four raises after the blind, so its preflop street
  is given a cap of three here.
* A short all-in never reopens raising for a player who already acted (rules §5.3;
  house rule of rules §5.3: not even when several add up, nor after a short all-in bet); PokerKit
  lets such a player raise in some of these spots. When the engine refuses a raise PokerKit
  allows, every bet since that player's last action must have been an all-in.
* Fixed limit: an all-in for less than a full raise does not count towards the cap
  (house rule, rules §4); PokerKit counts it, so it may refuse a raise the engine offers
  after one.
* Odd chips: PokerKit gives all the odd chips of a pot to its first winner; the engine gives
  them one each clockwise from the dealer's left (rules §5.4, ``engine.pots.split``). The final
  stacks are compared after moving those chips PokerKit's way.
* When every other player is all-in and the big blind has matched, PokerKit still asks him to
  check; the engine skips that empty turn.

PokerKit is a test-only dependency (``pyproject.toml`` ``dev`` extra).
"""

from __future__ import annotations

import dataclasses
import random
import warnings
from collections import Counter
from typing import Any

import pytest

from engine.actions import Action, ActionKind
from engine.cards import deck
from engine.events import ActionTaken, CardsDealt, Event, HandStarted, PotAwarded
from engine.options import Limit, TableOptions, Variant
from engine.table import Table

pokerkit = pytest.importorskip("pokerkit")

K = ActionKind
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)
CIP = 2  # big blind = small bet; small blind 1; big bet 4


def pokerkit_state(limit: Limit, stacks: list[int]) -> Any:
    players = len(stacks)
    if limit is Limit.NOLIMIT:
        return pokerkit.NoLimitTexasHoldem.create_state(
            AUTOMATIONS, True, 0, (CIP // 2, CIP), CIP, tuple(stacks), players
        )
    state = pokerkit.FixedLimitTexasHoldem.create_state(
        AUTOMATIONS, True, 0, (CIP // 2, CIP), CIP, 2 * CIP, tuple(stacks), players
    )
    preflop = dataclasses.replace(state.streets[0], max_completion_betting_or_raising_count=3)
    state.streets = (preflop, *state.streets[1:])
    return state


class Hand:
    """One hand played on both engines."""

    def __init__(self, seed: int, limit: Limit) -> None:
        self.rng = random.Random(seed)
        self.limit = limit
        rng = self.rng
        players = rng.randint(2, 6)
        self.stacks = [rng.choice((1, 2, 3, 7, 15, 40, 100, 300)) + rng.randint(0, 5) for _ in range(players)]
        self.cards = deck(52)
        rng.shuffle(self.cards)
        self.table = Table(TableOptions(variant=Variant.TEXAS, cip=CIP, limite=limit), rng=random.Random(0))
        for player, stack in enumerate(self.stacks, start=1):
            self.table.sit(player, stack)
        self.events: list[Event] = self.table.start_hand(deck=self.cards)
        started = next(e for e in self.events if isinstance(e, HandStarted))
        self.order = list(started.players)  # PokerKit seat k = the k-th player from the dealer's left
        self.state = pokerkit_state(limit, [self.stacks[p - 1] for p in self.order])
        self.round: list[tuple[int, ActionKind, bool]] = []
        self.street = self.table.street
        self.seen: Counter[str] = Counter()

    def deal_pokerkit(self) -> None:
        n = len(self.order)
        dealt = {e.player: e.cards for e in self.events if isinstance(e, CardsDealt)}
        for seat, player in enumerate(self.order):
            assert dealt[player] == (self.cards[seat], self.cards[n + seat])
            self.state.deal_hole(self.cards[seat].ascii + self.cards[n + seat].ascii, seat)
        self.next_card = 2 * n

    def take(self, count: int) -> str:
        cards = self.cards[self.next_card : self.next_card + count]
        self.next_card += count
        return "".join(card.ascii for card in cards)

    def raise_refusal_is_house_rule(self, player: int) -> bool:
        """The engine refuses a raise PokerKit allows: only when every bet since this player's
        last action in the round was an all-in (a short all-in does not reopen raising)."""
        last = max((i for i, (p, _, _) in enumerate(self.round) if p == player), default=None)
        if last is None:
            return False
        bets = [all_in for _, kind, all_in in self.round[last + 1 :] if kind in (K.RILANCIO, K.PUNTO)]
        return bool(bets) and all(bets)

    def short_all_in_counted_by_pokerkit(self) -> bool:
        """Fixed limit: an all-in raise this round that PokerKit counts towards the cap and the
        engine does not (house rule, rules §4)."""
        return self.limit is Limit.FISSO and any(
            all_in for _, kind, all_in in self.round if kind in (K.RILANCIO, K.PUNTO)
        )

    def decide(self) -> None:
        table, state = self.table, self.state
        player = table.to_act
        if player is None or player != self.order[state.actor_index]:
            # PokerKit's empty turn: nothing to call, nobody else able to act.
            assert player is None and state.checking_or_calling_amount == 0, self.round
            state.check_or_call()
            self.seen["pokerkit_empty_turn"] += 1
            return
        legal = {la.kind: la for la in table.legal_actions()}
        ours = legal.get(K.RILANCIO) or legal.get(K.PUNTO)
        theirs = state.can_complete_bet_or_raise_to()
        if ours is not None and not theirs:
            assert self.short_all_in_counted_by_pokerkit(), (legal, self.round)
            self.seen["fixed_limit_cap_short_all_in"] += 1
            del legal[ours.kind]
        elif theirs and ours is None:
            assert self.raise_refusal_is_house_rule(player), (legal, self.round)
            self.seen["short_all_in_no_reopen"] += 1
        elif ours is not None:
            current = table.public_view().current_bet if ours.kind is K.RILANCIO else 0
            if self.limit is Limit.NOLIMIT:
                assert (ours.min + current, ours.max + current) == (
                    state.min_completion_betting_or_raising_to_amount,
                    state.max_completion_betting_or_raising_to_amount,
                )
        kind = self.rng.choice(sorted(legal))
        choice = legal[kind]
        amount = None
        if kind in (K.RILANCIO, K.PUNTO):
            amount = choice.max if self.rng.random() < 0.3 else self.rng.randint(choice.min, choice.max)
            current = table.public_view().current_bet if kind is K.RILANCIO else 0
            to = amount + current
        events = table.act(Action(player, kind, amount))
        self.events += events
        if kind is K.PASSO:
            state.fold()
        elif kind in (K.PAROL, K.VEDO):
            state.check_or_call()
        else:
            state.complete_bet_or_raise_to(to)
        taken = next(e for e in events if isinstance(e, ActionTaken))
        self.round.append((player, kind, taken.all_in))
        if taken.all_in:
            self.seen["all_in"] += 1

    def play(self) -> None:
        self.deal_pokerkit()
        state = self.state
        while state.status:
            if self.table.street != self.street:
                self.street, self.round = self.table.street, []
            if state.can_burn_card():
                state.burn_card(self.take(1))
            elif state.can_deal_board():
                state.deal_board(self.take(3 if not state.board_cards else 1))
            else:
                self.decide()
        assert not self.table.hand_running
        awards = [e for e in self.events if isinstance(e, PotAwarded)]
        # PokerKit gives all the odd chips of a pot to its first winner; rules §5.4 as the engine
        # plays it (engine.pots.split) gives them one each, clockwise from the dealer's left.
        as_pokerkit: Counter[int] = Counter()
        for award in awards:
            share, odd = divmod(award.amount, len(award.winners))
            if odd >= 2:
                first = min(award.winners, key=self.order.index)
                for winner, ours in zip(award.winners, award.shares, strict=True):
                    as_pokerkit[winner] += share + (odd if winner == first else 0) - ours
                self.seen["odd_chips_all_to_first"] += 1
        final = self.table.seats()
        expected = [final.get(p, 0) + as_pokerkit[p] for p in self.order]
        assert expected == list(state.stacks), self.round
        assert sum(state.stacks) == sum(self.stacks)
        if any(a.pot > 0 for a in awards):
            self.seen["side_pot"] += 1
        if any(len(a.winners) > 1 for a in awards):
            self.seen["split"] += 1


@pytest.mark.parametrize("limit", [Limit.NOLIMIT, Limit.FISSO])
def test_random_texas_hands_end_with_the_same_stacks_as_pokerkit(limit: Limit) -> None:
    seen: Counter[str] = Counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about cards dealt out of its own deck order
        for seed in range(150):
            hand = Hand(seed, limit)
            hand.play()
            seen.update(hand.seen)
    # The sample really covered the hard parts.
    assert seen["all_in"] > 50 and seen["side_pot"] > 5 and seen["split"] > 0, seen
