"""Poker tradizionale's reshuffle of the folded hands (engine.fairness): when the stub runs out before
any player has all his cards (three first, rules §2.6), the new stock is the muck, the folded hands in
the order they folded. The deal plan replays the folds in that order (``folds``), and ``hand_inputs``
reads it, with everyone's discards and who left before the cards, from a finished hand's record."""

from __future__ import annotations

import random

from engine.actions import Action, ActionKind
from engine.cards import Card, deck
from engine.events import ActionTaken, CardsDrawn, DiscardsReshuffled, Event, HandStarted
from engine.fairness import Commitment, deal_plan, hand_inputs, make_deck_commitment, reshuffle_rng
from engine.options import TableOptions, Variant
from engine.table import Table

K = ActionKind
SALT = bytes(range(16))


def _italiana_six_order() -> list[Card]:
    """A 52-card order whose 40-card italiana deck (six players, from the 5s) gives position 3 the
    two aces it opens with (dealt one card at a time from position 1: indices 2 and 8)."""
    forty = deck(40)
    random.Random(3).shuffle(forty)
    aces = [c for c in forty if c.ascii in ("Ah", "As")]
    rest = [c for c in forty if c not in aces]
    order: list[Card | None] = [None] * 40
    order[2], order[8] = aces
    it = iter(rest)
    filled = [c if c is not None else next(it) for c in order]
    low = [c for c in deck(52) if c.rank < 5]
    return filled + low


def opened_by_three() -> tuple[Commitment, Table, list[Event], tuple[int, ...], dict[int, int]]:
    """Italiana, six players, from the committed order of `_italiana_six_order`: no buio, positions
    1 and 2 do not open, position 3 opens with his aces. The commitment, the table, its events, the
    players by position and each position's player."""
    order = _italiana_six_order()
    commitment = make_deck_commitment(order, SALT)
    table = Table(TableOptions(variant=Variant.ITALIANA), rng=random.Random(0))
    for pid in range(1, 7):
        table.sit(pid, 10_000)
    events: list[Event] = table.start_hand(committed=order, reshuffle_rng=reshuffle_rng(SALT))
    players = next(e for e in events if isinstance(e, HandStarted)).players
    pos = {i + 1: pid for i, pid in enumerate(players)}
    events += table.act(Action(pos[1], K.PASSO))  # no buio: the cards are dealt
    events += table.act(Action(pos[1], K.PASSO))  # does not open
    events += table.act(Action(pos[2], K.PASSO))  # does not open
    events += table.act(Action(pos[3], K.APRO, 10))
    return commitment, table, events, players, pos


def folded_muck_reshuffle() -> tuple[Commitment, Table, list[Event], tuple[int, ...]]:
    """Italiana, six players: position 5 folds before position 2 (both in the first round, in turn),
    the four others change four cards each. The stub (10 cards) runs out before anyone is fully
    served, so the new stock is the muck: the two folded hands, 5's first. Returns the commitment,
    the table after the hand's draw, its events and the players by position."""
    commitment, table, events, players, pos = opened_by_three()
    events += table.act(Action(pos[4], K.VEDO))
    events += table.act(Action(pos[5], K.PASSO))  # folds first
    events += table.act(Action(pos[6], K.VEDO))
    events += table.act(Action(pos[1], K.VEDO))
    events += table.act(Action(pos[2], K.PASSO))  # folds second
    for p in (1, 3, 4, 6):
        cards = tuple(table.cards_of(pos[p])[:4])
        events += table.act(Action(pos[p], K.CAMBIO, 4, cards))
    assert any(isinstance(e, DiscardsReshuffled) for e in events), "the scenario reshuffles the muck"
    return commitment, table, events, players


def received_by_position(events: list[Event], players: tuple[int, ...]) -> dict[int, tuple[Card, ...]]:
    return {players.index(e.player) + 1: e.received for e in events if isinstance(e, CardsDrawn)}


def test_italiana_a_reshuffle_of_folded_hands_is_replayed_in_the_order_they_folded() -> None:
    """Rules §2.6 and the fair deck: the plan's draw is the one the players received when the folds
    are replayed in their real order (5 then 2), not in position order."""
    commitment, _, events, players = folded_muck_reshuffle()
    by_position: list[tuple[Card, ...] | None] = [None] * 6
    for e in events:
        if isinstance(e, CardsDrawn):
            by_position[players.index(e.player)] = e.discarded
    plan = deal_plan(commitment.reveal, TableOptions(variant=Variant.ITALIANA), 6, by_position, folds=(5, 2))
    assert plan.draw is not None
    printed = {d.position: d.received for d in plan.draw if d.discarded}
    assert printed == received_by_position(events, players)


def test_the_record_of_a_hand_gives_the_folds_in_their_order_and_everyones_discards() -> None:
    """What the bot publishes after a hand (``hand_inputs``): the fold order before the draw, the
    discards by position, ``None`` for the folders; and the plan built from them is the draw dealt."""
    from engine.fairness import hand_inputs  # the bot's reading of a record (the fix)

    commitment, table, events, players = folded_muck_reshuffle()
    while table.hand_running:
        assert table.to_act is not None
        kinds = {a.kind for a in table.legal_actions()}
        events += table.act(Action(table.to_act, K.PAROL if K.PAROL in kinds else K.VEDO))
    inputs = hand_inputs(table.hand_record())
    assert inputs.players == players and inputs.out == ()
    assert inputs.folds == (5, 2)
    assert inputs.draws is not None
    assert [d is None for d in inputs.draws] == [False, True, False, False, True, False]
    assert all(len(d) == 4 for d in inputs.draws if d is not None)
    plan = deal_plan(commitment.reveal, inputs.options, 6, inputs.draws, inputs.out, inputs.folds)
    assert plan.draw is not None
    assert {d.position: d.received for d in plan.draw if d.discarded} == received_by_position(events, players)


