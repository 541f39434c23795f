"""The showdown: value the live hands, award every pot, then show or muck in turn (rules §5.4).

One layer for every game: the ranking and the lowest rank of the hand's deck say how hands
compare, ``semi`` whether suits break ties (italian ranking only), and a board, if any, joins
each player's cards.
"""

from __future__ import annotations

from engine._rank_core import shown_order
from engine._table_rules import best_five
from engine.betting import BettingTable
from engine.cards import Card, deck
from engine.events import Event, HandMucked, HandShown, PotAwarded, Street, StreetStarted
from engine.pots import split
from engine.ranking import Ranking, beats, category_of, fast_evaluator, winners_from_strengths

__all__ = ["ShowdownTable"]

_CARD_BY_CODE = {card.code: card for card in deck(52)}  # the same objects as ``Card.from_code``
# Enum members bound once as module globals (``engine.table``).
_SHOWDOWN, _ITALIAN = Street.SHOWDOWN, Ranking.ITALIANA


class ShowdownTable(BettingTable):
    """Betting rounds ending in a showdown."""

    def _showdown(self, events: list[Event], pots: list[tuple[int, tuple[int, ...]]] | None = None) -> None:
        """Value the live hands, award every pot, then show or muck in turn. ``pots`` are those the
        end of the last betting round has just announced, when no chip has moved since."""
        self._street = _SHOWDOWN
        self._to_act = None
        events.append(StreetStarted(_SHOWDOWN))
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
        suits = self.options.semi and ranking is _ITALIAN
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
        # Show order: the last aggressor, else the first still in left of the dealer; mucking: a hand
        # that does not beat every hand shown so far is not revealed, unless it wins a share (§2.8).
        aggressor = self._aggressor
        first = aggressor if aggressor is not None and not folded[aggressor] else live[0]
        start = live.index(first)
        shown: list[int] = []
        for t in live[start:] + live[:start]:
            pid = pids[t] or 0
            mine = strengths[t]
            if t in winning or self._beats_every(mine, shown, suits):
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

    def _beats_every(self, mine: int, shown: list[int], suits: bool) -> bool:
        """Whether this strength beats every hand already shown (the first hand always does); a tie
        does not beat (then it is mucked, unless it wins a share)."""
        ranking = self._ranking
        for other in shown:  # noqa: SIM110 (a plain loop: cheaper than ``all`` over a generator)
            if not beats(mine, other, ranking, suits=suits):
                return False
        return True

    def _shown_value(self, codes: list[int], target: int) -> tuple[str, tuple[Card, ...]]:
        """The category name and the five cards to show: with a board, the first five of the seven
        that make the strength (the order of ``evaluate``, so the same five cards are shown).
        What ``value_of_five`` would give, without building the ``HandValue``."""
        if len(codes) > 5:
            codes = best_five(codes, target, self._lowest)
        shown = tuple(map(_CARD_BY_CODE.__getitem__, shown_order(codes, self._lowest)))
        return category_of(target, self._ranking).nome, shown
