"""``python -m engine.simulate --torneo``: whole tournaments of random play, checked hand by hand.

    python -m engine.simulate --torneo [--variante V] [--giocatori N] [--tornei K] [--seed S] [--json]

Each tournament registers N players, seats them in a random draw and plays with the random player
of ``engine.simulate`` until one player has every chip. The schedule is fast (``raddoppio`` from a
stack of 40 cip); tournaments alternate a hand-based ritmo (a level every 3 hands) and a
time-based one (a level every 2 minutes, each hand lasting 10-90 simulated seconds). Now and then
a player times out (twice in a row he is sat out and then blinded away, as in a card room) or
asks to sit out, an away player comes back, and the tournament and its table are saved and
restored with a simulated downtime that must not count on the level clock.

Checked after every action: the table's invariants (``engine.simulate.check_table``: chips,
pots, cards) against the tournament's chips. After every hand: stacks plus carried pot equal the
starting chips, every player still in was dealt in (or skipped for an unpaid paròl debt), the
level and the table's stakes are those the schedule gives for the hands (or the simulated
minutes) played. At the end: places 1..N complete (tied players share a place and the ones after
it), prizes adding up to the pool, the winner holding every chip. Each broken rule is a
*violazione*; the exit status is then 1. Bad arguments: one Italian sentence, exit 2.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn

from engine.events import HandEnded, HandSkipped, HandStarted, PotCarried
from engine.options import TableOptions, Variant
from engine.simulate import RandomPolicy, check_table, play_action
from engine.table import Table
from engine.tournament.events import LevelUp, PlayerEliminated, TournamentFinished
from engine.tournament.seating import close_hand, come_back, deal, seat_entrants, step_away
from engine.tournament.state import Tournament, TournamentConfig
from engine.tournament.structure import Ritmo, RitmoUnit, Schedule, ScheduleKind

__all__ = ["TournamentRun", "main", "play_tournament"]

USAGE = (
    "python -m engine.simulate --torneo [--variante italiana|32carte|texas] [--giocatori N] "
    "[--tornei K] [--seed S] [--json]"
)
MAX_HANDS = 5000  # a tournament still running after this many hands is a violation
TIMEOUT_CHANCE = 0.03  # a decision that times out instead of being taken
STEP_AWAY_CHANCE = 0.005  # a player asks to sit out during a hand
RETURN_CHANCE = 0.3  # an away player comes back at a hand boundary
RESTORE_CHANCE = 0.05  # save and restore everything at a hand boundary


class _BadInput(Exception):
    """Bad arguments: the message is the one Italian sentence shown on stderr."""


@dataclass
class TournamentRun:
    """Totals over the tournaments played (JSON keys in Italian, like ``engine.simulate``)."""

    variante: str
    giocatori: int
    tornei: int = 0
    mani: int = 0
    violazioni: int = 0
    secondi: float = 0.0
    conteggi: Counter[str] = field(default_factory=Counter)
    esempi: list[str] = field(default_factory=list)

    def note(self, problems: Sequence[str]) -> None:
        self.violazioni += len(problems)
        self.esempi.extend(problems[: 10 - len(self.esempi)])

    def to_json(self) -> dict[str, Any]:
        return {
            "variante": self.variante,
            "giocatori": self.giocatori,
            "tornei": self.tornei,
            "mani": self.mani,
            "violazioni": self.violazioni,
            "conteggi": dict(sorted(self.conteggi.items())),
            "esempi_violazioni": self.esempi,
        }


def fast_config(variant: Variant, players: int, by_time: bool) -> TournamentConfig:
    """The simulator's schedule: doubling stakes, 40 cip each, a level every 3 hands or 2 minutes."""
    cip = 10 if variant is Variant.ITALIANA else 20
    base = TournamentConfig.default(variant)
    options = replace(base.options, timeout=10)
    ritmo = Ritmo(2, RitmoUnit.MINUTI) if by_time else Ritmo(3, RitmoUnit.MANI)
    return TournamentConfig(
        options,
        Schedule(variant, ScheduleKind.RADDOPPIO, cip, cip),
        ritmo,
        stack=40 * cip,
        buy_in=7 * players + 3,  # an odd pool: the odd chips get exercised
        max_players=players,
    )


def _expected_level(tournament: Tournament, played_seconds: int) -> int:
    ritmo = tournament.config.ritmo
    if ritmo.by_time:
        return 1 + played_seconds // ritmo.seconds
    return 1 + tournament.hands_played // ritmo.every


