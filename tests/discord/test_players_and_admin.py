"""The Discord side as players and an admin use it: the table, the chips and playing a hand.

Each test is named after what a player or admin expects. Ten of them began as strict xfails (findings
the code did not meet); all are fixed now, and a new finding goes in as xfail(strict=True) with its reason.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import pytest

from bot.session import MOVED_ON, NO_HAND_CARDS, STALE, START_REFUSED, not_your_turn
from engine.cards import Card
from tests.discord.gioco_support import (
    HEADS_UP,
    THREE,
    Game,
    acknowledged_while_busy,
    balances,
    heads_up,
    seats,
    stacked,
    total,
)

EDIT = "/channels/{channel_id}/messages/{message_id}"

# ------------------------------------------------------------------------------------------------
# Answered within Discord's 3-second window


async def test_a_click_on_passo_while_the_table_is_busy_is_acknowledged_at_once(harness: Any) -> None:
    game, _alice, bob = await heads_up(harness)
    early, _reply = await acknowledged_while_busy(
        harness, game, lambda: harness.click(bob, game.message, label="Passo")
    )
    assert early == 6
    game.finish()


async def test_a_slash_action_while_the_table_is_busy_is_acknowledged_at_once(harness: Any) -> None:
    game, _alice, bob = await heads_up(harness)
    early, reply = await acknowledged_while_busy(
        harness, game, lambda: harness.slash(bob, "passo", channel="poker")
    )
    assert early is not None, "no answer while the table was busy"
    assert reply.callback_type is not None
    game.finish()


async def test_le_mie_carte_while_the_table_is_busy_is_acknowledged_at_once(harness: Any) -> None:
    game, alice, _bob = await heads_up(harness)
    early, reply = await acknowledged_while_busy(
        harness, game, lambda: harness.click(alice, game.message, label="Le mie carte")
    )
    assert early is not None, "no answer while the table was busy"
    assert reply.ephemeral
    game.finish()


async def test_the_apro_button_while_the_table_is_busy_opens_its_modal_at_once(harness: Any) -> None:
    game, _alice, bob = await heads_up(harness)
    early, reply = await acknowledged_while_busy(
        harness, game, lambda: harness.click(bob, game.message, label="Apro…")
    )
    assert early == 9, "the modal was not opened while the table was busy"
    assert reply.modal is not None
    game.finish()


# ------------------------------------------------------------------------------------------------
# Two clicks at once: the lock serialises them, no chip is created or lost


async def test_two_clicks_on_vedo_at_once_play_it_once_and_lose_no_chip(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    await game.say(bob, "apro", importo="10")
    before = await total(harness, alice, bob)
    chips = game.table.total_chips()
    message = game.message
    first, second = await asyncio.gather(
        harness.fake.click(alice, message, label="Vedo 10 fiches", settle=False),
        harness.fake.click(alice, message, label="Vedo 10 fiches", settle=False),
    )
    await harness.settle()
    game._note()
    replies = sorted([first, second], key=lambda r: r.ephemeral)
    assert not replies[0].ephemeral and replies[1].ephemeral, replies
    assert replies[1].content == not_your_turn(bob.id)
    assert game.table.to_act == bob.id, "the draw: bob speaks first"
    assert game.table.total_chips() == chips
    assert await total(harness, alice, bob) == before
    game.finish()


async def test_prossima_mano_pressed_twice_at_once_deals_one_hand(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await game.start(alice, HEADS_UP)
    await game.say(bob, "passo")
    await game.say(alice, "passo")  # nobody opens: the pot is carried
    assert not game.table.hand_running
    finished = game.message
    first, second = await asyncio.gather(
        harness.fake.click(alice, finished, label="Prossima mano", settle=False),
        harness.fake.click(bob, finished, label="Prossima mano", settle=False),
    )
    await harness.settle()
    replies = sorted([first, second], key=lambda r: r.ephemeral)
    assert not replies[0].ephemeral and replies[1].ephemeral, replies
    assert replies[1].content == STALE, "the message pressed is of a finished hand now"
    assert game.table.hand_number == 2
    game.finish()


async def test_sitting_at_two_tables_at_once_cannot_spend_the_same_chips_twice(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    for channel in ("poker", "generale"):
        await harness.slash(alice, "tavolo nuovo", channel=channel, variante="italiana")
    first, second = await asyncio.gather(
        harness.slash(bob, "tavolo siedi", channel="poker", buyin=800, settle=False),
        harness.slash(bob, "tavolo siedi", channel="generale", buyin=800, settle=False),
    )
    await harness.settle()
    replies = sorted([first, second], key=lambda r: r.ephemeral)
    assert not replies[0].ephemeral and replies[1].ephemeral, replies
    assert (await balances(harness, bob))["bob"] == 200
    assert await total(harness, bob) == 1000, "the starting balance, split between balance and one seat"
    assert await harness.bot.storage.check() == []
    sat = [c for c in ("poker", "generale") if harness.bot.tables.get(harness.channel(c).id).seated(bob.id)]
    assert len(sat) == 1


# ------------------------------------------------------------------------------------------------
# Buy-in from a small balance


async def test_a_balance_below_the_default_buy_in_sits_with_all_of_it_and_plays(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    # Bob leaves 5 chips in his balance by sitting at another table first.
    await harness.slash(alice, "tavolo nuovo", channel="generale", variante="italiana")
    await harness.slash(bob, "tavolo siedi", channel="generale", buyin=995)
    game = Game(harness)
    await game.open(alice, "italiana", [alice])
    sat = await harness.slash(bob, "tavolo siedi", channel="poker")
    assert not sat.ephemeral, sat.content
    assert (await seats(harness))[bob.id] == 5
    assert (await balances(harness, bob))["bob"] == 0
    before = await total(harness, alice, bob)
    await game.start(alice, HEADS_UP)
    opened = await game.say(bob, "apro", importo="tutto")
    assert "apre 5 fiches (tutto dentro)" in opened.content
    await game.say(alice, "vedo")
    await game.say(bob, "servito")
    await game.say(alice, "servito")
    assert not game.table.hand_running
    assert await total(harness, alice, bob) == before
    assert await harness.bot.storage.check() == []
    game.finish()


# ------------------------------------------------------------------------------------------------
# Stale components: private refusals, nothing changes


async def test_an_amount_modal_sent_after_the_turn_moved_on_is_refused_privately(harness: Any) -> None:
    game, _alice, bob = await heads_up(harness)
    modal = await harness.click(bob, game.message, label="Apro…")
    await game.expire()  # bob's time runs out while the modal is open: he passes the opening
    view = game.live.view()
    late = await game.submit(bob, modal, {"importo": "10"})
    assert late.ephemeral and late.content == not_your_turn(game.table.to_act), late.content
    assert game.live.view() == view
    game.finish()


async def test_a_draw_menu_from_a_finished_turn_is_refused_privately(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    await game.say(bob, "apro", importo="10")
    await game.say(alice, "vedo")
    menu = await harness.click(bob, game.message, label="Cambio…")
    assert menu.ephemeral
    drawn = game.menu_id  # bound to this turn
    await game.say(bob, "servito")
    view = game.live.view()
    options = menu.component(custom_id=drawn)["options"]
    late = await game.select(bob, menu, drawn, [options[0]["value"]])
    assert late.ephemeral and late.content == not_your_turn(alice.id), late.content
    assert game.live.view() == view
    game.finish()


async def test_a_word_drawn_before_the_game_moved_on_acts_on_nothing_even_on_ones_own_turn(
    harness: Any,
) -> None:
    # The table message still shows an older turn (its edits held back by rate limits): it offers
    # "Vedo 10" while the call is now bigger. An amount modal opened a turn ago carries that turn too.
    game, alice, bob = await heads_up(harness)
    await game.say(bob, "apro", importo="10")
    stale = game.message
    modal = await harness.click(alice, stale, label="Rilancio…")
    harness.bot.sessions.retry_first = 10.0  # the renderer waits long after a failed edit
    harness.fake.fail_next(429, times=50, method="PATCH", route=EDIT, retry_after=0.01)
    await game.say(alice, "rilancio", importo="10")
    await game.say(bob, "rilancio", importo="10")
    assert game.table.to_act == alice.id, "alice's turn again, facing a bigger bet"
    assert stale.component(label="Vedo 10 fiches"), "the channel still shows her earlier turn"
    view = game.live.view()
    clicked = await harness.click(alice, stale, label="Vedo 10 fiches")
    assert clicked.ephemeral and clicked.content == MOVED_ON, clicked.content
    late = await game.submit(alice, modal, {"importo": "10"})
    assert late.ephemeral and late.content == MOVED_ON, late.content
    assert game.live.view() == view, "nothing changed"
    game.finish()


async def test_prossima_mano_pressed_by_a_spectator_is_refused_privately(harness: Any) -> None:
    alice, bob, eve = harness.user("alice"), harness.user("bob"), harness.user("eve")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await game.start(alice, HEADS_UP)
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    view = game.live.view()
    reply = await harness.click(eve, game.message, label="Prossima mano")
    assert reply.ephemeral and reply.content == START_REFUSED
    assert game.live.view() == view
    game.finish()


async def test_le_mie_carte_by_a_spectator_shows_no_card(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    eve = harness.user("eve")
    reply = await harness.click(eve, game.message, label="Le mie carte")
    assert reply.ephemeral
    for player in (alice, bob):
        for card in game.table.cards_of(player.id):
            assert str(card) not in reply.content
    assert reply.content == "Non sei seduto a questo tavolo."
    game.finish()


async def test_carte_between_hands_is_a_private_answer_without_cards(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    reply = await harness.slash(bob, "carte")
    assert reply.ephemeral and reply.content == NO_HAND_CARDS
    await game.start(alice)
    again = await harness.slash(bob, "carte")
    assert again.ephemeral and again.content.startswith("Le tue carte: ")
    game.finish()


# ------------------------------------------------------------------------------------------------
# The table message


async def test_the_table_message_is_never_edited_through_an_interaction_token(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    table_message = game.live.message_id
    await game.say(bob, "apro", importo="10")
    # A click while the table is busy is deferred, then answered: still through the channel.
    early, _ = await acknowledged_while_busy(
        harness, game, lambda: harness.click(alice, game.message, label="Vedo 10 fiches")
    )
    assert early == 6
    await game.say(bob, "cambio", carte="3 4 5")
    menu = await harness.click(alice, game.message, label="Cambio…")
    options = menu.component(custom_id=game.menu_id)["options"]
    await game.select(alice, menu, game.menu_id, [options[-1]["value"]])
    assert game.live.message_id == table_message
    through_token: list[int] = []
    through_channel: list[int] = []
    for method, path, _status in harness.fake.rest_log:
        if method != "PATCH":
            continue
        parts = path.split("?")[0].split("/")
        if "webhooks" in parts:
            token, wanted = parts[parts.index("webhooks") + 2], parts[-1]
            record = harness.fake.interactions[token]
            through_token.append(record.original_id if wanted == "@original" else int(wanted))
        elif "channels" in parts and "messages" in parts:
            through_channel.append(int(parts[-1]))
    assert table_message not in through_token
    assert through_channel.count(table_message) >= 3, "slash actions and the deferred click edit it"
    game.finish()


async def test_a_click_and_the_turn_timer_at_the_same_moment_act_only_once(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    chips = game.table.total_chips()
    ops = len(game.table.hand_record()["ops"])
    deadline = harness.bot.sessions.timers.deadline(harness.channel("poker").id)
    message = game.message
    game.clock.advance(deadline - game.clock.now() + 1)
    reply = await harness.fake.click(bob, message, label="Passo", settle=False)
    await harness.settle()
    game._note()
    assert game.table.to_act == alice.id, "bob's opening was passed exactly once"
    assert len(game.table.hand_record()["ops"]) == ops + 1
    assert game.table.total_chips() == chips
    if reply.ephemeral:
        assert reply.content == not_your_turn(alice.id)
    game.finish()


async def test_after_a_restart_the_cancelled_hands_message_no_longer_shows_it_running(harness: Any) -> None:
    game, _alice, _bob = await heads_up(harness)
    interrupted = game.message
    await game.restart()
    labels = {c.get("label") for c in interrupted.components}
    assert not labels & {"Apro…", "Passo", "Le mie carte"}, labels
    assert "Tocca a" not in interrupted.text()
    game.finish()


async def test_after_chiudi_the_last_table_message_offers_no_next_hand(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await game.start(alice, HEADS_UP)
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    last = game.message
    closed = await harness.slash(alice, "tavolo chiudi")
    assert not closed.ephemeral
    labels = {c.get("label") for c in last.components}
    assert "Prossima mano" not in labels, labels


# ------------------------------------------------------------------------------------------------
# Hole cards never in logs


async def test_hole_cards_never_reach_a_log_line_even_at_debug_level(
    harness: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # what LOG_LEVEL=DEBUG gives the root logger (bot.logging_setup)
    game, alice, bob = await heads_up(harness)
    held: set[Card] = set(game.table.cards_of(alice.id)) | set(game.table.cards_of(bob.id))
    leaked = [(r.name, card) for r in caplog.records for card in held if str(card) in r.getMessage()]
    game.finish()
    assert leaked == []


async def test_hole_cards_never_reach_a_log_line_at_info_level(
    harness: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    harness.close_dms(harness.user("bob"))
    game, alice, bob = await heads_up(harness)
    held = set(game.table.cards_of(alice.id)) | set(game.table.cards_of(bob.id))
    await game.say(bob, "apro", importo="10")
    await game.say(alice, "vedo")
    await game.say(bob, "cambio", carte="3 4 5")
    await game.say(alice, "cambio", carte="1")
    held |= set(game.table.cards_of(alice.id)) | set(game.table.cards_of(bob.id))
    leaked = [(r.name, card) for r in caplog.records for card in held if str(card) in r.getMessage()]
    assert leaked == []
    game.finish()


# ------------------------------------------------------------------------------------------------
# Leaving, joining and a restart


async def test_a_player_leaving_mid_hand_gets_his_stack_back_at_once(harness: Any) -> None:
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    await game.start(alice, THREE)  # alice deals and pays the invito; bob is asked for the buio
    left = await harness.slash(carol, "tavolo alzati")
    assert not left.ephemeral
    assert game.table.hand_running
    assert (await balances(harness, carol))["carol"] == 1000, "his 300 chips are back in his balance"
    game.finish()


async def test_a_player_who_left_mid_hand_is_not_seated_again_by_a_restart(harness: Any) -> None:
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob, carol])
    await game.start(alice, THREE)
    left = await harness.slash(carol, "tavolo alzati")
    assert not left.ephemeral
    await harness.restart()
    game.use_clock()
    assert await harness.bot.storage.check() == []
    assert carol.id not in game.table.seats()
    assert carol.id not in await seats(harness)
    assert (await balances(harness, carol))["carol"] == 1000
    game.finish()


async def test_a_late_joiner_gets_his_buy_in_back_when_a_restart_cancels_the_hand(harness: Any) -> None:
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await game.start(alice, HEADS_UP)
    await game.say(bob, "apro", importo="10")
    sat = await harness.slash(carol, "tavolo siedi", buyin=150)
    assert "gioca dalla prossima mano" in sat.content
    await harness.restart()
    game.use_clock()
    assert await harness.bot.storage.check() == []
    ledger = await seats(harness)
    engine = game.table.seats()
    assert ledger == engine, "the ledger and the restored table agree on every seat"
    assert await total(harness, alice, bob, carol) == 3000
    carol_total = (await balances(harness, carol))["carol"] + ledger.get(carol.id, 0)
    assert carol_total == 1000
    game.finish()


async def test_a_player_whose_dms_open_again_gets_his_cards_and_loses_the_note(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    harness.close_dms(bob)
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await game.start(alice, HEADS_UP)
    assert "Carte non consegnate in privato" in game.message.text()
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    assert "Carte non consegnate" not in game.message.text()
    harness.fake.closed_dms.discard(bob.id)
    await game.start(bob, stacked(["9h 9d Qc Kd As", "Jh Js 9c Td Ah"]))
    assert "Carte non consegnate" not in game.message.text()
    assert len(harness.dms(bob)) == 1
    game.finish()


async def test_once_a_new_hand_is_posted_the_previous_message_offers_no_next_hand(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    game = Game(harness)
    await game.open(alice, "italiana", [alice, bob])
    await game.start(alice, HEADS_UP)
    await game.say(bob, "passo")
    await game.say(alice, "passo")
    previous = game.message
    await game.start(bob, stacked(["9h 9d Qc Kd As", "Jh Js 9c Td Ah"]), message=previous)
    assert game.message.id != previous.id
    labels = {c.get("label") for c in previous.components}
    assert "Prossima mano" not in labels, labels
    game.finish()


# ------------------------------------------------------------------------------------------------
# Refusals: private, one Italian sentence, nothing changes


def one_sentence(text: str) -> bool:
    return len(re.split(r"(?<=[.!?])\s+(?=[A-ZÀ-Ú«])", text.strip())) == 1 and text.strip()[-1] in ".!?"


async def test_every_refusal_of_a_running_hand_is_one_private_sentence(harness: Any) -> None:
    game, alice, bob = await heads_up(harness)
    eve = harness.user("eve")
    view, ledger = game.live.view(), await seats(harness)
    replies = [
        await game.say(alice, "vedo"),
        await game.say(eve, "passo"),
        await game.say(bob, "punto", importo="10"),
        await game.say(bob, "apro", importo="500"),
        await game.say(bob, "apro", importo="dieci"),
        await game.say(bob, "cambio", carte="1 2"),
        await game.say(bob, "buio"),
        await harness.slash(bob, "tavolo siedi", buyin=100),
        await harness.slash(eve, "tavolo siedi", buyin=5000),
        await harness.slash(bob, "tavolo inizia"),
        await harness.slash(bob, "tavolo chiudi"),
        await harness.slash(alice, "tavolo chiudi"),
        await harness.slash(alice, "tavolo nuovo", variante="texas"),
        await harness.slash(bob, "tavolo rientra"),
        await harness.click(alice, game.message, label="Passo"),
        await harness.click(eve, game.message, label="Le mie carte"),
    ]
    for reply in replies:
        assert reply.ephemeral, reply.content
        assert one_sentence(reply.content), reply.content
    assert game.live.view() == view
    assert await seats(harness) == ledger
    game.finish()


# ------------------------------------------------------------------------------------------------
# The amount words


async def test_rilancio_piatto_in_texas_raises_the_size_of_the_pot(harness: Any) -> None:
    alice, bob, carol = (harness.user(n) for n in ("alice", "bob", "carol"))
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob, carol], cip=10, limite="nolimit")
    # Alice deals; bob posts 5, carol 10; alice speaks first facing 10 in a pot of 15.
    await game.start(alice, stacked(["Ah Kh", "Qs Qd", "7c 7d"], "2h 7h 2s 9c 3h 4d 3s Kc"))
    raised = await game.say(alice, "rilancio", importo="piatto")
    # The pot-size raise: call 10 (the pot is then 25), and raise 25 more, to 35 in all.
    assert f"<@{alice.id}> rilancia 25 fiches" in raised.content, raised.content
    game.finish()


# ------------------------------------------------------------------------------------------------
# The table message deleted by a moderator


async def test_a_deleted_table_message_is_posted_again_for_the_rest_of_the_hand(harness: Any) -> None:
    game, _alice, bob = await heads_up(harness)
    harness.fake.store[game.live.message_id].deleted = True  # a moderator removes it
    await game.say(bob, "apro", importo="10")
    assert game.live.message_id is not None, "no table message for the rest of the hand"
    message = harness.fake.store[game.live.message_id]
    assert not message.deleted
    assert "Vedo 10 fiches" in {c.get("label") for c in message.components}
    game.finish()


async def test_a_dealer_with_less_than_the_invito_posts_what_he_has_and_the_hand_plays(harness: Any) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await harness.slash(alice, "tavolo nuovo", channel="generale", variante="italiana")
    await harness.slash(bob, "tavolo siedi", channel="generale", buyin=995)
    game = Game(harness)
    await game.open(alice, "italiana", [])
    await harness.slash(bob, "tavolo siedi", channel="poker")  # the first seat: bob deals first
    await harness.slash(alice, "tavolo siedi", channel="poker", buyin=300)
    before = await total(harness, alice, bob)
    # Deal order alice, bob: alice holds the jacks.
    start = await game.start(alice, stacked(["Jh Js 9c Td Ah", "9h 9d Qc Kd As"], "Qh Ks Kh Qd Jd"))
    assert game.live.view().dealer == bob.id
    assert "mette invito: 5 fiches" in start.content, start.content
    short = await game.say(alice, "apro", importo="5")
    assert short.ephemeral and "la puntata minima è di 10" in short.content
    opened = await game.say(alice, "apro", importo="cip")
    assert f"10 fiches non chiamate tornano a <@{alice.id}>" in opened.content, opened.content
    await game.say(alice, "servito")
    await game.say(bob, "servito")
    assert not game.table.hand_running
    assert f"<@{alice.id}> vince il piatto: 5 fiches" in game.message.text(), game.message.text()
    assert await total(harness, alice, bob) == before
    assert await harness.bot.storage.check() == []
    game.finish()


async def test_draw_words_in_texas_are_refused_privately_and_change_nothing(harness: Any) -> None:
    alice, bob, carol = (harness.user(n) for n in ("alice", "bob", "carol"))
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob, carol], cip=10, limite="nolimit")
    await game.start(alice, stacked(["Ah Kh", "Qs Qd", "7c 7d"], "2h 7h 2s 9c 3h 4d 3s Kc"))
    view = game.live.view()
    for command, options in (("cambio", {"carte": "1"}), ("servito", {}), ("buio", {}), ("apro", {})):
        reply = await game.say(alice, command, **options)
        assert reply.ephemeral and reply.content.startswith("Adesso non puoi dire"), reply.content
    assert game.live.view() == view
    await game.say(alice, "vedo")
    await game.say(bob, "vedo")
    await game.say(carol, "paròl")  # the big blind checks his option
    assert game.live.view().street.value == "flop"
    bet = await game.say(bob, "punto", importo="cip")
    assert f"<@{bob.id}> punta 10 fiches" in bet.content, bet.content
    game.finish()
