"""What a tournament says in the channel: the announcement, the status, level changes, eliminations
and the final standings (Italian, like every text players read)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

import discord

from bot.computers import is_computer, is_feminine
from bot.render import COLOUR, chips, mention, variant_name
from engine.events import ActionTaken, Event, PlayerTimedOut
from engine.italian import chips_return, plural
from engine.options import Variant
from engine.tournament import LevelUp, PayoutStructure, Phase, PlayerEliminated, Standing, Tournament

__all__ = [
    "announcement",
    "elimination_text",
    "level_text",
    "ordinal",
    "over_at_the_deal",
    "picture_rows",
    "refund_text",
    "status_embed",
    "table_title",
    "winners_text",
    "withdrawal_text",
]


def ordinal(place: int) -> str:
    return f"{place}°"


def over_at_the_deal(events: Sequence[Event]) -> str:
    """Why a hand ended at its deal, with no turn for anyone present: either every player went all-in
    with the forced bets, or the away players' turns, played at once, left nobody to play against."""
    if any(isinstance(e, ActionTaken | PlayerTimedOut) for e in events):
        return "finita alla distribuzione, con i turni dei giocatori assenti giocati subito"
    return "tutti all-in con le puntate obbligate"


def withdrawal_text(player: int, variant: Variant) -> str:
    """/torneo ritirati after the start: the player is not paid out, he is blinded away (rules §7)."""
    forced = "l'invito" if variant is Variant.ITALIANA else "i bui"
    return (
        f"{mention(player)} si ritira dal torneo: da ora è assente, le sue fiches restano in gioco "
        f"(posta {forced} e passa a ogni turno). Con «Rientro» o /tavolo rientra torna a giocare."
    )


def _stakes(tournament: Tournament) -> str:
    return tournament.level.describe(tournament.config.options.variant)


def _ritmo(tournament: Tournament) -> str:
    ritmo = tournament.config.ritmo
    unit = plural(ritmo.every, "minuto", "minuti") if ritmo.by_time else plural(ritmo.every, "mano", "mani")
    return f"un livello ogni {unit}" if ritmo.every == 1 else f"un livello ogni {ritmo.every} {unit}"


PAYOUT_WORDS = {
    PayoutStructure.VINCITORE: "tutto al vincitore",
    PayoutStructure.SESSANTACINQUE: "65% e 35%",
    PayoutStructure.CINQUANTA: "50%, 30% e 20%",
}
"""The payouts as /torneo nuovo's choices name them (cogs/torneo.py), not by their stored values."""


def _payout_line(tournament: Tournament) -> str:
    if tournament.structure is None:
        payout = tournament.config.payout
        how = PAYOUT_WORDS[payout] if payout is not None else "secondo il numero di iscritti"
        return f"Montepremi {chips(tournament.pool)}, ripartizione: {how}."
    structure = PAYOUT_WORDS[tournament.structure]
    prizes = [p for p in tournament.prizes() if p]
    if not prizes:
        return f"Montepremi {chips(tournament.pool)} ({structure}): si gioca per la gloria."
    paid = ", ".join(f"{ordinal(i)} {chips(p)}" for i, p in enumerate(prizes, start=1))
    return f"Montepremi {chips(tournament.pool)} ({structure}): {paid}."


def announcement(creator: int, tournament: Tournament) -> str:
    config = tournament.config
    variant = config.options.variant
    return (
        f"{mention(creator)} organizza un torneo di {variant_name(variant)}: iscrizione "
        f"{chips(config.buy_in)}, {config.max_players} posti, {chips(config.stack)} di gettoni a testa, "
        f"struttura {config.schedule.kind}, {_ritmo(tournament)}; si parte da {_stakes(tournament)}. "
        "Iscrivetevi con /torneo iscriviti."
    )


def table_title(tournament: Tournament) -> str:
    """The tournament table message's title: "Torneo di texas: livello 2: bui 20/40"."""
    return f"Torneo di {variant_name(tournament.config.options.variant)}: {_stakes(tournament)}"


def level_text(event: LevelUp, variant: Variant) -> str:
    return f"Salgono le puntate: dalla prossima mano {event.level.describe(variant)}."


