"""Chip commands through the fake Discord, and the error funnel's own replies."""

from __future__ import annotations

import logging
import sqlite3
from types import SimpleNamespace
from typing import Any

import asyncpg
import discord
import pytest
from discord import app_commands
from discord.app_commands.transformers import IdentityTransformer
from discord.enums import AppCommandOptionType

from bot.errors import UserError
from bot.storage import InsufficientChips
from bot.tree import (
    APOLOGY,
    DATABASE_DOWN,
    DM_REFUSAL,
    UNKNOWN_COMMAND,
    PokerTree,
    report_error,
    user_message,
)
from engine.errors import EngineError
from fakediscord import CommandHidden
from tests.discord.gioco_support import Game

START, BONUS = 1000, 200  # the harness's STARTING_CHIPS and DAILY_BONUS


async def movements(harness: Any, user: Any) -> list[tuple[str, int]]:
    history = await harness.bot.storage.history(harness.guild_id, user.id, limit=100)
    return [(entry.reason, entry.amount) for entry in history.entries]


async def test_saldo_is_private_and_opens_the_account(harness: Any) -> None:
    alice = harness.user("alice")
    reply = await harness.slash(alice, "saldo")
    assert reply.ephemeral
    assert reply.content == "Il tuo saldo è di 1.000 fiches."
    assert await movements(harness, alice) == [("start", START)]


async def test_bonus_once_a_day(harness: Any) -> None:
    alice = harness.user("alice")
    reply = await harness.slash(alice, "bonus")
    assert not reply.ephemeral
    assert "ritira il bonus giornaliero di 200 fiches" in reply.content and "1.200 fiches" in reply.content
    before = await movements(harness, alice)
    again = await harness.slash(alice, "bonus")
    assert again.ephemeral
    assert "bonus" in again.content.lower()
    assert await movements(harness, alice) == before
    assert await harness.bot.storage.balance(harness.guild_id, alice.id) == START + BONUS


async def test_bonus_turned_off_is_refused(harness_factory: Any) -> None:
    harness = await harness_factory(daily_bonus=0)
    alice = harness.user("alice")
    reply = await harness.slash(alice, "bonus")
    assert reply.ephemeral and "non è attivo" in reply.content
    assert await harness.bot.storage.balance(harness.guild_id, alice.id) == START


async def test_classifica_orders_players_by_chips_including_those_at_tables(harness: Any) -> None:
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    await harness.slash(alice, "saldo")
    await harness.slash(bob, "bonus")
    await harness.slash(carol, "tavolo nuovo", variante="italiana")
    await harness.slash(carol, "tavolo siedi", buyin=600)
    await harness.slash(harness.user("admin", manage_guild=True), "accredita", utente=carol, importo=500)
    reply = await harness.slash(alice, "classifica")
    assert not reply.ephemeral
    lines = reply.embeds[0]["description"].splitlines()
    assert lines == [
        f"**1.** <@{carol.id}>: 1.500 fiches (di cui 600 fiches al tavolo)",
        f"**2.** <@{bob.id}>: 1.200 fiches",
        f"**3.** <@{alice.id}>: 1.000 fiches",
    ]


async def test_classifica_of_an_empty_server(harness: Any) -> None:
    reply = await harness.slash(harness.user("alice"), "classifica")
    assert reply.embeds[0]["description"] == "Nessuno ha ancora giocato su questo server."


async def test_storico_is_private_and_lists_movements(harness: Any) -> None:
    alice = harness.user("alice")
    await harness.slash(alice, "bonus")
    await harness.slash(alice, "tavolo nuovo", variante="italiana")
    await harness.slash(alice, "tavolo siedi", buyin=300)
    reply = await harness.slash(alice, "storico")
    assert reply.ephemeral
    fields = {field["name"]: field["value"] for field in reply.embeds[0]["fields"]}
    assert fields["Ultime mani"] == "Nessuna mano giocata."
    lines = fields["Ultimi movimenti"].splitlines()
    assert [line.split(" <t:")[0] for line in lines] == [
        "−300 fiches (seduto al tavolo)",
        "+200 fiches (bonus giornaliero)",
        "+1.000 fiches (fiches iniziali)",
    ]


