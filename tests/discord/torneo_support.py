"""Shared helpers of the tournament tests: a tournament announced and filled through /torneo, and a
scripted aggressive player for every seat (all-in whenever he may bet, else call, else open, else
the cheapest word), playing through the real game commands of the fake Discord."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.session import DONE
from engine.tournament import Phase

STARTING = 1000


def accepted(reply: Any) -> bool:
    """A public answer, or the private "done" of a command that waited for a busy table."""
    return not reply.ephemeral or reply.content == DONE


class Torneo:
    """One tournament in one channel, driven by real interactions."""

    def __init__(self, harness: Any, channel: str = "poker") -> None:
        self.h = harness
        self.channel = channel
        self.users: dict[int, Any] = {}
        self.actions = 0

    @property
    def channel_id(self) -> int:
        return int(self.h.channel(self.channel).id)

    @property
    def run(self) -> Any:
        return self.h.bot.tournaments.get(self.channel_id)

    @property
    def live(self) -> Any:
        return self.h.bot.tables.get(self.channel_id)

    async def announce(self, creator: Any, variant: str, **options: Any) -> Any:
        reply = await self.h.slash(creator, "torneo nuovo", channel=self.channel, variante=variant, **options)
        assert not reply.ephemeral, reply.content
        return reply

    async def join(self, users: Sequence[Any]) -> list[Any]:
        replies = []
        for user in users:
            self.users[user.id] = user
            reply = await self.h.slash(user, "torneo iscriviti", channel=self.channel)
            assert not reply.ephemeral, reply.content
            replies.append(reply)
        return replies

    async def _turn(self, stop: Callable[[], bool] | None = None) -> Any:
        """The next thing to do: the live table with a player to act, or None once it is over."""

        def ready() -> Any:
            run = self.run
            if run is None or (stop is not None and stop()):
                return "done"
            live = self.live
            if run.tournament.phase is not Phase.IN_CORSO:
                return "done"
            if live is not None and live.table.hand_running and live.table.to_act is not None:
                return live
            return None

        found = await self.h.fake.wait_for(ready, "a turn in the tournament or its end")
        return None if found == "done" else found

    async def act_once(self, stop: Callable[[], bool] | None = None) -> bool:
        """One aggressive decision of the player to act; False when the tournament is over."""
        live = await self._turn(stop)
        if live is None:
            return False
        table = live.table
        level = self.run.tournament.level
        assert live.options.cip == level.cip, f"hand {table.hand_number} plays {live.options.cip}, {level}"
        if live.options.variant == "italiana":
            assert live.options.invito == level.invito
        player, hand = table.to_act, table.hand_number
        user = self.users[player]
        kinds = {str(la.kind) for la in table.legal_actions()}
        plans: list[tuple[str, dict[str, str]]] = []
        for kind, extra in (
            ("punto", {"importo": "tutto"}),
            ("rilancio", {"importo": "tutto"}),
            ("vedo", {}),
            ("apro", {"importo": "tutto"}),
            ("servito", {}),
            ("parol", {}),
            ("passo", {}),
        ):
            if kind in kinds:
                plans.append((kind, extra))
        for kind, extra in plans:
            command = "paròl" if kind == "parol" else kind
            reply = await self.h.slash(user, command, channel=self.channel, **extra)
            self.actions += 1
            if accepted(reply):
                return True
            if table is not self.live.table or table.hand_number != hand or table.to_act != player:
                return True  # something else moved the game on meanwhile (the hand ended)
        raise AssertionError(f"no word accepted for {player}: {kinds}")

    async def play_out(self, limit: int = 2000) -> None:
        for _ in range(limit):
            if not await self.act_once():
                # Paid, announced and gone: the standings are the last thing a tournament posts.
                await self.h.fake.wait_for(lambda: self.run is None, "the final standings")
                await self.h.settle()
                return
        raise AssertionError(f"the tournament did not end in {limit} actions")

    async def play_out_until(self, stop: Callable[[], bool], limit: int = 2000) -> None:
        """Play aggressively until ``stop()`` (checked before every decision)."""
        for _ in range(limit):
            if not await self.act_once(stop):
                return
        raise AssertionError(f"not there in {limit} actions")


def boundary_fails_once(storage: Any) -> list[int]:
    """Make ``storage.save_tournament`` fail once (a ledger refusal, as a database hiccup comes out)
    at the first write that stores a finished hand; returns the list that gets that hand's number."""
    from bot.storage import StorageError

    real = storage.save_tournament
    failed: list[int] = []

    async def hiccup(tournament_id: int, state: Any, hands: Any = ()) -> None:
        if not failed and hands and hands[-1].record is not None:
            failed.append(hands[-1].number)
            raise StorageError("Il database non risponde.")
        await real(tournament_id, state, hands)

    storage.save_tournament = hiccup
    return failed


async def time_out(h: Any, game: Torneo, clock: Any, seconds: float = 31) -> None:
    """The player to act stays silent: ``clock`` (the timers' ManualClock) moves past his turn, and
    the timeout is applied (the table changed, or the next hand's table replaced it)."""
    table = game.live.table
    before = repr(table.public_view())
    await h.fake.wait_for(lambda: h.bot.sessions.timers.deadline(game.channel_id), "the turn timer")
    clock.advance(seconds)
    await h.fake.wait_for(
        lambda: repr(table.public_view()) != before or table is not game.live.table, "the timeout"
    )


async def deal_next(h: Any, game: Torneo) -> None:
    """Deal the next hand now (a tournament paused between hands), and wait for it (or its end)."""
    from engine.tournament import Phase

    run, number = game.run, game.live.table.hand_number
    h.bot.tournaments._next_hand(run, 0.0)
    await h.fake.wait_for(
        lambda: game.live.table.hand_number > number or run.tournament.phase is not Phase.IN_CORSO,
        "the next deal",
    )


async def silent_or_call(h: Any, game: Torneo, clock: Any, silent: Any, speaker: Any) -> None:
    """One turn heads-up: ``silent`` never answers (his time runs out), ``speaker`` calls or checks."""
    table = game.live.table
    if table.to_act is None:
        return
    if table.to_act == silent.id:
        await time_out(h, game, clock)
        return
    kinds = {str(la.kind) for la in table.legal_actions()}
    reply = await h.slash(speaker, "vedo" if "vedo" in kinds else "paròl")
    assert accepted(reply), reply.content
