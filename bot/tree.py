"""The error funnel: every failed command ends here and gets one private Italian sentence.

Cogs never catch errors themselves. A refusal (`EngineError`, `StorageError`, `UserError`, a bad
option, a missing permission, a command used in DMs) is answered privately with its sentence; an
unexpected exception is logged with its traceback and the player gets a short private apology;
a database that does not answer (a driver error, not a refusal) is logged the same way for the
operator, and the player is told that it is the database. Discord failing while a command is answered
(`bot.errors.discord_failed`: a dropped connection, a 5xx, rate limits past discord.py's retries)
is no bug of ours: a warning,
and the player, if he can still be reached, is sent to the table message, which the renderer keeps
true whatever happened.
Views and buttons (which discord.py does not route through the tree) call `report_error` for the
same treatment.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.errors import NETWORK_ERRORS, UserError, discord_failed
from bot.storage import DATABASE_FAILURES, StorageError
from engine.errors import EngineError

__all__ = [
    "APOLOGY",
    "DATABASE_DOWN",
    "DISCORD_FAILED",
    "PokerTree",
    "ServedElsewhere",
    "guild_id_of",
    "offer_choices",
    "report_error",
    "require_guild",
    "send_private",
    "user_message",
]

log = logging.getLogger(__name__)

APOLOGY = (
    "Qualcosa è andato storto dalla mia parte: riprova tra poco; "
    "se succede ancora, avvisa chi gestisce il bot."
)
DATABASE_DOWN = (
    "Il database del bot non risponde in questo momento: riprova tra poco; "
    "se succede ancora, avvisa chi gestisce il bot."
)
DISCORD_FAILED = (
    "La connessione con Discord si è interrotta mentre ti rispondevo: "
    "il messaggio del tavolo mostra com'è andata."
)
DM_REFUSAL = "Questo comando funziona solo nei canali di un server, non nei messaggi privati."
SERVED_ELSEWHERE = (
    "I tavoli di questo server sono gestiti da un'altra istanza del bot: riprova tra qualche secondo."
)
UNKNOWN_INTERACTION = 10062
"""Discord's code for an interaction answered after its 3 seconds (or already gone)."""
UNKNOWN_COMMAND = "Non conosco questo comando: forse è appena stato aggiornato, riprova tra qualche secondo."
_PERMISSION_NAMES = {
    "manage_guild": "Gestisci server",
    "manage_channels": "Gestisci canali",
    "manage_messages": "Gestisci messaggi",
    "administrator": "Amministratore",
}


class ServedElsewhere(UserError, app_commands.CheckFailure):
    """The interaction's server is on a gateway shard another bot process runs (a shard that moved)."""


