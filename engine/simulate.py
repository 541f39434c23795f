"""``python -m engine.simulate``: random play at one table, checking the money and the cards.

    python -m engine.simulate --variante italiana|32carte|texas --giocatori N --mani M
                              [--seme S] [--json] [--limite L] [--senza-semi] [--over]
                              [--invito-tutti] [--controcontrobuio] [--cambio-max 4|5]
                              [--mazzo auto|32|americano]
    python -m engine.simulate --torneo ...   (whole tournaments: engine.tournament.simulation)

Every player picks a random legal action (a random amount inside the legal range, random discards).
In checking mode, after **every** request the simulator verifies that no chip was created or
destroyed, that no stack, bet or pot is negative, that the public pots add up to the pot, that no
card is in two places (live hands, board, stock, muck) and that the chips the events report match
the stacks at the end of each hand. Any broken invariant is a *violazione*, and so is an exception
escaping the engine (the run stops there): violations are reported and the exit status is 1.
Without ``--json`` the summary is in Italian; ``--json`` prints exactly one JSON object.

Random play is biased so that it reaches every rule in a few hundred hands, because uniform play
would hide the rare ones: stacks are uneven (side pots, short all-ins), raises are often the
minimum or everything, the second Italian round checks more often than it bets (piatti di paròl and
their debts), openings are often declined (void hands and the J → Q → K escalation), blinds are
often accepted. The only Italian split, the scala-reale cycle, needs three straight flushes in
one showdown, which random deals give once in billions of hands: so now and then (about one hand
in 25, counted in ``mani_preparate``) the simulator deals a prepared deck giving the first three
players the minima, a media and the massima, and in those hands nobody folds or draws. With
``--senza-semi`` (32carte) the prepared deck instead gives two players the same straight in
different suits, the split that option allows. Texas splits often enough on its own.

Busted players: a player removed with no chips is re-seated at once with a fresh random stack
(a *rientro*); a player who cannot pay his paròl debt and so keeps the table from starting leaves
and sits again with a fresh stack. The chips they bring are counted (``fiches_rientrate``,
``fiches_uscite``), so ``fiches_finali = fiches_iniziali + fiches_rientrate - fiches_uscite``: the
table always keeps its N players, which keeps every rule that needs 3, 4 or 5 players reachable.

The checks read the table's private lists (stock, muck, hands): this module is part of the engine
and is the engine's own auditor; it never changes them.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, ActionKind, LegalAction
from engine.cards import Card, Suit, deck, lowest_rank_for_deck
from engine.cli import InputError, ItalianParser
from engine.errors import EngineError
from engine.events import (
    ActionTaken,
    BetReturned,
    CardBurnt,
    ChipsPosted,
    DiscardsReshuffled,
    Event,
    HandEnded,
    HandShown,
    HandSkipped,
    HandStarted,
    HandVoid,
    PlayerLeft,
    PlayerSat,
    PotAwarded,
    PotCarried,
    StackReleased,
    Street,
)
from engine.options import Limit, Mazzo, TableOptions, Variant
from engine.table import Table

__all__ = ["RandomPolicy", "SimulationResult", "check_table", "main", "simulate"]

USAGE = (
    "python -m engine.simulate --variante italiana|32carte|texas --giocatori N --mani M [--seme S] [--json] "
    "[--limite L] [--senza-semi] [--over] [--invito-tutti] [--controcontrobuio] [--cambio-max 4|5] "
    "[--mazzo auto|32|americano], oppure --torneo con le sue opzioni per tornei interi"
)
PREPARED_EVERY = 25  # about one hand in this many deals the scala-reale cycle (italiana, 32carte)


# Enum members bound once as module globals: ``RandomPolicy.choose`` runs once per decision, and
# reading ``ActionKind.APRO`` goes through the enum metaclass, about ten times a global read.
_ITALIANA = Variant.ITALIANA
_APRO, _BUIO, _CAMBIO, _CONTROBUIO = (
    ActionKind.APRO,
    ActionKind.BUIO,
    ActionKind.CAMBIO,
    ActionKind.CONTROBUIO,
)
_PUNTO, _RILANCIO, _VEDO = ActionKind.PUNTO, ActionKind.RILANCIO, ActionKind.VEDO
_STREET_APERTURA, _STREET_BUIO, _STREET_CAMBIO = Street.APERTURA, Street.BUIO, Street.CAMBIO
_STREET_SECONDO_GIRO = Street.SECONDO_GIRO


class _Plain:
    """One player's words without an amount, built once (``RandomPolicy.choose``)."""

    __slots__ = ("parol", "passo", "servito", "vedo")

    def __init__(self, player: int) -> None:
        self.passo = Action(player, ActionKind.PASSO)
        self.vedo = Action(player, ActionKind.VEDO)
        self.parol = Action(player, ActionKind.PAROL)
        self.servito = Action(player, ActionKind.SERVITO)


