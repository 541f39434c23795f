"""Hostile and odd input to every command, option, button, modal and menu: one private Italian
sentence that changes nothing, never an ERROR, no chip created or destroyed, no hole card public."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.session import DONE
from bot.tree import APOLOGY, DATABASE_DOWN
from fakediscord.model import FakeUser
from tests.discord.gioco_support import HEADS_UP, HEADS_UP_TEXAS, Game, heads_up, seats, total
from tests.discord.torneo_support import Torneo

ODD_TEXT = [
    "@everyone",
    "@here",
    "<@1234567890>",
    "<@&1234567890>",
    "**grassetto** `x` ||spoiler||",
    "riga\nriga",
    "\u200b",
    "x" * 150,
    "🤖",
    "🂡🂱",
]
ODD_AMOUNTS = [
    "-10",
    "0",
    "00",
    "10" + "0" * 28,  # 10^30
    " 1 0 ",
    "1_000",
    "1e3",
    "١٢",
    "１２",
    "¹²",
    "½",
    "NaN",
    "nan",
    "∞",
    "inf",
    "💯",
    "10 fiches",
    "tutto!",
    "TUTTO",
    "\u200b10",
    "10\u200b",
    "1.000.000.000.000",
    "999.999.999.999",
    "@everyone",
    "<@1>",
]


def assert_refused(harness: Any, reply: Any, public_before: int) -> None:
    """One private sentence, not the apology, and nothing new in public."""
    assert reply.ephemeral, f"public answer to hostile input: {reply.content!r}"
    assert reply.content and reply.content not in (APOLOGY, DATABASE_DOWN, DONE), reply.content
    assert len(reply.record.followup_ids) <= 1, "more than one answer"
    assert len(harness.public_texts()) == public_before, harness.public_texts()[public_before:]


async def refused(harness: Any, coro: Any) -> Any:
    before = len(harness.public_texts())
    reply = await coro
    assert_refused(harness, reply, before)
    return reply


def bot_member(harness: Any, name: str = "altrobot") -> FakeUser:
    fake = harness.fake
    user = fake.users.get(name)
    if user is None:
        user = FakeUser(fake.snow.next(), name, bot=True)
        fake.users[name] = user
    return user


# 1. A channel without a table or tournament --------------------------------------------------------

NO_TABLE_COMMANDS: list[tuple[str, dict[str, Any]]] = [
    ("tavolo siedi", {}),
    ("tavolo siedi", {"buyin": 10}),
    ("tavolo alzati", {}),
    ("tavolo inizia", {}),
    ("tavolo rientra", {}),
    ("tavolo stato", {}),
    ("tavolo regole", {}),
    ("tavolo chiudi", {}),
    ("tavolo riepilogo", {}),
    ("tavolo computer", {}),
    ("tavolo congeda", {}),
    ("tavolo congeda", {"nome": "@everyone"}),
    ("apro", {}),
    ("apro", {"importo": "NaN"}),
    ("vedo", {}),
    ("rilancio", {"importo": "∞"}),
    ("passo", {}),
    ("paròl", {}),
    ("punto", {"importo": "١٢"}),
    ("servito", {}),
    ("cambio", {"carte": "1 1 9"}),
    ("buio", {}),
    ("controbuio", {}),
    ("carte", {}),
    ("mano", {}),
    ("mano", {"numero": 1_000_000_000}),
    ("torneo stato", {}),
    ("torneo iscriviti", {}),
    ("torneo computer", {}),
    ("torneo ritirati", {}),
    ("torneo inizia", {}),
    ("torneo annulla", {}),
]


async def test_every_command_in_a_channel_without_a_table_is_refused_privately(harness: Any) -> None:
    alice = harness.user("alice")
    await harness.slash(alice, "saldo")
    for command, options in NO_TABLE_COMMANDS:
        await refused(harness, harness.slash(alice, command, **options))
    assert await harness.bot.storage.balance(harness.guild_id, alice.id) == 1000
    assert await harness.bot.storage.check() == []


# 2. /tavolo nuovo options --------------------------------------------------------------------------

BAD_AVVISO = [
    "@everyone",
    "١٢",
    "１２",
    "¹",
    "½",
    "∞",
    "NaN",
    "-1",
    "3601",
    "1e3",
    "\u200b",
    "1 0",
    "🔔",
    "10s",
]


async def test_tavolo_nuovo_with_a_bad_avviso_opens_nothing(harness: Any) -> None:
    alice = harness.user("alice")
    for avviso in BAD_AVVISO:
        reply = await refused(
            harness, harness.slash(alice, "tavolo nuovo", variante="italiana", avviso=avviso)
        )
        assert "avviso" in reply.content.lower(), (avviso, reply.content)
        assert harness.bot.tables.get(harness.channel("poker").id) is None


async def test_tavolo_nuovo_option_combinations_refused_or_opened_cleanly(harness: Any) -> None:
    alice = harness.user("alice")
    cases = [
        {"variante": "texas", "cip": 1},
        {"variante": "32carte", "cip": 1},
        {"variante": "italiana", "limite": "nolimit"},
        {"variante": "italiana", "limite": "fisso"},
        {"variante": "32carte", "limite": "fisso"},
        {"variante": "texas", "semi": False},
        {"variante": "italiana", "semi": False},
    ]
    for options in cases:
        await refused(harness, harness.slash(alice, "tavolo nuovo", **options))
        assert harness.bot.tables.get(harness.channel("poker").id) is None
    assert await harness.bot.storage.check() == []


# 3. Tournament and cash table in the same channel ---------------------------------------------------


async def test_a_cash_table_cannot_open_beside_an_announced_tournament(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await Torneo(harness).announce(alice, "italiana")
    await harness.slash(bob, "torneo iscriviti")
    held = await total(harness, alice, bob)
    reply = await refused(harness, harness.slash(bob, "tavolo nuovo", variante="italiana"))
    # The ledger's own refusal says a *table* is open here; there is none (the tournament holds the
    # channel), and /tavolo siedi then says there is no table and to open one: two private sentences
    # that contradict each other. The refusal should name the tournament, as /torneo nuovo does.
    assert "torneo" in reply.content.lower(), reply.content
    await refused(harness, harness.slash(alice, "tavolo siedi", buyin=100))
    await refused(harness, harness.slash(alice, "torneo nuovo", variante="texas"))
    assert harness.bot.tables.get(harness.channel("poker").id) is None
    assert await total(harness, alice, bob) == held
    assert await harness.bot.storage.check() == []


async def test_a_tournament_cannot_be_announced_at_a_cash_table(harness: Any) -> None:
    alice = harness.user("alice")
    await harness.slash(alice, "tavolo nuovo", variante="italiana")
    await harness.slash(alice, "tavolo siedi", buyin=100)
    await refused(harness, harness.slash(alice, "torneo nuovo", variante="italiana", buyin=0))
    for command in ("torneo iscriviti", "torneo stato", "torneo inizia", "torneo annulla", "torneo computer"):
        await refused(harness, harness.slash(alice, command))
    assert await harness.bot.storage.check() == []


@pytest.fixture
async def h0(harness_factory: Any) -> Any:
    return await harness_factory(tournament_pause=0)


async def test_cash_table_commands_at_a_tournament_table_are_refused(h0: Any) -> None:
    h = h0
    alice, bob, eve = h.user("alice"), h.user("bob"), h.user("eve")
    admin = h.user("admin", manage_guild=True)
    game = Torneo(h)
    await game.announce(alice, "italiana", buyin=10, posti=2)
    await game.join([alice, bob])  # full: it starts
    await h.fake.wait_for(lambda: game.live is not None and game.live.table.hand_running, "the first deal")
    await h.settle()
    held = await total(h, alice, bob, eve)
    table = game.live.table
    for user, command, options in [
        (eve, "tavolo siedi", {"buyin": 100}),
        (alice, "tavolo siedi", {}),
        (alice, "tavolo alzati", {}),
        (eve, "tavolo alzati", {}),
        (alice, "tavolo computer", {}),
        (alice, "tavolo congeda", {}),
        (alice, "tavolo congeda", {"nome": "@everyone"}),
        (alice, "tavolo chiudi", {}),
        (admin, "tavolo chiudi", {}),
        (alice, "tavolo riepilogo", {}),
        (alice, "tavolo inizia", {}),
        (eve, "tavolo inizia", {}),
        (alice, "tavolo rientra", {}),
        (eve, "carte", {}),
        (eve, "passo", {}),
        (alice, "tavolo nuovo", {"variante": "texas"}),
        (alice, "torneo nuovo", {"variante": "texas"}),
        (eve, "torneo iscriviti", {}),
        (eve, "torneo ritirati", {}),  # not in it (alice would be made away: rules §7)
        (alice, "torneo inizia", {}),
        (bob, "torneo annulla", {}),
        (alice, "torneo computer", {}),
        (eve, "torneo computer", {}),
    ]:
        await refused(h, h.slash(user, command, **options))
    assert game.live.table is table and table.hand_running
    assert await total(h, alice, bob, eve) == held
    assert await h.bot.storage.check() == []


# 4. Amounts ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["apro", "punto", "rilancio"])
async def test_odd_amounts_as_slash_options_change_nothing(harness: Any, command: str) -> None:
    game, alice, bob = await heads_up(harness)
    before = game.table.to_dict()
    for amount in ODD_AMOUNTS + ODD_TEXT + ([] if command == "apro" else [""]):
        reply = await refused(harness, game.say(bob, command, importo=amount))
        assert len(reply.content) < 300, reply.content
        assert "@everyone" not in reply.content or "@\u200beveryone" in reply.content
    assert game.table.to_dict() == before
    assert await seats(harness) == {alice.id: 300, bob.id: 300}
    game.finish()


async def test_odd_amounts_in_the_texas_raise_modal_change_nothing(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], limite="nolimit")
    await game.start(alice, HEADS_UP_TEXAS)
    first = alice if game.table.to_act == alice.id else bob
    before = game.table.to_dict()
    label = next(
        c["label"] for c in game.message.components if str(c.get("label", "")).startswith("Rilancio")
    )
    for amount in [
        "-1",
        "0",
        "1e3",
        "١٢",
        "１２",
        "½",
        "NaN",
        "∞",
        "💯",
        "99999999999999999999",
        " ",
        "\u200b",
    ]:
        modal = await harness.click(first, game.message, label=label)
        await refused(harness, game.submit(first, modal, {"importo": amount}))
    assert game.table.to_dict() == before
    # 999.999.999.999 (fits in 20 characters) is far more than his stack: the engine refuses it.
    modal = await harness.click(first, game.message, label=label)
    await refused(harness, game.submit(first, modal, {"importo": "999.999.999.999"}))
    assert game.table.to_dict() == before
    game.finish()


async def test_an_amount_modal_submitted_twice_acts_once(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    held = await total(harness, alice, bob)
    modal = await harness.click(bob, game.message, label="Apro…")
    first = await game.submit(bob, modal, {"importo": "10"})
    assert not first.ephemeral or first.callback_type == 7, first.content
    state = game.table.to_dict()
    await refused(harness, game.submit(bob, modal, {"importo": "10"}))
    await refused(harness, game.submit(bob, modal, {"importo": "tutto"}))
    assert game.table.to_dict() == state
    assert await total(harness, alice, bob) == held
    game.finish()


async def test_an_amount_modal_submitted_twice_at_once_acts_once(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    held = await total(harness, alice, bob)
    modal = await harness.click(bob, game.message, label="Apro…")
    replies = await asyncio.gather(
        harness.fake.submit_modal(bob, modal, {"importo": "10"}, settle=False),
        harness.fake.submit_modal(bob, modal, {"importo": "10"}, settle=False),
    )
    await harness.settle()
    private = [r for r in replies if r.ephemeral]
    assert len(private) == 1, [(r.callback_type, r.content) for r in replies]
    assert game.table.to_act == alice.id
    assert await total(harness, alice, bob) == held
    game.finish()


# 5. The draw: /cambio and the menu ----------------------------------------------------------------

ODD_DISCARDS = [
    "1 1",
    "01 1",
    "1,1",
    "1;3",
    "1/3",
    "1-3",
    "1.3",
    "1 3 3",
    "0",
    "6",
    "99",
    "-1",
    "1 2 3 4 5 6 7 8 9 10 11",
    "A♥ a♥",
    "10♥ T♥",
    "1 A♥",
    "Aſ",
    "１ ３",
    "١ ٣",
    "¹ ³",
    "½",
    "\u200b1",
    "1\u200b3",
    "@everyone",
    "<@1234567890>",
    "**1**",
    "x" * 150,
    "🂡",
    ",",
    " ",
]


async def test_odd_discards_change_nothing(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    await game.say(bob, "apro", importo="10")
    await game.say(alice, "vedo")
    before = game.table.to_dict()
    for text in ODD_DISCARDS:
        reply = await refused(harness, game.say(bob, "cambio", carte=text))
        assert len(reply.content) < 300, (text, reply.content)
    assert game.table.to_dict() == before
    # Mixed separators that are valid: commas, tabs, newlines.
    reply = await game.say(bob, "cambio", carte="4,\t5")
    assert not reply.ephemeral, reply.content
    game.finish()


async def test_the_draw_menu_used_twice_draws_once(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    await game.say(bob, "apro", importo="10")
    await game.say(alice, "vedo")
    held = await total(harness, alice, bob)
    menu = await harness.click(bob, game.message, label="Cambio…")
    menu_id = game.menu_id
    options = [o["value"] for o in menu.component(custom_id=menu_id)["options"]]
    payload = dict(menu.message.payload)
    await game.select(bob, menu, menu_id, options[:2])
    cards = game.table.cards_of(bob.id)
    # The same menu again, from a client still showing it.
    record = harness.fake._component_interaction(
        bob, menu.message, {"custom_id": menu_id, "component_type": 3, "values": options[2:4]}
    )
    record.payload["message"] = payload
    await refused(harness, harness.fake._send(record, "the draw menu again"))
    assert game.table.cards_of(bob.id) == cards
    assert await total(harness, alice, bob) == held
    game.finish()


# 6. Users: the bot, another bot, oneself ------------------------------------------------------------


async def test_user_options_pointing_at_bots(harness: Any) -> None:
    admin, alice = harness.user("admin", manage_guild=True), harness.user("alice")
    robot = bot_member(harness)
    me = harness.fake.bot_user
    for target in (robot, me):
        await refused(harness, harness.slash(alice, "statistiche", utente=target))
        await refused(harness, harness.slash(admin, "accredita", utente=target, importo=100))
    reply = await harness.slash(alice, "statistiche", utente=alice)
    assert reply.ephemeral
    assert await harness.bot.storage.check() == []
    rows = await harness.bot.storage.leaderboard(harness.guild_id, limit=100)
    assert {r.user_id for r in rows} & {robot.id, me.id} == set(), "a bot got an account"


# 7. Admin commands by players -----------------------------------------------------------------------


async def test_close_dismiss_and_cancel_by_others_are_refused(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await harness.slash(alice, "tavolo computer", livello="facile")
    held = await total(harness, alice, bob)
    await refused(harness, harness.slash(bob, "tavolo chiudi"))
    await refused(harness, harness.slash(bob, "tavolo congeda"))
    for name in [*ODD_TEXT, "", "🤖 ", "🤖🤖"]:
        await refused(harness, harness.slash(alice, "tavolo congeda", nome=name))
    assert len([s for s in game.live.view().seats if s.player < 0]) == 1
    assert await total(harness, alice, bob) == held
    assert await harness.bot.storage.check() == []


# 8. An old hand's button ------------------------------------------------------------------------------


async def test_buttons_of_an_old_hand_change_nothing(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    old = game.message
    old_payload = dict(old.payload)
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    await game.start(alice, HEADS_UP)
    held = await total(harness, alice, bob)
    state = game.table.to_dict()
    for label in ("Passo", "Apro…", "Le mie carte"):
        custom = next(
            (c["custom_id"] for c in _walk(old_payload.get("components") or []) if c.get("label") == label),
            None,
        )
        if custom is None:
            continue
        for user in (alice, bob):
            record = harness.fake._component_interaction(
                user, old, {"custom_id": custom, "component_type": 2}
            )
            record.payload["message"] = old_payload
            reply = await harness.fake._send(record, f"old {label}")
            assert reply.ephemeral, (label, reply.content)
    assert game.table.to_dict() == state
    assert await total(harness, alice, bob) == held
    game.finish()


def _walk(components: list[Any]) -> list[Any]:
    out: list[Any] = []
    for c in components:
        out.append(c)
        out.extend(_walk(c.get("components") or []))
    return out


# 9. Odd stakes: a table or tournament whose options are legal but extreme ------------------------------


async def held_at(harness: Any, *users: Any) -> int:
    """Balances, seats and every table's pot of the server: what no action may change."""
    rows = await harness.bot.storage.leaderboard(harness.guild_id, limit=100)
    pots = sum(live.view().pot + live.view().carried for live in harness.bot.tables)
    return sum(row.total for row in rows if row.user_id in {u.id for u in users}) + pots


