"""/tavolo through the fake Discord: tables per channel, seats bought from the ledger, refusals."""

from __future__ import annotations

from typing import Any

import pytest

from bot.session import START_REFUSED
from bot.storage import MAX_CHIPS
from bot.tables import NO_TABLE, TABLE_EXISTS, TOO_MANY_CHIPS
from bot.tree import DM_REFUSAL
from cogs.tavolo import CLOSE_REFUSED, EMPTY_BALANCE
from fakediscord import CommandHidden
from tests.discord.gioco_support import HEADS_UP_TEXAS, Game

START = 1000  # the harness's STARTING_CHIPS


async def ledger(harness: Any) -> dict[str, Any]:
    """What the database says now: open tables with their seats, and the ledger check."""
    storage = harness.bot.storage
    tables = {row.channel_id: (row.variant, dict(row.seats), row.pot) for row in await storage.open_tables()}
    return {"tables": tables, "check": await storage.check()}


async def balance(harness: Any, user: Any) -> int:
    return int(await harness.bot.storage.balance(harness.guild_id, user.id))


async def total_chips(harness: Any, *users: Any) -> int:
    """Balances plus chips at tables: constant for a server whatever happens at the tables."""
    rows = await harness.bot.storage.leaderboard(harness.guild_id, limit=100)
    return sum(row.total for row in rows if row.user_id in {u.id for u in users})


async def open_italiana(harness: Any, creator: Any, channel: str = "poker", **options: Any) -> Any:
    reply = await harness.slash(creator, "tavolo nuovo", channel=channel, variante="italiana", **options)
    assert not reply.ephemeral, reply.content
    return reply


# Creating ------------------------------------------------------------------------------------------


async def test_nuovo_opens_a_table_in_the_channel(harness: Any) -> None:
    alice = harness.user("alice")
    reply = await open_italiana(harness, alice, cip=20)
    assert "apre un tavolo di poker tradizionale" in reply.content
    assert reply.data["allowed_mentions"]["parse"] == [], "naming players by mention must not ping them"
    assert reply.embeds[0]["title"] == "Tavolo di poker tradizionale"
    assert "Cip 20 fiches" in reply.embeds[0]["description"]
    state = await ledger(harness)
    assert state["tables"] == {harness.channel("poker").id: ("italiana", {}, 0)}
    row = (await harness.bot.storage.open_tables())[0]
    assert row.creator_id == alice.id
    assert row.options["cip"] == 20 and row.options["invito"] == 20, "the invito defaults to the cip"


async def test_nuovo_passes_every_option_to_the_engine(harness: Any) -> None:
    alice = harness.user("alice")
    await harness.slash(
        alice,
        "tavolo nuovo",
        variante="32carte",
        cip=4,
        limite="potlimit",
        over=True,
        semi=False,
        tempo=30,
    )
    options = (await harness.bot.storage.open_tables())[0].options
    assert (options["variant"], options["cip"], options["limite"], options["over"], options["semi"]) == (
        "32carte",
        4,
        "potlimit",
        True,
        False,
    )
    assert options["timeout"] == 30


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"variante": "texas", "cip": 1}, "texas"),
        ({"variante": "italiana", "limite": "nolimit"}, "limite"),
        ({"variante": "32carte", "limite": "fisso"}, "limite"),
        ({"variante": "italiana", "semi": False}, "semi"),
    ],
)
async def test_nuovo_with_options_the_engine_refuses_creates_nothing(
    harness: Any, options: dict[str, Any], words: str
) -> None:
    reply = await harness.slash(harness.user("alice"), "tavolo nuovo", **options)
    assert reply.ephemeral
    assert words in reply.content.lower()
    assert (await ledger(harness))["tables"] == {}
    assert harness.messages("poker") == []


async def test_a_second_table_in_the_same_channel_is_refused(harness: Any) -> None:
    await open_italiana(harness, harness.user("alice"))
    before = await ledger(harness)
    reply = await harness.slash(harness.user("bob"), "tavolo nuovo", variante="texas")
    assert reply.ephemeral and reply.content == TABLE_EXISTS
    assert await ledger(harness) == before


