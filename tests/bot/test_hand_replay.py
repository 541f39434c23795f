"""Telling a stored hand again (bot/hand_replay.py): public events only, and Discord's size limits."""

from __future__ import annotations

from bot.hand_replay import (
    DESCRIPTION_LIMIT,
    MESSAGE_LIMIT,
    _chunks,
    messages,
    replay_embeds,
    replay_sections,
)
from bot.storage import StoredHand
from tests.bot.test_hand_summary import MUCKED, checked_down
from tests.engine.table_helpers import K, act, make_table


def test_the_replay_tells_only_what_the_table_showed() -> None:
    table = make_table("texas", players=2, cip=10)
    checked_down(table, MUCKED)
    sections = dict(replay_sections(table.hand_record()))
    assert list(sections) == ["Azioni", "Com'è finita"]
    text = "\n".join(line for lines in sections.values() for line in lines)
    assert "<@2> mostra A♥ K♥: coppia." in text and "<@1> non mostra le carte." in text
    assert "2♣" not in text and "3♦" not in text, "the mucked hand stays hidden"
    assert sections["Com'è finita"][0] == "Carte in tavola: 9♠ 9♦ 10♣ 6♥ 8♥."


def test_the_fair_deck_section_needs_both_commitment_and_reveal() -> None:
    table = make_table("texas", players=2, cip=10)
    checked_down(table, MUCKED)
    record = table.hand_record()
    fair = {"commitment": "c" * 64, "reveal": "tavolo-verde/v1|" + "0" * 32 + "|Ah"}
    assert [h for h, _ in replay_sections(record | {"fairness": fair})][-1] == "Mazzo verificabile"
    assert "Mazzo verificabile" not in dict(replay_sections(record | {"fairness": {"commitment": "c"}}))


def test_chunks_keep_every_line_in_order_and_cut_only_a_line_longer_than_the_limit() -> None:
    lines = [f"riga {i}" for i in range(500)] + ["x" * 50]
    chunks = _chunks(lines, 100)
    assert all(len(chunk) <= 100 for chunk in chunks)
    assert "\n".join(chunks).split("\n") == lines
    assert _chunks(["y" * 150], 100) == ["y" * 99 + "…"]


def test_a_long_hand_becomes_embeds_and_messages_within_discords_limits() -> None:
    record_table = make_table("texas", players=2, cip=2, stack=5000, limite="nolimit")

    record_table.start_hand(deck=MUCKED)
    raises = 0
    while raises < 300:
        player = record_table.to_act
        assert player is not None
        act(record_table, player, K.RILANCIO, 2)
        raises += 1
    while record_table.hand_running:
        player = record_table.to_act
        assert player is not None
        kinds = {la.kind for la in record_table.legal_actions()}
        act(record_table, player, K.VEDO if K.VEDO in kinds else K.PAROL)
    stored = StoredHand(1, 1, "finished", "texas", record_table.hand_record(), 1)
    embeds = replay_embeds(stored)
    assert embeds[0].title == "Mano n. 1 — Texas Hold'em"
    assert all(len(e.description or "") <= DESCRIPTION_LIMIT for e in embeds)
    groups = messages(embeds)
    assert len(groups) > 1
    for group in groups:
        assert len(group) <= 10
        assert sum(len(e.title or "") + len(e.description or "") for e in group) <= MESSAGE_LIMIT
    told = "\n".join(e.description or "" for e in embeds)
    assert told.count("rilancia 2 fiches") == 300


def test_the_replay_of_a_hand_gives_the_command_that_checks_its_deck() -> None:
    """`/mano` shows the deck's impronta and string with the command the table message gave, in the
    table's words: without it, a player checking a poker tradizionale hand with the 52-card deck
    later must guess ``--mazzo americano`` (and any ``--fuori``), and a wrong guess prints, with no
    warning, a deal that is not the one played. A record stored before the command was kept gets
    the same command, rebuilt from the record."""
    import random

    from bot.fair_deck import deal_fairly, with_fairness
    from engine.actions import Action
    from engine.options import Mazzo, TableOptions, Variant
    from engine.table import Table

    table = Table(TableOptions(variant=Variant.ITALIANA, mazzo=Mazzo.AMERICANO), rng=random.Random(1))
    for pid in (1, 2, 3, 4):
        table.sit(pid, 1000)
    events, fair = deal_fairly(table.start_hand, None, lambda e: e)
    assert fair is not None
    while table.hand_running:
        assert table.to_act is not None
        events += table.act(Action(table.to_act, K.PASSO))
    fair = fair.ended(table.hand_record())
    assert fair.command is not None and "--mazzo americano" in fair.command
    for record in (
        with_fairness(table.hand_record(), fair),
        table.hand_record() | {"fairness": fair.record()},
    ):
        sections = dict(replay_sections(dict(record)))
        assert sections["Mazzo verificabile"][:3] == [
            f"Impronta: `{fair.digest}`",
            f"Verifica: `{fair.reveal}`",
            f"Per controllare: `{fair.command}`",
        ]
    old = table.hand_record() | {"fairness": {"commitment": fair.digest, "reveal": fair.reveal}}
    assert f"Per controllare: `{fair.command}`" in dict(replay_sections(old))["Mazzo verificabile"]