async def test_the_creator_closes_a_table_its_last_players_left_with_a_pot_carried(harness: Any) -> None:
    """Nobody opens heads-up: the invito is carried. Both players stand up (allowed); the creator
    closes the empty table, and the carried chips go back to who put them in (docs/rules.md §5.1),
    instead of a refusal for ever and chips belonging to nobody."""
    game, alice, bob = await heads_up(harness)
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    assert game.live.view().carried > 0
    for user in (bob, alice):
        reply = await harness.slash(user, "tavolo alzati")
        assert not reply.ephemeral, reply.content
    assert game.live.view().seats == () or not game.live.view().seats
    reply = await harness.slash(alice, "tavolo chiudi")
    assert not reply.ephemeral, f"the creator cannot close his empty table: {reply.content!r}"
    assert harness.bot.tables.get(harness.channel("poker").id) is None
    assert await total(harness, alice, bob) == 2000, "the carried chips went nowhere"
    game.finish()


async def test_a_texas_tournament_of_one_chip_stacks_against_a_huge_blind(h0: Any) -> None:
    h = h0
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=10, posti=2, fiches=1, cip=1_000_000)
    await game.join([alice, bob])
    await game.play_out()
    assert await h.bot.storage.check() == []
    assert await total(h, alice, bob) == 2000