def elimination_text(event: PlayerEliminated) -> str:
    prize = f", premio {chips(event.prize)}" if event.prize else ""
    shared = (
        f" (a pari merito con {', '.join(mention(p) for p in event.tied_with)})" if event.tied_with else ""
    )
    out = "eliminata" if is_feminine(event.player) else "eliminato"
    return f"{mention(event.player)} è {out}: {ordinal(event.place)} posto{shared}{prize}."


def _final_places(tournament: Tournament) -> list[tuple[int, Standing]]:
    """Every entrant's final place and standing, best first: the winner, never eliminated, is first."""
    return [(s.place or 1, s) for s in tournament.standings()]


def winners_text(tournament: Tournament) -> str:
    """The final standings, best first."""
    hands = tournament.hands_played
    lines = [f"Torneo finito dopo {hands} {plural(hands, 'mano', 'mani')}. Classifica finale:"]
    for place, standing in _final_places(tournament):
        prize = f": {chips(standing.prize)}" if standing.prize else ""
        lines.append(f"{ordinal(place)} {mention(standing.player)}{prize}")
    return "\n".join(lines)


def status_embed(tournament: Tournament) -> discord.Embed:
    """/torneo stato: the level and when the next comes, stacks, average, players left, payouts.

    The level clock runs on the monotonic clock (bot/tournaments.py: a wall clock stepped back must
    not stop a tournament); only the time shown to the players is the wall clock's."""
    config = tournament.config
    variant = config.options.variant
    title = f"Torneo di {variant_name(variant)}"
    embed = discord.Embed(title=title, colour=COLOUR)
    if tournament.phase is Phase.ISCRIZIONI:
        entrants = ", ".join(mention(p) for p in tournament.players) or "nessuno"
        embed.description = (
            f"Iscrizioni aperte: {len(tournament.players)} di {config.max_players} ({entrants}). "
            f"Iscrizione {chips(config.buy_in)}, {chips(config.stack)} di gettoni a testa, "
            f"{_ritmo(tournament)}, si parte da {_stakes(tournament)}."
        )
        embed.add_field(name="Premi", value=_payout_line(tournament), inline=False)
        return embed
    lines = [f"{_stakes(tournament)[0].upper()}{_stakes(tournament)[1:]}."]
    if tournament.phase is Phase.IN_CORSO:
        following = config.schedule.level(tournament.level_number + 1).describe(variant)
        hands = tournament.hands_to_next_level()
        seconds = tournament.seconds_to_next_level(time.monotonic())
        if hands is not None:
            when = "dopo questa mano" if hands <= 1 else f"tra {hands} mani"
        else:
            when = f"<t:{int(time.time() + max(0.0, seconds or 0.0))}:R> (alla fine della mano in corso)"
        lines.append(f"Prossimo {following}: {when}.")
    alive = tournament.stacks()
    if alive:
        average = sum(alive.values()) // len(alive)
        lines.append(
            f"In gioco {len(alive)} di {len(tournament.players)}; stack medio {chips(average)}; "
            f"mani giocate {tournament.hands_played}."
        )
    embed.description = "\n".join(lines)
    standings = []
    for s in tournament.standings():
        if s.place is None:
            away = " (assente)" if s.player in tournament.away else ""
            standings.append(f"{mention(s.player)}: {chips(s.stack)}{away}")
        else:
            prize = f", {chips(s.prize)}" if s.prize else ""
            standings.append(f"{ordinal(s.place)} {mention(s.player)}{prize}")
    embed.add_field(name="Giocatori", value="\n".join(standings)[:1024] or "—", inline=False)
    embed.add_field(name="Premi", value=_payout_line(tournament), inline=False)
    return embed


def picture_rows(tournament: Tournament, names: Mapping[int, str]) -> list[tuple[int, str, int]]:
    """(place, name, prize) of every entrant, best first, for the standings picture."""
    return [(place, names.get(s.player, str(s.player)), s.prize) for place, s in _final_places(tournament)]


def refund_text(refunds: Sequence[int], amount: int) -> str:
    if not refunds or not amount:
        return "Nessuna iscrizione da restituire."
    people = [p for p in refunds if not is_computer(p)]
    house = len(refunds) - len(people)
    text = f"{chips_return(amount)} nel saldo di {', '.join(mention(p) for p in people)}." if people else ""
    if house:
        verb = plural(amount * house, "torna", "tornano")
        text += f" {chips(amount * house)} dei giocatori del computer {verb} alla casa."
    return text.strip()