async def test_two_tables_in_a_channel_and_a_thread_at_once(harness: Any) -> None:
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    await open_italiana(harness, alice, channel="poker")
    reply = await harness.slash(carol, "tavolo nuovo", channel="partita", variante="texas", cip=10)
    assert "Texas Hold'em" in reply.content
    await harness.slash(alice, "tavolo siedi", channel="poker", buyin=300)
    await harness.slash(bob, "tavolo siedi", channel="poker", buyin=400)
    await harness.slash(carol, "tavolo siedi", channel="partita", buyin=500)
    await harness.slash(dave, "tavolo siedi", channel="partita", buyin=600)
    state = await ledger(harness)
    assert state["tables"] == {
        harness.channel("poker").id: ("italiana", {alice.id: 300, bob.id: 400}, 0),
        harness.channel("partita").id: ("texas", {carol.id: 500, dave.id: 600}, 0),
    }
    started_poker = await harness.slash(bob, "tavolo inizia", channel="poker")
    started_thread = await harness.slash(dave, "tavolo inizia", channel="partita")
    assert "Mano n. 1" in started_poker.content and "mazzo da 24 carte" in started_poker.content
    assert "Mano n. 1" in started_thread.content and "mazzo da 52 carte" in started_thread.content
    assert harness.bot.tables.get(harness.channel("poker").id).table.hand_running
    assert harness.bot.tables.get(harness.channel("partita").id).table.hand_running
    assert state["check"] == []


# Seats ---------------------------------------------------------------------------------------------


async def test_siedi_buys_in_from_the_balance(harness: Any) -> None:
    alice = harness.user("alice")
    await open_italiana(harness, alice)
    reply = await harness.slash(alice, "tavolo siedi", buyin=250)
    assert not reply.ephemeral
    assert "si siede con 250 fiches" in reply.content
    assert await balance(harness, alice) == START - 250
    assert (await ledger(harness))["tables"][harness.channel("poker").id][1] == {alice.id: 250}


