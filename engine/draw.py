"""The draw of the five-card games, italiana and 32carte (rules §2.6, §3).

Two betting rounds around one draw: after the first round each player still in says ``servito``
or ``cambio`` with his discards, in turn; the cards are then dealt from the stock, and when it
runs out the discards are reshuffled into a new one (who is served from what: ``_take``).
Italiana deals at most three cards to each player first and the rest in a second pass.
"""

from __future__ import annotations

import random
from typing import ClassVar

from engine.actions import ActionKind, LegalAction
from engine.betting import shared_legal
from engine.cards import Card
from engine.errors import InvalidDraw
from engine.events import ActionTaken, CardBurnt, CardsDrawn, DiscardsReshuffled, Event, Street, StreetStarted
from engine.options import TableOptions
from engine.showdown import ShowdownTable

__all__ = ["DrawTable"]

# Enum members bound once as module globals (``engine.table``): read on every action.
_CAMBIO, _SERVITO = ActionKind.CAMBIO, ActionKind.SERVITO
_STREET_CAMBIO, _STREET_PRIMO_GIRO = Street.CAMBIO, Street.PRIMO_GIRO
_STREET_SECONDO_GIRO = Street.SECONDO_GIRO


class DrawTable(ShowdownTable):
    """First round, draw, second round, showdown."""

    _APPLIER_NAMES: ClassVar[dict[str, str]] = {
        **ShowdownTable._APPLIER_NAMES,
        str(Street.CAMBIO): "_apply_draw",
    }
    _THREE_FIRST = False  # italiana: at most three cards each first, the rest after

    def __init__(self, options: TableOptions, rng: random.Random | None = None) -> None:
        super().__init__(options, rng)
        self._draw_legal = (shared_legal(_SERVITO), LegalAction(_CAMBIO, 1, options.max_draw))

    def _reset_hand_state(self) -> None:
        super()._reset_hand_state()
        self._draw_req: dict[int, tuple[Card, ...]] = {}
        self._draw_kept: dict[int, list[Card]] = {}  # seat -> hand without the requested discards
        self._first_second: int | None = None  # 32carte: seat of the last blind

    # ------------------------------------------------------------------ hooks

    def _second_round_first(self) -> int:
        """The seat after which the second round starts."""
        raise NotImplementedError

    def _after_second_round(self, events: list[Event], pots: list[tuple[int, tuple[int, ...]]]) -> None:
        self._showdown(events, pots)

    def _legal(self, s: int) -> tuple[LegalAction, ...]:
        if self._street is _STREET_CAMBIO:
            return self._draw_legal
        return self._betting_legal(s)

    def _after_round(self, events: list[Event], pots: list[tuple[int, tuple[int, ...]]]) -> None:
        if self._street is _STREET_PRIMO_GIRO:
            self._street = _STREET_CAMBIO
            events.append(StreetStarted(_STREET_CAMBIO))
            self._to_act = self._next_to_draw(self._order[-1])
            return
        self._after_second_round(events, pots)

    def _fold_out_of_turn(self, s: int, events: list[Event]) -> None:
        self._draw_req.pop(s, None)
        super()._fold_out_of_turn(s, events)

    def _after_fold(self, s: int, events: list[Event]) -> None:
        if self._street is _STREET_CAMBIO:
            self._to_act = self._next_to_draw(s)
            if self._to_act is None:
                self._deal_draw(events)
                self._start_second_round(events)
        else:
            super()._after_fold(s, events)

    # ------------------------------------------------------------------ the draw

    def _check_discards(
        self, seat: int, kind: ActionKind, cards: tuple[Card, ...]
    ) -> tuple[tuple[Card, ...], list[int], list[Card]]:
        """The discards, their codes (for the record) and the cards he keeps, in hand order (for
        ``_deal_draw``): worked out once here, where the codes of his hand are at hand anyway."""
        if kind is _SERVITO:
            if cards:
                raise InvalidDraw("Servito vuol dire che non cambi carte: non indicarne.")
            return (), [], []
        if not cards:
            raise InvalidDraw("Indica le carte che vuoi cambiare.")
        codes = [card.code for card in cards]  # cards compare by value: their codes do it in C
        if len(set(codes)) != len(codes):
            raise InvalidDraw("Hai indicato due volte la stessa carta.")
        limit = self.options.max_draw
        if len(cards) > limit:
            raise InvalidDraw(f"Puoi cambiare al massimo {limit} carte.")
        hand = self._cards[seat]
        hand_codes = [card.code for card in hand]
        for card, code in zip(cards, codes, strict=True):
            if code not in hand_codes:
                raise InvalidDraw(f"Non hai il {card} in mano.")
        kept = [card for card, code in zip(hand, hand_codes, strict=True) if code not in codes]
        return tuple(cards), codes, kept

    def _next_to_draw(self, after: int) -> int | None:
        folded, draw_req = self._folded, self._draw_req
        i = self._pos[after] + 1
        for t in self._ring[i : i + len(self._order)]:  # clockwise from the seat after ``after``
            if not folded[t] and t not in draw_req:
                return t
        return None

    def _apply_draw(
        self,
        s: int,
        kind: ActionKind,
        amount: int,
        cards: tuple[Card, ...],
        kept: list[Card] | None,
        events: list[Event],
    ) -> None:
        """A draw request; ``kept`` (his hand without ``cards``) is required when there are discards."""
        self._draw_req[s] = cards
        if cards:
            assert kept is not None
            self._draw_kept[s] = kept
        self._drawn[s] = len(cards)
        pid = self._pid[s] or 0
        events.append(ActionTaken(pid, _CAMBIO if cards else _SERVITO, len(cards), 0, 0, self._stack[s] == 0))
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
        already drawn become the new stock (rules §2.6).

        ``available`` holds the discards of the players fully served, ``waiting`` those of the
        players still owed cards (the receiver among them): a reshuffle made of a waiting
        player's discards could deal them back to him, so they come after the folded hands and
        burnt cards, and the receiver's own only as the very last resort (house rule, rules §2.6).
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
        three_first = self._THREE_FIRST
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

    def _start_second_round(self, events: list[Event]) -> None:
        self._street = _STREET_SECONDO_GIRO
        events.append(StreetStarted(_STREET_SECONDO_GIRO))
        self._open_round()
        self._to_act = self._next_bettor(self._second_round_first())
        if self._to_act is None:
            self._showdown(events)
