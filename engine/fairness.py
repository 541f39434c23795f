"""A provably fair deck: commit to the whole order of the cards before the first card is dealt.

Before a hand the bot shuffles a complete deck with ``secrets``, picks a secret salt, and shows
the SHA-256 of the *reveal string*::

    tavolo-verde/v1|<salt, 32 hex digits>|Ah Td 7c ... (every card of the deck, top first)

After the hand it publishes the reveal string; anyone can hash it again and compare
(``python -m engine.verify``). The cards are written in the two-letter ASCII notation (``Td`` is
the 10♦) so that the string survives any terminal and keyboard unchanged; the verifier prints them
with suit symbols.

The committed order is of a whole 52-card deck, whatever the hand's deck: the hand's deck is that
order restricted to its own cards (``hand_deck``: for 32 cards, the 7s up to the aces in the order
they appear). A restriction of a uniform order is a uniform order, and the commitment does not
depend on how many players end up dealt in.

Everything the hand deals comes from that order: the cards dealt one at a time, the texas burns
and board, the stub of the draw. When the stub runs out during the draw, the discards are
reshuffled with ``reshuffle_rng(salt)``, a generator seeded from the salt by HMAC-SHA256, so that
reshuffle too is fixed by the reveal (and unpredictable until the salt is published).
``deal_plan`` replays the deal on a real ``engine.table.Table`` to show who received what.

When the stub runs out and no discard is free yet (poker tradizionale serves three cards to each
player first), the new stock is the muck: the folded hands, in the order they folded. So a replay
of the draw needs, besides every player's discards, the order of the folds before it:
``hand_inputs`` reads both (and who left before any card) from a finished hand's record, and the
bot publishes them in its verify command.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.actions import Action, ActionKind
from engine.cards import Card, CardError, deck, lowest_rank_for_deck, parse_cards
from engine.errors import EngineError
from engine.events import (
    ActionTaken,
    CardBurnt,
    CardsDealt,
    CardsDrawn,
    Event,
    HandStarted,
    HandVoid,
    PlayerTimedOut,
    Street,
    StreetStarted,
)
from engine.history import replay_steps
from engine.options import TableOptions, Variant
from engine.table import Table

__all__ = [
    "PREFIX",
    "Commitment",
    "DealPlan",
    "DrawServed",
    "FairnessError",
    "HandInputs",
    "Reveal",
    "deal_plan",
    "digest_of",
    "hand_deck",
    "hand_inputs",
    "make_deck_commitment",
    "new_deck_commitment",
    "parse_reveal",
    "reshuffle_rng",
    "reveal_string",
    "verify",
]

PREFIX = "tavolo-verde/v1"
SALT_BYTES = 16
_RESHUFFLE_LABEL = b"tavolo-verde/v1|rimescolata"
_STACK = 1_000_000  # deep stacks: nobody is all-in while the deal is replayed


class FairnessError(ValueError):
    """A reveal string or a request that cannot be used; the message is one Italian sentence."""


@dataclass(frozen=True, slots=True)
class Commitment:
    """The reveal string (secret until the hand ends) and its SHA-256 in hex (shown at once)."""

    reveal: str
    digest: str


@dataclass(frozen=True, slots=True)
class Reveal:
    """A parsed reveal string: the salt and the committed order, top of the deck first."""

    salt: bytes
    cards: tuple[Card, ...]


def reveal_string(cards: Sequence[Card], salt: bytes) -> str:
    """The canonical reveal string of an order and a salt."""
    return f"{PREFIX}|{salt.hex()}|{' '.join(card.ascii for card in cards)}"


def digest_of(reveal: str) -> str:
    """SHA-256 of the reveal string's UTF-8 bytes, in lower-case hex."""
    return hashlib.sha256(reveal.encode("utf-8")).hexdigest()


def _check_deck(cards: Sequence[Card]) -> None:
    """A complete deck of its size, every card once."""
    if len(set(cards)) != len(cards):
        raise FairnessError("Il mazzo rivelato contiene una carta due volte.")
    try:
        low = lowest_rank_for_deck(len(cards))
    except CardError:
        raise FairnessError(
            f"Il mazzo rivelato ha {len(cards)} carte: un mazzo completo ne ha da 24 a 52."
        ) from None
    if any(card.rank < low for card in cards):
        raise FairnessError(f"Il mazzo rivelato non è un mazzo completo da {len(cards)} carte.")


