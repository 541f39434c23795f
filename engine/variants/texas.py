"""Texas hold'em: two cards each, five on the board over three streets, no draw (rules §4).

What this game adds to betting and the showdown: the blinds (heads-up, the button posts the
small one), and after each round the next street dealt, a card burnt before each, until someone
can bet or the showdown.
"""

from __future__ import annotations

from engine.events import Event, PostKind, Street, StreetStarted
from engine.ranking import Ranking
from engine.showdown import ShowdownTable

__all__ = ["TexasTable"]

# Enum members bound once as module globals (``engine.table``).
_PREFLOP, _FLOP, _TURN, _RIVER = Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER
_SMALL, _BIG = PostKind.PICCOLO_BUIO, PostKind.GRANDE_BUIO


class TexasTable(ShowdownTable):
    """Texas hold'em (module doc)."""

    def deck_for(self, players: int) -> tuple[int, Ranking]:
        return 52, Ranking.INTERNAZIONALE

    def _deal_in(self, events: list[Event]) -> None:
        cip = self.options.cip
        order = self._order
        if len(order) == 2:
            sb, bb = order[1], order[0]  # heads-up: the button posts the small blind
        else:
            sb, bb = order[0], order[1]
        self._post_blind(sb, cip // 2, _SMALL, events)
        self._post_blind(bb, cip, _BIG, events)
        self._deal(2, events)
        self._street = _PREFLOP
        events.append(StreetStarted(_PREFLOP))
        self._open_round(preserve_bets=True)
        self._to_act = self._next_bettor(bb)
        if self._to_act is None:
            self._end_round(events)

    def _after_round(self, events: list[Event], pots: list[tuple[int, tuple[int, ...]]]) -> None:
        """Deal the next streets until someone can bet or the showdown; ``pots`` are those just
        announced: no chip moves while the board is dealt out to players all-in."""
        while True:
            street = self._street
            if street is _PREFLOP:
                nxt = _FLOP
            elif street is _FLOP:
                nxt = _TURN
            elif street is _TURN:
                nxt = _RIVER
            else:
                self._showdown(events, pots)
                return
            self._street = nxt
            stock = self._stock
            self._muck.append(stock.pop())
            count = 3 if nxt is _FLOP else 1
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
