"""The night's summary through the fake Discord: `/tavolo riepilogo` at any time, and by itself when
the table closes; each player's net from the ledger, the biggest pot, the best hand, and the chart."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot import night_summary
from bot.night_summary import CHART_FILE
from bot.pictures import ResultRow
from bot.pictures._canvas import GREEN_BAR, RED_BAR
from bot.pictures.charts import CHART_ROW_HEIGHT, chart_geometry
from bot.tables import NO_TABLE
from tests.discord.gioco_support import Game
from tests.discord.test_mano import checked_down


def chart_of(message: Any) -> Image.Image:
    [attachment] = message.attachments
    assert attachment.filename == CHART_FILE
    assert message.embeds[0]["image"]["url"] == f"attachment://{CHART_FILE}", "the text beside the picture"
    return Image.open(io.BytesIO(attachment.data))


async def test_riepilogo_during_the_night(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob])
    await checked_down(game, alice, bob)  # bob +10 at the showdown, alice mucks
    reply = await harness.slash(alice, "tavolo riepilogo")
    assert not reply.ephemeral
    message = reply.message
    assert message is not None
    embed = message.embeds[0]
    assert embed["title"] == "Riepilogo della serata"
    text = embed["description"]
    assert "Tavolo di Texas Hold'em, dall'apertura a ora: 1 mano giocata." in text
    assert (
        f"<@{bob.id}>: **+10 fiches** (portate 300 fiches, riportate 0 fiches, al tavolo 310 fiches)" in text
    )
    assert f"<@{alice.id}>: **−10 fiches**" in text
    assert text.index(f"<@{bob.id}>") < text.index(f"<@{alice.id}>:"), "best result first"
    assert f"**Piatto più grande**: 20 fiches a <@{bob.id}> nella mano n. 1." in text
    assert f"**Miglior mano mostrata**: coppia: 9♦ 9♠ A♥ K♥ 10♣, di <@{bob.id}> nella mano n. 1." in text
    assert message.notified == [] and message.allowed_mentions[-1] == {"parse": []}
    image = chart_of(message)
    rows = [ResultRow("bob", 10), ResultRow("alice", -10)]
    geometry = chart_geometry(rows, "Risultati della serata")
    assert image.size == (geometry.width, geometry.height), "one bar per player"
    rgb = image.convert("RGB")
    first, second = (geometry.rows_top + i * CHART_ROW_HEIGHT + CHART_ROW_HEIGHT // 2 for i in (0, 1))
    assert rgb.getpixel((geometry.zero_x + 3, first)) == GREEN_BAR, "bob's win first, to the right"
    assert rgb.getpixel((geometry.zero_x - 3, second)) == RED_BAR, "alice's loss second, to the left"
    names = await night_summary.display_names(harness.bot, [bob.id, alice.id])
    assert names == {bob.id: "Bob", alice.id: "Alice"}, "the chart names players as Discord shows them"
    game.finish()


async def test_closing_the_table_posts_the_night_with_players_who_left(harness: Any) -> None:
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob])
    await checked_down(game, alice, bob)
    await harness.slash(bob, "tavolo alzati")  # bob takes his 310 home
    await harness.slash(carol, "tavolo siedi", buyin=200)
    before = len(harness.messages("poker"))
    closed = await harness.slash(alice, "tavolo chiudi")
    assert not closed.ephemeral and "chiude il tavolo" in closed.content
    await harness.settle()
    [summary] = [
        m
        for m in harness.messages("poker")[before:]
        if m.embeds and m.embeds[0].get("title") == "Riepilogo della serata"
    ]
    text = summary.embeds[0]["description"]
    assert "dall'apertura alla chiusura: 1 mano giocata." in text
    assert f"<@{bob.id}>: **+10 fiches** (portate 300 fiches, riportate 310 fiches)" in text
    assert f"<@{alice.id}>: **−10 fiches** (portate 300 fiches, riportate 290 fiches)" in text
    assert f"<@{carol.id}>: **pari** (portate 200 fiches, riportate 200 fiches)" in text
    night = await harness.bot.storage.table_summary(
        game.live.id if game.live else (await _last_table(harness))
    )
    assert sum(p.net for p in night.players) == 0
    assert (
        chart_of(summary).size[1] == chart_geometry([ResultRow("x", 0)] * 3, "Risultati della serata").height
    )
    assert summary.notified == []
    game.finish()


async def _last_table(harness: Any) -> int:
    stored = await harness.bot.storage.stored_hand(harness.channel("poker").id, 1)
    assert stored is not None
    return int(stored.table_id)


async def test_riepilogo_without_a_table_or_players(harness: Any) -> None:
    alice = harness.user("alice")
    refused = await harness.slash(alice, "tavolo riepilogo")
    assert refused.ephemeral and refused.content == NO_TABLE
    await harness.slash(alice, "tavolo nuovo", variante="italiana")
    reply = await harness.slash(alice, "tavolo riepilogo")
    message = reply.message
    assert message is not None and not message.ephemeral
    assert "0 mani giocate" in message.embeds[0]["description"]
    assert "Nessuno si è ancora seduto." in message.embeds[0]["description"]
    assert message.attachments == [], "no chart without players"


async def test_the_closing_summary_does_not_say_so_far(harness: Any) -> None:
    """A table closed with no pot won: its closing summary («dall'apertura alla chiusura») says
    «Nessun piatto vinto.», not "so far" of a night that is over (bot/night_summary.py)."""
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    before = len(harness.messages("poker"))
    await harness.slash(alice, "tavolo chiudi")
    await harness.settle()
    [summary] = [
        m
        for m in harness.messages("poker")[before:]
        if m.embeds and m.embeds[0].get("title") == "Riepilogo della serata"
    ]
    text = summary.embeds[0]["description"]
    assert "dall'apertura alla chiusura" in text
    assert "finora" not in text, text