def require_guild(interaction: discord.Interaction) -> int:
    """The one guild-only check of the bot: every command (`PokerTree.interaction_check`) and every
    component of the game (bot/views.py, cogs/gioco.py) passes here; DMs are refused, and so is a
    server whose tables another process serves (`PokerBot.serves_guild`, sharding)."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    # Only PokerBot knows its shards; another client (a test's, a bare discord.Client) serves every server.
    serves = getattr(getattr(interaction, "client", None), "serves_guild", None)
    if serves is not None and not serves(interaction.guild_id):
        raise ServedElsewhere(SERVED_ELSEWHERE)
    return interaction.guild_id


def guild_id_of(interaction: discord.Interaction) -> int:
    """The server of a command (the tree already refused DMs): the same check, for the type checker."""
    return require_guild(interaction)


def user_message(error: BaseException) -> str | None:
    """The Italian sentence for an error the player caused, or None when the bot is at fault."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, EngineError | StorageError | UserError):
        return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return DM_REFUSAL
    if isinstance(error, app_commands.MissingPermissions):
        names = ", ".join(f"«{_PERMISSION_NAMES.get(p, p)}»" for p in error.missing_permissions)
        return f"Per questo comando ti serve il permesso {names} sul server."
    if isinstance(error, app_commands.TransformerError):
        return f"Il valore «{error.value}» non va bene per questa opzione: controllalo e riprova."
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return UNKNOWN_COMMAND
    if isinstance(error, app_commands.CheckFailure):
        return "Non puoi usare questo comando qui."
    return None


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, as a first response or as a follow-up when the bot already acknowledged.

    Commands that wait for a busy table acknowledge privately (bot/session.py), so a follow-up
    refusal is never preceded by anything public.
    """
    quiet = discord.AllowedMentions.none()  # a refusal may name a player: show him, never ping him
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=quiet)
        return
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=quiet)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the player what went wrong; log (with traceback) what was not his fault."""
    text = user_message(error)
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    command = interaction.command.qualified_name if interaction.command else None
    what = command or f"component {interaction.data.get('custom_id') if interaction.data else None}"
    if isinstance(cause, discord.NotFound) and cause.code == UNKNOWN_INTERACTION:
        # Answered after Discord's 3 seconds (a process too busy to answer in time): no bug of ours,
        # and nothing can reach the player through this interaction any more.
        log.warning(
            "Interaction %s expired before its answer (%s, user %s): %s",
            interaction.id,
            what,
            interaction.user.id,
            cause,
        )
        return
    if text is None and interaction.client.is_closed():
        # The bot is stopping (SIGTERM): its HTTP session is gone under a command still answering
        # (a retry waiting out a 5xx). What the command wrote stands; nothing can be answered now.
        log.warning("Interaction %s (%s) cut short by the shutdown: %r", interaction.id, what, cause)
        return
    if text is None and discord_failed(cause):
        log.warning(
            "Interaction %s: Discord failed while %s was answered (user %s): %r",
            interaction.id,
            what,
            interaction.user.id,
            cause,
        )
        text = DISCORD_FAILED
    elif text is None:
        log.error(
            "Database error in %s (guild %s, channel %s, user %s)"
            if isinstance(cause, DATABASE_FAILURES)
            else "Unexpected error in %s (guild %s, channel %s, user %s)",
            what,
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            exc_info=(type(cause), cause, cause.__traceback__),
        )
        text = DATABASE_DOWN if isinstance(cause, DATABASE_FAILURES) else APOLOGY
    try:
        await send_private(interaction, text)
    except (discord.HTTPException, *NETWORK_ERRORS) as exc:
        # The interaction expired or Discord is down: nothing more can reach the player.
        log.warning("Could not deliver an error reply to user %s: %s", interaction.user.id, exc)


async def offer_choices(
    interaction: discord.Interaction, choices: list[app_commands.Choice[str]]
) -> list[app_commands.Choice[str]]:
    """Answer an autocomplete with `choices`, for an autocomplete callback to return the result of.

    discord.py would send the callback's choices itself, and logs any failure of that answer at ERROR
    with a traceback ("Ignoring exception in autocomplete"). But an answer after Discord's 3 seconds
    (404, code 10062: a process too busy to answer in time) or Discord failing (`discord_failed`) is no
    bug of ours, as for a command (`report_error`): one WARNING line. Returns no choices: the
    interaction is answered, or past answering, and discord.py sends nothing more for it."""
    try:
        await interaction.response.autocomplete(choices)
    except (discord.HTTPException, *NETWORK_ERRORS) as exc:
        if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION:
            log.warning(
                "Interaction %s expired before its answer (autocomplete of %s, user %s): %s",
                interaction.id,
                interaction.command.qualified_name if interaction.command else None,
                interaction.user.id,
                exc,
            )
        elif discord_failed(exc):
            log.warning("Interaction %s: Discord failed while choices were offered: %r", interaction.id, exc)
        else:
            raise  # Discord refused the choices themselves: a bug of ours, discord.py logs it
        # discord.py answers for the callback unless the response is done; no answer can arrive now.
        interaction.response._response_type = discord.InteractionResponseType.autocomplete_result
    return []


class PokerTree(app_commands.CommandTree[discord.Client]):
    """The command tree with the one error funnel and the DM refusal."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        require_guild(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        await report_error(interaction, error)
