"""``python -m engine.duel``: computer players against a policy, to measure their strength.

    python -m engine.duel --variante italiana|32carte|texas --livello facile|esperto --mani N
                          --contro casuale|chiamatore|facile|esperto [--seed S] [--giocatori K] [--json]

K players (default 4) sit alternately: computer players of the level (the first seat, the third...)
and opponents of the policy. Every hand is played through a real ``Table`` with the variant's
default options, and before each hand every stack is reset to 200 cip (the player leaves and sits
again), so the match measures the strategy and never ends by busting. The result is the computer
players' average gain per seat, in cip (the big blind in texas and 32carte, the minimum bet in
italiana) per 100 hands, with its standard error: the larger of the per-hand one and the one of
means over batches of 10 hands (a carried pot ties neighbouring hands together). Chips in a pot
still carried when the match stops belong to nobody: at most a few cip over the whole match.

The opponents' policies:

* ``casuale``: the random legal player of ``engine.simulate`` (a refused opening becomes passo);
* ``chiamatore``: calls every bet and checks when nobody bet; it never folds and never raises.
  In italiana it declines the buio and, since an opening is a bet, opens only when its hand
  qualifies, and then for the minimum (one cip) — a table of players who never opened would never
  play a hand; it draws by the usual practice (``engine.ai.hands.discards``);
* ``facile`` / ``esperto``: the computer players of that level.

Bad input: one Italian sentence on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from engine.actions import Action, ActionKind
from engine.ai.betting import Level
from engine.ai.hands import discards, qualifies_to_open
from engine.ai.strategy import decide
from engine.ai.view import HandLog, PlayerView
from engine.errors import EngineError
from engine.events import Street
from engine.options import TableOptions, Variant
from engine.simulate import RandomPolicy
from engine.table import Table

__all__ = ["DuelResult", "call_station", "duel", "main"]

USAGE = (
    "python -m engine.duel --variante italiana|32carte|texas --livello facile|esperto --mani N "
    "--contro casuale|chiamatore|facile|esperto [--seed S] [--giocatori K] [--json]"
)
POLICIES = ("casuale", "chiamatore", "facile", "esperto")
STACK_IN_CIP = 200
BATCH = 10

Chooser = Callable[[Table, HandLog], Action]


def call_station(view: PlayerView) -> Action:
    """The ``chiamatore`` policy (module doc)."""
    player = view.player
    street = view.table.street
    if street is Street.BUIO:
        return Action(player, ActionKind.PASSO)
    if street is Street.APERTURA:
        apro = view.legal_of(ActionKind.APRO)
        level = view.table.opening_level or 11
        codes = [c.code for c in view.cards]
        if apro is not None and qualifies_to_open(codes, level, view.ranking, view.lowest_rank):
            return Action(player, ActionKind.APRO, apro.min)
        return Action(player, ActionKind.PASSO)
    if street is Street.CAMBIO:
        thrown = discards([c.code for c in view.cards], view.ranking, view.lowest_rank, view.max_draw)
        if not thrown:
            return Action(player, ActionKind.SERVITO)
        return Action(player, ActionKind.CAMBIO, cards=tuple(c for c in view.cards if c.code in thrown))
    if view.legal_of(ActionKind.VEDO) is not None:
        return Action(player, ActionKind.VEDO)
    return Action(player, ActionKind.PAROL)


def _computer(level: Level, rng: random.Random) -> Chooser:
    def choose(table: Table, log: HandLog) -> Action:
        player = table.to_act
        assert player is not None
        return decide(log.view(table, player), rng, level)

    return choose


def _chooser(policy: str, rng: random.Random) -> Chooser:
    if policy == "casuale":
        random_policy = RandomPolicy(rng)

        def choose_random(table: Table, log: HandLog) -> Action:
            action = random_policy.choose(table)
            player = action.player
            if action.kind is ActionKind.APRO:
                view = log.view(table, player)
                level = view.table.opening_level or 11
                codes = [c.code for c in view.cards]
                if not qualifies_to_open(codes, level, view.ranking, view.lowest_rank):
                    return Action(player, ActionKind.PASSO)
            return action

        return choose_random
    if policy == "chiamatore":

        def choose_call(table: Table, log: HandLog) -> Action:
            player = table.to_act
            assert player is not None
            return call_station(log.view(table, player))

        return choose_call
    return _computer(Level(policy), rng)


@dataclass
class DuelResult:
    variante: str
    livello: str
    contro: str
    giocatori: int
    seed: int
    per_hand: list[float]  # the computer players' gain per seat, in cip, hand by hand
    decisions: int
    decision_seconds: float
    seconds: float

    def to_json(self) -> dict[str, Any]:
        n = len(self.per_hand)
        mean = statistics.fmean(self.per_hand) if n else 0.0
        return {
            "variante": self.variante,
            "livello": self.livello,
            "contro": self.contro,
            "giocatori": self.giocatori,
            "seed": self.seed,
            "mani": n,
            "guadagno_per_100_mani": round(100 * mean, 2),
            "errore_standard": round(100 * standard_error(self.per_hand), 2),
            "secondi": round(self.seconds, 1),
            "decisioni_computer": self.decisions,
            "ms_per_decisione": round(1000 * self.decision_seconds / self.decisions, 3)
            if self.decisions
            else 0.0,
        }


def standard_error(values: Sequence[float]) -> float:
    """The larger of the per-value standard error and that of means over batches (module doc)."""
    n = len(values)
    if n < 2:
        return 0.0
    plain: float = statistics.stdev(values) / n**0.5
    batches = [statistics.fmean(values[i : i + BATCH]) for i in range(0, n - n % BATCH, BATCH)]
    if len(batches) < 2:
        return plain
    batched: float = statistics.stdev(batches) / len(batches) ** 0.5
    return max(plain, batched)


def duel(
    variant: Variant, level: Level, hands: int, policy: str, seed: int = 0, players: int = 4
) -> DuelResult:
    """Play ``hands`` hands (module doc)."""
    options = TableOptions(variant=variant)
    rng = random.Random(seed)
    table = Table(options, rng=random.Random(rng.getrandbits(64)))
    computers = [pid for pid in range(1, players + 1) if pid % 2 == 1]
    choosers: dict[int, Chooser] = {}
    timed: set[int] = set(computers)
    for pid in range(1, players + 1):
        seat_rng = random.Random(rng.getrandbits(64))
        choosers[pid] = _computer(level, seat_rng) if pid in timed else _chooser(policy, seat_rng)
    target = STACK_IN_CIP * options.cip
    for pid in range(1, players + 1):
        table.sit(pid, target)
    log = HandLog()
    per_hand: list[float] = []
    decisions = 0
    thinking = 0.0
    started = time.perf_counter()
    for _ in range(hands):
        seated = table.seats()
        for pid in range(1, players + 1):
            if pid not in seated:  # busted and removed
                table.sit(pid, target)
            elif seated[pid] != target:
                table.leave(pid)
                table.sit(pid, target)
        log.feed(table.start_hand())
        while table.hand_running:
            player = table.to_act
            assert player is not None
            if player in timed:
                t0 = time.perf_counter()
                action = choosers[player](table, log)
                thinking += time.perf_counter() - t0
                decisions += 1
            else:
                action = choosers[player](table, log)
            log.feed(table.act(action))
        after = table.seats()
        gain = sum(after.get(pid, 0) - target for pid in computers)
        per_hand.append(gain / len(computers) / options.cip)
    return DuelResult(
        str(variant),
        str(level),
        policy,
        players,
        seed,
        per_hand,
        decisions,
        thinking,
        time.perf_counter() - started,
    )


class InputError(Exception):
    """Bad arguments: the message is the one Italian sentence shown on stderr."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise InputError(f"Non capisco gli argomenti; si scrive: {USAGE}.")


