"""A sit-and-go tournament: registration, stacks, levels, eliminations and prizes.

The tournament never touches a table: at every hand boundary the caller passes the stacks the
table reports (``Table.seats()``) and the carried pot (``public_view().carried``), and gets back
what happened (``LevelUp``, ``PlayerEliminated``, ``TournamentFinished``); before the next hand it
applies ``options_for_current_level()`` to the table (``engine.tournament.seating`` does both).

Time-based levels use no clock of their own: the caller passes ``now`` (any seconds count that
never goes back, e.g. ``time.monotonic()``: a wall clock stepped back is refused). What is stored is
the time left in the level at the last boundary (``remaining_seconds``), never a moment: a tournament
restored after a restart is paused until ``resume(now)`` (or its next boundary), so the downtime
does not eat the level.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, TypedDict

from engine.errors import EngineError
from engine.options import Limit, TableOptions, Variant
from engine.tournament.events import LevelUp, PlayerEliminated, Standing, TournamentEvent, TournamentFinished
from engine.tournament.payouts import PayoutStructure, default_structure, place_prizes, share_evenly
from engine.tournament.structure import (
    Level,
    Ritmo,
    RitmoUnit,
    Schedule,
    ScheduleKind,
    default_ritmo,
    default_schedule,
    default_stack,
)

__all__ = ["ConfigDict", "FinishDict", "Phase", "Tournament", "TournamentConfig", "TournamentDict"]

_STATE_VERSION = 1


class Phase(StrEnum):
    ISCRIZIONI = "iscrizioni"  # open for registration
    IN_CORSO = "in_corso"
    FINITO = "finito"
    ANNULLATO = "annullato"


class ConfigDict(TypedDict):
    options: dict[str, Any]
    schedule: str
    cip: int
    invito: int
    ritmo: int
    ritmo_unit: str
    stack: int
    buy_in: int
    payout: str | None
    max_players: int


class FinishDict(TypedDict):
    player: int
    place: int
    prize: int


class TournamentDict(TypedDict):
    version: int
    config: ConfigDict
    phase: str
    players: list[int]
    stacks: list[list[int]]  # [player, stack] of the players still in, registration order
    carried: int
    level: int
    hands_played: int
    hands_at_level: int
    remaining_seconds: float | None
    structure: str | None
    finishes: list[FinishDict]
    away: list[int]


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Everything fixed when the tournament is announced.

    ``options`` holds the variant and every table option except the stakes, which come from
    ``schedule`` level by level. ``payout=None`` picks the default for the number of entrants
    when the tournament starts. ``buy_in`` is what each entrant pays into the prize pool (0 for a
    tournament played for glory).
    """

    options: TableOptions
    schedule: Schedule
    ritmo: Ritmo
    stack: int
    buy_in: int = 0
    payout: PayoutStructure | None = None
    max_players: int = 0  # 0: the table's seats

    def __post_init__(self) -> None:
        if self.schedule.variant is not self.options.variant:
            raise ValueError("the schedule and the table options name different variants")
        for name in ("stack", "buy_in", "max_players"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise EngineError(f"L'opzione {name} deve essere un numero intero.")
        if self.stack < 1:
            raise EngineError("Lo stack iniziale deve essere almeno 1 fiche.")
        if self.buy_in < 0:
            raise EngineError("L'iscrizione non può costare meno di zero.")
        if self.payout is not None:
            try:
                object.__setattr__(self, "payout", PayoutStructure(self.payout))
            except ValueError:
                raise EngineError(
                    f"La ripartizione «{self.payout}» non esiste: scegli vincitore, 65-35 o 50-30-20."
                ) from None
        seats = self.options.max_seats
        if self.max_players == 0:
            object.__setattr__(self, "max_players", seats)
        if not 2 <= self.max_players <= seats:
            raise EngineError(f"I giocatori di un torneo vanno da 2 a {seats}.")
        if self.payout is not None and self.payout.places > self.max_players:
            raise EngineError(f"La ripartizione {self.payout} paga più posti dei giocatori ammessi.")

    @classmethod
    def default(cls, variant: Variant | str, **changes: Any) -> TournamentConfig:
        """The default tournament of a variant (``structure.default_*``), with ``changes`` applied.

        Texas and 32carte tournaments play no-limit unless ``options`` says otherwise.
        """
        v = Variant(variant)
        options = TableOptions(v, limite=None if v is Variant.ITALIANA else Limit.NOLIMIT)
        base = cls(options, default_schedule(v), default_ritmo(), default_stack(v))
        return replace(base, **changes)

    def to_dict(self) -> ConfigDict:
        return {
            "options": self.options.to_dict(),
            "schedule": str(self.schedule.kind),
            "cip": self.schedule.cip,
            "invito": self.schedule.invito,
            "ritmo": self.ritmo.every,
            "ritmo_unit": str(self.ritmo.unit),
            "stack": self.stack,
            "buy_in": self.buy_in,
            "payout": None if self.payout is None else str(self.payout),
            "max_players": self.max_players,
        }

    @classmethod
    def from_dict(cls, data: ConfigDict) -> TournamentConfig:
        options = TableOptions.from_dict(dict(data["options"]))
        schedule = Schedule(options.variant, ScheduleKind(data["schedule"]), data["cip"], data["invito"])
        payout = data["payout"]
        return cls(
            options,
            schedule,
            Ritmo(data["ritmo"], RitmoUnit(data["ritmo_unit"])),
            data["stack"],
            data["buy_in"],
            None if payout is None else PayoutStructure(payout),
            data["max_players"],
        )


class Tournament:
    """One sit-and-go at one table, from registration to the prizes. See the module docstring."""

    def __init__(self, config: TournamentConfig) -> None:
        self.config = config
        self.phase = Phase.ISCRIZIONI
        self.players: list[int] = []  # registration order (also the order of odd chips in ties)
        self._stacks: dict[int, int] = {}  # players still in -> stack at the last boundary
        self.carried = 0  # the carried paròl pot at the last boundary (italiana)
        self.level_number = 1
        self.hands_played = 0
        self.hands_at_level = 0
        self.remaining_seconds: float | None = None
        self._since: float | None = None  # the ``now`` the remaining time was last measured at
        self.structure: PayoutStructure | None = None
        self._finishes: dict[int, tuple[int, int]] = {}  # player -> (place, prize)
        self.away: set[int] = set()

    # ------------------------------------------------------------------ registration

    def register(self, player: int) -> None:
        if self.phase is not Phase.ISCRIZIONI:
            raise EngineError("Le iscrizioni a questo torneo sono chiuse.")
        if player in self.players:
            raise EngineError("Sei già iscritto a questo torneo.")
        if len(self.players) >= self.config.max_players:
            raise EngineError(f"Il torneo è al completo: al massimo {self.config.max_players} giocatori.")
        self.players.append(player)

    def unregister(self, player: int) -> None:
        """Withdraw before the start (the caller refunds the buy-in)."""
        if self.phase is not Phase.ISCRIZIONI:
            raise EngineError("Il torneo è già iniziato: non puoi più ritirarti.")
        if player not in self.players:
            raise EngineError("Non sei iscritto a questo torneo.")
        self.players.remove(player)

    def start(self, now: float | None = None) -> None:
        """Close the registrations: stacks, the payout structure and, for a time-based ritmo,
        the clock of level 1 (``now`` is then required)."""
        if self.phase is not Phase.ISCRIZIONI:
            raise EngineError("Il torneo è già iniziato.")
        entrants = len(self.players)
        if entrants < 2:
            raise EngineError("Per iniziare un torneo servono almeno 2 iscritti.")
        structure = self.config.payout or default_structure(entrants)
        if structure.places > entrants:
            raise EngineError(
                f"La ripartizione {structure} paga {structure.places} posti: servono almeno "
                f"{structure.places} iscritti."
            )
        if self.config.ritmo.by_time and now is None:
            raise ValueError("a time-based ritmo needs ``now`` to start the level clock")
        self.structure = structure
        self._stacks = dict.fromkeys(self.players, self.config.stack)
        self.phase = Phase.IN_CORSO
        if self.config.ritmo.by_time:
            self.remaining_seconds = float(self.config.ritmo.seconds)
            self._since = now

    def cancel(self) -> None:
        """Call the tournament off (the caller refunds every buy-in)."""
        if self.phase in (Phase.FINITO, Phase.ANNULLATO):
            raise EngineError("Il torneo è già concluso.")
        self.phase = Phase.ANNULLATO
        self._since = None

    # ------------------------------------------------------------------ queries

    @property
    def level(self) -> Level:
        return self.config.schedule.level(self.level_number)

    @property
    def pool(self) -> int:
        """The prize pool: every entrant's buy-in."""
        return self.config.buy_in * len(self.players)

    @property
    def total_chips(self) -> int:
        return self.config.stack * len(self.players)

    def prizes(self) -> tuple[int, ...]:
        """The prize of each place, 1st first (known once the tournament has started)."""
        if self.structure is None:
            raise EngineError("Il torneo non è ancora iniziato.")
        return place_prizes(self.pool, self.structure, len(self.players))

    def stacks(self) -> dict[int, int]:
        """The players still in and their stacks at the last hand boundary."""
        return dict(self._stacks)

    def alive(self) -> tuple[int, ...]:
        return tuple(self._stacks)

    def finishes(self) -> dict[int, tuple[int, int]]:
        """Player -> (place, prize) for every player out of the game (and the winner at the end)."""
        return dict(self._finishes)

    def standings(self) -> tuple[Standing, ...]:
        """Players still in (biggest stack first, place ``None``), then the finished by place."""
        order = {p: i for i, p in enumerate(self.players)}
        living = sorted(
            ((p, s) for p, s in self._stacks.items() if p not in self._finishes),
            key=lambda item: (-item[1], order[item[0]]),
        )
        done = sorted(self._finishes.items(), key=lambda item: (item[1][0], order[item[0]]))
        return tuple(Standing(p, None, 0, s) for p, s in living) + tuple(
            Standing(p, place, prize, self._stacks.get(p, 0)) for p, (place, prize) in done
        )

    def hands_to_next_level(self) -> int | None:
        """Hands left at this level with a hand-based ritmo (``None`` with a time-based one)."""
        if self.config.ritmo.by_time:
            return None
        return self.config.ritmo.every - self.hands_at_level

    def seconds_to_next_level(self, now: float | None = None) -> float | None:
        """Seconds left at this level with a time-based ritmo, at ``now`` if the clock runs (for
        the status message; nothing changes). ``None`` with a hand-based ritmo."""
        if self.remaining_seconds is None:
            return None
        if now is None or self._since is None:
            return self.remaining_seconds
        return self.remaining_seconds - max(0.0, now - self._since)

    def options_for_current_level(self) -> TableOptions:
        """The table options for the next hand: the configured ones with this level's stakes."""
        level = self.level
        invito = level.invito if level.invito else self.config.options.invito
        return replace(self.config.options, cip=level.cip, invito=invito)

    # ------------------------------------------------------------------ presence and the clock

    def set_away(self, player: int, away: bool) -> None:
        """Mark a player away (he is dealt in and folded at once, rules §5.5) or back."""
        if player not in self._stacks:
            raise EngineError("Non sei in gioco in questo torneo.")
        if away:
            self.away.add(player)
        else:
            self.away.discard(player)

    def pause(self, now: float) -> None:
        """Stop the level clock (the time left is kept)."""
        self._tick(now)
        self._since = None

    def resume(self, now: float) -> None:
        """Restart the level clock from ``now`` (after a restore or a pause)."""
        if self.phase is Phase.IN_CORSO and self.config.ritmo.by_time:
            self._tick(now)
            self._since = now

    def _tick(self, now: float | None) -> None:
        if self.remaining_seconds is None or now is None:
            return
        if self._since is not None:
            if now < self._since:
                raise ValueError(f"time went backwards: {now} < {self._since}")
            self.remaining_seconds -= now - self._since
        self._since = now

    # ------------------------------------------------------------------ the hand boundary

    def apply_hand_result(
        self, new_stacks: Mapping[int, int], carried: int = 0, now: float | None = None
    ) -> list[TournamentEvent]:
        """One hand is over: ``new_stacks`` are the table's stacks (a player missing from it has
        none left), ``carried`` the paròl pot carried to the next hand. Returns the eliminations,
        then the level change or the end of the tournament."""
        if self.phase is not Phase.IN_CORSO:
            raise EngineError("Il torneo non è in corso.")
        unknown = set(new_stacks) - set(self._stacks)
        if unknown:
            raise ValueError(f"players not in the tournament: {sorted(unknown)}")
        if any(v < 0 for v in new_stacks.values()) or carried < 0:
            raise ValueError("negative stack or carried pot")
        after = {p: new_stacks.get(p, 0) for p in self._stacks}
        if sum(after.values()) + carried != self.total_chips:
            raise ValueError(
                f"the stacks and the carried pot hold {sum(after.values()) + carried} chips, "
                f"the tournament {self.total_chips}"
            )
        if self.config.ritmo.by_time:
            if now is None:
                raise ValueError("a time-based ritmo needs ``now`` at every hand boundary")
            if self._since is not None and now < self._since:
                raise ValueError(f"time went backwards: {now} < {self._since}")
        events: list[TournamentEvent] = []
        busted = [p for p, s in after.items() if s == 0]
        start = self._stacks
        survivors = {p: s for p, s in after.items() if s > 0}
        if busted:
            events.extend(self._eliminate(busted, start, len(survivors)))
        self._stacks = survivors
        self.carried = carried
        self.hands_played += 1
        self.hands_at_level += 1
        if len(survivors) <= 1:
            events.append(self._finish())
            return events
        self.away &= set(survivors)
        previous = self.level_number
        if self.config.ritmo.by_time:
            self._tick(now)
            assert self.remaining_seconds is not None
            while self.remaining_seconds <= 0:
                self.level_number += 1
                self.remaining_seconds += self.config.ritmo.seconds
        elif self.hands_at_level >= self.config.ritmo.every:
            self.level_number += 1
        if self.level_number != previous:
            self.hands_at_level = 0
            events.append(LevelUp(self.level, previous))
        return events

    def _eliminate(self, busted: list[int], start: Mapping[int, int], left: int) -> list[TournamentEvent]:
        """Places for the players busted in one hand: a bigger stack at the start of the hand
        finishes better; equal stacks share the places and their prizes (module payouts)."""
        prizes = self.prizes()
        order = {p: i for i, p in enumerate(self.players)}
        busted.sort(key=lambda p: (-start[p], order[p]))
        events: list[TournamentEvent] = []
        place = left + 1
        i = 0
        while i < len(busted):
            group = [p for p in busted if start[p] == start[busted[i]]]
            total = sum(prizes[place - 1 : place - 1 + len(group)])
            shares = share_evenly(total, group)
            for p in group:
                self._finishes[p] = (place, shares[p])
                others = tuple(q for q in group if q != p)
                events.append(PlayerEliminated(p, place, shares[p], others))
            place += len(group)
            i += len(group)
        return events

    def _finish(self) -> TournamentFinished:
        prizes = self.prizes()
        for p in self._stacks:
            self._finishes[p] = (1, prizes[0])
        self.phase = Phase.FINITO
        self._since = None
        return TournamentFinished(self.standings(), prizes)

    # ------------------------------------------------------------------ persistence

    def to_dict(self) -> TournamentDict:
        """The tournament at its last boundary (JSON-compatible). The level clock is saved as the
        time left then; the restored tournament is paused until ``resume``."""
        return {
            "version": _STATE_VERSION,
            "config": self.config.to_dict(),
            "phase": str(self.phase),
            "players": list(self.players),
            "stacks": [[p, s] for p, s in self._stacks.items()],
            "carried": self.carried,
            "level": self.level_number,
            "hands_played": self.hands_played,
            "hands_at_level": self.hands_at_level,
            "remaining_seconds": self.remaining_seconds,
            "structure": None if self.structure is None else str(self.structure),
            "finishes": [
                {"player": p, "place": place, "prize": prize}
                for p, (place, prize) in sorted(self._finishes.items())
            ],
            "away": sorted(self.away),
        }

    @classmethod
    def from_dict(cls, data: TournamentDict) -> Tournament:
        if data.get("version") != _STATE_VERSION:
            raise EngineError("Lo stato salvato del torneo ha una versione sconosciuta.")
        t = cls(TournamentConfig.from_dict(data["config"]))
        t.phase = Phase(data["phase"])
        t.players = [int(p) for p in data["players"]]
        t._stacks = {int(p): int(s) for p, s in data["stacks"]}
        t.carried = int(data["carried"])
        t.level_number = int(data["level"])
        t.hands_played = int(data["hands_played"])
        t.hands_at_level = int(data["hands_at_level"])
        remaining = data["remaining_seconds"]
        t.remaining_seconds = None if remaining is None else float(remaining)
        structure = data["structure"]
        t.structure = None if structure is None else PayoutStructure(structure)
        t._finishes = {int(f["player"]): (int(f["place"]), int(f["prize"])) for f in data["finishes"]}
        t.away = {int(p) for p in data["away"]}
        return t
