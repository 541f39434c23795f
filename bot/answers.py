"""The bot's answers to interactions, sent without asking Discord for the message back.

discord.py (2.7) asks Discord to return the message that every interaction answer creates or edits
(``?with_response=1``) and builds a `discord.Message` from it: on a busy bot that is a large part of
an answer's CPU, for a message nothing here reads. `respond` and `update` send the same payloads
through the same webhook adapter of discord.py (its rate-limit handling, retries and
`discord.HTTPException` family), without that query, so Discord answers ``204 No Content``; only
`respond(..., want_id=True)`, used when a new table message is posted, asks for the message and reads
just its id. Afterwards discord.py is told the interaction was answered, so `is_done()`, follow-ups
and `edit_original_response` behave as after its own methods.

This leans on three private names of the pinned discord.py (``Interaction._session``,
``InteractionResponse._response_type`` and the webhook adapter's ``request``); the tests of the
game run through here on every answer, so an upgrade that moves them fails loudly.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import Route
from discord.webhook.async_ import async_context, interaction_message_response_params

__all__ = ["respond", "update"]

_CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


async def respond(
    interaction: discord.Interaction, *, ephemeral: bool = False, want_id: bool = False, **message: Any
) -> int | None:
    """Answer with a new message (``content``, ``embed``, ``view``, ``files``...); with `want_id`,
    return its id (Discord then sends the message back and only its id is read)."""
    flags = discord.MessageFlags(ephemeral=True) if ephemeral else discord.utils.MISSING
    kind = discord.InteractionResponseType.channel_message
    data = await _callback(interaction, kind, want_id, flags=flags, **message)
    if not want_id or not isinstance(data, dict):
        return None
    resource = data.get("resource") or {}
    found = (resource.get("message") or {}).get("id")
    return int(found) if found is not None else None


async def update(interaction: discord.Interaction, **message: Any) -> None:
    """Answer a click by editing the message it was on (``content``, ``embed``, ``view``, files...)."""
    await _callback(interaction, discord.InteractionResponseType.message_update, False, **message)


async def _callback(
    interaction: discord.Interaction,
    kind: discord.InteractionResponseType,
    want_response: bool,
    **message: Any,
) -> Any:
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    params = interaction_message_response_params(
        type=kind.value, previous_allowed_mentions=state.allowed_mentions, **message
    )
    route = Route("POST", _CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token)
    query = {"with_response": "1"} if want_response else None
    http = state.http
    common: dict[str, Any] = {
        "session": interaction._session,
        "proxy": http.proxy,
        "proxy_auth": http.proxy_auth,
        "params": query,
    }
    adapter = async_context.get()
    if params.files:
        data = await adapter.request(route, files=params.files, multipart=params.multipart, **common)
    else:
        data = await adapter.request(route, payload=params.payload, **common)
    response._response_type = kind
    return data
