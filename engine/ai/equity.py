"""Monte Carlo equity with the engine's fast evaluator: the share of the pot a hand wins at the
showdown against the players still in, over random completions of what is unknown.

Draw games (italiana, 32carte). An opponent is modelled by the cards he keeps: a deck's worth of
random hands is dealt once, each is drawn to by the usual practice (``engine.ai.hands.discards``)
and the kept cards are filed by how many were changed, and by whether the hand could open at each
level. The number of cards a player changed is public, so after the draw his final hand is drawn
from the hands that change that many (the pat hands include a share of bluffs); an opener's from
those that qualify to open; a player who passed the opening from those that do not. A player who
bet or raised is modelled as the best of two or three such hands: a cheap way to narrow his range.

Hold'em: opponents hold random hole cards (the best of two or three for an aggressor) and the
board is completed at random.

Sampling is adaptive: it stops as soon as the estimate is clearly on one side of every threshold
the caller will compare it with. The cost is a few milliseconds at most per decision, and the
pre-draw and pre-flop figures, which depend on few things, are cached under a coarse key and
computed with a generator seeded from that key (so a run stays reproducible whatever filled the
cache before). Known simplifications: the Italian scala reale cycle (rules §1.1) is compared as
a plain order, and suits-off ties are not split; both are far rarer than the sampling error.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import sqrt

from engine.ai.hands import discards, qualifies_to_open
from engine.cards import deck
from engine.ranking import Ranking, fast_evaluator

__all__ = ["DrawModel", "Opponent", "draw_equity", "draw_model", "holdem_equity"]

Pool = tuple[tuple[tuple[int, ...], int], ...]  # (kept codes, number changed)

_MODEL_HANDS = 4000
_MIN_POOL = 12
_PAT_BLUFFS = 0.15  # pat hands: this share of them are junk that stood pat


@dataclass(frozen=True, slots=True)
class Opponent:
    """How one opponent is sampled: the pool of his possible holdings and the best of ``tries``."""

    pool: Pool
    tries: int = 1


@dataclass(frozen=True, slots=True)
class DrawModel:
    """The opponent model of one deck (module doc)."""

    deck: tuple[int, ...]
    ranking: Ranking
    lowest_rank: int
    anyone: Pool  # any hand: kept cards and how many it changes
    by_draw: dict[int, Pool]  # the hands that change k cards
    openers: dict[int, Pool]  # level -> hands that may open
    openers_by_draw: dict[tuple[int, int], Pool]
    closed: dict[int, Pool]  # level -> hands that may not open
    closed_by_draw: dict[tuple[int, int], Pool]

    def pool(self, level: int | None, opened: bool | None, drawn: int | None) -> Pool:
        """The narrowest pool that knows enough hands: by the opening (True: he opened, False:
        he passed it, None: unknown) and by the number changed (None before the draw)."""
        candidates: list[Pool] = []
        if level is not None and opened is not None:
            if drawn is None:
                candidates.append((self.openers if opened else self.closed).get(level, ()))
            else:
                table = self.openers_by_draw if opened else self.closed_by_draw
                candidates.append(table.get((level, drawn), ()))
        if drawn is not None:
            candidates.append(self.by_draw.get(drawn, ()))
        candidates.append(self.anyone)
        for pool in candidates:
            if len(pool) >= _MIN_POOL:
                return pool
        return self.anyone


@cache
def draw_model(ranking: Ranking, lowest_rank: int, max_draw: int) -> DrawModel:
    """Built once per deck (about a tenth of a second), from a fixed seed."""
    rng = random.Random(f"draw-model-{ranking}-{lowest_rank}-{max_draw}")
    codes = tuple(c.code for c in deck(60 - 4 * lowest_rank))
    anyone: list[tuple[tuple[int, ...], int]] = []
    by_draw: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    openers: dict[int, list[tuple[tuple[int, ...], int]]] = {11: [], 12: [], 13: []}
    closed: dict[int, list[tuple[tuple[int, ...], int]]] = {11: [], 12: [], 13: []}
    junk: list[tuple[int, ...]] = []
    for _ in range(_MODEL_HANDS):
        hand = rng.sample(codes, 5)
        thrown = discards(hand, ranking, lowest_rank, max_draw)
        kept = tuple(c for c in hand if c not in thrown)
        entry = (kept, len(thrown))
        anyone.append(entry)
        by_draw.setdefault(len(thrown), []).append(entry)
        if len(thrown) >= 4:
            junk.append(tuple(hand))
        for level in (11, 12, 13):
            (openers if qualifies_to_open(hand, level, ranking, lowest_rank) else closed)[level].append(entry)
    pat = by_draw.setdefault(0, [])
    bluffs = int(len(pat) * _PAT_BLUFFS / (1 - _PAT_BLUFFS))
    pat.extend((hand, 0) for hand in junk[:bluffs])

    def split(pools: dict[int, list[tuple[tuple[int, ...], int]]]) -> dict[tuple[int, int], Pool]:
        out: dict[tuple[int, int], list[tuple[tuple[int, ...], int]]] = {}
        for level, pool in pools.items():
            for entry in pool:
                out.setdefault((level, entry[1]), []).append(entry)
        return {key: tuple(pool) for key, pool in out.items()}

    return DrawModel(
        deck=codes,
        ranking=ranking,
        lowest_rank=lowest_rank,
        anyone=tuple(anyone),
        by_draw={k: tuple(v) for k, v in by_draw.items()},
        openers={k: tuple(v) for k, v in openers.items()},
        openers_by_draw=split(openers),
        closed={k: tuple(v) for k, v in closed.items()},
        closed_by_draw=split(closed),
    )


def _settled(wins: float, n: int, thresholds: Sequence[float]) -> bool:
    """Whether the estimate after ``n`` samples is clearly away from every threshold."""
    p = wins / n
    margin = 2.5 * sqrt(max(p * (1 - p), 0.02) / n) + 0.01
    return all(abs(p - t) > margin for t in thresholds)


def draw_equity(
    model: DrawModel,
    known: Sequence[int],
    keep: Sequence[int],
    changes: int,
    opponents: Sequence[Opponent],
    rng: random.Random,
    *,
    thresholds: Sequence[float] = (),
    min_samples: int = 40,
    max_samples: int = 160,
) -> float:
    """Share of the pot won by the hand that keeps ``keep`` of the ``known`` cards (all his
    cards: the discards are dead) and draws ``changes`` more, against ``opponents``."""
    if not opponents:
        return 1.0
    strength = fast_evaluator(model.ranking, model.lowest_rank).strength
    dead = set(known)
    stock = [c for c in model.deck if c not in dead]
    size = len(stock)
    rand = rng.random
    keep_list = list(keep)
    # Six hands of five on a 32-card deck plus his draw need more cards than the stock holds: at the
    # table the discards are shuffled back in. Then each opponent's hand is drawn apart from the
    # others' (only his cards and the dead ones are out), or the sampling below would never end.
    scarce = changes + 5 * len(opponents) > size
    wins = 0.0
    n = 0
    while n < max_samples:
        n += 1
        used = set(dead)
        mine = keep_list[:]
        for _ in range(changes):
            c = stock[int(rand() * size)]
            while c in used:
                c = stock[int(rand() * size)]
            used.add(c)
            mine.append(c)
        mine_value = strength(mine)
        best = -1
        for opponent in opponents:
            pool = opponent.pool
            top = -1
            chosen: list[int] = []
            for _ in range(opponent.tries):
                for _attempt in range(4):
                    kept, count = pool[int(rand() * len(pool))]
                    if not used.intersection(kept):
                        break
                else:
                    kept, count = (), 5
                hand = list(kept)
                for _ in range(count):
                    c = stock[int(rand() * size)]
                    while c in used or c in hand:
                        c = stock[int(rand() * size)]
                    hand.append(c)
                value = strength(hand)
                if value > top:
                    top, chosen = value, hand
            if not scarce:
                used.update(chosen)
            if top > best:
                best = top
        if mine_value > best:
            wins += 1.0
        elif mine_value == best:
            wins += 0.5
        if n >= min_samples and n % 20 == 0 and _settled(wins, n, thresholds):
            break
    return wins / n


_DECK52 = tuple(c.code for c in deck(52))


def holdem_equity(
    hole: Sequence[int],
    board: Sequence[int],
    tries: Sequence[int],
    rng: random.Random,
    *,
    thresholds: Sequence[float] = (),
    min_samples: int = 40,
    max_samples: int = 160,
) -> float:
    """Share of the pot won by ``hole`` on ``board`` (0 to 5 cards) against one opponent per
    entry of ``tries`` (each holding the best of that many random hands)."""
    if not tries:
        return 1.0
    seven = fast_evaluator(Ranking.INTERNAZIONALE, 2).seven
    known = set(hole) | set(board)
    stock = [c for c in _DECK52 if c not in known]
    size = len(stock)
    rand = rng.random
    a, b = hole
    missing = 5 - len(board)
    wins = 0.0
    n = 0
    while n < max_samples:
        n += 1
        used = set(known)
        full = list(board)
        for _ in range(missing):
            c = stock[int(rand() * size)]
            while c in used:
                c = stock[int(rand() * size)]
            used.add(c)
            full.append(c)
        d, e, f, g, h = full
        mine = seven(a, b, d, e, f, g, h)
        best = -1
        for count in tries:
            top = -1
            pick = (0, 0)
            for _ in range(count):
                x = stock[int(rand() * size)]
                while x in used:
                    x = stock[int(rand() * size)]
                y = stock[int(rand() * size)]
                while y in used or y == x:
                    y = stock[int(rand() * size)]
                value = seven(x, y, d, e, f, g, h)
                if value > top:
                    top, pick = value, (x, y)
            used.update(pick)
            if top > best:
                best = top
        if mine > best:
            wins += 1.0
        elif mine == best:
            wins += 0.5
        if n >= min_samples and n % 20 == 0 and _settled(wins, n, thresholds):
            break
    return wins / n


@cache
def preflop_equity(high: int, low: int, suited: bool, tries: tuple[int, ...]) -> float:
    """Pre-flop equity of a starting hand class against ``tries`` (sorted), cached; computed
    with a generator seeded from the key so that the figure never depends on call order."""
    rng = random.Random(f"preflop-{high}-{low}-{suited}-{tries}")
    hole = (high * 4 + 3, low * 4 + (3 if suited else 2))
    return holdem_equity(hole, (), tries, rng, min_samples=300, max_samples=300)
