"""A player's statistics on one server (`/statistiche`), per variant, from the hand summaries, and
his finished tournaments (places stored with the prizes, the net from the ledger).

The figures are aggregates the storage computes (bot/storage/stats.py) over one row per player per
finished hand; this module only words them. "Best hand" is the hand with the highest strength the
player showed at a showdown, in the engine's order of that variant's ranking (rules §1). A strength
starts with the hand's category position in its own ranking, so poker tradizionale played with the
American deck (international ranking) and with the short deck compare by "the higher category of its
game" first; the scala reale cycle (rules §1.1) is not an order, and the massima counts as the best.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot import render
from bot.storage import TournamentStats, VariantStats

__all__ = ["stats_embed", "tournaments_text"]


def _net(amount: int) -> str:
    return f"+{render.chips(amount)}" if amount >= 0 else f"−{render.chips(-amount)}"


def tournaments_text(row: TournamentStats) -> str:
    """The player's finished tournaments: how many, how many won and in the money, the best place
    and the net in server chips (prizes minus buy-ins)."""
    return "\n".join(
        [
            f"Tornei giocati: {row.played}, vinti: {row.won}, a premio: {row.in_the_money}",
            f"Miglior piazzamento: {row.best_place}°",
            f"Risultato netto: {_net(row.net)}",
        ]
    )


def stats_embed(
    user_id: int, stats: Sequence[VariantStats], tournaments: TournamentStats | None = None
) -> discord.Embed:
    embed = discord.Embed(title="Statistiche", colour=render.COLOUR)
    who = render.mention(user_id)
    if stats:
        embed.description = f"Le mani di {who} su questo server, gioco per gioco."
    elif tournaments is not None:
        embed.description = f"I tornei di {who} su questo server (nessuna mano finita ai tavoli)."
    else:
        embed.description = f"{who} non ha ancora finito nessuna mano su questo server."
    for row in stats:
        lines = [
            f"Mani giocate: {row.hands}, vinte: {row.won}",
            f"Piatti vinti allo showdown: {row.pots_showdown}, senza showdown: {row.pots_uncontested}",
            f"Risultato netto: {_net(row.net)}",
            f"Piatto più grande vinto: {render.chips(row.biggest_pot)}"
            if row.biggest_pot
            else "Nessun piatto vinto",
            f"Miglior mano mostrata: {row.best_hand}" if row.best_hand else "Nessuna mano mostrata",
        ]
        embed.add_field(name=render.variant_name(row.variant), value="\n".join(lines), inline=False)
    if tournaments is not None:
        embed.add_field(name="Tornei", value=tournaments_text(tournaments), inline=False)
    return embed
