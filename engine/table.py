"""The table of one channel: a state machine that plays hand after hand (RULES §2-§5).

Design: plain lists indexed by seat and a handful of ints, so an action costs a few list
operations. Every public method validates completely before it changes anything, so a refused
request (``EngineError``) leaves the table as it was. Each call returns the events it produced;
a player's cards are only ever in events addressed to him until showdown.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from itertools import repeat, starmap
from typing import Any

from engine._aliases import (
    K_APRO,
    K_BUIO,
    K_CAMBIO,
    K_CONTROBUIO,
    K_PAROL,
    K_PASSO,
    K_PUNTO,
    K_RILANCIO,
    K_SERVITO,
    K_VEDO,
    L_FISSO,
    L_NOLIMIT,
    S_APERTURA,
    S_BUIO,
    S_CAMBIO,
    S_RIVER,
    S_TURN,
    K,
    P,
    R,
    S,
    V,
)
from engine._rank_core import display_order
from engine._table_rules import LEVEL_NAMES, best_five, deck_for_hand, full_deck, lowest_rank, opening_cards
from engine._table_view import SeatView, TableView
from engine.actions import Action, ActionKind, BetSizes, LegalAction
from engine.cards import Card, deck
from engine.errors import EngineError
from engine.events import (
    ActionTaken,
    BetReturned,
    CardBurnt,
    CardsDealt,
    CardsDrawn,
    ChipsPosted,
    DiscardsReshuffled,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandSkipped,
    HandStarted,
    HandVoid,
    OpeningShown,
    PlayerCameBack,
    PlayerLeft,
    PlayerSat,
    PlayerSatOut,
    PlayerTimedOut,
    PostKind,
    PotAwarded,
    PotCarried,
    PotUpdated,
    StackReleased,
    Street,
    StreetStarted,
)
from engine.options import TableOptions
from engine.pots import layers, split
from engine.ranking import Ranking, beats, category_of, fast_evaluator, winners_from_strengths

__all__ = ["LegalAction", "SeatView", "Table", "TableView"]


_J, _K = 11, 13
_BETTING = frozenset({S.PRIMO_GIRO, S.SECONDO_GIRO, S.PREFLOP, S.FLOP, S.TURN, S.RIVER})
_STATE_VERSION = 1


_PASSO = LegalAction(K.PASSO)
_PAROL = LegalAction(K.PAROL)
_SERVITO = LegalAction(K.SERVITO)


_LEGAL_CACHE: dict[tuple[str, int, int], LegalAction] = {}
_CARD_BY_CODE = {card.code: card for card in deck(52)}  # the same objects as ``Card.from_code``


def _legal_action(kind: ActionKind, low: int, high: int) -> LegalAction:
    """Legal actions are immutable values: share them instead of building one per query."""
    key = (kind._value_, low, high)  # the str: an enum member hashes in Python
    found = _LEGAL_CACHE.get(key)
    if found is None:
        if len(_LEGAL_CACHE) > 50_000:
            _LEGAL_CACHE.clear()
        found = _LEGAL_CACHE[key] = LegalAction(kind, low, high)
    return found


# What ``to_dict`` reads, copied (``Table._snapshot``): seat lists, then the scalars and dicts.
_Snapshot = tuple[
    list[int | None],
    list[int],
    list[bool],
    list[int],
    int | None,
    int,
    int,
    int,
    dict[int, int],
    int,
    dict[int, int],
    bool,
]


def _chips(n: int) -> str:
    return "1 fiche" if n == 1 else f"{n} fiches"


class Table:
    """One poker table, hand after hand. See DESIGN.md "Table seam"."""

    def __init__(self, options: TableOptions, rng: random.Random | None = None) -> None:
        self.options = options
        self._options_dict = options.to_dict()
        self._limit = options.limit  # a property: read once
        self._draw_legal = (_SERVITO, LegalAction(K.CAMBIO, 1, options.max_draw))
        # Players dealt in -> deck size, ranking, lowest rank and the deck in its natural order.
        self._decks: dict[int, tuple[int, Ranking, int, tuple[Card, ...]]] = {}
        self._rng: random.Random = rng if rng is not None else secrets.SystemRandom()
        n = options.max_seats
        self._n = n
        self._pid: list[int | None] = [None] * n
        self._stack = [0] * n
        self._sitting_out = [False] * n
        self._timeouts = [0] * n
        self._leaving = [False] * n
        self._dealer: int | None = None
        self._hand_number = 0
        self._level = _J
        self._carried = 0
        self._carried_by: dict[int, int] = {}
        self._parol_target = 0
        self._parol_paid: dict[int, int] = {}
        self._no_invito = False
        self._reset_hand_state()
        self._record: dict[str, Any] | None = None
        self._replay_shuffles: list[list[int]] | None = None

    # ------------------------------------------------------------------ hand state

    def _reset_hand_state(self) -> None:
        n = self._n
        self._street: Street | None = None
        self._order: list[int] = []
        self._ring: list[int] = []  # the order twice
        self._dealt: list[int] = []  # the same seats in seat order (pots list their seats so)
        self._pos: dict[int, int] = {}
        self._in_hand = [False] * n
        self._folded = [True] * n
        self._bet = [0] * n
        self._committed = [0] * n
        self._put = [0] * n  # everything this hand: antes, debts, bets (for the carried pot)
        self._debt_paid = [0] * n
        self._cards: list[list[Card]] = [[] for _ in range(n)]
        self._acted = [False] * n
        self._seen = [0] * n
        self._drawn: list[int | None] = [None] * n
        self._draw_req: dict[int, tuple[Card, ...]] = {}
        self._draw_kept: dict[int, list[Card]] = {}  # seat -> hand without the requested discards
        self._dead = 0
        self._pot = 0
        self._to_act: int | None = None
        self._legal_cache: tuple[LegalAction, ...] | None = None
        self._cur_bet = 0
        self._min_raise = 0
        self._full_raises = 0
        self._round_bets = 0  # bets and full raises this round (fixed-limit cap)
        self._aggressor: int | None = None
        self._stock: list[Card] = []
        self._muck: list[Card] = []
        self._board: list[Card] = []
        self._opener: int | None = None
        self._opening_cards: tuple[Card, ...] = ()
        self._lowest = 2
        self._ranking = R.INTERNAZIONALE
        self._deck_size = 52
        # Buio phase (italiana).
        self._ask: tuple[int, str] | None = None
        self._blinds: list[int] = []
        self._blind_raise = 0  # the last blind's increase over the blind before it
        self._matched: set[int] = set()
        self._prev_matched: set[int] = set()
        self._raise_rights: set[int] | None = None
        self._last_blind: int | None = None
        self._first_second: int | None = None  # 32carte: seat of the last blind

    # ------------------------------------------------------------------ helpers

    def _seat_of(self, player: int) -> int:
        for seat, pid in enumerate(self._pid):
            if pid == player:
                return seat
        raise EngineError("Non sei seduto a questo tavolo.")

    def _running(self) -> bool:
        return self._street is not None

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
            raise EngineError("Per sederti serve almeno una fiche.")
        if player in self._pid:
            raise EngineError("Sei già seduto a questo tavolo.")
        try:
            seat = self._pid.index(None)
        except ValueError:
            raise EngineError(f"Il tavolo è pieno: al massimo {self._n} giocatori.") from None
        self._record_op("sit", player, stack)
        self._pid[seat] = player
        self._stack[seat] = stack
        self._sitting_out[seat] = False
        self._timeouts[seat] = 0
        self._leaving[seat] = False
        self._folded[seat] = True
        self._in_hand[seat] = False
        return [PlayerSat(player, seat, stack, self._running())]

    def leave(self, player: int) -> list[Event]:
        """Leave the table. During a hand a dealt-in player is folded at once; his stack is
        released now and his seat frees when the hand ends (his chips in the pot stay there)."""
        seat = self._seat_of(player)
        if self._leaving[seat]:
            raise EngineError("Hai già lasciato il tavolo: il posto si libera a fine mano.")
        self._record_op("leave", player)
        events: list[Event] = []
        amount = self._stack[seat]
        self._stack[seat] = 0
        events.append(StackReleased(player, amount))
        if self._running() and self._in_hand[seat]:
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
            raise EngineError("Sei già fuori dal gioco.")
        self._record_op("sit_out", player)
        self._sitting_out[seat] = True
        events: list[Event] = [PlayerSatOut(player, False)]
        self._autoplay(events)
        return events

    def come_back(self, player: int) -> list[Event]:
        seat = self._seat_of(player)
        if not self._sitting_out[seat]:
            raise EngineError("Sei già in gioco.")
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
        return not self._running() and len(self._participants()[0]) >= 2

    def start_hand(self, deck: Sequence[Card] | None = None) -> list[Event]:
        """Deal a new hand. ``deck`` (tests, replays) gives the top of the deck in order; the
        rest of the deck follows in its natural order."""
        if self._running():
            raise EngineError("C'è già una mano in corso.")
        playing, skipped = self._participants()
        if len(playing) < 2:
            raise EngineError("Servono almeno 2 giocatori in gioco per dare le carte.")
        plan = self._decks.get(len(playing))
        if plan is None:  # ``deck_for_hand`` depends on the options and the players only
            size, ranking = deck_for_hand(self.options, len(playing))
            plan = (size, ranking, lowest_rank(size), full_deck(size))
        size, ranking, low, natural = plan
        ordered = list(natural)
        if deck is not None:
            given = list(deck)
            if len(set(given)) != len(given):
                raise EngineError("Il mazzo indicato contiene una carta due volte.")
            for card in given:
                if card.rank < low:
                    raise EngineError(f"La carta {card} non fa parte del mazzo da {size} carte.")
            taken = set(given)
            rest = [c for c in ordered if c not in taken]
            ordered = given + rest
        # Validated: from here on the hand starts.
        self._decks[len(playing)] = plan  # kept from here on: a refused request changes nothing
        start_state = self._snapshot()
        if deck is None:
            ordered = self._shuffle(ordered, initial=True)
        self._reset_hand_state()
        self._record = {
            "version": _STATE_VERSION,
            "start": start_state,  # a snapshot tuple; a dict once asked for (``_record_state``)
            "deck": ordered,  # Card objects; codes only when the record is asked for
            "reshuffles": [],
            "ops": [],
            "end": None,
        }
        self._deck_size, self._ranking, self._lowest = size, ranking, low
        self._stock = ordered[::-1]
        # Dealer: one seat clockwise among those dealt in, void hands included.
        n = self._n
        # ``playing`` is in seat order, so clockwise from a seat is a rotation of it.
        previous = self._dealer if self._dealer is not None else n - 1
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
        self._street = S.BUIO  # running from here on
        self._legal_cache = None
        variant = self.options.variant
        pids = self._pid
        events: list[Event] = [
            HandStarted(
                self._hand_number,
                pids[dealer] or 0,
                tuple([pids[s] or 0 for s in order]),
                size,
                self._level if variant is V.ITALIANA else None,
                self._carried,
            )
        ]
        for seat, debt in skipped:
            events.append(HandSkipped(pids[seat] or 0, debt))
        if variant is V.ITALIANA:
            self._start_italiana(events)
        elif variant is V.TRENTADUE:
            self._start_trentadue(events)
        else:
            self._start_texas(events)
        self._autoplay(events)
        return events

    def _post_dead(self, seat: int, amount: int, kind: PostKind, events: list[Event]) -> None:
        amount = min(amount, self._stack[seat])
        if amount <= 0:
            return
        self._stack[seat] -= amount
        self._dead += amount
        self._pot += amount
        self._put[seat] += amount
        events.append(ChipsPosted(self._pid[seat] or 0, kind, amount))

    def _post_blind(self, seat: int, amount: int, kind: PostKind, events: list[Event]) -> None:
        amount = min(amount, self._stack[seat])
        self._pay(seat, amount)
        events.append(ChipsPosted(self._pid[seat] or 0, kind, amount))

    def _pay(self, seat: int, amount: int) -> None:
        self._stack[seat] -= amount
        self._bet[seat] += amount
        self._committed[seat] += amount
        self._put[seat] += amount
        self._pot += amount

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

    def _start_italiana(self, events: list[Event]) -> None:
        opts = self.options
        if self._carried:
            self._dead += self._carried
            self._pot += self._carried
            self._carried = 0
        if self._parol_target:  # debts only exist after a paròl pot
            for s in self._order:
                pid = self._pid[s] or 0
                debt = self._debt_of(pid)
                if debt:
                    self._post_dead(s, debt, P.DEBITO, events)
                    self._debt_paid[s] = debt
        skip_invito, self._no_invito = self._no_invito, False  # only the hand right after a paròl
        if not skip_invito:
            dealer = self._dealer
            assert dealer is not None
            for s in self._order if opts.invito_tutti else [dealer]:
                self._post_dead(s, opts.invito, P.INVITO, events)
        first = self._order[0]
        buio = opts.buio_multiplo * self._pot
        if (
            self._level == _J
            and not self._parol_target
            and len(self._order) >= 3
            and self._stack[first] >= buio > 0
        ):
            self._street = S.BUIO
            self._ask = (first, "buio")
            self._to_act = first
            events.append(StreetStarted(S.BUIO))
            return
        self._end_buio_phase(events)

    def _end_buio_phase(self, events: list[Event]) -> None:
        self._ask = None
        self._deal(5, events)
        if not self._blinds:
            self._street = S.APERTURA
            events.append(StreetStarted(S.APERTURA))
            self._to_act = self._next_to_open(self._order[-1])
            if self._to_act is None:
                self._void_hand(events)
            return
        last = self._blinds[-1]
        self._last_blind = last
        self._street = S.PRIMO_GIRO
        events.append(StreetStarted(S.PRIMO_GIRO))
        self._raise_rights = set(self._matched) | {last}
        self._cur_bet = self._bet[last]
        # Measured when the blind was posted: matching it later does not shrink the increase.
        self._min_raise = max(self._blind_raise, self.options.cip)
        self._full_raises = 0
        self._round_bets = 1
        self._aggressor = last
        self._to_act = self._next_bettor(last)
        if self._to_act is None:
            self._end_round(events)

    def _start_trentadue(self, events: list[Event]) -> None:
        cip = self.options.cip
        order = self._order
        blinds = [(order[0], cip // 2, P.PICCOLO_BUIO), (order[1], cip, P.GRANDE_BUIO)]
        if self.options.over and len(order) > 3:
            blinds.append((order[2], 2 * cip, P.OVER))
        for seat, amount, kind in blinds:
            self._post_blind(seat, amount, kind, events)
        self._deal(5, events)
        self._first_second = blinds[-1][0]
        self._street = S.PRIMO_GIRO
        events.append(StreetStarted(S.PRIMO_GIRO))
        self._open_round(preserve_bets=True)
        self._to_act = self._next_bettor(blinds[-1][0])
        if self._to_act is None:
            self._end_round(events)

    def _start_texas(self, events: list[Event]) -> None:
        cip = self.options.cip
        order = self._order
        if len(order) == 2:
            sb, bb = order[1], order[0]  # heads-up: the button posts the small blind
        else:
            sb, bb = order[0], order[1]
        self._post_blind(sb, cip // 2, P.PICCOLO_BUIO, events)
        self._post_blind(bb, cip, P.GRANDE_BUIO, events)
        self._deal(2, events)
        self._street = S.PREFLOP
        events.append(StreetStarted(S.PREFLOP))
        self._open_round(preserve_bets=True)
        self._to_act = self._next_bettor(bb)
        if self._to_act is None:
            self._end_round(events)

    def _open_round(self, preserve_bets: bool = False) -> None:
        order, acted, seen, bet = self._order, self._acted, self._seen, self._bet
        for s in order:
            acted[s] = False
            seen[s] = 0
            if not preserve_bets:
                bet[s] = 0
        self._cur_bet = max([bet[s] for s in order]) if preserve_bets else 0
        self._min_raise = self._bet_size()
        self._full_raises = 0
        self._round_bets = 1 if self._cur_bet else 0
        self._raise_rights = None
        if self.options.variant is not V.ITALIANA:
            self._aggressor = None

    def _bet_size(self) -> int:
        """The minimum bet; the fixed bet in fixed limit (big bet on turn and river)."""
        cip = self.options.cip
        if self._limit is L_FISSO and self._street in (S_TURN, S_RIVER):
            return 2 * cip
        return cip

    # ------------------------------------------------------------------ shuffling

    def _shuffle(self, cards: list[Card], initial: bool = False) -> list[Card]:
        """A uniform random order: sorting by independent random floats (53 bits each, so a tie
        is practically impossible) instead of ``shuffle``'s Python loop. The floats are drawn in
        card order and the sort is stable, as ``sorted(cards, key=lambda _: random())`` would do,
        but every step runs in C. Reshuffles are recorded so that a replay deals the same cards."""
        if not initial and self._replay_shuffles:
            cards = [Card.from_code(c) for c in self._replay_shuffles.pop(0)]
        else:
            keys = list(starmap(self._rng.random, repeat((), len(cards))))
            cards = list(map(cards.__getitem__, sorted(range(len(cards)), key=keys.__getitem__)))
        if not initial and self._record is not None:
            self._record["reshuffles"].append([c.code for c in cards])
        return cards

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the player to act may say now (empty when nobody is to act)."""
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
        if seat is None or kind not in (K.APRO, K.PUNTO, K.RILANCIO):
            return None
        legal = next((la for la in self._legal_now(seat) if la.kind is kind), None)
        if legal is None:
            return None
        facing = self._cur_bet - self._bet[seat] if kind is K.RILANCIO else 0
        pot = max(legal.min, min(legal.max, self._pot + facing))
        return BetSizes(legal.min, pot, self._stack[seat] - facing)

    def _legal_now(self, seat: int) -> tuple[LegalAction, ...]:
        """The legal actions of the player to act, computed once per state (a shared tuple)."""
        cached = self._legal_cache
        if cached is None:
            cached = self._legal_cache = self._legal(seat)
        return cached

    def _legal(self, s: int) -> tuple[LegalAction, ...]:
        street = self._street
        if street is S_BUIO:
            assert self._ask is not None
            what = self._ask[1]
            amount = self._ask_amount()
            if what == "buio":
                return (_legal_action(K_BUIO, amount, amount), _PASSO)
            if what == "controbuio":
                return (_legal_action(K_CONTROBUIO, amount, amount), _PASSO)
            return (_legal_action(K_VEDO, amount, amount), _PASSO)
        if street is S_APERTURA:
            stack = self._stack[s]
            cip, pot = self.options.cip, self._pot
            low = cip if cip < stack else stack
            high = pot if pot < stack else stack
            return (_legal_action(K_APRO, low, high if high > low else low), _PASSO)
        if street is S_CAMBIO:
            return self._draw_legal
        return self._betting_legal(s)

    def _ask_amount(self) -> int:
        assert self._ask is not None
        seat, what = self._ask
        if what == "buio":
            return self.options.buio_multiplo * self._pot
        top = max(self._bet[b] for b in self._blinds)
        if what == "controbuio":
            return 2 * top
        return top - self._bet[seat]

    def _betting_legal(self, s: int) -> tuple[LegalAction, ...]:
        stack = self._stack[s]
        cur = self._cur_bet
        facing = cur - self._bet[s]
        if facing > 0:
            call = facing if facing < stack else stack
            vedo = _legal_action(K_VEDO, call, call)
            raise_ = self._raise_legal(s, stack, facing)
            return (_PASSO, vedo) if raise_ is None else (_PASSO, vedo, raise_)
        if cur == 0:
            bet = self._bet_legal(s, stack)
            return (_PAROL,) if bet is None else (_PAROL, bet)
        raise_ = self._raise_legal(s, stack, 0)
        return (_PAROL,) if raise_ is None else (_PAROL, raise_)

    def _others_can_act(self, s: int) -> bool:
        """A bet or raise is offered only if someone else could put in more than the current bet
        (RULES §5.3): otherwise nobody could call any of it and it would all come back."""
        stack, folded, bet = self._stack, self._folded, self._bet
        cur = self._cur_bet
        for t in self._order:  # noqa: SIM110 (a plain loop: cheaper than ``any`` over a generator)
            if t != s and not folded[t] and bet[t] + stack[t] > cur:
                return True
        return False

    def _bet_legal(self, s: int, stack: int) -> LegalAction | None:
        """The ``punto`` range of seat ``s`` holding ``stack``, if he may bet."""
        if stack <= 0 or not self._others_can_act(s):
            return None
        size = self._bet_size()
        if stack <= size:
            return _legal_action(K_PUNTO, stack, stack)
        limit = self._limit
        if limit is L_FISSO:
            return _legal_action(K_PUNTO, size, size)
        if limit is L_NOLIMIT:
            high = stack
        else:
            pot = self._pot
            high = pot if pot < stack else stack
        return _legal_action(K_PUNTO, size, high if high > size else size)

    def _raise_legal(self, s: int, stack: int, facing: int) -> LegalAction | None:
        """The ``rilancio`` range of seat ``s`` holding ``stack`` and facing ``facing``, if he may
        raise (the amount is the raise over the call)."""
        avail = stack - facing
        if avail <= 0:
            return None
        rights = self._raise_rights
        if rights is not None and s not in rights:
            return None
        if self._acted[s] and self._seen[s] == self._full_raises:
            return None  # no full raise since he acted: a short all-in does not reopen
        if not self._others_can_act(s):
            return None
        limit = self._limit
        if limit is L_FISSO:
            if self._round_bets >= 4:
                return None
            size = self._bet_size()
            if avail < size:
                size = avail
            return _legal_action(K_RILANCIO, size, size)
        low = self._min_raise
        if avail <= low:
            return _legal_action(K_RILANCIO, avail, avail)
        if limit is L_NOLIMIT:
            high = avail
        else:
            cap = self._pot + facing
            high = cap if cap < avail else avail
        return _legal_action(K_RILANCIO, low, high if high > low else low)

    # ------------------------------------------------------------------ acting

    def act(self, action: Action) -> list[Event]:
        """Apply one decision of the player to act, or refuse it with ``EngineError``.

        Called for every decision, so the legal words are read from the cache ``legal_actions``
        fills and a word of a betting round goes straight to ``_apply_bet``."""
        street = self._street
        if street is None:
            raise EngineError("Non c'è nessuna mano in corso.")
        seat = self._to_act
        player = action.player
        if seat is None or self._pid[seat] != player:
            if player not in self._pid:
                raise EngineError("Non sei seduto a questo tavolo.")
            raise EngineError("Non è il tuo turno.")
        kind = action.kind
        if kind.__class__ is not ActionKind:
            try:
                kind = ActionKind(kind)
            except ValueError:
                raise EngineError(f"Non conosco la parola «{kind}».") from None
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._legal(seat)
        for match in legal:
            if match.kind is kind:
                break
        else:
            words = ", ".join(str(la.kind) for la in legal)
            raise EngineError(f"Adesso non puoi dire «{kind}»: puoi dire {words}.")
        amount = self._check_amount(seat, kind, match, action)
        cards: tuple[Card, ...] = ()
        codes: list[int] | None = None
        kept: list[Card] | None = None
        if street is S_CAMBIO:
            cards, codes, kept = self._check_discards(seat, kind, action.cards)
        if kind is K_APRO:
            self._check_opening(seat)
        # Validated: mutate.
        record = self._record
        if record is not None:
            record["ops"].append(["act", player, kind._value_, amount, codes or []])
        self._timeouts[seat] = 0
        events: list[Event] = []
        self._legal_cache = None
        # ``_apply``'s dispatch without a second call.
        if street is S_CAMBIO:
            self._apply_draw(seat, cards, events, kept)
        elif street is S_APERTURA:
            self._apply_opening(seat, kind, amount, events)
        elif street is S_BUIO:
            self._apply_buio(seat, kind, events)
        else:
            self._apply_bet(seat, kind, amount, events)
        nxt = self._to_act
        if nxt is not None and self._sitting_out[nxt]:
            self._autoplay(events)
        return events

    def _check_amount(self, seat: int, kind: ActionKind, match: LegalAction, action: Action) -> int:
        if kind is K_PASSO or kind is K_PAROL or kind is K_SERVITO or kind is K_CAMBIO:
            return 0
        if kind is K_VEDO or kind is K_BUIO or kind is K_CONTROBUIO:
            if action.amount is not None and action.amount != match.min:
                raise EngineError(f"L'importo è fisso: {_chips(match.min)}.")
            return match.min
        amount = action.amount
        if amount is None:
            raise EngineError("Devi dire quante fiches.")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise EngineError("L'importo deve essere un numero intero di fiches.")
        if amount < match.min:
            if kind is K_RILANCIO:
                raise EngineError(f"Troppo poco: il rilancio minimo è di {_chips(match.min)}.")
            raise EngineError(f"Troppo poco: la puntata minima è di {_chips(match.min)}.")
        if amount > match.max:
            facing = self._cur_bet - self._bet[seat]
            if amount + (facing if kind is K_RILANCIO else 0) > self._stack[seat]:
                raise EngineError(f"Non hai abbastanza fiches: ne hai {self._stack[seat]}.")
            if self._limit is L_FISSO:
                raise EngineError(f"A limite fisso l'importo è {_chips(match.max)}.")
            raise EngineError(f"Troppo: al massimo puoi mettere {_chips(match.max)} (il limite del piatto).")
        return amount

    def _check_discards(
        self, seat: int, kind: ActionKind, cards: tuple[Card, ...]
    ) -> tuple[tuple[Card, ...], list[int], list[Card]]:
        """The discards, their codes (for the record) and the cards he keeps, in hand order (for
        ``_deal_draw``): worked out once here, where the codes of his hand are at hand anyway."""
        if kind is K_SERVITO:
            if cards:
                raise EngineError("Servito vuol dire che non cambi carte: non indicarne.")
            return (), [], []
        if not cards:
            raise EngineError("Indica le carte che vuoi cambiare.")
        codes = [card.code for card in cards]  # cards compare by value: their codes do it in C
        if len(set(codes)) != len(codes):
            raise EngineError("Hai indicato due volte la stessa carta.")
        limit = self.options.max_draw
        if len(cards) > limit:
            raise EngineError(f"Puoi cambiare al massimo {limit} carte.")
        hand = self._cards[seat]
        hand_codes = [card.code for card in hand]
        for card, code in zip(cards, codes, strict=True):
            if code not in hand_codes:
                raise EngineError(f"Non hai il {card} in mano.")
        kept = [card for card, code in zip(hand, hand_codes, strict=True) if code not in codes]
        return tuple(cards), codes, kept

    def _check_opening(self, seat: int) -> None:
        found = opening_cards(self._cards[seat], self._level, self._ranking, self._lowest)
        if found is None:
            name = LEVEL_NAMES[self._level]
            raise EngineError(
                f"Non puoi aprire: serve almeno una coppia di {name}, un punto migliore "
                "o quattro carte di scala reale bilaterale."
            )
        self._opening_cards = found

    def _apply(
        self, s: int, kind: ActionKind, amount: int, cards: tuple[Card, ...], events: list[Event]
    ) -> None:
        self._legal_cache = None
        street = self._street
        if street is S.BUIO:
            self._apply_buio(s, kind, events)
        elif street is S.APERTURA:
            self._apply_opening(s, kind, amount, events)
        elif street is S.CAMBIO:
            self._apply_draw(s, cards, events)
        else:
            self._apply_bet(s, kind, amount, events)

    def _taken(self, s: int, kind: ActionKind, amount: int, put_in: int, events: list[Event]) -> None:
        events.append(
            ActionTaken(
                self._pid[s] or 0,
                kind,
                amount,
                put_in,
                self._bet[s],
                self._stack[s] == 0 and not self._folded[s],
            )
        )

    # ------------------------------------------------------------------ buio (italiana)

    def _apply_buio(self, s: int, kind: ActionKind, events: list[Event]) -> None:
        assert self._ask is not None
        what = self._ask[1]
        if kind is K.PASSO:
            self._taken(s, kind, 0, 0, events)
            self._end_buio_phase(events)
            return
        amount = self._ask_amount()
        self._pay(s, amount)
        self._taken(s, kind, amount, amount, events)
        order = self._order
        players = len(order)
        top = self._bet[s]
        if what == "buio":
            self._blinds = [s]
            self._blind_raise = top
            self._matched = set()
            if players >= 4 and self._stack[order[1]] >= 2 * top:
                self._ask = (order[1], "controbuio")
                self._to_act = order[1]
                return
        elif what == "controbuio":
            self._blind_raise = top - max(self._bet[b] for b in self._blinds)
            self._blinds.append(s)
            self._prev_matched = set(self._matched)
            self._matched = set()
            previous = self._blinds[-2]
            if self._stack[previous] >= top - self._bet[previous]:
                self._ask = (previous, "match")
                self._to_act = previous
                return
        else:  # a match
            self._matched.add(s)
            last = len(self._blinds) - 1
            index = self._blinds.index(s)
            if index > 0 and last == 2 and self._blinds[index - 1] in self._prev_matched:
                earlier = self._blinds[index - 1]
                if self._stack[earlier] >= self._bet[s] - self._bet[earlier]:
                    self._ask = (earlier, "match")
                    self._to_act = earlier
                    return
        if self._can_ask_controcontrobuio():
            nxt = order[2]
            self._ask = (nxt, "controbuio")
            self._to_act = nxt
            return
        self._end_buio_phase(events)

    def _can_ask_controcontrobuio(self) -> bool:
        if not self.options.controcontrobuio or len(self._order) < 5 or len(self._blinds) != 2:
            return False
        assert self._ask is not None
        if self._ask[1] == "controbuio" and self._ask[0] == self._order[2]:
            return False
        top = max(self._bet[b] for b in self._blinds)
        return self._stack[self._order[2]] >= 2 * top

    # ------------------------------------------------------------------ opening (italiana)

    def _next_to_open(self, after: int) -> int | None:
        folded, acted, stack = self._folded, self._acted, self._stack
        i = self._pos[after] + 1
        for s in self._ring[i : i + len(self._order)]:  # clockwise from the seat after ``after``
            if not folded[s] and not acted[s] and stack[s] > 0:
                return s
        return None

    def _apply_opening(self, s: int, kind: ActionKind, amount: int, events: list[Event]) -> None:
        self._acted[s] = True
        if kind is K.PASSO:
            self._taken(s, kind, 0, 0, events)
            self._to_act = self._next_to_open(s)
            if self._to_act is None:
                self._void_hand(events)
            return
        self._pay(s, amount)
        self._opener = s
        self._aggressor = s
        self._street = S.PRIMO_GIRO
        for t in self._order:
            self._acted[t] = False
        self._acted[s] = True
        self._cur_bet = amount
        self._min_raise = max(amount, self.options.cip)
        self._full_raises = 1
        self._seen[s] = 1
        self._round_bets = 1
        self._taken(s, kind, amount, amount, events)
        events.append(StreetStarted(S.PRIMO_GIRO))
        self._after_bet(s, events)

    # ------------------------------------------------------------------ betting

    def _next_bettor(self, after: int) -> int | None:
        order = self._order
        folded, stack, acted, bet = self._folded, self._stack, self._acted, self._bet
        cur = self._cur_bet
        i = self._pos[after] + 1
        found: int | None = None
        able = 0
        for t in self._ring[i : i + len(order)]:  # clockwise from the seat after ``after``
            if folded[t] or stack[t] <= 0:
                continue
            able += 1
            if found is None and (not acted[t] or bet[t] < cur):
                found = t
        if able == 1 and found is not None and bet[found] >= cur:
            return None
        return found

    def _apply_bet(self, s: int, kind: ActionKind, amount: int, events: list[Event]) -> None:
        bet, stack = self._bet, self._stack
        if kind is K_PASSO:
            self._folded[s] = True
            self._muck.extend(self._cards[s])
            events.append(ActionTaken(self._pid[s] or 0, kind, 0, 0, bet[s], False))
        else:
            if kind is K_PAROL:
                put = 0
            else:
                if kind is K_VEDO:
                    put = self._cur_bet - bet[s]
                    if stack[s] < put:
                        put = stack[s]
                    amount = put
                else:
                    put = amount + (self._cur_bet - bet[s] if kind is K_RILANCIO else 0)
                # ``_pay``, inline: every call and bet goes through here.
                stack[s] -= put
                bet[s] += put
                self._committed[s] += put
                self._put[s] += put
                self._pot += put
                if kind is not K_VEDO:
                    self._cur_bet = bet[s]
                    if amount >= self._min_raise:
                        size = self._bet_size()
                        self._min_raise = amount if amount > size else size
                        self._full_raises += 1
                        self._round_bets += 1
                    self._raise_rights = None
                    self._aggressor = s
            all_in = stack[s] == 0 and not self._folded[s]
            events.append(ActionTaken(self._pid[s] or 0, kind, amount, put, bet[s], all_in))
        self._acted[s] = True
        self._seen[s] = self._full_raises
        self._after_bet(s, events)

    def _after_bet(self, s: int, events: list[Event]) -> None:
        # Only a fold can leave one player (the hand ends as soon as one is left).
        if self._folded[s]:
            live = [t for t in self._order if not self._folded[t]]
            if len(live) == 1:
                self._win_uncontested(live[0], events)
                return
        nxt = self._next_bettor(s)
        if nxt is not None:
            self._to_act = nxt
            return
        self._end_round(events)

    def _return_uncalled(self, events: list[Event]) -> None:
        top = second = 0
        top_seat = -1
        for t in self._order:
            b = self._bet[t]
            if b > top:
                second, top, top_seat = top, b, t
            elif b > second:
                second = b
        if top_seat >= 0 and top > second and not self._folded[top_seat]:
            excess = top - second
            self._stack[top_seat] += excess
            self._bet[top_seat] -= excess
            self._committed[top_seat] -= excess
            self._put[top_seat] -= excess
            self._pot -= excess
            events.append(BetReturned(self._pid[top_seat] or 0, excess))

    def _pots(self, gathered: bool = False) -> list[tuple[int, tuple[int, ...]]]:
        """Main pot and side pots (``pots.build_pots``); ``gathered`` leaves out this round's bets.

        Without an all-in player everyone still in contests everything: one pot, no layering.
        Only the seats dealt in can hold chips or be live, so only they are looked at.
        """
        folded, stack = self._folded, self._stack
        committed = self._committed
        if gathered:
            committed = [c - b for c, b in zip(committed, self._bet, strict=True)]
        dealt = self._dealt
        for t in dealt:
            if stack[t] == 0 and not folded[t]:
                break
        else:
            total = self._dead + sum(committed)
            return [(total, tuple([t for t in dealt if not folded[t]]))] if total else []
        return layers(committed, [not f for f in folded], self._dead, dealt)

    def _end_round(self, events: list[Event]) -> None:
        self._return_uncalled(events)
        bet = self._bet
        for t in self._order:
            bet[t] = 0
        self._to_act = None
        pots = self._pots()
        events.append(PotUpdated(self._pot, tuple([amount for amount, _ in pots])))
        street = self._street
        if self.options.variant is V.TEXAS:
            self._next_texas_street(events, pots)
            return
        if street is S.PRIMO_GIRO:
            self._street = S.CAMBIO
            events.append(StreetStarted(S.CAMBIO))
            self._to_act = self._next_to_draw(self._order[-1])
            return
        # End of the second round.
        live = [t for t in self._order if not self._folded[t]]
        if (
            self.options.variant is V.ITALIANA
            and self._round_bets == 0
            and all(self._stack[t] > 0 for t in live)
        ):
            self._carry_parol(events)
            return
        self._showdown(events, pots)

    def _able_to_bet(self) -> int:
        folded, stack = self._folded, self._stack
        able = 0
        for t in self._order:
            if not folded[t] and stack[t] > 0:
                able += 1
        return able

    def _start_second_round(self, events: list[Event]) -> None:
        self._street = S.SECONDO_GIRO
        events.append(StreetStarted(S.SECONDO_GIRO))
        self._open_round()
        variant = self.options.variant
        if variant is V.ITALIANA:
            if self._last_blind is not None:
                start = self._last_blind  # the blind opener speaks last
            else:
                assert self._opener is not None
                start = self._order[(self._pos[self._opener] - 1) % len(self._order)]
        else:
            assert self._first_second is not None
            start = self._first_second
        self._to_act = self._next_bettor(start)
        if self._to_act is None:
            self._showdown(events)

    def _next_texas_street(self, events: list[Event], pots: list[tuple[int, tuple[int, ...]]]) -> None:
        """Deal the next streets until someone can bet or the showdown; ``pots`` are those just
        announced: no chip moves while the board is dealt out to players all-in."""
        while True:
            street = self._street
            if street is S.PREFLOP:
                nxt = S.FLOP
            elif street is S.FLOP:
                nxt = S.TURN
            elif street is S.TURN:
                nxt = S.RIVER
            else:
                self._showdown(events, pots)
                return
            self._street = nxt
            stock = self._stock
            self._muck.append(stock.pop())
            count = 3 if nxt is S.FLOP else 1
            new = stock[-count:]  # the top ``count`` cards, in the order they are taken
            new.reverse()
            del stock[-count:]
            self._board.extend(new)
            events.append(StreetStarted(nxt, tuple(new)))
            self._open_round()
            assert self._dealer is not None
            self._to_act = self._next_bettor(self._dealer) if self._able_to_bet() >= 2 else None
            if self._to_act is not None:
                return

    # ------------------------------------------------------------------ draw

    def _next_to_draw(self, after: int) -> int | None:
        folded, draw_req = self._folded, self._draw_req
        i = self._pos[after] + 1
        for t in self._ring[i : i + len(self._order)]:  # clockwise from the seat after ``after``
            if not folded[t] and t not in draw_req:
                return t
        return None

    def _apply_draw(
        self, s: int, cards: tuple[Card, ...], events: list[Event], kept: list[Card] | None = None
    ) -> None:
        """A draw request; ``kept`` (his hand without ``cards``) is required when there are discards."""
        self._draw_req[s] = cards
        if cards:
            assert kept is not None
            self._draw_kept[s] = kept
        self._drawn[s] = len(cards)
        pid = self._pid[s] or 0
        events.append(
            ActionTaken(pid, K.CAMBIO if cards else K.SERVITO, len(cards), 0, 0, self._stack[s] == 0)
        )
        self._to_act = self._next_to_draw(s)
        if self._to_act is None:
            self._deal_draw(events)
            self._start_second_round(events)

    def _take(
        self,
        available: dict[int, list[Card]],
        waiting: dict[int, list[Card]],
        receiver: int,
        events: list[Event],
    ) -> Card:
        """The next card of the stock; when it runs out, the discards of the players who have
        already drawn become the new stock (RULES §2.6).

        ``available`` holds the discards of the players fully served, ``waiting`` those of the
        players still owed cards (the receiver among them): a reshuffle made of a waiting
        player's discards could deal them back to him, so they come after the folded hands and
        burnt cards, and the receiver's own only as the very last resort (docs/house-rules.md).
        """
        if not self._stock:
            pool = [c for cards in available.values() for c in cards]
            available.clear()
            if not pool:
                # Not in the rules: only folded hands and burnt cards are left, then the discards
                # of those still waiting, his own last.
                pool, self._muck = self._muck, []
            if not pool:
                pool = [c for t, cards in waiting.items() if t != receiver for c in cards]
                for t in [t for t in waiting if t != receiver]:
                    del waiting[t]
            if not pool:
                pool = waiting.pop(receiver, [])
            if not pool:
                raise RuntimeError("no card left to deal")
            self._stock = self._shuffle(pool)
            events.append(DiscardsReshuffled(len(pool)))
        return self._stock.pop()

    def _deal_draw(self, events: list[Event]) -> None:
        three_first = self.options.variant is V.ITALIANA
        draw_req = self._draw_req
        requests = [(t, draw_req[t]) for t in self._order if not self._folded[t] and t in draw_req]
        available: dict[int, list[Card]] = {}  # discards of the players fully served
        waiting: dict[int, list[Card]] = {}  # discards on the table of players still owed cards
        received: dict[int, list[Card]] = {t: [] for t, _ in requests}
        draw_kept = self._draw_kept
        for t, discards in requests:
            if discards:
                self._cards[t] = draw_kept[t]
        for t, discards in requests:
            if not discards:
                continue
            first = min(len(discards), 3) if three_first else len(discards)
            mine = received[t]
            stock = self._stock
            waiting[t] = list(discards)  # on the table from now on
            if len(stock) >= first:  # the usual case: no reshuffle, so no need for ``_take``
                for _ in range(first):
                    mine.append(stock.pop())
            else:
                for _ in range(first):
                    mine.append(self._take(available, waiting, t, events))
            # They serve the others once he has drawn all his cards.
            own = waiting.pop(t, None)  # None: reshuffled for himself as the last resort
            if own is not None:
                if first == len(discards):
                    available[t] = own
                else:
                    waiting[t] = own
        big = [(t, d) for t, d in requests if len(d) > 3] if three_first else []
        for i, (t, discards) in enumerate(big):
            if i == 0 and len(big) == 1 and t == requests[-1][0]:
                self._muck.append(self._take(available, waiting, t, events))
                events.append(CardBurnt())
            for _ in range(len(discards) - 3):
                received[t].append(self._take(available, waiting, t, events))
            own = waiting.pop(t, None)
            if own:
                available[t] = own
        for cards in available.values():
            self._muck.extend(cards)
        for cards in waiting.values():
            self._muck.extend(cards)
        for t, discards in requests:
            self._cards[t].extend(received[t])
            if discards:
                pid = self._pid[t] or 0
                events.append(CardsDrawn(pid, discards, tuple(received[t]), private_to=pid))

    # ------------------------------------------------------------------ endings

    def _fold_out_of_turn(self, s: int, events: list[Event]) -> None:
        """A player who leaves mid-hand: folded now, wherever the hand stands."""
        self._legal_cache = None
        was_to_act = self._to_act == s
        self._folded[s] = True
        self._muck.extend(self._cards[s])
        self._draw_req.pop(s, None)
        events.append(ActionTaken(self._pid[s] or 0, K.PASSO, 0, 0, self._bet[s], False))
        live = [t for t in self._order if not self._folded[t]]
        street = self._street
        if len(live) == 1:
            if street is S.BUIO:
                self._ask = None
            self._win_uncontested(live[0], events)
            return
        if not was_to_act:
            return
        if street is S.BUIO:
            self._end_buio_phase(events)
        elif street is S.APERTURA:
            self._to_act = self._next_to_open(s)
            if self._to_act is None:
                self._void_hand(events)
        elif street is S.CAMBIO:
            self._to_act = self._next_to_draw(s)
            if self._to_act is None:
                self._deal_draw(events)
                self._start_second_round(events)
        else:
            nxt = self._next_bettor(s)
            if nxt is not None:
                self._to_act = nxt
            else:
                self._end_round(events)
        self._autoplay(events)

    def _win_uncontested(self, s: int, events: list[Event]) -> None:
        if self._street in _BETTING:
            self._return_uncalled(events)
        amount = self._pot
        self._stack[s] += amount
        self._pot = 0
        events.append(PotAwarded(0, amount, (self._pid[s] or 0,), (amount,), False))
        self._finish_hand(events, awarded=True)

    def _showdown(self, events: list[Event], pots: list[tuple[int, tuple[int, ...]]] | None = None) -> None:
        """Value the live hands, award every pot, then show or muck in turn. ``pots`` are those the
        end of the last betting round has just announced, when no chip has moved since."""
        self._street = S.SHOWDOWN
        self._to_act = None
        events.append(StreetStarted(S.SHOWDOWN))
        order, folded, pids, cards = self._order, self._folded, self._pid, self._cards
        live = [t for t in order if not folded[t]]
        ranking = self._ranking
        evaluator = fast_evaluator(ranking, self._lowest)
        board_codes = [c.code for c in self._board]
        codes_of = {t: [c.code for c in cards[t]] + board_codes for t in live}
        if len(board_codes) == 5:
            seven = evaluator.seven
            strengths = {t: seven(*codes) for t, codes in codes_of.items()}
        else:
            strength = evaluator.strength
            strengths = {t: strength(codes) for t, codes in codes_of.items()}
        suits = self.options.semi and ranking is R.ITALIANA
        awards: list[tuple[int, int, list[int], list[int]]] = []
        winning: set[int] = set()
        pos = self._pos
        for index, (amount, eligible) in enumerate(self._pots() if pots is None else pots):
            if not eligible:
                continue
            if len(eligible) == 1:
                seats = list(eligible)
            else:
                wins = winners_from_strengths([strengths[t] for t in eligible], ranking, suits=suits)
                seats = [eligible[i] for i in wins]
                if len(seats) > 1:
                    seats.sort(key=pos.__getitem__)
            shares = split(amount, seats, order) if len(seats) > 1 else [amount]
            awards.append((index, amount, seats, shares))
            winning.update(seats)
        # Show order: the last aggressor, else the first still in left of the dealer; mucking.
        aggressor = self._aggressor
        first = aggressor if aggressor is not None and not folded[aggressor] else live[0]
        start = live.index(first)
        shown: list[int] = []
        for t in live[start:] + live[:start]:
            pid = pids[t] or 0
            mine = strengths[t]
            if t in winning or not self._beaten(mine, shown, suits):
                shown.append(mine)
                name, best = self._shown_value(codes_of[t], mine)
                events.append(HandShown(pid, tuple(cards[t]), name, best))
            else:
                events.append(HandMucked(pid))
        stack = self._stack
        for index, amount, seats, shares in awards:
            for t, share in zip(seats, shares, strict=True):
                stack[t] += share
            self._pot -= amount
            winners = tuple([pids[t] or 0 for t in seats])
            events.append(PotAwarded(index, amount, winners, tuple(shares), True))
        self._finish_hand(events, awarded=True)

    def _beaten(self, mine: int, shown: list[int], suits: bool) -> bool:
        """Whether a hand already shown beats this strength (then it may be mucked)."""
        ranking = self._ranking
        for other in shown:  # noqa: SIM110 (a plain loop: cheaper than ``any`` over a generator)
            if beats(other, mine, ranking, suits=suits):
                return True
        return False

    def _shown_value(self, codes: list[int], target: int) -> tuple[str, tuple[Card, ...]]:
        """The category name and the five cards to show: with a board, the first five of the seven
        that make the strength (the order of ``evaluate``, so the same five cards are shown).
        What ``value_of_five`` would give, without building the ``HandValue``."""
        if len(codes) > 5:
            codes = best_five(codes, target, self._lowest)
        shown = tuple(map(_CARD_BY_CODE.__getitem__, display_order(codes, self._lowest)))
        return category_of(target, self._ranking).nome, shown

    def _void_hand(self, events: list[Event]) -> None:
        self._carry_over()
        self._level = min(self._level + 1, _K)
        events.append(HandVoid(self._carried, self._level))
        self._finish_hand(events, awarded=False)

    def _carry_over(self) -> None:
        """The pot stays for the next hand; remember who put what in it (close, paròl debts)."""
        self._carried = self._pot
        self._pot = 0
        for t in self._order:
            pid = self._pid[t]
            if pid is None:
                continue
            if self._put[t]:
                self._carried_by[pid] = self._carried_by.get(pid, 0) + self._put[t]
            paid = self._debt_paid[t] + self._committed[t]
            if paid:
                self._parol_paid[pid] = self._parol_paid.get(pid, 0) + paid

    def _carry_parol(self, events: list[Event]) -> None:
        self._carry_over()
        live = [t for t in self._order if not self._folded[t]]
        self._parol_target = max(self._parol_paid.get(self._pid[t] or 0, 0) for t in live)
        self._level = _K
        self._no_invito = True
        debts = tuple(
            (pid, self._debt_of(pid)) for pid in self._pid if pid is not None and self._debt_of(pid) > 0
        )
        events.append(PotCarried(self._carried, debts))
        self._finish_hand(events, awarded=False)

    def _finish_hand(self, events: list[Event], awarded: bool) -> None:
        if self._opener is not None and self._opening_cards:
            events.append(OpeningShown(self._pid[self._opener] or 0, self._opening_cards))
        if awarded:
            self._level = _J
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

    # ------------------------------------------------------------------ timeouts and autoplay

    def _timeout_kind(self, s: int) -> ActionKind:
        street = self._street
        if street is S.CAMBIO:
            return K.SERVITO
        if street in (S.BUIO, S.APERTURA):
            return K.PASSO
        return K.PAROL if self._cur_bet == self._bet[s] else K.PASSO

    def timeout(self) -> list[Event]:
        """The player to act ran out of time (RULES §5.5)."""
        s = self._to_act
        if self._street is None or s is None:
            raise EngineError("Non c'è nessuno che debba parlare.")
        pid = self._pid[s] or 0
        kind = self._timeout_kind(s)
        self._record_op("timeout")
        events: list[Event] = [PlayerTimedOut(pid, kind)]
        self._timeouts[s] += 1
        if self._timeouts[s] >= 2 and not self._sitting_out[s]:
            self._sitting_out[s] = True
            events.append(PlayerSatOut(pid, True))
        self._apply(s, kind, 0, (), events)
        self._autoplay(events)
        return events

    def _autoplay(self, events: list[Event]) -> None:
        """Play at once the turns of players who sat out during the hand."""
        while self._street is not None and self._to_act is not None and self._sitting_out[self._to_act]:
            s = self._to_act
            self._apply(s, self._timeout_kind(s), 0, (), events)

    # ------------------------------------------------------------------ queries

    def cards_of(self, player: int) -> tuple[Card, ...]:
        seat = self._seat_of(player)
        return tuple(self._cards[seat]) if self._running() else ()

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
        running = self._running()
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
                    debt=self._debt_of(pid),
                )
            )
        pots = tuple(amount for amount, _ in self._pots(gathered=True)) if running else ()
        italiana = self.options.variant is V.ITALIANA
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
            opening_level=self._level if italiana else None,
            carried=self._carried,
            to_act=self.to_act,
            opener=None if self._opener is None or not running else self._pid[self._opener],
            can_start=self.can_start(),
        )

    # ------------------------------------------------------------------ persistence

    def to_dict(self) -> dict[str, Any]:
        """The table between hands (JSON-compatible). During a hand: the state at its start,
        which is what the storage layer restores after a crash (the hand is cancelled)."""
        if self._running() and self._record is not None:
            start: dict[str, Any] = self._record_state("start")
            return start
        return self._state_dict(self._snapshot())

    def _snapshot(self) -> _Snapshot:
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

    def _state_dict(self, snap: _Snapshot) -> dict[str, Any]:
        pids, stacks, sitting_out, timeouts = snap[0], snap[1], snap[2], snap[3]
        carried_by, parol_paid = snap[8], snap[10]
        return {
            "version": _STATE_VERSION,
            "options": dict(self._options_dict),
            "seats": [
                {
                    "seat": s,
                    "player": pid,
                    "stack": stacks[s],
                    "sitting_out": sitting_out[s],
                    "timeouts": timeouts[s],
                }
                for s, pid in enumerate(pids)
                if pid is not None
            ],
            "dealer": snap[4],
            "hand_number": snap[5],
            "level": snap[6],
            "carried": snap[7],
            "carried_by": sorted([pid, amount] for pid, amount in carried_by.items()),
            "parol_target": snap[9],
            "parol_paid": sorted([pid, amount] for pid, amount in parol_paid.items()),
            "no_invito": snap[11],
        }

    def _record_state(self, key: str) -> Any:
        """The record's start or end state as a dict, built from its snapshot on first use (and
        kept, so that every caller gets the same dict)."""
        assert self._record is not None
        value = self._record[key]
        if isinstance(value, tuple):
            value = self._record[key] = self._state_dict(value)
        return value

    @classmethod
    def from_dict(cls, data: dict[str, Any], rng: random.Random | None = None) -> Table:
        if data.get("version") != _STATE_VERSION:
            raise EngineError("Lo stato salvato del tavolo ha una versione sconosciuta.")
        table = cls(TableOptions.from_dict(data["options"]), rng=rng)
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
        return table

    def hand_record(self) -> dict[str, Any]:
        """The current or last hand as a plain record; ``engine.history.replay`` replays it."""
        if self._record is None:
            raise EngineError("Non è ancora stata giocata nessuna mano.")
        return {
            "version": self._record["version"],
            "start": self._record_state("start"),
            "deck": [c.code for c in self._record["deck"]],
            "reshuffles": [list(r) for r in self._record["reshuffles"]],
            "ops": [list(op) for op in self._record["ops"]],
            "end": self._record_state("end"),
        }

    def close(self) -> dict[int, int]:
        """Close the table: what each seated player takes home (docs/house-rules.md).

        The carried pot goes back to the seated players in proportion to what each put into it;
        if none of them did, it is shared evenly. Odd chips go clockwise from the dealer's left.
        """
        if self._running():
            raise EngineError("Non puoi chiudere il tavolo durante una mano.")
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
            raise EngineError("Non c'è nessuno a cui restituire il piatto.")
        for s in seated:
            self._pid[s] = None
            self._stack[s] = 0
        self._carried_by = {}
        self._parol_target = 0
        self._parol_paid = {}
        return home
