"""What the bot sends to Discord's REST API without building discord.py objects from the answers.

discord.py (2.7) builds a `discord.Message` from every message it posts or edits, and asks Discord
to return the message that every interaction answer creates or edits (``?with_response=1``) to
build one from it too: on a busy bot that is a large part of a call's CPU, for a message nothing
here reads. The functions here send the same payloads through the same routes of discord.py (its
rate-limit handling, retries and `discord.HTTPException` family) and read at most an id:

- `respond` and `update` answer an interaction through discord.py's webhook adapter without that
  query, so Discord answers ``204 No Content``; only `respond(..., want_id=True)`, used when a new
  table message is posted, asks for the message and reads just its id. Afterwards discord.py is
  told the interaction was answered, so `is_done()`, follow-ups and `edit_original_response`
  behave as after its own methods.
- `send` posts in a channel (a table message, a DM) and returns the new id; `edit` edits a message.
  A message with files goes as one multipart body encoded once (bot/multipart.py).

This leans on three private names of the pinned discord.py (``Interaction._session``,
``InteractionResponse._response_type`` and the webhook adapter's ``request``); the tests of the
game run through here on every answer, so an upgrade that moves them fails loudly.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import MultipartParameters, Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot import multipart

__all__ = ["edit", "respond", "send", "update"]

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


async def send(bot: discord.Client, channel_id: int, **message: Any) -> int:
    """Post through discord.py's raw route and return the new message's id.

    `Messageable.send` would build a `Message` from Discord's answer, which nothing here reads: that
    is most of a post's CPU in discord.py. Same payload, same errors (`discord.HTTPException`).
    """
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    with handle_message_parameters(previous_allowed_mentions=bot.allowed_mentions, **message) as params:
        data = await _request(bot, route, params)
    return int(data["id"])


async def edit(bot: discord.Client, channel_id: int, message_id: int, **message: Any) -> None:
    """Edit through discord.py's raw route, building no `Message` from the answer (see `send`).
    The game's components are plain JSON (bot/views.py): there is no view for discord.py to store."""
    mentions = bot.allowed_mentions if "content" in message else None  # as `Message.edit` does
    path = "/channels/{channel_id}/messages/{message_id}"
    route = Route("PATCH", path, channel_id=channel_id, message_id=message_id)
    with handle_message_parameters(previous_allowed_mentions=mentions, **message) as params:
        await _request(bot, route, params)


async def _request(bot: discord.Client, route: Route, params: MultipartParameters) -> Any:
    """What discord.py's `send_message` and `edit_message` send, except that a message with files (a
    card DM's picture, the table's image) goes as one multipart body encoded once (bot/multipart.py)."""
    if not params.files:
        return await bot.http.request(route, json=params.payload)
    body = multipart.encode(params.multipart or [])
    if body is None:  # a part the encoder leaves to discord.py
        return await bot.http.request(route, files=params.files, form=params.multipart)
    return await bot.http.request(route, data=body)
