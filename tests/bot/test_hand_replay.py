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