def _integer(text: str, what: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"{what} deve essere un numero intero, non «{text}».") from None
    if value < minimum:
        raise InputError(f"{what} deve essere almeno {minimum}.")
    return value


def _parse(argv: Sequence[str]) -> tuple[Variant, Level, int, str, int, int, bool]:
    parser = _Parser(prog="python -m engine.duel", add_help=False)
    parser.add_argument("--variante", required=True)
    parser.add_argument("--livello", required=True)
    parser.add_argument("--mani", required=True)
    parser.add_argument("--contro", required=True)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--giocatori", default="4")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(list(argv))
    if args.variante not in {str(v) for v in Variant}:
        raise InputError(f"La variante «{args.variante}» non esiste: scegli italiana, 32carte o texas.")
    variant = Variant(args.variante)
    if args.livello not in {str(level) for level in Level}:
        raise InputError(f"Il livello «{args.livello}» non esiste: scegli facile o esperto.")
    if args.contro not in POLICIES:
        raise InputError(
            f"L'avversario «{args.contro}» non esiste: scegli casuale, chiamatore, facile o esperto."
        )
    hands = _integer(args.mani, "Il numero di mani", 1)
    seed = _integer(args.seed, "Il seed", 0)
    players = _integer(args.giocatori, "Il numero di giocatori", 2)
    if players > variant.max_players:
        raise InputError(f"Nella variante {variant} si gioca da 2 a {variant.max_players} giocatori.")
    return variant, Level(args.livello), hands, args.contro, seed, players, args.json


def _summary(data: dict[str, Any]) -> str:
    return (
        f"{data['variante']}, livello {data['livello']} contro {data['contro']} "
        f"({data['giocatori']} giocatori): "
        f"{data['guadagno_per_100_mani']:+.2f} cip ogni 100 mani per giocatore computer "
        f"(errore standard {data['errore_standard']:.2f}) su {data['mani']} mani, in {data['secondi']:.1f} s."
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        print(f"Si scrive: {USAGE}.")
        return 0
    try:
        variant, level, hands, policy, seed, players, as_json = _parse(args)
    except InputError as error:
        print(error, file=sys.stderr)
        return 2
    try:
        result = duel(variant, level, hands, policy, seed, players)
    except EngineError as error:  # a rule the engine enforces on the table (none with these options)
        print(error, file=sys.stderr)
        return 2
    data = result.to_json()
    print(json.dumps(data, ensure_ascii=False) if as_json else _summary(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
