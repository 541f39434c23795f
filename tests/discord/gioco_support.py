"""Shared helpers of the game tests (tests/discord/test_gioco_*.py): explicit decks, a table with
its players, and the watch that scans every public message for hole cards.

The watch knows every player's cards from the engine itself (`cards_of` after every step) and the
cards shown at showdown from the replayed hand record, so it needs no hand-written list. Pictures
are watched too: every picture ever attached to a public message must be, byte for byte, a picture
of public cards (a texas board as it was dealt, or the hands shown at a showdown, bot/card_pictures.py).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.card_pictures import showdown_rows
from bot.night_summary import CHART_FILE
from bot.pictures import board_png, showdown_png
from bot.timers import ManualClock
from engine.cards import Card, parse_cards
from engine.events import HandShown, OpeningShown
from engine.history import replay


def stacked(hands: Sequence[str], rest: str = "") -> list[Card]:
    """A deck dealing ``hands`` (in deal order, from the dealer's left) one card at a time, then ``rest``."""
    parsed = [parse_cards(hand) for hand in hands]
    size = len(parsed[0])
    deck = [parsed[p][i] for i in range(size) for p in range(len(parsed))]
    return deck + list(parse_cards(rest)) if rest else deck


@dataclass
class _Hand:
    number: int
    start: int  # index in public_texts when the hand was started
    hole: dict[int, set[Card]] = field(default_factory=dict)
    checked: bool = False
    boards: set[tuple[Card, ...]] = field(default_factory=set)


class Game:
    """One table in one channel, driven by real interactions through the fake Discord."""

    def __init__(self, harness: Any, channel: str = "poker") -> None:
        self.h = harness
        self.channel = channel
        self.hands: list[_Hand] = []
        self.pictures: set[bytes] = set()  # the public pictures allowed: boards and showdowns
        self.clock = ManualClock()
        self.use_clock()

    def use_clock(self) -> None:
        """Turn timers on a clock the test moves (after each start of the bot)."""
        self.h.bot.sessions.timers.clock = self.clock

    async def restart(self) -> None:
        """The bot stops and starts again (a running hand is cancelled); its turn timers come back on
        the test's clock and the restored table has settled."""
        await self.h.restart()
        self.use_clock()
        await self.h.settle()

    @property
    def live(self) -> Any:
        return self.h.bot.tables.get(self.h.channel(self.channel).id)

    @property
    def session(self) -> Any:
        """The table's session (bot/session.py): the table message, its log, the results."""
        return self.h.bot.sessions.of(self.live)

    @property
    def menu_id(self) -> str:
        """The custom id of the draw menu of the running hand (bound to its table, hand and turn)."""
        return f"tv:{self.live.id}:{self.table.hand_number}.{self.session.decisions}:scarta"

    @property
    def table(self) -> Any:
        return self.live.table

    @property
    def message(self) -> Any:
        """The live table message."""
        return self.h.fake.store[self.live.message_id]

    async def open(
        self, creator: Any, variant: str, users: Sequence[Any], buyin: int = 300, **options: Any
    ) -> None:
        reply = await self.h.slash(creator, "tavolo nuovo", channel=self.channel, variante=variant, **options)
        assert not reply.ephemeral, reply.content
        for user in users:
            sat = await self.h.slash(user, "tavolo siedi", channel=self.channel, buyin=buyin)
            assert not sat.ephemeral, sat.content

    async def start(
        self, user: Any, deck: Sequence[Card] | None = None, message: Any = None, private: str | None = None
    ) -> Any:
        """`/tavolo inizia`, or the "Prossima mano" button of ``message``; answered publicly, or with
        the one private sentence ``private`` (the public answer failed)."""
        if deck is not None:
            self.h.bot.tables.queue_deck(self.h.channel(self.channel).id, deck)
        start = len(self.h.public_texts())
        if message is None:
            reply = await self.h.slash(user, "tavolo inizia", channel=self.channel)
        else:
            reply = await self.h.click(user, message, label="Prossima mano")
        if private is None:
            assert not reply.ephemeral, reply.content
        else:
            assert reply.ephemeral and reply.content == private, reply.content
        self.hands.append(_Hand(self.table.hand_number, start))
        self._note()
        return reply

    def track(self, start: int) -> None:
        """Watch a hand started without `start()` (``start``: len(public_texts()) before it began)."""
        self.hands.append(_Hand(self.table.hand_number, start))
        self._note()

    async def say(self, user: Any, command: str, **options: Any) -> Any:
        return await self._step(self.h.slash(user, command, channel=self.channel, **options))

    async def click(self, user: Any, label: str, message: Any = None) -> Any:
        return await self._step(self.h.click(user, message or self.message, label=label))

    async def submit(self, user: Any, reply: Any, values: dict[str, Any]) -> Any:
        return await self._step(self.h.submit_modal(user, reply, values))

    async def select(self, user: Any, reply: Any, custom_id: str, values: list[Any]) -> Any:
        return await self._step(self.h.select(user, reply, custom_id, values))

    async def expire(self) -> None:
        """Move the clock past the turn's deadline and wait for the timeout to be applied."""
        live = self.live
        session = self.session
        before = (live.table.hand_number, live.table.hand_running, len(session.log))
        deadline = self.h.bot.sessions.timers.deadline(self.h.channel(self.channel).id)
        assert deadline is not None, "no turn timer is running"
        self.clock.advance(deadline - self.clock.now() + 1)
        await self.h.fake.wait_for(
            lambda: (live.table.hand_number, live.table.hand_running, len(session.log)) != before,
            "the turn timer to fire",
        )
        await self.h.settle()
        self._note()

    async def _step(self, coro: Any) -> Any:
        before = len(self.h.public_texts())
        running = self.table.hand_running
        reply = await coro
        self._note()
        if running and not self.table.hand_running:
            self._ended(before)
        return reply

    def _note(self) -> None:
        """Remember every card each player holds now (dealt, drawn, or about to be discarded)."""
        if not self.hands or not self.table.hand_running:
            return
        hand = self.hands[-1]
        hand.boards.add(tuple(self.table.board))
        for seat in self.live.view().seats:
            cards = self.table.cards_of(seat.player)
            hand.hole.setdefault(seat.player, set()).update(cards)

    def _ended(self, end: int) -> None:
        """The hand just ended: nothing before `end` shows a hole card; after it only shown cards."""
        hand = self.hands[-1]
        _, events = replay(self.table.hand_record())
        shown = {c for e in events if isinstance(e, HandShown | OpeningShown) for c in e.cards}
        board = tuple(self.session.board)
        hand.boards.update(board[:dealt] for dealt in range(1, len(board) + 1))  # an all-in run-out
        rows = showdown_rows(events, self.h.bot.sessions.name_of)
        if rows:
            self.pictures.add(showdown_png(rows, board or None))
        texts = self.h.public_texts()
        self._scan(texts[hand.start : end], hand, allowed=set(), where="during the hand")
        self._scan(texts[end:], hand, allowed=shown, where="at the end of the hand")
        hand.checked = True

    def _scan(self, texts: Sequence[str], hand: _Hand, allowed: set[Card], where: str) -> None:
        # The fake logs every edit with the whole text; an edit that only takes the buttons off an
        # older message (the last hand's, once a new one is posted) repeats lines that were public
        # before this hand began (the cards shown at that hand's showdown): they reveal nothing new.
        earlier = {line for text in self.h.public_texts()[: hand.start] for line in text.splitlines()}
        texts = ["\n".join(ln for ln in text.splitlines() if ln not in earlier) for text in texts]
        for player, cards in hand.hole.items():
            for card in cards - allowed:
                for text in texts:
                    assert str(card) not in text, (
                        f"hand {hand.number}: {card} of player {player} is public {where}:\n{text}"
                    )

    def finish(self) -> None:
        """Check the hands that did not end (interrupted or still running): no hole card anywhere;
        and every public picture ever attached shows public cards only."""
        texts = self.h.public_texts()
        for hand in self.hands:
            if not hand.checked:
                self._scan(texts[hand.start :], hand, allowed=set(), where="(hand not ended)")
                hand.checked = True
        allowed = set(self.pictures)
        allowed |= {board_png(board) for hand in self.hands for board in hand.boards if board}
        for message_id, data in public_attachments(self.h, self.channel).items():
            assert data in allowed, f"message {message_id} shows a picture of cards that are not public"


NOT_CARDS = frozenset({CHART_FILE})
"""Public pictures that hold no card at all (the night's results chart)."""


def public_attachments(harness: Any, channel: str) -> dict[int, bytes]:
    """Every file ever attached to a public message of the channel (each version of each message),
    by attachment id, with the bytes the bot uploaded; pictures with no card left out."""
    fake = harness.fake
    found: dict[int, bytes] = {}
    wanted = harness.channel(channel).id
    for message in fake.store.values():
        if message.channel_id != wanted or message.ephemeral:
            continue
        for version in message.history:
            for attachment in version.get("attachments") or []:
                if attachment["filename"] in NOT_CARDS:
                    continue
                aid = int(attachment["id"])
                found[aid] = fake._attachments[aid][1]
    return found


async def balances(harness: Any, *users: Any) -> dict[str, int]:
    return {u.name: int(await harness.bot.storage.balance(harness.guild_id, u.id)) for u in users}


async def seats(harness: Any, channel: str = "poker") -> dict[int, int]:
    """The ledger's seats of the channel's table: user id → chips at the table."""
    for row in await harness.bot.storage.open_tables():
        if row.channel_id == harness.channel(channel).id:
            return dict(row.seats)
    raise AssertionError("no open table in the ledger")


# Shared scenes of the table tests ------------------------------------------------------------

# Two players (24 cards, 9 to A). Deal order bob, alice (alice deals first): bob holds the jacks.
HEADS_UP = stacked(["Jh Js 9c Td Ah", "9h 9d Qc Kd As"], "Qh Ks Kh Qd Jd")
HEADS_UP_TEXAS = stacked(["Ah Kh", "Qs Qd"], "2h 7h 2s 9c 3h 4d 3s Kc")
"""Texas, alice and bob: Ah Kh against Qs Qd, then the board 2h 7h 2s, 9c, 3h (burns between)."""
# Deal order bob, carol, alice: alice holds the jacks.
THREE = stacked(["8s 9d Tc Qs Ad", "8d 9c Th Kc Ac", "Jh Js 8c 9h Kd"], "Qh Ks Kh Qd Jd")


# Three players (28 cards, 8 to A); deal order bob, carol, alice when alice deals. Bob opens, carol
# calls, both stand pat and both say paròl: the pot of 30 is carried.
PAROL_THREE = stacked(["Qh Qs 8c 9d Ac", "8h 9h Jc Kd As", "8d 9c Td Jd Kh"])


async def everyone_parol(game: Game, alice: Any, bob: Any, carol: Any) -> Any:
    """Play `PAROL_THREE` (dealt by alice) to its carried pot; the last answer."""
    await game.start(alice, PAROL_THREE)
    await game.say(bob, "passo")  # no buio
    await game.say(bob, "apro", importo="10")
    await game.say(carol, "vedo")
    await game.say(alice, "passo")
    await game.say(bob, "servito")
    await game.say(carol, "servito")
    await game.say(bob, "paròl")
    return await game.say(carol, "paròl")


async def total(harness: Any, *users: Any) -> int:
    """Balances plus chips at tables: what no action may change."""
    rows = await harness.bot.storage.leaderboard(harness.guild_id, limit=100)
    return sum(row.total for row in rows if row.user_id in {u.id for u in users})


async def heads_up(harness: Any) -> tuple[Game, Any, Any]:
    """Alice and bob at an italiana table, bob to open (he holds the jacks)."""
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await game.start(alice, HEADS_UP)
    assert game.table.to_act == bob.id, "heads-up: no buio question, bob speaks first"
    return game, alice, bob


BOB_DRAWS_THREE = stacked(["Jh Js 9c Td Ah", "9h 9d Qc Kd As"], "Jd Qh Kh Ac")


async def bob_declares_three(game: Game, alice: Any, bob: Any) -> None:
    """Deal `BOB_DRAWS_THREE` at ``game`` (italiana, alice dealing): bob, at the dealer's left, opens
    with the jacks for 10, alice calls, and bob declares 9♣ 10♦ A♥ (Jd Qh Kh once alice has chosen)."""
    await game.start(alice, BOB_DRAWS_THREE)
    await game.say(bob, "apro", importo="10")
    await game.say(alice, "vedo")
    await game.say(bob, "cambio", carte="9♣ 10♦ A♥")


async def texas_heads_up(harness: Any, avviso: str) -> tuple[Game, Any, Any]:
    """Alice and bob at a texas table with ``avviso``, the first hand dealt from `HEADS_UP_TEXAS`:
    the game, the player to act first (the dealer, small blind) and the other one."""
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], avviso=avviso)
    await game.start(alice, HEADS_UP_TEXAS)
    first = bob if game.table.to_act == bob.id else alice
    return game, first, alice if first is bob else bob


