"""Card pictures in play: the private hand as a PNG, the texas board and the showdown on the table message.

bot/pictures draws; this module decides what goes where and when, for the table's session:

- a private hand (the DM at the deal and after the draw, `/carte`, «Le mie carte») gets a picture of
  the cards in the holding order (`engine.cards.hand_order`) beside its text;
- the table message shows one picture as its embed image, uploaded as an attachment: the texas
  board while the hand runs (once the flop is out), and after a showdown the hands shown, with
  names and the board. The text of the cards stays in the message (screen readers, data savers).

An edit re-uploads the picture only when it changed (`TablePicture.edit_files`): Discord keeps a
message's attachments when an edit does not name them, so the dozens of edits of a hand carry no
file but the three board changes and the showdown. A showdown takes a few milliseconds to draw, so
it is drawn with `asyncio.to_thread`: the result shows at once in text, and its picture follows in
the next edit (the renderer is woken when it is drawn).
Nothing here sees a hole card before the showdown: the board is public and the showdown rows come
from the public `HandShown` events only.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.pictures import ShowdownRow, board_png, hand_png, showdown_png
from engine.cards import Card, hand_order
from engine.events import Event, HandShown, PotAwarded

__all__ = [
    "BOARD_FILE",
    "HAND_FILE",
    "SHOWDOWN_FILE",
    "Picture",
    "TablePicture",
    "hand_files",
    "hand_picture",
    "showdown_rows",
]

log = logging.getLogger(__name__)

HAND_FILE = "carte.png"
BOARD_FILE = "tavola.png"
SHOWDOWN_FILE = "mano.png"


def hand_picture(cards: Sequence[Card]) -> bytes | None:
    """A private hand as a PNG in the holding order (None for no cards): drawn inline, about 0.15 ms."""
    return hand_png(hand_order(cards)) if cards else None


def hand_files(picture: bytes | None) -> list[discord.File]:
    """The attachment of a private hand's message (none without a picture)."""
    return [] if picture is None else [discord.File(io.BytesIO(picture), filename=HAND_FILE)]


def showdown_rows(events: Iterable[Event], name_of: Callable[[int], str]) -> list[ShowdownRow]:
    """One row per hand shown (public `HandShown` events only), winners of a shown pot marked."""
    events = list(events)
    winners = {p for e in events if isinstance(e, PotAwarded) and e.shown for p in e.winners}
    rows: list[ShowdownRow] = []
    for event in events:
        if isinstance(event, HandShown) and event.private_to is None:
            rows.append(ShowdownRow(name_of(event.player), event.cards, event.hand, event.player in winners))
    return rows


@dataclass(frozen=True, slots=True)
class Picture:
    """One picture of the table message: ``key`` says what it shows (two equal keys, same bytes)."""

    key: str
    filename: str
    data: bytes

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.filename)


class TablePicture:
    """The picture the table message shows, and which message already has it uploaded."""

    def __init__(self) -> None:
        self.current: Picture | None = None
        self._uploaded: dict[int, str] = {}  # message id -> key of the picture it holds
        self._generation = 0
        self._drawing: asyncio.Task[None] | None = None

    async def drawn(self, timeout: float) -> None:
        """Wait (at most ``timeout``) for a showdown still being drawn: a hand dealt before it is
        done would throw it away, and the last hand's message would never show it."""
        task = self._drawing
        if task is not None and not task.done():
            # Done, failed (logged by `_log_failure`: the picture is only lost) or too slow: go on.
            await asyncio.wait({task}, timeout=timeout)

    def new_hand(self) -> None:
        """A hand begins on a new message: no picture until the flop."""
        self._generation += 1
        self.current = None
        self._uploaded.clear()  # the last hand's message is never edited with a picture again

    def show_board(self, board: Sequence[Card]) -> None:
        """The texas board changed (flop, turn, river): one small picture, drawn inline."""
        if not board:
            return
        key = "tavola:" + " ".join(card.ascii for card in board)
        if self.current is None or self.current.key != key:
            self.current = Picture(key, BOARD_FILE, board_png(board))

    def show_showdown(
        self,
        rows: Sequence[ShowdownRow],
        board: Sequence[Card],
        on_ready: Callable[[], None],
        tasks: set[asyncio.Task[None]],
    ) -> None:
        """The hands shown at the end: drawn in a thread, then ``on_ready`` (the session re-renders).
        The drawing is one of ``tasks`` while it runs, so that shutting down cancels it."""
        if not rows:
            return
        generation = self._generation
        key = "mano:" + "|".join(f"{r.name}:{' '.join(c.ascii for c in r.cards)}" for r in rows)
        shown_board = tuple(board) or None

        async def draw() -> None:
            data = await asyncio.to_thread(showdown_png, list(rows), shown_board)
            if generation == self._generation:
                self.current = Picture(key, SHOWDOWN_FILE, data)
                on_ready()

        task = asyncio.get_running_loop().create_task(draw(), name="showdown-picture")
        self._drawing = task
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        task.add_done_callback(_log_failure)

    # What a send or an edit carries ----------------------------------------------------------------

    def decorate(self, embed: discord.Embed) -> None:
        """Point the embed's image at the attachment (the text of the cards stays in the embed)."""
        if self.current is not None:
            embed.set_image(url=f"attachment://{self.current.filename}")

    def send_files(self) -> tuple[dict[str, Any], str | None]:
        """Keyword arguments of a new message, and the key it uploads."""
        if self.current is None:
            return {}, None
        return {"files": [self.current.file()]}, self.current.key

    def edit_files(self, message_id: int | None) -> tuple[dict[str, Any], str | None]:
        """Keyword arguments of an edit: a new upload only when the message holds another picture."""
        held = self._uploaded.get(message_id) if message_id is not None else None
        if self.current is None:
            return ({"attachments": []}, "") if held else ({}, None)
        if held == self.current.key:
            return {}, None
        return {"attachments": [self.current.file()]}, self.current.key

    def final_files(self, message_id: int) -> Callable[[], dict[str, Any]]:
        """What the last edit of ``message_id`` must carry, as a maker of fresh keyword arguments (a
        new upload for each attempt): it outlives `new_hand`, which forgets what the message holds."""
        held, current = self._uploaded.get(message_id), self.current
        if current is None:
            return (lambda: {"attachments": []}) if held else dict
        if held == current.key:
            return dict
        return lambda: {"attachments": [current.file()]}

    def restored(self, message_id: int | None) -> None:
        """After a restart nobody knows what picture ``message_id`` holds: its next edit drops it
        (the picture went with the memory of the hand, like the results' text)."""
        if message_id is not None:
            self._uploaded[message_id] = "?"

    def uploaded(self, message_id: int | None, key: str | None) -> None:
        """The send or edit went through: ``message_id`` now holds picture ``key`` ("" = none)."""
        if message_id is not None and key is not None:
            self._uploaded[message_id] = key


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("A showdown picture could not be drawn", exc_info=task.exception())