async def test_a_tournament_of_maximum_buy_ins_pays_its_winner(h0: Any) -> None:
    h = h0
    admin, alice, bob = h.user("admin", manage_guild=True), h.user("alice"), h.user("bob")
    for user in (alice, bob):
        await h.slash(admin, "accredita", utente=user, importo=10**12)
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=10**12, posti=2)
    await game.join([alice, bob])
    await game.play_out()
    assert await h.bot.storage.check() == []
    assert await total(h, alice, bob) == 2 * (10**12 + 1000)


# 10. The same command twice at once ------------------------------------------------------------------


async def twice(harness: Any, user: Any, command: str, **options: Any) -> list[Any]:
    replies = await asyncio.gather(
        harness.fake.slash(user, command, settle=False, **options),
        harness.fake.slash(user, command, settle=False, **options),
    )
    await harness.settle()
    return list(replies)


async def test_commands_sent_twice_at_once_act_once(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await harness.slash(alice, "saldo")
    await harness.slash(bob, "saldo")
    first, second = await twice(harness, alice, "bonus")
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True], (first.content, second.content)
    await harness.slash(alice, "tavolo nuovo", variante="italiana")
    replies = await twice(harness, bob, "tavolo siedi", buyin=300)
    assert sum(not r.ephemeral or r.content == DONE for r in replies) == 1, [r.content for r in replies]
    await harness.slash(alice, "tavolo siedi", buyin=300)
    harness.bot.tables.queue_deck(harness.channel("poker").id, HEADS_UP)
    replies = await twice(harness, alice, "tavolo inizia")
    assert sum(r.ephemeral and r.content != DONE for r in replies) == 1, [r.content for r in replies]
    assert harness.bot.tables.get(harness.channel("poker").id).table.hand_number == 1
    replies = await twice(harness, bob, "tavolo alzati")
    assert sum(r.ephemeral and r.content != DONE for r in replies) == 1, [r.content for r in replies]
    assert await total(harness, alice, bob) == 2200 and await harness.bot.storage.check() == []