async def acknowledged_while_busy(
    harness: Any, game: Game, act: Callable[[], Awaitable[Any]]
) -> tuple[int | None, Any]:
    """Run ``act`` while another command holds the table's lock: the callback type the bot sent before
    the lock was released (None: nothing yet, so Discord's 3-second window is running out), and the reply."""
    lock = harness.bot.tables.lock(harness.channel(game.channel).id)
    known = set(harness.fake.interactions)
    await lock.acquire()
    task = asyncio.get_running_loop().create_task(act())
    try:
        await harness.fake.wait_for(
            lambda: set(harness.fake.interactions) - known, "the interaction to be sent"
        )
        (token,) = set(harness.fake.interactions) - known
        record = harness.fake.interactions[token]
        await harness.settle()  # the bot is quiet: whatever it answers before the lock is free, it did
        early = record.callback_type
    finally:
        lock.release()
    reply = await task
    return early, reply


def fails_once(monkeypatch: Any, storage: Any, method: str) -> list[int]:
    """``storage.<method>`` raises a driver error (the database locked) at its first call and works
    after; returns the list of calls made (one item per call)."""
    real = getattr(storage, method)
    calls: list[int] = []

    async def locked_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise sqlite3.OperationalError("database is locked")
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, method, locked_once)
    return calls
