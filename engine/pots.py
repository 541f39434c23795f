"""The one pot splitter (rules §5): layered side pots, dead money, uncalled excess, odd chips.

Plain ints and lists in, plain values out, so the table and the tests share one definition of
where every chip goes. Players are identified by their position in the input sequences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine._frozen import fast_init

__all__ = ["Pot", "build_pots", "layers", "split", "uncalled_excess"]


@fast_init
@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # positions that may win it, in input order


def uncalled_excess(contributions: Sequence[int], live: Sequence[bool]) -> tuple[int, int] | None:
    """The part of the largest contribution nobody matched, if its owner is still live.

    A folded player's chips are never returned: they stay in the pot as dead money.
    """
    top = -1
    top_pos = -1
    second = 0
    for pos, amount in enumerate(contributions):
        if amount > top:
            second = max(second, top)
            top, top_pos = amount, pos
        elif amount > second:
            second = amount
    if top_pos < 0 or top <= second or not live[top_pos]:
        return None
    return top_pos, top - second


def build_pots(contributions: Sequence[int], live: Sequence[bool], dead: int = 0) -> list[Pot]:
    """Layer the contributions into a main pot and side pots.

    Each layer between two distinct contribution levels holds what everyone put in within it
    and is contested by the live players who reached its top. ``dead`` (antes, a carried pot)
    is contested by every live player, even one all-in for nothing but his ante. A layer nobody
    live reached (chips of a player who folded above every live player) joins the layer below
    it, and adjacent layers with the same contenders merge.
    """
    return [Pot(amount, eligible) for amount, eligible in layers(contributions, live, dead)]


def layers(
    contributions: Sequence[int], live: Sequence[bool], dead: int = 0, positions: Sequence[int] | None = None
) -> list[tuple[int, tuple[int, ...]]]:
    """``build_pots`` as plain (amount, eligible) pairs: the table asks for them after every
    betting round once someone is all-in, so no ``Pot`` is built.

    ``positions`` (ascending) limits the work to the positions that may hold chips or be live;
    the others must have contributed nothing and be out (the table passes the seats dealt in).
    Levels are the distinct positive contributions, so every contribution above the previous
    level reaches the next one: a layer is its height times the contributions still above it.
    """
    if positions is None:
        positions = range(len(contributions))
    everyone = tuple([pos for pos in positions if live[pos]])
    pots: list[tuple[int, tuple[int, ...]]] = [(dead, everyone)] if dead and everyone else []
    orphan = dead if not everyone else 0
    above = [pos for pos in positions if contributions[pos] > 0]
    previous = 0
    for level in sorted({contributions[pos] for pos in above}):
        amount = (level - previous) * len(above)
        eligible = tuple([pos for pos in above if live[pos]])
        above = [pos for pos in above if contributions[pos] > level]
        previous = level
        if not eligible:
            if pots:
                pots[-1] = (pots[-1][0] + amount, pots[-1][1])
            else:
                orphan += amount
        elif pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount + orphan, eligible))
            orphan = 0
    if orphan:
        # Nobody live at all: the caller decides (the table never asks for this).
        pots.append((orphan, ()))
    return pots


def split(amount: int, winners: Sequence[int], order: Sequence[int]) -> list[int]:
    """Shares of ``amount`` for ``winners``, in the order given by ``winners``.

    The odd chips go one each to the winners who come first in ``order`` (clockwise from the
    dealer's left, rules §5.4).
    """
    if not winners:
        raise ValueError("a pot needs at least one winner")
    share, odd = divmod(amount, len(winners))
    shares = dict.fromkeys(winners, share)
    rank = {pos: i for i, pos in enumerate(order)}
    for pos in sorted(winners, key=lambda p: rank.get(p, len(rank)))[:odd]:
        shares[pos] += 1
    return [shares[w] for w in winners]