async def test_accredita_by_a_manager(harness: Any) -> None:
    admin, bob = harness.user("admin", manage_guild=True), harness.user("bob")
    reply = await harness.slash(admin, "accredita", utente=bob, importo=750)
    assert not reply.ephemeral
    assert f"<@{admin.id}> accredita 750 fiches a <@{bob.id}>, che ora ha 1.750 fiches." == reply.content
    assert await movements(harness, bob) == [("grant", 750), ("start", START)]
    assert await harness.bot.storage.check() == []


async def test_accredita_is_hidden_from_players_without_manage_server(harness: Any) -> None:
    with pytest.raises(CommandHidden):
        await harness.slash(harness.user("alice"), "accredita", utente=harness.user("bob"), importo=10)


async def test_accredita_to_a_bot_is_refused(harness: Any) -> None:
    admin = harness.user("admin", manage_guild=True)
    reply = await harness.slash(admin, "accredita", utente=harness.fake.bot_user, importo=10)
    assert reply.ephemeral and "bot" in reply.content
    assert await harness.bot.storage.leaderboard(harness.guild_id) == []


# The error funnel (bot.tree) without Discord: the refusals Discord's own client normally prevents.


class FakeResponse:
    def __init__(self, done: bool) -> None:
        self.done = done
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return self.done

    async def send_message(
        self, text: str, *, ephemeral: bool = False, allowed_mentions: discord.AllowedMentions | None = None
    ) -> None:
        assert _pings_nobody(allowed_mentions), "a refusal may name a player: it must not ping him"
        self.sent.append((text, ephemeral))


def _pings_nobody(allowed: discord.AllowedMentions | None) -> bool:
    return allowed is not None and allowed.to_dict() == discord.AllowedMentions.none().to_dict()


class FakeFollowup:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    async def send(
        self, text: str, *, ephemeral: bool = False, allowed_mentions: discord.AllowedMentions | None = None
    ) -> None:
        assert _pings_nobody(allowed_mentions), "a refusal may name a player: it must not ping him"
        self.sent.append((text, ephemeral))


def fake_interaction(*, done: bool = False, guild_id: int | None = 1, closing: bool = False) -> Any:
    return SimpleNamespace(
        client=SimpleNamespace(is_closed=lambda: closing),
        id=4,
        response=FakeResponse(done),
        followup=FakeFollowup(),
        command=SimpleNamespace(qualified_name="tavolo siedi"),
        data={},
        guild_id=guild_id,
        channel_id=2,
        user=SimpleNamespace(id=3),
    )


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (UserError("Niente tavolo."), "Niente tavolo."),
        (EngineError("Non è il tuo turno."), "Non è il tuo turno."),
        (InsufficientChips("Non hai abbastanza fiches.", balance=1, needed=2), "Non hai abbastanza fiches."),
        (app_commands.NoPrivateMessage(), DM_REFUSAL),
        (
            app_commands.MissingPermissions(["manage_guild"]),
            "Per questo comando ti serve il permesso «Gestisci server» sul server.",
        ),
        (
            app_commands.TransformerError(
                "abc", AppCommandOptionType.user, IdentityTransformer(AppCommandOptionType.user)
            ),
            "Il valore «abc» non va bene per questa opzione: controllalo e riprova.",
        ),
        (app_commands.CommandNotFound("tavolo", []), UNKNOWN_COMMAND),
    ],
)
async def test_user_errors_are_answered_privately_in_italian(error: Exception, expected: str) -> None:
    interaction = fake_interaction()
    wrapped = error if isinstance(error, app_commands.AppCommandError) else _invoke_error(error)
    await report_error(interaction, wrapped)
    assert interaction.response.sent == [(expected, True)]
    assert user_message(wrapped) == expected


def _invoke_error(error: Exception) -> app_commands.CommandInvokeError:
    command = app_commands.Command(name="x", description="x", callback=_noop)
    return app_commands.CommandInvokeError(command, error)


async def _noop(interaction: Any) -> None:
    return None


