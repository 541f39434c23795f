"""A message with files, encoded as one ``multipart/form-data`` body in a single pass.

discord.py hands its multipart parts to `aiohttp.FormData`, whose writer builds a payload object,
headers and a task per part at every send: for a card DM (a line of text and a 4 kB picture) that
costs more CPU than the request itself. The parts discord.py prepares (``payload_json`` and
``files[n]``, `discord.http.handle_message_parameters`) are joined here into one body instead
(`bot.transport.Body`, an aiohttp `BytesPayload`); discord.py still sends it, with its rate limits,
retries and errors. Parts this encoder does not know how to write safely (a file that is not in
memory, a name needing escapes) return None, and the caller lets discord.py encode them as before.
"""

from __future__ import annotations

import io
import re
import secrets
from collections.abc import Sequence
from typing import Any

from bot.transport import Body

__all__ = ["encode"]

_SAFE_NAME = re.compile(r"[A-Za-z0-9_.\[\]-]{1,64}")


def encode(parts: Sequence[dict[str, Any]]) -> Body | None:
    """The body of `parts` (discord.py's ``MultipartParameters.multipart``), or None to fall back."""
    boundary = secrets.token_hex(16)
    chunks: list[bytes] = []
    for part in parts:
        name, value, filename = part.get("name"), part.get("value"), part.get("filename")
        if not isinstance(name, str) or not _SAFE_NAME.fullmatch(name):
            return None
        if isinstance(value, str):
            data = value.encode()
        elif isinstance(value, io.BytesIO):
            data = value.getvalue()
        else:
            return None
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"'
        if filename is not None:
            if not isinstance(filename, str) or not _SAFE_NAME.fullmatch(filename):
                return None
            head += f'; filename="{filename}"'
        content_type = part.get("content_type") or ("application/json" if name == "payload_json" else None)
        if content_type is not None:
            head += f"\r\nContent-Type: {content_type}"
        chunks += [head.encode(), b"\r\n\r\n", data, b"\r\n"]
    chunks.append(f"--{boundary}--\r\n".encode())
    return Body(b"".join(chunks), content_type=f"multipart/form-data; boundary={boundary}")
