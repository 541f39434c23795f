"""Computer players of the draw games: italiana (poker tradizionale, rules §2) and 32carte (§3).

* **Buio** (italiana): rarely, since it is a bet made before seeing any card.
* **Opening** (italiana): only with a hand that meets the requirement of the current level, as
  the player checks it himself (``engine.ai.hands.qualifies_to_open``); the size grows with the
  hand's equity against the players still to speak.
* **Draw**: the usual practice (``engine.ai.hands.discards``); ``esperto`` now and then stands
  pat on nothing heads-up, and then bets it as a made hand.
* **Betting**: the shared rule of ``engine.ai.betting`` on a Monte Carlo equity. Before the draw
  the equity is that of the hand after its planned draw against the opponents' likely draws
  (cached under a coarse key: it depends on little); after it, against hands that changed as many
  cards as each opponent did.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, ActionKind
from engine.ai.betting import Rival, Style, bet_or_check, rivals, thresholds, tries_for
from engine.ai.equity import DrawModel, Opponent, draw_equity, draw_model
from engine.ai.hands import discards, four_flush, qualifies_to_open
from engine.ai.view import PlayerView
from engine.events import ActionTaken, Street, StreetStarted
from engine.ranking import Category, Ranking, category_of, fast_evaluator

__all__ = ["decide_draw_game", "rough_discards"]

_PRE_DRAW_SAMPLES = 200
_cache: dict[tuple[object, ...], float] = {}


def rough_discards(
    codes: Sequence[int], ranking: Ranking, lowest_rank: int, max_draw: int
) -> tuple[int, ...]:
    """The ``facile`` draw: made hands and groups as usual, but a pair keeps its best kicker,
    only flush draws are played, and nothing keeps its two best cards."""
    usual = discards(codes, ranking, lowest_rank, max_draw)
    counts: dict[int, int] = {}
    for code in codes:
        counts[code >> 2] = counts.get(code >> 2, 0) + 1
    groups = [r for r, n in counts.items() if n >= 2]
    if len(usual) <= 1 and (groups or not usual or four_flush(codes) is not None):
        return usual
    singles = sorted((c for c in codes if counts[c >> 2] == 1), reverse=True)
    if groups:
        return tuple(singles[1:])  # keep the pair and the best kicker
    flush = four_flush(codes)
    if flush is not None:
        return tuple(c for c in codes if c not in flush)
    return tuple(singles[2:])


def _discards(view: PlayerView, style: Style, codes: Sequence[int]) -> tuple[int, ...]:
    pick = discards if style.careful_draw else rough_discards
    return pick(codes, view.ranking, view.lowest_rank, view.max_draw)


def _opponents(view: PlayerView, model: DrawModel, style: Style, others: Sequence[Rival]) -> list[Opponent]:
    level = view.table.opening_level if style.read_ranges else None
    out = []
    for rival in others:
        opened = rival.opened if style.read_ranges else None
        out.append(Opponent(model.pool(level, opened, rival.drawn), tries_for(rival, style)))
    return out


def _equity(
    view: PlayerView, style: Style, rng: random.Random, others: Sequence[Rival], limits: Sequence[float]
) -> float:
    model = draw_model(view.ranking, view.lowest_rank, view.max_draw)
    codes = [c.code for c in view.cards]
    opponents = _opponents(view, model, style, others)
    street = view.table.street
    drawn = next((s.cards_drawn for s in view.table.seats if s.player == view.player), None)
    if street is Street.SECONDO_GIRO or drawn is not None:
        return draw_equity(
            model, codes, codes, 0, opponents, rng,
            thresholds=limits, min_samples=style.min_samples, max_samples=style.max_samples,
        )  # fmt: skip
    thrown = _discards(view, style, codes)
    keep = [c for c in codes if c not in thrown]
    suits = {c & 3 for c in keep}
    key = (
        view.ranking,
        view.lowest_rank,
        view.max_draw,
        tuple(sorted(c >> 2 for c in keep)),
        len(keep) >= 2 and len(suits) == 1,
        len(thrown),
        tuple(sorted((o.pool is model.anyone, id(o.pool), o.tries) for o in opponents)),
        style.max_samples,
    )
    found = _cache.get(key)
    if found is None:
        if len(_cache) > 200_000:
            _cache.clear()
        seeded = random.Random(repr(key[:6]) + repr([(o.tries, len(o.pool)) for o in opponents]))
        samples = _PRE_DRAW_SAMPLES if style.read_ranges else style.max_samples
        found = _cache[key] = draw_equity(
            model, codes, keep, len(thrown), opponents, seeded, min_samples=samples, max_samples=samples
        )
    return found


def _buio(view: PlayerView, rng: random.Random, style: Style) -> Action:
    player = view.player
    for legal in view.legal:
        chance = {
            ActionKind.BUIO: style.buio,
            ActionKind.CONTROBUIO: style.controbuio,
            ActionKind.VEDO: style.match_controbuio,
        }.get(legal.kind)
        if chance is not None:
            if rng.random() < chance:
                return Action(player, legal.kind, legal.min)
            break
    return Action(player, ActionKind.PASSO)


EARLY = 3
"""Players still to speak after him that make a seat an early position in the opening."""


def still_to_speak(view: PlayerView) -> int:
    """Opponents in the hand who have not yet spoken in this opening round."""
    spoke: set[int] = set()
    opening = False
    for event in view.history:
        if isinstance(event, StreetStarted):
            opening = event.street is Street.APERTURA
            spoke.clear()
        elif opening and isinstance(event, ActionTaken):
            spoke.add(event.player)
    return sum(
        1
        for seat in view.table.seats
        if seat.in_hand and seat.player != view.player and seat.player not in spoke
    )


def _opening(view: PlayerView, rng: random.Random, style: Style) -> Action:
    player = view.player
    apro = view.legal_of(ActionKind.APRO)
    level = view.table.opening_level or 11
    codes = [c.code for c in view.cards]
    if apro is None or not qualifies_to_open(codes, level, view.ranking, view.lowest_rank):
        return Action(player, ActionKind.PASSO)
    if not style.read_ranges:
        return Action(player, ActionKind.APRO, apro.min)
    others = rivals(view)
    equity = _equity(view, style, rng, others, ())
    fair = 1.0 / (len(others) + 1)
    if style.early_pass and equity < fair + 0.1 and still_to_speak(view) >= EARLY:
        # Position: a marginal opener in early position faces everyone behind him; passing keeps
        # him in (rules §2.4: who passes the opening may still play if another opens).
        return Action(player, ActionKind.PASSO)
    fraction = 1.0 if equity > fair + 0.25 else (0.75 if equity > fair + 0.1 else 0.5)
    sizes = view.sizes_of(ActionKind.APRO)
    pot = sizes.pot if sizes is not None else apro.max
    amount = max(apro.min, min(apro.max, round(pot * fraction)))
    return Action(player, ActionKind.APRO, amount)


def _draw(view: PlayerView, rng: random.Random, style: Style) -> Action:
    player = view.player
    codes = [c.code for c in view.cards]
    thrown = _discards(view, style, codes)
    heads_up = len(rivals(view)) == 1
    # A pat bluff is a bet to come: none when nobody can bet any more (an all-in), the cards decide.
    if thrown and len(thrown) >= 3 and heads_up and _bets_to_come(view) and rng.random() < style.pat_bluff:
        return Action(player, ActionKind.SERVITO)
    if not thrown or view.legal_of(ActionKind.CAMBIO) is None:
        return Action(player, ActionKind.SERVITO)
    by_code = {c.code: c for c in view.cards}
    return Action(player, ActionKind.CAMBIO, cards=tuple(by_code[c] for c in thrown))


def _bets_to_come(view: PlayerView) -> bool:
    """Whether two players still holding cards have chips to bet after the draw."""
    return sum(1 for s in view.table.seats if s.in_hand and not s.all_in and s.stack > 0) >= 2


def _bluffing(view: PlayerView) -> bool:
    """He stood pat on a hand that needed cards: a bluff to carry through."""
    stood = any(
        isinstance(e, ActionTaken) and e.player == view.player and e.kind is ActionKind.SERVITO
        for e in view.history
    )
    if not stood:
        return False
    strength = fast_evaluator(view.ranking, view.lowest_rank).strength([c.code for c in view.cards])
    return category_of(strength, view.ranking) in (Category.CARTA_ALTA, Category.COPPIA)


def _bet(view: PlayerView, rng: random.Random, style: Style) -> Action:
    others = rivals(view)
    limits = thresholds(view, style, others)
    callers = style.read_ranges and bool(others) and all(r.sticky for r in others)
    last = view.table.street is Street.SECONDO_GIRO
    bluffing = last and style.pat_bluff > 0 and _bluffing(view)
    equity = _equity(view, style, rng, others, limits.all())
    return bet_or_check(view, equity, limits, style, rng, last_round=last, bluffing=bluffing, callers=callers)


def decide_draw_game(view: PlayerView, rng: random.Random, style: Style) -> Action:
    street = view.table.street
    if street is Street.BUIO:
        return _buio(view, rng, style)
    if street is Street.APERTURA:
        return _opening(view, rng, style)
    if street is Street.CAMBIO:
        return _draw(view, rng, style)
    return _bet(view, rng, style)
