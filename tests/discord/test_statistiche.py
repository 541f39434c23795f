"""/statistiche through the fake Discord: a player's hands per variant, from the stored summaries."""

from __future__ import annotations

from typing import Any

from cogs.statistiche import BOTS_DO_NOT_PLAY
from tests.discord.gioco_support import Game, stacked
from tests.discord.test_mano import MUCKED, checked_down


def fields(reply: Any) -> dict[str, str]:
    return {f["name"]: f["value"] for f in reply.embeds[0].get("fields", [])}


async def test_statistics_count_hands_pots_net_and_the_best_hand_shown(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob])
    await checked_down(game, alice, bob)  # bob wins 20 at the showdown (+10); alice mucks (−10)
    await game.start(alice, stacked(["Ah Kh", "2c 3d"], "4s 9s 9d Tc 5h 6h 7h 8h"))
    await game.say(bob, "passo")  # bob folds his small blind: alice wins without showdown (+5)
    # A table in another channel where no hand finished adds nothing.
    other = Game(harness, channel="partita")
    await other.open(bob, "italiana", [alice, bob])

    mine = await harness.slash(alice, "statistiche")
    assert mine.ephemeral, "a question for the one who asks"
    assert f"<@{alice.id}>" in mine.embeds[0]["description"]
    assert fields(mine) == {
        "Texas Hold'em": "\n".join(
            [
                "Mani giocate: 2, vinte: 1",
                "Piatti vinti allo showdown: 0, senza showdown: 1",
                "Risultato netto: −5 fiches",
                "Piatto più grande vinto: 10 fiches",
                "Nessuna mano mostrata",  # her mucked hand never counts as shown
            ]
        )
    }
    his = await harness.slash(alice, "statistiche", utente=bob)
    assert fields(his)["Texas Hold'em"].split("\n") == [
        "Mani giocate: 2, vinte: 1",
        "Piatti vinti allo showdown: 1, senza showdown: 0",
        "Risultato netto: +5 fiches",
        "Piatto più grande vinto: 20 fiches",
        "Miglior mano mostrata: coppia: 9♦ 9♠ A♥ K♥ 10♣",
    ]
    assert his.data["allowed_mentions"]["parse"] == []
    game.finish()
    other.finish()


async def test_a_player_without_hands_and_a_bot(harness: Any) -> None:
    carol = harness.user("carol")
    reply = await harness.slash(carol, "statistiche")
    assert reply.ephemeral and "non ha ancora finito nessuna mano" in reply.embeds[0]["description"]
    refused = await harness.slash(carol, "statistiche", utente=harness.fake.bot_user)
    assert refused.ephemeral and refused.content == BOTS_DO_NOT_PLAY


async def test_statistics_are_per_server(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob])
    await checked_down(game, alice, bob, MUCKED)
    stats = await harness.bot.storage.player_stats(harness.guild_id, bob.id)
    assert [(s.variant, s.hands, s.net) for s in stats] == [("texas", 1, 10)]
    assert await harness.bot.storage.player_stats(harness.guild_id + 1, bob.id) == []
    game.finish()
