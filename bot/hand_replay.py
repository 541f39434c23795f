"""A finished hand told again from its stored record: `/mano [numero]`.

The record (engine/history.py) is replayed on a fresh engine table, and only the public events of
the replay are told, through the same texts the table used (bot/render.py): the actions in order,
the board, the hands shown at the showdown (``HandShown``: a mucked or folded hand stays hidden, as
it did at the table), every chip movement of the result, and the fair deck's reveal with the command
that checks it when the record has one. Everything here was public when the hand was played, so the
answer may be public too.

Discord caps an embed's description at 4096 characters and a message's embeds at 6000 together: a
long hand is split at line boundaries into several embeds, and those into several messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot import render
from bot.fair_deck import command_of_record
from bot.storage import StoredHand
from engine.events import (
    Event,
    HandEnded,
    PotUpdated,
    StreetStarted,
)
from engine.history import replay

__all__ = [
    "DESCRIPTION_LIMIT",
    "MESSAGE_LIMIT",
    "ReplayError",
    "cancelled_text",
    "messages",
    "replay_embeds",
    "replay_sections",
]

DESCRIPTION_LIMIT = 4000
"""Below Discord's 4096 per description, with room for a continuation mark."""
MESSAGE_LIMIT = 5800
"""Below Discord's 6000 characters of embed text per message (titles and descriptions count)."""
EMBEDS_PER_MESSAGE = 10


class ReplayError(Exception):
    """The stored record cannot be replayed by this engine (a damaged or foreign record)."""


def cancelled_text(number: int) -> str:
    return (
        f"La mano n. {number} è stata annullata da un riavvio del bot: ogni giocatore ha riavuto "
        "le fiches che aveva all'inizio della mano, e non c'è nulla da rivedere."
    )


def replay_sections(record: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """(heading, lines) of a finished hand: actions, result, fairness. Public events only."""
    try:
        _, events = replay(record)
    except (KeyError, TypeError, ValueError, IndexError) as error:  # EngineError is a ValueError
        raise ReplayError(str(error)) from error
    public: list[Event] = render.public_events(events)
    told_later = (*render.RESULT_EVENTS, PotUpdated, HandEnded)
    actions = render.event_lines(event for event in public if not isinstance(event, told_later))
    board = [card for event in public if isinstance(event, StreetStarted) for card in event.board]
    sections = [("Azioni", actions), ("Com'è finita", render.result_lines(public, board))]
    fairness = record.get("fairness")
    if isinstance(fairness, dict) and fairness.get("commitment") and fairness.get("reveal"):
        digest, reveal = str(fairness["commitment"]), str(fairness["reveal"])
        lines = [f"Impronta: `{digest}`", f"Verifica: `{reveal}`"]
        command = fairness.get("command")
        if not command:  # a record stored before the command was kept: the same one, rebuilt
            try:
                command = command_of_record(reveal, digest, record)
            except (KeyError, TypeError, ValueError, IndexError, StopIteration):
                command = None
        if command:
            lines.append(f"Per controllare: `{command}`")
        lines.append("Confronta l'impronta con quella che il bot ti ha mandato in privato con le tue carte.")
        sections.append(("Mazzo verificabile", lines))
    return sections


def _chunks(lines: Sequence[str], limit: int) -> list[str]:
    """Lines joined into texts of at most `limit` characters; a longer line is cut (never lost silently:
    it ends with an ellipsis)."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        if len(line) > limit:
            line = line[: limit - 1] + "…"
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            candidate = line
        current = candidate
    if current:
        chunks.append(current)
    return chunks


def replay_embeds(stored: StoredHand) -> list[discord.Embed]:
    """The embeds of a finished hand, each within Discord's limits, in reading order."""
    assert stored.record is not None
    title = f"Mano n. {stored.number} — {render.variant_name(stored.variant)}"
    embeds: list[discord.Embed] = []
    for heading, lines in replay_sections(stored.record):
        if not lines:
            continue
        for i, chunk in enumerate(_chunks([f"**{heading}**", *lines], DESCRIPTION_LIMIT)):
            if i:
                chunk = f"**{heading}** (segue)\n{chunk}"
            embeds.append(discord.Embed(description=chunk, colour=render.COLOUR))
    if not embeds:
        embeds.append(discord.Embed(description="Nessuna azione registrata.", colour=render.COLOUR))
    embeds[0].title = title
    return embeds


def _size(embed: discord.Embed) -> int:
    return len(embed.title or "") + len(embed.description or "")


def messages(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """The embeds grouped into messages of at most 10 embeds and 5,800 characters each."""
    groups: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        if not groups or size + _size(embed) > MESSAGE_LIMIT or len(groups[-1]) >= EMBEDS_PER_MESSAGE:
            groups.append([])
            size = 0
        groups[-1].append(embed)
        size += _size(embed)
    return groups