def make_deck_commitment(cards: Sequence[Card], salt: bytes) -> Commitment:
    """The commitment to a complete deck order (52 cards for the bot) under a secret salt."""
    _check_deck(cards)
    if len(salt) < SALT_BYTES:
        raise FairnessError(f"Il sale deve avere almeno {SALT_BYTES} byte.")
    reveal = reveal_string(cards, salt)
    return Commitment(reveal, digest_of(reveal))


def new_deck_commitment() -> Commitment:
    """A fresh commitment: 52 cards shuffled and a salt, both from the operating system's
    cryptographic generator (``secrets``)."""
    cards = deck(52)
    secrets.SystemRandom().shuffle(cards)
    return make_deck_commitment(cards, secrets.token_bytes(SALT_BYTES))


def parse_reveal(reveal: str) -> Reveal:
    """Read a reveal string; anything malformed raises ``FairnessError`` with one sentence."""
    parts = reveal.strip().split("|")
    if len(parts) != 3 or parts[0] != PREFIX:
        raise FairnessError(f"La stringa da verificare deve avere la forma «{PREFIX}|sale|carte».")
    salt_hex, card_text = parts[1], parts[2]
    try:
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        raise FairnessError("Il sale della stringa non è un numero esadecimale.") from None
    if len(salt) < SALT_BYTES or salt_hex != salt_hex.strip():
        raise FairnessError(f"Il sale deve avere almeno {2 * SALT_BYTES} cifre esadecimali.")
    try:
        cards = parse_cards(card_text)
    except CardError as error:
        raise FairnessError(str(error)) from None
    _check_deck(cards)
    return Reveal(salt, cards)


def verify(reveal: str, commitment: str | Commitment) -> bool:
    """Whether ``reveal`` hashes to the commitment (hex, case and surrounding spaces ignored)."""
    expected = commitment.digest if isinstance(commitment, Commitment) else commitment
    return hmac.compare_digest(digest_of(reveal), expected.strip().lower())


def reshuffle_rng(salt: bytes) -> random.Random:
    """The generator of the hand's reshuffles of discards, fixed by the salt.

    ``random.Random`` seeded with an integer yields the same ``random()`` sequence on every
    Python version (a guarantee of the ``random`` module), and the table's reshuffle draws only
    ``random()``. The HMAC keeps the seed unrelated to anything shown before the reveal.
    """
    seed = hmac.new(salt, _RESHUFFLE_LABEL, hashlib.sha256).digest()
    return random.Random(int.from_bytes(seed, "big"))


def hand_deck(order: Sequence[Card], size: int) -> tuple[Card, ...]:
    """The deck of ``size`` cards of a hand: the committed order restricted to its cards."""
    low = lowest_rank_for_deck(size)
    cards = tuple(card for card in order if card.rank >= low)
    if len(cards) != size:
        raise FairnessError(f"Il mazzo rivelato non contiene tutte le carte del mazzo da {size}.")
    return cards


@dataclass(frozen=True, slots=True)
class DrawServed:
    """One player's draw: his position (1 = the dealer's left), the cards out and in."""

    position: int
    discarded: tuple[Card, ...]
    received: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealPlan:
    """How a hand is dealt from a committed order.

    ``hands`` are by position, 1 being the dealer's left and the last the dealer, one card at a
    time in that order. Texas: ``burns`` and ``board`` (three burns: before the flop, the turn and
    the river), as they come if the hand goes that far. Draw variants: ``stub`` is what is left
    after the deal, in the order the draw takes it; ``draw`` (when the discards were given) is
    what each player received, ``burnt_card`` the card burnt during the draw (known when no
    reshuffle came first), ``reshuffles`` the reshuffled discards in the order drawn.
    """

    options: TableOptions
    players: int
    deck: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    burns: tuple[Card, ...] = ()
    board: tuple[Card, ...] = ()
    stub: tuple[Card, ...] = ()
    draw: tuple[DrawServed, ...] | None = None
    burnt_in_draw: bool = False
    burnt_card: Card | None = None
    reshuffles: tuple[tuple[Card, ...], ...] = ()
    no_draw_reason: str = ""
    out: tuple[int, ...] = ()
    """The positions of the players who left before any card (poker tradizionale's buio question)."""