def play_tournament(config: TournamentConfig, rng: random.Random, run: TournamentRun) -> None:
    """One whole tournament of random play; its counts and violations go into ``run``."""
    counts = run.conteggi
    players = list(range(1, config.max_players + 1))
    tournament = Tournament(config)
    for player in players:
        tournament.register(player)
    clock = 1_000_000  # simulated seconds (``now``): hands and downtimes move it
    played = 0  # seconds of play only
    tournament.start(clock)
    order = players[:]
    rng.shuffle(order)
    table_rng = random.Random(rng.getrandbits(64))
    policy = RandomPolicy(random.Random(rng.getrandbits(64)))
    table = seat_entrants(tournament, order, rng=table_rng)
    total = tournament.total_chips
    finished = False
    for _ in range(MAX_HANDS):
        problems: list[str] = []
        level = tournament.level
        carried = table.public_view().carried
        table, events = deal(table, tournament, rng=table_rng)
        if table.options.cip != level.cip or (
            config.options.variant is Variant.ITALIANA and table.options.invito != level.invito
        ):
            problems.append(f"la mano gioca cip {table.options.cip}, il livello {level}")
        started = next(e for e in events if isinstance(e, HandStarted))
        skipped = {e.player for e in events if isinstance(e, HandSkipped)}
        if set(started.players) | skipped != set(tournament.alive()):
            problems.append(f"in gioco {tournament.alive()}, servite {started.players}")
        counts["mani_con_assenti"] += bool(tournament.away & set(started.players))
        carried_before = started.carried
        hand_events = events
        counts["piatti_restituiti"] += bool(carried and not carried_before)
        while table.hand_running:
            if rng.random() < STEP_AWAY_CHANCE:
                present = sorted(set(tournament.alive()) - tournament.away)
                if present:
                    hand_events += step_away(table, tournament, rng.choice(present))
                    counts["assenze_chieste"] += 1
                continue
            if rng.random() < TIMEOUT_CHANCE:
                hand_events += table.timeout()
                counts["tempi_scaduti"] += 1
            else:
                hand_events += play_action(table, policy)
            problems.extend(check_table(table, total))
        ended = next(e for e in reversed(hand_events) if isinstance(e, HandEnded))
        if dict(ended.stacks) != table.seats():
            problems.append(f"fine mano {ended.stacks} ma il tavolo ha {table.seats()}")
        counts["piatti_di_parol"] += any(isinstance(e, PotCarried) for e in hand_events)
        duration = rng.randint(10, 90)
        clock += duration
        played += duration
        run.mani += 1
        try:
            tevents = close_hand(table, tournament, now=clock)
        except ValueError as error:
            run.note([*problems, f"fine mano rifiutata: {error}"])
            return
        for event in tevents:
            if isinstance(event, LevelUp):
                counts["cambi_di_livello"] += 1
                counts["piatto_riportato_a_cambio_livello"] += bool(table.public_view().carried)
            elif isinstance(event, PlayerEliminated):
                counts["eliminazioni"] += 1
                counts["pareggi"] += bool(event.tied_with)
            elif isinstance(event, TournamentFinished):
                problems.extend(_check_finish(tournament, event, table))
                finished = True
        if not finished and tournament.level_number != _expected_level(tournament, played):
            problems.append(
                f"livello {tournament.level_number} dopo {tournament.hands_played} mani "
                f"e {played} s: atteso {_expected_level(tournament, played)}"
            )
        run.note(problems)
        if finished:
            break
        for player in sorted(tournament.away):
            if rng.random() < RETURN_CHANCE:
                come_back(table, tournament, player)
                counts["rientri_dall_assenza"] += 1
        if rng.random() < RESTORE_CHANCE:
            table, tournament = _restore(table, tournament, table_rng)
            clock += rng.randint(60, 3600)  # downtime: not play
            tournament.resume(clock)
            counts["ripristini"] += 1
    else:
        run.note([f"torneo non finito dopo {MAX_HANDS} mani"])
    run.tornei += 1


def _restore(table: Table, tournament: Tournament, rng: random.Random) -> tuple[Table, Tournament]:
    """Both states through JSON, as the storage layer keeps them."""
    saved_table = json.loads(json.dumps(table.to_dict()))
    saved = json.loads(json.dumps(tournament.to_dict()))
    return Table.from_dict(saved_table, rng=rng), Tournament.from_dict(saved)


