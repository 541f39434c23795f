"""Golden traces: the table's observable behaviour, pinned byte for byte across refactors.

Each set-up below plays seeded random hands and writes a canonical text of everything a caller can
see: every event, every ``legal_actions()`` and ``bet_sizes()`` answer, the private cards of the
player to act, the message of every refused request (refusals are probed on purpose: wrong turn,
illegal word, amounts out of range, bad discards, unqualified openings, bad decks), ``to_dict()``
and ``public_view()`` at hand boundaries, ``hand_record()`` and its replay after every hand, and
what ``close()`` hands back. Seating changes happen mid-hand too (sit, sit out, come back, leave),
as do timeouts, and tables are saved and restored between hands.

The SHA-256 of each trace is stored in ``data/golden_traces.json``. Only the messages of refusals
are recorded, not their classes, so a change of exception class does not change a trace.

To regenerate after an intended change of behaviour (never to make a refactor pass):
``python -m tests.engine.test_golden_traces --write`` (``--dump DIR`` writes the traces as text).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Action, ActionKind
from engine.cards import Card
from engine.errors import EngineError
from engine.history import replay
from engine.options import Limit, Mazzo, TableOptions, Variant
from engine.table import Table

DATA = Path(__file__).parent / "data" / "golden_traces.json"

_AMOUNT_WORDS = (ActionKind.APRO, ActionKind.PUNTO, ActionKind.RILANCIO)


@dataclass(frozen=True)
class Setup:
    name: str
    options: dict[str, Any]
    players: int
    hands: int
    seed: int
    stacks: tuple[int, ...] = (3, 8, 20, 50, 100)  # in cips
    timeout: float = 0.0  # per decision
    sit_out: float = 0.0
    leave: float = 0.0
    sit: float = 0.0
    probe: float = 0.15
    stacked: float = 0.05  # a deck given to start_hand
    restore: float = 0.2  # save and restore between hands


SETUPS = [
    Setup("italiana-2", {}, 2, 40, 1),
    Setup("italiana-3", {}, 3, 50, 2),
    Setup("italiana-4-controbuio", {}, 4, 60, 3),
    Setup("italiana-5-controcontrobuio", {"controcontrobuio": True}, 5, 60, 4),
    Setup("italiana-6-invito-tutti", {"invito_tutti": True, "invito": 5}, 6, 50, 5),
    Setup("italiana-7-cambio5", {"max_cambio": 5}, 7, 50, 6),
    Setup("italiana-9-reshuffle", {"max_cambio": 5}, 9, 40, 7),
    Setup("italiana-buio3", {"buio_multiplo": 3, "controcontrobuio": True}, 6, 50, 8),
    Setup("italiana-mazzo32-6", {"mazzo": Mazzo.TRENTADUE}, 6, 50, 9),
    Setup("italiana-mazzo32-3", {"mazzo": Mazzo.TRENTADUE}, 3, 40, 10),
    Setup("italiana-americano-5", {"mazzo": Mazzo.AMERICANO}, 5, 50, 11),
    Setup("italiana-short-stacks", {}, 5, 60, 12, stacks=(1, 2, 3, 5)),
    Setup("italiana-timeouts", {}, 5, 50, 13, timeout=0.12),
    Setup("italiana-seating", {}, 6, 60, 14, sit_out=0.04, leave=0.03, sit=0.05),
    Setup(
        "italiana-everything",
        {"controcontrobuio": True},
        7,
        60,
        15,
        timeout=0.05,
        sit_out=0.02,
        leave=0.02,
        sit=0.03,
    ),
    Setup("trentadue-2", {"variant": Variant.TRENTADUE}, 2, 40, 16),
    Setup("trentadue-5-nolimit", {"variant": Variant.TRENTADUE}, 5, 60, 17),
    Setup(
        "trentadue-4-potlimit-over",
        {"variant": Variant.TRENTADUE, "limite": Limit.POTLIMIT, "over": True},
        4,
        50,
        18,
    ),
    Setup("trentadue-5-senza-semi", {"variant": Variant.TRENTADUE, "semi": False, "over": True}, 5, 60, 19),
    Setup("trentadue-side-pots", {"variant": Variant.TRENTADUE}, 5, 60, 20, stacks=(1, 2, 4, 30)),
    Setup(
        "trentadue-seating",
        {"variant": Variant.TRENTADUE},
        5,
        50,
        21,
        timeout=0.06,
        sit_out=0.03,
        leave=0.03,
        sit=0.05,
    ),
    Setup("texas-2-fisso", {"variant": Variant.TEXAS}, 2, 50, 22),
    Setup("texas-6-fisso", {"variant": Variant.TEXAS}, 6, 50, 23),
    Setup("texas-3-potlimit", {"variant": Variant.TEXAS, "limite": Limit.POTLIMIT}, 3, 50, 24),
    Setup("texas-6-nolimit", {"variant": Variant.TEXAS, "limite": Limit.NOLIMIT}, 6, 60, 25),
    Setup("texas-10-nolimit", {"variant": Variant.TEXAS, "limite": Limit.NOLIMIT, "cip": 4}, 10, 40, 26),
    Setup(
        "texas-side-pots",
        {"variant": Variant.TEXAS, "limite": Limit.NOLIMIT},
        8,
        60,
        27,
        stacks=(1, 2, 3, 7, 40),
    ),
    Setup("texas-fisso-short", {"variant": Variant.TEXAS}, 4, 50, 28, stacks=(1, 2, 5)),
    Setup("texas-timeouts", {"variant": Variant.TEXAS, "limite": Limit.NOLIMIT}, 5, 50, 29, timeout=0.12),
    Setup(
        "texas-seating",
        {"variant": Variant.TEXAS, "limite": Limit.POTLIMIT},
        7,
        60,
        30,
        timeout=0.04,
        sit_out=0.03,
        leave=0.03,
        sit=0.05,
    ),
]


class _Trace:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, *parts: object) -> None:
        self.lines.append(" ".join(str(p) for p in parts))

    def events(self, events: list[Any]) -> None:
        for event in events:
            self.lines.append(repr(event))

    def refused(self, what: str, call: Any) -> bool:
        try:
            result = call()
        except EngineError as error:
            self.add("refused", what, str(error))
            return True
        self.add("accepted", what)
        if isinstance(result, list):
            self.events(result)
        return False

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _dump(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


class _Run:
    """One set-up played: the table, the players' pool and the seeded choices."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rng = random.Random(setup.seed)
        self.options = TableOptions(**setup.options)
        self.table_rng = random.Random(setup.seed * 7919)
        self.table = Table(self.options, rng=self.table_rng)
        self.trace = _Trace()
        self.next_pid = 1
        self.pool: list[int] = []

    def stack(self) -> int:
        return self.options.cip * self.rng.choice(self.setup.stacks) + self.rng.randint(
            0, self.options.cip - 1
        )

    def sit_new(self) -> None:
        pid = self.next_pid
        self.next_pid += 1
        self.trace.add("sit", pid)
        try:
            events = self.table.sit(pid, self.stack())
        except EngineError as error:
            self.trace.add("refused sit", str(error))
            return
        self.pool.append(pid)
        self.trace.events(events)

    def between_hands(self) -> None:
        table, trace, rng = self.table, self.trace, self.rng
        seated = table.seats()
        for pid in [p for p in self.pool if p not in seated]:
            self.pool.remove(pid)
        while len(table.seats()) < self.setup.players:
            self.sit_new()
        view = table.public_view()
        for seat in view.seats:
            if seat.sitting_out and rng.random() < 0.6:
                trace.events(table.come_back(seat.player))
            if seat.debt > seat.stack and rng.random() < 0.5:  # cannot pay his paròl debt: leaves, comes back
                trace.events(table.leave(seat.player))
                trace.events(table.sit(seat.player, seat.debt + self.stack()))
        if rng.random() < 0.1:
            trace.refused("sit twice", lambda: table.sit(next(iter(table.seats())), 5))
            trace.refused("sit zero", lambda: table.sit(10_000, 0))
            trace.refused("act idle", lambda: table.act(Action(next(iter(table.seats())), ActionKind.PASSO)))
            trace.refused("timeout idle", table.timeout)
            trace.refused("leave unseated", lambda: table.leave(10_001))
        trace.add("state", _dump(table.to_dict()))
        trace.add("view", repr(table.public_view()))
        trace.add("can_start", table.can_start(), "chips", table.total_chips())
        if rng.random() < self.setup.restore:
            self.table = Table.from_dict(json.loads(json.dumps(table.to_dict())), rng=self.table_rng)
            trace.add("restored", isinstance(self.table, Table), type(self.table) is type(table))

    def start(self) -> bool:
        table, trace, rng = self.table, self.trace, self.rng
        deck: list[Card] | None = None
        if rng.random() < self.setup.stacked:
            cards = _natural_deck(self.options, len(table.seats()))
            rng.shuffle(cards)
            deck = cards[: rng.randint(1, len(cards))]
            if rng.random() < 0.3 and len(deck) > 1:
                trace.refused("bad deck twice", lambda: table.start_hand(deck=[deck[0], deck[0]]))
                trace.refused("bad deck card", lambda: table.start_hand(deck=[Card.from_code(8)]))
                if table.hand_running:  # a deck of 52 holds that card: the hand started
                    return True
        if not table.can_start():
            trace.refused("start", table.start_hand)
            return False
        trace.add("start", None if deck is None else " ".join(map(str, deck)))
        if deck is None or trace.refused("start stacked", lambda: table.start_hand(deck=deck)):
            trace.events(table.start_hand())
        return True

    def probe(self) -> bool:
        """One request that should be refused; True if it was accepted after all (the turn moved)."""
        table, trace, rng = self.table, self.trace, self.rng
        lines = len(trace.lines)
        player = table.to_act
        assert player is not None
        legal = table.legal_actions()
        others = [p for p in table.seats() if p != player]
        choice = rng.randrange(9)
        if choice == 0 and others:
            trace.refused("out of turn", lambda: table.act(Action(rng.choice(others), legal[0].kind)))
        elif choice == 1:
            kinds = [k for k in ActionKind if k not in {la.kind for la in legal}]
            word = rng.choice(kinds)
            trace.refused("illegal word", lambda: table.act(Action(player, word, 10)))
        elif choice == 2:
            trace.refused("unknown word", lambda: table.act(Action(player, "boh", 1)))  # type: ignore[arg-type]
        elif choice in (3, 4, 5):
            la = rng.choice(legal)
            if la.kind in (ActionKind.PASSO, ActionKind.PAROL):  # any amount is ignored: accepted
                trace.add("no probe", la.kind)
            elif la.kind is ActionKind.CAMBIO:
                hand = list(table.cards_of(player))
                word = la.kind
                if choice == 3:
                    trace.refused(
                        "draw twice", lambda: table.act(Action(player, word, cards=(hand[0], hand[0])))
                    )
                elif choice == 4:
                    trace.refused("draw none", lambda: table.act(Action(player, word)))
                else:
                    foreign = next(c for c in map(Card.from_code, range(8, 60)) if c not in hand)
                    trace.refused("draw foreign", lambda: table.act(Action(player, word, cards=(foreign,))))
                    trace.refused("draw many", lambda: table.act(Action(player, word, cards=tuple(hand) * 2)))
            elif la.kind is ActionKind.SERVITO:
                hand = list(table.cards_of(player))
                trace.refused("servito cards", lambda: table.act(Action(player, la.kind, cards=(hand[0],))))
            else:
                amounts: list[Any] = [None, la.min - 1, la.max + 1, la.max + 10**6, True, 2.5]
                amount = amounts[rng.randrange(len(amounts))]
                trace.refused(f"amount {amount!r}", lambda: table.act(Action(player, la.kind, amount)))
        elif choice == 6:
            trace.refused("start running", table.start_hand)
            trace.refused("close running", table.close)
        elif choice == 7:
            trace.refused("unseated", lambda: table.act(Action(10_002, legal[0].kind)))
        else:
            trace.refused("come back playing", lambda: table.come_back(player))
        return any(line.startswith("accepted") for line in trace.lines[lines:])

    def decide(self) -> None:
        table, trace, rng, setup = self.table, self.trace, self.rng, self.setup
        player = table.to_act
        assert player is not None
        legal = table.legal_actions()
        trace.add("to_act", player, "street", table.street, "legal", legal)
        trace.add("cards", table.cards_of(player), "board", table.board)
        for kind in _AMOUNT_WORDS:
            trace.add("sizes", kind, table.bet_sizes(kind))
        if rng.random() < setup.probe and self.probe():
            return
        r = rng.random()
        if r < setup.timeout:
            trace.add("timeout")
            trace.events(table.timeout())
            return
        seated = list(table.seats())
        if rng.random() < setup.sit_out:
            who = rng.choice(seated)
            trace.add("sit_out", who)
            if not trace.refused("sit out", lambda: table.sit_out(who)):
                return
        if rng.random() < setup.leave:
            who = rng.choice(seated)
            trace.add("leave", who)
            trace.refused("leave", lambda: table.leave(who))
            trace.refused("leave twice", lambda: table.leave(who))
            trace.add("mid-hand state", _dump(table.to_dict()))
            return
        if rng.random() < setup.sit:
            self.sit_new()
            return
        la = rng.choice(legal)
        kind = la.kind
        if kind is ActionKind.CAMBIO:
            hand = list(table.cards_of(player))
            count = rng.randint(la.min, min(la.max, len(hand)))
            action = Action(player, kind, cards=tuple(rng.sample(hand, count)))
        elif kind in _AMOUNT_WORDS or kind in (ActionKind.BUIO, ActionKind.CONTROBUIO):
            pick = rng.random()
            amount = la.min if pick < 0.4 else la.max if pick < 0.6 else rng.randint(la.min, la.max)
            action = Action(player, kind, amount)
        elif kind is ActionKind.VEDO and rng.random() < 0.5:
            action = Action(player, kind, la.min)
        else:
            action = Action(player, kind)
        trace.add("act", action)
        try:
            trace.events(table.act(action))
        except EngineError as error:  # an opening the hand does not justify
            if kind is not ActionKind.APRO:
                raise
            trace.add("refused act", str(error))
            trace.events(table.act(Action(player, ActionKind.PASSO)))

    def play(self) -> str:
        trace = self.trace
        trace.add("setup", self.setup.name, _dump(self.options.to_dict()))
        for number in range(self.setup.hands):
            trace.add("hand", number)
            self.between_hands()
            table = self.table
            if not self.start():
                continue
            while table.hand_running:
                self.decide()
            record = table.hand_record()
            trace.add("record", _dump(record))
            replayed, events = replay(json.loads(json.dumps(record)))
            trace.add("replayed", len(events), _dump(replayed.to_dict()))
            trace.events(events[-1:])
        trace.add("close", sorted(self.table.close().items()))
        trace.add("after close", _dump(self.table.to_dict()))
        return trace.text()


