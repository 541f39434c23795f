"""Request bodies as Discord reads them: JSON, or multipart with `payload_json` and the `files[n]` parts."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import BodyPartReader, web

from fakediscord.limits import Upload


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON payload and the uploaded files, bytes included (tests read them back)."""
    if request.content_type.startswith("multipart/"):
        payload: Any = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            else:
                data = bytes(await part.read())
                content_type = part.headers.get("Content-Type", "application/octet-stream")
                uploads.append(Upload(part.name or "file", part.filename or "file", data, content_type))
        return payload, uploads
    if request.can_read_body:
        text = await request.text()
        return (json.loads(text) if text else {}), []
    return {}, []
