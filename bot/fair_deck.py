"""A deck players can verify: each hand is dealt from an order the bot committed to before the deal.

Before the first card of a hand the bot shuffles a whole 52-card deck and a secret salt with the
operating system's generator (`engine.fairness.new_deck_commitment`), deals the hand from that order
(`Table.start_hand(committed=..., reshuffle_rng=...)`, so even a reshuffle of the discards is fixed
by it) and shows the SHA-256 of the reveal string on the table message («Impronta del mazzo») and in
each player's first private message of the hand, with his cards: the bot edits the table message
all hand long, but never that message, so the impronta stays there as it was before the hand.
The reveal string names every card of the deck, hole cards included, so it lives only in memory
with the running hand (`LiveTable.fair`): never logged (its repr hides it), never shown before
the hand ends. When the hand ends the result publishes it as a code span with the command that
checks it (`python -m engine.verify`), built from the hand's record (`FairDeck.ended`): who left
before the cards, and for a draw everyone's discards and the order of the folds before it, all
public once the string names every card. The hand's record in the database keeps the three under
``"fairness"`` (so a replay can show them).

A hand cancelled by a restart never publishes its reveal: after a crash it is gone with the memory
that held it (it is never written to disk while the hand runs, where it would expose every hole
card), and a clean restart behaves the same so that players see one rule. The cancelled hand counts
for nothing, and the next hand has a fresh commitment.

A deck stacked by a test (`TableRegistry.queue_deck`) is dealt as given, without a commitment.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import discord

from engine.cards import Card
from engine.events import CardsDealt, Event, HandStarted
from engine.fairness import (
    Commitment,
    HandInputs,
    hand_inputs,
    new_deck_commitment,
    parse_reveal,
    reshuffle_rng,
)
from engine.options import Mazzo, TableOptions, Variant

__all__ = [
    "RECORD_KEY",
    "FairDeck",
    "add_to_embed",
    "command_of_record",
    "dm_line",
    "revealed_lines",
    "verify_command",
    "with_fairness",
]

RECORD_KEY = "fairness"
"""The key of the commitment and the reveal in a stored hand record."""
EMBED_LIMIT = 6000
"""Discord's limit on the text of a message's embeds, all fields together."""


@dataclass(frozen=True, slots=True)
class FairDeck:
    """One hand's commitment: the digest (public from the first card) and the reveal (secret until
    the hand ends). The repr shows the digest only, so the reveal cannot reach a log by accident."""

    digest: str
    reveal: str = field(repr=False)
    cards: tuple[Card, ...] = field(repr=False)
    salt: bytes = field(repr=False)
    players: int = 0
    """How many players the hand began with (the verify command needs it); set once it started."""
    seats: tuple[int, ...] = ()
    """Those players in the order of the deal, from the dealer's left (the verifier's positions)."""
    dealt: frozenset[int] | None = None
    """Who got cards, once they were dealt: poker tradizionale asks the buio first, and a player who
    leaves meanwhile gets none (the verify command names his position)."""
    command: str | None = field(default=None, repr=False)
    """The verify command, once the hand has ended (`ended`): built from the hand's record."""

    @classmethod
    def new(cls) -> FairDeck:
        return cls.of(new_deck_commitment())

    @classmethod
    def of(cls, commitment: Commitment) -> FairDeck:
        parsed = parse_reveal(commitment.reveal)
        return cls(commitment.digest, commitment.reveal, parsed.cards, parsed.salt)

    def reshuffle_rng(self) -> random.Random:
        """The generator of this hand's reshuffles, fixed by the salt (a fresh one each call)."""
        return reshuffle_rng(self.salt)

    def saw(self, events: Iterable[Event]) -> FairDeck:
        """The same deck, knowing who got cards once the hand's events deal them."""
        if self.dealt is not None:
            return self
        dealt = frozenset(e.player for e in events if isinstance(e, CardsDealt))
        return replace(self, dealt=dealt) if dealt else self

    def ended(self, record: Mapping[str, Any]) -> FairDeck:
        """The same deck once its hand has ended, with the command that checks it, from the hand's
        record (engine.fairness.hand_inputs: the folds, the discards, who left before the cards)."""
        if self.command is not None:
            return self
        return replace(self, command=command_of_record(self.reveal, self.digest, record))

    def record(self) -> dict[str, str]:
        """What the hand record keeps (only once the hand has ended)."""
        kept = {"commitment": self.digest, "reveal": self.reveal}
        if self.command is not None:
            kept["command"] = self.command
        return kept