async def test_an_error_after_the_response_goes_as_a_private_follow_up() -> None:
    interaction = fake_interaction(done=True)
    await report_error(interaction, _invoke_error(UserError("Troppo tardi.")))
    assert interaction.response.sent == []
    assert interaction.followup.sent == [("Troppo tardi.", True)]


async def test_an_unexpected_error_is_logged_and_apologised_for(caplog: pytest.LogCaptureFixture) -> None:
    interaction = fake_interaction()
    try:
        raise ZeroDivisionError("a bug")
    except ZeroDivisionError as exc:
        error = _invoke_error(exc)
    with caplog.at_level(logging.ERROR, logger="bot.tree"):
        await report_error(interaction, error)
    assert interaction.response.sent == [(APOLOGY, True)]
    (record,) = caplog.records
    assert record.levelno == logging.ERROR and "tavolo siedi" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is ZeroDivisionError


async def test_a_command_cut_short_by_the_shutdown_is_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    """The bot is stopping: its HTTP session closed under a command still answering (a retry)."""
    interaction = fake_interaction(closing=True)
    error = _invoke_error(RuntimeError("Session is closed"))
    with caplog.at_level(logging.WARNING, logger="bot.tree"):
        await report_error(interaction, error)
    assert interaction.response.sent == [] and interaction.followup.sent == [], "nothing can be answered"
    (record,) = caplog.records
    assert record.levelno == logging.WARNING and "shutdown" in record.getMessage()


@pytest.mark.parametrize(
    "failure",
    [sqlite3.OperationalError("disk I/O error"), asyncpg.exceptions.ConnectionDoesNotExistError("closed")],
    ids=["sqlite", "postgresql"],
)
async def test_a_database_that_does_not_answer_is_named_to_the_player(
    caplog: pytest.LogCaptureFixture, failure: Exception
) -> None:
    """A driver error is no refusal and no bug of the player's: the operator gets an ERROR with the
    traceback, the player one private sentence that names the database."""
    interaction = fake_interaction()
    try:
        raise failure
    except type(failure) as exc:
        error = _invoke_error(exc)
    with caplog.at_level(logging.ERROR, logger="bot.tree"):
        await report_error(interaction, error)
    assert interaction.response.sent == [(DATABASE_DOWN, True)]
    (record,) = caplog.records
    assert record.levelno == logging.ERROR and record.getMessage().startswith("Database error in")
    assert record.exc_info is not None and record.exc_info[0] is type(failure)


async def test_a_broken_constraint_is_a_bug_not_a_database_down(caplog: pytest.LogCaptureFixture) -> None:
    interaction = fake_interaction()
    try:
        raise sqlite3.IntegrityError("CHECK constraint failed: balance >= 0")
    except sqlite3.IntegrityError as exc:
        error = _invoke_error(exc)
    with caplog.at_level(logging.ERROR, logger="bot.tree"):
        await report_error(interaction, error)
    assert interaction.response.sent == [(APOLOGY, True)]
    (record,) = caplog.records
    assert record.getMessage().startswith("Unexpected error in")


async def test_the_tree_refuses_interactions_from_dms() -> None:
    tree = PokerTree.__new__(PokerTree)
    with pytest.raises(app_commands.NoPrivateMessage):
        await tree.interaction_check(fake_interaction(guild_id=None))
    assert await tree.interaction_check(fake_interaction(guild_id=5)) is True


async def test_storico_lists_the_balance_movements_after_ten_hands(harness: Any) -> None:
    """/storico promises "i tuoi ultimi movimenti di fiches": the balance's movements (start, bonus,
    buy-in), asked of the ledger as such: ten hands' seat entries do not push them out."""
    alice, bob = harness.user("alice"), harness.user("bob")
    users = {alice.id: alice, bob.id: bob}
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob], avviso="off")
    for _ in range(10):
        await game.start(alice)
        await game.say(users[game.table.to_act], "passo")  # the small blind folds: the hand is over
        assert not game.table.hand_running
    reply = await harness.slash(alice, "storico")
    assert reply.ephemeral
    fields = {field["name"]: field["value"] for field in reply.embeds[0]["fields"]}
    assert len(fields["Ultime mani"].splitlines()) == 10
    lines = [line.split(" <t:")[0] for line in fields["Ultimi movimenti"].splitlines()]
    assert lines == ["−300 fiches (seduto al tavolo)", "+1.000 fiches (fiches iniziali)"], lines
    game.finish()


