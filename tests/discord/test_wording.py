"""How the bot words what players read: the same chip format and words everywhere, singular and plural
agreeing with the amount, refusals naming what the player can type, and nothing private turned public."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from bot import render, views
from bot.table_settings import TableSettings
from engine.actions import ActionKind, LegalAction
from engine.errors import AmountOutOfRange, InvalidOptions
from engine.options import TableOptions
from fakediscord import ErrorWatch
from tests.discord.gioco_support import HEADS_UP_TEXAS, Game
from tests.discord.torneo_support import Torneo
from tests.engine.table_helpers import K, act, make_table


async def test_tavolo_nuovo_beside_a_tournament_does_not_claim_there_is_a_table(harness: Any) -> None:
    h = harness
    alice, carol = h.user("alice"), h.user("carol")
    await Torneo(h).announce(alice, "texas", buyin=100, posti=3)
    refused = await h.slash(carol, "tavolo nuovo", variante="texas")
    status = await h.slash(carol, "tavolo stato")
    assert refused.ephemeral and status.ephemeral
    assert "non c'è un tavolo aperto" in status.content
    # The refusal says a table is open, and the next command says there is none: the tournament is named.
    assert "torneo" in refused.content, refused.content


async def test_insufficient_chips_uses_the_bots_chip_format(harness: Any) -> None:
    h = harness
    alice = h.user("alice")
    await h.slash(alice, "tavolo nuovo", variante="texas", cip=20)
    refused = await h.slash(alice, "tavolo siedi", buyin=1500)
    assert refused.ephemeral
    # It once read: "Non hai abbastanza fiches: ne servono 1500 e il tuo saldo è 1000."
    assert "1.500 fiches" in refused.content and "1.000 fiches" in refused.content, refused.content


async def test_the_refused_word_list_spells_parol_as_the_command_and_button_do(harness: Any) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    game = Game(h)
    await game.open(alice, "texas", [alice, bob])
    await game.start(alice, HEADS_UP_TEXAS)
    first = bob if game.table.to_act == bob.id else alice
    other = alice if first is bob else bob
    await game.say(first, "vedo")
    refused = await game.say(other, "vedo")  # the big blind may only check or raise
    assert refused.ephemeral
    # It once read: "Adesso non puoi dire «vedo»: puoi dire parol, rilancio." (the command is /paròl)
    assert "paròl" in refused.content, refused.content
    game.finish()


async def test_tournament_levels_use_the_thousands_separator(harness: Any) -> None:
    h = harness
    alice = h.user("alice")
    reply = await Torneo(h).announce(alice, "texas", cip=1000)
    # It once read: "... 100.000 fiches di gettoni a testa ... si parte da livello 1: bui 500/1000."
    assert "1000" not in reply.content, reply.content


async def test_a_pace_of_one_hand_is_singular(harness: Any) -> None:
    h = harness
    alice = h.user("alice")
    reply = await Torneo(h).announce(alice, "texas", ritmo=1)
    assert "ogni 1 mani" not in reply.content, reply.content


async def test_one_chip_is_not_followed_by_a_plural_verb(harness: Any) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=1, posti=3)
    await game.join([alice, bob])
    left = await h.slash(bob, "torneo ritirati")
    assert not left.ephemeral
    assert "1 fiche tornano" not in left.content, left.content


async def test_payout_named_by_its_words_not_its_internal_value(harness: Any) -> None:
    h = harness
    alice = h.user("alice")
    await Torneo(h).announce(alice, "texas", premi="vincitore")
    status = await h.slash(alice, "torneo stato")
    assert "ripartizione vincitore" not in status.text(), status.text()


async def test_tavolo_stato_of_a_tournament_table_does_not_offer_tavolo_chiudi(harness: Any) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=10, posti=2)
    await game.join([alice, bob])  # full: it starts
    await h.settle()
    closed = await h.slash(alice, "tavolo chiudi")
    assert closed.ephemeral and "tavolo di un torneo" in closed.content
    status = await h.slash(bob, "tavolo stato")
    assert "/tavolo chiudi" not in status.text(), status.text()


async def test_a_failed_riepilogo_is_answered_privately(harness: Any, monkeypatch: Any) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    await Game(h).open(alice, "texas", [alice, bob])

    async def database_down(*_args: Any, **_kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(h.bot.storage, "table_summary", database_down)
    with ErrorWatch.on(h.fake).expecting():
        reply = await h.slash(bob, "tavolo riepilogo")
        await h.settle()
    violations, h.fake.violations[:] = list(h.fake.violations), []
    public = [m.content for m in h.messages("poker")]
    assert not any("database" in (text or "") for text in public), public
    assert violations == [], violations
    assert reply.ephemeral


def test_the_raise_modal_keeps_over_the_call_and_the_thousands_separator() -> None:
    modal = views.amount_modal(LegalAction(ActionKind.RILANCIO, 20, 1980), table_id=1, hand=1, turn=1)
    label = modal.to_components()[0]["components"][0]["label"]
    # It once read: "Da 20 a 1980 fiches": the "sopra la chiamata" meaning and the separator are dropped.
    assert "1.980" in label and "chiamata" in label, label


def test_a_limit_the_variant_refuses_is_named_as_the_choices_name_it() -> None:
    with pytest.raises(InvalidOptions, match=r"può essere solo: pot limit\.$"):
        TableOptions.from_dict({"variant": "italiana", "limite": "fisso"})


async def test_regole_states_the_computer_and_ping_options_of_this_table(harness: Any) -> None:
    """/tavolo regole states the bot's options of the table too (max_computer, avviso), as the README
    says: a table opened with max_computer 0 and avviso off refuses a computer player."""
    alice, bob = harness.user("alice"), harness.user("bob")
    opened = await harness.slash(alice, "tavolo nuovo", variante="italiana", max_computer=0, avviso="off")
    assert not opened.ephemeral, opened.content
    await harness.slash(alice, "tavolo siedi", buyin=300)
    refused = await harness.slash(alice, "tavolo computer")
    assert refused.ephemeral and "non possono sedersi giocatori del computer" in refused.content
    text = (await harness.slash(bob, "tavolo regole")).text()
    assert "computer" in text, text
    assert "avvis" in text.lower() or "menzion" in text.lower(), text


def test_a_bet_beyond_the_stack_is_refused_in_the_chip_format() -> None:
    """The one chip format (engine/italian.py) in refusals: «1.500 fiches», as the table message
    and the balance refusal write it, not «ne hai 1500»."""
    table = make_table("texas", players=2, stack=1500, limite="nolimit")
    table.start_hand()
    with pytest.raises(AmountOutOfRange) as refused:
        act(table, table.to_act or 0, K.RILANCIO, 5000)
    assert "1.495 fiches" in str(refused.value), str(refused.value)


def test_regole_says_one_second_in_the_singular() -> None:
    """The series makes «1» singular everywhere (1 fiche, ogni mano, 1 mano): /tavolo regole of a
    table with avviso 1 must not read «dopo 1 secondi»."""
    embed = render.rules_embed(TableOptions(variant="texas"), TableSettings(ping_after=1))
    assert "1 secondi" not in (embed.description or ""), embed.description
