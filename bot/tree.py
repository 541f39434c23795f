"""The error funnel: every failed command ends here and gets one private Italian sentence.

Cogs never catch errors themselves. A refusal (`EngineError`, `StorageError`, `UserError`, a bad
option, a missing permission, a command used in DMs) is answered privately with its sentence; an
unexpected exception is logged with its traceback and the player gets a short private apology.
Views and buttons (which discord.py does not route through the tree) call `report_error` for the
same treatment.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands

from bot.errors import UserError
from bot.storage import StorageError
from engine.errors import EngineError

__all__ = [
    "APOLOGY",
    "PUBLIC_PLACEHOLDER",
    "PokerTree",
    "acknowledge_if_busy",
    "guild_id_of",
    "report_error",
    "send_private",
    "user_message",
]

log = logging.getLogger(__name__)

APOLOGY = (
    "Qualcosa è andato storto dalla mia parte: riprova tra poco; "
    "se succede ancora, avvisa chi gestisce il bot."
)
DM_REFUSAL = "Questo comando funziona solo nei canali di un server, non nei messaggi privati."
UNKNOWN_COMMAND = "Non conosco questo comando: forse è appena stato aggiornato, riprova tra qualche secondo."
_PERMISSION_NAMES = {
    "manage_guild": "Gestisci server",
    "manage_channels": "Gestisci canali",
    "manage_messages": "Gestisci messaggi",
    "administrator": "Amministratore",
}


def guild_id_of(interaction: discord.Interaction) -> int:
    """The server of a command; the tree already refused DMs, this keeps the type checker and cogs honest."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


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


PUBLIC_PLACEHOLDER = "poker:public_placeholder"
"""`Interaction.extras` key: the command was deferred publicly ("thinking") and not answered yet."""

PLACEHOLDER_TEXT = "…"


async def acknowledge_if_busy(
    interaction: discord.Interaction, lock: asyncio.Lock, *, ephemeral: bool = False
) -> None:
    """Defer now when the table's lock is taken, so Discord's 3-second window cannot run out.

    A command waits on the lock only behind another command of the same table (e.g. a rate-limited
    edit of the table message), so an idle table answers directly, in one REST call. A slash
    command deferred publicly is marked: if it ends in a refusal, `send_private` answers privately
    and removes the public placeholder.
    """
    if not lock.locked() or interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.application_command:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        if not ephemeral:
            interaction.extras[PUBLIC_PLACEHOLDER] = True
    else:
        await interaction.response.defer(ephemeral=ephemeral, thinking=ephemeral)


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, as a first response or as a follow-up when the bot already answered."""
    quiet = discord.AllowedMentions.none()  # a refusal may name a player: show him, never ping him
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=quiet)
        return
    extras = getattr(interaction, "extras", {})  # stand-ins of Interaction in unit tests may lack it
    if extras.pop(PUBLIC_PLACEHOLDER, False):
        # Discord turns the first follow-up after a "thinking" defer into the placeholder itself,
        # which is public: settle the placeholder first, answer privately, then remove it.
        await interaction.edit_original_response(content=PLACEHOLDER_TEXT)
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=quiet)
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as exc:
            log.warning("Could not remove the placeholder of user %s: %s", interaction.user.id, exc)
        return
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=quiet)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the player what went wrong; log (with traceback) what was not his fault."""
    text = user_message(error)
    if text is None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        command = interaction.command.qualified_name if interaction.command else None
        log.error(
            "Unexpected error in %s (guild %s, channel %s, user %s)",
            command or f"component {interaction.data.get('custom_id') if interaction.data else None}",
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            exc_info=(type(cause), cause, cause.__traceback__),
        )
        text = APOLOGY
    try:
        await send_private(interaction, text)
    except discord.HTTPException as exc:
        # The interaction expired or Discord is down: nothing more can reach the player.
        log.warning("Could not deliver an error reply to user %s: %s", interaction.user.id, exc)


class PokerTree(app_commands.CommandTree[discord.Client]):
    """The command tree with the one error funnel and the DM refusal."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        await report_error(interaction, error)
