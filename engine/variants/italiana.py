"""Poker tradizionale (italiana): five-card draw with the invito, the buio, the opening and the
paròl pot (rules §2).

What this game adds to the draw: the invito (and the paròl debts) before the deal, the buio
phase (buio, controbuio, controcontrobuio and their matches), the opening at the current level
(jacks, queens, kings) with its void hands, and the second round checked through, which carries
the pot to the next hand (the piatto di paròl).
"""

from __future__ import annotations

from typing import ClassVar

from engine._table_rules import opening_cards
from engine.actions import ActionKind, LegalAction
from engine.betting import shared_legal
from engine.cards import Card, deck_size_for_players
from engine.draw import DrawTable
from engine.errors import OpeningNotAllowed, TableFull
from engine.events import Event, HandVoid, PostKind, PotCarried, Street, StreetStarted
from engine.levels import LEVEL_NAMES
from engine.options import Mazzo
from engine.ranking import Ranking
from engine.table import J, K

__all__ = ["ItalianaTable"]

# Enum members bound once as module globals (``engine.table``): read on every action.
_APRO, _BUIO, _CONTROBUIO = ActionKind.APRO, ActionKind.BUIO, ActionKind.CONTROBUIO
_PASSO, _VEDO = ActionKind.PASSO, ActionKind.VEDO
_STREET_BUIO, _STREET_APERTURA, _STREET_CAMBIO = Street.BUIO, Street.APERTURA, Street.CAMBIO
_STREET_PRIMO_GIRO = Street.PRIMO_GIRO
_DEBITO, _INVITO = PostKind.DEBITO, PostKind.INVITO
_PASSO_LEGAL = shared_legal(_PASSO)


