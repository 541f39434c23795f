"""Betting rounds and pots, the layer every game shares (rules §5).

``BettingTable`` adds to the base table what a betting round needs: posting blinds and antes,
the legal ranges of ``punto`` and ``rilancio`` under each limit, applying a bet, the end of a
round (uncalled bets returned, the pots announced) and the win of the last player left. What comes
after a round (the draw, the next street, the showdown) is the game's: the ``_after_round`` hook.
"""

from __future__ import annotations

from typing import ClassVar

from engine.actions import Action, ActionKind, LegalAction
from engine.cards import Card
from engine.errors import AmountOutOfRange, AmountRequired
from engine.events import (
    ActionTaken,
    BetReturned,
    ChipsPosted,
    Event,
    PostKind,
    PotAwarded,
    PotUpdated,
    Street,
)
from engine.italian import chips
from engine.options import Limit
from engine.pots import layers
from engine.table import Table

__all__ = ["BettingTable", "shared_legal"]

# Enum members bound once as module globals (``engine.table``): read on every action.
_APRO, _BUIO, _CAMBIO, _CONTROBUIO = (
    ActionKind.APRO,
    ActionKind.BUIO,
    ActionKind.CAMBIO,
    ActionKind.CONTROBUIO,
)
_PAROL, _PASSO, _PUNTO, _RILANCIO = ActionKind.PAROL, ActionKind.PASSO, ActionKind.PUNTO, ActionKind.RILANCIO
_SERVITO, _VEDO = ActionKind.SERVITO, ActionKind.VEDO
_FISSO, _NOLIMIT = Limit.FISSO, Limit.NOLIMIT
_STREET_TURN, _STREET_RIVER = Street.TURN, Street.RIVER
_BETTING = frozenset(
    {Street.PRIMO_GIRO, Street.SECONDO_GIRO, Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER}
)

_LEGAL_CACHE: dict[tuple[str, int, int], LegalAction] = {}


def shared_legal(kind: ActionKind, low: int = 0, high: int = 0) -> LegalAction:
    """Legal actions are immutable values: share them instead of building one per query."""
    key = (kind._value_, low, high)  # the str: an enum member hashes in Python
    found = _LEGAL_CACHE.get(key)
    if found is None:
        if len(_LEGAL_CACHE) > 50_000:
            _LEGAL_CACHE.clear()
        found = _LEGAL_CACHE[key] = LegalAction(kind, low, high)
    return found


_PASSO_LEGAL = shared_legal(_PASSO)
_PAROL_LEGAL = shared_legal(_PAROL)


