"""Shared helper of the computer-player tests: the scan that proves no held card is public before
its showdown (cash tables and tournaments alike)."""

from __future__ import annotations

from typing import Any

from engine.cards import Card
from engine.events import CardsDealt, CardsDrawn, HandShown, OpeningShown
from engine.history import replay


class CardWatch:
    """Scans every public text of a hand for the cards any player held (the engine's own record)."""

    def __init__(self, harness: Any) -> None:
        self.h = harness
        self.start = 0

    def begin(self) -> None:
        self.start = len(self.h.public_texts())

    def _texts(self) -> list[str]:
        # An edit that only takes the buttons off an older message repeats that message's lines,
        # public before this hand began (an earlier showdown): they reveal nothing new.
        texts = self.h.public_texts()
        earlier = {line for text in texts[: self.start] for line in text.splitlines()}
        return ["\n".join(ln for ln in t.splitlines() if ln not in earlier) for t in texts[self.start :]]

    def _attachments(self) -> list[str]:
        found = []
        for message in self.h.messages("poker"):
            for attachment in message.attachments:
                found.append(f"{attachment.filename}\n{attachment.description or ''}")
                if attachment.content_type.startswith("text/"):
                    found.append(attachment.data.decode("utf-8", "replace"))
        return found

    def check(self, cards: set[Card], where: str) -> None:
        texts = self._texts() + self._attachments()
        for card in cards:
            for text in texts:
                assert str(card) not in text, f"{card} is public {where}:\n{text}"

    def during(self, live: Any) -> None:
        held = {c for seat in live.view().seats for c in live.table.cards_of(seat.player)}
        self.check(held, "during the hand")

    def ended(self, live: Any) -> None:
        _, events = replay(live.table.hand_record())
        held: set[Card] = set()
        for event in events:
            if isinstance(event, CardsDealt) and event.private_to is not None:
                held.update(event.cards)
            elif isinstance(event, CardsDrawn) and event.private_to is not None:
                held.update(event.discarded)
                held.update(event.received)
        assert held, "the record holds every card dealt"
        shown = {c for e in events if isinstance(e, HandShown | OpeningShown) for c in e.cards}
        self.check(held - shown, "after the hand (never shown)")