async def test_storico_lists_only_hands_the_player_was_dealt_into(harness: Any) -> None:
    """`HandSummary` is "a hand the player was dealt into", as /statistiche counts them. A player who
    sits out (two timeouts in a row) is not dealt in, though `hand_seats` copies every seat at the start
    of a hand: /storico does not list the hands he sat out ("+0")."""
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    game = Game(harness)
    await game.open(alice, "texas", [alice, bob, carol], avviso="off")
    for _ in range(6):
        if any(s.player == carol.id and s.sitting_out for s in game.live.view().seats):
            break
        await game.start(alice)
        while game.table.hand_running:
            if game.table.to_act == carol.id:
                await game.expire()
            else:
                kinds = {str(a.kind) for a in game.table.legal_actions()}
                await game.say(users[game.table.to_act], "vedo" if "vedo" in kinds else "paròl")
    assert any(s.player == carol.id and s.sitting_out for s in game.live.view().seats)
    dealt_in = (await harness.bot.storage.player_stats(harness.guild_id, carol.id))[0].hands
    # One hand she sits out: alice and bob only.
    await game.start(alice)
    started = game.table.hand_number
    while game.table.hand_running:
        kinds = {str(a.kind) for a in game.table.legal_actions()}
        await game.say(users[game.table.to_act], "passo" if "passo" in kinds else "paròl")
    assert (await harness.bot.storage.player_stats(harness.guild_id, carol.id))[0].hands == dealt_in
    reply = await harness.slash(carol, "storico")
    fields = {field["name"]: field["value"] for field in reply.embeds[0]["fields"]}
    listed = fields["Ultime mani"].splitlines()
    assert len(listed) == dealt_in, listed
    assert not any(f"mano {started}:" in line for line in listed), listed
    game.finish()


async def test_empty_balance_refusal_does_not_send_to_a_bonus_that_is_off(harness_factory: Any) -> None:
    """With DAILY_BONUS=0 the /bonus is refused ("non è attivo"): a player whose balance is empty is
    not told by /tavolo siedi to go and claim it, only to ask whoever runs the server."""
    harness = await harness_factory(daily_bonus=0)
    alice = harness.user("alice")
    await harness.slash(alice, "tavolo nuovo", variante="italiana")
    await harness.slash(alice, "tavolo siedi", buyin=1000)  # her whole balance
    await harness.slash(alice, "tavolo nuovo", channel="generale", variante="italiana")
    refused = await harness.slash(alice, "tavolo siedi", channel="generale")
    assert refused.ephemeral and "saldo è vuoto" in refused.content
    bonus = await harness.slash(alice, "bonus")
    assert bonus.ephemeral and "non è attivo" in bonus.content
    assert "/bonus" not in refused.content, refused.content


async def test_storico_of_a_new_player_does_not_call_him_a_stranger(harness: Any) -> None:
    """/storico asked first opens the player's account as /saldo does (the starting chips), and shows
    it: it never answers him in the third person that "Questo giocatore non ha ancora un conto"."""
    alice = harness.user("alice")
    reply = await harness.slash(alice, "storico")
    assert reply.ephemeral
    assert "Questo giocatore" not in (reply.content or ""), reply.content


async def test_classifica_gives_players_with_equal_chips_the_same_rank(harness: Any) -> None:
    """Two players with the same chips are tied: /classifica gives them the same place (1., 1.), not
    1. and 2. in the arbitrary order of their Discord ids."""
    alice, bob = harness.user("alice"), harness.user("bob")
    await harness.slash(alice, "saldo")
    await harness.slash(bob, "saldo")
    reply = await harness.slash(alice, "classifica")
    lines = reply.embeds[0]["description"].splitlines()
    assert len(lines) == 2 and all(line.endswith(": 1.000 fiches") for line in lines), lines
    ranks = [line.split("**")[1] for line in lines]
    assert ranks[0] == ranks[1] == "1.", lines