def _natural_deck(options: TableOptions, players: int) -> list[Card]:
    from engine.cards import deck, deck_size_for_players

    if options.variant is Variant.ITALIANA and options.mazzo is Mazzo.AUTO:
        return list(deck(deck_size_for_players(max(players, 2))))
    if options.variant is Variant.TEXAS or options.mazzo is Mazzo.AMERICANO:
        return list(deck(52))
    return list(deck(32))


def trace_of(setup: Setup) -> str:
    return _Run(setup).play()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _stored() -> dict[str, str]:
    stored: dict[str, str] = json.loads(DATA.read_text(encoding="utf-8"))
    return stored


def test_every_setup_has_a_stored_trace() -> None:
    assert sorted(_stored()) == sorted(s.name for s in SETUPS)


@pytest.mark.parametrize("setup", SETUPS, ids=[s.name for s in SETUPS])
def test_trace_is_unchanged(setup: Setup) -> None:
    text = trace_of(setup)
    assert len(text.splitlines()) > 500  # the set-up really played
    assert _digest(text) == _stored()[setup.name], (
        f"the trace of {setup.name} changed; `python -m tests.engine.test_golden_traces --dump DIR` "
        "writes the new one to compare"
    )


def main(argv: list[str]) -> int:
    if argv[:1] == ["--write"]:
        digests = {setup.name: _digest(trace_of(setup)) for setup in SETUPS}
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(json.dumps(digests, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        return 0
    if argv[:1] == ["--dump"] and len(argv) == 2:
        out = Path(argv[1])
        out.mkdir(parents=True, exist_ok=True)
        for setup in SETUPS:
            (out / f"{setup.name}.txt").write_text(trace_of(setup), encoding="utf-8")
        return 0
    print("usage: python -m tests.engine.test_golden_traces --write | --dump DIR", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