def _options(options: TableOptions | Variant | str) -> TableOptions:
    if isinstance(options, TableOptions):
        base = options
    else:
        try:
            base = TableOptions(variant=Variant(options))
        except ValueError:
            raise FairnessError(
                f"La variante «{options}» non esiste: scegli italiana, 32carte o texas."
            ) from None
    # Only the deal matters here: five-card draws are accepted, whatever the table's maximum.
    return replace(base, max_cambio=5) if base.variant is Variant.ITALIANA else base


_NEUTRAL = (ActionKind.BUIO, ActionKind.APRO, ActionKind.VEDO, ActionKind.PAROL, ActionKind.PASSO)


def _step(table: Table) -> list[Event]:
    """The first word, in this order, that moves a replayed hand on without changing its deal: a
    buio when offered (so the draw needs no opener), an opening when the hand qualifies (the
    table refuses it otherwise, and a refused request changes nothing), call, check, pass."""
    legal = {action.kind: action for action in table.legal_actions()}
    player = table.to_act
    assert player is not None
    for kind in _NEUTRAL:
        if kind in legal:
            amount = legal[kind].min if kind is ActionKind.APRO else None
            try:
                return table.act(Action(player, kind, amount))
            except EngineError:
                continue
    raise AssertionError(f"no neutral word among {sorted(legal)}")  # pragma: no cover