class BettingTable(Table):
    """Betting rounds and pots; the game decides what follows a round (``_after_round``)."""

    _APPLIER_NAMES: ClassVar[dict[str, str]] = {str(street): "_apply_bet" for street in _BETTING}

    # Whether the last aggressor is forgotten at each new round (italiana keeps the opener's
    # raiser: he shows first at the showdown).
    _FORGET_AGGRESSOR = True

    def _reset_hand_state(self) -> None:
        super()._reset_hand_state()
        n = self._n
        self._committed = [0] * n
        self._put = [0] * n  # everything this hand: antes, debts, bets (for the carried pot)
        self._debt_paid = [0] * n
        self._acted = [False] * n
        self._seen = [0] * n  # the full raises he had seen when he last acted
        self._dead = 0
        self._min_raise = 0
        self._full_raises = 0
        self._round_bets = 0  # bets and full raises this round (fixed-limit cap)
        self._aggressor: int | None = None
        self._raise_rights: set[int] | None = None  # italiana's blinds: who may raise

    # ------------------------------------------------------------------ hooks

    def _after_round(self, events: list[Event], pots: list[tuple[int, tuple[int, ...]]]) -> None:
        """What follows a betting round; ``pots`` are those just announced."""
        raise NotImplementedError

    def _legal(self, s: int) -> tuple[LegalAction, ...]:
        return self._betting_legal(s)

    def _after_fold(self, s: int, events: list[Event]) -> None:
        """The hand goes on after the player to act left it (``_fold_out_of_turn``)."""
        nxt = self._next_bettor(s)
        if nxt is not None:
            self._to_act = nxt
        else:
            self._end_round(events)

    # ------------------------------------------------------------------ posting

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
        if self._FORGET_AGGRESSOR and self._able_to_bet() >= 2:
            # A round nobody can bet in (all in but one) keeps the last aggressor of the last round
            # that was played: he shows first (rules §6).
            self._aggressor = None

    def _bet_size(self) -> int:
        """The minimum bet; the fixed bet in fixed limit (big bet on turn and river)."""
        cip = self.options.cip
        if self._limit is _FISSO and (self._street is _STREET_TURN or self._street is _STREET_RIVER):
            return 2 * cip
        return cip

    # ------------------------------------------------------------------ legal ranges

    def _betting_legal(self, s: int) -> tuple[LegalAction, ...]:
        stack = self._stack[s]
        cur = self._cur_bet
        facing = cur - self._bet[s]
        if facing > 0:
            call = facing if facing < stack else stack
            vedo = shared_legal(_VEDO, call, call)
            raise_ = self._raise_legal(s, stack, facing)
            return (_PASSO_LEGAL, vedo) if raise_ is None else (_PASSO_LEGAL, vedo, raise_)
        if cur == 0:
            bet = self._bet_legal(s, stack)
            return (_PAROL_LEGAL,) if bet is None else (_PAROL_LEGAL, bet)
        raise_ = self._raise_legal(s, stack, 0)
        return (_PAROL_LEGAL,) if raise_ is None else (_PAROL_LEGAL, raise_)

    def _others_can_act(self, s: int) -> bool:
        """A bet or raise is offered only if someone else could put in more than the current bet
        (rules §5.3): otherwise nobody could call any of it and it would all come back."""
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
            return shared_legal(_PUNTO, stack, stack)
        limit = self._limit
        if limit is _FISSO:
            return shared_legal(_PUNTO, size, size)
        if limit is _NOLIMIT:
            high = stack
        else:
            pot = self._pot
            high = pot if pot < stack else stack
        return shared_legal(_PUNTO, size, high if high > size else size)

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
        if limit is _FISSO:
            if self._round_bets >= 4:
                return None
            size = self._bet_size()
            if avail < size:
                size = avail
            return shared_legal(_RILANCIO, size, size)
        low = self._min_raise
        if avail <= low:
            return shared_legal(_RILANCIO, avail, avail)
        if limit is _NOLIMIT:
            high = avail
        else:
            cap = self._pot + facing
            high = cap if cap < avail else avail
        return shared_legal(_RILANCIO, low, high if high > low else low)

    def _check_amount(self, seat: int, kind: ActionKind, match: LegalAction, action: Action) -> int:
        """The amount of a legal word, or the refusal of a wrong one."""
        if kind is _PASSO or kind is _PAROL or kind is _SERVITO or kind is _CAMBIO:
            return 0
        if kind is _VEDO or kind is _BUIO or kind is _CONTROBUIO:
            if action.amount is not None and action.amount != match.min:
                raise AmountOutOfRange(
                    f"L'importo è fisso: {chips(match.min)}.", minimum=match.min, maximum=match.min
                )
            return match.min
        amount = action.amount
        if amount is None:
            raise AmountRequired("Devi dire quante fiches.")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise AmountRequired("L'importo deve essere un numero intero di fiches.")
        low, high = match.min, match.max
        if amount < low:
            word = "il rilancio minimo" if kind is _RILANCIO else "la puntata minima"
            raise AmountOutOfRange(f"Troppo poco: {word} è di {chips(low)}.", minimum=low, maximum=high)
        if amount > high:
            facing = self._cur_bet - self._bet[seat]
            if amount + (facing if kind is _RILANCIO else 0) > self._stack[seat]:
                message = f"Non hai abbastanza fiches: ne hai {chips(self._stack[seat])}."
            elif self._limit is _FISSO:
                message = f"A limite fisso l'importo è {chips(high)}."
            else:
                message = f"Troppo: al massimo puoi mettere {chips(high)} (il limite del piatto)."
            raise AmountOutOfRange(message, minimum=low, maximum=high)
        return amount

    # ------------------------------------------------------------------ betting

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

    def _apply_bet(
        self,
        s: int,
        kind: ActionKind,
        amount: int,
        cards: tuple[Card, ...],
        kept: list[Card] | None,
        events: list[Event],
    ) -> None:
        """A word of a betting round (``cards`` and ``kept`` are empty)."""
        bet, stack = self._bet, self._stack
        if kind is _PASSO:
            self._folded[s] = True
            self._muck.extend(self._cards[s])
            events.append(ActionTaken(self._pid[s] or 0, kind, 0, 0, bet[s], False))
        else:
            if kind is _PAROL:
                put = 0
            else:
                if kind is _VEDO:
                    put = self._cur_bet - bet[s]
                    if stack[s] < put:
                        put = stack[s]
                    amount = put
                else:
                    put = amount + (self._cur_bet - bet[s] if kind is _RILANCIO else 0)
                # ``_pay``, inline: every call and bet goes through here.
                stack[s] -= put
                bet[s] += put
                self._committed[s] += put
                self._put[s] += put
                self._pot += put
                if kind is not _VEDO:
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

    def _able_to_bet(self) -> int:
        folded, stack = self._folded, self._stack
        able = 0
        for t in self._order:
            if not folded[t] and stack[t] > 0:
                able += 1
        return able

    # ------------------------------------------------------------------ the end of a round

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
        self._after_round(events, pots)

    # ------------------------------------------------------------------ endings

    def _fold_out_of_turn(self, s: int, events: list[Event]) -> None:
        self._legal_cache = None
        was_to_act = self._to_act == s
        self._folded[s] = True
        self._muck.extend(self._cards[s])
        events.append(ActionTaken(self._pid[s] or 0, _PASSO, 0, 0, self._bet[s], False))
        live = [t for t in self._order if not self._folded[t]]
        if len(live) == 1:
            self._ask = None  # italiana's buio phase, if it was on, ends with the hand
            self._win_uncontested(live[0], events)
            return
        if not was_to_act:
            return
        self._after_fold(s, events)
        self._autoplay(events)

    def _win_uncontested(self, s: int, events: list[Event]) -> None:
        if self._street in _BETTING:
            self._return_uncalled(events)
        amount = self._pot
        self._stack[s] += amount
        self._pot = 0
        events.append(PotAwarded(0, amount, (self._pid[s] or 0,), (amount,), False))
        self._finish_hand(events, awarded=True)