# ---------------------------------------------------------------------------- the random player


class RandomPolicy:
    """A player who picks random legal actions, biased towards the rare rules (module doc).

    ``cautious`` (set for prepared hands) never folds and never draws, so that the three straight
    flushes reach the showdown.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cautious = False
        # Actions are frozen values: a player's words without an amount are built once.
        self._plain: dict[int, _Plain] = {}

    def amount(self, legal: LegalAction) -> int:
        low, high = legal.min, legal.max
        if low >= high:
            return low
        rng = self.rng
        r = rng.random()
        if r < 0.4:
            return low
        if r < 0.55:
            return high
        return rng.randint(low, high)

    def choose(self, table: Table) -> Action:
        """One random legal action. Called once per decision of the benchmark's whole-hand loop,
        so it reads the legal tuple directly (no dict per call), names words and streets through
        module constants (enum member lookups are slow in CPython) and reuses
        each player's words without an amount. The random draws are those of the plain version:
        the same seed gives the same actions."""
        player = table.to_act
        assert player is not None
        plain = self._plain.get(player)
        if plain is None:
            plain = self._plain[player] = _Plain(player)
        legal = table.legal_actions()
        street = table.street
        rng = self.rng
        r = rng.random()
        if street is _STREET_BUIO:
            if r < 0.45 or self.cautious:
                for la in legal:
                    kind = la.kind
                    if kind is _BUIO or kind is _CONTROBUIO or kind is _VEDO:
                        return Action(player, kind, la.min)
            return plain.passo
        if street is _STREET_APERTURA:
            if r < 0.6 or self.cautious:
                for la in legal:
                    if la.kind is _APRO:
                        return Action(player, _APRO, self.amount(la))
                raise KeyError(ActionKind.APRO)  # as a missing key of the legal words would
            return plain.passo
        if street is _STREET_CAMBIO:
            cambio = None
            for la in legal:
                if la.kind is _CAMBIO:
                    cambio = la
            if cambio is None or r < 0.25 or self.cautious:
                return plain.servito
            hand = table.cards_of(player)
            count = rng.randint(cambio.min, min(cambio.max, len(hand)))
            return Action(player, _CAMBIO, cards=tuple(rng.sample(hand, count)))
        # Betting: at most three words, read in one pass.
        facing = False
        raise_ = bet = None
        for la in legal:
            kind = la.kind
            if kind is _VEDO:
                facing = True
            elif kind is _RILANCIO:
                raise_ = la
            elif kind is _PUNTO:
                bet = la
        if facing:
            if r < 0.22 and not self.cautious:
                return plain.passo
            if raise_ is not None and r > 0.72:
                return Action(player, _RILANCIO, self.amount(raise_))
            return plain.vedo
        if bet is None:
            bet = raise_
        if street is _STREET_SECONDO_GIRO and table.options.variant is _ITALIANA:
            check_bias = 0.8
        else:
            check_bias = 0.55
        if bet is not None and r > check_bias:
            return Action(player, bet.kind, self.amount(bet))
        return plain.parol


def play_action(table: Table, policy: RandomPolicy) -> list[Event]:
    """One random decision; a refused ``apro`` (the hand does not qualify) becomes ``passo``."""
    action = policy.choose(table)
    try:
        return table.act(action)
    except EngineError:
        if action.kind is not ActionKind.APRO:
            raise
        return table.act(Action(action.player, ActionKind.PASSO))


# ---------------------------------------------------------------------------- invariants


def check_table(table: Table, expected_total: int) -> list[str]:
    """Every invariant of the table now; one Italian sentence per broken one."""
    problems: list[str] = []
    total = table.total_chips()
    if total != expected_total:
        problems.append(f"fiche totali {total}, attese {expected_total}")
    stacks = table._stack
    if any(x < 0 for x in stacks):
        problems.append(f"stack negativo: {stacks}")
    if any(x < 0 for x in table._bet):
        problems.append(f"puntata negativa: {table._bet}")
    if table._pot < 0 or table._carried < 0:
        problems.append(f"piatto negativo: {table._pot} (riportato {table._carried})")
    view = table.public_view()
    if view.hand_running:
        in_front = sum(seat.bet for seat in view.seats)
        if any(p < 0 for p in view.pots) or sum(view.pots) + in_front != view.pot:
            problems.append(f"i piatti {view.pots} più le puntate {in_front} non fanno {view.pot}")
        problems.extend(_check_cards(table))
    return problems


def _check_cards(table: Table) -> list[str]:
    """Live hands, board, stock and muck hold every card of the deck exactly once."""
    counts = [0] * 60  # by Card.code
    for seat in table._order:
        if not table._folded[seat]:
            for card in table._cards[seat]:
                counts[card.code] += 1
    for place in (table._board, table._stock, table._muck):
        for card in place:
            counts[card.code] += 1
    low = lowest_rank_for_deck(table._deck_size) * 4
    problems = []
    doubles = [Card.from_code(code) for code in range(60) if counts[code] > 1]
    if doubles:
        problems.append(f"carte in due posti: {', '.join(str(c) for c in doubles)}")
    if any(counts[:low]):
        problems.append("carte estranee al mazzo")
    missing = [Card.from_code(code) for code in range(low, 60) if not counts[code]]
    if missing:
        problems.append(f"carte sparite: {', '.join(str(c) for c in missing)}")
    return problems


class _Ledger:
    """Stacks as the events tell them: the render layer only sees events, so they must add up."""

    def __init__(self) -> None:
        self.stacks: dict[int, int] = {}

    def apply(self, events: Sequence[Event]) -> list[str]:
        problems: list[str] = []
        stacks = self.stacks
        for event in events:
            if event.__class__ is ActionTaken:
                assert isinstance(event, ActionTaken)
                stacks[event.player] -= event.put_in
            elif isinstance(event, ChipsPosted):
                stacks[event.player] -= event.amount
            elif isinstance(event, BetReturned):
                stacks[event.player] += event.amount
            elif isinstance(event, PotAwarded):
                if sum(event.shares) != event.amount:
                    problems.append(f"le quote {event.shares} non fanno il piatto {event.amount}")
                for player, share in zip(event.winners, event.shares, strict=True):
                    stacks[player] += share
            elif isinstance(event, PlayerSat):
                stacks[event.player] = event.stack
            elif isinstance(event, StackReleased):
                stacks[event.player] -= event.amount
            elif isinstance(event, PlayerLeft):
                if stacks.pop(event.player, 0) != 0:
                    problems.append(f"il giocatore {event.player} è uscito con fiche secondo gli eventi")
            elif isinstance(event, HandEnded):
                told = dict(event.stacks)
                if told != stacks:
                    problems.append(f"gli eventi dicono {stacks}, la mano finisce con {told}")
        return problems


# ---------------------------------------------------------------------------- the simulation


@dataclass
class SimulationResult:
    variante: str
    giocatori: int
    mani: int
    fiches_iniziali: int
    fiches_finali: int
    fiches_rientrate: int = 0
    fiches_uscite: int = 0
    violazioni: int = 0
    secondi: float = 0.0
    regole: Counter[str] = field(default_factory=Counter)
    esempi: list[str] = field(default_factory=list)  # the first few violations, for the report

    @property
    def mani_al_secondo(self) -> float:
        return self.mani / self.secondi if self.secondi > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "variante": self.variante,
            "giocatori": self.giocatori,
            "mani": self.mani,
            "fiches_iniziali": self.fiches_iniziali,
            "fiches_finali": self.fiches_finali,
            "fiches_rientrate": self.fiches_rientrate,
            "fiches_uscite": self.fiches_uscite,
            "violazioni": self.violazioni,
            "mani_al_secondo": round(self.mani_al_secondo, 1),
            "regole": dict(sorted(self.regole.items())),
            "esempi_violazioni": self.esempi,
        }


def _count_rules(events: Sequence[Event], counts: Counter[str]) -> None:
    side_pot = split = False
    for event in events:
        cls = event.__class__
        if cls is ActionTaken:
            assert isinstance(event, ActionTaken)
            if event.kind is ActionKind.BUIO:
                counts["buio"] += 1
            elif event.kind is ActionKind.CONTROBUIO:
                counts["controbuio"] += 1
            if event.all_in and event.put_in:
                counts["all_in"] += 1
        elif cls is HandStarted:
            assert isinstance(event, HandStarted)
            if event.opening_level == 13:
                counts["mani_a_livello_k"] += 1
        elif cls is HandVoid:
            assert isinstance(event, HandVoid)
            counts["mani_non_aperte"] += 1
            if event.next_level == 13:
                counts["salite_a_k"] += 1
        elif cls is PotCarried:
            assert isinstance(event, PotCarried)
            counts["piatti_di_parol"] += 1
            if event.debts:
                counts["piatti_di_parol_con_debiti"] += 1
        elif cls is ChipsPosted:
            assert isinstance(event, ChipsPosted)
            if event.kind == "debito paròl":
                counts["debiti_pagati"] += 1
        elif cls is HandSkipped:
            counts["mani_saltate_per_debito"] += 1
        elif cls is PotAwarded:
            assert isinstance(event, PotAwarded)
            if event.pot > 0:
                side_pot = True
            if len(event.winners) > 1:
                split = True
            if not event.shown:
                counts["vinte_senza_mostrare"] += 1
        elif cls is HandShown:
            counts["mani_mostrate"] += 1
        elif cls is BetReturned:
            counts["puntate_restituite"] += 1
        elif cls is DiscardsReshuffled:
            counts["scarti_rimescolati"] += 1
        elif cls is CardBurnt:
            counts["carte_bruciate_al_cambio"] += 1
    if side_pot:
        counts["piatti_laterali"] += 1
    if split:
        counts["piatti_divisi"] += 1


def _prepared_deck(size: int, players: int, rng: random.Random, twins: bool = False) -> list[Card]:
    """A deck for the rare splits. Normally the first three players (from the dealer's left) get
    the three straight-flush levels, the minima in ♠, a media in ♦ and the massima in ♥: the
    scala-reale cycle (rules §1.1). With ``twins`` (``semi`` off) the first two get the same
    straight in different suits, which splits when suits do not count."""
    low = lowest_rank_for_deck(size)
    if twins:
        suits_a = (Suit.PICCHE, Suit.FIORI, Suit.PICCHE, Suit.FIORI, Suit.QUADRI)
        suits_b = (Suit.CUORI, Suit.QUADRI, Suit.CUORI, Suit.QUADRI, Suit.FIORI)
        hands = [
            [Card(low + i, suit) for i, suit in enumerate(suits_a)],
            [Card(low + i, suit) for i, suit in enumerate(suits_b)],
        ]
    else:
        minima = [Card(14, Suit.PICCHE)] + [Card(r, Suit.PICCHE) for r in range(low, low + 4)]
        media = [Card(r, Suit.QUADRI) for r in range(low + 1, low + 6)]
        massima = [Card(r, Suit.CUORI) for r in range(10, 15)]
        hands = [minima, media, massima]
    used = {c for hand in hands for c in hand}
    rest = [c for c in deck(size) if c not in used]
    rng.shuffle(rest)
    for _ in range(players - len(hands)):
        hands.append([rest.pop() for _ in range(5)])
    for hand in hands:
        rng.shuffle(hand)
    dealt = [hands[p][i] for i in range(5) for p in range(players)]
    return dealt + rest


def _stack(rng: random.Random, cip: int) -> int:
    """Uneven stacks: short ones go all-in early and build side pots."""
    return cip * rng.choice((3, 8, 20, 50, 100, 200)) + rng.randint(0, cip - 1)


def simulate(
    options: TableOptions,
    players: int,
    hands: int,
    seed: int | None = None,
    check: bool = True,
    prepared: bool = True,
    count: bool = True,
) -> SimulationResult:
    """Play ``hands`` hands of random play at one table (see the module doc).

    ``check=False`` skips the per-action invariants and ``count=False`` the rule counters: what
    the benchmark times is then the engine and the random player alone.
    """
    rng = random.Random(seed)
    table = Table(options, rng=random.Random(rng.getrandbits(64)))
    policy = RandomPolicy(random.Random(rng.getrandbits(64)))
    ledger = _Ledger()
    cip = options.cip
    result = SimulationResult(str(options.variant), players, hands, 0, 0)
    counts = result.regole
    ids = list(range(1, players + 1))

    def note(problems: list[str]) -> None:
        if problems:
            result.violazioni += len(problems)
            room = 10 - len(result.esempi)
            result.esempi.extend(problems[:room])

    for pid in ids:
        events = table.sit(pid, _stack(rng, cip))
        if check:
            note(ledger.apply(events))
    result.fiches_iniziali = table.total_chips()
    expected = result.fiches_iniziali
    can_prepare = (
        prepared
        and players >= (3 if options.semi else 2)
        and options.variant is not Variant.TEXAS
        and options.mazzo is not Mazzo.AMERICANO
    )
    started = time.perf_counter()
    for played in range(hands):
        try:
            seated = table.seats()
            # Keep N players: re-seat the busted, and free players stuck behind an unpaid paròl debt.
            for pid in ids:
                if pid not in seated:
                    stack = _stack(rng, cip)
                    events = table.sit(pid, stack)
                    expected += stack
                    result.fiches_rientrate += stack
                    counts["rientri"] += 1
                    if check:
                        note(ledger.apply(events))
            if not table.can_start():
                for pid in ids:
                    if _debt(table, pid) > table.seats()[pid]:
                        released = table.seats()[pid]
                        events = table.leave(pid)
                        stack = _stack(rng, cip) + _debt(table, pid)
                        events += table.sit(pid, stack)
                        expected += stack - released
                        result.fiches_rientrate += stack
                        result.fiches_uscite += released
                        counts["rientri_per_debito"] += 1
                        if check:
                            note(ledger.apply(events))
            deal: list[Card] | None = None
            policy.cautious = False
            if can_prepare and rng.randrange(PREPARED_EVERY) == 0 and _all_dealt_in(table):
                size = table.deck_for(players)[0]
                deal = _prepared_deck(size, players, rng, twins=not options.semi)
                policy.cautious = True
                counts["mani_preparate"] += 1
            events = table.start_hand(deck=deal)
            if check:
                note(ledger.apply(events))
                note(check_table(table, expected))
            if count:
                _count_rules(events, counts)
            while table.hand_running:
                events = play_action(table, policy)
                if check:
                    note(ledger.apply(events))
                    note(check_table(table, expected))
                if count:
                    _count_rules(events, counts)
        except Exception as error:  # an engine crash is a broken invariant too: report it, stop
            note([f"eccezione alla mano {played + 1}: {type(error).__name__}: {error}"])
            result.mani = played
            break
    result.secondi = time.perf_counter() - started
    result.fiches_finali = table.total_chips()
    if result.fiches_finali != result.fiches_iniziali + result.fiches_rientrate - result.fiches_uscite:
        note(["il bilancio finale delle fiche non torna"])
    return result


def _debt(table: Table, pid: int) -> int:
    for seat in table.public_view().seats:
        if seat.player == pid:
            return seat.debt
    return 0


def _all_dealt_in(table: Table) -> bool:
    """Whether every seated player will be dealt in (no carried pot, so no debts)."""
    view = table.public_view()
    return view.carried == 0 and all(seat.stack > 0 and not seat.sitting_out for seat in view.seats)


# ---------------------------------------------------------------------------- command line


def _parse(argv: Sequence[str]) -> tuple[TableOptions, int, int, int | None, bool]:
    parser = ItalianParser(
        prog="python -m engine.simulate",
        add_help=False,
        refusal=f"Non capisco gli argomenti; si scrive: {USAGE}.",
    )
    parser.add_argument("--variante", required=True)
    parser.add_argument("--giocatori", required=True)
    parser.add_argument("--mani", required=True)
    parser.add_argument("--seme")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--limite")
    parser.add_argument("--senza-semi", action="store_true")
    parser.add_argument("--over", action="store_true")
    parser.add_argument("--invito-tutti", action="store_true")
    parser.add_argument("--controcontrobuio", action="store_true")
    parser.add_argument("--cambio-max", default="4")
    parser.add_argument("--mazzo", default="auto")
    args = parser.parse_args(list(argv))
    players = _integer(args.giocatori, "Il numero di giocatori")
    hands = _integer(args.mani, "Il numero di mani")
    seed = None if args.seme is None else _integer(args.seme, "Il seme", minimum=0)
    max_cambio = _integer(args.cambio_max, "Il cambio massimo")
    if args.variante not in {str(v) for v in Variant}:
        raise InputError(f"La variante «{args.variante}» non esiste: scegli italiana, 32carte o texas.")
    variant = Variant(args.variante)
    if not variant.min_players <= players <= variant.max_players:
        raise InputError(
            f"Nella variante {variant} si gioca da {variant.min_players} a {variant.max_players} giocatori."
        )
    try:
        options = TableOptions(
            variant=variant,
            limite=_limit(args.limite),
            semi=not args.senza_semi,
            over=args.over,
            invito_tutti=args.invito_tutti,
            controcontrobuio=args.controcontrobuio,
            max_cambio=max_cambio,
            mazzo=_mazzo(args.mazzo),
        )
    except EngineError as error:
        raise InputError(str(error)) from None
    if players > options.max_seats:
        raise InputError(f"Con queste opzioni si gioca al massimo in {options.max_seats}.")
    return options, players, hands, seed, args.json


def _mazzo(text: str) -> Mazzo:
    try:
        return Mazzo(text)
    except ValueError:
        raise InputError(f"Il mazzo «{text}» non esiste: scegli auto, 32 o americano.") from None


def _limit(text: str | None) -> Limit | None:
    if text is None:
        return None
    try:
        return Limit(text)
    except ValueError:
        raise InputError(f"Il limite «{text}» non esiste: scegli fisso, potlimit o nolimit.") from None


def _integer(text: str, what: str, minimum: int = 1) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"{what} deve essere un numero intero, non «{text}».") from None
    if value < minimum:
        raise InputError(f"{what} deve essere almeno {minimum}.")
    return value


def _summary(result: SimulationResult) -> str:
    lines = [
        f"Variante {result.variante}, {result.giocatori} giocatori: {result.mani} mani giocate "
        f"in {result.secondi:.2f} s ({result.mani_al_secondo:,.0f} mani al secondo, con i controlli).",
        f"Fiche all'inizio: {result.fiches_iniziali}; alla fine: {result.fiches_finali} "
        f"(rientri +{result.fiches_rientrate}, uscite -{result.fiches_uscite}).",
    ]
    if result.regole:
        lines.append(
            "Regole raggiunte: " + ", ".join(f"{k} {v}" for k, v in sorted(result.regole.items())) + "."
        )
    if result.violazioni:
        lines.append(f"VIOLAZIONI: {result.violazioni}.")
        lines.extend(f"  - {e}" for e in result.esempi)
    else:
        lines.append("Nessuna violazione: nessuna fiche creata o distrutta, nessuna carta doppia.")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        print(f"Si scrive: {USAGE}.")
        return 0
    if "--torneo" in args:  # whole tournaments: engine.tournament.simulation
        from engine.tournament.simulation import main as torneo_main

        return torneo_main(args)
    try:
        options, players, hands, seed, as_json = _parse(args)
    except InputError as error:
        print(error, file=sys.stderr)
        return 2
    result = simulate(options, players, hands, seed=seed)
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(_summary(result))
    return 1 if result.violazioni else 0


if __name__ == "__main__":
    sys.exit(main())
