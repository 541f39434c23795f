"""The table of one channel: a state machine that plays hand after hand (rules §2-§5).

This module holds what every game shares: the seats, the hand's life from the deal to its end,
``act`` and the other requests, the queries and the saved state. The game itself is composed in
layers, each a subclass overriding the hooks declared here (as pokerkit composes its games):

* ``engine.betting``: betting rounds, legal ranges and pots (every game);
* ``engine.showdown``: valuing the live hands, awarding the pots, showing or mucking;
* ``engine.draw``: the draw of italiana and 32carte;
* ``engine.variants``: one small class per game (italiana, 32carte, texas).

``Table(options)`` is a factory: it returns the class of ``options.variant``, a subclass of
``Table``, so callers only ever name ``Table``.

Design: plain lists indexed by seat and a handful of ints, so an action costs a few list
operations. Every public method validates completely before it changes anything, so a refused
request (an ``EngineError``, see ``engine.errors``) leaves the table as it was. Each call returns
the events it produced; a player's cards are only ever in events addressed to him until showdown.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat, starmap
from typing import Any, ClassVar

from engine._table_rules import full_deck, lowest_rank
from engine._table_view import SeatView, TableView
from engine.actions import Action, ActionKind, BetSizes, LegalAction
from engine.cards import Card
from engine.errors import (
    AlreadySeated,
    AmountRequired,
    BadDeck,
    BadSavedState,
    EngineError,
    HandInProgress,
    IllegalAction,
    NoHandRunning,
    NotEnoughPlayers,
    NotSeated,
    NotYourTurn,
    TableFull,
    UnknownWord,
)
from engine.events import (
    CardsDealt,
    Event,
    HandEnded,
    HandSkipped,
    HandStarted,
    OpeningShown,
    PlayerCameBack,
    PlayerLeft,
    PlayerSat,
    PlayerSatOut,
    PlayerTimedOut,
    StackReleased,
    Street,
)
from engine.options import TableOptions
from engine.ranking import Ranking
from engine.records import STATE_VERSION, HandRecord, Op, Snapshot, TableState, state_of

__all__ = ["LegalAction", "SeatView", "Table", "TableView"]


J, K = 11, 13  # the opening levels: a pair of jacks, of kings

# Enum members bound once as module globals: ``Street.CAMBIO`` goes through the enum metaclass,
# about ten times a global read, on paths run for every action.
_APRO, _PASSO, _PAROL, _SERVITO = ActionKind.APRO, ActionKind.PASSO, ActionKind.PAROL, ActionKind.SERVITO
_PUNTO, _RILANCIO = ActionKind.PUNTO, ActionKind.RILANCIO
_STREET_BUIO, _STREET_APERTURA, _STREET_CAMBIO = Street.BUIO, Street.APERTURA, Street.CAMBIO
_ACTION_KIND = ActionKind
_INTERNATIONAL = Ranking.INTERNAZIONALE


# The record of the hand being played: its start and end are snapshots until asked for, its deck
# Card objects (codes only when the record is asked for).
_Live = dict[str, Any]


class Table:
    """One poker table, hand after hand. See DESIGN.md "Table seam".

    ``Table(options, rng=...)`` returns the table of ``options.variant`` (module doc)."""

    def __new__(cls, options: TableOptions | None = None, rng: random.Random | None = None) -> Table:
        # ``options`` None: ``copy`` and ``pickle`` make an instance of the game's class itself.
        if cls is Table:
            from engine.variants import table_class  # the variants subclass this module

            if options is None:
                raise TypeError("Table() needs the table's options")
            cls = table_class(options.variant)
        return object.__new__(cls)

    def __init__(self, options: TableOptions, rng: random.Random | None = None) -> None:
        self.options = options
        self._options_dict = options.to_dict()
        self._limit = options.limit  # a property: read once
        # Players dealt in -> deck size, ranking, lowest rank and the deck in its natural order.
        self._decks: dict[int, tuple[int, Ranking, int, tuple[Card, ...]]] = {}
        self._rng: random.Random = rng if rng is not None else secrets.SystemRandom()
        # The running hand's reshuffles when it was dealt from a committed deck (``start_hand``);
        # None: the table's own generator.
        self._hand_rng: random.Random | None = None
        n = options.max_seats
        self._n = n
        self._pid: list[int | None] = [None] * n
        self._stack = [0] * n
        self._sitting_out = [False] * n
        self._timeouts = [0] * n
        self._leaving = [False] * n
        self._dealer: int | None = None
        self._hand_number = 0
        # Italiana's state between hands, saved for every game (rules §2.4, §2.8).
        self._level = J
        self._carried = 0
        self._carried_by: dict[int, int] = {}
        self._parol_target = 0
        self._parol_paid: dict[int, int] = {}
        self._no_invito = False
        self._reset_hand_state()
        self._record: _Live | None = None
        self._replay_shuffles: list[list[int]] | None = None

    # ------------------------------------------------------------------ hand state

    def _reset_hand_state(self) -> None:
        """The state of one hand; each layer adds its own (and calls this first)."""
        n = self._n
        self._street: Street | None = None
        self._order: list[int] = []  # seats dealt in, clockwise from the dealer's left
        self._ring: list[int] = []  # the order twice
        self._dealt: list[int] = []  # the same seats in seat order (pots list their seats so)
        self._pos: dict[int, int] = {}
        self._in_hand = [False] * n
        self._folded = [True] * n
        self._bet = [0] * n
        self._cards: list[list[Card]] = [[] for _ in range(n)]
        self._drawn: list[int | None] = [None] * n
        self._pot = 0
        self._to_act: int | None = None
        self._legal_cache: tuple[LegalAction, ...] | None = None
        self._cur_bet = 0
        self._stock: list[Card] = []
        self._muck: list[Card] = []
        self._board: list[Card] = []
        self._opener: int | None = None
        self._opening_cards: tuple[Card, ...] = ()
        self._lowest = 2
        self._ranking = _INTERNATIONAL
        self._deck_size = 52
        self._ask: tuple[int, str] | None = None  # italiana's buio phase: who is asked what

    # ------------------------------------------------------------------ hooks of the layers

    def _deal_in(self, events: list[Event]) -> None:
        """The game's start of a hand once the dealer and the order are set (blinds, invito, deal)."""
        raise NotImplementedError

    def deck_for(self, players: int) -> tuple[int, Ranking]:
        """Deck size and ranking of a hand dealt to ``players`` (rules §2 *Players and deck*, §3, §4)."""
        raise NotImplementedError

    def _opening_level(self) -> int | None:
        """The opening level shown with the hand (italiana only)."""
        return None

    def _legal(self, s: int) -> tuple[LegalAction, ...]:
        """The legal actions of seat ``s``, to act now."""
        raise NotImplementedError

    def _check_amount(self, seat: int, kind: ActionKind, match: LegalAction, action: Action) -> int:
        raise NotImplementedError

    def _check_discards(
        self, seat: int, kind: ActionKind, cards: tuple[Card, ...]
    ) -> tuple[tuple[Card, ...], list[int], list[Card]]:
        raise NotImplementedError  # only reached on the draw's street, in the draw games

    def _check_opening(self, seat: int) -> None:
        raise NotImplementedError  # only reached when ``apro`` is legal, in italiana

    # Who plays a decision: per street (its value), the name of the method each layer provides,
    # all of them with the signature ``(s, kind, amount, cards, kept, events)``: ``kept`` is the
    # hand without the discards. ``__init_subclass__`` resolves the names once per class, so a
    # decision costs one dict lookup and one call (``_apply``), however many layers there are.
    _APPLIER_NAMES: ClassVar[dict[str, str]] = {}
    _appliers: ClassVar[dict[str, Callable[..., None]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._appliers = {street: getattr(cls, name) for street, name in cls._APPLIER_NAMES.items()}

    def _apply(
        self,
        s: int,
        kind: ActionKind,
        amount: int,
        cards: tuple[Card, ...],
        kept: list[Card] | None,
        events: list[Event],
    ) -> None:
        """Play a validated decision of seat ``s`` on the current street."""
        assert self._street is not None
        self._appliers[self._street._value_](self, s, kind, amount, cards, kept, events)

    def _fold_out_of_turn(self, s: int, events: list[Event]) -> None:
        """A player who leaves mid-hand: folded now, wherever the hand stands."""
        raise NotImplementedError

    def _pots(self, gathered: bool = False) -> list[tuple[int, tuple[int, ...]]]:
        """Main pot and side pots as (amount, eligible seats)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ helpers

    def _seat_of(self, player: int) -> int:
        for seat, pid in enumerate(self._pid):
            if pid == player:
                return seat
        raise NotSeated("Non sei seduto a questo tavolo.")

    @property
    def hand_running(self) -> bool:
        return self._street is not None

    @property
    def to_act(self) -> int | None:
        return None if self._to_act is None else self._pid[self._to_act]

    @property
    def street(self) -> Street | None:
        return self._street

    @property
    def hand_number(self) -> int:
        return self._hand_number

    def _record_op(self, *op: Any) -> None:
        if self._record is not None and self._street is not None:
            self._record["ops"].append(list(op))

    def _debt_of(self, pid: int) -> int:
        if not self._parol_target:
            return 0
        return max(0, self._parol_target - self._parol_paid.get(pid, 0))

    # ------------------------------------------------------------------ seating

    def sit(self, player: int, stack: int) -> list[Event]:
        """Take the first free seat; during a hand the player waits for the next one."""
        if not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0:
            raise AmountRequired("Per sederti serve almeno una fiche.")
        if player in self._pid:
            raise AlreadySeated("Sei già seduto a questo tavolo.")
        try:
            seat = self._pid.index(None)
        except ValueError:
            raise TableFull(f"Il tavolo è pieno: al massimo {self._n} giocatori.", seats=self._n) from None
        self._record_op("sit", player, stack)
        self._pid[seat] = player
        self._stack[seat] = stack
        self._sitting_out[seat] = False
        self._timeouts[seat] = 0
        self._leaving[seat] = False
        self._folded[seat] = True
        self._in_hand[seat] = False
        return [PlayerSat(player, seat, stack, self.hand_running)]

    def leave(self, player: int) -> list[Event]:
        """Leave the table. During a hand a dealt-in player is folded at once; his stack is
        released now and his seat frees when the hand ends (his chips in the pot stay there)."""
        seat = self._seat_of(player)
        if self._leaving[seat]:
            raise NotSeated("Hai già lasciato il tavolo: il posto si libera a fine mano.")
        self._record_op("leave", player)
        events: list[Event] = []
        amount = self._stack[seat]
        self._stack[seat] = 0
        events.append(StackReleased(player, amount))
        if self.hand_running and self._in_hand[seat]:
            self._leaving[seat] = True
            if not self._folded[seat]:
                self._fold_out_of_turn(seat, events)
        else:
            self._pid[seat] = None
            self._sitting_out[seat] = False
            self._timeouts[seat] = 0
            events.append(PlayerLeft(player, seat, False))
        return events

    def sit_out(self, player: int) -> list[Event]:
        """Stop being dealt in; during a hand the engine plays his turns as timeouts would."""
        seat = self._seat_of(player)
        if self._sitting_out[seat]:
            raise AlreadySeated("Sei già fuori dal gioco.")
        self._record_op("sit_out", player)
        self._sitting_out[seat] = True
        events: list[Event] = [PlayerSatOut(player, False)]
        self._autoplay(events)
        return events

    def come_back(self, player: int) -> list[Event]:
        seat = self._seat_of(player)
        if not self._sitting_out[seat]:
            raise AlreadySeated("Sei già in gioco.")
        self._record_op("come_back", player)
        self._sitting_out[seat] = False
        self._timeouts[seat] = 0
        return [PlayerCameBack(player)]

    # ------------------------------------------------------------------ starting a hand

    def _participants(self) -> tuple[list[int], list[tuple[int, int]]]:
        """Seats dealt in next hand, and (seat, debt) of those who cannot pay a paròl debt."""
        playing: list[int] = []
        skipped: list[tuple[int, int]] = []
        stack, sitting_out = self._stack, self._sitting_out
        debts = bool(self._parol_target)  # debts only exist after a paròl pot
        for seat, pid in enumerate(self._pid):
            if pid is None or sitting_out[seat] or stack[seat] <= 0:
                continue
            if debts:
                debt = self._debt_of(pid)
                if debt and stack[seat] < debt:
                    skipped.append((seat, debt))
                    continue
            playing.append(seat)
        return playing, skipped

    def can_start(self) -> bool:
        return not self.hand_running and len(self._participants()[0]) >= 2

    def start_hand(
        self,
        deck: Sequence[Card] | None = None,
        *,
        committed: Sequence[Card] | None = None,
        reshuffle_rng: random.Random | None = None,
    ) -> list[Event]:
        """Deal a new hand. ``deck`` (tests, replays) gives the top of the deck in order; the
        rest of the deck follows in its natural order.

        ``committed`` is a provably fair deal (engine/fairness.py): a whole deck order shown by its
        hash before the hand; the hand's deck is that order restricted to its own cards, the hand
        is dealt from it with no shuffle, and ``reshuffle_rng`` (seeded from the commitment's salt)
        draws every reshuffle of the stock during this hand, so the reveal fixes the whole deal."""
        if self.hand_running:
            raise HandInProgress("C'è già una mano in corso.")
        playing, skipped = self._participants()
        if len(playing) < 2:
            raise NotEnoughPlayers("Servono almeno 2 giocatori in gioco per dare le carte.")
        plan = self._decks.get(len(playing))
        if plan is None:  # ``deck_for`` depends on the options and the players only
            size, ranking = self.deck_for(len(playing))
            plan = (size, ranking, lowest_rank(size), full_deck(size))
        size, ranking, low, natural = plan
        ordered = list(natural)
        if committed is not None:
            if deck is not None:
                raise BadDeck("Un mazzo indicato e un mazzo impegnato non vanno insieme.")
            deck = [card for card in committed if card.rank >= low]
            if len(set(deck)) != size or len(deck) != size:
                raise BadDeck("Il mazzo impegnato non contiene tutte le carte della mano.")
        if deck is not None:
            given = list(deck)
            if len(set(given)) != len(given):
                raise BadDeck("Il mazzo indicato contiene una carta due volte.")
            for card in given:
                if card.rank < low:
                    raise BadDeck(f"La carta {card} non fa parte del mazzo da {size} carte.")
            taken = set(given)
            rest = [c for c in ordered if c not in taken]
            ordered = given + rest
        # Validated: from here on the hand starts.
        self._decks[len(playing)] = plan  # kept from here on: a refused request changes nothing
        start_state = self._snapshot()
        self._hand_rng = reshuffle_rng
        if deck is None:
            ordered = self._shuffle(ordered, initial=True)
        self._reset_hand_state()
        self._record = {
            "version": STATE_VERSION,
            "start": start_state,  # a snapshot tuple; a dict once asked for (``_record_state``)
            "deck": ordered,  # Card objects; codes only when the record is asked for
            "reshuffles": [],
            "ops": [],
            "end": None,
        }
        self._deck_size, self._ranking, self._lowest = size, ranking, low
        self._stock = ordered[::-1]
        # Dealer: one seat clockwise among those dealt in, void hands included.
        # ``playing`` is in seat order, so clockwise from a seat is a rotation of it.
        previous = self._dealer if self._dealer is not None else self._n - 1
        dealer = playing[0]
        for s in playing:
            if s > previous:
                dealer = s
                break
        self._dealer = dealer
        self._hand_number += 1
        cut = len(playing)
        for i, s in enumerate(playing):
            if s > dealer:
                cut = i
                break
        order = self._order = playing[cut:] + playing[:cut]
        self._ring = order + order  # clockwise from any seat: a slice of it
        self._dealt = playing
        self._pos = {s: i for i, s in enumerate(order)}
        in_hand, folded = self._in_hand, self._folded
        for s in order:
            in_hand[s] = True
            folded[s] = False
        self._street = _STREET_BUIO  # running from here on; the game sets its first street
        self._legal_cache = None
        pids = self._pid
        events: list[Event] = [
            HandStarted(
                self._hand_number,
                pids[dealer] or 0,
                tuple([pids[s] or 0 for s in order]),
                size,
                self._opening_level(),
                self._carried,
            )
        ]
        for seat, debt in skipped:
            events.append(HandSkipped(pids[seat] or 0, debt))
        self._deal_in(events)
        self._autoplay(events)
        return events

    def _deal(self, count: int, events: list[Event]) -> None:
        """One card at a time clockwise: the top ``count * players`` cards of the stock (its end),
        taken by slices rather than one ``pop`` per card."""
        stock = self._stock
        folded = self._folded
        seats = [s for s in self._order if not folded[s]]
        players = len(seats)
        total = count * players
        if not total:
            return
        if total > len(stock):
            raise RuntimeError("no card left to deal")
        dealt = stock[-total:]
        del stock[-total:]
        dealt.reverse()
        pids, hands = self._pid, self._cards
        for j, s in enumerate(seats):
            hand = hands[s]
            hand.extend(dealt[j::players])
            pid = pids[s] or 0
            events.append(CardsDealt(pid, tuple(hand), private_to=pid))

    def _shuffle(self, cards: list[Card], initial: bool = False) -> list[Card]:
        """A uniform random order: sorting by independent random floats (53 bits each, so a tie
        is practically impossible) instead of ``shuffle``'s Python loop. The floats are drawn in
        card order and the sort is stable, as ``sorted(cards, key=lambda _: random())`` would do,
        but every step runs in C. Reshuffles are recorded so that a replay deals the same cards."""
        if not initial and self._replay_shuffles:
            cards = [Card.from_code(c) for c in self._replay_shuffles.pop(0)]
        else:
            rng = self._rng if initial or self._hand_rng is None else self._hand_rng
            keys = list(starmap(rng.random, repeat((), len(cards))))
            cards = list(map(cards.__getitem__, sorted(range(len(cards)), key=keys.__getitem__)))
        if not initial and self._record is not None:
            self._record["reshuffles"].append([c.code for c in cards])
        return cards

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the player to act may say now (empty when nobody is to act); computed once per
        state and shared (the tuple and its values are immutable)."""
        seat = self._to_act
        if seat is None:
            return ()
        cached = self._legal_cache
        if cached is None:
            cached = self._legal_cache = self._legal(seat)
        return cached

    def bet_sizes(self, kind: ActionKind) -> BetSizes | None:
        """The named amounts of a bet or raise the player to act may make now (None otherwise):
        one place for what *cip*, *piatto* and *tutto* mean, whoever types them."""
        seat = self._to_act
        if seat is None or kind not in (_APRO, _PUNTO, _RILANCIO):
            return None
        legal = next((la for la in self.legal_actions() if la.kind is kind), None)
        if legal is None:
            return None
        facing = self._cur_bet - self._bet[seat] if kind is _RILANCIO else 0
        pot = max(legal.min, min(legal.max, self._pot + facing))
        return BetSizes(legal.min, pot, self._stack[seat] - facing)

    # ------------------------------------------------------------------ acting

    def act(self, action: Action) -> list[Event]:
        """Apply one decision of the player to act, or refuse it with an ``EngineError``."""
        street = self._street
        if street is None:
            raise NoHandRunning("Non c'è nessuna mano in corso.")
        seat = self._to_act
        player = action.player
        if seat is None or self._pid[seat] != player:
            if player not in self._pid:
                raise NotSeated("Non sei seduto a questo tavolo.")
            raise NotYourTurn("Non è il tuo turno.", to_act=self.to_act)
        kind = action.kind
        if kind.__class__ is not _ACTION_KIND:
            try:
                kind = ActionKind(kind)
            except ValueError:
                raise UnknownWord(f"Non conosco la parola «{kind}».", word=str(kind)) from None
        legal = self._legal_cache  # filled by the caller's ``legal_actions`` in the usual case
        if legal is None:
            legal = self.legal_actions()
        for match in legal:
            if match.kind is kind:
                break
        else:
            words = tuple([str(la.kind) for la in legal])
            said = ", ".join(la.kind.word for la in legal)
            raise IllegalAction(
                f"Adesso non puoi dire «{kind.word}»: puoi dire {said}.", kind=str(kind), legal=words
            )
        # Only the words without an amount (passo, parol, servito) have a zero range: the amount
        # check, which would return 0 for them whatever was given, is skipped.
        amount = self._check_amount(seat, kind, match, action) if match.max else 0
        cards: tuple[Card, ...] = ()
        codes: list[int] | None = None
        kept: list[Card] | None = None
        if street is _STREET_CAMBIO:
            cards, codes, kept = self._check_discards(seat, kind, action.cards)
        if kind is _APRO:
            self._check_opening(seat)
        # Validated: mutate.
        record = self._record
        if record is not None:
            record["ops"].append(["act", player, kind._value_, amount, codes or []])
        self._timeouts[seat] = 0
        events: list[Event] = []
        self._legal_cache = None
        # ``_apply``, without its extra call: this runs for every decision.
        self._appliers[street._value_](self, seat, kind, amount, cards, kept, events)
        nxt = self._to_act
        if nxt is not None and self._sitting_out[nxt]:
            self._autoplay(events)
        return events

    # ------------------------------------------------------------------ timeouts and autoplay

    def _timeout_kind(self, s: int) -> ActionKind:
        street = self._street
        if street is _STREET_CAMBIO:
            return _SERVITO
        if street is _STREET_BUIO or street is _STREET_APERTURA:
            return _PASSO
        return _PAROL if self._cur_bet == self._bet[s] else _PASSO

    def timeout(self) -> list[Event]:
        """The player to act ran out of time (rules §5.5)."""
        s = self._to_act
        if self._street is None or s is None:
            raise NoHandRunning("Non c'è nessuno che debba parlare.")
        pid = self._pid[s] or 0
        kind = self._timeout_kind(s)
        self._record_op("timeout")
        events: list[Event] = [PlayerTimedOut(pid, kind)]
        self._timeouts[s] += 1
        if self._timeouts[s] >= 2 and not self._sitting_out[s]:
            self._sitting_out[s] = True
            events.append(PlayerSatOut(pid, True))
        self._legal_cache = None
        self._apply(s, kind, 0, (), None, events)
        self._autoplay(events)
        return events

    def _autoplay(self, events: list[Event]) -> None:
        """Play at once the turns of players who sat out during the hand."""
        while self._street is not None and self._to_act is not None and self._sitting_out[self._to_act]:
            s = self._to_act
            self._legal_cache = None
            self._apply(s, self._timeout_kind(s), 0, (), None, events)

    # ------------------------------------------------------------------ the end of a hand

    def _finish_hand(self, events: list[Event], awarded: bool) -> None:
        if self._opener is not None and self._opening_cards:
            events.append(OpeningShown(self._pid[self._opener] or 0, self._opening_cards))
        if awarded:
            self._level = J
            self._carried = 0
            self._carried_by = {}
            self._parol_target = 0
            self._parol_paid = {}
            self._no_invito = False
        self._street = None
        self._to_act = None
        self._legal_cache = None
        pids, stack, leaving = self._pid, self._stack, self._leaving
        for seat, pid in enumerate(pids):
            if pid is None:
                continue
            if leaving[seat] or stack[seat] <= 0:
                events.append(PlayerLeft(pid, seat, not leaving[seat]))
                pids[seat] = None
                stack[seat] = 0
                leaving[seat] = False
                self._sitting_out[seat] = False
                self._timeouts[seat] = 0
        stacks = tuple([(pid, stack[s]) for s, pid in enumerate(pids) if pid is not None])
        events.append(HandEnded(self._hand_number, stacks))
        if self._record is not None:
            self._record["end"] = self._snapshot()

    # ------------------------------------------------------------------ queries

    def cards_of(self, player: int) -> tuple[Card, ...]:
        seat = self._seat_of(player)
        return tuple(self._cards[seat]) if self.hand_running else ()

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(self._board)

    def total_chips(self) -> int:
        """Stacks, the pot and the carried pot: constant except for sits and released stacks."""
        return sum(self._stack) + self._pot + self._carried

    def seats(self) -> dict[int, int]:
        """Player id → stack, for every seated player."""
        return {pid: self._stack[s] for s, pid in enumerate(self._pid) if pid is not None}

    def public_view(self) -> TableView:
        running = self.hand_running
        seats = []
        for s, pid in enumerate(self._pid):
            if pid is None:
                continue
            in_hand = running and self._in_hand[s]
            seats.append(
                SeatView(
                    seat=s,
                    player=pid,
                    stack=self._stack[s],
                    bet=self._bet[s] if in_hand else 0,
                    in_hand=in_hand and not self._folded[s],
                    folded=in_hand and self._folded[s],
                    all_in=in_hand and not self._folded[s] and self._stack[s] == 0,
                    sitting_out=self._sitting_out[s],
                    leaving=self._leaving[s],
                    cards_drawn=self._drawn[s] if in_hand else None,
                    debt=0 if in_hand else self._debt_of(pid),  # paid at the deal; counted again at its end
                )
            )
        pots = tuple(amount for amount, _ in self._pots(gathered=True)) if running else ()
        return TableView(
            variant=self.options.variant,
            cip=self.options.cip,
            invito=self.options.invito,
            limite=self.options.limit,
            hand_number=self._hand_number,
            hand_running=running,
            street=self._street,
            dealer=None if self._dealer is None else self._pid[self._dealer],
            seats=tuple(seats),
            board=tuple(self._board),
            pot=self._pot,
            pots=pots,
            current_bet=self._cur_bet if running else 0,
            opening_level=self._opening_level(),
            carried=self._carried,
            to_act=self.to_act,
            opener=None if self._opener is None or not running else self._pid[self._opener],
            can_start=self.can_start(),
        )

    # ------------------------------------------------------------------ persistence

    def to_dict(self) -> TableState:
        """The table between hands (JSON-compatible). During a hand: the state at its start,
        which is what the storage layer restores after a crash (the hand is cancelled)."""
        if self.hand_running and self._record is not None:
            start = self._record_state("start")
            assert start is not None
            return start
        return state_of(self._snapshot(), self._options_dict)

    def _snapshot(self) -> Snapshot:
        """What ``to_dict`` needs, copied in a few C-level list copies: every hand takes two
        (its start and its end) and most are never turned into a dict."""
        return (
            self._pid[:],
            self._stack[:],
            self._sitting_out[:],
            self._timeouts[:],
            self._dealer,
            self._hand_number,
            self._level,
            self._carried,
            dict(self._carried_by) if self._carried_by else {},
            self._parol_target,
            dict(self._parol_paid) if self._parol_paid else {},
            self._no_invito,
        )

    def _record_state(self, key: str) -> TableState | None:
        """The record's start or end state as a dict, built from its snapshot on first use (and
        kept, so that every caller gets the same dict)."""
        assert self._record is not None
        value = self._record[key]
        if isinstance(value, tuple):
            value = self._record[key] = state_of(value, self._options_dict)
        state: TableState | None = value
        return state

    @classmethod
    def from_dict(cls, data: TableState | Mapping[str, Any], rng: random.Random | None = None) -> Table:
        """A table from its saved state (``state``, ``to_dict``); ``BadSavedState`` if it cannot be
        read. The class is the game's, whichever class it is called on (``Table.from_dict``)."""
        if data.get("version") != STATE_VERSION:
            raise BadSavedState("Lo stato salvato del tavolo ha una versione sconosciuta.")
        try:
            options = TableOptions.from_dict(data["options"])
        except EngineError as error:
            raise BadSavedState(f"Lo stato salvato del tavolo non si legge: {error}") from None
        except (KeyError, TypeError, ValueError):
            raise BadSavedState("Lo stato salvato del tavolo non si legge.") from None
        table = cls(options, rng=rng)
        try:
            for entry in data["seats"]:
                s = int(entry["seat"])
                table._pid[s] = int(entry["player"])
                table._stack[s] = int(entry["stack"])
                table._sitting_out[s] = bool(entry["sitting_out"])
                table._timeouts[s] = int(entry["timeouts"])
            table._dealer = data["dealer"]
            table._hand_number = int(data["hand_number"])
            table._level = int(data["level"])
            table._carried = int(data["carried"])
            table._carried_by = {int(p): int(a) for p, a in data["carried_by"]}
            table._parol_target = int(data["parol_target"])
            table._parol_paid = {int(p): int(a) for p, a in data["parol_paid"]}
            table._no_invito = bool(data["no_invito"])
        except (KeyError, TypeError, ValueError, IndexError):
            raise BadSavedState("Lo stato salvato del tavolo non si legge.") from None
        return table

    def hand_record(self) -> HandRecord:
        """The current or last hand as a plain record; ``engine.history.replay`` replays it."""
        if self._record is None:
            raise NoHandRunning("Non è ancora stata giocata nessuna mano.")
        start = self._record_state("start")
        assert start is not None
        ops: list[Op] = [list(op) for op in self._record["ops"]]
        return {
            "version": self._record["version"],
            "start": start,
            "deck": [c.code for c in self._record["deck"]],
            "reshuffles": [list(r) for r in self._record["reshuffles"]],
            "ops": ops,
            "end": self._record_state("end"),
        }

    def close(self) -> dict[int, int]:
        """Close the table: what each seated player takes home (house rule, rules §5.1).

        The carried pot goes back to the seated players in proportion to what each put into it;
        if none of them did, it is shared evenly. Odd chips go clockwise from the dealer's left.
        """
        if self.hand_running:
            raise HandInProgress("Non puoi chiudere il tavolo durante una mano.")
        seated = [s for s in range(self._n) if self._pid[s] is not None]
        home = {self._pid[s] or 0: self._stack[s] for s in seated}
        carried = self._carried
        if carried and seated:
            dealer = self._dealer if self._dealer is not None else -1
            clockwise = sorted(seated, key=lambda s: (s - dealer - 1) % self._n)
            weights = {s: self._carried_by.get(self._pid[s] or 0, 0) for s in clockwise}
            if not any(weights.values()):
                weights = dict.fromkeys(clockwise, 1)
            total = sum(weights.values())
            shares = {s: carried * w // total for s, w in weights.items()}
            leftover = carried - sum(shares.values())
            for s in [t for t in clockwise if weights[t]][:leftover]:
                shares[s] += 1
            for s, share in shares.items():
                home[self._pid[s] or 0] += share
            self._carried = 0
        elif carried:
            # Everyone left while the pot was carried: a leaver gave up his share to those still seated,
            # and nobody is; it goes back to whoever put it in, in proportion (odd chips one each, the
            # largest contributors first, then by player id: an order a restored table keeps).
            contributors = sorted(
                (p for p, amount in self._carried_by.items() if amount > 0),
                key=lambda p: (-self._carried_by[p], p),
            )
            if not contributors:
                raise NotEnoughPlayers("Non c'è nessuno a cui restituire il piatto.")
            total = sum(self._carried_by[p] for p in contributors)
            back = {p: carried * self._carried_by[p] // total for p in contributors}
            for p in contributors[: carried - sum(back.values())]:
                back[p] += 1
            for p, share in back.items():
                home[p] = home.get(p, 0) + share
            self._carried = 0
        for s in seated:
            self._pid[s] = None
            self._stack[s] = 0
        self._carried_by = {}
        self._parol_target = 0
        self._parol_paid = {}
        return home