def deal_plan(
    reveal: str | Reveal,
    options: TableOptions | Variant | str,
    players: int,
    draws: Sequence[Sequence[Card] | None] | None = None,
    out: Collection[int] = (),
    folds: Sequence[int] = (),
) -> DealPlan:
    """Replay the deal of ``players`` from the committed order on a real table.

    ``draws`` (draw variants) gives, by position, the cards each player discarded: ``()`` for
    servito, ``None`` for a player who folded before the draw. ``out`` (poker tradizionale) gives
    the positions of players who left while the buio was asked, before any card: the deck stays the
    one for ``players``, the cards go round the others. ``folds`` gives the positions of the
    players who folded before the draw in the order they folded (their hands went to the muck in
    that order, and a reshuffle of the muck depends on it); a folder not named there is taken
    after them, in position order. The table is the engine's own, built as the bot builds it: the
    hand's deck in the committed order and ``reshuffle_rng``.
    """
    parsed = parse_reveal(reveal) if isinstance(reveal, str) else reveal
    opts = _options(options)
    variant = opts.variant
    if not variant.min_players <= players <= opts.max_seats:
        raise FairnessError(
            f"Nella variante {variant} si gioca da {variant.min_players} a {opts.max_seats} giocatori."
        )
    if out and variant is not Variant.ITALIANA:
        raise FairnessError(
            "Si esce prima delle carte solo nel poker tradizionale, mentre si chiede il buio."
        )
    if any(not 1 <= position <= players for position in out):
        raise FairnessError(f"Le posizioni vanno da 1 a {players}.")
    if draws is not None:
        if variant is Variant.TEXAS:
            raise FairnessError("Nel texas non c'è il cambio: gli scarti non servono.")
        if len(draws) != players:
            raise FairnessError(f"Servono gli scarti di tutti i {players} giocatori, uno per posizione.")
    if draws is not None and sum(d is not None for d in draws) < 2:
        raise FairnessError("Al cambio arrivano almeno due giocatori: indica gli scarti di chi è rimasto.")
    if folds:
        if draws is None:
            raise FairnessError("L'ordine in cui si è passato serve solo con gli scarti di tutti.")
        if len(set(folds)) != len(folds):
            raise FairnessError("Ogni giocatore passa una volta sola: l'ordine ripete una posizione.")
        if any(not 1 <= position <= players for position in folds):
            raise FairnessError(f"Le posizioni vanno da 1 a {players}.")
        if any(draws[position - 1] is not None or position in out for position in folds):
            raise FairnessError("Nell'ordine in cui si è passato va solo chi è uscito prima del cambio.")
    table = Table(opts, rng=reshuffle_rng(parsed.salt))
    try:
        size, _ = table.deck_for(players)
    except EngineError as error:
        raise FairnessError(str(error)) from None
    cards = hand_deck(parsed.cards, size)
    for pid in range(1, players + 1):
        table.sit(pid, _STACK)
    events = table.start_hand(deck=cards)
    started = next(e for e in events if isinstance(e, HandStarted))
    position = {pid: i for i, pid in enumerate(started.players)}
    # Those who left before the deal: the one asked the buio last (his leave may close the question).
    leaving = sorted({started.players[pos - 1] for pos in out}, key=lambda pid: pid == table.to_act)
    for pid in leaving:
        if any(isinstance(e, CardsDealt) for e in events):
            raise FairnessError("Con questi giocatori le carte si danno subito: nessuno esce prima.")
        events += table.leave(pid)
    drawing = False
    while table.to_act is not None and not any(isinstance(e, HandVoid) for e in events):
        street = table.street
        if street is Street.CAMBIO:
            if draws is None:
                break
            if not drawing:
                drawing = True
                first = [started.players[p - 1] for p in folds]
                for pid in first + [pid for pid in started.players if pid not in first]:
                    gone = position[pid] + 1 in out
                    if draws[position[pid]] is None and not gone and table.to_act is not None:
                        events += table.leave(pid)
                continue
            pid = table.to_act
            discards = tuple(draws[position[pid]] or ())
            kind = ActionKind.CAMBIO if discards else ActionKind.SERVITO
            try:
                events += table.act(Action(pid, kind, len(discards) or None, discards))
            except EngineError as error:
                raise FairnessError(f"Posizione {position[pid] + 1}: {error}") from None
            continue
        if street is Street.SECONDO_GIRO and variant is not Variant.TEXAS:
            break
        if draws is None and variant is not Variant.TEXAS and any(isinstance(e, CardsDealt) for e in events):
            break  # the deal is all that is asked
        events += _step(table)
    hands: list[tuple[Card, ...]] = [() for _ in range(players)]
    board: list[Card] = []
    served: dict[int, DrawServed] = {}
    for event in events:
        if isinstance(event, CardsDealt):
            hands[position[event.player]] = event.cards
        elif isinstance(event, StreetStarted) and event.board:
            board.extend(event.board)
        elif isinstance(event, CardsDrawn):
            pos = position[event.player]
            served[pos] = DrawServed(pos + 1, event.discarded, event.received)
    if variant is Variant.TEXAS:
        n = 2 * players
        burns = (cards[n], cards[n + 4], cards[n + 6])
        expected_board = (*cards[n + 1 : n + 4], cards[n + 5], cards[n + 7])
        if tuple(board) != expected_board:  # pragma: no cover - the engine changed how it deals
            raise AssertionError("the engine no longer deals the board after one burn per street")
        return DealPlan(opts, players, cards, tuple(hands), burns=burns, board=tuple(board))
    dealt_so_far = sum(len(e.cards) for e in events if isinstance(e, CardsDealt))
    left = tuple(sorted(set(out)))
    plan = DealPlan(opts, players, cards, tuple(hands), stub=cards[dealt_so_far:], out=left)
    if draws is None:
        return plan
    if not drawing:
        return replace(plan, no_draw_reason="nessuno ha aperto: la mano è nulla e non c'è cambio")
    for pos, request in enumerate(draws):
        if request is not None and not request and pos not in served:
            served[pos] = DrawServed(pos + 1, (), ())
    reshuffles = tuple(
        tuple(Card.from_code(c) for c in reversed(r)) for r in table.hand_record()["reshuffles"]
    )
    burnt = any(isinstance(e, CardBurnt) for e in events)
    burnt_card = None
    if burnt and not reshuffles:  # the one card of the stub taken but received by nobody
        received = {card for d in served.values() for card in d.received}
        taken = plan.stub[: len(received) + 1]
        burnt_card = next(card for card in taken if card not in received)
    return replace(
        plan,
        draw=tuple(served[pos] for pos in sorted(served)),
        burnt_in_draw=burnt,
        burnt_card=burnt_card,
        reshuffles=reshuffles,
    )


