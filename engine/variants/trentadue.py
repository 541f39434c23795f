"""32 Card Draw (32carte): five-card draw with blinds, 32 cards, the italian ranking (rules §3).

What this game adds to the draw: the small and big blind (and the optional over, three times
the small one's double, with more than three players) instead of the invito and the opening; the
first round starts after the last blind, and so does the second.
"""

from __future__ import annotations

from engine.draw import DrawTable
from engine.events import Event, PostKind, Street, StreetStarted
from engine.ranking import Ranking

__all__ = ["TrentadueTable"]

# Enum members bound once as module globals (``engine.table``).
_SMALL, _BIG, _OVER = PostKind.PICCOLO_BUIO, PostKind.GRANDE_BUIO, PostKind.OVER
_PRIMO_GIRO = Street.PRIMO_GIRO


class TrentadueTable(DrawTable):
    """32carte (module doc)."""

    def deck_for(self, players: int) -> tuple[int, Ranking]:
        return 32, Ranking.ITALIANA

    def _deal_in(self, events: list[Event]) -> None:
        cip = self.options.cip
        order = self._order
        blinds = [(order[0], cip // 2, _SMALL), (order[1], cip, _BIG)]
        if self.options.over and len(order) > 3:
            blinds.append((order[2], 2 * cip, _OVER))
        for seat, amount, kind in blinds:
            self._post_blind(seat, amount, kind, events)
        self._deal(5, events)
        self._first_second = blinds[-1][0]
        self._street = _PRIMO_GIRO
        events.append(StreetStarted(_PRIMO_GIRO))
        self._open_round(preserve_bets=True)
        self._to_act = self._next_bettor(blinds[-1][0])
        if self._to_act is None:
            self._end_round(events)

    def _second_round_first(self) -> int:
        assert self._first_second is not None
        return self._first_second
