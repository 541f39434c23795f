"""What /mano, /statistiche and /storico show, checked against what happened (the engine and the ledger).

Each test plays its hands with explicit decks through the fake Discord."""

from __future__ import annotations

import re
from typing import Any

from tests.discord.gioco_support import Game, everyone_parol, stacked
from tests.discord.test_mano import replay_text
from tests.discord.test_statistiche import fields

# Three players (28 cards, 8 to A); deal order bob, carol, alice when alice deals.
NOBODY_OPENS = stacked(["8h 9h Th Qc As", "8d 9d Tc Jd Kh", "8c 9c Td Jc Qs"])
TEXAS = stacked(["Ah Kh", "2c 3d"], "4s 9s 9d Tc 5h 6h 7h 8h")
TEXAS_3 = stacked(["Ah Kh", "2c 3d", "5c 6d"], "4s 9s 9d Tc 5h 6h 7h 8h")


async def test_a_hand_nobody_opened_is_told_once_in_its_replay(harness: Any) -> None:
    """Nobody opens: the table's result says once that the pot stays, and so does /mano (a void hand
    is told in the result, not among the actions too)."""
    alice, bob, carol = (harness.user(n) for n in ("alice", "bob", "carol"))
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    await game.start(alice, NOBODY_OPENS)
    await game.say(bob, "passo")  # no buio
    for user in (bob, carol, alice):
        await game.say(user, "passo")
    assert not game.table.hand_running
    line = "Nessuno apre: il piatto di 10 fiches resta, la prossima mano si apre con coppia di donne."
    results = [f["value"] for f in game.message.embeds[0]["fields"] if f["name"].startswith("Com'è finita")]
    assert results and results[0].count(line) == 1, "the table's result tells it once"
    text = replay_text(await harness.slash(alice, "mano"))
    assert text.count(line) == 1, text
    game.finish()


async def test_the_number_mano_gives_a_hand_is_the_one_the_table_showed(backend_harness: Any) -> None:
    """Hand 1 is cancelled by a restart; carol sits down (the state is stored with the cancelled hand
    counted); a second restart must not count it again: the table, /mano's title and its first line
    give the hand the number the ledger stores, and /mano finds it by that number."""
    harness = backend_harness
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob])
    await game.start(alice, TEXAS)
    await game.say(alice, "vedo")
    await game.restart()
    sat = await harness.slash(carol, "tavolo siedi", buyin=200)
    assert not sat.ephemeral, sat.content
    await game.restart()
    await game.start(alice, TEXAS_3)
    shown = game.table.hand_number  # what the table message and the DMs call this hand
    assert f"Mano n. {shown}, fase" in game.message.text()
    users = {u.id: u for u in (alice, bob, carol)}
    while game.table.hand_running:
        await game.say(users[game.table.to_act], "passo")
    reply = await harness.slash(alice, "mano")
    text = replay_text(reply)
    [told] = re.findall(r"\*\*Mano n\. (\d+)\*\*", text)
    title = reply.embeds[0]["title"]
    assert title == f"Mano n. {told} — Texas Hold'em", f"title {title!r}, first line: hand {told}"
    by_number = await harness.slash(alice, "mano", numero=shown)
    assert not by_number.ephemeral, by_number.content
    game.finish()


async def test_statistics_net_agrees_with_the_chips_after_a_carried_pot_is_shared_at_closing(
    harness: Any,
) -> None:
    """All paròl: the pot of 30 is carried; the table closes and each gets his 10 back. The balances,
    the night's summary and /statistiche all say everyone is even."""
    alice, bob, carol = (harness.user(n) for n in ("alice", "bob", "carol"))
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    await everyone_parol(game, alice, bob, carol)
    closed = await harness.slash(alice, "tavolo chiudi")
    assert not closed.ephemeral, closed.content
    await harness.settle()
    [night] = [
        m.embeds[0]["description"]
        for m in harness.messages("poker")
        if m.embeds and m.embeds[0].get("title") == "Riepilogo della serata"
    ]
    for user in (alice, bob, carol):
        assert await harness.bot.storage.balance(harness.guild_id, user.id) == 1000
        assert f"<@{user.id}>: **pari**" in night
    for user in (alice, bob, carol):
        stats = fields(await harness.slash(user, "statistiche"))["poker tradizionale"].split("\n")
        assert "Risultato netto: +0 fiches" in stats, (user.name, stats)
    game.finish()


async def test_storico_lists_only_hands_the_player_was_dealt_into(harness: Any) -> None:
    """Carol times out twice and sits out: the next hand is dealt to alice and bob only, and carol's
    /storico does not list it while it runs (a finished one is left out by the ledger)."""
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob, carol])
    await game.start(alice, stacked(["Ah Kh", "2c 3d", "5c 6d"], "4s 9s 9d Tc 5h 6h 7h 8h"))
    users = {alice.id: alice, bob.id: bob}
    while game.table.hand_running:
        if game.table.to_act == carol.id:
            await game.expire()
            continue
        kinds = {str(a.kind) for a in game.table.legal_actions()}
        await game.say(users[game.table.to_act], "vedo" if "vedo" in kinds else "paròl")
    assert any(s.player == carol.id and s.sitting_out for s in game.live.view().seats)
    await game.start(alice, stacked(["Ah Kh", "2c 3d"], "4s 9s 9d Tc 5h 6h 7h 8h"))
    assert game.table.hand_running and game.table.hand_number == 2
    assert not any(s.player == carol.id and s.in_hand for s in game.live.view().seats)
    reply = await harness.slash(carol, "storico")
    hands = {f["name"]: f["value"] for f in reply.embeds[0]["fields"]}["Ultime mani"]
    assert "mano 1:" in hands
    assert "mano 2:" not in hands, hands
    game.finish()


async def test_storico_still_lists_the_running_hand_to_a_player_who_folded_in_it(harness: Any) -> None:
    """Dealt in, then folded: he was dealt into the running hand, so /storico lists it (as it will
    once the hand is over, from hand_players)."""
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob, carol])
    await game.start(alice, TEXAS_3)
    users = {u.id: u for u in (alice, bob, carol)}
    folder = users[game.table.to_act]
    await game.say(folder, "passo")
    assert game.table.hand_running
    assert any(s.player == folder.id and s.folded for s in game.live.view().seats)
    reply = await harness.slash(folder, "storico")
    hands = {f["name"]: f["value"] for f in reply.embeds[0]["fields"]}.get("Ultime mani", "")
    assert "mano 1:" in hands, hands
    game.finish()


async def test_a_closing_share_of_a_player_without_hands_at_that_variant_is_in_his_net(harness: Any) -> None:
    """All paròl: 30 carried. Alice, bob and carol stand up; dave sits (no contributor is seated, so
    rules §5.1 shares the pot evenly: dave takes the 30) and alice closes. Dave is 30 up by the
    ledger; /statistiche must not hide it because he was dealt no hand of poker tradizionale."""
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    await everyone_parol(game, alice, bob, carol)
    for user in (alice, bob, carol):
        left = await harness.slash(user, "tavolo alzati")
        assert not left.ephemeral, left.content
    sat = await harness.slash(dave, "tavolo siedi", buyin=100)
    assert not sat.ephemeral, sat.content
    closed = await harness.slash(alice, "tavolo chiudi")
    assert not closed.ephemeral, closed.content
    await harness.settle()
    assert await harness.bot.storage.balance(harness.guild_id, dave.id) == 1030
    stats = fields(await harness.slash(dave, "statistiche"))
    assert "Risultato netto: +30 fiches" in stats.get("poker tradizionale", ""), stats
    game.finish()
