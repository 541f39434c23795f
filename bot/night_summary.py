"""The night's summary of a table: `/tavolo riepilogo` at any time, and by itself when it closes.

"The night" is the table's life: from `/tavolo nuovo` to now, or to `/tavolo chiudi`. Each player's
result is what the ledger says about this table (bot/storage/stats.py): the chips he brought to it
(every buy-in, a second one included), the chips that went back to his balance (leaving, the
closing, a refund) and what is in front of him now. The text names players by mention (nobody is
pinged: the bot sends with mentions disabled); the bar chart beside it (bot/pictures) needs their
names as text, which are asked of Discord once per summary.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Iterable
from dataclasses import dataclass

import discord

from bot import render
from bot.computers import is_computer
from bot.computers import name_of as computer_name
from bot.pictures import ResultRow, results_chart_png
from bot.storage import TableSessionSummary
from engine.italian import plural

__all__ = [
    "CHART_FILE",
    "MAX_CHART_ROWS",
    "NightMessage",
    "chart_rows",
    "display_names",
    "summary_embed",
    "summary_message",
]

log = logging.getLogger(__name__)

CHART_FILE = "riepilogo.png"
MAX_CHART_ROWS = 25
"""A chart with more players would be too tall to read: the ones with the largest results stay."""
_LINE_LIMIT = 3800


def _net(amount: int) -> str:
    if amount > 0:
        return f"+{render.chips(amount)}"
    if amount < 0:
        return f"−{render.chips(-amount)}"
    return "pari"


def summary_embed(night: TableSessionSummary, *, closed: bool) -> discord.Embed:
    """The summary as text: hands, each player's net (best first), the biggest pot, the best hand."""
    embed = discord.Embed(title="Riepilogo della serata", colour=render.COLOUR)
    span = "dall'apertura alla chiusura" if closed else "dall'apertura a ora"
    hands = f"{night.hands} {plural(night.hands, 'mano giocata', 'mani giocate')}"
    cancelled = ""
    if night.cancelled:
        cancelled = (
            f" ({night.cancelled} annullate da un riavvio)"
            if night.cancelled > 1
            else (" (1 annullata da un riavvio)")
        )
    lines = [f"Tavolo di {render.variant_name(night.variant)}, {span}: {hands}{cancelled}."]
    if night.players:
        lines.append("")
        lines.append("**Risultati** (fiches portate al tavolo, riportate nel saldo o ancora davanti):")
        for i, player in enumerate(night.players):
            line = (
                f"{render.mention(player.user_id)}: **{_net(player.net)}** "
                f"(portate {render.chips(player.bought_in)}, "
                + (
                    f"riportate {render.chips(player.taken_out)}, al tavolo {render.chips(player.at_table)})"
                    if player.at_table
                    else f"riportate {render.chips(player.taken_out)})"
                )
            )
            if sum(len(x) + 1 for x in lines) + len(line) > _LINE_LIMIT:
                more = len(night.players) - i
                lines.append(plural(more, "… e un altro giocatore.", f"… e altri {more} giocatori."))
                break
            lines.append(line)
    else:
        lines.append("Nessuno si è ancora seduto.")
    lines.append("")
    if night.biggest_pot is not None:
        chips, user, number = night.biggest_pot
        lines.append(
            f"**Piatto più grande**: {render.chips(chips)} a {render.mention(user)} nella mano n. {number}."
        )
    if night.best_hand is not None:
        text, user, number = night.best_hand
        lines.append(f"**Miglior mano mostrata**: {text}, di {render.mention(user)} nella mano n. {number}.")
    if night.biggest_pot is None and night.best_hand is None:
        lines.append("Nessun piatto vinto." if closed else "Nessun piatto vinto finora.")
    embed.description = "\n".join(lines).strip()
    embed.set_footer(text="La serata è la vita del tavolo: da /tavolo nuovo a /tavolo chiudi.")
    return embed


async def display_names(client: discord.Client, user_ids: Iterable[int]) -> dict[int, str]:
    """Each player's name as Discord shows it (for the chart, which cannot show a mention)."""
    names: dict[int, str] = {}
    for user_id in user_ids:
        if is_computer(user_id):
            names[user_id] = computer_name(user_id)  # no Discord account to ask
            continue
        user = client.get_user(user_id)
        if user is None:
            try:
                user = await client.fetch_user(user_id)
            except discord.HTTPException:
                user = None
        names[user_id] = user.display_name if user is not None else f"giocatore {user_id}"
    return names


def chart_rows(night: TableSessionSummary, names: dict[int, str]) -> list[ResultRow]:
    """The players with the largest results (won or lost), in the order of the text (best first)."""
    kept = sorted(night.players, key=lambda p: -abs(p.net))[:MAX_CHART_ROWS]
    keep = {p.user_id for p in kept}
    return [
        ResultRow(names.get(p.user_id, str(p.user_id)), p.net) for p in night.players if p.user_id in keep
    ]


@dataclass(frozen=True)
class NightMessage:
    """What the channel receives: the text (an embed) and the chart beside it (none when nobody sat)."""

    embed: discord.Embed
    files: list[discord.File]


async def summary_message(
    client: discord.Client, night: TableSessionSummary, *, closed: bool
) -> NightMessage:
    """The summary and its chart, drawn in a worker thread (Pillow must not hold up the event loop)."""
    embed = summary_embed(night, closed=closed)
    if not night.players:
        return NightMessage(embed, [])
    names = await display_names(client, [p.user_id for p in night.players])
    rows = chart_rows(night, names)
    try:
        png = await asyncio.to_thread(results_chart_png, rows, title="Risultati della serata")
    except Exception:  # the chart is a nicety: the summary goes out without it
        log.exception("The night's chart could not be drawn")
        return NightMessage(embed, [])
    embed.set_image(url=f"attachment://{CHART_FILE}")
    return NightMessage(embed, [discord.File(io.BytesIO(png), filename=CHART_FILE)])