T = TypeVar("T")


def deal_fairly(
    start: Callable[..., T], deck: Sequence[Card] | None, events: Callable[[T], Sequence[Event]]
) -> tuple[T, FairDeck | None]:
    """Deal a hand from a fresh committed deck order, reshuffles included: ``start`` is
    ``Table.start_hand`` or the tournament's ``deal`` (their ``deck`` / ``committed`` /
    ``reshuffle_rng`` arguments), ``events`` picks the deal's events out of what it returns.

    A stacked ``deck`` (tests) is dealt as it is, with no commitment (None). Otherwise the
    commitment is returned with the number of players dealt in, which the verify command needs."""
    if deck is not None:
        return start(list(deck)), None
    fair = FairDeck.new()
    dealt = start(committed=fair.cards, reshuffle_rng=fair.reshuffle_rng())
    started = next(e for e in events(dealt) if isinstance(e, HandStarted))
    fair = replace(fair, players=len(started.players), seats=tuple(started.players))
    return dealt, fair.saw(events(dealt))


def _command(reveal: str, digest: str, options: TableOptions, inputs: HandInputs) -> str:
    parts = [
        f'python -m engine.verify "{reveal}"',
        f"--commitment {digest}",
        f"--variante {options.variant}",
        f"--giocatori {len(inputs.players)}",
    ]
    if options.variant is Variant.ITALIANA and options.mazzo is not Mazzo.AUTO:
        parts.append(f"--mazzo {options.mazzo}")
    parts += [f"--fuori {position}" for position in inputs.out]
    if inputs.draws is not None:
        turn = {position: n for n, position in enumerate(inputs.folds, 1)}
        for position, discards in enumerate(inputs.draws, 1):
            if discards is None:
                parts.append(f"--scarti -{turn[position]}" if position in turn else "--scarti -")
            elif not discards:
                parts.append("--scarti servito")
            else:
                parts.append(f'--scarti "{" ".join(card.ascii for card in discards)}"')
    return " ".join(parts)


def command_of_record(reveal: str, digest: str, record: Mapping[str, Any]) -> str:
    """The verify command of a finished hand, from its record: the variant and deck, the players,
    who left before the cards, and for a draw everyone's discards and the order of the folds."""
    inputs = hand_inputs(record)
    return _command(reveal, digest, inputs.options, inputs)


def verify_command(fair: FairDeck, options: TableOptions) -> str:
    """The command line that checks the hand's deck and shows how it was dealt: the one built
    from the hand's record once it has ended (`FairDeck.ended`), else from what the deal showed."""
    if fair.command is not None:
        return fair.command
    out: tuple[int, ...] = ()
    if fair.dealt is not None:
        out = tuple(i for i, player in enumerate(fair.seats, 1) if player not in fair.dealt)
    return _command(fair.reveal, fair.digest, options, HandInputs(options, fair.seats, out))


def dm_line(fair: FairDeck | None) -> str:
    """The line of a player's first private message of the hand: the impronta, where the bot never
    edits it (the table message is edited all hand long)."""
    if fair is None:
        return ""
    return (
        f"Impronta del mazzo di questa mano: `{fair.digest}` (a fine mano confrontala con "
        "la stringa di verifica: `python -m engine.verify`)."
    )


def revealed_lines(fair: FairDeck, options: TableOptions) -> list[str]:
    """What a hand that has ended publishes of its deck: the digest, the reveal, the command."""
    return [
        f"Impronta: `{fair.digest}`",
        f"Verifica: `{fair.reveal}`",
        f"Per controllare: `{verify_command(fair, options)}`",
    ]


def add_to_embed(embed: discord.Embed, fair: FairDeck | None, options: TableOptions, *, ended: bool) -> None:
    """The table message's part: the digest while the hand runs, the reveal once it has ended."""
    if fair is None:
        return
    if not ended:
        embed.add_field(name="Impronta del mazzo", value=f"`{fair.digest}`", inline=False)
        return
    lines = revealed_lines(fair, options)
    name, value = "Mazzo verificabile", "\n".join(lines)
    if len(embed) + len(name) + len(value) > EMBED_LIMIT:  # a long result: the command holds the string
        value = "\n".join([lines[0], lines[2]])
    embed.add_field(name=name, value=value, inline=False)


def with_fairness(record: Mapping[str, Any], fair: FairDeck | None) -> Mapping[str, Any]:
    """The hand record to store: the engine's, plus the commitment and its reveal."""
    return record if fair is None else {**record, RECORD_KEY: fair.record()}