@dataclass(frozen=True, slots=True)
class HandInputs:
    """What ``deal_plan`` needs of a finished hand besides the reveal, read from its record.

    ``players`` are the player ids dealt in, from the dealer's left (position 1) to the dealer;
    ``out`` the positions of those who left before any card; ``draws`` (None when the hand ended
    before the draw was dealt, or in texas) each position's discards, ``()`` for servito and None
    for a player who was out of the hand at the draw; ``folds`` the positions of the players who
    folded with cards before the draw, in the order they folded."""

    options: TableOptions
    players: tuple[int, ...]
    out: tuple[int, ...] = ()
    draws: tuple[tuple[Card, ...] | None, ...] | None = None
    folds: tuple[int, ...] = ()


def _may_fold(event: Event) -> bool:
    """A "passo" (a fold, or a check) or a timeout, the acting player's or one played for a player
    sitting out: after it someone may have folded."""
    return isinstance(event, PlayerTimedOut) or (
        isinstance(event, ActionTaken) and event.kind is ActionKind.PASSO
    )


def hand_inputs(record: Mapping[str, Any]) -> HandInputs:
    """Replay a finished hand's record (engine.history) and read what its deal plan needs: who was
    dealt in, who left before the cards, who folded before the draw and in which order, and what
    everyone discarded. Raises ``BadSavedState`` for a record that does not replay."""
    steps = replay_steps(record)
    table, events = next(steps)
    started = next(e for e in events if isinstance(e, HandStarted))
    players = started.players
    if table.options.variant is Variant.TEXAS:
        return HandInputs(table.options, players)  # every player dealt in gets his cards at once, no draw
    position = {pid: i + 1 for i, pid in enumerate(players)}
    ops = list(record["ops"])
    dealt: set[int] = set()
    left: list[int] = []  # left the table before any card was dealt
    folded: list[int] = []  # in the order they folded, while the draw was still to be dealt
    discarded: dict[int, tuple[Card, ...]] = {}
    draw_dealt = False

    def take(step: Sequence[Event]) -> None:
        nonlocal draw_dealt
        for event in step:
            if isinstance(event, CardsDealt):
                dealt.add(event.player)
            elif isinstance(event, CardsDrawn):
                discarded[event.player] = event.discarded
            elif isinstance(event, StreetStarted) and event.street is Street.SECONDO_GIRO:
                draw_dealt = True

    take(events)
    for op, (table, step) in zip(ops, steps, strict=False):
        take(step)
        now: set[int] = set()
        if op[0] == "leave" and int(op[1]) in position:
            now.add(int(op[1]))
            if not dealt:
                left.append(int(op[1]))
        if op[0] != "act" or any(_may_fold(e) for e in step):  # the view is dear: only when needed
            now.update(s.player for s in table.public_view().seats if s.folded and s.player in position)
        # Several may fold in one step (away players' turns played one after another, past the
        # dealer too): in the order the step played them, which is the order of the muck.
        said = {e.player: i for i, e in enumerate(step) if isinstance(e, ActionTaken | PlayerTimedOut)}
        folded += sorted(now.difference(folded), key=lambda p: (said.get(p, len(step)), position[p]))
        if draw_dealt:
            break  # the draw is dealt: later folds and requests change nothing of the deal plan
    out = tuple(position[p] for p in (left if not dealt else [p for p in players if p not in dealt]))
    variant = table.options.variant
    if variant is Variant.TEXAS or not draw_dealt:
        return HandInputs(table.options, players, tuple(sorted(out)))
    draws = tuple(
        discarded.get(pid, ()) if pid not in folded and position[pid] not in out else None for pid in players
    )
    folds = tuple(position[p] for p in folded if position[p] not in out)
    return HandInputs(table.options, players, tuple(sorted(out)), draws, folds)