def _check_finish(tournament: Tournament, event: TournamentFinished, table: Table) -> list[str]:
    problems: list[str] = []
    entrants = len(tournament.players)
    finishes = tournament.finishes()
    if sorted(finishes) != sorted(tournament.players):
        problems.append(f"piazzamenti per {sorted(finishes)}, iscritti {sorted(tournament.players)}")
    by_place = Counter(place for place, _ in finishes.values())
    place = 1
    while place <= entrants:
        group = by_place.pop(place, 0)
        if group == 0:
            problems.append(f"nessuno al {place}° posto: {sorted(finishes.values())}")
            break
        place += group
    if by_place:
        problems.append(f"posti fuori ordine: {dict(by_place)}")
    if (
        sum(prize for _, prize in finishes.values()) != tournament.pool
        or sum(event.prizes) != tournament.pool
    ):
        problems.append(f"premi {finishes} per un montepremi di {tournament.pool}")
    home = table.close()
    if sum(home.values()) != tournament.total_chips or len([v for v in home.values() if v]) > 1:
        problems.append(f"alla fine il tavolo restituisce {home}")
    return problems


def simulate_tournaments(variant: Variant, players: int, count: int, seed: int | None) -> TournamentRun:
    rng = random.Random(seed)
    run = TournamentRun(str(variant), players)
    started = time.perf_counter()
    for k in range(count):
        config = fast_config(variant, players, by_time=bool(k % 2))
        try:
            play_tournament(config, random.Random(rng.getrandbits(64)), run)
        except Exception as error:  # an engine crash is a broken invariant too: report it, go on
            run.note([f"eccezione nel torneo {k + 1}: {type(error).__name__}: {error}"])
    run.secondi = time.perf_counter() - started
    return run


# ---------------------------------------------------------------------------- command line


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _BadInput(f"Non capisco gli argomenti; si scrive: {USAGE}.")


def _integer(text: str, what: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise _BadInput(f"{what} deve essere un numero intero, non «{text}».") from None
    if not low <= value <= high:
        raise _BadInput(f"{what} va da {low} a {high}.")
    return value


def _parse(argv: Sequence[str]) -> tuple[Variant, int, int, int | None, bool]:
    parser = _Parser(add_help=False)
    parser.add_argument("--torneo", action="store_true", required=True)
    parser.add_argument("--variante", default="italiana")
    parser.add_argument("--giocatori")
    parser.add_argument("--tornei", default="10")
    parser.add_argument("--seed", "--seme", dest="seed")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(list(argv))
    try:
        variant = Variant(args.variante)
    except ValueError:
        raise _BadInput(
            f"La variante «{args.variante}» non esiste: scegli italiana, 32carte o texas."
        ) from None
    seats = TableOptions(variant).max_seats
    players = (
        _integer(args.giocatori, "Il numero di giocatori", 2, seats) if args.giocatori else min(6, seats)
    )
    tornei = _integer(args.tornei, "Il numero di tornei", 1, 10_000)
    seed = None if args.seed is None else _integer(args.seed, "Il seme", 0, 2**63)
    return variant, players, tornei, seed, bool(args.json)


def _summary(run: TournamentRun) -> str:
    c = run.conteggi
    lines = [
        f"Variante {run.variante}, {run.giocatori} giocatori: {run.tornei} tornei, {run.mani} mani "
        f"in {run.secondi:.2f} s.",
        f"Cambi di livello {c['cambi_di_livello']}, eliminazioni {c['eliminazioni']} "
        f"(pareggi {c['pareggi']}), piatti di paròl {c['piatti_di_parol']}, ripristini {c['ripristini']}.",
    ]
    if run.violazioni:
        lines.append(f"VIOLAZIONI: {run.violazioni}.")
        lines.extend(f"  - {e}" for e in run.esempi)
    else:
        lines.append("Nessuna violazione: fiche conservate, livelli puntuali, posti e premi completi.")
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    try:
        variant, players, count, seed, as_json = _parse(argv)
    except _BadInput as error:
        print(error, file=sys.stderr)
        return 2
    run = simulate_tournaments(variant, players, count, seed)
    print(json.dumps(run.to_json(), ensure_ascii=False) if as_json else _summary(run))
    return 1 if run.violazioni else 0