async def test_siedi_without_amount_brings_100_cips_or_the_whole_balance(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await open_italiana(harness, alice, cip=5)
    await harness.slash(alice, "tavolo siedi")
    assert await balance(harness, alice) == START - 500
    await harness.slash(harness.user("admin", manage_guild=True), "tavolo chiudi")
    await open_italiana(harness, alice, cip=20)
    await harness.slash(bob, "tavolo siedi")
    assert await balance(harness, bob) == 0, "100 cips = 2000 > 1000: he brings all he has"


async def test_siedi_refusals_change_nothing(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    no_table = await harness.slash(alice, "tavolo siedi", buyin=100)
    assert no_table.ephemeral and no_table.content == NO_TABLE
    await open_italiana(harness, alice)
    await harness.slash(alice, "tavolo siedi", buyin=100)
    before = await ledger(harness)
    twice = await harness.slash(alice, "tavolo siedi", buyin=100)
    assert twice.ephemeral and "già seduto" in twice.content
    too_much = await harness.slash(bob, "tavolo siedi", buyin=START + 1)
    assert too_much.ephemeral and "Non hai abbastanza fiches" in too_much.content
    assert await ledger(harness) == before
    assert (await balance(harness, alice), await balance(harness, bob)) == (START - 100, START)
    assert not harness.bot.tables.get(harness.channel("poker").id).seated(bob.id)


async def test_siedi_with_an_empty_balance_says_how_to_get_chips(harness: Any) -> None:
    alice = harness.user("alice")
    await open_italiana(harness, alice, channel="poker")
    await open_italiana(harness, alice, channel="partita")
    await harness.slash(alice, "tavolo siedi", channel="poker", buyin=START)
    before = await ledger(harness)
    reply = await harness.slash(alice, "tavolo siedi", channel="partita")
    assert reply.ephemeral and reply.content == EMPTY_BALANCE
    assert await ledger(harness) == before


async def test_alzati_pays_the_stack_back(harness: Any) -> None:
    alice = harness.user("alice")
    await open_italiana(harness, alice)
    await harness.slash(alice, "tavolo siedi", buyin=300)
    reply = await harness.slash(alice, "tavolo alzati")
    assert not reply.ephemeral
    assert "300 fiches tornano nel suo saldo" in reply.content
    assert await balance(harness, alice) == START
    assert (await ledger(harness))["tables"][harness.channel("poker").id][1] == {}


async def test_alzati_when_not_seated_is_refused(harness: Any) -> None:
    alice = harness.user("alice")
    no_table = await harness.slash(alice, "tavolo alzati")
    assert no_table.ephemeral and no_table.content == NO_TABLE
    await open_italiana(harness, alice)
    before = await ledger(harness)
    reply = await harness.slash(harness.user("bob"), "tavolo alzati")
    assert reply.ephemeral and "seduto" in reply.content
    assert await ledger(harness) == before


async def test_alzati_during_a_hand_pays_at_once(harness: Any) -> None:
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    await open_italiana(harness, alice)
    for user in (alice, bob, carol):
        await harness.slash(user, "tavolo siedi", buyin=200)
    await harness.slash(alice, "tavolo inizia")
    live = harness.bot.tables.get(harness.channel("poker").id)
    # Three players: one leaving folds but the hand goes on; his stack (he put nothing in: only the
    # dealer pays the invito) is back in his balance at once.
    leaver = next(u for u in (alice, bob, carol) if live.view().dealer != u.id)
    reply = await harness.slash(leaver, "tavolo alzati")
    assert not reply.ephemeral
    assert "200 fiches tornano nel suo saldo" in reply.content, reply.content
    assert live.table.hand_running
    assert (await ledger(harness))["tables"][harness.channel("poker").id][1][leaver.id] == 0
    assert await balance(harness, leaver) == START
    assert (await ledger(harness))["check"] == []
    again = await harness.slash(leaver, "tavolo siedi", buyin=100)
    assert again.ephemeral and "mano in corso" in again.content
    # A second player leaves: one is left, the hand ends, both leavers are paid.
    second = next(u for u in (alice, bob, carol) if u is not leaver and live.view().to_act != u.id)
    await harness.slash(second, "tavolo alzati")
    assert not live.table.hand_running
    state = await ledger(harness)
    seats = state["tables"][harness.channel("poker").id][1]
    assert set(seats) == {u.id for u in (alice, bob, carol)} - {leaver.id, second.id}
    assert state["check"] == []
    assert await total_chips(harness, alice, bob, carol) == 3 * START


async def test_late_joiner_waits_for_the_next_hand(harness: Any) -> None:
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    await open_italiana(harness, alice)
    await harness.slash(alice, "tavolo siedi", buyin=200)
    await harness.slash(bob, "tavolo siedi", buyin=200)
    await harness.slash(alice, "tavolo inizia")
    reply = await harness.slash(carol, "tavolo siedi", buyin=150)
    assert "gioca dalla prossima mano" in reply.content
    assert await balance(harness, carol) == START - 150
    leave = await harness.slash(carol, "tavolo alzati")
    assert "150 fiches tornano nel suo saldo" in leave.content
    assert await balance(harness, carol) == START
    assert (await ledger(harness))["check"] == []


# Starting ------------------------------------------------------------------------------------------


async def test_inizia_starts_a_hand_and_shows_no_private_card(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await open_italiana(harness, alice)
    await harness.slash(alice, "tavolo siedi", buyin=200)
    await harness.slash(bob, "tavolo siedi", buyin=200)
    reply = await harness.slash(bob, "tavolo inizia")
    assert not reply.ephemeral
    assert "Mano n. 1" in reply.content and "mette invito: 10 fiches" in reply.content
    assert "Mano in corso" in reply.text()
    live = harness.bot.tables.get(harness.channel("poker").id)
    for user in (alice, bob):
        for card in live.table.cards_of(user.id):
            assert all(str(card) not in text for text in harness.public_texts())
    hands = (await harness.bot.storage.history(harness.guild_id, alice.id)).hands
    assert [(h.number, h.status) for h in hands] == [(1, "running")]


async def test_inizia_refusals(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await open_italiana(harness, alice)
    await harness.slash(alice, "tavolo siedi", buyin=200)
    alone = await harness.slash(alice, "tavolo inizia")
    assert alone.ephemeral and "almeno 2 giocatori" in alone.content
    await harness.slash(bob, "tavolo siedi", buyin=200)
    outsider = await harness.slash(harness.user("carol"), "tavolo inizia")
    assert outsider.ephemeral and outsider.content == START_REFUSED
    assert (await harness.bot.storage.history(harness.guild_id, alice.id)).hands == ()
    await harness.slash(alice, "tavolo inizia")
    twice = await harness.slash(bob, "tavolo inizia")
    assert twice.ephemeral and "già in corso" in twice.content
    assert len((await harness.bot.storage.history(harness.guild_id, alice.id)).hands) == 1


# Showing -------------------------------------------------------------------------------------------


async def test_stato_shows_seats_and_stacks(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    no_table = await harness.slash(alice, "tavolo stato")
    assert no_table.ephemeral and no_table.content == NO_TABLE
    await open_italiana(harness, alice)
    await harness.slash(alice, "tavolo siedi", buyin=1000)
    await harness.slash(bob, "tavolo siedi", buyin=250)
    reply = await harness.slash(bob, "tavolo stato")
    players = reply.embeds[0]["fields"][0]
    assert players["name"] == "Giocatori (2/9)"
    assert players["value"].splitlines() == [f"<@{alice.id}>: 1.000 fiches", f"<@{bob.id}>: 250 fiches"]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (
            {"variante": "italiana", "buio_multiplo": 3, "max_cambio": 5},
            ["3 volte il piatto", "da 1 a 5 carte"],
        ),
        ({"variante": "32carte", "cip": 20, "over": True}, ["Over di 40 fiches", "no limit"]),
        ({"variante": "texas", "cip": 10}, ["limite fisso", "grande 20 fiches al turn"]),
    ],
)
async def test_regole_explains_this_table(harness: Any, options: dict[str, Any], expected: list[str]) -> None:
    alice = harness.user("alice")
    await harness.slash(alice, "tavolo nuovo", **options)
    reply = await harness.slash(harness.user("bob"), "tavolo regole")
    text = reply.text()
    for words in expected:
        assert words in text


# Closing -------------------------------------------------------------------------------------------


async def test_chiudi_by_the_creator_returns_every_stack(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await open_italiana(harness, alice)
    await harness.slash(alice, "tavolo siedi", buyin=300)
    await harness.slash(bob, "tavolo siedi", buyin=400)
    reply = await harness.slash(alice, "tavolo chiudi")
    assert not reply.ephemeral
    assert "chiude il tavolo" in reply.content and "400 fiches" in reply.content
    assert (await balance(harness, alice), await balance(harness, bob)) == (START, START)
    state = await ledger(harness)
    assert state["tables"] == {} and state["check"] == []
    assert harness.bot.tables.get(harness.channel("poker").id) is None
    reopened = await open_italiana(harness, bob)
    assert "apre un tavolo" in reopened.content


async def test_chiudi_by_someone_else_is_refused_but_a_manager_may(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await open_italiana(harness, alice)
    await harness.slash(bob, "tavolo siedi", buyin=400)
    before = await ledger(harness)
    refused = await harness.slash(bob, "tavolo chiudi")
    assert refused.ephemeral and refused.content == CLOSE_REFUSED
    assert await ledger(harness) == before
    closed = await harness.slash(harness.user("admin", manage_guild=True), "tavolo chiudi")
    assert not closed.ephemeral
    assert await balance(harness, bob) == START


async def test_chiudi_during_a_hand_is_refused(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await open_italiana(harness, alice)
    await harness.slash(alice, "tavolo siedi", buyin=300)
    await harness.slash(bob, "tavolo siedi", buyin=300)
    await harness.slash(alice, "tavolo inizia")
    before = await ledger(harness)
    reply = await harness.slash(alice, "tavolo chiudi")
    assert reply.ephemeral and "mano in corso" in reply.content
    assert await ledger(harness) == before


# Where commands work -------------------------------------------------------------------------------


async def test_table_commands_are_not_offered_in_dms(harness: Any) -> None:
    with pytest.raises(CommandHidden):
        await harness.slash(harness.user("alice"), "tavolo nuovo", channel="dm", variante="italiana")


async def test_a_command_that_reaches_the_bot_from_a_dm_is_refused(harness_factory: Any) -> None:
    # Globally synced commands exist outside the guild too; a DM interaction must still be refused
    # by the bot itself, privately, whatever the command's contexts say.
    harness = await harness_factory(dev_guild_id=None)
    for command in harness.fake.global_commands.values():
        command["contexts"] = [0, 1]
    reply = await harness.slash(harness.user("alice"), "tavolo nuovo", channel="dm", variante="italiana")
    assert reply.ephemeral and reply.content == DM_REFUSAL
    assert (await harness.bot.storage.open_tables()) == []


# Restarts ------------------------------------------------------------------------------------------


async def test_restart_restores_tables_and_cancels_the_running_hand(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await open_italiana(harness, alice)
    await harness.slash(alice, "tavolo siedi", buyin=300)
    await harness.slash(bob, "tavolo siedi", buyin=400)
    await harness.slash(alice, "tavolo inizia")
    live = harness.bot.tables.get(harness.channel("poker").id)
    assert sum(seat.stack for seat in live.view().seats) == 690, "the dealer's invito is in the pot"
    await harness.restart()
    restored = harness.bot.tables.get(harness.channel("poker").id)
    assert not restored.table.hand_running
    assert {s.player: s.stack for s in restored.view().seats} == {alice.id: 300, bob.id: 400}
    hands = (await harness.bot.storage.history(harness.guild_id, alice.id)).hands
    assert [(h.number, h.status) for h in hands] == [(1, "cancelled")]
    state = await ledger(harness)
    assert state["tables"][harness.channel("poker").id][1] == {alice.id: 300, bob.id: 400}
    assert state["check"] == []
    again = await harness.slash(bob, "tavolo inizia")
    assert not again.ephemeral and restored.table.hand_running
    hands = (await harness.bot.storage.history(harness.guild_id, alice.id)).hands
    assert [h.status for h in hands] == ["running", "cancelled"]


async def test_a_table_never_holds_more_chips_than_one_stack_may(harness: Any) -> None:
    """The ledger stores no stack above MAX_CHIPS: a table whose chips could make one (a winner taking
    everything) would have its hand's end refused after the engine played it. The buy-in that would
    bring the table past MAX_CHIPS is refused, and the chips at the table play and close as usual."""
    admin = harness.user("admin", manage_guild=True)
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    granted = await harness.slash(admin, "accredita", utente=alice, importo=MAX_CHIPS)
    assert not granted.ephemeral, granted.content
    game = Game(harness)
    opened = await harness.slash(alice, "tavolo nuovo", variante="texas", limite="nolimit")
    assert not opened.ephemeral, opened.content
    for user, buyin in ((alice, MAX_CHIPS - 100), (bob, 100)):
        sat = await harness.slash(user, "tavolo siedi", buyin=buyin)
        assert not sat.ephemeral, sat.content
    refused = await harness.slash(carol, "tavolo siedi", buyin=10)
    assert refused.ephemeral and refused.content == TOO_MANY_CHIPS
    assert await harness.bot.storage.balance(harness.guild_id, carol.id) == START
    await game.start(alice, HEADS_UP_TEXAS)
    users = {alice.id: alice, bob.id: bob}
    if game.table.to_act == alice.id:
        raised = await game.say(alice, "rilancio", importo="100")
        assert not raised.ephemeral, raised.content
    folded = await game.say(users[game.table.to_act], "passo")
    assert not folded.ephemeral, folded.content
    assert game.live.hand_id is None, "the hand's end is in the ledger"
    closed = await harness.slash(alice, "tavolo chiudi")
    assert not closed.ephemeral, closed.content
    assert await harness.bot.storage.check() == []
    game.finish()


async def test_siedi_again_says_he_is_seated_whatever_his_balance(harness: Any) -> None:
    """The seat is judged before the balance: a player who brought his whole balance is told he is
    seated, not that his balance is empty."""
    alice, bob = harness.user("alice"), harness.user("bob")
    opened = await harness.slash(alice, "tavolo nuovo", variante="italiana")
    assert not opened.ephemeral, opened.content
    sat = await harness.slash(bob, "tavolo siedi")  # 100 cip = 1.000 = his whole balance
    assert not sat.ephemeral and "tutto il suo saldo" in sat.content, sat.content
    again = await harness.slash(bob, "tavolo siedi")
    assert again.ephemeral and again.content == "Sei già seduto a questo tavolo.", again.content
    assert again.content != EMPTY_BALANCE
