"""The tournament at the table: seating the entrants, new stakes between hands, away players.

Stakes between hands. A ``Table`` fixes its options when it is built (it caches the betting limit,
the draw range and the deck plans from them) and has no public way to change them, so new stakes
go through its own persistence: ``to_dict`` between hands, the new options in place of the old,
``from_dict``. Everything else (seats, stacks, dealer, opening level, the carried paròl pot and
its debts) is part of that state and carries over unchanged.

Away players. In a tournament an absent player is *blinded away*: he stays dealt in, posts his
blinds or invito and is folded (or checked) at once, as the dealer would do in a card room. The
engine instead skips a sitting-out player when it deals (``Table.sit_out``: he is not dealt in at
all) and sits a player out by itself after two timeouts in a row (rules §5.5). So before each deal
every sitting-out player is brought back (``come_back``) and, once the cards are dealt, the away
ones are sat out again: during a hand a sitting-out player's turns are played at once as
timeouts, which is exactly blinding away. ``Tournament.away`` is where "away" lives between
hands; ``close_hand`` adds to it whoever the table sat out. A player's own requests go through
``step_away`` and ``come_back``, which keep the tournament and the table in step.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card
from engine.events import Event
from engine.options import TableOptions
from engine.table import Table
from engine.tournament.events import TournamentEvent
from engine.tournament.state import Phase, Tournament

__all__ = ["close_hand", "come_back", "deal", "release_carried_pot", "restake", "seat_entrants", "step_away"]


def seat_entrants(
    tournament: Tournament, order: Sequence[int] | None = None, rng: random.Random | None = None
) -> Table:
    """A new table with every entrant seated with the starting stack, in ``order`` (the seat
    draw; registration order if omitted), at the stakes of the current level."""
    if tournament.phase is not Phase.IN_CORSO:
        raise ValueError("seat the entrants of a started tournament")
    players = list(tournament.players if order is None else order)
    if sorted(players) != sorted(tournament.players):
        raise ValueError("the seating order must list every entrant once")
    table = Table(tournament.options_for_current_level(), rng=rng)
    stacks = tournament.stacks()
    for player in players:
        table.sit(player, stacks[player])
    return table


def restake(table: Table, options: TableOptions, rng: random.Random | None = None) -> Table:
    """The same table between hands with new options (module docstring); ``table`` itself is
    left as it was. ``rng`` is the random source of the new table (default: the old table's)."""
    if table.hand_running:
        raise ValueError("the stakes change between hands only")
    if options == table.options:
        return table
    state = table.to_dict()
    state["options"] = options.to_dict()
    return Table.from_dict(state, rng=_same_rng(table, rng))


def _same_rng(table: Table, rng: random.Random | None) -> random.Random:
    """The random source the rebuilt table goes on with: the given one, else the old table's own
    (read from its private field: ``Table`` has no public accessor, and a seeded game must keep
    its sequence through a change of stakes)."""
    return rng if rng is not None else table._rng


def release_carried_pot(table: Table, rng: random.Random | None = None) -> Table:
    """The same table with the carried paròl pot given back as at the close of a table (to the
    seated players in proportion to what each put into it) and no debts left.

    Only for a deadlock the rules do not cover: two or more players still have chips but fewer
    than two can pay their paròl debts (rules §6), so no hand can be dealt. A cash table waits
    for a player to bring chips; a tournament cannot, so the pot goes back and play goes on."""
    if table.hand_running:
        raise ValueError("the carried pot is released between hands only")
    state = table.to_dict()
    home = table.close()  # the shares of the carried pot; ``table`` is left empty and dropped
    for entry in state["seats"]:
        entry["stack"] = home[entry["player"]]
    state.update(
        {"carried": 0, "carried_by": [], "parol_target": 0, "parol_paid": [], "no_invito": False, "level": 11}
    )
    return Table.from_dict(state, rng=_same_rng(table, rng))


def deal(
    table: Table,
    tournament: Tournament,
    rng: random.Random | None = None,
    deck: Sequence[Card] | None = None,
    *,
    committed: Sequence[Card] | None = None,
    reshuffle_rng: random.Random | None = None,
) -> tuple[Table, list[Event]]:
    """Start the next hand of the tournament: the current level's stakes, every player dealt in,
    the away ones played as timeouts. Returns the table to use from now on (a new object when the
    stakes changed or a deadlocked paròl pot was released) and the events of the deal.
    ``committed`` and ``reshuffle_rng`` deal from a committed deck order, as ``Table.start_hand``."""
    table = restake(table, tournament.options_for_current_level(), rng)
    events: list[Event] = []
    for seat in table.public_view().seats:
        if seat.sitting_out:
            events.extend(table.come_back(seat.player))
    if not table.can_start() and len(table.seats()) >= 2:
        table = release_carried_pot(table, rng)
    events.extend(table.start_hand(deck, committed=committed, reshuffle_rng=reshuffle_rng))
    for player in sorted(tournament.away):
        if player in table.seats() and table.hand_running:
            events.extend(table.sit_out(player))
    return table, events


def close_hand(table: Table, tournament: Tournament, now: float | None = None) -> list[TournamentEvent]:
    """The hand boundary: report the table's stacks and carried pot to the tournament, and note
    who the table sat out for not acting (he stays away until ``set_away(player, False)``)."""
    if table.hand_running:
        raise ValueError("the hand is still running")
    view = table.public_view()
    for seat in view.seats:
        if seat.sitting_out and seat.player in tournament.alive():
            tournament.away.add(seat.player)
    return tournament.apply_hand_result(table.seats(), view.carried, now)


def step_away(table: Table, tournament: Tournament, player: int) -> list[Event]:
    """A player asks to sit out (or withdraws after the start): he is away from now on, and during
    a hand his turns are played at once. His chips stay in play until they are blinded away."""
    tournament.set_away(player, True)
    if any(seat.player == player and not seat.sitting_out for seat in table.public_view().seats):
        return table.sit_out(player)
    return []


def come_back(table: Table, tournament: Tournament, player: int) -> list[Event]:
    """An away player is back: he acts for himself again, in this hand too."""
    tournament.set_away(player, False)
    if any(seat.player == player and seat.sitting_out for seat in table.public_view().seats):
        return table.come_back(player)
    return []