async def test_prossima_mano_clicked_twice_at_once_deals_once(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    message = game.message
    harness.bot.tables.queue_deck(harness.channel("poker").id, HEADS_UP)
    replies = await asyncio.gather(
        harness.fake.click(alice, message, label="Prossima mano", settle=False),
        harness.fake.click(bob, message, label="Prossima mano", settle=False),
    )
    await harness.settle()
    assert game.table.hand_number == 2
    assert sum(r.ephemeral and r.content != DONE for r in replies) == 1, [r.content for r in replies]
    assert await harness.bot.storage.check() == []


async def test_torneo_iscriviti_twice_at_once_pays_once(h0: Any) -> None:
    h = h0
    alice, bob = h.user("alice"), h.user("bob")
    await Torneo(h).announce(alice, "italiana", buyin=100, posti=3)
    replies = await twice(h, bob, "torneo iscriviti")
    assert sum(r.ephemeral and r.content != DONE for r in replies) == 1, [r.content for r in replies]
    assert await h.bot.storage.balance(h.guild_id, bob.id) == 900
    assert await h.bot.storage.check() == []


async def test_a_forged_game_click_in_a_dm_is_refused(harness: Any) -> None:
    game, _alice, bob = await heads_up(harness)
    custom = next(c["custom_id"] for c in game.message.components if c.get("label") == "Passo")
    fake = harness.fake
    record = fake._base(3, bob, fake.dm_channel(bob))
    record.payload["message"] = dict(game.message.payload)
    record.payload["data"] = {"custom_id": custom, "component_type": 2}
    state = game.table.to_dict()
    reply = await fake._send(record, "a click in a DM")
    assert reply.ephemeral and "messaggi privati" in reply.content, reply.content
    assert game.table.to_dict() == state
    game.finish()


async def test_forged_slash_commands_in_a_dm_are_refused(harness: Any) -> None:
    """Discord does not offer guild commands in DMs; a client that sends one anyway gets one private
    sentence, never an ERROR."""
    from fakediscord.interactions import build_command_data

    fake = harness.fake
    alice = harness.user("alice")
    for command, options in [
        ("saldo", {}),
        ("apro", {"importo": "@everyone"}),
        ("tavolo nuovo", {"variante": "texas"}),
    ]:
        name, *path = command.split()
        cmd = fake.guild_commands[fake.guild_id][name]
        record = fake._base(2, alice, fake.dm_channel(alice))
        record.payload["data"] = build_command_data(fake, cmd, path, options, None)
        reply = await fake._send(record, f"/{command} in a DM")
        assert reply.ephemeral and reply.content, (command, reply.content)
        assert reply.content != APOLOGY
    assert harness.bot.tables.get(fake.dm_channel(alice).id) is None