def _random_hand(variant: Variant, players: int, seed: int) -> tuple[Commitment, Table, list[Event]]:
    """A hand dealt from a committed order with random legal words, and players sitting out or
    leaving out of turn now and then (their folds come from the engine, not from their own word)."""
    from engine.fairness import make_deck_commitment, reshuffle_rng
    from engine.simulate import RandomPolicy

    rng = random.Random(seed)
    order = deck(52)
    rng.shuffle(order)
    salt = rng.randbytes(16)
    table = Table(TableOptions(variant=variant), rng=random.Random(seed))
    for pid in range(1, players + 1):
        table.sit(pid, 10_000)
    events = table.start_hand(committed=order, reshuffle_rng=reshuffle_rng(salt))
    policy = RandomPolicy(rng)
    for _ in range(300):
        if not table.hand_running:
            break
        seats = table.public_view().seats
        others = [s.player for s in seats if s.player != table.to_act and not s.folded and not s.sitting_out]
        roll = rng.random()
        if roll < 0.04 and others:
            events += table.leave(rng.choice(others))
        elif roll < 0.08 and others:
            events += table.sit_out(rng.choice(others))
        else:
            try:
                events += table.act(policy.choose(table))
            except Exception:
                events += table.timeout()
    return make_deck_commitment(order, salt), table, events


def test_the_deal_plan_from_a_hands_record_is_the_draw_that_was_dealt_in_random_hands() -> None:
    """For draw hands of every size, with folds in any order, players sitting out (their turns played
    at once) and players leaving out of turn: what the published inputs replay is what each player
    received at the draw, reshuffles of the muck or of the discards included."""
    from engine.fairness import hand_inputs

    checked = reshuffled = 0
    for seed in range(400):
        variant = (Variant.ITALIANA, Variant.TRENTADUE)[seed % 2]
        players = 6 + seed % 4 if variant is Variant.ITALIANA else 3 + seed % 3
        commitment, table, events = _random_hand(variant, players, seed)
        inputs = hand_inputs(table.hand_record())
        if inputs.draws is None:
            continue
        plan = deal_plan(
            commitment.reveal, inputs.options, len(inputs.players), inputs.draws, inputs.out, inputs.folds
        )
        assert plan.draw is not None
        dealt = {inputs.players.index(e.player) + 1: e.received for e in events if isinstance(e, CardsDrawn)}
        assert {d.position: d.received for d in plan.draw if d.discarded} == {
            p: r for p, r in dealt.items() if r
        }
        checked += 1
        reshuffled += any(isinstance(e, DiscardsReshuffled) for e in events)
    assert checked > 150 and reshuffled > 10, (checked, reshuffled)


def test_two_away_players_folding_in_one_step_across_the_dealer_keep_their_real_muck_order() -> None:
    """Two away players (tournament: /torneo ritirati or timeouts, engine sit_out) whose turns the
    engine plays at once in ONE step, in turn order 6 then 1 (the turn wraps round the dealer).
    Their hands went to the muck 6's first, and the muck is reshuffled at the draw; hand_inputs
    sorts the folds of one step by position (1, 6), so the published verify command replays a
    different reshuffle than the one the players received."""
    commitment, table, events, players, pos = opened_by_three()
    events += table.sit_out(pos[6])  # away, not his turn yet
    events += table.sit_out(pos[1])  # away, not his turn yet
    events += table.act(Action(pos[4], K.VEDO))
    events += table.act(Action(pos[5], K.VEDO))  # the engine plays 6 then 1 at once: both fold
    real_folds = [
        players.index(e.player) + 1 for e in events if isinstance(e, ActionTaken) and e.kind is K.PASSO
    ][3:]
    assert real_folds == [6, 1]
    events += table.act(Action(pos[2], K.VEDO))
    for p in (2, 3, 4, 5):
        cards = tuple(table.cards_of(pos[p])[:4])
        events += table.act(Action(pos[p], K.CAMBIO, 4, cards))
    assert any(isinstance(e, DiscardsReshuffled) for e in events), "the scenario reshuffles the muck"
    while table.hand_running:
        assert table.to_act is not None
        kinds = {a.kind for a in table.legal_actions()}
        events += table.act(Action(table.to_act, K.PAROL if K.PAROL in kinds else K.VEDO))

    inputs = hand_inputs(table.hand_record())
    plan = deal_plan(commitment.reveal, inputs.options, 6, inputs.draws, inputs.out, inputs.folds)
    assert plan.draw is not None
    replayed = {d.position: d.received for d in plan.draw if d.discarded}
    assert replayed == received_by_position(events, players), "the command replays other cards"
    assert inputs.folds == (6, 1), f"the muck order was 6 then 1, the command says {inputs.folds}"
