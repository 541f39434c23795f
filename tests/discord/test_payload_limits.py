"""The bot's largest messages against Discord's payload limits: nothing refused with a 400, and
nothing cut in a way that hides how a hand or a tournament ended.

Every player has a 32-character display name (Discord's maximum) with wide characters and emoji:
the texts name players by mention, the pictures by name, and neither may break on them.
"""

from __future__ import annotations

import re
from typing import Any

from bot import hand_replay
from tests.discord.gioco_support import Game, stacked
from tests.discord.torneo_support import Torneo

WIDE = ["🂡", "Ｗ", "漢", "👨‍👩‍👧‍👦", "Ł", "ﷺ", "𝕿", "🏳️‍🌈", "é", "ß"]


def long_names(count: int) -> list[str]:
    """``count`` different display names of exactly 32 characters each."""
    names = []
    for i in range(count):
        head = f"{i:02d}"
        pad = WIDE[i % len(WIDE)]
        name = head + pad * ((32 - len(head)) // len(pad))
        names.append(name + "x" * (32 - len(name)))
    assert all(len(n) == 32 for n in names)
    return names


# Ten players at texas, no limit. Seated p0..p9, p0 deals; the deal starts at p1. Everyone is all-in
# before the flop for a different amount (p3..p0 raise all-in in turn, p1 too, p2 calls), so there are
# nine pots. p1 and p2 split every pot with the same Broadway straight; the other eight lose and bust.
SPLIT_STACKS = {3: 101, 4: 202, 5: 303, 6: 404, 7: 505, 8: 606, 9: 707, 0: 808, 1: 1000, 2: 1000}
SPLIT_HOLES = {
    1: "Ah Kd",
    2: "Ad Kh",
    3: "3h 3s",
    4: "4h 4s",
    5: "6h 6s",
    6: "7h 7s",
    7: "8h 8s",
    8: "3d 4d",
    9: "6d 7d",
    0: "6c 8c",
}
SPLIT_DECK = stacked([SPLIT_HOLES[i] for i in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)], "9s Qs Jc Tc 9h 5h 9d 2d")


async def ten_way_split(harness: Any) -> tuple[Game, Any]:
    """Play the hand above; the last word (p2's call) is the typed /vedo. Returns the game and the
    answer to that last word."""
    players = [harness.user(name) for name in long_names(10)]
    game = Game(harness)
    await game.open(players[0], "texas", [], cip=2, limite="nolimit")
    for i, user in enumerate(players):
        sat = await harness.slash(user, "tavolo siedi", buyin=SPLIT_STACKS[i])
        assert not sat.ephemeral, sat.content
    await game.start(players[0], SPLIT_DECK)
    for i in (3, 4, 5, 6, 7, 8, 9, 0, 1):
        assert game.table.to_act == players[i].id
        raised = await game.say(players[i], "rilancio", importo="tutto")
        assert not raised.ephemeral, raised.content
    last = await game.say(players[2], "vedo")
    assert not last.ephemeral and not game.table.hand_running
    return game, last


def how_it_ended(game: Game) -> list[str]:
    """The result of the last hand as /mano tells it: the board, the hands shown, every pot."""
    sections = dict(hand_replay.replay_sections(game.table.hand_record()))
    lines = sections["Com'è finita"]
    assert sum("piatto" in line for line in lines) == 9, lines
    return lines


async def test_the_table_message_of_a_ten_way_showdown_shows_every_pot(harness: Any) -> None:
    """The table message is the channel's record of the hand: every result line of a ten-way
    showdown with nine pots is on it (in several result fields), none clipped away."""
    game, _last = await ten_way_split(harness)
    text = game.message.text()
    missing = [line for line in how_it_ended(game) if line not in text]
    assert missing == [], "result lines the table message does not show:\n" + "\n".join(missing)
    game.finish()


async def test_the_answer_to_the_last_word_is_not_cut_in_the_middle_of_a_line(harness: Any) -> None:
    """The public answer to the /vedo that ends the hand would tell the showdown, the nine pots and the
    eight players who bust: more than 2,000 characters. It keeps whole lines and says where the rest
    is, never a line cut in the middle without a mark."""
    game, last = await ten_way_split(harness)
    told = set(game.session.log)  # every public line of the hand, whole
    assert len(last.content) <= 2000
    cut = [line for line in last.content.split("\n") if line not in told and "…" not in line]
    assert cut == [], f"lines cut without a mark: {cut}"
    game.finish()


async def test_nine_players_out_in_one_hand_are_each_announced(harness_factory: Any) -> None:
    """A ten-player sit-and-go whose first hand is all-in for everyone and won by one player: nine
    players out at once, with equal stacks, so all nine share second place and each line names the
    eight others. The announcement goes out in as many messages as Discord takes, every elimination
    told."""
    h = await harness_factory(tournament_pause=0)
    users = [h.user(name) for name in long_names(10)]
    game = Torneo(h)
    await game.announce(users[0], "texas", buyin=50, posti=10, cip=20, fiches=100)
    # Whoever gets the aces wins; the board (K 8 5 2 J) pairs nobody else and makes no straight.
    junk = ["3c 4d", "3d 7c", "4c 9d", "3h 9c", "4h 7s", "6c Td", "6d 9h", "7d Th", "4s Tc"]
    h.bot.tables.queue_deck(game.channel_id, stacked(["Ah As", *junk], "Qs Kc 8d 5s Qd 2h Qh Jd"))
    await game.join(users)
    await game.play_out()
    texts = [m.text() for m in h.messages("poker")]
    told = {int(p) for t in texts for p in re.findall(r"<@(\d+)> è eliminat[oa]: \d+° posto", t)}
    refused, h.fake.violations[:] = list(h.fake.violations), []
    assert refused == [], f"Discord refused: {refused}"
    standings = [t for t in texts if "Classifica finale" in t]
    assert len(standings) == 1 and standings[0].count("2° <@") == 9, standings
    assert len(told) == 9, f"{len(told)} of the 9 eliminations were announced"