class ItalianaTable(DrawTable):
    """Poker tradizionale (module doc)."""

    _APPLIER_NAMES: ClassVar[dict[str, str]] = {
        **DrawTable._APPLIER_NAMES,
        str(Street.BUIO): "_apply_buio",
        str(Street.APERTURA): "_apply_opening",
    }
    _THREE_FIRST = True
    _FORGET_AGGRESSOR = False  # the opener's last raiser shows first

    def _reset_hand_state(self) -> None:
        super()._reset_hand_state()
        self._blinds: list[int] = []
        self._blind_raise = 0  # the last blind's increase over the blind before it
        self._matched: set[int] = set()
        self._prev_matched: set[int] = set()
        self._last_blind: int | None = None

    # ------------------------------------------------------------------ hooks

    def deck_for(self, players: int) -> tuple[int, Ranking]:
        """The deck the players chose, or by default the one their number needs (rules §2)."""
        mazzo = self.options.mazzo
        if mazzo is Mazzo.AMERICANO:
            return 52, Ranking.INTERNAZIONALE
        if mazzo is Mazzo.TRENTADUE:
            if players * 5 > 32:
                raise TableFull("Con il mazzo da 32 carte si gioca al massimo in 6.", seats=32 // 5)
            return 32, Ranking.ITALIANA
        return deck_size_for_players(players), Ranking.ITALIANA

    def _opening_level(self) -> int | None:
        return self._level

    def _legal(self, s: int) -> tuple[LegalAction, ...]:
        street = self._street
        if street is _STREET_BUIO:
            assert self._ask is not None
            what = self._ask[1]
            amount = self._ask_amount()
            if what == "buio":
                return (shared_legal(_BUIO, amount, amount), _PASSO_LEGAL)
            if what == "controbuio":
                return (shared_legal(_CONTROBUIO, amount, amount), _PASSO_LEGAL)
            return (shared_legal(_VEDO, amount, amount), _PASSO_LEGAL)
        if street is _STREET_APERTURA:
            stack = self._stack[s]
            cip, pot = self.options.cip, self._pot
            low = cip if cip < stack else stack
            high = pot if pot < stack else stack
            return (shared_legal(_APRO, low, high if high > low else low), _PASSO_LEGAL)
        if street is _STREET_CAMBIO:
            return self._draw_legal
        return self._betting_legal(s)

    def _after_fold(self, s: int, events: list[Event]) -> None:
        street = self._street
        if street is _STREET_BUIO:
            self._end_buio_phase(events)
        elif street is _STREET_APERTURA:
            self._to_act = self._next_to_open(s)
            if self._to_act is None:
                self._void_hand(events)
        else:
            super()._after_fold(s, events)

    def _second_round_first(self) -> int:
        if self._last_blind is not None:
            return self._last_blind  # the blind opener speaks last
        assert self._opener is not None
        return self._order[(self._pos[self._opener] - 1) % len(self._order)]

    def _after_second_round(self, events: list[Event], pots: list[tuple[int, tuple[int, ...]]]) -> None:
        live = [t for t in self._order if not self._folded[t]]
        if self._round_bets == 0 and all(self._stack[t] > 0 for t in live):
            self._carry_parol(events)
            return
        self._showdown(events, pots)

    # ------------------------------------------------------------------ the start of a hand

    def _deal_in(self, events: list[Event]) -> None:
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
                    self._post_dead(s, debt, _DEBITO, events)
                    self._debt_paid[s] = debt
        skip_invito, self._no_invito = self._no_invito, False  # only the hand right after a paròl
        if not skip_invito:
            dealer = self._dealer
            assert dealer is not None
            for s in self._order if opts.invito_tutti else [dealer]:
                self._post_dead(s, opts.invito, _INVITO, events)
        first = self._order[0]
        buio = opts.buio_multiplo * self._pot
        if (
            self._level == J
            and not self._parol_target
            and len(self._order) >= 3
            and self._stack[first] >= buio > 0
        ):
            self._street = _STREET_BUIO
            self._ask = (first, "buio")
            self._to_act = first
            events.append(StreetStarted(_STREET_BUIO))
            return
        self._end_buio_phase(events)

    # ------------------------------------------------------------------ buio

    def _end_buio_phase(self, events: list[Event]) -> None:
        self._ask = None
        self._deal(5, events)
        if not self._blinds:
            self._street = _STREET_APERTURA
            events.append(StreetStarted(_STREET_APERTURA))
            self._to_act = self._next_to_open(self._order[-1])
            if self._to_act is None:
                self._void_hand(events)
            return
        last = self._blinds[-1]
        self._last_blind = last
        self._street = _STREET_PRIMO_GIRO
        events.append(StreetStarted(_STREET_PRIMO_GIRO))
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

    def _ask_amount(self) -> int:
        assert self._ask is not None
        seat, what = self._ask
        if what == "buio":
            return self.options.buio_multiplo * self._pot
        top = max(self._bet[b] for b in self._blinds)
        if what == "controbuio":
            return 2 * top
        return top - self._bet[seat]

    def _apply_buio(
        self,
        s: int,
        kind: ActionKind,
        amount: int,
        cards: tuple[Card, ...],
        kept: list[Card] | None,
        events: list[Event],
    ) -> None:
        """A word of the buio phase: its amount is the one asked (``_ask_amount``)."""
        assert self._ask is not None
        what = self._ask[1]
        if kind is _PASSO:
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

    # ------------------------------------------------------------------ the opening

    def _check_opening(self, seat: int) -> None:
        found = opening_cards(self._cards[seat], self._level, self._ranking, self._lowest)
        if found is None:
            name = LEVEL_NAMES[self._level]
            raise OpeningNotAllowed(
                f"Non puoi aprire: serve almeno una coppia di {name}, un punto migliore "
                "o quattro carte di scala reale bilaterale.",
                level=self._level,
            )
        self._opening_cards = found

    def _next_to_open(self, after: int) -> int | None:
        folded, acted, stack = self._folded, self._acted, self._stack
        i = self._pos[after] + 1
        for s in self._ring[i : i + len(self._order)]:  # clockwise from the seat after ``after``
            if not folded[s] and not acted[s] and stack[s] > 0:
                return s
        return None

    def _apply_opening(
        self,
        s: int,
        kind: ActionKind,
        amount: int,
        cards: tuple[Card, ...],
        kept: list[Card] | None,
        events: list[Event],
    ) -> None:
        self._acted[s] = True
        if kind is _PASSO:
            self._taken(s, kind, 0, 0, events)
            self._to_act = self._next_to_open(s)
            if self._to_act is None:
                self._void_hand(events)
            return
        self._pay(s, amount)
        self._opener = s
        self._aggressor = s
        self._street = _STREET_PRIMO_GIRO
        for t in self._order:
            self._acted[t] = False
        self._acted[s] = True
        self._cur_bet = amount
        self._min_raise = max(amount, self.options.cip)
        self._full_raises = 1
        self._seen[s] = 1
        self._round_bets = 1
        self._taken(s, kind, amount, amount, events)
        events.append(StreetStarted(_STREET_PRIMO_GIRO))
        self._after_bet(s, events)

    # ------------------------------------------------------------------ void hands and paròl pots

    def _void_hand(self, events: list[Event]) -> None:
        self._carry_over()
        self._level = min(self._level + 1, K)
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
        self._level = K
        self._no_invito = True
        debts = tuple(
            (pid, self._debt_of(pid)) for pid in self._pid if pid is not None and self._debt_of(pid) > 0
        )
        events.append(PotCarried(self._carried, debts))
        self._finish_hand(events, awarded=False)
